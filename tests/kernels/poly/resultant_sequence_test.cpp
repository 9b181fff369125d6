// One prime's resultant by its remainder sequence (kernels/poly/resultant_sequence.hpp), run on
// the host: against FLINT's nmod_poly_resultant for whole polynomials, and against the Sylvester
// determinant (nmod_mat_det) for formal degrees above the actual ones (leading coefficients that
// vanish mod p), for primes from 2 to 2^64 - 59 and degrees 0 to 60.
#include <string>
#include <vector>

#include <flint/nmod_mat.h>
#include <flint/nmod_poly.h>
#include <gtest/gtest.h>

#include "flint_random.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "kernels/poly/resultant_sequence.hpp"

namespace zgpu::testing {
namespace {

const std::vector<limb_t>& primes()
{
    static const std::vector<limb_t> p = {2, 3, 65537, kernels::ntt_primes(1)[0], ~limb_t(0) - 58};
    return p;
}

// Coefficients 0..d of x (zeros past its length).
std::vector<limb_t> words(const nmod_poly_t x, std::size_t d)
{
    std::vector<limb_t> w(d + 1, 0);
    for (slong i = 0; i < x->length && std::size_t(i) <= d; ++i) w[std::size_t(i)] = x->coeffs[i];
    return w;
}

limb_t sequence(std::vector<limb_t> a, std::size_t da, std::vector<limb_t> b, std::size_t db, limb_t p)
{
    return kernels::resultant_mod(kernels::SingleLane{}, a.data(), da, b.data(), db, kernels::make_modulus(p));
}

// The determinant of the Sylvester matrix of a and b with formal degrees da and db.
limb_t sylvester(const std::vector<limb_t>& a, std::size_t da, const std::vector<limb_t>& b, std::size_t db, limb_t p)
{
    const slong size = slong(da + db);
    if (size == 0) return 1 % p;
    nmod_mat_t s;
    nmod_mat_init(s, size, size, p);
    for (std::size_t r = 0; r < db; ++r)
        for (std::size_t i = 0; i <= da; ++i) nmod_mat_entry(s, slong(r), slong(r + i)) = a[da - i];
    for (std::size_t r = 0; r < da; ++r)
        for (std::size_t i = 0; i <= db; ++i) nmod_mat_entry(s, slong(db + r), slong(r + i)) = b[db - i];
    const limb_t d = nmod_mat_det(s);
    nmod_mat_clear(s);
    return d;
}

TEST(ResultantSequence, WholePolynomialsMatchFlint)
{
    flint_rand_t state;
    random_init(state);
    for (const limb_t p : primes())
        for (const slong la : {1, 2, 3, 10, 61})
            for (const slong lb : {1, 2, 7, 61}) {
                nmod_poly_t a, b;
                nmod_poly_init(a, p);
                nmod_poly_init(b, p);
                nmod_poly_randtest_not_zero(a, state, la);
                nmod_poly_randtest_not_zero(b, state, lb);
                const std::size_t da = std::size_t(a->length - 1), db = std::size_t(b->length - 1);
                EXPECT_EQ(sequence(words(a, da), da, words(b, db), db, p), nmod_poly_resultant(a, b))
                    << "degrees " << da << " and " << db << " mod " << p;
                nmod_poly_mul(b, b, a);  // a common factor: 0 unless a is a constant
                const std::size_t dc = std::size_t(b->length - 1);
                EXPECT_EQ(sequence(words(a, da), da, words(b, dc), dc, p), nmod_poly_resultant(a, b)) << "a common factor";
                nmod_poly_clear(a);
                nmod_poly_clear(b);
            }
    random_clear(state);
}

TEST(ResultantSequence, VanishingLeadingCoefficientsMatchTheSylvesterDeterminant)
{
    flint_rand_t state;
    random_init(state);
    for (const limb_t p : primes())
        for (const std::size_t da : {0, 1, 2, 5, 12})
            for (const std::size_t db : {0, 1, 3, 9})
                for (int zeros = 0; zeros < 4; ++zeros) {
                    // Random coefficients, then the top `zeros` of a (odd counts) or of b (even ones) set
                    // to zero, and now and then both leading coefficients, or a whole polynomial.
                    std::vector<limb_t> a(da + 1), b(db + 1);
                    for (limb_t& x : a) x = n_randint(state, p);
                    for (limb_t& x : b) x = n_randint(state, p);
                    std::vector<limb_t>& cut = zeros % 2 ? a : b;
                    for (int z = 0; z < zeros && std::size_t(z) < cut.size(); ++z) cut[cut.size() - 1 - std::size_t(z)] = 0;
                    if (zeros == 3) a[da] = b[db] = 0;
                    EXPECT_EQ(sequence(a, da, b, db, p), sylvester(a, da, b, db, p))
                        << "formal degrees " << da << " and " << db << ", " << zeros << " zeros, mod " << p;
                }
    random_clear(state);
}

}  // namespace
}  // namespace zgpu::testing
