// Arithmetic of nmod polynomials modulo another on the GPU (poly_backend.hpp): a product mod f,
// and powers mod f whose every step stays on the device (mod_f_batch.hpp, batches of one). The
// operands go up once and the result comes down once; a chain of separate products (FLINT's
// through the plugin) crosses PCIe at each of them instead. ZGPU_TIMING=1 prints a power's split
// to stderr.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>

#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/poly/mod_f_batch.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {

void nmod_poly_powmod(limb_t* res, const limb_t* base, std::span<const limb_t> exponent, const limb_t* f, std::size_t lenf,
                      const limb_t* finv, std::size_t finv_length, limb_t n)
{
    const Clock::time_point start = Clock::now();
    check_modulus_degree("nmod_poly_powmod", lenf);
    if (exponent.empty() || exponent.back() == 0) throw Error("nmod_poly_powmod: needs a nonzero exponent");
    const std::size_t m = lenf - 1, words = m * sizeof(limb_t);
    ModFBatchPlan plan(m, n, m, m, 1);
    ModFCall call(plan);
    const std::size_t base_at = call.layout.reserve(words);
    call.end_uploads();
    const std::size_t power_at[2] = {call.layout.reserve(words), call.layout.reserve(words)};
    call.run(f, finv, finv_length, [&](const ModFBatch& batch, std::byte* staging, std::byte* device, Runtime& runtime) {
        const cudaStream_t stream = runtime.stream();
        limb_t* staged_base = reinterpret_cast<limb_t*>(staging + base_at);
        if (base) std::copy_n(base, m, staged_base);
        else std::fill_n(staged_base, m, limb_t(0)), staged_base[1] = 1;  // x, reduced: f has degree 2 or more

        enum Phase { kUpload, kSteps, kDownload };
        PhaseTimes times(3);
        times.begin(kUpload, stream);
        call.upload(device, staging, stream);
        times.end(kUpload, stream);
        times.begin(kSteps, stream);
        const auto at = [&](std::size_t offset) { return reinterpret_cast<limb_t*>(device + offset); };
        const limb_t* power = at(base_at);
        int next = 0;
        const int top_bit = 64 * int(exponent.size() - 1) + std::bit_width(exponent.back()) - 1;
        const auto step = [&](const limb_t* by) {
            batch.mulmod({power}, {by}, 1, at(power_at[next]), m);
            power = at(power_at[next]);
            next ^= 1;
        };
        for (int bit = top_bit - 1; bit >= 0; --bit) {
            step(power);
            if ((exponent[std::size_t(bit) / 64] >> (bit % 64)) & 1) step(at(base_at));
        }
        times.end(kSteps, stream);
        times.begin(kDownload, stream);
        check(cudaMemcpyAsync(staging, power, words, cudaMemcpyDeviceToHost, stream), "downloading a power");
        times.end(kDownload, stream);
        runtime.synchronize("a power mod f");
        // Before res is written: reading the events may fail.
        if (times.on())
            std::fprintf(stderr,
                         "zgpu: nmod_poly power mod f of degree %zu, exponent of %d bits: upload %.2f ms, steps %.2f ms, "
                         "download %.2f ms, total %.2f ms\n",
                         m, top_bit + 1, times.milliseconds(kUpload), times.milliseconds(kSteps), times.milliseconds(kDownload),
                         milliseconds(Clock::now() - start));
        std::copy_n(reinterpret_cast<const limb_t*>(staging), m, res);
    });
}

void nmod_poly_mulmod(limb_t* res, const limb_t* a, std::size_t a_length, const limb_t* b, std::size_t b_length, const limb_t* f,
                      std::size_t lenf, const limb_t* finv, std::size_t finv_length, limb_t n)
{
    check_modulus_degree("nmod_poly_mulmod", lenf);
    const std::size_t m = lenf - 1;
    if (a_length < 1 || b_length < 1 || a_length > m || b_length > m || a_length + b_length - 1 <= m)
        throw Error("nmod_poly_mulmod: operands of " + std::to_string(a_length) + " and " + std::to_string(b_length) +
                    " coefficients, modulo f of degree " + std::to_string(m) + ": each at most the degree, their product longer");
    ModFBatchPlan plan(m, n, a_length, b_length, 1);
    ModFCall call(plan);
    const std::size_t a_at = call.layout.reserve(a_length * sizeof(limb_t)), b_at = call.layout.reserve(b_length * sizeof(limb_t));
    call.end_uploads();
    const std::size_t product_at = call.layout.reserve(m * sizeof(limb_t));
    call.run(f, finv, finv_length, [&](const ModFBatch& batch, std::byte* staging, std::byte* device, Runtime& runtime) {
        const cudaStream_t stream = runtime.stream();
        std::copy_n(a, a_length, reinterpret_cast<limb_t*>(staging + a_at));
        std::copy_n(b, b_length, reinterpret_cast<limb_t*>(staging + b_at));
        call.upload(device, staging, stream);
        const auto at = [&](std::size_t offset) { return reinterpret_cast<limb_t*>(device + offset); };
        const bool square = a == b && a_length == b_length;
        batch.mulmod({at(a_at)}, {square ? at(a_at) : at(b_at)}, 1, at(product_at), m);
        check(cudaMemcpyAsync(staging, at(product_at), m * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading a product mod f");
        runtime.synchronize("a product mod f");
        std::copy_n(reinterpret_cast<const limb_t*>(staging), m, res);
    });
}

}  // namespace zgpu::gpu
