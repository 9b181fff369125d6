#include "plugin/mpi/value_over_ranks.hpp"

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/settings.hpp"
#include "plugin/host_ops/progress.hpp"
#include "plugin/modular/cpu_modular.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/modular/product_primes.hpp"
#include "plugin/mpi/crt_tree.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/rank_devices.hpp"
#include "plugin/mpi/rank_outcome.hpp"
#include "plugin/mpi/shares.hpp"
#include "zgpu/error.hpp"

namespace zgpu::mpi {
namespace {

// The ranks' weights for the next call of a function over a number of ranks, rebalanced from the
// times of the last; equal before the first. Each call takes the root's (a process may call
// over several communicators of one size).
class Weights {
public:
    std::vector<std::uint64_t> of(const std::string& function, int ranks)
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        const auto found = kept_.find({function, ranks});
        return found != kept_.end() ? found->second : std::vector<std::uint64_t>(std::size_t(ranks), kFullWeight);
    }
    void keep(const std::string& function, int ranks, std::vector<std::uint64_t> weights)
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        kept_[{function, ranks}] = std::move(weights);
    }

private:
    std::mutex mutex_;
    std::map<std::pair<std::string, int>, std::vector<std::uint64_t>> kept_;
};

Weights weights;

// The value modulo the product of this rank's primes (its `share`), in [0, modulus) (1 for no
// primes).
void residues_here(fmpz_t value, fmpz_t modulus, const SplitValue& call, const PrimeSet& all, std::span<const limb_t> share,
                   int root, MPI_Comm comm, const ResiduesHere& residues)
{
    const RankOf me = rank_of(comm);
    if (settings::mpi_test_fail_rank() == me.rank)
        throw Error(call.function + ": this rank's part failed on purpose (ZGPU_MPI_TEST_FAIL_RANK)");
    // Until the others end the job (ZGPU_MPI_TIMEOUT).
    while (settings::mpi_test_hang_rank() == me.rank) std::this_thread::sleep_for(std::chrono::seconds(1));
    if (share.empty()) return fmpz_zero(value), fmpz_one(modulus);
    // Kept for the next call of this size, with its comb and device tables.
    const PrimeSet mine = kept_primes_range(std::size_t(share.data() - all.moduli().data()), share.size());
    const Backend where = requested_backend();
    set_last_backend(where);
    // Lines from the root alone, for its share.
    const std::string ranks = std::to_string(me.size) + (me.size == 1 ? " rank" : " ranks");
    Progress progress(call.call + " over " + ranks + ", rank " + std::to_string(me.rank) + "'s " + std::to_string(share.size()) +
                          " of " + std::to_string(all.size()) + " primes",
                      me.rank == root ? call.flint_seconds / me.size : 0.0, share.size());
    std::function<void(std::uint64_t)> primes_done;
    if (progress.on()) primes_done = [&](std::uint64_t primes) { progress.advance(primes); };
    crt_one(value, residues(mine, where, primes_done), mine.state());
    progress.ran_on(where);
    // From FLINT's symmetric range to [0, modulus), as the tree merges.
    if (fmpz_sgn(value) < 0) fmpz_add(value, value, mine.product());
    fmpz_set(modulus, mine.product());
}

}  // namespace

void value_over_ranks(fmpz_t value, const SplitValue& call, int root, MPI_Comm comm, const ResiduesHere& residues)
{
    on_every_rank(comm, [&] { share_devices(comm); });
    const PrimeSet all = product_primes(call.bound_bits);
    const RankOf me = rank_of(comm);
    std::vector<std::uint64_t> now = weights.of(call.function, me.size);
    broadcast(now.data(), me.size, MPI_UINT64_T, root, comm, "reading the root's weights");
    const std::span<const limb_t> share = weighted_share(all.moduli(), now, me.rank);
    FmpzTemp modulus;
    const auto start = std::chrono::steady_clock::now();
    double seconds = 0;
    // Another rank's share may take as long as FLINT would on one thread (a rank without a GPU).
    on_every_rank(
        comm,
        [&] {
            residues_here(value, modulus.get(), call, all, share, root, comm, residues);
            if (!share.empty()) seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        },
        call.flint_seconds / me.size);
    // Every rank's time, so that the next call's shares even them out.
    std::vector<double> times(std::size_t(me.size));
    const double limit = answer_limit(0);
    MPI_Request request;
    MPI_Iallgather(&seconds, 1, MPI_DOUBLE, times.data(), 1, MPI_DOUBLE, comm, &request);
    wait_for(request, comm, "gathering the ranks' times", limit);
    weights.keep(call.function, me.size, rebalanced(now, times));
    crt_tree(value, modulus.get(), root, comm);
    // Every prime counted once (the root's modulus the whole set's product), or no value at all.
    on_every_rank(comm, [&] {
        if (me.rank == root && !fmpz_equal(modulus.get(), all.product()))
            throw Error(call.function + ": internal error: the ranks' shares did not cover the primes once each");
    });
    // On the root, from [0, P) to FLINT's symmetric range (-P/2, P/2], which holds |value| < 2^bound.
    if (me.rank != root) return;
    FmpzTemp twice;
    fmpz_mul_2exp(twice.get(), value, 1);
    if (fmpz_cmp(twice.get(), all.product()) > 0) fmpz_sub(value, value, all.product());
}

void check_call(const std::string& function, const void* out, const char* out_name, Where input, Where result, int root,
                MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL) throw Error(function + ": comm is MPI_COMM_NULL");
    // The largest of each argument and of its negation: equal on every rank only where every
    // rank passed the same.
    int mine[6] = {root, int(input), int(result), -root, -int(input), -int(result)}, largest[6];
    const double limit = answer_limit(0);
    MPI_Request request;
    MPI_Iallreduce(mine, largest, 6, MPI_INT, MPI_MAX, comm, &request);
    wait_for(request, comm, "comparing the call's arguments", limit);
    if (largest[0] != -largest[3] || largest[1] != -largest[4] || largest[2] != -largest[5])
        throw Error(function + ": the ranks passed different roots, inputs or results; every rank must pass the same");
    on_every_rank(comm, [&] {
        settings::mpi_timeout();  // a bad value is an error of the call, the same on every rank
        const RankOf me = rank_of(comm);
        if (root < 0 || root >= me.size)
            throw Error(function + ": root " + std::to_string(root) + " is not a rank of the " + std::to_string(me.size));
        if (!out && (result == Where::all || me.rank == root)) throw Error(function + ": " + out_name + " is NULL");
    });
}

void deliver(fmpz_t out, fmpz_t value, Where result, int root, MPI_Comm comm)
{
    if (result == Where::all) broadcast_fmpz(value, root, comm);
    if (result == Where::all || rank_of(comm).rank == root) fmpz_swap(out, value);
}

}  // namespace zgpu::mpi
