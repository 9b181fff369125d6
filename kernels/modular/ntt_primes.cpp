#include "kernels/modular/ntt_primes.hpp"

#include <algorithm>
#include <functional>
#include <mutex>
#include <string>

#include "kernels/modular/word_mod.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {

bool is_prime_word(limb_t n)
{
    static constexpr limb_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    if (n < 2) return false;
    for (const limb_t p : bases)
        if (n % p == 0) return n == p;
    limb_t d = n - 1;
    int s = 0;
    for (; d % 2 == 0; d /= 2) ++s;
    for (const limb_t a : bases) {
        limb_t x = pow_mod(a, d, n);
        if (x == 1 || x == n - 1) continue;
        bool composite = true;
        for (int r = 1; r < s && composite; ++r) {
            x = mul_mod(x, x, n);
            composite = x != n - 1;
        }
        if (composite) return false;
    }
    return true;
}

namespace {

// Every set is a prefix of one list, kept as far as it was ever asked for: finding a prime costs
// about ten microseconds (twenty candidates tested), and products of a new coefficient size ask
// for a new set. Made at first use, so that callers during static initialisation find it.
struct PrimeList {
    std::mutex mutex;
    std::vector<limb_t> found;
    limb_t next_c = (limb_t(1) << 30) - 1;  // p = c 2^32 + 1 < 2^62 means c < 2^30
};

PrimeList& prime_list()
{
    static PrimeList list;
    return list;
}

}  // namespace

std::vector<limb_t> ntt_primes(std::size_t k)
{
    auto& [mutex, found, next_c] = prime_list();
    const std::lock_guard<std::mutex> lock(mutex);
    for (; next_c > 0 && found.size() < k; --next_c) {
        const limb_t p = (next_c << 32) + 1;
        if (is_prime_word(p)) found.push_back(p);
    }
    if (found.size() < k) throw Error("only " + std::to_string(found.size()) + " primes p = 1 mod 2^32 lie below 2^62; " + std::to_string(k) + " asked for");
    return std::vector<limb_t>(found.begin(), found.begin() + std::ptrdiff_t(k));
}

std::optional<std::size_t> ntt_prime_index(limb_t p)
{
    PrimeList& list = prime_list();
    const std::lock_guard<std::mutex> lock(list.mutex);
    const std::vector<limb_t>& found = list.found;
    // The list descends.
    const auto at = std::lower_bound(found.begin(), found.end(), p, std::greater<>());
    if (at == found.end() || *at != p) return std::nullopt;
    return std::size_t(at - found.begin());
}

}  // namespace zgpu::kernels
