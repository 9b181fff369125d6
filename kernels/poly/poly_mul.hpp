// Batched polynomial products modulo 64-bit NTT primes by the number-theoretic transform:
// every product of a batch modulo every prime of a set in one call; and compositions f(a) and
// powers a^e by the same transforms.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "kernels/modular/residue_view.hpp"
#include "kernels/poly/poly_ntt_tables.hpp"

namespace zgpu::kernels {

// The shortest transform: smaller products are padded to it.
inline constexpr std::uint32_t kPolyNttMinLength = 32;

// The most temporary memory a call of poly_mul takes from the stream-ordered pool: the spectra
// of one chunk of long transforms.
inline constexpr std::size_t kPolyMulWorkspaceBytes = std::size_t(1) << 29;

// Polynomials of a batch modulo each prime of a set: polynomial j's coefficient c modulo prime i
// is values.prime(i)[offsets[j] + c], for c < lengths[j]. With values.prime_stride == 0 every
// prime reads the same words, which may be any words (below 2^64): they are reduced modulo each
// prime on the way, so an nmod polynomial's coefficients go in as they are. Without offsets
// every product reads (or writes) the one polynomial at offset 0; without lengths it has
// values.count coefficients.
template <class Word>
struct BasicPolyBatchView {
    BasicResidueView<Word> values;
    const std::uint64_t* offsets = nullptr;  // [j], device memory, or none
    const std::uint32_t* lengths = nullptr;  // [j], device memory, or none

    ZGPU_HOST_DEVICE std::uint64_t offset(std::size_t j) const { return offsets ? offsets[j] : 0; }
    ZGPU_HOST_DEVICE std::uint32_t length(std::size_t j) const { return lengths ? lengths[j] : std::uint32_t(values.count); }
};
using PolyBatchView = BasicPolyBatchView<limb_t>;
using ConstPolyBatchView = BasicPolyBatchView<const limb_t>;

// The transform length of a product whose operands have `a_length` and `b_length` coefficients
// (after truncation to the result's length): the power of two >= a_length + b_length - 1, at
// least kPolyNttMinLength.
std::uint32_t poly_ntt_length(std::uint64_t a_length, std::uint64_t b_length);

// Loads this family's kernels (every transform length and pointwise step) into the current
// context, where CUDA would load each at its first launch.
void load_poly_mul_kernels();

// out_j = a_j b_j mod x^(out.lengths[j]) modulo each prime, every coefficient in [0, p_i), for
// j < products; `square` computes a_j^2 (b is not read), with one forward transform.
// Contract: every view and the tables in device memory, on the same primes (out.values.primes ==
// tables.primes, a and b likewise unless their prime_stride is 0); residues of a and b below
// their primes where prime_stride != 0; out.lengths[j] <= min(la, n) + min(lb, n) - 1 for
// la = a.lengths[j], lb = b.lengths[j], n = out.lengths[j] (an empty operand: 0); `length` a power
// of two >= poly_ntt_length(min(la, n), min(lb, n)) for every j, and <= tables.length. out
// overlaps neither a nor b. Temporary device memory comes from the stream-ordered pool, at most
// max(2 length, 2^26) words, the transforms going in chunks of that size. Only enqueues work on
// `stream`; launch and allocation errors are thrown as zgpu::Error.
void poly_mul(ConstPolyBatchView a, ConstPolyBatchView b, bool square, std::size_t products, std::uint32_t length,
              const PolyNttTablesView& tables, PolyBatchView out, cudaStream_t stream);

// out_j = f_j(a_j) modulo each prime, every coefficient in [0, p_i), for j < count, where f_j
// is outer's polynomial j (its residues below the primes: prime_stride != 0): a's forward
// transform, f_j evaluated at each of its `length` points by Horner's rule (len(f_j) - 1
// products a point), the inverse transform. The values at the points determine f_j(a_j)
// modulo x^length - 1, which is f_j(a_j) where (len(f_j) - 1)(len(a_j) - 1) < length.
// Contract: as poly_mul's for a square of a, and for every j: len(f_j) >= 1; len(a_j) <=
// out.lengths[j] where len(f_j) >= 2; out.lengths[j] = (len(f_j) - 1)(len(a_j) - 1) + 1 <=
// length (fewer would leave coefficients wrapped in); out overlaps neither a nor outer.
// Cost: two transforms a prime and composition, and length (len(f_j) - 1) Shoup products.
void poly_compose(ConstPolyBatchView outer, ConstPolyBatchView a, std::size_t count, std::uint32_t length,
                  const PolyNttTablesView& tables, PolyBatchView out, cudaStream_t stream);

// out_j = a_j^e modulo each prime, every coefficient in [0, p_i), for j < count and e >= 1:
// a's forward transform, each point to the e-th power, the inverse transform: a^e modulo
// x^length - 1, which is a^e where e (len(a_j) - 1) < length.
// Contract: as poly_mul's for a square of a, and for every j: len(a_j) <= out.lengths[j] =
// e (len(a_j) - 1) + 1 <= length. Cost: two transforms a prime and power, and about 2 log2 e
// Montgomery products a point.
void poly_pow(ConstPolyBatchView a, std::uint64_t e, std::size_t count, std::uint32_t length, const PolyNttTablesView& tables,
              PolyBatchView out, cudaStream_t stream);

}  // namespace zgpu::kernels
