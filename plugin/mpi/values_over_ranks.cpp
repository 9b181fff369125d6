#include "plugin/mpi/values_over_ranks.hpp"

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/parallel.hpp"
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

// The ranks' weights for the next call of a kind over a number of ranks, rebalanced from the
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

// This rank's part: values modulo the product of its primes (its `share`), in [0, modulus)
// (zeros modulo 1 for no primes).
void part_here(fmpz* values, std::size_t count, fmpz_t modulus, const SplitCall& call, const PrimeSet& all,
               std::span<const limb_t> share, int root, MPI_Comm comm, const PartHere& part)
{
    const RankOf me = rank_of(comm);
    if (settings::mpi_test_fail_rank() == me.rank)
        throw Error(call.function + ": this rank's part failed on purpose (ZGPU_MPI_TEST_FAIL_RANK)");
    // Until the others end the job (ZGPU_MPI_TIMEOUT).
    while (settings::mpi_test_hang_rank() == me.rank) std::this_thread::sleep_for(std::chrono::seconds(1));
    if (share.empty()) {
        for (std::size_t e = 0; e < count; ++e) fmpz_zero(values + e);
        return fmpz_one(modulus);
    }
    // A bound's share is kept for the next call of this size, with its comb and device tables.
    const PrimeSet mine =
        call.primes ? PrimeSet(share) : kept_primes_range(std::size_t(share.data() - all.moduli().data()), share.size());
    const Backend where = requested_backend();
    set_last_backend(where);
    // Lines from the root alone, for its share.
    const std::string ranks = std::to_string(me.size) + (me.size == 1 ? " rank" : " ranks");
    Progress progress(call.call + " over " + ranks + ", rank " + std::to_string(me.rank) + "'s " + std::to_string(share.size()) +
                          " of " + std::to_string(all.size()) + " primes",
                      me.rank == root ? call.flint_seconds / me.size : 0.0, share.size());
    PrimesDone primes_done;
    if (progress.on()) primes_done = [&](std::uint64_t primes) { progress.advance(primes); };
    part(values, mine, where, primes_done);
    progress.ran_on(where);
    fmpz_set(modulus, mine.product());
}

}  // namespace

void values_over_ranks(fmpz* values, std::size_t count, const SplitCall& call, int root, MPI_Comm comm, const PartHere& part)
{
    on_every_rank(comm, [&] { share_devices(comm); });
    const PrimeSet all = call.primes ? *call.primes : product_primes(call.bound_bits);
    const RankOf me = rank_of(comm);
    // One history a kind of split call: the solver's determinant and its numerators apart.
    const std::string kind = call.function + "|" + call.call.substr(0, call.call.find(','));
    std::vector<std::uint64_t> now = weights.of(kind, me.size);
    broadcast(now.data(), me.size, MPI_UINT64_T, root, comm, "reading the root's weights");
    const std::span<const limb_t> share = weighted_share(all.moduli(), now, me.rank);
    FmpzTemp modulus;
    const auto start = std::chrono::steady_clock::now();
    double seconds = 0;
    // Another rank's share may take as long as FLINT would on one thread (a rank without a GPU).
    on_every_rank(
        comm,
        [&] {
            part_here(values, count, modulus.get(), call, all, share, root, comm, part);
            if (!share.empty()) seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        },
        call.flint_seconds / me.size);
    // Every rank's time, so that the next call's shares even them out.
    std::vector<double> times(std::size_t(me.size));
    const double limit = answer_limit(0);
    MPI_Request request;
    MPI_Iallgather(&seconds, 1, MPI_DOUBLE, times.data(), 1, MPI_DOUBLE, comm, &request);
    wait_for(request, comm, "gathering the ranks' times", limit);
    weights.keep(kind, me.size, rebalanced(now, times));
    // The merges take less than the residues, which may take FLINT's time on one thread.
    crt_tree(values, count, modulus.get(), root, comm, call.flint_seconds / me.size);
    // Every prime counted once (the root's modulus the whole set's product), or no values at all.
    on_every_rank(
        comm,
        [&] {
            if (me.rank == root && !fmpz_equal(modulus.get(), all.product()))
                throw Error(call.function + ": internal error: the ranks' shares did not cover the primes once each");
        },
        call.flint_seconds / me.size);
    // The symmetric range holds |value| < 2^bound.
    if (me.rank == root) to_symmetric_range(values, count, all.product());
}

void value_over_ranks(fmpz_t value, const SplitCall& call, int root, MPI_Comm comm, const ResiduesHere& residues)
{
    values_over_ranks(value, 1, call, root, comm, [&](fmpz* v, const PrimeSet& mine, Backend where, const PrimesDone& done) {
        crt_one(v, residues(mine, where, done), mine.state());
        if (fmpz_sgn(v) < 0) fmpz_add(v, v, mine.product());  // from the symmetric range, as the tree merges
    });
}

MPI_Comm begin_call(const std::string& function, const void* out, const char* out_name, Where input, Where result, int root,
                    MPI_Comm comm, std::int64_t shape)
{
    if (comm == MPI_COMM_NULL) throw Error(function + ": comm is MPI_COMM_NULL");
    comm = layer_comm(comm);
    // The largest of each argument and of its negation: equal on every rank only where every
    // rank passed the same.
    const std::int64_t mine[8] = {root, std::int64_t(input), std::int64_t(result), shape, -root, -std::int64_t(input),
                                  -std::int64_t(result), -shape};
    std::int64_t largest[8];
    const double limit = answer_limit(0);
    MPI_Request request;
    MPI_Iallreduce(mine, largest, 8, MPI_INT64_T, MPI_MAX, comm, &request);
    wait_for(request, comm, "comparing the call's arguments", limit);
    for (int k = 0; k < 4; ++k)
        if (largest[k] != -largest[k + 4])
            throw Error(function + ": the ranks passed different roots, inputs, results or lengths; every rank must pass the same");
    on_every_rank(comm, [&] {
        settings::mpi_timeout();  // a bad value is an error of the call, the same on every rank
        const RankOf me = rank_of(comm);
        if (root < 0 || root >= me.size)
            throw Error(function + ": root " + std::to_string(root) + " is not a rank of the " + std::to_string(me.size));
        if (!out && (result == Where::all || me.rank == root)) throw Error(function + ": " + out_name + " is NULL");
    });
    return comm;
}

void deliver(fmpz_t out, fmpz_t value, Where result, int root, MPI_Comm comm)
{
    if (result == Where::all) broadcast_fmpz(value, root, comm);
    if (result == Where::all || rank_of(comm).rank == root) fmpz_swap(out, value);
}

void deliver_values(fmpz* values, std::size_t count, Where result, int root, MPI_Comm comm)
{
    if (result == Where::all) broadcast_values(values, count, root, comm);
}

}  // namespace zgpu::mpi
