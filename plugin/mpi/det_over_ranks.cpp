#include "plugin/mpi/det_over_ranks.hpp"

#include <gmp.h>

#include <algorithm>
#include <string>
#include <vector>

#include "adapters/batch_reader.hpp"
#include "plugin/flint/fmpz_mat_entries.hpp"
#include "plugin/host_ops/progress.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/modular/product_primes.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/rank_outcome.hpp"
#include "plugin/mpi/values_over_ranks.hpp"
#include "zgpu/device_batch.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/mpi.hpp"
#include "zgpu/residue_batch.hpp"
#include "zgpu/residue_matrix.hpp"

namespace zgpu::mpi {
namespace {

// The most memory a rank without a GPU holds in residues at once.
constexpr std::size_t kHostResidueBytes = std::size_t(256) << 20;

// det(a) modulo each prime of `mine` on `where`.
std::vector<limb_t> det_residues(const DetInput& in, const PrimeSet& mine, Backend where, const PrimesDone& primes_done)
{
    const std::size_t n = std::size_t(in.n);
    if (where == Backend::gpu) return matrix::gpu_fmpz_mat_det_residues(in.matrix(), mine, primes_done);
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

// d, a divisor of det(a) found by the root's GPU where that pays against the whole bound's primes
// split over the ranks (Dixon's lifting, as one process's fmpz_mat_det takes it), on every rank:
// the ranks then split the primes of the quotient's bound, often a few instead of thousands. 1
// where the lifting does not pay or serve, or a prime of the quotient's set divides d.
void divisor_on_every_rank(fmpz_t d, const DetInput& in, int root, MPI_Comm comm)
{
    fmpz_one(d);
    on_every_rank(comm, [&] {
        if (rank_of(comm).rank != root || requested_backend() != Backend::gpu ||
            !matrix::divisor_pays_for_fmpz_mat_det(in.n, in.entry_bits, in.bound, std::size_t(rank_of(comm).size)))
            return;
        const std::string n = std::to_string(in.n);
        Progress progress("fmpz_mat_det, " + n + " x " + n + ", a divisor on rank " + std::to_string(root),
                          matrix::flint_det_seconds(in.n, in.bound), matrix::divisor_lift_steps(in.n, in.bound) - 1);
        std::function<void(std::uint64_t)> steps_done;
        if (progress.on()) steps_done = [&](std::uint64_t steps) { progress.advance(steps); };
        FmpzTemp found;
        if (!matrix::fmpz_mat_det_divisor(found.get(), in.matrix(), in.bound, steps_done)) return;
        progress.ran_on(Backend::gpu);
        for (const limb_t p : product_primes(matrix::det_quotient_bits(in.bound, found.get())).moduli())
            if (fmpz_fdiv_ui(found.get(), p) == 0) return;
        fmpz_swap(d, found.get());
    }, matrix::flint_det_seconds(in.n, in.bound));  // the others wait for the root's lifting
    broadcast_fmpz(d, root, comm);
}

}  // namespace

DetInput DetInput::read(const std::string& function, const fmpz_mat_struct* a)
{
    if (!a) throw Error(function + ": a is NULL");
    if (a->r != a->c)
        throw Error(function + ": a is " + std::to_string(a->r) + " x " + std::to_string(a->c) + ", not square");
    DetInput in;
    in.n = std::uint64_t(a->r);
    if (in.n == 0) return in;
    in.bound = matrix::hadamard_bits(row_squared_norm_bits(a));
    in.entry_bits = fmpz_mat_bits(a);
    in.entries = adapters::pack_fmpz_vec(RowMajor(a).entries(), std::size_t(in.n * in.n), "a");
    return in;
}

void DetInput::broadcast(int root, MPI_Comm comm)
{
    std::uint64_t shape[3] = {n, bound, entry_bits};
    mpi::broadcast(shape, 3, MPI_UINT64_T, root, comm, "broadcasting the input");
    n = shape[0], bound = shape[1], entry_bits = shape[2];
    if (n > 0) broadcast_batch(entries, root, comm);
}

matrix::ZMatrix DetInput::matrix() const
{
    const std::size_t order = std::size_t(n);
    return {host_operand(adapters::BatchReader(entries.view()), order * order, "a"), order, order, entry_bits};
}

void det_over_ranks(fmpz_t value, const std::string& function, const DetInput& in, int root, MPI_Comm comm)
{
    if (in.n == 0 || in.bound == 0) {  // the empty matrix's 1, a zero row's 0: the host's answers
        fmpz_set_ui(value, in.n == 0 ? 1 : 0);
        set_last_backend(Backend::cpu);
        return;
    }
    FmpzTemp d;
    divisor_on_every_rank(d.get(), in, root, comm);
    const std::string n = std::to_string(in.n);
    const std::string call = "fmpz_mat_det, " + n + " x " + n + (fmpz_is_one(d.get()) ? "" : ", the quotient by a divisor");
    const std::uint64_t bits = matrix::det_quotient_bits(in.bound, d.get());
    value_over_ranks(value, {function, call, bits, matrix::flint_det_seconds(in.n, bits)}, root, comm,
                     [&](const PrimeSet& mine, Backend where, const PrimesDone& done) {
                         std::vector<limb_t> residues = det_residues(in, mine, where, done);
                         // Never false: no prime of the quotient's set divides d.
                         if (!matrix::divide_residues(residues, mine, d.get()))
                             throw Error(function + ": internal error: a prime of the quotient's set divides the divisor");
                         return residues;
                     });
    if (rank_of(comm).rank == root) fmpz_mul(value, value, d.get());
}

}  // namespace zgpu::mpi
