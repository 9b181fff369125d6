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

}  // namespace

HostResult into_range(fmpz* values, const fmpz* modulus)
{
    return [values, modulus](std::size_t first, ConstBatchView got) {
        adapters::unpack_fmpz_vec(got, values + first);
        parallel_for(first, first + got.count, 4096, [&](std::size_t begin, std::size_t end) {
            for (std::size_t e = begin; e < end; ++e) fmpz_mod(values + e, values + e, modulus);
        });
    };
}

void part_on_host(fmpz* values, std::size_t count, const PrimeSet& mine, const LimbBatch& a, const LimbBatch& b,
                  const ResiduesOfPart& compute, const PrimesDone& done)
{
    const DeviceBatch a_here = DeviceBatch::upload(a.view(), Backend::cpu), b_here = DeviceBatch::upload(b.view(), Backend::cpu);
    const std::size_t words = a.count() + b.count() + count;
    const std::size_t group = std::max<std::size_t>(1, kHostResidueBytes / (8 * words));
    const std::span<const limb_t> primes = mine.moduli();
    FmpzTemp modulus;
    fmpz_one(modulus.get());
    FmpzVecTemp part(count);
    for (std::size_t first = 0; first < primes.size(); first += group) {
        const std::size_t n = std::min(group, primes.size() - first);
        const PrimeSet some = n == primes.size() ? mine : PrimeSet(primes.subspan(first, n));
        ResidueBatch x(some, a.count(), Backend::cpu), y(some, b.count(), Backend::cpu);
        reduce(x, a_here, some);
        reduce(y, b_here, some);
        DeviceBatch reconstructed;
        crt(reconstructed, compute(x, y), false);
        adapters::unpack_fmpz_vec(reconstructed.download().view(), part.data());
        merge_values(values, count, modulus.get(), part.data(), some.product());  // distinct primes: coprime
        if (done) done(n);
    }
}

}  // namespace zgpu::mpi
