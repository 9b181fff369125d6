#include "plugin/gpu/modular/modular_tables.hpp"

#include <vector>

#include "plugin/gpu/upload_layout.hpp"

namespace zgpu::gpu {

ModularTables::ModularTables(const kernels::ModularTables& host)
{
    for (const kernels::Modulus& m : host.moduli) moduli_.push_back(m.n);
    UploadLayout layout;
    const std::size_t moduli = layout.add(host.moduli), powers = layout.add(host.powers),
                      block_powers = layout.add(host.block_powers), inverses = layout.add(host.crt_inverses),
                      cofactors = layout.add(host.cofactors), product = layout.add(host.product);
    const std::vector<std::byte> gathered = layout.gather();
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    memory_ = DeviceMemory(layout.bytes());
    // From pageable memory a copy may return before the data has left it: wait.
    check(cudaMemcpyAsync(memory_.data(), gathered.data(), gathered.size(), cudaMemcpyHostToDevice, runtime.stream()),
          "uploading the tables of a prime set");
    runtime.synchronize("uploading the tables of a prime set");
    const std::byte* base = memory_.data();
    view_ = {host.count,
             reinterpret_cast<const kernels::Modulus*>(base + moduli),
             reinterpret_cast<const limb_t*>(base + powers),
             reinterpret_cast<const limb_t*>(base + block_powers),
             reinterpret_cast<const limb_t*>(base + inverses),
             reinterpret_cast<const limb_t*>(base + cofactors),
             reinterpret_cast<const limb_t*>(base + product),
             host.product_limbs,
             host.product_bits};
}

std::shared_ptr<const ModularTables> make_modular_tables(std::span<const limb_t> moduli)
{
    return std::make_shared<const ModularTables>(kernels::make_modular_tables(moduli));
}

std::uint32_t crt_limbs(const ModularTables& tables) { return tables.view().product_limbs; }

}  // namespace zgpu::gpu
