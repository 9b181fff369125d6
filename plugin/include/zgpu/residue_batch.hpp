// ResidueBatch: n values modulo each of the k moduli of a PrimeSet, kept where a backend
// computes (as DeviceBatch is), and the operations on them: reduction of a DeviceBatch, CRT back
// to one, and arithmetic modulo each modulus, as FLINT's _nmod_vec_* for one.
//
// Layout, prime-major: the residue of value e modulo modulus i is data()[i * prime_stride() + e],
// in [0, n_i); one modulus's residues are contiguous (what an NTT and FLINT's one ulong array a
// modulus want). prime_stride() is count() rounded up to a multiple of 32; the words between
// are unspecified. On the GPU backend data() is device memory; on the CPU backend host memory,
// so code written against ResidueBatch runs unchanged without a GPU.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include <flint/fmpz.h>

#include "zgpu/backend.hpp"
#include "zgpu/device_batch.hpp"
#include "zgpu/limb_batch.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu {

class ResidueBatch {
public:
    // `count` zeros modulo each modulus of `set`, on `where`.
    ResidueBatch(const PrimeSet& set, std::size_t count, Backend where);

    // From host arrays in FLINT's layouts, each residue checked to be below its modulus first
    // (zgpu::Error naming the first that is not): one array of `count` words a modulus
    // (residues[i][e]), or interleaved, value by value (residues[e * k + i], as
    // fmpz_multi_mod_ui writes one value's k residues).
    static ResidueBatch upload(const PrimeSet& set, const ulong* const* residues, std::size_t count, Backend where);
    static ResidueBatch upload_interleaved(const PrimeSet& set, const ulong* residues, std::size_t count,
                                           Backend where);
    // To host arrays in the same layouts.
    void download(ulong* const* residues) const;
    void download_interleaved(ulong* residues) const;

    const PrimeSet& prime_set() const { return set_; }
    Backend backend() const { return backend_; }
    std::size_t count() const { return count_; }
    std::size_t prime_stride() const { return prime_stride_; }
    // The backend's memory (device memory on the GPU backend).
    limb_t* data() { return static_cast<limb_t*>(storage_.get()); }
    const limb_t* data() const { return static_cast<const limb_t*>(storage_.get()); }

private:
    struct Release {
        Backend where;
        void operator()(void* storage) const;
    };

    PrimeSet set_;
    Backend backend_;
    std::size_t count_;
    std::size_t prime_stride_;
    std::unique_ptr<void, Release> storage_;
};

// r = x mod each modulus of `set`: x's signed values (any size a batch holds) into [0, n_i), on
// x's backend.
void reduce(ResidueBatch& r, const DeviceBatch& x, const PrimeSet& set);

// x = the values with residues r, in [0, P) or (sign) FLINT's symmetric range (see
// prime_set.hpp), on r's backend, of stride size_class(limbs of P). The checked form first
// throws, with x untouched, when P does not represent every |value| <= bound (sign; unsigned:
// 0 <= value <= bound).
void crt(DeviceBatch& x, const ResidueBatch& r, bool sign);
void crt_checked(DeviceBatch& x, const ResidueBatch& r, bool sign, const fmpz_t bound);

// Elementwise modulo each modulus, as _nmod_vec_add, _nmod_vec_sub, _nmod_vec_neg and products:
// operands of the same moduli, count and backend; r may be either operand.
void add(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b);
void sub(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b);
void mul(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b);
void neg(ResidueBatch& r, const ResidueBatch& a);
// r = a * c and r += a * c (as _nmod_vec_scalar_mul_nmod and _nmod_vec_scalar_addmul_nmod), c
// one scalar a modulus (c[i] below n_i) in host memory.
void scalar_mul(ResidueBatch& r, const ResidueBatch& a, std::span<const limb_t> c);
void scalar_addmul(ResidueBatch& r, const ResidueBatch& a, std::span<const limb_t> c);

}  // namespace zgpu
