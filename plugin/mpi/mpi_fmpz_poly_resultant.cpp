// Res(a, b) over the ranks of a communicator (zgpu_mpi.h) on the frame of value_over_ranks.hpp:
// Hadamard's bound on the Sylvester matrix, and each rank's share of its primes by the GPU's
// modular resultants (gpu::fmpz_poly_resultant_residues, the plugin's own) or, on a rank
// without a GPU, the coefficients reduced by zgpu's device-resident layer on the host and one
// resultant of the formal degrees a prime (poly/formal_resultant.hpp).
#include <gmp.h>

#include <string>
#include <vector>

#include "adapters/batch_reader.hpp"
#include "base/parallel.hpp"
#include "plugin/flint/fmpz_poly_norms.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/rank_outcome.hpp"
#include "plugin/mpi/value_over_ranks.hpp"
#include "plugin/poly/formal_resultant.hpp"
#include "plugin/poly/poly_choice.hpp"
#include "zgpu/device_batch.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/mpi.hpp"
#include "zgpu/residue_batch.hpp"

namespace zgpu::mpi {
namespace {

const std::string kFunction = "mpi_fmpz_poly_resultant";

// What every rank needs of a and b: their lengths (0 for a zero polynomial), Hadamard's bound in
// bits, and their coefficients packed.
struct ResultantInput {
    std::uint64_t a_length = 0, b_length = 0, bound = 0;
    LimbBatch a, b;
};

ResultantInput read_here(const fmpz_poly_struct* a, const fmpz_poly_struct* b)
{
    if (!a || !b) throw Error(kFunction + ": " + (!a ? "a" : "b") + " is NULL");
    ResultantInput in;
    in.a_length = std::uint64_t(a->length), in.b_length = std::uint64_t(b->length);
    if (in.a_length == 0 || in.b_length == 0) return in;
    in.bound = resultant_bound_bits(a, b);
    in.a = adapters::pack_fmpz_vec(a->coeffs, std::size_t(in.a_length), "a");
    in.b = adapters::pack_fmpz_vec(b->coeffs, std::size_t(in.b_length), "b");
    return in;
}

// a and b on every rank: read where they are (the root's errors everyone's), then broadcast.
ResultantInput read_input(const fmpz_poly_struct* a, const fmpz_poly_struct* b, Where input, int root, MPI_Comm comm)
{
    const RankOf me = rank_of(comm);
    ResultantInput in;
    on_every_rank(comm, [&] {
        if (input == Where::all || me.rank == root) in = read_here(a, b);
    });
    if (input == Where::root) {
        std::uint64_t shape[3] = {in.a_length, in.b_length, in.bound};
        broadcast(shape, 3, MPI_UINT64_T, root, comm, "broadcasting the input");
        in.a_length = shape[0], in.b_length = shape[1], in.bound = shape[2];
        if (in.bound > 0) {
            broadcast_batch(in.a, root, comm);
            broadcast_batch(in.b, root, comm);
        }
    }
    return in;
}

// Res(a, b) modulo each prime of `mine` on `where`.
std::vector<limb_t> resultant_residues(const ResultantInput& in, const PrimeSet& mine, Backend where,
                                       const std::function<void(std::uint64_t)>& primes_done)
{
    const std::size_t a_length = std::size_t(in.a_length), b_length = std::size_t(in.b_length);
    if (where == Backend::gpu)
        return gpu::fmpz_poly_resultant_residues(host_operand(adapters::BatchReader(in.a.view()), a_length, "a"), a_length,
                                                 host_operand(adapters::BatchReader(in.b.view()), b_length, "b"), b_length,
                                                 mine.state().gpu_reduction_tables(), primes_done);
    ResidueBatch a(mine, a_length, where), b(mine, b_length, where);
    reduce(a, DeviceBatch::upload(in.a.view(), where), mine);
    reduce(b, DeviceBatch::upload(in.b.view(), where), mine);
    const std::span<const limb_t> primes = mine.moduli();
    std::vector<limb_t> res(primes.size());
    parallel_for(primes.size(), 1, [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i)
            res[i] = poly::formal_resultant(a.data() + i * a.prime_stride(), a_length, b.data() + i * b.prime_stride(), b_length,
                                      primes[i]);
    });
    if (primes_done) primes_done(primes.size());
    return res;
}

}  // namespace

void fmpz_poly_resultant(fmpz_t res, const fmpz_poly_t a, const fmpz_poly_t b, Where input, Where result, int root,
                         MPI_Comm comm)
{
    check_call(kFunction, res, "res", input, result, root, comm);
    const ResultantInput in = read_input(a, b, input, root, comm);
    FmpzTemp value;
    if (in.bound == 0) {  // a zero polynomial's 0, as in FLINT: the host's answer
        fmpz_zero(value.get());
        set_last_backend(Backend::cpu);
    } else {
        value_over_ranks(value.get(),
                         {kFunction,
                          "fmpz_poly_resultant, lengths " + std::to_string(in.a_length) + " and " + std::to_string(in.b_length),
                          in.bound, poly::flint_resultant_seconds(in.a_length, in.b_length, in.bound)},
                         root, comm, [&](const PrimeSet& mine, Backend where, const std::function<void(std::uint64_t)>& done) {
                             return resultant_residues(in, mine, where, done);
                         });
    }
    deliver(res, value.get(), result, root, comm);
}

}  // namespace zgpu::mpi
