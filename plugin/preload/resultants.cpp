// FLINT's resultants, defined in FLINT's name: zgpu where its cost model picks the GPU, else
// FLINT's own function.
#include <flint/fmpz_poly.h>
#include <flint/nmod_poly.h>

#include "plugin/poly/resultant.hpp"
#include "plugin/preload/gates.hpp"
#include "plugin/preload/intercept.hpp"
#include "zgpu/zgpu_poly.h"

namespace {

using zgpu::preload::Counts;
using zgpu::preload::next;
using zgpu::preload::route;

using zgpu::preload::kResultantBoundFrom;

}  // namespace

extern "C" {

void fmpz_poly_resultant(fmpz_t res, const fmpz_poly_t poly1, const fmpz_poly_t poly2)
{
    static Counts counts("fmpz_poly_resultant");
    route(
        counts, [&] { return poly1->length >= kResultantBoundFrom && poly2->length >= kResultantBoundFrom; },
        [&] { return zgpu_fmpz_poly_resultant(res, poly1, poly2); },
        [&] { next<decltype(&fmpz_poly_resultant)>(counts)(res, poly1, poly2); });
}

// FLINT 2.9's nmod_poly_resultant is inline in its header and calls this one for long inputs.
#if __FLINT_RELEASE >= 30000
#define ZGPU_NMOD_RESULTANT nmod_poly_resultant
#else
#define ZGPU_NMOD_RESULTANT nmod_poly_resultant_hgcd
#endif

ulong ZGPU_NMOD_RESULTANT(const nmod_poly_t f, const nmod_poly_t g)
{
    static Counts counts(__func__);
    ulong res = 0;
    return route(
        counts,
        [&] {
            return f->length > 0 && g->length > 0 &&
                   zgpu::poly::gpu_pays_for_nmod_resultant(std::size_t(f->length), std::size_t(g->length));
        },
        [&] { return zgpu_nmod_poly_resultant(&res, f, g); }, [&] { return res; },
        [&] { return next<decltype(&ZGPU_NMOD_RESULTANT)>(counts)(f, g); });
}

}  // extern "C"
