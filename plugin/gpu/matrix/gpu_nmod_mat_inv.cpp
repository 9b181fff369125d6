// The inverse of an nmod matrix on the GPU (matrix_backend.hpp): the matrix goes up once, is
// inverted by block recursion on Schur complements (block_inverse.hpp), and comes back once.
// ZGPU_TIMING=1 prints the split to stderr.
#include <bit>
#include <cstdio>

#include "kernels/modular/modulus.hpp"
#include "plugin/gpu/matrix/block_inverse.hpp"
#include "plugin/gpu/matrix/host_rows.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/runtime.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {
namespace {

// The preconditioner's random entries lie below 2^61 (block_inverse.hpp): it needs larger moduli.
constexpr limb_t kPreconditionFrom = limb_t(1) << 61;

}  // namespace

bool nmod_mat_inv(std::span<const limb_t* const> rows, std::span<limb_t* const> out_rows, limb_t p)
{
    const std::size_t n = rows.size(), words = n * n, bytes = words * sizeof(limb_t);
    const Clock::time_point start = Clock::now();
    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    limb_t* host = reinterpret_cast<limb_t*>(runtime.staging(bytes));
    // The modulus, the determinant, then the matrix and its inverse.
    constexpr std::size_t kHeadBytes = 256;
    static_assert(sizeof(kernels::Modulus) + sizeof(limb_t) <= kHeadBytes);
    std::byte* device = runtime.scratch(kHeadBytes + 2 * bytes);
    auto* modulus = reinterpret_cast<kernels::Modulus*>(device);
    auto* det = reinterpret_cast<limb_t*>(device + sizeof(kernels::Modulus));
    const kernels::MatricesView a{reinterpret_cast<limb_t*>(device + kHeadBytes), n, n, n, words, 1};
    const kernels::MatricesView inverse{reinterpret_cast<limb_t*>(device + kHeadBytes + bytes), n, n, n, words, 1};
    gather_rows(rows, n, host);
    const Clock::time_point gathered = Clock::now();

    enum Phase { kUpload, kInverse, kDownload };
    PhaseTimes times(3);
    auto* readback = runtime.readback<kernels::Modulus>();
    *readback = kernels::make_modulus(p);
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(modulus, readback, sizeof *readback, cudaMemcpyHostToDevice, stream), "uploading a modulus");
    check(cudaMemcpyAsync(a.data, host, bytes, cudaMemcpyHostToDevice, stream), "uploading a matrix");
    times.end(kUpload, stream);
    const unsigned bits = unsigned(std::bit_width(p));
    const auto determinant = [&] {
        limb_t* value = runtime.readback<limb_t>();
        check(cudaMemcpyAsync(value, det, sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "reading a determinant");
        runtime.synchronize("an inverse mod p");
        return *value;
    };
    times.begin(kInverse, stream);
    invert_by_blocks(runtime, a, inverse, modulus, bits, det);
    bool invertible = determinant() != 0;
    if (!invertible && p > kPreconditionFrom) {
        invert_by_blocks_preconditioned(runtime, a, inverse, modulus, bits, det);
        invertible = determinant() != 0;
    }
    times.end(kInverse, stream);
    if (!invertible) return false;
    times.begin(kDownload, stream);
    check(cudaMemcpyAsync(host, inverse.data, bytes, cudaMemcpyDeviceToHost, stream), "downloading an inverse");
    times.end(kDownload, stream);
    runtime.synchronize("an inverse mod p");
    // Before the rows are written: reading the events may fail.
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: inverse of %zu x %zu mod %llu on the GPU: gathering %.2f ms, upload %.2f ms, inverse %.2f ms, download "
                     "%.2f ms, total %.2f ms\n",
                     n, n, static_cast<unsigned long long>(p), milliseconds(gathered - start), times.milliseconds(kUpload),
                     times.milliseconds(kInverse), times.milliseconds(kDownload), milliseconds(Clock::now() - start));
    scatter_rows(host, n, out_rows);
    return true;
}

}  // namespace zgpu::gpu
