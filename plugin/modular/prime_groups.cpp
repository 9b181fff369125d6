#include "plugin/modular/prime_groups.hpp"

#include <algorithm>
#include <optional>

#include "kernels/modular/ntt_primes.hpp"
#include "plugin/modular/product_primes.hpp"

namespace zgpu {

std::vector<limb_t> residues_in_groups(const PrimeSet& set, std::size_t most, const ResiduesOf& residues,
                                       const PrimesDone& primes_done)
{
    const std::span<const limb_t> primes = set.moduli();
    if (primes.size() <= most) return residues(set, primes_done);
    const std::optional<std::size_t> first = kernels::ntt_prime_index(primes[0]);
    std::vector<limb_t> all;
    all.reserve(primes.size());
    for (std::size_t at = 0; at < primes.size(); at += most) {
        const std::span<const limb_t> some = primes.subspan(at, std::min(most, primes.size() - at));
        std::optional<PrimeSet> group;
        if (first) {
            group = kept_primes_range(*first + at, some.size());
            if (!std::equal(some.begin(), some.end(), group->moduli().begin())) group.reset();  // not a range of them
        }
        if (!group) group = PrimeSet(some);
        const std::vector<limb_t> part = residues(*group, primes_done);
        all.insert(all.end(), part.begin(), part.end());
    }
    return all;
}

}  // namespace zgpu
