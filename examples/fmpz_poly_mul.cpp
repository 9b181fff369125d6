// Products of FLINT polynomials through zgpu, checked against FLINT, with the backend that ran
// and the time taken: two random polynomials multiplied (zgpu_fmpz_poly_mul), one squared
// (zgpu_fmpz_poly_sqr), and their product truncated to half its length (zgpu_fmpz_poly_mullow).
//   fmpz_poly_mul_example [length] [bits]      (defaults: 16384 coefficients of up to 1024 bits)
#include <string>

#include <flint/fmpz_poly.h>

#include "example_support.hpp"
#include "zgpu/batch_ops.hpp"

namespace {

// ours(res) and theirs(res) into fresh polynomials: prints the backend, both times and
// whether the results agree.
template <class Ours, class Theirs>
bool compare(const char* name, Ours ours_op, Theirs flint_op)
{
    fmpz_poly_t ours, theirs;
    fmpz_poly_init(ours);
    fmpz_poly_init(theirs);
    const bool same = example::time_and_check(
        name, [&] { return ours_op(ours); }, [&] { flint_op(theirs); }, [&] { return bool(fmpz_poly_equal(ours, theirs)); },
        [&] {
            return std::to_string(fmpz_poly_length(ours)) + " coefficients of up to " +
                   std::to_string(FLINT_ABS(fmpz_poly_max_bits(ours))) + " bits";
        });
    fmpz_poly_clear(ours);
    fmpz_poly_clear(theirs);
    return same;
}

}  // namespace

int main(int argc, char** argv)
{
    const auto arguments = example::parse_arguments(argc, argv, 16384, 1024);
    if (!arguments) return 2;
    const auto [n, bits] = *arguments;
    flint_rand_t state;
    example::random_init(state);
    fmpz_poly_t a, b;
    fmpz_poly_init(a);
    fmpz_poly_init(b);
    fmpz_poly_randtest(a, state, n, bits);  // signed coefficients
    fmpz_poly_randtest(b, state, n, bits);
    // The first use of zgpu looks for a GPU and creates its context: not timed.
    if (zgpu::gpu_available()) zgpu::synchronize(zgpu::Backend::gpu);

    bool ok = compare("zgpu_fmpz_poly_mul", [&](fmpz_poly_t r) { return zgpu_fmpz_poly_mul(r, a, b); },
                      [&](fmpz_poly_t r) { fmpz_poly_mul(r, a, b); });
    ok = compare("zgpu_fmpz_poly_sqr", [&](fmpz_poly_t r) { return zgpu_fmpz_poly_sqr(r, a); },
                 [&](fmpz_poly_t r) { fmpz_poly_sqr(r, a); }) && ok;
    ok = compare("zgpu_fmpz_poly_mullow", [&](fmpz_poly_t r) { return zgpu_fmpz_poly_mullow(r, a, b, n); },
                 [&](fmpz_poly_t r) { fmpz_poly_mullow(r, a, b, n); }) && ok;

    fmpz_poly_clear(a);
    fmpz_poly_clear(b);
    example::random_clear(state);
    flint_cleanup();
    return ok ? 0 : 1;
}
