#include "plugin/poly/nmod_powmod.hpp"

#include <bit>
#include <cstdio>
#include <vector>

#include <flint/ulong_extras.h>

#include "base/parallel.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/poly/poly_choice.hpp"
#include "zgpu/error.hpp"

namespace zgpu::poly {
namespace {

// Whether the GPU can take the call at all (the cost model aside).
bool gpu_can(const NmodPowmod& c)
{
    const slong m = c.lenf - 1;
    if (m < 2 || c.e < 2 || c.mod.n < 2 || (c.finv && c.lenfinv < m - 1)) return false;
    if (transform_length_estimate(std::uint64_t(m), std::uint64_t(m)) > gpu::kMaxPolyTransform) return false;
    ulong inverse = 0;
    return n_gcdinv(&inverse, c.f[c.lenf - 1], c.mod.n) == 1;
}

// The first m - 1 coefficients of the inverse of f reversed, by FLINT.
std::vector<ulong> inverse_of_reversed(const NmodPowmod& c)
{
    const slong m = c.lenf - 1;
    std::vector<ulong> reversed(std::size_t(c.lenf)), inverse(std::size_t(m - 1));
    _nmod_poly_reverse(reversed.data(), c.f, c.lenf, c.lenf);
    _nmod_poly_inv_series(inverse.data(), reversed.data(), std::min(c.lenf, m - 1), m - 1, c.mod);
    return inverse;
}

}  // namespace

Backend nmod_poly_powmod(const NmodPowmod& c, const std::function<void()>& on_cpu)
{
    const bool possible = requested_backend() != Backend::cpu && gpu_can(c);
    const std::uint64_t steps = std::uint64_t(std::bit_width(c.e) - 1 + std::popcount(c.e) - 1);
    const Backend backend =
        possible ? choose(gpu_pays_for_nmod_powmod(std::uint64_t(c.lenf - 1), steps, c.mod.n, host_threads())) : Backend::cpu;
    Backend ran = backend;
    run_on(
        backend,
        [&] {
            try {
                std::vector<ulong> inverse;
                if (!c.finv) inverse = inverse_of_reversed(c);
                const ulong e[1] = {c.e};
                gpu::nmod_poly_powmod(c.res, c.base, e, c.f, std::size_t(c.lenf), c.finv ? c.finv : inverse.data(), c.mod.n);
            } catch (const Error& e) {
                // Nothing was written: the host computes it.
                std::fprintf(stderr, "zgpu: the GPU failed during a power mod f (%s); the host computes it\n", e.what());
                on_cpu();
                ran = Backend::cpu;
            }
            return ran;
        },
        on_cpu);
    return ran;
}

}  // namespace zgpu::poly
