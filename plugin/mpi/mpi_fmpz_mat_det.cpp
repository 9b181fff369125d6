// det(a) over the ranks of a communicator (zgpu_mpi.h) on the frame of value_over_ranks.hpp:
// Hadamard's bound, and each rank's share of its primes by the GPU's modular determinants (the
// plugin's own, as many primes at a time as the device holds) or, on a rank without a GPU, zgpu's
// device-resident layer on the host (reduce, mat_det).
#include <gmp.h>

#include <algorithm>
#include <string>
#include <vector>

#include "adapters/batch_reader.hpp"
#include "plugin/flint/fmpz_mat_entries.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/rank_outcome.hpp"
#include "plugin/mpi/value_over_ranks.hpp"
#include "zgpu/device_batch.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/mpi.hpp"
#include "zgpu/residue_batch.hpp"
#include "zgpu/residue_matrix.hpp"

namespace zgpu::mpi {
namespace {

const std::string kFunction = "mpi_fmpz_mat_det";

// The most memory a rank without a GPU holds in residues at once.
constexpr std::size_t kHostResidueBytes = std::size_t(256) << 20;

// What every rank needs of a: its order, Hadamard's bound in bits, and its entries packed.
struct DetInput {
    std::uint64_t n = 0, bound = 0;
    LimbBatch entries;
};

// a's on this rank: checked, measured and packed.
DetInput read_here(const fmpz_mat_struct* a)
{
    if (!a) throw Error(kFunction + ": a is NULL");
    if (a->r != a->c)
        throw Error(kFunction + ": a is " + std::to_string(a->r) + " x " + std::to_string(a->c) + ", not square");
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

// det(a) modulo each prime of `mine` on `where`.
std::vector<limb_t> det_residues(const DetInput& in, const PrimeSet& mine, Backend where,
                                 const std::function<void(std::uint64_t)>& primes_done)
{
    const std::size_t n = std::size_t(in.n);
    if (where == Backend::gpu)
        return matrix::gpu_fmpz_mat_det_residues({host_operand(adapters::BatchReader(in.entries.view()), n * n, "a"), n, n, 0}, mine,
                                                 primes_done);
    // On the host, a group of primes at a time: the residues of every entry modulo every prime
    // of a share would take n^2 words a prime.
    const DeviceBatch entries = DeviceBatch::upload(in.entries.view(), where);
    const std::span<const limb_t> primes = mine.moduli();
    const std::size_t group = std::max<std::size_t>(1, kHostResidueBytes / (8 * n * n));
    std::vector<limb_t> det(primes.size());
    for (std::size_t first = 0; first < primes.size(); first += group) {
        const PrimeSet some(primes.subspan(first, std::min(group, primes.size() - first)));
        ResidueBatch residues(some, n * n, where);
        reduce(residues, entries, some);
        std::vector<ulong> values(some.size());
        mat_det(values, residues, n);
        std::copy(values.begin(), values.end(), det.begin() + std::ptrdiff_t(first));
        if (primes_done) primes_done(some.size());
    }
    return det;
}

}  // namespace

void fmpz_mat_det(fmpz_t det, const fmpz_mat_t a, Where input, Where result, int root, MPI_Comm comm)
{
    check_call(kFunction, det, "det", result, root, comm);
    const DetInput in = read_input(a, input, root, comm);
    FmpzTemp value;
    if (in.n == 0 || in.bound == 0) {  // the empty matrix's 1, a zero row's 0: the host's answers
        fmpz_set_ui(value.get(), in.n == 0 ? 1 : 0);
        set_last_backend(Backend::cpu);
    } else {
        const std::string n = std::to_string(in.n);
        value_over_ranks(value.get(), {kFunction, "fmpz_mat_det, " + n + " x " + n, in.bound, matrix::flint_det_seconds(in.n, in.bound)},
                         root, comm, [&](const PrimeSet& mine, Backend where, const std::function<void(std::uint64_t)>& done) {
                             return det_residues(in, mine, where, done);
                         });
    }
    deliver(det, value.get(), result, root, comm);
}

}  // namespace zgpu::mpi
