#include "plugin/poly/nmod_compose.hpp"

#include <bit>
#include <vector>

#include <flint/ulong_extras.h>

#include "base/parallel.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/poly/poly_choice.hpp"

namespace zgpu::poly {
namespace {

std::uint64_t ceil_log2(std::uint64_t x) { return x < 2 ? 0 : std::uint64_t(std::bit_width(x - 1)); }

// FLINT's rectangular splitting of a group of rows: about rows / 3 products mod f (a plain
// product is a third of one) and 2 sqrt(rows) more for the powers and the remainders.
std::uint64_t flint_group_steps(std::uint64_t rows) { return rows / 3 + 2 * (n_sqrt(rows) + 1); }

// A batch of one group of a composition's products takes at most this much device memory; the
// GPU's batches grow with the degree times the rows of a group (about 112 m^1.5 bytes for the
// precomp form), so the largest degrees stay with FLINT.
constexpr std::size_t kMaxGroupBytes = std::size_t(1) << 30;

// Whether a composition modulo f with groups of `group` rows fits the GPU's transforms and
// batches. The cost model asks it too, so that the plugin's gates, which call FLINT's own
// function (a threaded one among them) where the model says no, see it.
bool fits_gpu(slong lenf, slong group)
{
    return transform_length_estimate(std::uint64_t(lenf - 1), std::uint64_t(lenf - 1)) <= gpu::kMaxPolyTransform &&
           gpu::nmod_compose_group_bytes(std::size_t(lenf - 1), std::size_t(group)) <= kMaxGroupBytes;
}

// Whether the GPU can take a composition modulo f with groups of `group` rows at all (the cost
// model aside).
bool gpu_can(slong lenf, const ulong* f, slong lenfinv, nmod_t mod, slong group)
{
    if (requested_backend() == Backend::cpu || lenf < 3 || mod.n < 2 || lenfinv < 1 || !fits_gpu(lenf, group)) return false;
    ulong inverse = 0;
    return n_gcdinv(&inverse, f[lenf - 1], mod.n) == 1;
}

}  // namespace

std::pair<slong, slong> nmod_compose_vec_blocks(slong lenf, slong count)
{
    const slong inner = slong(n_sqrt(ulong(lenf - 1) * ulong(count))) + 1;
    return {inner, lenf / inner + 1};
}

bool gpu_pays_for_nmod_compose_precomp(slong lenf, slong inner, ulong n)
{
    if (!fits_gpu(lenf, inner)) return false;
    const std::uint64_t m = std::uint64_t(lenf - 1), rows = std::uint64_t(inner);
    const std::uint64_t rounds = 3 + ceil_log2(rows), gpu_steps = rows + rows / 3 + 1, flint_steps = flint_group_steps(rows) + 1;
    return gpu_pays_for_nmod_compose(m, rounds, gpu_steps, flint_steps, rows * m + rows * rows + 3 * m, n, host_threads());
}

bool gpu_pays_for_nmod_compose_vec(slong lenf, slong count, ulong n)
{
    const auto [inner, group] = nmod_compose_vec_blocks(lenf, count);
    if (!fits_gpu(lenf, group)) return false;
    const std::uint64_t m = std::uint64_t(lenf - 1), rows = std::uint64_t(group), polys = std::uint64_t(count);
    const std::uint64_t rounds = 3 + ceil_log2(std::uint64_t(inner)) + ceil_log2(rows);
    const std::uint64_t gpu_steps = std::uint64_t(inner) + rows + polys * (rows / 3 + 1);
    const std::uint64_t flint_steps = std::uint64_t(inner) + polys * flint_group_steps(rows);
    const std::uint64_t words = polys * rows * std::uint64_t(inner) + 2 * m + polys * m;
    return gpu_pays_for_nmod_compose(m, rounds, gpu_steps, flint_steps, words, n, host_threads());
}

Backend nmod_poly_compose_mod_precomp(const NmodComposePrecomp& c, const std::function<void()>& on_cpu)
{
    const bool possible = gpu_can(c.lenf, c.f, c.lenfinv, c.mod, c.inner) && c.inner >= 2 && c.len1 <= c.inner * c.inner;
    const Backend backend = possible ? choose(gpu_pays_for_nmod_compose_precomp(c.lenf, c.inner, c.mod.n)) : Backend::cpu;
    Backend ran = backend;
    const auto on_gpu = [&] {
        gpu::nmod_poly_compose_mod_precomp(c.res, c.poly1, std::size_t(c.len1), c.a_rows, std::size_t(c.inner),
                                           {std::size_t(c.h_rows.first), std::size_t(c.h_rows.second)}, c.f, std::size_t(c.lenf),
                                           c.finv, std::size_t(c.lenfinv), c.mod.n);
    };
    run_on(backend, [&] { return ran = gpu_or_host(on_gpu, on_cpu, "a composition mod f"); }, on_cpu);
    return ran;
}

Backend nmod_poly_compose_mod_vec(const NmodComposeVec& c, const std::function<void()>& on_cpu)
{
    const bool possible = c.count >= 1 && c.glen < c.lenf && gpu_can(c.lenf, c.f, c.lenfinv, c.mod, nmod_compose_vec_blocks(c.lenf, c.count).second);
    const Backend backend = possible ? choose(gpu_pays_for_nmod_compose_vec(c.lenf, c.count, c.mod.n)) : Backend::cpu;
    Backend ran = backend;
    const auto on_gpu = [&] {
        const std::vector<std::size_t> lengths(c.lengths, c.lengths + c.count);
        const auto [inner, group] = nmod_compose_vec_blocks(c.lenf, c.count);
        gpu::nmod_poly_compose_mod_vec(c.res, c.polys, lengths.data(), std::size_t(c.count), std::size_t(inner), std::size_t(group), c.g, std::size_t(c.glen), c.f,
                                       std::size_t(c.lenf), c.finv, std::size_t(c.lenfinv), c.mod.n);
    };
    run_on(backend, [&] { return ran = gpu_or_host(on_gpu, on_cpu, "compositions mod f"); }, on_cpu);
    return ran;
}

}  // namespace zgpu::poly
