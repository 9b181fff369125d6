// Prime sets: the caller's moduli validated, or generated primes; bounds; the backends' state.
#include <algorithm>
#include <atomic>
#include <numeric>
#include <string>

#include <flint/ulong_extras.h>

#include "base/parallel.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/modular/ntt_primes.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "zgpu/error.hpp"

namespace zgpu {
namespace {

std::string modulus_name(std::span<const limb_t> moduli, std::size_t i)
{
    return "modulus " + std::to_string(i) + " (" + std::to_string(moduli[i]) + ")";
}

// The index of the first modulus that shares a factor with another (k if none): n_i is coprime
// to all others exactly when it is coprime to (P / n_i) mod n_i = (P mod n_i^2) / n_i, which
// costs one division of P a modulus instead of k gcds.
std::size_t first_not_coprime(std::span<const limb_t> moduli, const fmpz_t product)
{
    const std::size_t k = moduli.size();
    std::atomic<std::size_t> first = k;
    parallel_for(k, 64, [&](std::size_t begin, std::size_t end) {
        FmpzTemp square_, rest_;
        fmpz* square = square_.get();
        fmpz* rest = rest_.get();
        for (std::size_t i = begin; i < end && i < first.load(); ++i) {
            fmpz_set_ui(square, moduli[i]);
            fmpz_mul_ui(square, square, moduli[i]);
            fmpz_mod(rest, product, square);
            fmpz_divexact_ui(rest, rest, moduli[i]);
            if (n_gcd(fmpz_get_ui(rest), moduli[i]) != 1) {
                std::size_t seen = first.load();
                while (i < seen && !first.compare_exchange_weak(seen, i)) {}
            }
        }
    });
    return first.load();
}

// Throws unless the moduli are valid: k >= 1, each >= 2, distinct, pairwise coprime.
void validate(std::span<const limb_t> moduli, const fmpz_t product)
{
    const std::size_t k = moduli.size();
    if (k == 0) throw Error("prime set: no moduli (k = 0)");
    for (std::size_t i = 0; i < k; ++i)
        if (moduli[i] < 2) throw Error("prime set: " + modulus_name(moduli, i) + " is below 2");
    std::vector<std::size_t> order(k);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return moduli[a] < moduli[b]; });
    for (std::size_t j = 1; j < k; ++j)
        if (moduli[order[j - 1]] == moduli[order[j]])
            throw Error("prime set: moduli " + std::to_string(order[j - 1]) + " and " + std::to_string(order[j]) +
                        " are equal (" + std::to_string(moduli[order[j]]) + ")");
    const std::size_t i = first_not_coprime(moduli, product);
    if (i == k) return;
    for (std::size_t j = 0; j < k; ++j)
        if (j != i && n_gcd(moduli[i], moduli[j]) != 1)
            throw Error("prime set: moduli are not pairwise coprime: " + modulus_name(moduli, std::min(i, j)) + " and " +
                        modulus_name(moduli, std::max(i, j)) + " have the common factor " +
                        std::to_string(n_gcd(moduli[i], moduli[j])));
}

void set_product(fmpz_t product, std::span<const limb_t> moduli)
{
    fmpz_one(product);
    for (const limb_t n : moduli) fmpz_mul_ui(product, product, n);
}

}  // namespace

PrimeSet::State::State(std::vector<limb_t> moduli_) : moduli(std::move(moduli_)), mods(moduli.size())
{
    fmpz_init(product);
    set_product(product, moduli);
    product_limbs = fmpz_size(product);
    for (std::size_t i = 0; i < moduli.size(); ++i) nmod_init(&mods[i], moduli[i]);
    // The comb keeps a pointer to the moduli (FLINT 2.9), which this object owns.
    fmpz_comb_init(comb, moduli.data(), slong(moduli.size()));
}

PrimeSet::State::~State()
{
    fmpz_comb_clear(comb);
    fmpz_clear(product);
}

const gpu::ModularTables& PrimeSet::State::gpu_tables() const
{
    std::call_once(tables_once_, [this] { tables_ = gpu::make_modular_tables(moduli); });
    return *tables_;
}

PrimeSet::PrimeSet(std::span<const limb_t> moduli)
{
    FmpzTemp product;
    set_product(product.get(), moduli);
    validate(moduli, product.get());
    state_ = std::make_shared<const State>(std::vector<limb_t>(moduli.begin(), moduli.end()));
}

PrimeSet PrimeSet::generated(std::size_t k)
{
    if (k == 0) throw Error("prime set: no moduli (k = 0)");
    return PrimeSet(std::make_shared<const State>(ntt_primes(k)));
}

PrimeSet PrimeSet::for_bits(std::uint64_t bits, bool sign)
{
    // |x| <= 2^bits - 1 needs P > 2^(bits + 1) - 2 signed, P > 2^bits - 1 unsigned; each prime
    // is above 2^61, so start from bits / 62 primes and add until P is large enough.
    FmpzTemp need, product;
    fmpz_one(need.get());
    fmpz_mul_2exp(need.get(), need.get(), bits + (sign ? 1 : 0));
    fmpz_sub_ui(need.get(), need.get(), sign ? 2 : 1);
    std::size_t k = std::max<std::size_t>(1, bits / 62);
    std::vector<limb_t> primes = ntt_primes(k);
    set_product(product.get(), primes);
    while (fmpz_cmp(product.get(), need.get()) <= 0) {
        primes = ntt_primes(++k);
        fmpz_mul_ui(product.get(), product.get(), primes.back());
    }
    return PrimeSet(std::make_shared<const State>(std::move(primes)));
}

std::size_t PrimeSet::size() const { return state_->moduli.size(); }
std::span<const limb_t> PrimeSet::moduli() const { return state_->moduli; }
const fmpz* PrimeSet::product() const { return state_->product; }
std::uint64_t PrimeSet::product_bits() const { return fmpz_bits(state_->product); }

bool PrimeSet::represents(const fmpz_t bound, bool sign) const
{
    if (fmpz_sgn(bound) < 0) throw Error("prime set: the bound is negative");
    if (!sign) return fmpz_cmp(bound, state_->product) < 0;
    FmpzTemp twice;
    fmpz_mul_2exp(twice.get(), bound, 1);
    return fmpz_cmp(twice.get(), state_->product) < 0;
}

bool PrimeSet::same_moduli(const PrimeSet& other) const
{
    return state_ == other.state_ || state_->moduli == other.state_->moduli;
}

}  // namespace zgpu
