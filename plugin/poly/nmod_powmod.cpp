#include "plugin/poly/nmod_powmod.hpp"

#include <bit>
#include <vector>

#include <flint/ulong_extras.h>

#include "base/parallel.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/poly/poly_choice.hpp"
#include "zgpu/error.hpp"

namespace zgpu::poly {
namespace {

// Whether the GPU can take the call at all (the cost model aside).
bool gpu_can(const NmodPowmod& c)
{
    const slong m = c.lenf - 1;
    if (m < 2 || c.e < 2 || c.mod.n < 2) return false;
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
    _nmod_poly_inv_series(inverse.data(), reversed.data(), m - 1, m - 1, c.mod);
    return inverse;
}

}  // namespace

Backend nmod_poly_powmod(const NmodPowmod& c, const std::function<void()>& on_cpu)
{
    const bool possible = requested_backend() != Backend::cpu && gpu_can(c);
    const std::uint64_t steps = powering_steps(c.e), flint_steps = c.base ? steps : powering_squarings(c.e);
    const Backend backend = possible ? choose(gpu_pays_for_nmod_powmod(std::uint64_t(c.lenf - 1), steps, flint_steps, c.mod.n,
                                                                       host_threads()))
                                     : Backend::cpu;
    Backend ran = backend;
    const auto on_gpu = [&] {
        std::vector<ulong> inverse;
        if (!c.finv) inverse = inverse_of_reversed(c);
        const ulong e[1] = {c.e};
        const std::size_t finv_length = c.finv ? std::size_t(c.lenfinv) : inverse.size();
        gpu::nmod_poly_powmod(c.res, c.base, e, c.f, std::size_t(c.lenf), c.finv ? c.finv : inverse.data(), finv_length, c.mod.n);
    };
    run_on(backend, [&] { return ran = gpu_or_host(on_gpu, on_cpu, "a power mod f"); }, on_cpu);
    return ran;
}

Backend nmod_poly_mulmod(const NmodMulmod& c, const std::function<void()>& on_cpu)
{
    const slong m = c.lenf - 1, quotient = c.la + c.lb - 1 - m;
    const bool possible = requested_backend() != Backend::cpu && m >= 2 && c.mod.n >= 2 && c.la >= 1 && c.lb >= 1 && c.la <= m &&
                          c.lb <= m && quotient >= 1 && c.lenfinv >= 1 &&
                          transform_length_estimate(std::uint64_t(m), std::uint64_t(m)) <= gpu::kMaxPolyTransform;
    const Backend backend = possible ? choose(gpu_pays_for_nmod_powmod(std::uint64_t(m), 1, 1, c.mod.n, host_threads())) : Backend::cpu;
    Backend ran = backend;
    const auto on_gpu = [&] {
        gpu::nmod_poly_mulmod(c.res, c.a, std::size_t(c.la), c.b, std::size_t(c.lb), c.f, std::size_t(c.lenf), c.finv,
                              std::size_t(c.lenfinv), c.mod.n);
    };
    run_on(backend, [&] { return ran = gpu_or_host(on_gpu, on_cpu, "a product mod f"); }, on_cpu);
    return ran;
}

}  // namespace zgpu::poly
