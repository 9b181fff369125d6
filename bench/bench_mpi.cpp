// The MPI layer on the ranks it runs on (mpiexec -n K bench_mpi [n bits]): the determinant of an
// n x n matrix of `bits`-bit entries end to end with the input on the root and on every rank,
// and its two communication parts alone: the broadcast of the packed entries, and the CRT tree
// of the ranks' values modulo their shares of the bound's primes. Seconds on the root, median of
// 3 after one call, each timed from a barrier. One markdown row; rank 0 prints the header with
// --header.
#include <gmp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <mpi.h>

#include <flint/fmpz_mat.h>

#include "plugin/flint/fmpz_mat_entries.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/crt_tree.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/prime_share.hpp"
#include "tests/support/flint_random.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/prime_set.hpp"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_mpi.h"

namespace {

int rank = 0, ranks = 1;

// The median of 3 timed calls after one untimed, each from a barrier to the last rank's end.
double seconds(const std::function<void()>& call)
{
    call();
    std::vector<double> times;
    for (int i = 0; i < 3; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        call();
        MPI_Barrier(MPI_COMM_WORLD);
        times.push_back(MPI_Wtime() - start);
    }
    std::sort(times.begin(), times.end());
    return times[1];
}

}  // namespace

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (argc > 1 && std::strcmp(argv[1], "--header") == 0) {
        if (rank == 0)
            std::printf("| ranks | n | bits | primes | det, input on the root, s | det, input on all, s | broadcast of a, s | "
                        "CRT tree, s |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        MPI_Finalize();
        return 0;
    }
    const slong n = argc > 1 ? std::atol(argv[1]) : 200;
    const flint_bitcnt_t bits = argc > 2 ? flint_bitcnt_t(std::atol(argv[2])) : 64;
    flint_rand_t state;
    random_init(state);
    fmpz_mat_t a;
    fmpz_mat_init(a, n, n);
    fmpz_mat_randbits(a, state, bits);
    fmpz_t det;
    fmpz_init(det);
    const auto det_with = [&](int input) {
        const fmpz_mat_struct* here = input == ZGPU_MPI_ON_ALL || rank == 0 ? a : nullptr;
        if (zgpu_mpi_fmpz_mat_det(det, here, input, ZGPU_MPI_ON_ROOT, 0, MPI_COMM_WORLD) != 0) {
            std::fprintf(stderr, "rank %d: %s\n", rank, zgpu_last_error());
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    };
    const double on_root = seconds([&] { det_with(ZGPU_MPI_ON_ROOT); });
    const double on_all = seconds([&] { det_with(ZGPU_MPI_ON_ALL); });
    const zgpu::LimbBatch packed = zgpu::adapters::pack_fmpz_vec(fmpz_mat_entry(a, 0, 0), std::size_t(n * n), "a");
    const double broadcast = seconds([&] {
        zgpu::LimbBatch copy = rank == 0 ? packed : zgpu::LimbBatch();
        zgpu::mpi::broadcast_batch(copy, 0, MPI_COMM_WORLD);
    });
    const zgpu::PrimeSet all = zgpu::PrimeSet::for_bits(zgpu::matrix::hadamard_bits(zgpu::row_squared_norm_bits(a)), true);
    const zgpu::PrimeSet mine(zgpu::mpi::prime_share(all.moduli(), rank, ranks));
    const double tree = seconds([&] {
        zgpu::FmpzTemp value, modulus;
        fmpz_set(modulus.get(), mine.product());
        fmpz_randm(value.get(), state, modulus.get());
        zgpu::mpi::crt_tree(value.get(), modulus.get(), 0, MPI_COMM_WORLD);
    });
    if (rank == 0)
        std::printf("| %d | %ld | %lu | %zu | %.4f | %.4f | %.4f | %.4f |\n", ranks, long(n), static_cast<unsigned long>(bits),
                    all.size(), on_root, on_all, broadcast, tree);
    fmpz_clear(det);
    fmpz_mat_clear(a);
    random_clear(state);
    MPI_Finalize();
    return 0;
}
