#include "plugin/gpu/modular/modular_tables.hpp"

#include <utility>
#include <vector>

#include "plugin/gpu/upload_layout.hpp"

namespace zgpu::gpu {

ModularTables::ModularTables(const kernels::ModularTables& host)
    : product_limbs_(host.product_limbs), product_bits_(host.product_bits)
{
    for (const kernels::Modulus& m : host.moduli) moduli_.push_back(m.n);
    UploadLayout layout;
    offsets_ = {layout.add(host.moduli),       layout.add(host.powers),    layout.add(host.block_powers),
                layout.add(host.crt_inverses), layout.add(host.cofactors), layout.add(host.product)};
    gathered_ = layout.gather();
}

const kernels::ModularTablesView& ModularTables::view(Runtime& runtime) const
{
    const std::lock_guard lock(mutex_);
    if (const auto found = on_device_.find(&runtime); found != on_device_.end()) return found->second.view;
    const DeviceGuard on(runtime.device());
    DeviceMemory memory(gathered_.size());
    // On a stream of its own device; from pageable memory a copy may return before the data has
    // left it: wait.
    check(cudaMemcpyAsync(memory.data(), gathered_.data(), gathered_.size(), cudaMemcpyHostToDevice, runtime.upload_stream()),
          "uploading the tables of a prime set");
    check(cudaStreamSynchronize(runtime.upload_stream()), "uploading the tables of a prime set");
    const std::byte* base = memory.data();
    const kernels::ModularTablesView view{moduli_.size(),
                                          reinterpret_cast<const kernels::Modulus*>(base + offsets_.moduli),
                                          reinterpret_cast<const limb_t*>(base + offsets_.powers),
                                          reinterpret_cast<const limb_t*>(base + offsets_.block_powers),
                                          reinterpret_cast<const limb_t*>(base + offsets_.inverses),
                                          reinterpret_cast<const limb_t*>(base + offsets_.cofactors),
                                          reinterpret_cast<const limb_t*>(base + offsets_.product),
                                          product_limbs_,
                                          product_bits_};
    return on_device_.emplace(&runtime, OnDevice{std::move(memory), view}).first->second.view;
}

std::shared_ptr<const ModularTables> make_modular_tables(std::span<const limb_t> moduli)
{
    return std::make_shared<const ModularTables>(kernels::make_modular_tables(moduli));
}

std::shared_ptr<const ModularTables> make_reduction_tables(std::span<const limb_t> moduli)
{
    return std::make_shared<const ModularTables>(kernels::make_reduction_tables(moduli));
}

std::uint32_t crt_limbs(const ModularTables& tables) { return tables.product_limbs(); }

}  // namespace zgpu::gpu
