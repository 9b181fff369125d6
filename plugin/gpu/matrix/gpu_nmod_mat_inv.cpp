// The inverse of an nmod matrix on the GPU, and solutions by it (matrix_backend.hpp): the
// matrices go up band by band as they are gathered (host_rows.hpp), a is inverted by block
// recursion on Schur complements (block_inverse.hpp), multiplied into b where there is one
// (product_mod.hpp), and the result comes back band by band.
// ZGPU_TIMING=1 prints the split to stderr.
#include <bit>
#include <cstdio>

#include "kernels/modular/modulus.hpp"
#include "plugin/gpu/matrix/block_inverse.hpp"
#include "plugin/gpu/matrix/host_rows.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/runtime.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {
namespace {

// The preconditioner's random entries lie below 2^61 (block_inverse.hpp): it needs larger moduli.
constexpr limb_t kPreconditionFrom = limb_t(1) << 61;

// out = a^-1 b, or a^-1 where b has no rows: a of n rows, b and out of n rows of `cols` words.
// Returns det a, or 0 where the recursion stood aside.
limb_t invert_then_multiply(std::span<const limb_t* const> rows, std::span<const limb_t* const> b_rows, std::size_t cols,
                          std::span<limb_t* const> out_rows, limb_t p)
{
    const bool solve = !b_rows.empty();
    const std::size_t n = rows.size(), words = n * n, bytes = words * sizeof(limb_t);
    const std::size_t out_cols = solve ? cols : n, out_bytes = n * out_cols * sizeof(limb_t);
    const std::size_t b_bytes = solve ? out_bytes : 0;
    const Clock::time_point start = Clock::now();
    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    limb_t* host = reinterpret_cast<limb_t*>(runtime.staging(bytes + b_bytes));
    // The modulus and the determinant, then a and b (uploaded together), a^-1 and a^-1 b.
    constexpr std::size_t kHeadBytes = 256;
    static_assert(sizeof(kernels::Modulus) + sizeof(limb_t) <= kHeadBytes);
    std::byte* device = runtime.scratch(kHeadBytes + 2 * bytes + 2 * b_bytes);
    auto* modulus = reinterpret_cast<kernels::Modulus*>(device);
    auto* det = reinterpret_cast<limb_t*>(device + sizeof(kernels::Modulus));
    const auto at = [&](std::size_t offset) { return reinterpret_cast<limb_t*>(device + kHeadBytes + offset); };
    const kernels::MatricesView a{at(0), n, n, n, words, 1};
    const kernels::MatricesView b{at(bytes), n, cols, cols, n * cols, 1};
    const kernels::MatricesView inverse{at(bytes + b_bytes), n, n, n, words, 1};
    const kernels::MatricesView product{at(2 * bytes + b_bytes), n, cols, cols, n * cols, 1};
    enum Phase { kUpload, kInverse, kProduct };
    PhaseTimes times(3);
    auto* readback = runtime.readback<kernels::Modulus>();
    *readback = kernels::make_modulus(p);
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(modulus, readback, sizeof *readback, cudaMemcpyHostToDevice, stream), "uploading a modulus");
    upload_rows(rows, n, host, a.data, stream);
    if (solve) upload_rows(b_rows, cols, host + words, b.data, stream);
    times.end(kUpload, stream);
    const Clock::time_point queued = Clock::now();
    const unsigned bits = unsigned(std::bit_width(p));
    const auto determinant = [&] {
        limb_t* value = runtime.readback<limb_t>();
        check(cudaMemcpyAsync(value, det, sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "reading a determinant");
        runtime.synchronize("an inverse mod p");
        return *value;
    };
    times.begin(kInverse, stream);
    invert_by_blocks(runtime, a, inverse, modulus, bits, det);
    limb_t found = determinant();
    if (found == 0 && p > kPreconditionFrom) {
        invert_by_blocks_preconditioned(runtime, a, inverse, modulus, bits, det);
        found = determinant();
    }
    times.end(kInverse, stream);
    if (found == 0) return 0;
    times.begin(kProduct, stream);
    if (solve) mat_mul_mod(runtime, inverse, b, modulus, bits, product);
    times.end(kProduct, stream);
    // Before the rows are written: reading the events may fail.
    if (times.on()) {
        runtime.synchronize("an inverse mod p");
        std::fprintf(stderr,
                     "zgpu: %s of %zu x %zu mod %llu on the GPU: gathering while uploading %.2f ms on the host, upload %.2f ms, "
                     "inverse %.2f ms, product %.2f ms, ",
                     solve ? "solution" : "inverse", n, out_cols, static_cast<unsigned long long>(p), milliseconds(queued - start),
                     times.milliseconds(kUpload), times.milliseconds(kInverse), times.milliseconds(kProduct));
    }
    const Clock::time_point computed = Clock::now();
    download_rows(solve ? product.data : inverse.data, host, out_cols, out_rows, stream);
    if (times.on())
        std::fprintf(stderr, "downloading while scattering %.2f ms, total %.2f ms\n", milliseconds(Clock::now() - computed),
                     milliseconds(Clock::now() - start));
    return found;
}

}  // namespace

limb_t nmod_mat_inv(std::span<const limb_t* const> rows, std::span<limb_t* const> out_rows, limb_t p)
{
    return invert_then_multiply(rows, {}, 0, out_rows, p);
}

limb_t nmod_mat_solve(std::span<const limb_t* const> rows, std::span<const limb_t* const> b_rows, std::size_t cols,
                      std::span<limb_t* const> out_rows, limb_t p)
{
    return invert_then_multiply(rows, b_rows, cols, out_rows, p);
}

}  // namespace zgpu::gpu
