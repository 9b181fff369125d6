// The GPU's matrix products, determinants and ranks for the plugin's matrix layer
// (plugin/matrix/): host matrices given by their rows, as FLINT's nmod_mat keeps them (FLINT 2.9:
// an array of row pointers; FLINT 3: a stride). Built with or without CUDA (without, each throws
// zgpu::Error).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "adapters/host_operand.hpp"
#include "kernels/modular/residue_view.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

class ModularTables;

// c = a b mod n: a of a_rows.size() rows of `inner` words, b of inner rows of `cols` words, c
// of a_rows.size() rows of `cols` words, entries of a and b in [0, n), 2 <= n. c's rows are
// written after a's and b's are read (aliasing allowed), and only once the whole product is in:
// on an error (zgpu::Error: device memory too small, a device failure) nothing is written.
void nmod_mat_mul(std::span<const limb_t* const> a_rows, std::span<const limb_t* const> b_rows, std::span<limb_t* const> c_rows,
                  std::size_t inner, std::size_t cols, limb_t n);

// det(a) mod p, a square of rows.size() rows, and the rank of a of rows.size() rows of `cols`
// words: entries in [0, p), p prime; rows not changed. A blocked LU on the first device
// (kernels/matrix/lu_panel_mod.hpp): the same rank and determinant as FLINT's.
// columns_done, where not empty, is told of the columns eliminated: after each panel for the rank,
// which waits for each anyway, and every kLuProgressPanels panels for the determinant (which
// then checks whether it has stopped at a column without a pivot).
limb_t nmod_mat_det(std::span<const limb_t* const> rows, limb_t p, const std::function<void(std::uint64_t)>& columns_done);
std::size_t nmod_mat_rank(std::span<const limb_t* const> rows, std::size_t cols, limb_t p,
                          const std::function<void(std::uint64_t)>& columns_done);
inline constexpr std::size_t kLuProgressPanels = 32;

// The LU of a mod p as FLINT's nmod_mat_lu_classical computes it: the same pivots (each column's
// first nonzero entry from the current row down, swapped into that row, or none, and the next
// column), and L and U packed the same way into out_rows (of rows.size() rows; may be a's rows,
// written once a's are read). a of rows.size() rows of `cols` words, entries in [0, p), p prime.
// rows[t] is the row swapped into row t at pivot t (t itself where none was), columns[t] pivot
// t's column; there are as many as the rank. On an error nothing is written. columns_done as
// nmod_mat_rank's.
struct LuPivots {
    std::vector<std::size_t> rows, columns;
};
LuPivots nmod_mat_lu(std::span<const limb_t* const> rows, std::size_t cols, limb_t p, std::span<limb_t* const> out_rows,
                     const std::function<void(std::uint64_t)>& columns_done);
// Columns of the LU's panels (kernels/matrix/lu_panel_mod.hpp's kLuPanel), for the cost models.
inline constexpr std::size_t kLuPanelColumns = 16;

// out = a^-1 mod p, a square of rows.size() rows, entries in [0, p), p prime, out of as many
// rows: by block recursion on Schur complements (gpu/matrix/block_inverse.hpp) on the first
// device, retried on a preconditioned matrix (U a L, U and L random unit triangular) where p
// is above 2^61. Returns det a (not 0). Returns 0, with nothing written, where a leading block
// the recursion splits at is singular (every time it tried): a is then singular, or its blocks
// are; the caller decides on the host. out's rows are written after a's are read (out may be a).
limb_t nmod_mat_inv(std::span<const limb_t* const> rows, std::span<limb_t* const> out_rows, limb_t p);
// out = a^-1 b the same way, b and out of rows.size() rows of cols >= 1 words (out may be a or
// b); the inverse's product into b on the device.
limb_t nmod_mat_solve(std::span<const limb_t* const> rows, std::span<const limb_t* const> b_rows, std::size_t cols,
                    std::span<limb_t* const> out_rows, limb_t p);

// c = a b over Z: a of rows x inner entries and b of inner x cols, row-major, signed values of
// at most kMaxLimbs limbs that the operands pack; every entry of c of absolute value below half
// the product of the set's primes, whose device tables `tables` are. The entries reduced modulo
// each prime, multiplied modulo each (gpu/matrix/product_mod.hpp), and reconstructed by one
// CRT, all on the first device, in bands of a's rows that keep its pinned memory within
// pinned_bytes where a row allows (gpu/matrix/banded_product.hpp; tests pass small budgets);
// result(first, values) receives c's entries from `first` on, band by band, of stride
// crt_limbs(tables). Products beyond the device memory the call may take (a share of what is
// free, at most ZGPU_GPU_MEMORY_LIMIT) run in blocks of a's rows times b's columns
// (gpu/matrix/product_blocks.hpp); then result receives pieces of rows in no set order, from
// several host threads at once (never the same entry twice).
// The warm start's pinned staging (warm_up.cpp): a product's first call pins nothing more.
inline constexpr std::size_t kProductPinnedBytes = std::size_t(96) << 20;
void fmpz_mat_product(const HostOperand& a, const HostOperand& b, std::size_t rows, std::size_t inner, std::size_t cols,
                      const ModularTables& tables, const HostResult& result, std::size_t pinned_bytes = kProductPinnedBytes);

