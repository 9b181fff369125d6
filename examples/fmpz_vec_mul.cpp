// Products and exact division of FLINT vectors through zgpu, every result checked against
// FLINT, with the backend that ran and the time taken:
//   1. zgpu_fmpz_vec_mul (elementwise) and zgpu_fmpz_vec_sqr, backend chosen automatically;
//   2. a vector scaled by c and divided by c again (zgpu_fmpz_vec_scalar_mul_fmpz, then
//      zgpu_fmpz_vec_scalar_divexact_fmpz_checked), as in content removal.
//   fmpz_vec_mul_example [count] [bits]      (defaults: 100000 elements of up to 4096 bits)
#include "example_support.hpp"
#include "zgpu/batch_ops.hpp"

using example::compare;

int main(int argc, char** argv)
{
    const auto arguments = example::parse_arguments(argc, argv, 100000, 4096);
    if (!arguments) return 2;
    const auto [n, bits] = *arguments;
    flint_rand_t state;
    example::random_init(state);
    fmpz* a = _fmpz_vec_init(n);
    fmpz* b = _fmpz_vec_init(n);
    for (slong i = 0; i < n; ++i) {  // full-size values of random sign
        fmpz_randbits(a + i, state, bits);
        fmpz_randbits(b + i, state, bits);
    }
    fmpz_t c;
    fmpz_init(c);
    fmpz_randbits(c, state, bits / 2 + 1);
    // The first use of zgpu looks for a GPU and creates its context: not timed.
    if (zgpu::gpu_available()) zgpu::synchronize(zgpu::Backend::gpu);

    bool ok = compare("zgpu_fmpz_vec_mul", n, [&](fmpz* r) { return zgpu_fmpz_vec_mul(r, a, b, n); },
                      [&](fmpz* r) {
                          for (slong i = 0; i < n; ++i) fmpz_mul(r + i, a + i, b + i);
                      });
    ok = compare("zgpu_fmpz_vec_sqr", n, [&](fmpz* r) { return zgpu_fmpz_vec_sqr(r, a, n); },
                 [&](fmpz* r) {
                     for (slong i = 0; i < n; ++i) fmpz_mul(r + i, a + i, a + i);
                 }) && ok;
    fmpz* scaled = _fmpz_vec_init(n);
    ok = compare("zgpu_fmpz_vec_scalar_mul_fmpz", n,
                 [&](fmpz* r) {
                     const int status = zgpu_fmpz_vec_scalar_mul_fmpz(r, a, n, c);
                     _fmpz_vec_set(scaled, r, n);
                     return status;
                 },
                 [&](fmpz* r) { _fmpz_vec_scalar_mul_fmpz(r, a, n, c); }) && ok;
    ok = compare("zgpu_fmpz_vec_scalar_divexact_fmpz_checked", n,
                 [&](fmpz* r) { return zgpu_fmpz_vec_scalar_divexact_fmpz_checked(r, scaled, n, c); },
                 [&](fmpz* r) { _fmpz_vec_scalar_divexact_fmpz(r, scaled, n, c); }) && ok;

    _fmpz_vec_clear(scaled, n);
    fmpz_clear(c);
    _fmpz_vec_clear(a, n);
    _fmpz_vec_clear(b, n);
    example::random_clear(state);
    flint_cleanup();
    return ok ? 0 : 1;
}
