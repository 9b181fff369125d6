// An ordinary NTL program, built against NTL alone: it calls every NTL function the plugin
// defines (with aliasing, empty operands and zeros), and NTL algorithms above them, and prints a
// checksum a line. compare_runs.sh runs it without the plugin and with it; the output must not
// change. Each part seeds NTL's generator itself: NTL's own determinant and resultant draw from
// it (deterministic = 0), zgpu's do not, so the numbers drawn after them differ.
#include <NTL/ZZX.h>
#include <NTL/lzz_pX.h>
#include <NTL/lzz_pXFactoring.h>
#include <NTL/mat_ZZ.h>
#include <NTL/mat_lzz_p.h>

#include <iostream>

using namespace NTL;

namespace {

const long kMersenne61 = (1L << 61) - 1;

unsigned long hash(const ZZ& x, unsigned long h) { return h * 1000003u + static_cast<unsigned long>(rem(x, kMersenne61)) + (sign(x) < 0); }

unsigned long hash(const ZZX& f)
{
    unsigned long h = 0;
    for (long i = 0; i < f.rep.length(); ++i) h = hash(f.rep[i], h);
    return h;
}

unsigned long hash(const zz_pX& f)
{
    unsigned long h = 0;
    for (long i = 0; i < f.rep.length(); ++i) h = h * 1000003u + static_cast<unsigned long>(rep(f.rep[i]));
    return h;
}

unsigned long hash(const mat_ZZ& a)
{
    unsigned long h = 0;
    for (long i = 0; i < a.NumRows(); ++i)
        for (long j = 0; j < a.NumCols(); ++j) h = hash(a[i][j], h);
    return h;
}

unsigned long hash(const mat_zz_p& a)
{
    unsigned long h = 0;
    for (long i = 0; i < a.NumRows(); ++i)
        for (long j = 0; j < a.NumCols(); ++j) h = h * 1000003u + static_cast<unsigned long>(rep(a[i][j]));
    return h;
}

unsigned long hash_vec(const vec_ZZ& v)
{
    unsigned long h = 0;
    for (long i = 0; i < v.length(); ++i) h = hash(v[i], h);
    return h;
}

unsigned long hash(const vec_zz_p& v)
{
    unsigned long h = 0;
    for (long i = 0; i < v.length(); ++i) h = h * 1000003u + static_cast<unsigned long>(rep(v[i]));
    return h;
}

void say(const char* what, unsigned long h) { std::cout << what << " " << h << "\n"; }

void random_zzx(ZZX& f, long length, long bits)
{
    f.SetLength(length);
    for (long i = 0; i < length; ++i) {
        RandomBits(f.rep[i], bits);
        if (RandomBnd(2)) NTL::negate(f.rep[i], f.rep[i]);
    }
    f.normalize();
}

// mul and sqr of a and b, with every aliasing and a zero operand.
template <class Poly>
void products(const Poly& a, const Poly& b)
{
    Poly c;
    mul(c, a, b), say("mul", hash(c));
    sqr(c, a), say("sqr", hash(c));
    c = a, mul(c, c, b), say("mul aliased", hash(c));
    c = a, mul(c, c, c), say("mul all aliased", hash(c));
    c = b, sqr(c, c), say("sqr aliased", hash(c));
    mul(c, a, Poly()), say("mul by zero", hash(c));
}

void zz_px_products(long length, long p)
{
    SetSeed(ZZ(length));
    zz_p::init(p);
    zz_pX a, b, c;
    random(a, length);
    random(b, length / 2 + 1);
    std::cout << "zz_pX products, length " << length << ", modulo " << p << "\n";
    products(a, b);
    // NTL's own algorithms above the products.
    zz_pX f;
    random(f, length / 4 + 2);
    SetCoeff(f, length / 4 + 2);
    PowerXMod(c, ZZ(p), zz_pXModulus(f)), say("PowerXMod", hash(c));
}

void zzx_products(long length, long bits)
{
    SetSeed(ZZ(length + bits));
    ZZX a, b;
    random_zzx(a, length, bits);
    random_zzx(b, length / 2 + 1, bits / 2 + 1);
    std::cout << "ZZX products, length " << length << ", " << bits << " bits\n";
    products(a, b);
    ZZ r;
    resultant(r, a, b), say("resultant", hash(r, 0));
    resultant(r, a, ZZX()), say("resultant with zero", hash(r, 0));
}

void matrices(long dim, long bits)
{
    SetSeed(ZZ(dim + bits));
    mat_ZZ a, b, c;
    a.SetDims(dim, dim), b.SetDims(dim, dim + 3);
    for (long i = 0; i < dim; ++i) {
        for (long j = 0; j < dim; ++j) RandomBits(a[i][j], bits);
        for (long j = 0; j < dim + 3; ++j) RandomBits(b[i][j], bits), b[i][j] -= power2_ZZ(bits - 1);
    }
    std::cout << "matrices " << dim << " x " << dim << ", " << bits << " bits\n";
    mul(c, a, b), say("mul", hash(c));
    c = a, mul(c, c, a), say("mul aliased", hash(c));
    ZZ d;
    determinant(d, a), say("determinant", hash(d, 0));
    determinant(d, a, 1), say("determinant, deterministic", hash(d, 0));
    vec_ZZ v, x;
    v.SetLength(dim);
    for (long i = 0; i < dim; ++i) RandomBits(v[i], bits), v[i] -= power2_ZZ(bits - 1);
    solve1(d, x, a, v), say("solve1", hash(d, hash_vec(x)));
    solve(d, x, a, v), say("solve", hash(d, hash_vec(x)));
    inv(d, c, a), say("inv", hash(d, hash(c)));
    a[1] = a[0];
    determinant(d, a), say("determinant of a singular matrix", hash(d, 0));
    solve1(d, x, a, v), say("solve1 of a singular matrix", hash(d, 0));
}

// Modulo p: products (aliased too), determinants (a singular one, and relaxed modulo a
// composite with unit pivots), inverses and solutions both ways (of a singular matrix too), the
// echelon form, image and kernel of a singular matrix, and NTL's power above them.
void matrices_mod(long dim, long p)
{
    SetSeed(ZZ(dim + p));
    zz_p::init(p);
    mat_zz_p a, b, c;
    random(a, dim, dim);
    random(b, dim, dim + 3);
    std::cout << "matrices " << dim << " x " << dim << " modulo " << p << "\n";
    mul(c, a, b), say("mul", hash(c));
    c = a, mul(c, c, a), say("mul aliased", hash(c));
    zz_p d;
    if (ProbPrime(p)) {
        determinant(d, a), say("determinant", rep(d));
        power(c, a, 5), say("power", hash(c));
        inv(d, c, a), say("inverse", hash(c));
        vec_zz_p v, x;
        random(v, dim);
        solve(d, a, x, v), say("solution of a x = v", hash(x));
        solve(d, x, a, v), say("solution of x a = v", hash(x));
        a[1] = a[0];
        determinant(d, a), say("determinant of a singular matrix", rep(d));
        inv(d, c, a), say("inverse's determinant, singular matrix", rep(d));
        solve(d, a, x, v), say("solution's determinant, singular matrix", rep(d));
        c = a;
        const long rank = gauss(c);
        say("gauss of a singular matrix", hash(c) + static_cast<unsigned long>(rank));
        image(c, a), say("image of a singular matrix", hash(c));
        kernel(c, a), say("kernel of a singular matrix", hash(c));
        c = a, kernel(c, c), say("kernel aliased", hash(c));
    } else {
        c = ident_mat_zz_p(dim);
        swap(c[0], c[dim - 1]);
        relaxed_determinant(d, c), say("relaxed determinant", rep(d));
        relaxed_inv(d, a, c), say("relaxed inverse", hash(a));
    }
}

}  // namespace

int main()
{
    zz_px_products(12, 7);
    zz_px_products(3000, 1152921504606846883L);  // the largest prime NTL's zz_p takes: below 2^60
    zz_px_products(2500, 1000003);
    zzx_products(10, 30);
    zzx_products(700, 300);
    zzx_products(60, 64);
    matrices(5, 10);
    matrices(40, 64);
    matrices(130, 100);
    matrices_mod(5, 65537);
    matrices_mod(140, 1152921504606846883L);
    matrices_mod(150, (1L << 40) + 1);
    return 0;
}
