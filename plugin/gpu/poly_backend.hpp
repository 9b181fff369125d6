// What the polynomial layer (plugin/poly/) calls of the GPU backend: products of polynomials by
// the NTT over 64-bit primes (kernels/poly/). No CUDA type appears here, as in gpu_backend.hpp: a
// build without CUDA compiles without_cuda.cpp's stand-ins, which throw. Functions throw
// zgpu::Error and write no result before every check has passed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "adapters/host_operand.hpp"
#include "kernels/modular/residue_view.hpp"
#include "plugin/gpu/modular_backend.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// One product of polynomials mod n from host arrays: out[0 .. out_length) = the coefficients
// of a b mod x^out_length, reduced mod n. Coefficients of a and b are below n (2 <= n < 2^64);
// out_length <= a_length + b_length - 1 (0 where either is empty); out overlaps neither operand.
// a == b with equal lengths squares (one forward transform).
struct NmodProduct {
    const limb_t* a;
    std::size_t a_length;
    const limb_t* b;
    std::size_t b_length;
    limb_t n;
    limb_t* out;
    std::size_t out_length;
};

// The transform length a product needs, and the longest the GPU takes (device memory bounds
// it further: nmod_products throws when it cannot allocate).
std::uint64_t nmod_transform_length(const NmodProduct& p);
inline constexpr std::uint64_t kMaxPolyTransform = std::uint64_t(1) << 24;

// Every product, on the GPU: those of one transform length in one batch. A prime n < 2^62 with
// the transform length dividing n - 1 is one transform; any other n three transforms, over the
// three largest NTT primes, whose product (above 2^185) exceeds every coefficient of the product
// over Z (below min(la, lb) (n - 1)^2 < 2^24 2^128), then one reduction mod n.
void nmod_products(std::span<const NmodProduct> products);

// res = base^e mod f, polynomials mod n (2 <= n < 2^64) in host arrays: f of lenf >= 3
// coefficients, its leading one invertible mod n; base of lenf - 1 coefficients below n
// (reduced mod f, zero-padded), or nullptr for x; finv (finv_length coefficients) the inverse of
// f reversed, of which at most the first lenf - 2 are read, zeros taken past finv_length as
// FLINT's division takes them; e's words in `exponent`, least significant first, the last
// nonzero. res gets lenf - 1 coefficients and may be base. Every step on the device; the
// transform (the power of two >= 2 lenf - 3) at most kMaxPolyTransform.
void nmod_poly_powmod(limb_t* res, const limb_t* base, std::span<const limb_t> exponent, const limb_t* f, std::size_t lenf,
                      const limb_t* finv, std::size_t finv_length, limb_t n);

// res = a b mod f, polynomials mod n in host arrays: f of lenf >= 3 coefficients; a and b of
// 1 to lenf - 1 coefficients below n, a_length + b_length - 1 >= lenf; finv as above. res gets
// lenf - 1 coefficients and may be a or b. On the device: one product and the remainder by finv.
void nmod_poly_mulmod(limb_t* res, const limb_t* a, std::size_t a_length, const limb_t* b, std::size_t b_length, const limb_t* f,
                      std::size_t lenf, const limb_t* finv, std::size_t finv_length, limb_t n);

// FLINT's compositions mod f by Brent and Kung's blocks, polynomials mod n in host arrays, f of
// lenf >= 3 coefficients (its leading one invertible mod n) and finv as above, m = lenf - 1;
// the transform of 2m - 1 coefficients at most kMaxPolyTransform.
// res (m coefficients) = sum_i C_i h^i mod f, as nmod_poly_compose_mod_brent_kung_precomp_preinv
// computes it from FLINT's matrix A (inner >= 2 rows of m coefficients, a_rows[i] row i): C = B A
// for B the len1 <= inner^2 coefficients of poly1 in rows of inner, h = A_i A_j mod f for
// (i, j) = h_rows. Where A holds the powers of g mod f, that is poly1(g) mod f.
void nmod_poly_compose_mod_precomp(limb_t* res, const limb_t* poly1, std::size_t len1, const limb_t* const* a_rows, std::size_t inner,
                                   std::pair<std::size_t, std::size_t> h_rows, const limb_t* f, std::size_t lenf, const limb_t* finv,
                                   std::size_t finv_length, limb_t n);
// res[j] (m coefficients) = polys[j](g) mod f for j < count >= 1, as
// nmod_poly_compose_mod_brent_kung_vec_preinv computes them with `inner` >= 2 powers of g and
// B of `group` rows of inner a polynomial: polys[j] of lengths[j] <= group inner coefficients,
// g of glen <= m (reduced mod f). res may hold any operand.
// The device memory a batch's product mod f of degree m takes: the batch's residues and working
// arrays, and the composition's own product, in words of m.
inline constexpr std::size_t kNmodComposeWordsOfMPerProduct = 14;
// The device memory a batch of one group of a composition takes, mod f of degree m (a group's
// products are summed in one batch). Defined in every build, so that the choice sees the same
// limit with and without CUDA.
inline std::size_t nmod_compose_group_bytes(std::size_t m, std::size_t group)
{
    return kNmodComposeWordsOfMPerProduct * m * sizeof(limb_t) * group;
}
void nmod_poly_compose_mod_vec(limb_t* const* res, const limb_t* const* polys, const std::size_t* lengths, std::size_t count,
                               std::size_t inner, std::size_t group, const limb_t* g, std::size_t glen, const limb_t* f, std::size_t lenf, const limb_t* finv,
                               std::size_t finv_length, limb_t n);

