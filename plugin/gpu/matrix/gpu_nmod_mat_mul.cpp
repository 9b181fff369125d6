// Matrix products mod n from host rows: a and b gathered into pinned memory on all host threads
// and uploaded band by band (host_rows.hpp), the product (product_mod.hpp) on the first device,
// c downloaded and scattered band by band. ZGPU_TIMING=1 prints the host's and the device's
// parts.
#include <bit>
#include <cstdio>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix/host_rows.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/runtime.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {

void nmod_mat_mul(std::span<const limb_t* const> a_rows, std::span<const limb_t* const> b_rows, std::span<limb_t* const> c_rows,
                  std::size_t inner, std::size_t cols, limb_t n)
{
    const std::size_t rows = a_rows.size();
    const std::size_t a_words = rows * inner, b_words = inner * cols, c_words = rows * cols;
    const Clock::time_point start = Clock::now();
    const KeepWorkersAwake awake;  // gathering and scattering right after each other
    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    // Pinned: a, b, then c; on the device: the modulus, a, b, c.
    limb_t* host = reinterpret_cast<limb_t*>(runtime.staging((a_words + b_words + c_words) * sizeof(limb_t)));
    std::byte* device = runtime.scratch(sizeof(kernels::Modulus) + (a_words + b_words + c_words) * sizeof(limb_t));
    auto* modulus = reinterpret_cast<kernels::Modulus*>(device);
    limb_t* a = reinterpret_cast<limb_t*>(device + sizeof(kernels::Modulus));
    limb_t *b = a + a_words, *c = b + b_words;
    enum Phase { kUpload, kProduct };
    PhaseTimes times(2);
    const kernels::Modulus m = kernels::make_modulus(n);
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(modulus, &m, sizeof m, cudaMemcpyHostToDevice, stream), "uploading the modulus");
    upload_rows(a_rows, inner, host, a, stream);
    upload_rows(b_rows, cols, host + a_words, b, stream);
    times.end(kUpload, stream);
    const Clock::time_point queued = Clock::now();
    times.begin(kProduct, stream);
    mat_mul_mod(runtime, {a, rows, inner, inner, a_words, 1}, {b, inner, cols, cols, b_words, 1}, modulus, unsigned(std::bit_width(n)),
                {c, rows, cols, cols, c_words, 1});
    times.end(kProduct, stream);
    // Before any row is written: reading the events may fail.
    if (times.on()) {
        runtime.synchronize("a matrix product mod n");
        std::fprintf(stderr,
                     "zgpu: %zu x %zu times %zu x %zu mod %llu on the GPU: gathering while uploading %.2f ms on the host, upload "
                     "%.2f ms, product %.2f ms, ",
                     rows, inner, inner, cols, static_cast<unsigned long long>(n), milliseconds(queued - start),
                     times.milliseconds(kUpload), times.milliseconds(kProduct));
    }
    const Clock::time_point computed = Clock::now();
    download_rows(c, host + a_words + b_words, cols, c_rows, stream);
    if (times.on()) std::fprintf(stderr, "downloading while scattering %.2f ms\n", milliseconds(Clock::now() - computed));
}

}  // namespace zgpu::gpu
