// The determinant of an integer matrix through zgpu, checked against FLINT, with the backend
// that ran, both times and the speed-up. The matrix comes from a file in fmpz_mat_fprint's
// format ("rows cols" then the entries row by row, as fmpz_mat_fread reads it), or is generated
// from a seed: n x n entries of exactly `bits` bits with random signs.
//   fmpz_mat_det_example FILE
//   fmpz_mat_det_example [n] [bits] [seed]      (defaults: 200 x 200 entries of 64 bits, seed 1)
#include <cstdio>
#include <cstdlib>

#include <flint/fmpz_mat.h>

#include "example_support.hpp"
#include "zgpu/batch_ops.hpp"
#include "zgpu/zgpu_matrix.h"

namespace {

// The matrix named on the command line: read from the file, or generated. False (with a message)
// where the file does not hold a square matrix or the numbers are invalid.
bool make_matrix(int argc, char** argv, fmpz_mat_t a)
{
    char* end = nullptr;
    const slong n = argc > 1 ? std::strtol(argv[1], &end, 10) : 200;
    if (argc > 1 && *end != '\0') {  // not a number: a file
        FILE* file = std::fopen(argv[1], "r");
        if (!file) {
            std::fprintf(stderr, "%s: cannot open it\n", argv[1]);
            return false;
        }
        const int read = fmpz_mat_fread(file, a);
        std::fclose(file);
        if (read <= 0 || a->r != a->c) {
            std::fprintf(stderr, "%s: not a square matrix in fmpz_mat_fprint's format\n", argv[1]);
            return false;
        }
        return true;
    }
    const long bits = argc > 2 ? std::atol(argv[2]) : 64;
    const unsigned long seed = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 1;
    if (n < 0 || bits < 1) {
        std::fprintf(stderr, "usage: %s FILE | %s [n >= 0] [bits >= 1] [seed]\n", argv[0], argv[0]);
        return false;
    }
    flint_rand_t state;
    example::random_init(state);
    example::random_seed(state, seed);
    fmpz_mat_clear(a);
    fmpz_mat_init(a, n, n);
    fmpz_mat_randbits(a, state, flint_bitcnt_t(bits));  // dense: every entry of exactly `bits` bits
    example::random_clear(state);
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    fmpz_mat_t a;
    fmpz_mat_init(a, 0, 0);
    if (!make_matrix(argc, argv, a)) {
        fmpz_mat_clear(a);
        return 2;
    }
    // The first use of zgpu looks for a GPU and creates its context: not timed.
    if (zgpu::gpu_available()) zgpu::synchronize(zgpu::Backend::gpu);
    fmpz_t ours, theirs;
    fmpz_init(ours);
    fmpz_init(theirs);
    std::printf("%ld x %ld matrix, entries of up to %ld bits\n", long(a->r), long(a->c), long(FLINT_ABS(fmpz_mat_max_bits(a))));
    const bool same = example::time_and_check(
        "zgpu_fmpz_mat_det", [&] { return zgpu_fmpz_mat_det(ours, a); }, [&] { fmpz_mat_det(theirs, a); },
        [&] { return bool(fmpz_equal(ours, theirs)); },
        [&] { return "a determinant of " + std::to_string(fmpz_bits(ours)) + " bits" + (fmpz_sgn(ours) < 0 ? ", negative" : ""); });
    fmpz_clear(ours);
    fmpz_clear(theirs);
    fmpz_mat_clear(a);
    flint_cleanup();
    return same ? 0 : 1;
}