// The product over Z of two polynomials whose coefficients the operands pack (a_length and
// b_length of them, signed values of at most kMaxLimbs limbs), truncated to out_length
// coefficients, each of absolute value below 2^bits: reduced modulo the primes of
// PrimeSet::for_bits(bits, sign = true), whose device tables `tables` are (the caller builds
// the set), multiplied by one NTT product a prime and reconstructed by one CRT, all on the
// GPU. result(first, values) receives the coefficients in order, chunk by chunk, of stride
// crt_limbs(tables).
void fmpz_poly_product(const HostOperand& a, std::size_t a_length, const HostOperand& b, std::size_t b_length,
                       std::size_t out_length, const ModularTables& tables, const HostResult& result);

// f^e over Z for a polynomial of `length` >= 2 coefficients that f packs and e >= 2, every
// coefficient of f^e of absolute value below 2^bits: f reduced modulo the primes of
// PrimeSet::for_bits(bits, sign = true) (device tables `tables`), raised to the power modulo
// each prime on the device (each point of its transform raised, kernels::poly_pow), and
// reconstructed by one CRT. result(first, values) receives the
// (length - 1) e + 1 coefficients in order, chunk by chunk. The transform of the last step
// (the power of two >= the power's length) is at most kMaxPolyTransform; the caller checks it.
void fmpz_poly_power(const HostOperand& f, std::size_t length, std::uint64_t e, const ModularTables& tables,
                     const HostResult& result);
// The device memory fmpz_poly_power takes for a power of out_length coefficients.
std::size_t fmpz_poly_power_bytes(const HostOperand& f, std::size_t length, std::size_t out_length, const ModularTables& tables);

// f(h) over Z for polynomials of f_length >= 2 and h_length >= 2 coefficients that f and h pack,
// every coefficient of f(h) of absolute value below 2^bits: both reduced modulo the primes of
// PrimeSet::for_bits(bits, sign = true) (device tables `tables`), f evaluated at the points of
// h's transform modulo each prime and the inverse transform taken (kernels::poly_compose), and
// one CRT. result(first, values) receives the (f_length - 1)(h_length - 1) + 1 coefficients in
// order, chunk by chunk. Their transform (the power of two >= their count) is at most
// kMaxPolyTransform; the caller checks it.
void fmpz_poly_compose(const HostOperand& f, std::size_t f_length, const HostOperand& h, std::size_t h_length,
                       const ModularTables& tables, const HostResult& result);
// The device memory fmpz_poly_compose takes.
std::size_t fmpz_poly_compose_bytes(const HostOperand& f, std::size_t f_length, const HostOperand& h, std::size_t h_length,
                                    const ModularTables& tables);

// The device memory fmpz_poly_product takes for these arguments on each device it uses, and
// whether that many bytes fit the first device in use (its free memory and what zgpu holds
// there already) within ZGPU_GPU_MEMORY_LIMIT.
std::size_t fmpz_poly_product_bytes(const HostOperand& a, std::size_t a_length, const HostOperand& b, std::size_t b_length,
                                    std::size_t out_length, const ModularTables& tables);
bool poly_device_fits(std::size_t bytes);

// Res(a, b) modulo each prime of the set, with the formal degrees a_length - 1 and b_length - 1
// (both at least 1 coefficient): the coefficients packed (signed values of at most kMaxLimbs
// limbs), reduced modulo every prime (multi_mod) and each prime's remainder sequence run by a
// warp (kernels/poly/resultant_mod.hpp), on the first device. One residue a prime, in the set's
// order; every prime must be prime. primes_done, where given, is told of the primes finished as
// they are (for progress lines).
std::vector<limb_t> fmpz_poly_resultant_residues(const HostOperand& a, std::size_t a_length, const HostOperand& b,
                                                 std::size_t b_length, const ModularTables& tables,
                                                 const std::function<void(std::uint64_t)>& primes_done);

// Res(a, b) mod n, n prime, with the formal degrees a.size() - 1 and b.size() - 1 (both at least
// one coefficient, each below n): one block's remainder sequence (kernels/poly/resultant_mod.hpp)
// on the first device.
limb_t nmod_poly_resultant(std::span<const limb_t> a, std::span<const limb_t> b, limb_t n);

// Device-resident: r = a b modulo each prime of the set (residue arrays of a_length, b_length
// and out_length coefficients, prime-major; out_length <= a_length + b_length - 1), every prime
// p with 2 <= p < 2^62 and the transform length dividing p - 1 (else zgpu::Error). Queued on
// the first device's stream.
void residues_poly_mul(kernels::ConstResidueView a, kernels::ConstResidueView b, std::span<const limb_t> primes,
                       kernels::ResidueView r);

}  // namespace zgpu::gpu
