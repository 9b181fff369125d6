// The MPI layer on the ranks it runs on:
//   mpiexec -n K bench_mpi det n bits [reps]          an n x n matrix of `bits`-bit entries
//   mpiexec -n K bench_mpi resultant length bits [reps]  two polynomials of `length` coefficients
//   mpiexec -n K bench_mpi poly_mul length bits [reps]   their product
//   mpiexec -n K bench_mpi mat_mul n bits [reps]       the product of two such matrices
//   mpiexec -n K bench_mpi solve n bits [reps]         a x = den b, b one column of `bits` bits
//   mpiexec -n K bench_mpi inv n bits [reps]           a^-1 = b / den
//   mpiexec -n 1 bench_mpi --header                    the table's header
// Each row: the split call end to end with the input on the root and on every rank, its two
// communication parts alone (the broadcast of the packed input, and the CRT tree of the ranks'
// values modulo their shares of the bound's primes, as many values as the result has), and, on
// the root alone, one process's zgpu call (zgpu_fmpz_mat_det takes a divisor first where that
// pays, so it may need far fewer primes), and whether the two results agree. Seconds on the root, the median of `reps` (3) timed
// calls after one untimed, each from a barrier to the last rank's end. The backend and GPUs are
// each rank's, as zgpu_mpi.h says.
#include <gmp.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <mpi.h>

#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>

#include "plugin/flint/fmpz_mat_entries.hpp"
#include "plugin/flint/fmpz_poly_norms.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/matrix/fmpz_mat_solve.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/crt_tree.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/shares.hpp"
#include "tests/support/flint_random.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/prime_set.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"
#include "zgpu/zgpu_mpi.h"
#include "zgpu/zgpu_poly.h"

