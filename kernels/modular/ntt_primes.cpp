#include "kernels/modular/ntt_primes.hpp"

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

std::vector<limb_t> ntt_primes(std::size_t k)
{
    std::vector<limb_t> primes;
    primes.reserve(k);
    // p = c 2^32 + 1 < 2^62 means c < 2^30.
    for (limb_t c = (limb_t(1) << 30) - 1; c > 0 && primes.size() < k; --c) {
        const limb_t p = (c << 32) + 1;
        if (is_prime_word(p)) primes.push_back(p);
    }
    if (primes.size() < k) throw Error("only " + std::to_string(primes.size()) + " primes p = 1 mod 2^32 lie below 2^62; " + std::to_string(k) + " asked for");
    return primes;
}

}  // namespace zgpu::kernels