// det(a) modulo each prime of the set (all primes), a of n x n entries, row-major, signed values
// of at most kMaxLimbs limbs that the operand packs: the entries reduced modulo every prime
// (multi_mod), eliminated modulo each, on the first device: a block a prime
// (kernels/matrix/det_mod.hpp), or, where by_blocks, all at once by block recursion
// (gpu/matrix/block_inverse.hpp), the blocked LU checking the zeros it finds (for a few primes
// and large matrices). One residue a prime, in the set's order. primes_done, where given, is
// told of the primes finished as they are (for progress lines).
std::vector<limb_t> fmpz_mat_det_residues(const HostOperand& a, std::size_t n, const ModularTables& tables, bool by_blocks,
                                          const std::function<void(std::uint64_t)>& primes_done);
// How many primes one fmpz_mat_det_residues call of order n takes within the first device's
// budget (Runtime::call_budget): each prime holds n^2 residues and, by blocks, as many inverses
// and up to as many words of temporaries. At least 1.
std::size_t fmpz_mat_det_primes_at_once(std::size_t n);

// adj a = det(a) a^-1 over Z, or (where b is given) adj a times b, Cramer's numerators of a x = b:
// a of n x n entries (n >= 1) and b of n x cols, row-major signed values of at most kMaxLimbs
// limbs that the operands pack, a nonsingular modulo every prime of the set (all above 2^61),
// each entry of the result of absolute value below half the primes' product. The entries
// reduced modulo each prime, a inverted modulo each by block recursion
// (gpu/matrix/block_inverse.hpp; on the preconditioned matrices where a leading block is
// singular modulo some prime), times det a (and times b), and one CRT, all on the first device;
// result(first, values) receives the result's entries (row-major) chunk by chunk. Returns false,
// nothing handed on, where the preconditioned recursion failed too (with probability below
// about n^2 / 2^61 a prime) or the call's device memory would pass the runtime's budget. GPU
// failures throw.
bool fmpz_mat_adjugate_times(const HostOperand& a, const HostOperand* b, std::size_t n, std::size_t cols, const ModularTables& tables,
                             const HostResult& result);

// Dixon's p-adic lifting for a x = b over Z, a n x n and b n x cols (n, cols >= 1), row-major
// signed values of at most kMaxLimbs limbs that the operands pack: the first `steps` p-adic
// digits of x = a^-1 b, on the first device (kernels/matrix/dixon_step.hpp). Both are reduced
// modulo every prime of the set whose device tables `tables` are (2 to kDixonMaxResidueModuli + 1
// primes); a is inverted modulo the set's first `candidates` primes (gpu/matrix/block_inverse.hpp)
// and p is the first of them modulo which a is invertible. The set's other primes hold the
// lifting's residual: their product must exceed 2 max(|b|, n |a|) whichever prime is p.
// digits[s n cols + i cols + c] is digit s of x(i, c), in [0, p); p = 0 where a is singular
// modulo every candidate (or, with a probability below about n^2 / 2^61, where the preconditioned
// recursion failed). steps_done, where not empty, is told of the steps done but the last (the
// residual's kernel counts them).
inline constexpr std::size_t kDixonMaxResidueModuli = 16;  // kernels/matrix/dixon_step.hpp's kDixonMaxModuli
struct DixonDigits {
    limb_t p = 0;
    std::vector<limb_t> digits;
};
DixonDigits fmpz_mat_dixon_digits(const HostOperand& a, const HostOperand& b, std::size_t n, std::size_t cols,
                                  const ModularTables& tables, std::size_t candidates, std::size_t steps,
                                  const std::function<void(std::uint64_t)>& steps_done);

// Device-resident: r = a b modulo each modulus of the set whose device tables `tables` are (the
// reduction's suffice), a's count values a row-major rows x inner matrix and b's an inner x cols
// one, r of rows * cols; r overlaps neither. Queued on the first runtime's stream.
void residues_mat_mul(kernels::ConstResidueView a, kernels::ConstResidueView b, const ModularTables& tables, std::size_t rows,
                      std::size_t inner, std::size_t cols, kernels::ResidueView r);

// Device-resident: det of a's count values read as a row-major n x n matrix (n >= 1), modulo
// each modulus of the set whose device tables `tables` are; every modulus prime. One word a
// modulus, in the set's order; a is not changed.
std::vector<limb_t> residues_mat_det(kernels::ConstResidueView a, const ModularTables& tables, std::size_t n);

}  // namespace zgpu::gpu
