// A set of moduli's tables (kernels/modular/modular_tables.hpp) in device memory, in one
// allocation, for the life of the PrimeSet that made them. Only built with the GPU backend.
#pragma once

#include <span>
#include <vector>

#include "kernels/modular/modular_tables.hpp"
#include "plugin/gpu/modular_backend.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

class ModularTables {
public:
    explicit ModularTables(const kernels::ModularTables& host);
    const kernels::ModularTablesView& view() const { return view_; }
    // The moduli, on the host.
    std::span<const limb_t> moduli() const { return moduli_; }

private:
    std::vector<limb_t> moduli_;
    DeviceMemory memory_;
    kernels::ModularTablesView view_;
};

}  // namespace zgpu::gpu
