// det(a) over the ranks of a communicator (zgpu_mpi.h): Hadamard's bound and its primes, the
// same on every rank; each rank's share of the primes as residues by zgpu's device-resident
// layer (reduce, mat_det) on its own backend and one CRT; the ranks' values merged along a tree.
#include <gmp.h>

#include <string>
#include <vector>

#include "base/settings.hpp"
#include "plugin/flint/fmpz_mat_entries.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/crt_tree.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/prime_share.hpp"
#include "plugin/mpi/rank_outcome.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/device_batch.hpp"
#include "zgpu/error.hpp"
#include "zgpu/flint_modular.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/mpi.hpp"
#include "zgpu/prime_set.hpp"
#include "zgpu/residue_batch.hpp"
#include "zgpu/residue_matrix.hpp"

namespace zgpu::mpi {
namespace {

// What every rank needs of a: its order, Hadamard's bound in bits, and its entries packed.
struct DetInput {
    std::uint64_t n = 0, bound = 0;
    LimbBatch entries;
};

// a's on this rank: checked, measured and packed.
DetInput read_here(const fmpz_mat_struct* a)
{
    if (!a) throw Error("mpi_fmpz_mat_det: a is NULL");
    if (a->r != a->c)
        throw Error("mpi_fmpz_mat_det: a is " + std::to_string(a->r) + " x " + std::to_string(a->c) + ", not square");
    DetInput in;
    in.n = std::uint64_t(a->r);
    if (in.n == 0) return in;
    in.bound = matrix::hadamard_bits(row_squared_norm_bits(a));
    in.entries = adapters::pack_fmpz_vec(RowMajor(a).entries(), std::size_t(in.n * in.n), "a");
    return in;
}

// a on every rank: read where it is (the root's errors everyone's), then broadcast.
DetInput read_input(const fmpz_mat_struct* a, Where input, int root, MPI_Comm comm)
{
    const RankOf me = rank_of(comm);
    DetInput in;
    on_every_rank(comm, [&] {
        if (input == Where::all || me.rank == root) in = read_here(a);
    });
    if (input == Where::root) {
        std::uint64_t shape[2] = {in.n, in.bound};
        MPI_Bcast(shape, 2, MPI_UINT64_T, root, comm);
        in.n = shape[0], in.bound = shape[1];
        if (in.n > 0) broadcast_batch(in.entries, root, comm);
    }
    return in;
}

// det(a) modulo the product of `primes` (1 for none), 0 <= value < modulus: residues on this
// rank's backend, then the CRT of one value.
void residues_here(fmpz_t value, fmpz_t modulus, const DetInput& in, std::span<const limb_t> primes)
{
    if (primes.empty()) return fmpz_zero(value), fmpz_one(modulus);
    const PrimeSet mine(primes);
    const Backend where = requested_backend();
    set_last_backend(where);
    const DeviceBatch x = DeviceBatch::upload(in.entries.view(), where);
    ResidueBatch residues(mine, std::size_t(in.n * in.n), where);
    reduce(residues, x, mine);
    std::vector<ulong> det(mine.size());
    mat_det(det, residues, std::size_t(in.n));
    std::vector<const ulong*> columns(det.size());
    for (std::size_t i = 0; i < det.size(); ++i) columns[i] = &det[i];
    fmpz_vec_multi_CRT_ui(value, columns.data(), 1, mine, 0);
    fmpz_set(modulus, mine.product());
}

void check_arguments(fmpz_t det, Where result, int root, MPI_Comm comm)
{
    const RankOf me = rank_of(comm);
    if (root < 0 || root >= me.size)
        throw Error("mpi_fmpz_mat_det: root " + std::to_string(root) + " is not a rank of the " + std::to_string(me.size));
    if (!det && (result == Where::all || me.rank == root)) throw Error("mpi_fmpz_mat_det: det is NULL");
}

}  // namespace

void fmpz_mat_det(fmpz_t det, const fmpz_mat_t a, Where input, Where result, int root, MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL) throw Error("mpi_fmpz_mat_det: comm is MPI_COMM_NULL");
    on_every_rank(comm, [&] { check_arguments(det, result, root, comm); });
    const DetInput in = read_input(a, input, root, comm);
    const RankOf me = rank_of(comm);
    FmpzTemp value, modulus;
    if (in.n == 0 || in.bound == 0) {  // the empty matrix's 1, a zero row's 0: the host's answers
        fmpz_set_ui(value.get(), in.n == 0 ? 1 : 0);
        set_last_backend(Backend::cpu);
    } else {
        const PrimeSet all = PrimeSet::for_bits(in.bound, true);
        on_every_rank(comm, [&] {
            if (settings::mpi_test_fail_rank() == me.rank)
                throw Error("mpi_fmpz_mat_det: this rank's part failed on purpose (ZGPU_MPI_TEST_FAIL_RANK)");
            residues_here(value.get(), modulus.get(), in, prime_share(all.moduli(), me.rank, me.size));
        });
        crt_tree(value.get(), modulus.get(), root, comm);
        // On the root, from [0, P) to FLINT's symmetric range (-P/2, P/2], which holds |det| < 2^bound.
        if (me.rank == root) {
            FmpzTemp twice;
            fmpz_mul_2exp(twice.get(), value.get(), 1);
            if (fmpz_cmp(twice.get(), all.product()) > 0) fmpz_sub(value.get(), value.get(), all.product());
        }
    }
    if (result == Where::all) broadcast_fmpz(value.get(), root, comm);
    if (result == Where::all || me.rank == root) fmpz_swap(det, value.get());
}

}  // namespace zgpu::mpi
