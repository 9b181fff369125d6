// Where matrix products, determinants and ranks pay on the GPU: cost models of FLINT's functions
// and of the GPU paths, pure functions of the shapes, so that they can be tested without a GPU.
// Their constants, each fitted to a benchmark named beside it, are in mat_choice.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plugin/matrix/fmpz_mat_mul.hpp"

namespace zgpu::matrix {

// A product of a rows x inner matrix by an inner x cols one, modulo an n of `bits` bits.
struct MatShape {
    std::uint64_t rows, inner, cols;
    unsigned bits;
};

// FLINT's nmod_mat_mul on one thread, in seconds, by the model.
double flint_nmod_mat_seconds(const MatShape& s);

// Whether the CPU backend runs FLINT on all host threads (else on one): from about 1 ms of work,
// below which FLINT's threads cost more than they save.
bool cpu_uses_threads(const MatShape& s);

// Whether the GPU path (upload, product, download, host copies) beats FLINT on `threads` host
// threads.
bool gpu_pays_for_nmod_mat_mul(const MatShape& s, unsigned threads);

// Determinants over Z: FLINT's fmpz_mat_det (one thread whatever it is given) against an
// elimination modulo each prime of the bound on the GPU.
// FLINT's time for the determinant (one thread), by the cost model.
double flint_det_seconds(std::size_t n, std::uint64_t bound_bits);
// Whether the GPU pays for the determinant of an n x n matrix whose Hadamard bound has
// `bound_bits` bits (FLINT's function runs on one thread).
bool gpu_pays_for_fmpz_mat_det(std::size_t n, std::uint64_t bound_bits);
// Whether, on the GPU, a divisor of the determinant found by Dixon's lifting (fmpz_mat_det.hpp)
// costs less than the primes of the whole bound, for entries of `entry_bits` bits (and its
// digits stay within 1 GiB); the primes split over `gpus` GPUs (MPI ranks), the lifting on one.
// ZGPU_DET_ALGORITHM=primes answers no, =divisor yes wherever the digits fit.
bool divisor_pays_for_fmpz_mat_det(std::size_t n, std::uint64_t entry_bits, std::uint64_t bound_bits, std::size_t gpus = 1);
// Solutions of a x = b over Q (a n x n, b n x cols) whose Cramer bounds have numerator_bits and
// denominator_bits: FLINT's fmpz_mat_solve's time by the model, and whether the GPU's lifting
// (with the host's reconstruction on `threads` threads) beats it, its digits within 1 GiB.
double flint_solve_seconds(std::size_t n, std::size_t cols, std::uint64_t denominator_bits);
bool gpu_pays_for_fmpz_mat_solve(std::size_t n, std::size_t cols, std::uint64_t numerator_bits, std::uint64_t denominator_bits,
                                 unsigned threads);

// fmpz_mat_inv of an n x n matrix (cols = n), or fmpz_mat_solve with cols right-hand sides
// beyond Dixon's, for more than 15 rows: FLINT's solution modulo many primes against the GPU's
// determinant (Hadamard's bound of hadamard_bits bits) and Cramer's numerators (each below
// 2^numerator_bits).
double flint_solve_by_primes_seconds(std::size_t n, std::size_t cols, std::uint64_t numerator_bits);
bool gpu_pays_for_solve_by_primes(std::size_t n, std::size_t cols, std::uint64_t hadamard_bits, std::uint64_t numerator_bits,
                                  unsigned threads);

// Whether the determinants of n x n matrices modulo `primes` primes run all at once by block
// recursion rather than a block a matrix (det_mod).
bool det_by_blocks(std::size_t n, std::size_t primes);

// The LU by blocks of nmod_mat_det and nmod_mat_rank, of a rows x cols matrix mod a prime:
// FLINT's time on one thread by the model; whether the CPU backend gives FLINT its threads;
// whether the GPU's LU (rank: `rank_mode`, which waits for each panel) beats FLINT's on
// `threads` host threads.
double flint_nmod_mat_lu_seconds(std::size_t rows, std::size_t cols);
bool nmod_mat_lu_uses_threads(std::size_t rows, std::size_t cols);
bool gpu_pays_for_nmod_mat_lu(std::size_t rows, std::size_t cols, bool rank_mode, unsigned threads);
// The LU's factors (nmod_mat_lu, and nmod_mat_rref's first part): the rank's LU, and the factors
// come back.
bool gpu_pays_for_nmod_mat_lu_factors(std::size_t rows, std::size_t cols, unsigned threads);

// nmod_mat_inv of an n x n matrix mod a prime: FLINT's (its LU, then triangular solves with n
// right-hand sides: about 4 times its LU's multiply-adds; it measured 11.4 to 13.0 s at 4096
// against its determinant's 3.4 s on 16 threads, bench/results/2026-11-29-h200-compose/run32)
// against the GPU's block recursion (gpu/matrix/block_inverse.hpp). The solve's model with n
// right-hand sides never picks the GPU where the inverse's does not, so FLINT's inverse, which
// solves against the identity, keeps its solve on the host where it keeps the inverse.
bool gpu_pays_for_nmod_mat_inv(std::size_t n, unsigned threads);
// nmod_mat_solve of an n x n system with `cols` right-hand sides: FLINT's LU and triangular
// solves against the GPU's inverse and its product into b.
bool gpu_pays_for_nmod_mat_solve(std::size_t n, std::size_t cols, unsigned threads);
// nmod_mat_rref's second part, U^-1 V for U n x n upper triangular and V n x cols: FLINT's
// nmod_mat_solve_triu (n^2 cols / 2 multiply-adds) against the GPU's inverse and its product.
bool gpu_pays_for_nmod_mat_solve_triu(std::size_t n, std::size_t cols, unsigned threads);

// Products over Z: FLINT's fmpz_mat_mul on one thread, in seconds, by the model; whether the CPU
// backend gives FLINT its threads; whether the GPU pays on `threads` host threads.
double flint_fmpz_mat_seconds(const ZMatrix& a, const ZMatrix& b);
bool fmpz_mat_mul_uses_threads(const ZMatrix& a, const ZMatrix& b);
bool gpu_pays_for_fmpz_mat_mul(const ZMatrix& a, const ZMatrix& b, unsigned threads);

}  // namespace zgpu::matrix
