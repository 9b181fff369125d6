// Matrix products mod n from host rows: a and b gathered into pinned memory on all host threads,
// one upload, the product (product_mod.hpp) on the first device, one download, c's rows
// scattered. ZGPU_TIMING=1 prints the host's and the device's parts.
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
    gather_rows(a_rows, inner, host);
    gather_rows(b_rows, cols, host + a_words);
    const Clock::time_point gathered = Clock::now();
    enum Phase { kUpload, kProduct, kDownload };
    PhaseTimes times(3);
    const kernels::Modulus m = kernels::make_modulus(n);
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(modulus, &m, sizeof m, cudaMemcpyHostToDevice, stream), "uploading the modulus");
    check(cudaMemcpyAsync(a, host, (a_words + b_words) * sizeof(limb_t), cudaMemcpyHostToDevice, stream), "uploading matrices");
    times.end(kUpload, stream);
    times.begin(kProduct, stream);
    mat_mul_mod(runtime, {a, rows, inner, inner, a_words, 1}, {b, inner, cols, cols, b_words, 1}, modulus, unsigned(std::bit_width(n)),
                {c, rows, cols, cols, c_words, 1});
    times.end(kProduct, stream);
    times.begin(kDownload, stream);
    check(cudaMemcpyAsync(host + a_words + b_words, c, c_words * sizeof(limb_t), cudaMemcpyDeviceToHost, stream),
          "downloading the product");
    times.end(kDownload, stream);
    runtime.synchronize("a matrix product mod n");
    const Clock::time_point computed = Clock::now();
    scatter_rows(host + a_words + b_words, cols, c_rows);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: %zu x %zu times %zu x %zu mod %llu on the GPU: gathering %.2f ms, GPU %.2f ms (upload %.2f, product "
                     "%.2f, download %.2f), scattering %.2f ms\n",
                     rows, inner, inner, cols, static_cast<unsigned long long>(n), milliseconds(gathered - start),
                     milliseconds(computed - gathered), times.milliseconds(kUpload), times.milliseconds(kProduct),
                     times.milliseconds(kDownload), milliseconds(Clock::now() - computed));
}

}  // namespace zgpu::gpu
