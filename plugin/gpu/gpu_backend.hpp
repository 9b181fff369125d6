// What the rest of the plugin calls of the GPU backend. No CUDA type appears here: a build
// without CUDA compiles without_cuda.cpp instead of the files that implement these, so no other
// file needs to know whether this build has a GPU. The GPU side also defines zgpu::gpu_available
// and gpu_unavailable_reason (zgpu/backend.hpp), which callers check before anything else; the
// functions below throw zgpu::Error on failure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "adapters/host_operand.hpp"
#include "kernels/div/division_summary.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// Memory of a DeviceBatch on the GPU (device_memory.cpp). Copies and fills wait for the GPU.
void* allocate(std::size_t bytes);
void release(void* storage) noexcept;
void copy_to_device(void* device, const void* host, std::size_t bytes);
void copy_to_host(void* host, const void* device, std::size_t bytes);
void fill_zero(void* device, std::size_t bytes);
// Waits for all work queued on the first device's stream; throws with the failure of any of it.
void synchronize();
// Starts the first device and takes the pinned staging memory that a large result's CRT
// copies down through (warm_up.cpp), for callers that start the GPU ahead of their first call
// (the FLINT plugin).
void warm_up();

// Batch operations on views in device memory, queued on the first device's stream
// (batch_ops.cpp), with the contracts of the kernels they launch: kernels/add_sub/add_sub.hpp,
// kernels/mul/mul.hpp (through gpu_mul.hpp), kernels/div/divexact.hpp (through gpu_div.hpp),
// kernels/div/divrem.hpp.
void batch_add_sub(ConstBatchView a, ConstBatchView b, BatchView r, bool subtract);
void batch_mul(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b);
// Waits for the GPU.
kernels::DivisionSummary batch_summarize_division(ConstBatchView a, ConstBatchView b);
// Checked, waits for the GPU and returns the first inexact index, else a.count.
std::size_t batch_divexact(ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, bool checked);
void batch_divrem(ConstBatchView a, ConstBatchView b, bool broadcast, bool floor, BatchView q, BatchView r);

// Whether 2-adic division with quotients of that stride fits the GPU's products: it multiplies
// quotients by inverses of their stride and checks them with products by b.
inline bool divexact_fits(std::uint32_t quotient_stride, std::uint32_t divisor_stride)
{
    return 2 * quotient_stride <= kMaxLimbs && quotient_stride + divisor_stride <= kMaxLimbs;
}

// The longest divisor stride of division with remainder on the GPU (the one-warp kernel's).
inline constexpr std::uint32_t kDivremMaxDivisorLimbs = 512;

// Operations on host data through the pipelined path (pipeline.hpp, host_ops.cpp,
// gpu_host_div.cpp): `result` gets the packed results chunk by chunk, in order, and
// `finish_on_host(first)` computes the elements from `first` on should the GPU fail after some
// results were given. Each returns the backend that finished the call. Result strides are the
// caller's, checked against kMaxLimbs. Where elements differ much in size, products, addmul,
// sums and exact quotients run in size groups (grouped_run.hpp): each group's result stride
// then follows from its own elements (result_strides.hpp), results arrive once all groups ran,
// and any GPU failure throws with nothing written.
Backend host_add_sub(const HostOperand& a, const HostOperand& b, std::size_t count, bool subtract,
                     std::uint32_t result_stride, const HostResult& result, const FinishOnHost& finish_on_host);
// b of `count` elements, or of one (b_count == 1) for all; &a == &b squares.
Backend host_mul(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                 std::uint32_t product_stride, const HostResult& result, const FinishOnHost& finish_on_host);
// r +-= a * b: products of result_strides.hpp's product_stride, sums of sum_stride.
Backend host_addmul(const HostOperand& r, const HostOperand& a, std::size_t count, const HostOperand& b,
                    std::size_t b_count, bool subtract, std::uint32_t sum_stride, const HostResult& result,
                    const FinishOnHost& finish_on_host);
// Exact division, unchecked; divexact_fits(quotient_stride, b's stride) must hold.
Backend host_divexact(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                      std::uint32_t quotient_stride, const HostResult& result, const FinishOnHost& finish_on_host);

// Division with remainder, rounded toward -infinity (floor) or zero, as fmpz_fdiv_qr and
// fmpz_tdiv_qr: b of `count` elements or of one for all, nonzero, of at most
// kDivremMaxDivisorLimbs limbs; quotients of quotient_stride (enough for every quotient),
// remainders of remainder_stride (at least b's stride). result(first, q, r).
Backend host_divrem(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count, bool floor,
                    std::uint32_t quotient_stride, std::uint32_t remainder_stride, const HostDivisionResult& result,
                    const FinishOnHost& finish_on_host);
// r[i] = a[i] mod m, m of one element, positive, of at most kDivremMaxDivisorLimbs limbs;
// remainders of remainder_stride (at least m's stride), without quotients.
Backend host_mod(const HostOperand& a, std::size_t count, const HostOperand& m, std::uint32_t remainder_stride,
                 const HostResult& result, const FinishOnHost& finish_on_host);

// Checked exact division: which backend finished, and the first index that does not divide
// exactly (count where all do, or where the host computed the call).
struct CheckedDivision {
    Backend backend;
    std::size_t first_inexact;
};
// Exact division, checked, with divexact_fits(quotient_stride, b's stride) and nonzero
// divisors. The quotients are kept on the host until every chunk is checked: result(0, q) gets
// all of them at once, and only if every element divides exactly, so that nothing is written
// otherwise. A GPU failure before the first chunk's quotients throws, as for the other
// operations; after it, nothing has been written, and on_host() computes (and checks) the whole
// division instead.
CheckedDivision host_divexact_checked(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                                      std::uint32_t quotient_stride, const HostResult& result,
                                      const std::function<void()>& on_host);

}  // namespace zgpu::gpu
