// Resultants modulo a prime with formal degrees (plugin/poly/formal_resultant.hpp) against
// FLINT's resultant over Z, reduced: polynomials whose leading coefficients the prime divides
// (a's, b's, both), that vanish modulo the prime, constants, and primes of 2 bits to 62.
#include <gmp.h>

#include <string>
#include <vector>

#include <flint/fmpz_poly.h>
#include <flint/ulong_extras.h>
#include <gtest/gtest.h>

#include "flint_random.hpp"
#include "plugin/poly/formal_resultant.hpp"

namespace zgpu::testing {
namespace {

class FormalResultant : public ::testing::Test {
protected:
    void SetUp() override
    {
        random_init(state_);
        fmpz_poly_init(a_);
        fmpz_poly_init(b_);
    }
    void TearDown() override
    {
        fmpz_poly_clear(a_);
        fmpz_poly_clear(b_);
        random_clear(state_);
    }

    // A random polynomial of exactly `length` coefficients whose leading one is a nonzero
    // multiple of p where `divisible`; all coefficients multiples of p where `vanishing`.
    void make(fmpz_poly_t f, slong length, ulong p, bool divisible, bool vanishing)
    {
        fmpz_poly_zero(f);
        for (slong i = 0; i < length; ++i) {
            fmpz_t c;
            fmpz_init(c);
            fmpz_randtest(c, state_, 80);
            if (vanishing || (divisible && i == length - 1)) fmpz_mul_ui(c, c, p);
            if (i == length - 1 && fmpz_is_zero(c)) fmpz_set_ui(c, p);
            fmpz_poly_set_coeff_fmpz(f, i, c);
            fmpz_clear(c);
        }
    }

    // formal_resultant of a and b reduced modulo p, against Res(a, b) mod p over Z.
    void check(ulong p, const std::string& what)
    {
        const auto reduced = [&](const fmpz_poly_t f) {
            std::vector<ulong> r(std::size_t(f->length));
            for (slong i = 0; i < f->length; ++i) r[std::size_t(i)] = fmpz_fdiv_ui(f->coeffs + i, p);
            return r;
        };
        const std::vector<ulong> x = reduced(a_), y = reduced(b_);
        fmpz_t res;
        fmpz_init(res);
        fmpz_poly_resultant(res, a_, b_);
        EXPECT_EQ(poly::formal_resultant(x.data(), x.size(), y.data(), y.size(), p), fmpz_fdiv_ui(res, p))
            << what << ", lengths " << x.size() << " and " << y.size() << ", p = " << p;
        fmpz_clear(res);
    }

    flint_rand_t state_;
    fmpz_poly_t a_, b_;
};

TEST_F(FormalResultant, EqualsTheResultantOverZReduced)
{
    for (const ulong p : {ulong(2), ulong(3), ulong(257), n_nextprime(ulong(1) << 31, 1), n_nextprime(ulong(1) << 61, 1),
                          ulong(4611686018427387847) /* the prime below 2^62 */})
        for (const slong a_length : {1, 2, 3, 7})
            for (const slong b_length : {1, 2, 5, 8})
                for (int kind = 0; kind < 6; ++kind) {
                    // 0: nothing divisible; 1: lc(a); 2: lc(b); 3: both; 4: a vanishes; 5: b vanishes.
                    make(a_, a_length, p, kind == 1 || kind == 3, kind == 4);
                    make(b_, b_length, p, kind == 2 || kind == 3, kind == 5);
                    check(p, "kind " + std::to_string(kind));
                }
}

}  // namespace
}  // namespace zgpu::testing
