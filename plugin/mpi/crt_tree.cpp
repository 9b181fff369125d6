#include "plugin/mpi/crt_tree.hpp"

#include <string>

#include "base/parallel.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/rank_outcome.hpp"
#include "zgpu/error.hpp"

namespace zgpu::mpi {
namespace {

// Values merged on one thread at least: a merge costs a few products of the values' size.
constexpr std::size_t kParallelFrom = 64;

}  // namespace

void crt_tree(fmpz* values, std::size_t count, fmpz_t modulus, int root, MPI_Comm comm, double expected_seconds)
{
    const RankOf me = rank_of(comm);
    const int from_root = (me.rank - root + me.size) % me.size;
    const auto rank_at = [&](int distance) { return (distance + root) % me.size; };
    std::string failed;  // the first merge whose moduli were not coprime
    for (int step = 1; step < me.size; step *= 2) {
        if (from_root % (2 * step) != 0) {  // this subtree's values go to the rank `step` nearer the root
            send_fmpz(modulus, rank_at(from_root - step), comm, expected_seconds);
            send_values(values, count, rank_at(from_root - step), comm, expected_seconds);
            break;
        }
        if (from_root + step < me.size) {
            const int from = rank_at(from_root + step);
            FmpzTemp other_modulus;
            receive_fmpz(other_modulus.get(), from, comm, expected_seconds);
            FmpzVecTemp other(count);
            receive_values(other.data(), count, from, comm, expected_seconds);
            if (failed.empty() && !merge_values(values, count, modulus, other.data(), other_modulus.get()))
                failed = "the moduli of ranks " + std::to_string(me.rank) + " and " + std::to_string(from) + "'s subtrees are not coprime";
        }
    }
    on_every_rank(
        comm,
        [&] {
            if (!failed.empty()) throw Error(failed);
        },
        expected_seconds);
}

// Element by element v + m ((w - v) m^-1 mod n), which lies in [0, m n) for v in [0, m) and w in
// [0, n).
bool merge_values(fmpz* values, std::size_t count, fmpz_t modulus, fmpz* other, const fmpz_t other_modulus)
{
    if (fmpz_is_one(other_modulus)) return true;
    if (fmpz_is_one(modulus)) {
        for (std::size_t e = 0; e < count; ++e) fmpz_swap(values + e, other + e);
        fmpz_set(modulus, other_modulus);
        return true;
    }
    FmpzTemp inverse;
    if (!fmpz_invmod(inverse.get(), modulus, other_modulus)) return false;
    parallel_for(count, kParallelFrom, [&](std::size_t begin, std::size_t end) {
        FmpzTemp t;
        for (std::size_t e = begin; e < end; ++e) {
            fmpz_sub(t.get(), other + e, values + e);
            fmpz_mul(t.get(), t.get(), inverse.get());
            fmpz_mod(t.get(), t.get(), other_modulus);
            fmpz_addmul(values + e, modulus, t.get());
        }
    });
    fmpz_mul(modulus, modulus, other_modulus);
    return true;
}

// v > floor(P/2) exactly where 2 v > P.
void to_symmetric_range(fmpz* values, std::size_t count, const fmpz_t product)
{
    FmpzTemp half;
    fmpz_fdiv_q_2exp(half.get(), product, 1);
    parallel_for(count, 1024, [&](std::size_t begin, std::size_t end) {
        for (std::size_t e = begin; e < end; ++e)
            if (fmpz_cmp(values + e, half.get()) > 0) fmpz_sub(values + e, values + e, product);
    });
}

}  // namespace zgpu::mpi
