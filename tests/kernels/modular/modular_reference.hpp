// What the modular tests share: sets of moduli (generated NTT primes, and caller-style ones that
// are not primes), FLINT's fmpz_comb as the reference, and values at the edges of a set's range.
#pragma once

#include <string>
#include <vector>

#include <gmp.h>
#include <flint/fmpz.h>

#include "kernels/modular/ntt_primes.hpp"
#include "random_integers.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::testing {

struct ModuliSet {
    std::string name;
    std::vector<limb_t> moduli;
};

inline constexpr limb_t kOnes = ~limb_t(0);
inline constexpr limb_t kPrime64 = kOnes - 58;  // 2^64 - 59, the largest prime word

// Sets of every kind the kernels must take: k = 1 (n = 2, 2^64 - 1), k = 2 and 3 around 2^64,
// pairwise coprime composites, generated primes at k = 3 and 70.
inline std::vector<ModuliSet> small_moduli_sets()
{
    return {
        {"two", {2}},
        {"ones", {kOnes}},
        {"prime64", {kPrime64}},
        {"ones and prime64", {kOnes, kPrime64}},
        {"two, ones, prime64", {2, kOnes, kPrime64}},
        // 2^63, 3^40, 5^27, 7^22, 2^64 - 59 and 2^64 - 1 without its factor 3, 5: composites.
        {"composites", {limb_t(1) << 63, 12157665459056928801ull, 7450580596923828125ull, 3909821048582988049ull, kPrime64, kOnes / 15}},
        {"ntt primes 3", kernels::ntt_primes(3)},
        {"ntt primes 70", kernels::ntt_primes(70)},
    };
}

// FLINT's comb of a set, with its temporaries.
class Comb {
public:
    explicit Comb(const std::vector<limb_t>& moduli) : k_(slong(moduli.size()))
    {
        fmpz_comb_init(comb_, reinterpret_cast<const ulong*>(moduli.data()), k_);
        fmpz_comb_temp_init(temp_, comb_);
    }
    ~Comb()
    {
        fmpz_comb_temp_clear(temp_);
        fmpz_comb_clear(comb_);
    }
    Comb(const Comb&) = delete;
    Comb& operator=(const Comb&) = delete;

    // residues[i] = x mod n_i (fmpz_multi_mod_ui).
    std::vector<limb_t> mod(mpz_srcptr x)
    {
        fmpz_t f;
        fmpz_init(f);
        fmpz_set_mpz(f, x);
        std::vector<limb_t> residues(k_);
        fmpz_multi_mod_ui(reinterpret_cast<ulong*>(residues.data()), f, comb_, temp_);
        fmpz_clear(f);
        return residues;
    }
    // x from residues (fmpz_multi_CRT_ui with sign 0 or 1).
    void crt(mpz_ptr x, const std::vector<limb_t>& residues, bool sign)
    {
        fmpz_t f;
        fmpz_init(f);
        fmpz_multi_CRT_ui(f, reinterpret_cast<const ulong*>(residues.data()), comb_, temp_, sign);
        fmpz_get_mpz(x, f);
        fmpz_clear(f);
    }

private:
    slong k_;
    fmpz_comb_t comb_;
    fmpz_comb_temp_t temp_;
};

inline void product_of(mpz_ptr p, const std::vector<limb_t>& moduli)
{
    mpz_set_ui(p, 1);
    for (const limb_t n : moduli) mpz_mul_ui(p, p, n);
}

// Values at the edges of the range of P: 0, +-1, +-(P-1)/2, +-P/2 and one beyond each (P/2 and
// (P+1)/2 when P is odd), P - 1 and P - 2: unsigned and signed CRT and their boundaries.
inline std::vector<std::string> edge_names() { return {"0", "1", "-1", "(P-1)/2", "-(P-1)/2", "(P+1)/2", "-(P+1)/2", "P/2", "-P/2", "P/2+1", "-P/2-1", "P-1", "P-2"}; }
inline void set_edge(mpz_ptr x, mpz_srcptr p, std::size_t which)
{
    switch (which) {
    case 0: mpz_set_ui(x, 0); break;
    case 1: mpz_set_ui(x, 1); break;
    case 2: mpz_set_si(x, -1); break;
    case 3: case 4: mpz_sub_ui(x, p, 1); mpz_fdiv_q_2exp(x, x, 1); break;
    case 5: case 6: mpz_add_ui(x, p, 1); mpz_fdiv_q_2exp(x, x, 1); break;
    case 7: case 8: mpz_fdiv_q_2exp(x, p, 1); break;
    case 9: case 10: mpz_fdiv_q_2exp(x, p, 1); mpz_add_ui(x, x, 1); break;
    case 11: mpz_sub_ui(x, p, 1); break;
    default: mpz_sub_ui(x, p, 2); break;
    }
    if (which == 4 || which == 6 || which == 8 || which == 10) mpz_neg(x, x);
}
inline constexpr std::size_t kEdges = 13;

// The representative FLINT's signed CRT gives: -P < 2x <= P.
inline void symmetric(mpz_ptr r, mpz_srcptr x, mpz_srcptr p)
{
    mpz_fdiv_r(r, x, p);
    mpz_t twice;
    mpz_init(twice);
    mpz_mul_2exp(twice, r, 1);
    if (mpz_cmp(twice, p) > 0) mpz_sub(r, r, p);
    mpz_clear(twice);
}

}  // namespace zgpu::testing
