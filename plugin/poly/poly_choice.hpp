// Where polynomial products and resultants pay on the GPU: a cost model of each backend's time,
// as pure functions of the shapes, so that it can be tested without a GPU and fitted to
// measurements on the GPU machine (its constants are in poly_choice.cpp). The GPU is chosen
// where its estimate is the smaller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace zgpu::poly {

// One product as the model sees it: operands of a_length and b_length coefficients (after
// truncation, both at least 1), out_length coefficients computed, the largest coefficients'
// bits (mod n: those of n - 1), and on the GPU the transform length and the number of NTT
// primes it multiplies modulo.
struct PolyShape {
    std::uint64_t a_length, b_length, out_length;
    std::uint64_t a_bits, b_bits;
    std::uint64_t transform_length;
    std::uint64_t primes;
};

// Estimates for a shape whose GPU plan is not known: the transform length (the power of two
// >= a_length + b_length - 1, at least 16); the primes above 2^61 whose product exceeds
// 2^(bits + 1) (a CRT of values below 2^bits in absolute value); the primes of a product mod n:
// one where n < 2^62 and the transform length divides n - 1 (n is taken to be prime: testing
// it would cost more than a misjudged choice), else three.
std::uint64_t transform_length_estimate(std::uint64_t a_length, std::uint64_t b_length);
std::uint64_t crt_primes_estimate(std::uint64_t bits);
std::uint64_t nmod_primes_estimate(std::uint64_t n, std::uint64_t transform_length);

// Shapes from lengths and sizes alone, before any plan is made: a product modulo n (whose
// coefficients have the bits of n - 1); the bits of a product over Z's coefficients (those of
// a and b, and the carries of the shorter operand's sum) and its shape, with the primes above.
PolyShape nmod_product_shape(std::uint64_t a_length, std::uint64_t b_length, std::uint64_t out_length, std::uint64_t n,
                             std::uint64_t transform_length);
std::uint64_t fmpz_product_bits(std::uint64_t a_length, std::uint64_t b_length, std::uint64_t a_bits, std::uint64_t b_bits);
PolyShape fmpz_product_shape(std::uint64_t a_length, std::uint64_t b_length, std::uint64_t out_length, std::uint64_t a_bits,
                             std::uint64_t b_bits);

// The shape the model sees for f^e, f of `length` >= 2 coefficients and the power's of `bits`
// bits: its last squaring, which FLINT's time and the GPU's follow (the GPU's steps stay on the
// device; its CRT and the transfers are those of the last product). (length - 1) e must not
// overflow.
PolyShape fmpz_power_shape(std::uint64_t length, std::uint64_t e, std::uint64_t bits);

// A composition f(h) over Z as the model sees it: f of f_length >= 2 and h of h_length >= 2
// coefficients, their largest of f_bits and h_bits bits, the result's bound of `bits` bits.
struct ComposeShape {
    std::uint64_t f_length, h_length;
    std::uint64_t f_bits, h_bits;
    std::uint64_t bits;
};

// Seconds FLINT takes for one product on one thread: nmod_poly_mul's and fmpz_poly_mul's.
double flint_nmod_seconds(const PolyShape& p);
double flint_fmpz_seconds(const PolyShape& p);

// Products mod n in one call: on the CPU FLINT's on `threads` host threads (one product on
// FLINT's own threads, several split over the host threads), on the GPU one batch.
bool gpu_pays_for_nmod_products(std::span<const PolyShape> products, unsigned threads);

// One product over Z: FLINT's on its own threads, or on the GPU reduced modulo `primes`
// primes, multiplied and reconstructed by one CRT.
bool gpu_pays_for_fmpz_poly_product(const PolyShape& product, unsigned threads);

// f(h): FLINT's divide and conquer (its products on its threads where they are long enough)
// against the GPU's one transform pair a prime, (f_length - 1) Horner steps a point of h's
// transform, and one CRT. Shapes that FLINT takes by a shortcut (f_length <= 4, h_length <= 2)
// and results under 2^17 bits stay with FLINT. FLINT's seconds on `threads` threads, for progress lines.
double flint_fmpz_compose_seconds(const ComposeShape& c, unsigned threads);
bool gpu_pays_for_fmpz_poly_compose(const ComposeShape& c, unsigned threads);

// The steps of binary powering to the e >= 1: its squarings, and those with its products by
// the base.
std::uint64_t powering_squarings(std::uint64_t e);
std::uint64_t powering_steps(std::uint64_t e);

// base^e mod f, f of degree m >= 2 modulo n: FLINT's powering on its threads in flint_steps
// steps (a product and a division by Newton's method a step; FLINT's powers of x multiply by x
// with a shift) against gpu_steps on the GPU (three products of transform 2m a step, latency
// bound below degrees of some thousands).
bool gpu_pays_for_nmod_powmod(std::uint64_t m, std::uint64_t gpu_steps, std::uint64_t flint_steps, std::uint64_t n,
                              unsigned threads);

// A composition mod f of degree m >= 2 modulo n: FLINT's blocks evaluated in flint_steps
// products mod f (its rectangular splitting) against the GPU's batches: `rounds` of them one
// after another (latency bound), gpu_steps products mod f in all, `words` moved over PCIe.
bool gpu_pays_for_nmod_compose(std::uint64_t m, std::uint64_t rounds, std::uint64_t gpu_steps, std::uint64_t flint_steps,
                               std::uint64_t words, std::uint64_t n, unsigned threads);

// Resultants: modulo a prime, FLINT's nmod_poly_resultant against one block of the GPU; over
// Z, FLINT's fmpz_poly_resultant against a remainder sequence a prime on the GPU.
// Whether the GPU pays for a resultant modulo a prime of polynomials of these lengths.
bool gpu_pays_for_nmod_resultant(std::size_t a_length, std::size_t b_length);

// FLINT's time for the resultant on one thread, by the cost model.
double flint_resultant_seconds(std::size_t a_length, std::size_t b_length, std::uint64_t bound_bits);
// Whether the GPU pays for a resultant of polynomials of these lengths and bound.
bool gpu_pays_for_resultant(std::size_t a_length, std::size_t b_length, std::uint64_t bound_bits);

}  // namespace zgpu::poly
