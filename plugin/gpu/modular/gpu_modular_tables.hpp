// A set of moduli's tables (kernels/modular/modular_tables.hpp) in device memory, one allocation
// on each device that uses them, for the life of the PrimeSet that made them. The host keeps the
// moduli and their product; each device builds the tables from them
// (kernels/modular/tables_on_device.hpp). Only built with the GPU backend.
#pragma once

#include <map>
#include <mutex>
#include <span>
#include <vector>

#include "kernels/modular/modular_tables.hpp"
#include "plugin/gpu/modular_backend.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

class ModularTables {
public:
    // The tables of `moduli` (pairwise coprime), with the CRT's where `crt`, else the
    // reduction's alone.
    ModularTables(std::span<const limb_t> moduli, bool crt);
    // The tables on `runtime`'s device, built there on first use; the caller holds the runtime's
    // lease.
    const kernels::ModularTablesView& view(Runtime& runtime) const;
    // The moduli, on the host.
    std::span<const limb_t> moduli() const { return moduli_; }
    // Limbs of the product of the moduli (0 for the reduction's tables alone).
    std::uint32_t product_limbs() const { return product_limbs_; }

private:
    struct OnDevice {
        DeviceMemory memory;
        kernels::ModularTablesView view;
    };
    // Where each table starts in the one allocation: the uploaded parts first.
    struct Offsets {
        std::size_t moduli, product, powers, block_powers, inverses, cofactors;
    };

    std::vector<limb_t> moduli_;
    std::vector<std::byte> uploaded_;  // the allocation's first bytes: the moduli and P
    Offsets offsets_{};
    std::size_t bytes_ = 0;
    bool crt_;
    std::uint32_t product_limbs_ = 0;
    std::uint64_t product_bits_ = 0;
    mutable std::mutex mutex_;
    mutable std::map<const Runtime*, OnDevice> on_device_;
};

}  // namespace zgpu::gpu
