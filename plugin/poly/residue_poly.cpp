// Polynomial products on residue batches: on the GPU through gpu::residues_poly_mul, on the CPU
// FLINT's _nmod_poly_mul modulus by modulus on all host threads.
#include <string>
#include <utility>

#include <flint/nmod_poly.h>

#include "base/parallel.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/residue_storage.hpp"
#include "zgpu/error.hpp"
#include "zgpu/residue_poly.hpp"

namespace zgpu {

void poly_mul(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b)
{
    if (!a.prime_set().same_moduli(b.prime_set()))
        throw Error("poly_mul: the operands are residues modulo different moduli");
    if (a.backend() != b.backend()) throw Error("poly_mul: the operands are on different backends");
    const std::size_t la = a.count(), lb = b.count();
    // A new batch: r may be a or b, which the product reads to the end.
    ResidueBatch out(a.prime_set(), la && lb ? la + lb - 1 : 0, a.backend());
    // A zero product is the host's.
    run_recorded(out.count() > 0 ? a.backend() : Backend::cpu, [&] {
        if (out.count() == 0) return;
        const PrimeSet::State& set = a.prime_set().state();
        if (a.backend() == Backend::gpu) return gpu::residues_poly_mul(residue_view(a), residue_view(b), set.moduli, residue_view(out));
        // _nmod_poly_mul wants the longer operand first.
        const bool swapped = la < lb;
        const ResidueBatch& x = swapped ? b : a;
        const ResidueBatch& y = swapped ? a : b;
        parallel_for(set.moduli.size(), 1, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i)
                _nmod_poly_mul(out.data() + i * out.prime_stride(), x.data() + i * x.prime_stride(), slong(x.count()),
                               y.data() + i * y.prime_stride(), slong(y.count()), set.mods[i]);
        });
    });
    r = std::move(out);
}

}  // namespace zgpu
