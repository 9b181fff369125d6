// One matrix product over Z on the chosen backend: the FLINT front end (fmpz_mat) ends here,
// its arguments checked, with FLINT's own function as the CPU backend.
#pragma once

#include <cstdint>
#include <functional>

#include "adapters/host_operand.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu::matrix {

// An operand as the product reads it: rows x cols entries, row-major, packed on demand, the
// largest of `bits` bits in absolute value.
struct ZMatrix {
    HostOperand entries;
    std::size_t rows = 0, cols = 0;
    std::uint64_t bits = 0;
};

// A bound on the bits of the product's entries: each is a sum of `inner` products of |a| <
// 2^bits(a) and |b| < 2^bits(b), so below 2^(bits(a) + bits(b) + ceil(log2 inner)).
std::uint64_t product_bits(const ZMatrix& a, const ZMatrix& b);

// The GPU's product (gpu::fmpz_mat_product on the set's device tables), or a test's stand-in.
using ZMatProductOnGpu = std::function<void(const ZMatrix& a, const ZMatrix& b, const PrimeSet& set, const HostResult& result)>;
void gpu_fmpz_mat_product(const ZMatrix& a, const ZMatrix& b, const PrimeSet& set, const HostResult& result);

// c = a b (a.cols == b.rows, neither empty): on the GPU, modulo the primes of
// product_primes(product_bits) and one CRT, on_gpu_result(first, values) gets c's entries from
// `first` on, row-major (in blocks beyond the device's memory: pieces of rows in no set order,
// from several host threads at once, each entry once); on the CPU on_cpu computes it (FLINT's
// function, which may use host_threads() threads). Products the GPU does not take (an entry above kMaxLimbs limbs, or
// CRT values above it) are on_cpu's on either backend. Where the GPU fails, the host computes
// the product with a warning, unless ZGPU_BACKEND=gpu forced it and nothing was written yet:
// then the error stands. Returns the backend that ran.
Backend fmpz_mat_product(const ZMatrix& a, const ZMatrix& b, const std::function<void()>& on_cpu, const HostResult& on_gpu_result);
Backend fmpz_mat_product_on(Backend backend, const ZMatrix& a, const ZMatrix& b, const std::function<void()>& on_cpu,
                            const HostResult& on_gpu_result, const ZMatProductOnGpu& multiply);

}  // namespace zgpu::matrix
