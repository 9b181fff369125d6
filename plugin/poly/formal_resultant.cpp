#include "plugin/poly/formal_resultant.hpp"

#include <algorithm>

#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>

namespace zgpu::poly {
namespace {

// An nmod_poly holding `length` coefficients, normalised.
class NmodPoly {
public:
    NmodPoly(const ulong* coeffs, std::size_t length, ulong p)
    {
        nmod_poly_init2(poly_, p, slong(length));
        std::copy_n(coeffs, length, poly_->coeffs);
        _nmod_poly_set_length(poly_, slong(length));
        _nmod_poly_normalise(poly_);
    }
    ~NmodPoly() { nmod_poly_clear(poly_); }
    NmodPoly(const NmodPoly&) = delete;
    NmodPoly& operator=(const NmodPoly&) = delete;
    const nmod_poly_struct* get() const { return poly_; }
    slong length() const { return poly_->length; }

private:
    nmod_poly_t poly_;
};

}  // namespace

ulong formal_resultant(const ulong* a, std::size_t a_length, const ulong* b, std::size_t b_length, ulong p)
{
    const ulong inverse = n_preinvert_limb(p);
    const ulong m = a_length - 1, n = b_length - 1;
    // A formal degree 0: the Sylvester matrix is the other's constant times the identity.
    if (n == 0) return n_powmod2_ui_preinv(b[0], m, p, inverse);
    if (m == 0) return n_powmod2_ui_preinv(a[0], n, p, inverse);
    const NmodPoly x(a, a_length, p), y(b, b_length, p);
    if (x.length() == 0 || y.length() == 0) return 0;
    const ulong m_true = ulong(x.length() - 1), n_true = ulong(y.length() - 1);
    // Both leading coefficients 0: the Sylvester matrix's first column is zero.
    if (m_true < m && n_true < n) return 0;
    ulong res = nmod_poly_resultant(x.get(), y.get());
    // Expanding along the first column, each vanishing leading coefficient of a gives a factor
    // (-1)^n lc(b), each of b a factor lc(a).
    if (m_true < m) {
        const ulong factor = n % 2 ? n_negmod(b[n], p) : b[n];
        res = n_mulmod2_preinv(res, n_powmod2_ui_preinv(factor, m - m_true, p, inverse), p, inverse);
    }
    if (n_true < n) res = n_mulmod2_preinv(res, n_powmod2_ui_preinv(a[m], n - n_true, p, inverse), p, inverse);
    return res;
}

}  // namespace zgpu::poly
