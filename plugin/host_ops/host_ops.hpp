// Operations on host data, as the front ends (flint/, ntl/) call them: each chooses the backend
// (its cost rule in host_choice.hpp), runs the GPU path or the front end's own CPU code, and
// records which backend ran. The front ends have checked the arguments; operands are measured
// (host_operand) before the call, since the choice depends on their sizes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "adapters/host_operand.hpp"

namespace zgpu {

// The element count from which products or divisions of such operands pay for the host
// threads: about 2^16 limb products of work, a times b limbs (for divisions a bound on the
// quotient's times the divisor's); the CPU backend's threshold for products too.
inline std::size_t host_min_parallel(const HostOperand& a, const HostOperand& b)
{
    const std::uint64_t work = std::max<std::uint64_t>(1, a.max_limbs) * std::max<std::uint64_t>(1, b.max_limbs);
    return std::size_t(std::max<std::uint64_t>(2, (std::uint64_t(1) << 16) / work));
}

// Computes elements begin .. end - 1 on the host.
using HostRange = std::function<void(std::size_t begin, std::size_t end)>;

// Runs r[i] = a[i] +- b[i], i < count, on the chosen backend and records which ran. On the CPU,
// on_cpu(0, count) computes it with the library's own arithmetic, any size allowed. On the GPU
// the operands are made (and so checked against kMaxLimbs) first, then on_gpu_result gets the
// packed results chunk by chunk, in order; should the GPU fail once some were given, on_cpu
// computes the rest (see gpu::run).
void add_sub_host(const std::function<HostOperand()>& make_a, const std::function<HostOperand()>& make_b,
                  std::size_t count, bool subtract, const HostRange& on_cpu, const HostResult& on_gpu_result);

// Runs r[i] = a[i] * b[i] (b of `count` elements) or a[i] * b[0] (b of one), likewise.
void mul_host(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
              const HostRange& on_cpu, const HostResult& on_gpu_result);

// Runs r[i] +-= a[i] * b[i] (or b[0]), r and a of `count` elements, likewise: the GPU's sums
// chunk by chunk, each written after its chunk of r and a was read.
void addmul_host(const HostOperand& r, const HostOperand& a, std::size_t count, const HostOperand& b,
                 std::size_t b_count, bool subtract, const HostRange& on_cpu, const HostResult& on_gpu_result);

// Runs q[i] = a[i] / b[i] (or b[0]), exact and unchecked, likewise: the GPU's quotients chunk
// by chunk. The caller has checked that no divisor is zero.
void divexact_host(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                   const HostRange& on_cpu, const HostResult& on_gpu_result);

// Divisions with remainder of host data: floor or truncating quotient and remainder, or the
// floor remainder alone by one positive modulus (mod).
enum class HostDivision { floor, truncate, mod };

// Runs a division with remainder of a[i] by b[i] (b of `count` elements) or by b[0] (b of one;
// always for mod), likewise: on the CPU on_cpu(0, count); on the GPU on_gpu_result(first, q, r)
// gets the quotients (an empty view for mod) and remainders chunk by chunk, in order, each
// written after its chunk of a and b was read, and on_cpu(first, count) computes the rest should
// the GPU fail once some were given. The caller has checked the divisors (nonzero; positive for
// mod).
void div_host(HostDivision kind, const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
              const HostRange& on_cpu, const HostDivisionResult& on_gpu_result);

// Runs q[i] = a[i] / b[i] (or b[0]), checked, likewise: on the CPU on_cpu() computes and checks
// every element; on the GPU on_gpu_result(0, q) gets every quotient at once, and only if every
// element divides exactly. Returns the first index that does not (no result given; on the CPU
// on_cpu reports it itself), else count. The caller has checked that no divisor is zero.
std::size_t divexact_checked_host(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                                  const std::function<void()>& on_cpu, const HostResult& on_gpu_result);

}  // namespace zgpu
