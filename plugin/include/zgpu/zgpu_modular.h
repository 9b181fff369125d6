/* zgpu's C entry points of the modular layer, mirroring FLINT's fmpz_comb functions: reduction
   of integers modulo k word-size moduli (fmpz_multi_mod_ui) and reconstruction by the Chinese
   remainder theorem (fmpz_multi_CRT_ui), for vectors, polynomials and matrices. Included by
   zgpu.h; return codes, zgpu_last_error and zgpu_last_backend as there: 0 on success, -1 with
   nothing written on bad input.
   Residues are one ulong array a modulus: residues[i][e] is entry e modulo modulus i, in
   [0, n_i). With P the product of the moduli, the CRT returns values in [0, P), or with
   sign = 1 FLINT's symmetric range (-P/2, P/2] (P/2 positive when P is even). */
#ifndef ZGPU_ZGPU_MODULAR_H
#define ZGPU_ZGPU_MODULAR_H

#include <flint/fmpz.h>
#include <flint/fmpz_mat.h>
#include <flint/fmpz_poly.h>
#include <flint/nmod_mat.h>
#include <flint/nmod_poly.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A set of k pairwise coprime moduli 2 <= n < 2^64 and its precomputed constants (on the GPU
   too, made on first use there); the role of FLINT's fmpz_comb_t. Read-only once initialised:
   calls on several threads may share it. */
typedef struct {
    void * set;
} zgpu_prime_set_struct;
typedef zgpu_prime_set_struct zgpu_prime_set_t[1];

/* The caller's k moduli (primes or not). Fails (-1, set left empty: clear is still allowed) for
   k < 0, a modulus below 2, a repeated modulus, or moduli with a common factor, naming them.
   k = 0 makes the empty set, P = 1, as FLINT 3 allows: the vector reduction writes nothing and
   the vector CRT gives zeros; the other functions refuse it. */
int zgpu_prime_set_init(zgpu_prime_set_t set, const ulong * moduli, slong k);
/* The k largest primes p < 2^62 with p = 1 mod 2^32 (NTT-friendly), in decreasing order
   (k = 0: the empty set). */
int zgpu_prime_set_init_ntt_primes(zgpu_prime_set_t set, slong k);
/* The fewest such primes that represent every value of at most `bits` bits: |x| < 2^bits with
   sign = 1, 0 <= x < 2^bits with sign = 0. */
int zgpu_prime_set_init_bits(zgpu_prime_set_t set, flint_bitcnt_t bits, int sign);
void zgpu_prime_set_clear(zgpu_prime_set_t set);

/* k, the moduli (k entries, owned by the set), and the bits of their product P (0 for a set
   left empty by a failed init). */
slong zgpu_prime_set_size(const zgpu_prime_set_t set);
const ulong * zgpu_prime_set_moduli(const zgpu_prime_set_t set);
flint_bitcnt_t zgpu_prime_set_bits(const zgpu_prime_set_t set);
/* 1 if the CRT returns every x with |x| <= bound exactly (sign = 1: 2 bound < P; sign = 0,
   0 <= x <= bound: bound < P), 0 if not, -1 on bad input (a negative bound). */
int zgpu_prime_set_represents(const zgpu_prime_set_t set, const fmpz_t bound, int sign);

/* residues[i][e] = vec[e] mod n_i in [0, n_i), 0 <= e < len, for each modulus of the set, as
   fmpz_multi_mod_ui element by element. */
int zgpu_fmpz_vec_multi_mod_ui(ulong * const * residues, const fmpz * vec, slong len, const zgpu_prime_set_t set);

/* vec[e] = the value with residues residues[i][e], as fmpz_multi_CRT_ui element by element.
   Every residue must be below its modulus (checked first: the first that is not is named). */
int zgpu_fmpz_vec_multi_CRT_ui(fmpz * vec, const ulong * const * residues, slong len, const zgpu_prime_set_t set,
                               int sign);
/* The same, for values known to satisfy |vec[e]| <= bound (sign = 0: 0 <= vec[e] <= bound):
   fails with nothing written when P is too small to represent them all. */
int zgpu_fmpz_vec_multi_CRT_ui_checked(fmpz * vec, const ulong * const * residues, slong len,
                                       const zgpu_prime_set_t set, const fmpz_t bound, int sign);

/* As FLINT's fmpz_mat_multi_mod_ui and fmpz_mat_multi_CRT_ui: the moduli are those of the
   residues' contexts (residues[i]->mod.n), pairwise coprime; every residue matrix has mat's
   shape. The prime set of the last moduli used on this thread is kept for the next call. */
int zgpu_fmpz_mat_multi_mod_ui(nmod_mat_t * residues, slong nres, const fmpz_mat_t mat);
int zgpu_fmpz_mat_multi_CRT_ui(fmpz_mat_t mat, nmod_mat_t * const residues, slong nres, int sign);

/* The same for polynomials: residues[i] = poly mod n_i (normalised), and poly = the
   polynomial with those residues, of the longest residue's length (normalised). */
int zgpu_fmpz_poly_multi_mod_ui(nmod_poly_t * residues, slong nres, const fmpz_poly_t poly);
int zgpu_fmpz_poly_multi_CRT_ui(fmpz_poly_t poly, nmod_poly_t * const residues, slong nres, int sign);

#ifdef __cplusplus
}
#endif

#endif
