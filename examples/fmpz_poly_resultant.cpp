// The resultant of two integer polynomials through zgpu, checked against FLINT, with the backend
// that ran, both times and the speed-up. The polynomials come from a file holding two in
// fmpz_poly_fprint's format ("length  c0 c1 ..." each, as fmpz_poly_fread reads them), or are
// generated from a seed: two of `length` coefficients of exactly `bits` bits, random signs.
//   fmpz_poly_resultant_example FILE
//   fmpz_poly_resultant_example [length] [bits] [seed]      (defaults: 500 coefficients of 64 bits, seed 1)
#include <cstdio>
#include <cstdlib>

#include <flint/fmpz_poly.h>

#include "example_support.hpp"
#include "zgpu/batch_ops.hpp"
#include "zgpu/zgpu_poly.h"

namespace {

// a and b as the command line names them: read from the file, or generated. False (with a
// message) where the file does not hold two polynomials or the numbers are invalid.
bool make_polynomials(int argc, char** argv, fmpz_poly_t a, fmpz_poly_t b)
{
    char* end = nullptr;
    const slong length = argc > 1 ? std::strtol(argv[1], &end, 10) : 500;
    if (argc > 1 && *end != '\0') {  // not a number: a file
        FILE* file = std::fopen(argv[1], "r");
        if (!file) {
            std::fprintf(stderr, "%s: cannot open it\n", argv[1]);
            return false;
        }
        const bool read = fmpz_poly_fread(file, a) > 0 && fmpz_poly_fread(file, b) > 0;
        std::fclose(file);
        if (!read) std::fprintf(stderr, "%s: not two polynomials in fmpz_poly_fprint's format\n", argv[1]);
        return read;
    }
    const long bits = argc > 2 ? std::atol(argv[2]) : 64;
    const unsigned long seed = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 1;
    if (length < 0 || bits < 1) {
        std::fprintf(stderr, "usage: %s FILE | %s [length >= 0] [bits >= 1] [seed]\n", argv[0], argv[0]);
        return false;
    }
    flint_rand_t state;
    example::random_init(state);
    example::random_seed(state, seed);
    for (fmpz_poly_struct* p : {a, b}) {
        fmpz_poly_zero(p);
        for (slong i = 0; i < length; ++i) {
            fmpz_t c;
            fmpz_init(c);
            fmpz_randbits(c, state, flint_bitcnt_t(bits));  // exactly `bits` bits, a random sign
            fmpz_poly_set_coeff_fmpz(p, i, c);
            fmpz_clear(c);
        }
    }
    example::random_clear(state);
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    fmpz_poly_t a, b;
    fmpz_poly_init(a);
    fmpz_poly_init(b);
    if (!make_polynomials(argc, argv, a, b)) {
        fmpz_poly_clear(a);
        fmpz_poly_clear(b);
        return 2;
    }
    // The first use of zgpu looks for a GPU and creates its context: not timed.
    if (zgpu::gpu_available()) zgpu::synchronize(zgpu::Backend::gpu);
    fmpz_t ours, theirs;
    fmpz_init(ours);
    fmpz_init(theirs);
    std::printf("lengths %ld and %ld, coefficients of up to %ld and %ld bits\n", long(a->length), long(b->length),
                long(FLINT_ABS(fmpz_poly_max_bits(a))), long(FLINT_ABS(fmpz_poly_max_bits(b))));
    const bool same = example::time_and_check(
        "zgpu_fmpz_poly_resultant", [&] { return zgpu_fmpz_poly_resultant(ours, a, b); }, [&] { fmpz_poly_resultant(theirs, a, b); },
        [&] { return bool(fmpz_equal(ours, theirs)); },
        [&] { return "a resultant of " + std::to_string(fmpz_bits(ours)) + " bits" + (fmpz_sgn(ours) < 0 ? ", negative" : ""); });
    fmpz_clear(ours);
    fmpz_clear(theirs);
    fmpz_poly_clear(a);
    fmpz_poly_clear(b);
    flint_cleanup();
    return same ? 0 : 1;
}
