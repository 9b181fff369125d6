#include "kernels/modular/modular_tables.hpp"

#include <bit>
#include <numeric>
#include <string>

#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

std::string modulus_name(std::size_t i) { return "moduli[" + std::to_string(i) + "]"; }

void validate_each(std::span<const limb_t> moduli)
{
    if (moduli.empty()) throw Error("no moduli (k = 0)");
    for (std::size_t i = 0; i < moduli.size(); ++i)
        if (moduli[i] < 2) throw Error(modulus_name(i) + " = " + std::to_string(moduli[i]) + " is below 2");
}

// The first modulus after i that shares a factor with moduli[i], as an error.
[[noreturn]] void throw_common_factor(std::span<const limb_t> moduli, std::size_t i)
{
    for (std::size_t j = i + 1; j < moduli.size(); ++j) {
        const limb_t g = std::gcd(moduli[i], moduli[j]);
        if (g == 1) continue;
        if (moduli[i] == moduli[j]) throw Error(modulus_name(i) + " and " + modulus_name(j) + " are equal (" + std::to_string(g) + ")");
        throw Error(modulus_name(i) + " and " + modulus_name(j) + " share the factor " + std::to_string(g));
    }
    throw Error("internal error: " + modulus_name(i) + " shares a factor with no other modulus");
}

// M_i mod n_i = prod_(j != i) n_j mod n_i for each i: n_i is coprime to every other modulus
// exactly when it is coprime to that product. Scanning i upwards, the first failure names the
// lowest index of a pair with a common factor, and its partner lies above it.
std::vector<limb_t> cofactors_mod_each(std::span<const limb_t> moduli, std::span<const Modulus> m)
{
    const std::size_t k = moduli.size();
    std::vector<limb_t> cofactors(k);
    for (std::size_t i = 0; i < k; ++i) {
        const limb_t cofactor = cofactor_mod(m.data(), k, i);
        if (std::gcd(cofactor, m[i].n) != 1) throw_common_factor(moduli, i);
        cofactors[i] = cofactor;
    }
    return cofactors;
}

std::vector<Modulus> moduli_of(std::span<const limb_t> moduli)
{
    std::vector<Modulus> m;
    m.reserve(moduli.size());
    for (const limb_t n : moduli) m.push_back(make_modulus(n));
    return m;
}

// t.powers and t.block_powers from t.moduli.
void fill_powers(ModularTables& t)
{
    const std::size_t k = t.count;
    t.powers.resize(std::size_t(kPowerBlock) * k);
    t.block_powers.resize(std::size_t(kPowerBlocks) * k);
    for (std::size_t i = 0; i < k; ++i) {
        const Modulus& m = t.moduli[i];
        const limb_t base = m.reduce(1, 0);  // B mod n
        limb_t power = 1;                    // 1 mod n, as n >= 2
        for (std::uint32_t c = 0; c < kPowerBlock; ++c, power = m.mul(power, base)) t.powers[c * k + i] = power;
        const limb_t block_base = power;  // B^R mod n
        limb_t block_power = 1;
        for (std::uint32_t b = 0; b < kPowerBlocks; ++b, block_power = m.mul(block_power, block_base))
            t.block_powers[b * k + i] = block_power;
    }
}

}  // namespace

std::vector<limb_t> moduli_product(std::span<const limb_t> moduli)
{
    std::vector<limb_t> product{1};
    for (const limb_t n : moduli) {
        limb_t carry = 0;
        for (limb_t& limb : product) {
            const unsigned __int128 t = (unsigned __int128)limb * n + carry;
            limb = limb_t(t);
            carry = limb_t(t >> 64);
        }
        if (carry) product.push_back(carry);
    }
    return product;
}

void validate_moduli(std::span<const limb_t> moduli)
{
    validate_each(moduli);
    cofactors_mod_each(moduli, moduli_of(moduli));
}

ModularTables make_modular_tables(std::span<const limb_t> moduli)
{
    validate_each(moduli);
    const std::size_t k = moduli.size();
    ModularTables t;
    t.count = k;
    t.moduli = moduli_of(moduli);
    t.crt_inverses = cofactors_mod_each(moduli, t.moduli);
    for (std::size_t i = 0; i < k; ++i) t.crt_inverses[i] = inverse_mod_coprime(t.crt_inverses[i], t.moduli[i].n);

    t.product = moduli_product(moduli);
    t.product_limbs = std::uint32_t(t.product.size());
    t.product_bits = 64 * (t.product.size() - 1) + (64 - std::countl_zero(t.product.back()));
    const std::size_t limbs = t.product_limbs;
    t.cofactors.assign(k * limbs, 0);
    for (std::size_t i = 0; i < k; ++i) divide_by_modulus(t.moduli[i], t.product.data(), t.product_limbs, &t.cofactors[i * limbs], 1);

    fill_powers(t);
    return t;
}

ModularTables make_reduction_tables(std::span<const limb_t> moduli)
{
    validate_each(moduli);
    ModularTables t;
    t.count = moduli.size();
    t.moduli = moduli_of(moduli);
    fill_powers(t);
    return t;
}

}  // namespace zgpu::kernels
