// What a PrimeSet holds for the backends: FLINT's comb for the CPU (built once, read by every
// thread; each thread makes its own CombTemp), an nmod_t a modulus, and the GPU's tables, made on
// first use only.
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
    fmpz_comb_t comb;

    explicit State(std::vector<limb_t> moduli);
    ~State();
    State(const State&) = delete;
    State& operator=(const State&) = delete;

    // The device tables, built by the first caller (thread-safe); a failure is retried next time.
    const gpu::ModularTables& gpu_tables() const;
    // The reduction's alone, likewise (O(k) work and memory), for calls that reconstruct on the
    // host.
    const gpu::ModularTables& gpu_reduction_tables() const;
    // The index of the first modulus that is not prime, or moduli.size(): tested once, for
    // callers that need primes (determinants) and run often on the same set.
    std::size_t first_composite() const;

private:
    mutable std::once_flag tables_once_, reduction_once_, composite_once_;
    mutable std::size_t first_composite_ = 0;
    mutable std::shared_ptr<const gpu::ModularTables> tables_, reduction_tables_;
};

// One thread's scratch for fmpz_multi_mod_ui / fmpz_multi_CRT_ui.
class CombTemp {
public:
    explicit CombTemp(const PrimeSet::State& set) { fmpz_comb_temp_init(temp_, set.comb); }
    ~CombTemp() { fmpz_comb_temp_clear(temp_); }
    CombTemp(const CombTemp&) = delete;
    CombTemp& operator=(const CombTemp&) = delete;
    fmpz_comb_temp_struct* get() { return temp_; }

private:
    fmpz_comb_temp_t temp_;
};

}  // namespace zgpu
