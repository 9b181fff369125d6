// One polynomial product or power over Z on the chosen backend: the FLINT (fmpz_poly) and NTL
// (ZZX) front ends end here, their arguments checked, with their own function as the CPU backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "adapters/host_operand.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu::poly {

// An operand as the product reads it: `length` coefficients (after truncation, the top one
// nonzero), packed on demand, the largest of `bits` bits in absolute value.
struct ZPoly {
    HostOperand coeffs;
    std::size_t length = 0;
    std::uint64_t bits = 0;
};

// A bound on the bits of the product's coefficients: each is a sum of at most m = min(la, lb)
// products of |a_i| < 2^bits(a) and |b_j| < 2^bits(b), so below 2^(bits(a) + bits(b) + ceil(log2 m)).
std::uint64_t product_bits(const ZPoly& a, const ZPoly& b);

// The GPU's product over Z (gpu::fmpz_poly_product on the set's device tables), or a test's
// stand-in: result(first, values) gets the coefficients in order, chunk by chunk.
using ZProductOnGpu = std::function<void(const HostOperand& a, std::size_t a_length, const HostOperand& b,
                                         std::size_t b_length, std::size_t out_length, const PrimeSet& set,
                                         const HostResult& result)>;
void gpu_product_over_z(const HostOperand& a, std::size_t a_length, const HostOperand& b, std::size_t b_length,
                        std::size_t out_length, const PrimeSet& set, const HostResult& result);

// The longest transform the GPU takes for a product's pieces with the set's primes (a power of
// two, product_pieces.hpp): gpu::kMaxPolyTransform, halved until the largest piece's buffers fit
// the device's memory (gpu::poly_device_fits); 0 where none from 4096 on fits.
using ZMaxTransform = std::function<std::uint64_t(const ZPoly& a, const ZPoly& b, std::size_t out_length, const PrimeSet& set)>;
std::uint64_t gpu_max_transform(const ZPoly& a, const ZPoly& b, std::size_t out_length, const PrimeSet& set);

// a * b mod x^out_length on the GPU modulo the primes of `set` alone, whatever bounds the
// coefficients (an MPI rank's share of a bound's primes): result(first, values) gets values
// congruent to the coefficients modulo the set's product, in order (where one transform does not
// fit: the pieces' values added up, not reduced, at the end). False, with nothing delivered,
// where no transform from 4096 on fits the device or the set's product passes kMaxLimbs limbs.
// Coefficients within kMaxLimbs limbs.
bool gpu_product_modulo(const ZPoly& a, const ZPoly& b, std::size_t out_length, const PrimeSet& set, const HostResult& result);

// a * b mod x^out_length, out_length <= a.length + b.length - 1; &a == &b squares. on_cpu
// computes it on the CPU, where FLINT may use host_threads() threads (FLINT's or NTL's own
// function, writing the caller's result). On the GPU on_gpu_result(first, values) gets the
// coefficients from `first` on, in order, modulo the primes of product_primes(product_bits)
// and reconstructed by one CRT. A product whose transform is longer than the GPU takes
// (ZMaxTransform) goes in pieces, their products added up on the host and handed over at the
// end. Zero products, and those the GPU does not take (a coefficient above kMaxLimbs limbs, CRT
// values above kMaxLimbs limbs, pieces of 4096 that do not fit), are on_cpu's on either backend.
// Where the GPU fails before its first coefficient,
// nothing is written and its error stands; after, on_cpu computes the product (a warning goes to
// stderr). Returns the backend that ran.
Backend product_over_z(const ZPoly& a, const ZPoly& b, std::size_t out_length, const std::function<void()>& on_cpu,
                       const HostResult& on_gpu_result);

// f^e for f.length >= 2 and e >= 2, every coefficient of absolute value below 2^bits (the
// caller's bound, for instance e bits(||f||_1)). on_cpu computes it on the CPU, as for products.
// On the GPU on_gpu_result(first, values) gets the (f.length - 1) e + 1 coefficients from
// `first` on, in order: f reduced modulo the primes of product_primes(bits) once, raised to the
// power there (gpu::fmpz_poly_power) and reconstructed by one CRT. Powers the GPU does not take
// (a coefficient of f or of the power above kMaxLimbs limbs, a transform above
// gpu::kMaxPolyTransform, buffers that do not fit the device) are on_cpu's on either backend.
// Failures as for products. Returns the backend that ran.
Backend power_over_z(const ZPoly& f, std::uint64_t e, std::uint64_t bits, const std::function<void()>& on_cpu,
                     const HostResult& on_gpu_result);

// f(h) for f.length >= 2 and h.length >= 2, every coefficient of absolute value below 2^bits
// (the caller's bound, for instance bits(||f||_1) + (f.length - 1) bits(||h||_1)). on_cpu
// computes it on the CPU, as for products. On the GPU on_gpu_result(first, values) gets the
// (f.length - 1)(h.length - 1) + 1 coefficients from `first` on, in order: f and h reduced
// modulo the primes of product_primes(bits) once, f evaluated at the points of h's transform
// modulo each (gpu::fmpz_poly_compose) and one CRT. What the GPU does not take, and failures,
// as for powers. Returns the backend that ran.
Backend compose_over_z(const ZPoly& f, const ZPoly& h, std::uint64_t bits, const std::function<void()>& on_cpu,
                       const HostResult& on_gpu_result);

// The same on the backend given, with `multiply` as the GPU's product and `max_transform` its
// limit.
Backend product_over_z_on(Backend backend, const ZPoly& a, const ZPoly& b, std::size_t out_length,
                          const std::function<void()>& on_cpu, const HostResult& on_gpu_result,
                          const ZProductOnGpu& multiply, const ZMaxTransform& max_transform);

}  // namespace zgpu::poly
