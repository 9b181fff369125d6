// zgpu::PrimeSet: k pairwise coprime word-size moduli n_0 .. n_{k-1} and what reduction modulo
// each and the Chinese remainder theorem need (FLINT's fmpz_comb_t plays this role).
//
// Bounds: with P = n_0 * ... * n_{k-1}, the residues determine an integer modulo P. The
// unsigned CRT returns values in [0, P); the signed CRT returns, as FLINT's
// fmpz_multi_CRT_ui(..., sign = 1), values in (-P/2, P/2]: from -floor((P-1)/2) to floor(P/2),
// so for even P the value P/2 comes back positive and -P/2 is not representable. Every integer
// x with |x| <= B therefore comes back exactly when 2B < P (signed) or, for 0 <= x <= B, when
// B < P (unsigned): represents(B, sign).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include <flint/fmpz.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu {

class PrimeSet {
public:
    // The caller's moduli, in that order: each 2 <= n < 2^64, pairwise coprime (primes or not).
    // Throws zgpu::Error naming the indices otherwise (0 or 1, a repeated modulus, two moduli
    // with a common factor). No moduli make the empty set, P = 1, as FLINT 3 allows: the vector
    // reduction writes nothing and the vector CRT gives zeros; everything else that computes
    // modulo the set's primes refuses it.
    explicit PrimeSet(std::span<const limb_t> moduli);

    // The k largest primes p < 2^62 with p = 1 mod 2^32 (NTT-friendly), in decreasing order
    // (k = 0: the empty set).
    static PrimeSet generated(std::size_t k);
    // Those primes from the `first`-th on, `count` of them: a share of generated(first + count),
    // for work split over processes by primes.
    static PrimeSet generated_range(std::size_t first, std::size_t count);
    // The fewest such primes that represent every value of at most `bits` bits (|x| < 2^bits;
    // signed or, unsigned, 0 <= x < 2^bits). bits at most kMaxBits, else zgpu::Error.
    static PrimeSet for_bits(std::uint64_t bits, bool sign);
    // 2^30: 17.6 million primes, each above 2^61 (the generated primes stay above 2^61 for the
    // first 25 million), a value of 128 MiB. Determinants and resultants with larger bounds go
    // to the host.
    static constexpr std::uint64_t kMaxBits = std::uint64_t(1) << 30;

    std::size_t size() const;
    std::span<const limb_t> moduli() const;
    // P, and its number of bits.
    const fmpz* product() const;
    std::uint64_t product_bits() const;
    // Whether every x with |x| <= bound (unsigned: 0 <= x <= bound) is returned exactly by the
    // CRT: 2 bound < P signed, bound < P unsigned. bound must be >= 0.
    bool represents(const fmpz_t bound, bool sign) const;
    // Whether the two sets have the same moduli in the same order.
    bool same_moduli(const PrimeSet& other) const;

    // What the backends use (plugin/modular/prime_set_state.hpp); shared by copies of the set.
    struct State;
    const State& state() const { return *state_; }

private:
    explicit PrimeSet(std::shared_ptr<const State> state) : state_(std::move(state)) {}
    std::shared_ptr<const State> state_;
};

}  // namespace zgpu