namespace {

int rank = 0, ranks = 1, reps = 3;

// The median of `reps` timed calls, each between `fence()` before it and after it; prepare(),
// where given, before each fence, untimed.
double median_seconds(const std::function<void()>& call, const std::function<void()>& fence, const std::function<void()>& prepare = {})
{
    std::vector<double> times;
    for (int i = 0; i < reps; ++i) {
        if (prepare) prepare();
        fence();
        const double start = MPI_Wtime();
        call();
        fence();
        times.push_back(MPI_Wtime() - start);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

// On every rank: the median after one untimed call (which builds the prime sets and tables of
// this size) unless the size was seen, each timed from a barrier to the last rank's end.
double seconds(const std::function<void()>& call, bool untimed_first = true, const std::function<void()>& prepare = {})
{
    if (untimed_first) {
        if (prepare) prepare();
        call();
    }
    return median_seconds(call, [] { MPI_Barrier(MPI_COMM_WORLD); }, prepare);
}

// The same on the root alone (one process's call), 0 elsewhere.
double root_seconds(const std::function<void()>& call)
{
    double s = 0;
    if (rank == 0) {
        call();
        s = median_seconds(call, [] {});
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return s;
}

void require(int status)
{
    if (status == 0) return;
    std::fprintf(stderr, "rank %d: %s\n", rank, zgpu_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
}


// What a row measures of one call.
struct Row {
    std::string call, size;
    std::uint64_t bound;                   // bits
    std::size_t values = 1;                // in the result
    std::vector<zgpu::LimbBatch> packed;   // the input as the broadcast sends it
    std::function<void(int input)> split;  // the split call with the input on the root or on all
    std::function<void()> one;             // one process's zgpu call
    // The root's result as a batch: the split calls and one process's write the same result.
    std::function<zgpu::LimbBatch()> result;
};

void measure(Row& row, flint_rand_t state)
{
    const double on_all = seconds([&] { row.split(ZGPU_MPI_ON_ALL); });
    const double on_root = seconds([&] { row.split(ZGPU_MPI_ON_ROOT); }, false);
    const double broadcast = seconds([&] {
        for (const zgpu::LimbBatch& batch : row.packed) {
            zgpu::LimbBatch copy = rank == 0 ? batch : zgpu::LimbBatch();
            zgpu::mpi::broadcast_batch(copy, 0, MPI_COMM_WORLD);
        }
    });
    const zgpu::PrimeSet all = zgpu::PrimeSet::for_bits(row.bound, true);
    const zgpu::PrimeSet mine(zgpu::mpi::prime_share(all.moduli(), rank, ranks));
    zgpu::FmpzVecTemp values(row.values);
    zgpu::FmpzTemp modulus;
    const double tree = seconds([&] { zgpu::mpi::crt_tree(values.data(), row.values, modulus.get(), 0, MPI_COMM_WORLD); }, true,
                                [&] {
                                    fmpz_set(modulus.get(), mine.product());
                                    for (std::size_t e = 0; e < row.values; ++e) fmpz_randm(values.data() + e, state, modulus.get());
                                });
    const zgpu::LimbBatch split = rank == 0 ? row.result() : zgpu::LimbBatch();
    const double one = root_seconds(row.one);
    if (rank == 0) {
        const zgpu::LimbBatch alone = row.result();
        const bool same = std::ranges::equal(split.sizes(), alone.sizes()) && split.stride() == alone.stride() &&
                          std::ranges::equal(split.limbs(), alone.limbs());
        std::printf("| %d | %s | %s | %zu | %.3f | %.3f | %.4f | %.4f | %.3f | %s | %s |\n", ranks, row.call.c_str(),
                    row.size.c_str(), all.size(), on_root, on_all, broadcast, tree, one, zgpu_last_backend(), same ? "yes" : "NO");
    }
}

// `size` coefficients of exactly `bits` bits, random signs.
void random_poly(fmpz_poly_t f, slong size, flint_bitcnt_t bits, flint_rand_t state)
{
    fmpz_poly_fit_length(f, size);
    for (slong i = 0; i < size; ++i) fmpz_randbits(f->coeffs + i, state, bits);
    _fmpz_poly_set_length(f, size);
}

}  // namespace

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const std::string call = argc > 1 ? argv[1] : "";
    if (call == "--header") {
        if (rank == 0)
            std::printf("| ranks | call | size | primes | split, input on the root, s | split, input on all, s | broadcast, s | "
                        "CRT tree, s | one process's zgpu call, s | its backend | the same value |\n"
                        "|---:|---|---|---:|---:|---:|---:|---:|---:|---|---|\n");
        MPI_Finalize();
        return 0;
    }
    const std::vector<std::string> calls = {"det", "resultant", "poly_mul", "mat_mul", "solve", "inv"};
    if (std::ranges::find(calls, call) == calls.end() || argc < 4) {
        if (rank == 0)
            std::fprintf(stderr, "usage: mpiexec -n K %s det|resultant|poly_mul|mat_mul|solve|inv size bits [reps] | --header\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    const slong size = std::atol(argv[2]);
    const flint_bitcnt_t bits = flint_bitcnt_t(std::atol(argv[3]));
    if (argc > 4) reps = std::max(1, std::atoi(argv[4]));
    flint_rand_t state;
    random_init(state);
    fmpz_t out;
    fmpz_init(out);
    fmpz_mat_t a, b, c;
    fmpz_mat_init(a, size, size);
    fmpz_mat_init(b, size, size);
    fmpz_mat_init(c, size, call == "solve" ? 1 : size);
    fmpz_poly_t f, g, h;
    fmpz_poly_init(f);
    fmpz_poly_init(g);
    fmpz_poly_init(h);
    Row row;
    row.call = call;
    row.size = std::to_string(size) + ", " + std::to_string(bits) + " bits";
    const auto here = [](int input) { return input == ZGPU_MPI_ON_ALL || rank == 0; };
    fmpz_mat_t column;
    fmpz_mat_init(column, size, 1);
    int nonsingular = 0;
    if (call == "det" || call == "mat_mul" || call == "solve" || call == "inv") {
        fmpz_mat_randbits(a, state, bits);
        if (call == "mat_mul") fmpz_mat_randbits(b, state, bits);
        if (call == "solve") fmpz_mat_randbits(column, state, bits);
        row.packed.push_back(zgpu::adapters::pack_fmpz_vec(fmpz_mat_entry(a, 0, 0), std::size_t(size * size), "a"));
    } else {
        random_poly(f, size, bits, state);
        random_poly(g, size, bits, state);
        row.packed.push_back(zgpu::adapters::pack_fmpz_vec(f->coeffs, std::size_t(size), "a"));
    }
    if (call == "det") {
        row.bound = zgpu::matrix::hadamard_bits(zgpu::row_squared_norm_bits(a));
        row.split = [&](int input) {
            require(zgpu_mpi_fmpz_mat_det(out, here(input) ? a : nullptr, input, ZGPU_MPI_ON_ROOT, 0, MPI_COMM_WORLD));
        };
        row.one = [&] { require(zgpu_fmpz_mat_det(out, a)); };
        row.result = [&] { return zgpu::adapters::pack_fmpz_vec(out, 1, "det"); };
    } else if (call == "mat_mul") {
        row.bound = 2 * bits + flint_bitcnt_t(std::bit_width(std::uint64_t(size) - 1));
        row.values = std::size_t(size * size);
        row.packed.push_back(zgpu::adapters::pack_fmpz_vec(fmpz_mat_entry(b, 0, 0), std::size_t(size * size), "b"));
        row.split = [&](int input) {
            require(zgpu_mpi_fmpz_mat_mul(c, here(input) ? a : nullptr, here(input) ? b : nullptr, input, ZGPU_MPI_ON_ROOT, 0,
                                          MPI_COMM_WORLD));
        };
        row.one = [&] { require(zgpu_fmpz_mat_mul(c, a, b)); };
        row.result = [&] { return zgpu::adapters::pack_fmpz_vec(fmpz_mat_entry(c, 0, 0), row.values, "c"); };
    } else if (call == "solve") {
        row.bound = zgpu::matrix::solve_bounds(a, column).numerator_bits;
        row.values = std::size_t(size) + 1;
        row.packed.push_back(zgpu::adapters::pack_fmpz_vec(fmpz_mat_entry(column, 0, 0), std::size_t(size), "b"));
        row.split = [&](int input) {
            require(zgpu_mpi_fmpz_mat_solve(&nonsingular, c, out, here(input) ? a : nullptr, here(input) ? column : nullptr, input,
                                            ZGPU_MPI_ON_ROOT, 0, MPI_COMM_WORLD));
        };
        row.one = [&] { require(zgpu_fmpz_mat_solve(&nonsingular, c, out, a, column)); };
        row.result = [&] {  // x, then den
            zgpu::FmpzVecTemp both(row.values);
            for (slong i = 0; i < size; ++i) fmpz_set(both.data() + i, fmpz_mat_entry(c, i, 0));
            fmpz_set(both.data() + size, out);
            return zgpu::adapters::pack_fmpz_vec(both.data(), row.values, "x");
        };
    } else if (call == "inv") {
        fmpz_mat_one(b);  // the identity: the adjugate's bound is that of a x = den I
        row.bound = zgpu::matrix::solve_bounds(a, b).numerator_bits;
        row.values = std::size_t(size * size) + 1;
        row.split = [&](int input) {
            require(zgpu_mpi_fmpz_mat_inv(&nonsingular, c, out, here(input) ? a : nullptr, input, ZGPU_MPI_ON_ROOT, 0,
                                          MPI_COMM_WORLD));
        };
        row.one = [&] { require(zgpu_fmpz_mat_inv(&nonsingular, c, out, a)); };
        row.result = [&] {  // b, then den
            zgpu::FmpzVecTemp both(row.values);
            for (slong i = 0; i < size; ++i)
                for (slong j = 0; j < size; ++j) fmpz_set(both.data() + i * size + j, fmpz_mat_entry(c, i, j));
            fmpz_set(both.data() + size * size, out);
            return zgpu::adapters::pack_fmpz_vec(both.data(), row.values, "b");
        };
    } else if (call == "resultant") {
        row.bound = zgpu::resultant_bound_bits(f, g);
        row.packed.push_back(zgpu::adapters::pack_fmpz_vec(g->coeffs, std::size_t(size), "b"));
        row.split = [&](int input) {
            require(zgpu_mpi_fmpz_poly_resultant(out, here(input) ? f : nullptr, here(input) ? g : nullptr, input, ZGPU_MPI_ON_ROOT,
                                                 0, MPI_COMM_WORLD));
        };
        row.one = [&] { require(zgpu_fmpz_poly_resultant(out, f, g)); };
        row.result = [&] { return zgpu::adapters::pack_fmpz_vec(out, 1, "res"); };
    } else {
        row.bound = 2 * bits + flint_bitcnt_t(std::bit_width(std::uint64_t(size) - 1));
        row.values = std::size_t(2 * size - 1);
        row.packed.push_back(zgpu::adapters::pack_fmpz_vec(g->coeffs, std::size_t(size), "b"));
        row.split = [&](int input) {
            require(zgpu_mpi_fmpz_poly_mul(h, here(input) ? f : nullptr, here(input) ? g : nullptr, input, ZGPU_MPI_ON_ROOT, 0,
                                           MPI_COMM_WORLD));
        };
        row.one = [&] { require(zgpu_fmpz_poly_mul(h, f, g)); };
        row.result = [&] { return zgpu::adapters::pack_fmpz_vec(h->coeffs, std::size_t(h->length), "res"); };
    }
    measure(row, state);
    fmpz_mat_clear(a);
    fmpz_mat_clear(b);
    fmpz_mat_clear(c);
    fmpz_mat_clear(column);
    fmpz_poly_clear(f);
    fmpz_poly_clear(g);
    fmpz_poly_clear(h);
    fmpz_clear(out);
    random_clear(state);
    MPI_Finalize();
    return 0;
}
