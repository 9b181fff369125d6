#include "plugin/poly/ks_pair.hpp"

#include <algorithm>
#include <utility>

namespace zgpu::poly {

namespace {

// Length of coeffs[0 .. len) without its top zeros.
std::size_t normalised(const ulong* coeffs, std::size_t len)
{
    while (len > 0 && coeffs[len - 1] == 0) --len;
    return len;
}

}  // namespace

KsPair ks_pair(const nmod_poly_struct& a, const nmod_poly_struct& b, slong trunc)
{
    KsPair p;
    p.mod = a.mod;
    const std::size_t cut = trunc < 0 ? std::size_t(-1) : std::size_t(trunc);
    p.a = a.coeffs;
    p.b = b.coeffs;
    p.la = normalised(a.coeffs, std::min(std::size_t(a.length), cut));
    p.lb = normalised(b.coeffs, std::min(std::size_t(b.length), cut));
    if (p.la == 0 || p.lb == 0) return p;
    p.out_len = std::min(p.la + p.lb - 1, cut);
    p.bits = ks_bits(a.mod.n, std::min(p.la, p.lb));
    p.a_limbs = ks_limbs(p.a, p.la, p.bits);
    p.b_limbs = ks_limbs(p.b, p.lb, p.bits);
    if (p.a_limbs < p.b_limbs) {
        std::swap(p.a, p.b);
        std::swap(p.la, p.lb);
        std::swap(p.a_limbs, p.b_limbs);
    }
    return p;
}

}  // namespace zgpu::poly
