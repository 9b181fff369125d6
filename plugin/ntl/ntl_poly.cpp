// NTL-style products of polynomials: ZZX through plugin/poly/product_over_z (the coefficients
// read and written as ZZ, as the other NTL entry points do), zz_pX through the nmod products on
// FLINT copies of its coefficients; NTL's own mul and sqr are the CPU backend. On the GPU the
// product goes to a temporary, swapped into x at the end, so that x may be an operand.
#include <algorithm>
#include <functional>
#include <optional>

#include <flint/nmod_poly.h>

#include "plugin/ntl/zz_array.hpp"
#include "plugin/poly/nmod_products.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/poly/product_over_z.hpp"
#include "plugin/poly/resultant.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl.hpp"
#include "zgpu/ntl_poly.hpp"

namespace zgpu {
namespace {

poly::ZPoly operand(const NTL::ZZX& a, const char* name)
{
    const std::size_t n = std::size_t(a.rep.length());
    long bits = 0;
    for (const NTL::ZZ& c : a.rep) bits = std::max(bits, NTL::NumBits(c));
    return {host_operand(ZZArray{&a.rep, n}, n, name), n, std::uint64_t(bits)};
}

// x = a * b (&a == &b squares): on the GPU, or ntl() on the CPU, which writes x itself.
void multiply(NTL::ZZX& x, const NTL::ZZX& a, const NTL::ZZX& b, const std::function<void()>& ntl)
{
    const poly::ZPoly first = operand(a, "a");
    const poly::ZPoly other = &a == &b ? poly::ZPoly{} : operand(b, "b");
    const poly::ZPoly& second = &a == &b ? first : other;
    const std::size_t out = first.length && second.length ? first.length + second.length - 1 : 0;
    NTL::ZZX product;
    product.rep.SetLength(long(out));
    const Backend ran = poly::product_over_z(first, second, out, ntl, [&](std::size_t from, ConstBatchView values) {
        adapters::unpack_zz_array(values, product.rep.elts() + from);
    });
    if (ran != Backend::gpu) return;
    product.normalize();
    NTL::swap(x, product);
}

// An nmod_poly modulo p that frees itself: empty, or a copy of a zz_pX's coefficients (in
// [0, p), as NTL keeps them).
class NmodPoly {
public:
    explicit NmodPoly(ulong p) { nmod_poly_init(poly_, p); }
    NmodPoly(const NTL::zz_pX& a, ulong p)
    {
        const long n = a.rep.length();
        nmod_poly_init2(poly_, p, n);
        for (long i = 0; i < n; ++i) poly_->coeffs[i] = ulong(NTL::rep(a.rep[i]));
        _nmod_poly_set_length(poly_, n);
        _nmod_poly_normalise(poly_);
    }
    ~NmodPoly() { nmod_poly_clear(poly_); }
    NmodPoly(const NmodPoly&) = delete;
    NmodPoly& operator=(const NmodPoly&) = delete;
    nmod_poly_struct* get() { return poly_; }
    const nmod_poly_struct* get() const { return poly_; }

private:
    nmod_poly_t poly_;
};

// x = a * b modulo zz_p's modulus (&a == &b squares): on the GPU, or ntl() on the CPU.
void multiply(NTL::zz_pX& x, const NTL::zz_pX& a, const NTL::zz_pX& b, const std::function<void()>& ntl,
              const char* function)
{
    if (!NTL::zz_pInfo) throw Error(std::string(function) + ": no zz_p modulus is set (zz_p::init)");
    const ulong p = ulong(NTL::zz_p::modulus());
    const NmodPoly first(a, p);
    std::optional<NmodPoly> other;
    if (&a != &b) other.emplace(b, p);
    NmodPoly result(p);
    const poly::PolyProduct product{result.get(), first.get(), other ? other->get() : first.get(), -1};
    if (poly::nmod_poly_products({&product, 1}, ntl) != Backend::gpu) return;
    const nmod_poly_struct* r = result.get();
    x.rep.SetLength(r->length);
    for (slong i = 0; i < r->length; ++i) x.rep[i].LoopHole() = long(r->coeffs[i]);
}

}  // namespace

void resultant(NTL::ZZ& res, const NTL::ZZX& a, const NTL::ZZX& b)
{
    // A zero polynomial gives 0, as in NTL: the host answers.
    if (NTL::IsZero(a) || NTL::IsZero(b)) {
        set_last_backend(Backend::cpu);
        res = 0;
        return;
    }
    const auto norm_bits = [](const NTL::ZZX& x) {
        NTL::ZZ norm;
        for (const NTL::ZZ& c : x.rep) norm += c * c;
        return std::uint64_t(NTL::NumBits(norm));
    };
    const poly::ZPoly first = operand(a, "a"), second = operand(b, "b");
    const std::uint64_t bound = poly::resultant_bits(first.length, norm_bits(a), second.length, norm_bits(b));
    // res is written once, at the end (it may be a coefficient of a or b).
    FmpzTemp value;
    NTL::ZZ from_ntl;
    const Backend ran = poly::resultant(value.get(), first, second, bound, [&] { NTL::resultant(from_ntl, a, b, 1); });
    if (ran == Backend::gpu) set_zz(res, value.get());
    else res = from_ntl;
}

void mul(NTL::ZZX& x, const NTL::ZZX& a, const NTL::ZZX& b)
{
    multiply(x, a, b, [&] { NTL::mul(x, a, b); });
}

void sqr(NTL::ZZX& x, const NTL::ZZX& a)
{
    multiply(x, a, a, [&] { NTL::sqr(x, a); });
}

void mul(NTL::zz_pX& x, const NTL::zz_pX& a, const NTL::zz_pX& b)
{
    multiply(x, a, b, [&] { NTL::mul(x, a, b); }, "mul");
}

void sqr(NTL::zz_pX& x, const NTL::zz_pX& a)
{
    multiply(x, a, a, [&] { NTL::sqr(x, a); }, "sqr");
}

}  // namespace zgpu
