// Res(a, b) over the ranks of a communicator (zgpu_mpi.h) on the frame of values_over_ranks.hpp:
// Hadamard's bound on the Sylvester matrix, and each rank's share of its primes by the GPU's
// modular resultants (gpu::fmpz_poly_resultant_residues, the plugin's own) or, on a rank
// without a GPU, the coefficients reduced by zgpu's device-resident layer on the host and one
// resultant of the formal degrees a prime (poly/formal_resultant.hpp).
#include <gmp.h>

#include <string>
#include <vector>

#include "base/parallel.hpp"
#include "plugin/flint/fmpz_poly_norms.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/mpi/poly_pair.hpp"
#include "plugin/mpi/values_over_ranks.hpp"
#include "plugin/poly/formal_resultant.hpp"
#include "plugin/poly/poly_choice.hpp"
#include "zgpu/device_batch.hpp"
#include "zgpu/mpi.hpp"
#include "zgpu/residue_batch.hpp"

namespace zgpu::mpi {
namespace {

const std::string kFunction = "mpi_fmpz_poly_resultant";

// Res(a, b) modulo each prime of `mine` on `where`.
std::vector<limb_t> resultant_residues(const PolyPair& in, const PrimeSet& mine, Backend where, const PrimesDone& primes_done)
{
    const std::size_t a_length = std::size_t(in.a_length), b_length = std::size_t(in.b_length);
    if (where == Backend::gpu)
        return gpu::fmpz_poly_resultant_residues(in.a_operand().coeffs, a_length, in.b_operand().coeffs, b_length,
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
    comm = begin_call(kFunction, res, "res", input, result, root, comm);
    const PolyPair in = input_on_every_rank<PolyPair>(input, root, comm, [&] {
        return PolyPair::read(kFunction, a, b, [](const PolyPair&, const fmpz_poly_struct* x, const fmpz_poly_struct* y) {
            return resultant_bound_bits(x, y);
        });
    });
    FmpzTemp value;
    if (in.bound == 0) {  // a zero polynomial's 0, as in FLINT: the host's answer
        fmpz_zero(value.get());
        set_last_backend(Backend::cpu);
    } else {
        value_over_ranks(value.get(),
                         {kFunction,
                          "fmpz_poly_resultant, lengths " + std::to_string(in.a_length) + " and " + std::to_string(in.b_length),
                          in.bound, poly::flint_resultant_seconds(in.a_length, in.b_length, in.bound)},
                         root, comm, [&](const PrimeSet& mine, Backend where, const PrimesDone& done) {
                             return resultant_residues(in, mine, where, done);
                         });
    }
    deliver(res, value.get(), result, root, comm);
}

}  // namespace zgpu::mpi
