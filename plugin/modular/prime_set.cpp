// Prime sets: the caller's moduli validated, or generated primes; bounds; the backends' state.
#include <algorithm>
#include <string>
#include <string_view>

#include <flint/ulong_extras.h>

#include "kernels/modular/modular_tables.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "zgpu/error.hpp"

namespace zgpu {
namespace {

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
}

PrimeSet::State::~State()
{
    if (comb_built_) fmpz_comb_clear(comb_);
    fmpz_clear(product);
}

const fmpz_comb_struct* PrimeSet::State::comb() const
{
    // FLINT's comb needs a modulus; only the vector reduction and CRT take the empty set, and
    // they answer without one.
    if (moduli.empty()) throw Error("prime set: no moduli: nothing to compute modulo");
    // The comb keeps a pointer to the moduli (FLINT 2.9), which this object owns.
    std::call_once(comb_once_, [this] {
        fmpz_comb_init(comb_, moduli.data(), slong(moduli.size()));
        comb_built_ = true;
    });
    return comb_;
}

const gpu::ModularTables& PrimeSet::State::gpu_tables() const
{
    std::call_once(tables_once_, [this] { tables_ = gpu::make_modular_tables(moduli); });
    return *tables_;
}

const gpu::ModularTables& PrimeSet::State::gpu_reduction_tables() const
{
    std::call_once(reduction_once_, [this] { reduction_tables_ = gpu::make_reduction_tables(moduli); });
    return *reduction_tables_;
}

std::size_t PrimeSet::State::first_composite() const
{
    std::call_once(composite_once_, [this] {
        first_composite_ = std::size_t(std::find_if(moduli.begin(), moduli.end(), [](limb_t n) { return !n_is_prime(n); }) -
                                       moduli.begin());
    });
    return first_composite_;
}

PrimeSet::PrimeSet(std::span<const limb_t> moduli)
{
    if (moduli.empty()) {
        state_ = std::make_shared<const State>(std::vector<limb_t>());
        return;
    }
    try {
        kernels::validate_moduli(moduli);
    } catch (const Error& e) {
        throw Error("prime set: " + std::string(e.what()).substr(std::string_view("zgpu: ").size()));
    }
    state_ = std::make_shared<const State>(std::vector<limb_t>(moduli.begin(), moduli.end()));
}

PrimeSet PrimeSet::generated(std::size_t k)
{
    return PrimeSet(std::make_shared<const State>(kernels::ntt_primes(k)));
}

PrimeSet PrimeSet::generated_range(std::size_t first, std::size_t count)
{
    std::vector<limb_t> primes = kernels::ntt_primes(first + count);
    primes.erase(primes.begin(), primes.begin() + std::ptrdiff_t(first));
    return PrimeSet(std::make_shared<const State>(std::move(primes)));
}

PrimeSet PrimeSet::for_bits(std::uint64_t bits, bool sign)
{
    if (bits > kMaxBits)
        throw Error("prime set: " + std::to_string(bits) + " bits is more than the supported 2^30 (" + std::to_string(kMaxBits) + ")");
    // |x| <= 2^bits - 1 needs P > 2^(bits + 1) - 2 signed, P > 2^bits - 1 unsigned. Each prime
    // is above 2^61 (below kMaxBits), so ceil((bits + 1) / 61) of them always suffice; take the
    // fewest.
    FmpzTemp need, product;
    fmpz_one(need.get());
    fmpz_mul_2exp(need.get(), need.get(), bits + (sign ? 1 : 0));
    fmpz_sub_ui(need.get(), need.get(), sign ? 2 : 1);
    std::vector<limb_t> primes = kernels::ntt_primes((bits + 1 + 60) / 61);
    std::size_t k = 0;
    for (fmpz_one(product.get()); fmpz_cmp(product.get(), need.get()) <= 0; ++k) {
        // Never, below kMaxBits: a set that fell short must not be returned as one that suffices.
        if (k == primes.size()) throw Error("prime set: internal error: the primes for " + std::to_string(bits) + " bits fall short");
        fmpz_mul_ui(product.get(), product.get(), primes[k]);
    }
    primes.resize(std::max<std::size_t>(k, 1));
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
