// Random nmod polynomials for the benchmarks: 62-bit primes that are not NTT primes, and a
// batch of pairs, each modulo its own such prime.
#pragma once

#include <cstdint>
#include <memory>

#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>

#include "bench_support.cuh"

// A random 62-bit prime p with 2^16 not dividing p - 1: no NTT prime, so the GPU takes the
// three-prime path.
inline ulong random_prime62(std::uint64_t seed)
{
    for (;; ++seed) {
        const ulong p = n_nextprime((mix(seed) >> 2) | (ulong(1) << 61), 1);
        if (p >> 62 == 0 && ((p - 1) & 0xffff) != 0) return p;
    }
}

// `length` random coefficients below p's modulus, the top one nonzero.
inline void random_nmod_poly(nmod_poly_t p, slong length, std::uint64_t seed)
{
    nmod_poly_fit_length(p, length);
    for (slong i = 0; i < length; ++i) p->coeffs[i] = mix(seed * 0x100000000ull + std::uint64_t(i)) % p->mod.n;
    if (p->coeffs[length - 1] == 0) p->coeffs[length - 1] = 1;
    _nmod_poly_set_length(p, length);
}

// A batch of `count` pairs of length `length`, pair i modulo its own 62-bit prime, and room for
// two sets of results. (Plain arrays: nvcc 13's front end fails on std::vector of an unnamed
// struct, as nmod_poly_struct is.)
struct NmodBatch {
    std::unique_ptr<nmod_poly_struct[]> a, b, flint, r;
    slong count;
    NmodBatch(slong count, slong length)
        : a(std::make_unique<nmod_poly_struct[]>(count)), b(std::make_unique<nmod_poly_struct[]>(count)),
          flint(std::make_unique<nmod_poly_struct[]>(count)), r(std::make_unique<nmod_poly_struct[]>(count)), count(count)
    {
        for (slong i = 0; i < count; ++i) {
            const ulong p = random_prime62(1000 + 7919 * std::uint64_t(i));
            for (nmod_poly_struct* v : {a.get(), b.get(), flint.get(), r.get()}) nmod_poly_init(v + i, p);
            random_nmod_poly(a.get() + i, length, 3 * std::uint64_t(i) + 1);
            random_nmod_poly(b.get() + i, length, 3 * std::uint64_t(i) + 2);
        }
    }
    ~NmodBatch()
    {
        for (nmod_poly_struct* v : {a.get(), b.get(), flint.get(), r.get()})
            for (slong i = 0; i < count; ++i) nmod_poly_clear(v + i);
    }
    NmodBatch(const NmodBatch&) = delete;
    NmodBatch& operator=(const NmodBatch&) = delete;
};
