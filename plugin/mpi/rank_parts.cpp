#include "plugin/mpi/rank_parts.hpp"

#include <algorithm>

#include "base/parallel.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/crt_tree.hpp"
#include "zgpu/device_batch.hpp"
#include "zgpu/fmpz_adapter.hpp"

namespace zgpu::mpi {
namespace {

// The most memory a rank without a GPU holds in residues at once.
constexpr std::size_t kHostResidueBytes = std::size_t(256) << 20;

// Takes values congruent to the part's modulo `modulus`, as the plugin's GPU paths hand them on
// (values from `first` on), into values[first ..) in [0, modulus).
HostResult into_range(fmpz* values, const fmpz* modulus)
{
    return [values, modulus](std::size_t first, ConstBatchView got) {
        adapters::unpack_fmpz_vec(got, values + first);
        parallel_for(first, first + got.count, 4096, [&](std::size_t begin, std::size_t end) {
            for (std::size_t e = begin; e < end; ++e) fmpz_mod(values + e, values + e, modulus);
        });
    };
}

}  // namespace

bool in_prime_groups(fmpz* values, std::size_t count, const PrimeSet& mine, std::size_t most,
                     const std::function<bool(const PrimeSet& group, fmpz* out)>& group_values, const PrimesDone& done)
{
    const std::span<const limb_t> primes = mine.moduli();
    if (primes.size() <= most) {  // one group: straight into values
        if (!group_values(mine, values)) return false;
        if (done) done(primes.size());
        return true;
    }
    FmpzTemp modulus;
    fmpz_one(modulus.get());
    FmpzVecTemp part(count);
    for (std::size_t first = 0; first < primes.size(); first += most) {
        const PrimeSet group(primes.subspan(first, std::min(most, primes.size() - first)));
        if (!group_values(group, part.data())) return false;
        merge_values(values, count, modulus.get(), part.data(), group.product());  // distinct primes: coprime
        if (done) done(group.size());
    }
    return true;
}

bool part_on_gpu(fmpz* values, std::size_t count, const PrimeSet& mine,
                 const std::function<bool(const PrimeSet& group, const HostResult& result)>& run, const PrimesDone& done)
{
    return in_prime_groups(
        values, count, mine, kMaxGroupPrimes,
        [&](const PrimeSet& group, fmpz* out) { return run(group, into_range(out, group.product())); }, done);
}

void part_on_host(fmpz* values, std::size_t count, const PrimeSet& mine, const LimbBatch& a, const LimbBatch& b,
                  const ResiduesOfPart& compute, const PrimesDone& done, std::size_t most)
{
    const DeviceBatch a_here = DeviceBatch::upload(a.view(), Backend::cpu), b_here = DeviceBatch::upload(b.view(), Backend::cpu);
    const std::size_t words = a.count() + b.count() + count;
    const std::size_t group = std::min(most, std::max<std::size_t>(1, kHostResidueBytes / (8 * words)));
    in_prime_groups(
        values, count, mine, group,
        [&](const PrimeSet& some, fmpz* out) {
            ResidueBatch x(some, a.count(), Backend::cpu), y(some, b.count(), Backend::cpu);
            reduce(x, a_here, some);
            reduce(y, b_here, some);
            DeviceBatch reconstructed;
            crt(reconstructed, compute(x, y), false);
            adapters::unpack_fmpz_vec(reconstructed.download().view(), out);
            return true;
        },
        done);
}

}  // namespace zgpu::mpi
