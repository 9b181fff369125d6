#include "plugin/modular/ntt_primes.hpp"

#include <mutex>
#include <string>

#include <flint/ulong_extras.h>

#include "zgpu/error.hpp"

namespace zgpu {

std::vector<limb_t> ntt_primes(std::size_t k)
{
    constexpr limb_t kStep = limb_t(1) << 32;
    // About one candidate in 22 is prime near 2^62 (density 2 / ln 2^62 among these odd
    // numbers): the 2^30 candidates below 2^62 hold tens of millions; this cap keeps a typo from
    // searching for minutes.
    constexpr std::size_t kMaxPrimes = std::size_t(1) << 20;
    if (k > kMaxPrimes)
        throw Error("ntt_primes: " + std::to_string(k) + " primes asked for, at most " + std::to_string(kMaxPrimes));
    static std::mutex mutex;
    static std::vector<limb_t> found;
    static limb_t next_factor = (limb_t(1) << 30) - 1;  // the largest c with c * 2^32 + 1 < 2^62
    const std::lock_guard lock(mutex);
    while (found.size() < k) {
        const limb_t p = next_factor-- * kStep + 1;
        if (n_is_prime(p)) found.push_back(p);
    }
    return {found.begin(), found.begin() + std::ptrdiff_t(k)};
}

}  // namespace zgpu
