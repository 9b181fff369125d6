// A set's tables (modular_tables.hpp) built on the device from its moduli alone: a thread an
// entry, where the host's builder takes O(k^2) divisions and 512 k products in a row (about
// 4 ms at k = 135 on one host core, against a few microseconds of device work), so that a new
// set costs its upload and a launch.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/modular/modular_tables.hpp"

namespace zgpu::kernels {

// Device pointers: the inputs, written by the caller, and the tables to fill (ModularTables's
// layouts).
struct ModularTablesTarget {
    std::size_t count = 0;              // k >= 1
    const Modulus* moduli = nullptr;    // [i], pairwise coprime (not checked)
    const limb_t* product = nullptr;    // P, product_limbs limbs; only where crt_inverses is set
    std::uint32_t product_limbs = 0;
    limb_t* powers = nullptr;           // kPowerBlock * k words
    limb_t* block_powers = nullptr;     // kPowerBlocks * k words
    limb_t* crt_inverses = nullptr;     // k words, or null for the reduction's tables alone
    limb_t* cofactors = nullptr;        // k * product_limbs words, with crt_inverses
};

// Fills powers and block_powers, and where crt_inverses is set the CRT's c_i and M_i. Only
// enqueues work on `stream`; launch errors are thrown as zgpu::Error.
void fill_modular_tables(const ModularTablesTarget& target, cudaStream_t stream);

}  // namespace zgpu::kernels
