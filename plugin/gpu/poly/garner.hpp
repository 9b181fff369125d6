// The constants of kernels/poly/crt_to_moduli.hpp: Garner's for a few primes (device memory,
// built once a set of primes and kept), and a modulus n's powers of the primes' radix (host).
// Callers hold the runtime's lease.
#pragma once

#include <span>
#include <vector>

#include "kernels/poly/crt_to_moduli.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

class GarnerTables {
public:
    GarnerTables(std::span<const limb_t> primes, cudaStream_t stream);
    const kernels::GarnerView& view() const { return view_; }
    bool serves(std::span<const limb_t> primes) const;

private:
    std::vector<limb_t> primes_;
    DeviceMemory memory_;
    kernels::GarnerView view_;
};

// The tables of these primes (the last set asked for is kept).
const GarnerTables& garner_tables(Runtime& runtime, std::span<const limb_t> primes);

// The three 64-bit NTT primes that products mod an n of no transform of its own go through:
// their product, above 2^185, exceeds every coefficient over Z of such a product (below
// min(la, lb) (n - 1)^2 < 2^24 2^128).
std::span<const limb_t> three_product_primes();

// [1, p_0 mod n, p_0 p_1 mod n, ...]: one word a prime.
std::vector<limb_t> garner_radix(std::span<const limb_t> primes, limb_t n);

}  // namespace zgpu::gpu
