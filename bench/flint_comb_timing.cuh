// FLINT's fmpz_multi_mod_ui and fmpz_multi_CRT_ui (sign 1) timed on one host thread or on
// several (the vector split over threads, each with its own fmpz_comb_temp), on a part of the
// values (about 2^28 word products) and scaled to `count`: the modular benchmarks' reference;
// and the zgpu prime set they compare with.
#pragma once

#include <cmath>
#include <vector>

#include <flint/fmpz.h>

#include "zgpu/zgpu_modular.h"

#include "bench_support.cuh"

namespace {

// A zgpu prime set of k generated primes; exits with zgpu's message if it cannot be made.
class PrimeSet {
public:
    explicit PrimeSet(slong k)
    {
        if (zgpu_prime_set_init_ntt_primes(set, k) != 0) {
            std::fprintf(stderr, "%s\n", zgpu_last_error());
            std::exit(1);
        }
    }
    ~PrimeSet() { zgpu_prime_set_clear(set); }
    PrimeSet(const PrimeSet&) = delete;
    PrimeSet& operator=(const PrimeSet&) = delete;
    std::vector<ulong> moduli() const
    {
        return {zgpu_prime_set_moduli(set), zgpu_prime_set_moduli(set) + zgpu_prime_set_size(set)};
    }
    zgpu_prime_set_t set;
};

class FlintComb {
public:
    // Values of `limbs` full limbs modulo `primes`, `count` of them in the call being compared.
    FlintComb(const std::vector<ulong>& primes, std::uint32_t limbs, std::size_t count, unsigned threads)
        : primes_(primes), count_(count),
          part_(slong(std::max<double>(threads, std::min<double>(double(count), std::ldexp(1.0, 28) / (double(limbs) * primes.size())))))
    {
        values_ = _fmpz_vec_init(part_);
        fill_fmpz(values_, part_, limbs, 2);
        residues_.resize(std::size_t(part_) * primes.size());
        fmpz_comb_init(comb_, primes_.data(), slong(primes_.size()));
    }
    ~FlintComb()
    {
        fmpz_comb_clear(comb_);
        _fmpz_vec_clear(values_, part_);
    }
    FlintComb(const FlintComb&) = delete;
    FlintComb& operator=(const FlintComb&) = delete;

    // Seconds for `count` values, reduction (crt false) or CRT, on `threads` threads. The CRT
    // reads the residues of the last reduction.
    double seconds(unsigned threads, bool crt)
    {
        const std::size_t k = primes_.size();
        return median_seconds(3, [&] {
            on_threads(part_, threads, [&](slong begin, slong end) {
                fmpz_comb_temp_t temp;
                fmpz_comb_temp_init(temp, comb_);
                for (slong i = begin; i < end; ++i) {
                    if (crt) fmpz_multi_CRT_ui(values_ + i, residues_.data() + i * k, comb_, temp, 1);
                    else fmpz_multi_mod_ui(residues_.data() + i * k, values_ + i, comb_, temp);
                }
                fmpz_comb_temp_clear(temp);
            });
        }, [] {}) * double(count_) / double(part_);
    }

private:
    std::vector<ulong> primes_;
    std::size_t count_;
    slong part_;
    fmpz* values_;
    std::vector<ulong> residues_;
    fmpz_comb_t comb_;
};

}  // namespace
