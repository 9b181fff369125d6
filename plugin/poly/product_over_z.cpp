#include "plugin/poly/product_over_z.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>

#include "base/parallel.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/poly/flint_threads.hpp"
#include "plugin/poly/poly_choice.hpp"
#include "plugin/poly/product_primes.hpp"
#include "plugin/host_ops/progress.hpp"
#include "zgpu/error.hpp"

namespace zgpu::poly {
namespace {

// Whether the GPU takes the product, judged before its prime set is made: coefficients that
// fit batches; a transform within the limit (the least power of two >= la + lb - 1, and the
// limit is a power of two); CRT values that may fit a batch (P > 2^(bits + 1) - 2 has at least
// bits + 1 bits: the set's own size is checked once it is made).
bool gpu_takes(const ZPoly& a, const ZPoly& b, std::size_t out_length)
{
    return out_length > 0 && a.coeffs.too_large.empty() && b.coeffs.too_large.empty() &&
           a.length + b.length - 1 <= gpu::kMaxPolyTransform && (product_bits(a, b) + 1 + 63) / 64 <= kMaxLimbs;
}

PolyShape shape_of(const ZPoly& a, const ZPoly& b, std::size_t out_length)
{
    return {a.length, b.length, out_length, a.bits, b.bits, transform_length_estimate(a.length, b.length),
            crt_primes_estimate(product_bits(a, b))};
}

void on_host(const std::function<void()>& on_cpu)
{
    const FlintThreads threads(host_threads());
    on_cpu();
}

}  // namespace

std::uint64_t product_bits(const ZPoly& a, const ZPoly& b)
{
    const std::uint64_t shorter = std::max<std::uint64_t>(1, std::min(a.length, b.length));
    return a.bits + b.bits + std::uint64_t(std::bit_width(shorter - 1));
}

void gpu_product_over_z(const HostOperand& a, std::size_t a_length, const HostOperand& b, std::size_t b_length,
                        std::size_t out_length, const PrimeSet& set, const HostResult& result)
{
    gpu::fmpz_poly_product(a, a_length, b, b_length, out_length, set.state().gpu_tables(), result);
}

Backend product_over_z(const ZPoly& a, const ZPoly& b, std::size_t out_length, const std::function<void()>& on_cpu,
                       const HostResult& on_gpu_result)
{
    const bool gpu_pays = gpu_takes(a, b, out_length) &&
                          gpu_pays_for_fmpz_poly_product(shape_of(a, b, out_length), host_threads());
    return product_over_z_on(choose(gpu_pays), a, b, out_length, on_cpu, on_gpu_result, gpu_product_over_z);
}

Backend product_over_z_on(Backend backend, const ZPoly& a, const ZPoly& b, std::size_t out_length,
                          const std::function<void()>& on_cpu, const HostResult& on_gpu_result,
                          const ZProductOnGpu& multiply)
{
    if (!gpu_takes(a, b, out_length)) backend = Backend::cpu;
    Progress progress("polynomial product over Z, " + std::to_string(a.length) + " x " + std::to_string(b.length) +
                          " coefficients of " + std::to_string(a.bits) + " x " + std::to_string(b.bits) + " bits",
                      out_length ? flint_fmpz_seconds(shape_of(a, b, out_length)) : 0, out_length);
    const auto on_gpu = [&] {
        const PrimeSet set = product_primes(product_bits(a, b));
        if (set.state().product_limbs > kMaxLimbs) {
            on_host(on_cpu);
            return Backend::cpu;
        }
        bool delivered = false;
        const HostResult result = [&](std::size_t first, ConstBatchView values) {
            delivered = true;
            on_gpu_result(first, values);
            progress.advance(values.count);
        };
        try {
            multiply(a.coeffs, a.length, b.coeffs, b.length, out_length, set, result);
        } catch (const Error& e) {
            // Before the first coefficient nothing is written and the error stands; after, the
            // host computes the product, so that no result is left half written.
            if (!delivered) throw;
            std::fprintf(stderr, "zgpu: the GPU failed during a polynomial product (%s); the host computes it\n", e.what());
            on_host(on_cpu);
            return Backend::cpu;
        }
        return Backend::gpu;
    };
    Backend ran = backend;
    run_on(
        backend, [&] { return ran = on_gpu(); }, [&] { on_host(on_cpu); });
    progress.ran_on(ran);
    return ran;
}

}  // namespace zgpu::poly
