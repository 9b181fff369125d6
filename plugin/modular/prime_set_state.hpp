// What a PrimeSet holds for the backends: FLINT's comb for the CPU (read by every thread; each
// thread makes its own CombTemp), an nmod_t a modulus, and the GPU's tables. The comb and the
// tables are made on first use only: a product on the GPU needs no comb, one on the CPU no
// tables.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include <flint/fmpz.h>
#include <flint/nmod_vec.h>

#include "plugin/gpu/modular_backend.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu {

struct PrimeSet::State {
    std::vector<limb_t> moduli;
    std::vector<nmod_t> mods;
    fmpz_t product;
    std::uint64_t product_limbs;

    explicit State(std::vector<limb_t> moduli);
    ~State();
    State(const State&) = delete;
    State& operator=(const State&) = delete;

    // FLINT's comb of the moduli, built by the first caller (thread-safe).
    const fmpz_comb_struct* comb() const;
    // The device tables, built by the first caller (thread-safe); a failure is retried next time.
    const gpu::ModularTables& gpu_tables() const;
    // The reduction's alone, likewise (O(k) work and memory), for calls that reconstruct on the
    // host.
    const gpu::ModularTables& gpu_reduction_tables() const;
    // The index of the first modulus that is not prime, or moduli.size(): tested once, for
    // callers that need primes (determinants) and run often on the same set.
    std::size_t first_composite() const;

private:
    mutable std::once_flag comb_once_, tables_once_, reduction_once_, composite_once_;
    mutable std::size_t first_composite_ = 0;
    mutable std::shared_ptr<const gpu::ModularTables> tables_, reduction_tables_;
    mutable fmpz_comb_t comb_;
    mutable bool comb_built_ = false;
};

// One thread's scratch for fmpz_multi_mod_ui / fmpz_multi_CRT_ui.
class CombTemp {
public:
    explicit CombTemp(const PrimeSet::State& set) { fmpz_comb_temp_init(temp_, set.comb()); }
    ~CombTemp() { fmpz_comb_temp_clear(temp_); }
    CombTemp(const CombTemp&) = delete;
    CombTemp& operator=(const CombTemp&) = delete;
    fmpz_comb_temp_struct* get() { return temp_; }

private:
    fmpz_comb_temp_t temp_;
};

}  // namespace zgpu
