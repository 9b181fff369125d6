#include "plugin/mpi/crt_tree.hpp"

#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/rank_outcome.hpp"

namespace zgpu::mpi {
namespace {

// value mod modulus and other mod other_modulus (coprime) into value mod their product. (FLINT
// 2.9's fmpz_CRT takes the second pair as not const.)
void merge(fmpz_t value, fmpz_t modulus, fmpz_t other, fmpz_t other_modulus)
{
    if (fmpz_is_one(other_modulus)) return;
    FmpzTemp merged;
    if (fmpz_is_one(modulus)) fmpz_set(merged.get(), other);
    else fmpz_CRT(merged.get(), value, modulus, other, other_modulus, 0);
    fmpz_swap(value, merged.get());
    fmpz_mul(modulus, modulus, other_modulus);
}

}  // namespace

void crt_tree(fmpz_t value, fmpz_t modulus, int root, MPI_Comm comm)
{
    const RankOf me = rank_of(comm);
    const int from_root = (me.rank - root + me.size) % me.size;
    const auto rank_at = [&](int distance) { return (distance + root) % me.size; };
    for (int step = 1; step < me.size; step *= 2) {
        if (from_root % (2 * step) != 0) {  // this subtree's value goes to the rank `step` nearer the root
            send_fmpz(value, rank_at(from_root - step), comm);
            send_fmpz(modulus, rank_at(from_root - step), comm);
            return;
        }
        if (from_root + step < me.size) {
            FmpzTemp other, other_modulus;
            receive_fmpz(other.get(), rank_at(from_root + step), comm);
            receive_fmpz(other_modulus.get(), rank_at(from_root + step), comm);
            merge(value, modulus, other.get(), other_modulus.get());
        }
    }
}

}  // namespace zgpu::mpi
