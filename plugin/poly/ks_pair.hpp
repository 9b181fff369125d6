// One polynomial product mod n as the KS path sees it: both operands' coefficients (the
// caller's, read only), their lengths after truncation and normalisation, the digits' width,
// the packed operands' limbs and how many result coefficients to compute.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <flint/nmod_poly.h>

#include "plugin/poly/ks.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::poly {

static_assert(std::is_same_v<limb_t, ulong>, "KS packs FLINT words straight into batch limbs");

struct KsPair {
    const ulong* a = nullptr;  // the operand of more limbs (a product commutes)
    const ulong* b = nullptr;
    std::size_t la = 0, lb = 0;
    std::uint64_t a_limbs = 0, b_limbs = 0;
    unsigned bits = 0;
    std::size_t out_len = 0;  // 0: the product is zero
    nmod_t mod{};
};

// The pair of a * b mod x^trunc (trunc < 0: the full product). Operands are truncated to trunc
// first: their terms from x^trunc on do not reach the low trunc coefficients.
KsPair ks_pair(const nmod_poly_struct& a, const nmod_poly_struct& b, slong trunc);

// Polynomial index[i] of a KS plan, packed on demand (an adapters/packing.hpp reader): the
// first operand of its pair, or the second.
struct KsReader {
    const KsPair* pairs;
    const std::size_t* index;
    bool second;

    std::int64_t size(std::size_t i) const
    {
        const KsPair& p = pairs[index[i]];
        return std::int64_t(second ? p.b_limbs : p.a_limbs);
    }
    void copy(std::size_t i, limb_t* dst) const
    {
        const KsPair& p = pairs[index[i]];
        ks_pack(second ? p.b : p.a, second ? p.lb : p.la, p.bits, dst);
    }
};

}  // namespace zgpu::poly
