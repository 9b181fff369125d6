#include "plugin/matrix/nmod_mat_mul.hpp"

#include <bit>
#include <vector>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/matrix/nmod_mat_rows.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "zgpu/error.hpp"

namespace zgpu::matrix {
namespace {

void gpu_product(nmod_mat_struct* c, const nmod_mat_struct* a, const nmod_mat_struct* b)
{
    const std::vector<const limb_t*> a_rows = rows_of<const limb_t*>(a), b_rows = rows_of<const limb_t*>(b);
    const std::vector<limb_t*> c_rows = rows_of<limb_t*>(c);
    gpu::nmod_mat_mul(a_rows, b_rows, c_rows, std::size_t(a->c), std::size_t(b->c), a->mod.n);
}

MatShape shape_of(const nmod_mat_struct* a, const nmod_mat_struct* b)
{
    return {std::uint64_t(a->r), std::uint64_t(a->c), std::uint64_t(b->c), unsigned(std::bit_width(a->mod.n - 1))};
}

// FLINT's product, on all host threads where it is large enough for them (its classical product
// splits rows over FLINT's pool).
void flint_product(nmod_mat_struct* c, const nmod_mat_struct* a, const nmod_mat_struct* b)
{
    const FlintThreads threads(cpu_uses_threads(shape_of(a, b)) ? host_threads() : 1);
    ::nmod_mat_mul(c, a, b);
}

bool empty(const nmod_mat_struct* c, const nmod_mat_struct* a) { return c->r == 0 || c->c == 0 || a->c == 0; }

}  // namespace

Backend nmod_mat_product_on(Backend backend, nmod_mat_struct* c, const nmod_mat_struct* a, const nmod_mat_struct* b,
                            const NmodMatGpu& gpu)
{
    // Empty products (FLINT zeroes c where the inner dimension is 0) stay with FLINT.
    if (empty(c, a)) backend = Backend::cpu;
    Backend ran = backend;
    run_on(
        backend,
        [&] { return ran = gpu_or_host([&] { gpu(c, a, b); }, [&] { flint_product(c, a, b); }, "a matrix product"); },
        [&] { flint_product(c, a, b); });
    return ran;
}

bool gpu_pays_for_nmod_mat_product(const nmod_mat_struct* a, const nmod_mat_struct* b)
{
    return a->r && b->c && a->c && gpu_pays_for_nmod_mat_mul(shape_of(a, b), host_threads());
}

Backend nmod_mat_product(nmod_mat_struct* c, const nmod_mat_struct* a, const nmod_mat_struct* b)
{
    const bool gpu_possible = requested_backend() != Backend::cpu && !empty(c, a);
    const Backend backend = gpu_possible ? choose(gpu_pays_for_nmod_mat_product(a, b)) : Backend::cpu;
    return nmod_mat_product_on(backend, c, a, b, gpu_product);
}

}  // namespace zgpu::matrix
