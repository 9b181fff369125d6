// Matrix products and determinants on residue batches: on the GPU through gpu::residues_mat_mul
// and gpu::residues_mat_det, on the CPU FLINT's nmod_mat_mul and nmod_mat_det modulus by
// modulus on the host threads.
#include <algorithm>
#include <string>
#include <utility>

#include <flint/nmod_mat.h>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/residue_storage.hpp"
#include "zgpu/error.hpp"
#include "zgpu/residue_matrix.hpp"

namespace zgpu {
namespace {

// The CPU backend: c = a b modulo n with FLINT, from and to row-major arrays.
void nmod_product(limb_t* c, const limb_t* a, const limb_t* b, std::size_t rows, std::size_t inner, std::size_t cols, limb_t n)
{
    nmod_mat_t x, y, z;
    nmod_mat_init(x, slong(rows), slong(inner), n);
    nmod_mat_init(y, slong(inner), slong(cols), n);
    nmod_mat_init(z, slong(rows), slong(cols), n);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < inner; ++j) nmod_mat_entry(x, slong(i), slong(j)) = a[i * inner + j];
    for (std::size_t i = 0; i < inner; ++i)
        for (std::size_t j = 0; j < cols; ++j) nmod_mat_entry(y, slong(i), slong(j)) = b[i * cols + j];
    nmod_mat_mul(z, x, y);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) c[i * cols + j] = nmod_mat_entry(z, slong(i), slong(j));
    nmod_mat_clear(x);
    nmod_mat_clear(y);
    nmod_mat_clear(z);
}

}  // namespace

void mat_mul(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b, std::size_t rows, std::size_t inner, std::size_t cols)
{
    const auto fail = [](const std::string& why) { throw Error("mat_mul: " + why); };
    if (!a.prime_set().same_moduli(b.prime_set())) fail("the operands are residues modulo different moduli");
    if (a.backend() != b.backend()) fail("the operands are on different backends");
    if (a.count() != rows * inner)
        fail("a holds " + std::to_string(a.count()) + " values, not " + std::to_string(rows) + " x " + std::to_string(inner));
    if (b.count() != inner * cols)
        fail("b holds " + std::to_string(b.count()) + " values, not " + std::to_string(inner) + " x " + std::to_string(cols));
    if (inner >= (std::size_t(1) << 31)) fail("inner dimension " + std::to_string(inner) + " is 2^31 or more");
    // A new batch: r may be a or b, which the product reads to the end.
    ResidueBatch out(a.prime_set(), rows * cols, a.backend());
    // An empty product is the host's.
    run_recorded(out.count() > 0 ? a.backend() : Backend::cpu, [&] {
        if (out.count() == 0) return;
        const PrimeSet::State& set = a.prime_set().state();
        if (a.backend() == Backend::gpu) {
            gpu::residues_mat_mul(residue_view(a), residue_view(b), set.gpu_reduction_tables(), rows, inner, cols,
                                  residue_view(out));
            return;
        }
        parallel_for(set.moduli.size(), 1, [&](std::size_t begin, std::size_t end) {
            for (std::size_t m = begin; m < end; ++m)
                nmod_product(out.data() + m * out.prime_stride(), a.data() + m * a.prime_stride(),
                             b.data() + m * b.prime_stride(), rows, inner, cols, set.moduli[m]);
        });
    });
    r = std::move(out);
}

void mat_det(std::span<ulong> det, const ResidueBatch& a, std::size_t n)
{
    const auto fail = [](const std::string& why) { throw Error("mat_det: " + why); };
    const PrimeSet::State& set = a.prime_set().state();
    if (det.size() != set.moduli.size())
        fail("det has room for " + std::to_string(det.size()) + " values, not " + std::to_string(set.moduli.size()));
    if (a.count() != n * n) fail("a holds " + std::to_string(a.count()) + " values, not " + std::to_string(n) + " x " + std::to_string(n));
    if (const std::size_t i = set.first_composite(); i < set.moduli.size())
        fail("modulus " + std::to_string(i) + " (" + std::to_string(set.moduli[i]) + ") is not prime");
    // The empty matrix's determinant, 1, is the host's.
    run_recorded(n > 0 ? a.backend() : Backend::cpu, [&] {
        if (n == 0) return std::fill(det.begin(), det.end(), ulong(1));
        if (a.backend() == Backend::gpu) {
            const std::vector<limb_t> values = gpu::residues_mat_det(residue_view(a), set.gpu_reduction_tables(), n);
            std::copy(values.begin(), values.end(), det.begin());
            return;
        }
        parallel_for(set.moduli.size(), 1, [&](std::size_t begin, std::size_t end) {
            for (std::size_t m = begin; m < end; ++m) {
                nmod_mat_t x;
                nmod_mat_init(x, slong(n), slong(n), set.moduli[m]);
                const limb_t* entries = a.data() + m * a.prime_stride();
                for (std::size_t e = 0; e < n * n; ++e) nmod_mat_entry(x, slong(e / n), slong(e % n)) = entries[e];
                det[m] = nmod_mat_det(x);
                nmod_mat_clear(x);
            }
        });
    });
}

}  // namespace zgpu
