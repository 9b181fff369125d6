// Random and adversarial big integers for differential tests, as GMP values.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include <gmp.h>

namespace zgpu::testing {

// Owns `count` initialised mpz_t.
class MpzArray {
public:
    explicit MpzArray(std::size_t count) : values_(count)
    {
        for (auto& v : values_) mpz_init(v);
    }
    ~MpzArray()
    {
        for (auto& v : values_) mpz_clear(v);
    }
    MpzArray(const MpzArray&) = delete;
    MpzArray& operator=(const MpzArray&) = delete;

    std::size_t size() const { return values_.size(); }
    mpz_t* data() { return values_.data(); }
    const mpz_t* data() const { return values_.data(); }
    mpz_ptr operator[](std::size_t i) { return values_[i]; }
    mpz_srcptr operator[](std::size_t i) const { return values_[i]; }

private:
    std::vector<mpz_t> values_;
};

// Kinds of magnitude, each with its own failure modes.
enum class Shape {
    random,    // uniform limbs
    all_ones,  // every limb 2^64-1: the longest carry chains
    sparse,    // mostly zero limbs, a few random ones: long runs of propagate-free limbs
    power,     // 2^(64k-1): a single set bit at the top
};

class IntegerSource {
public:
    explicit IntegerSource(std::uint64_t seed) : rng_(seed) {}

    std::uint64_t next() { return rng_(); }
    std::uint64_t below(std::uint64_t n) { return n ? rng_() % n : 0; }
    bool coin() { return rng_() & 1; }

    // Sets z to a value of exactly `limbs` limbs (0 for limbs == 0) of the given shape and sign.
    void set(mpz_ptr z, std::uint32_t limbs, Shape shape, bool negative)
    {
        if (limbs == 0) return mpz_set_ui(z, 0);
        mp_limb_t* d = mpz_limbs_write(z, limbs);
        for (std::uint32_t k = 0; k < limbs; ++k) {
            switch (shape) {
            case Shape::random: d[k] = rng_(); break;
            case Shape::all_ones: d[k] = ~mp_limb_t(0); break;
            case Shape::sparse: d[k] = below(8) == 0 ? rng_() : 0; break;
            case Shape::power: d[k] = 0; break;
            }
        }
        if (shape == Shape::power || d[limbs - 1] == 0) d[limbs - 1] |= mp_limb_t(1) << 63;
        mpz_limbs_finish(z, negative ? -mp_size_t(limbs) : mp_size_t(limbs));
    }

    // A random value of 0 .. max_limbs limbs, random shape (mostly uniform) and sign.
    void set_random(mpz_ptr z, std::uint32_t max_limbs)
    {
        static constexpr Shape shapes[] = {Shape::random, Shape::random, Shape::random, Shape::random,
                                           Shape::all_ones, Shape::sparse, Shape::power};
        const std::uint32_t limbs = coin() ? max_limbs : std::uint32_t(below(max_limbs + 1));
        set(z, limbs, shapes[below(std::size(shapes))], coin());
    }

private:
    std::mt19937_64 rng_;
};

}  // namespace zgpu::testing
