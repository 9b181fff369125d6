// What the C entry points report: the backend that ran (none when nothing did), errors named
// after the C function called, and FLINT's no-op for empty vectors whatever the divisor.
#include <string>

#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "zgpu/zgpu.h"

namespace {

struct Vec {
    explicit Vec(slong n) : n(n), v(_fmpz_vec_init(n)) {}
    ~Vec() { _fmpz_vec_clear(v, n); }
    slong n;
    fmpz* v;
};

TEST(CApi, EmptyVectorsAreNotDividedWhateverTheDivisor)
{
    Vec res(1), vec(1);
    fmpz_t zero, negative;
    fmpz_init(zero);
    fmpz_init_set_si(negative, -5);
    EXPECT_EQ(zgpu_fmpz_vec_scalar_divexact_fmpz(res.v, vec.v, 0, zero), 0) << zgpu_last_error();
    EXPECT_EQ(zgpu_fmpz_vec_scalar_divexact_fmpz_checked(res.v, vec.v, 0, zero), 0) << zgpu_last_error();
    EXPECT_EQ(zgpu_fmpz_vec_scalar_mod_fmpz(res.v, vec.v, 0, zero), 0) << zgpu_last_error();
    EXPECT_EQ(zgpu_fmpz_vec_scalar_mod_fmpz(res.v, vec.v, 0, negative), 0) << zgpu_last_error();
    EXPECT_STREQ(zgpu_last_backend(), "none");
    EXPECT_EQ(zgpu_fmpz_vec_scalar_divexact_fmpz(res.v, vec.v, 1, zero), -1);  // one entry: an error again
    fmpz_clear(zero);
    fmpz_clear(negative);
}

TEST(CApi, RefusedCallsLeaveNoBackend)
{
    Vec res(4), a(4), b(4);
    ASSERT_EQ(zgpu_fmpz_vec_add(res.v, a.v, b.v, 4), 0) << zgpu_last_error();
    EXPECT_STRNE(zgpu_last_backend(), "none");
    EXPECT_EQ(zgpu_fmpz_vec_add(res.v, a.v, b.v, -1), -1);
    EXPECT_STREQ(zgpu_last_backend(), "none");
    EXPECT_EQ(zgpu_fmpz_vec_mul(nullptr, a.v, b.v, 4), -1);
    EXPECT_STREQ(zgpu_last_backend(), "none");
}

TEST(CApi, ErrorsNameTheCFunctionCalled)
{
    Vec res(4), a(4), b(4);
    EXPECT_EQ(zgpu_fmpz_vec_add(res.v, a.v, b.v, -1), -1);
    EXPECT_EQ(std::string(zgpu_last_error()), "zgpu_fmpz_vec_add: len is negative (-1)");
    EXPECT_EQ(zgpu_fmpz_vec_divexact(res.v, a.v, b.v, 4), -1);
    EXPECT_EQ(std::string(zgpu_last_error()), "zgpu_fmpz_vec_divexact: division by zero (vec2[0] is 0)");
    EXPECT_EQ(zgpu_fmpz_vec_sqr(res.v, a.v, 4), 0);
    EXPECT_STREQ(zgpu_last_error(), "");
}

}  // namespace
