// The vector CRT over the ranks of a communicator (zgpu_mpi.h): each rank reconstructs its
// residues modulo its own prime set (zgpu's vector CRT on its backend), and the CRT tree merges
// the ranks' vectors to the root.
#include <string>

#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/crt_tree.hpp"
#include "plugin/mpi/values_over_ranks.hpp"
#include "plugin/mpi/vec_crt_over_ranks.hpp"
#include "zgpu/error.hpp"
#include "zgpu/flint_modular.hpp"

namespace zgpu::mpi {
namespace {

const std::string kFunction = "mpi_fmpz_vec_multi_CRT_ui";

}  // namespace

void vec_crt_over_ranks(fmpz* vec, const ulong* const* residues, slong len, const PrimeSet* set, bool sign, Where result, int root,
                        MPI_Comm comm)
{
    // vec may be NULL where len is 0, as in FLINT: then any pointer stands for it.
    comm = begin_call(kFunction, len > 0 ? static_cast<const void*>(vec) : &len, "vec", Where::all, result, root, comm, len);
    on_every_rank(comm, [&] {
        if (len < 0) throw Error(kFunction + ": len is negative (" + std::to_string(len) + ")");
        if (!set) throw Error(kFunction + ": the prime set is NULL or was not initialised");
    });
    const std::size_t count = std::size_t(len);
    FmpzVecTemp values(count);
    FmpzTemp modulus;
    on_every_rank(comm, [&] {
        fmpz_one(modulus.get());
        if (set->size() == 0 || count == 0) return;  // zeros modulo 1
        zgpu::fmpz_vec_multi_CRT_ui(values.data(), residues, len, *set, 0);
        fmpz_set(modulus.get(), set->product());
    });
    crt_tree(values.data(), count, modulus.get(), root, comm);
    if (sign && rank_of(comm).rank == root) to_symmetric_range(values.data(), count, modulus.get());
    deliver_values(values.data(), count, result, root, comm);
    if (result == Where::root && rank_of(comm).rank != root) return;
    for (std::size_t e = 0; e < count; ++e) fmpz_swap(vec + e, values.data() + e);
}

void fmpz_vec_multi_CRT_ui(fmpz* vec, const ulong* const* residues, slong len, const PrimeSet& set, bool sign, Where result,
                           int root, MPI_Comm comm)
{
    vec_crt_over_ranks(vec, residues, len, &set, sign, result, root, comm);
}

}  // namespace zgpu::mpi
