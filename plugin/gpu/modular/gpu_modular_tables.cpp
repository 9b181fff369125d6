#include "plugin/gpu/modular/gpu_modular_tables.hpp"

#include <bit>
#include <utility>
#include <vector>

#include "kernels/modular/tables_on_device.hpp"
#include "plugin/gpu/upload_layout.hpp"

namespace zgpu::gpu {
ModularTables::ModularTables(std::span<const limb_t> moduli, bool crt) : moduli_(moduli.begin(), moduli.end()), crt_(crt)
{
    const std::size_t k = moduli.size();
    std::vector<kernels::Modulus> constants;
    constants.reserve(k);
    for (const limb_t n : moduli) constants.push_back(kernels::make_modulus(n));
    const std::vector<limb_t> product = crt ? kernels::moduli_product(moduli) : std::vector<limb_t>();
    if (crt) {
        product_limbs_ = std::uint32_t(product.size());
        product_bits_ = 64 * (product.size() - 1) + std::bit_width(product.back());
    }
    UploadLayout layout;
    offsets_.moduli = layout.add(constants);
    offsets_.product = layout.add(product);
    uploaded_.resize(layout.bytes());
    layout.gather_into(uploaded_.data());
    offsets_.powers = layout.reserve(std::size_t(kernels::kPowerBlock) * k * sizeof(limb_t));
    offsets_.block_powers = layout.reserve(std::size_t(kernels::kPowerBlocks) * k * sizeof(limb_t));
    offsets_.inverses = layout.reserve(crt ? k * sizeof(limb_t) : 0);
    offsets_.cofactors = layout.reserve(crt ? k * product_limbs_ * sizeof(limb_t) : 0);
    bytes_ = layout.bytes();
}

const kernels::ModularTablesView& ModularTables::view(Runtime& runtime) const
{
    const std::lock_guard lock(mutex_);
    if (const auto found = on_device_.find(&runtime); found != on_device_.end()) return found->second.view;
    const DeviceGuard on(runtime.device());
    DeviceMemory memory(bytes_);
    std::byte* base = memory.data();
    const auto words = [&](std::size_t at) { return reinterpret_cast<limb_t*>(base + at); };
    const kernels::ModularTablesTarget target{moduli_.size(),
                                              reinterpret_cast<const kernels::Modulus*>(base + offsets_.moduli),
                                              words(offsets_.product),
                                              product_limbs_,
                                              words(offsets_.powers),
                                              words(offsets_.block_powers),
                                              crt_ ? words(offsets_.inverses) : nullptr,
                                              crt_ ? words(offsets_.cofactors) : nullptr};
    // On a stream of its own device; from pageable memory a copy may return before the data has
    // left it: wait.
    const cudaStream_t stream = runtime.upload_stream();
    check(cudaMemcpyAsync(base, uploaded_.data(), uploaded_.size(), cudaMemcpyHostToDevice, stream), "uploading the moduli of a prime set");
    kernels::fill_modular_tables(target, stream);
    check(cudaStreamSynchronize(stream), "building the tables of a prime set");
    const kernels::ModularTablesView view{moduli_.size(), target.moduli,       target.powers,  target.block_powers,
                                          target.crt_inverses, target.cofactors, target.product, product_limbs_,
                                          product_bits_};
    return on_device_.emplace(&runtime, OnDevice{std::move(memory), view}).first->second.view;
}

std::shared_ptr<const ModularTables> make_modular_tables(std::span<const limb_t> moduli)
{
    return std::make_shared<const ModularTables>(moduli, true);
}

std::shared_ptr<const ModularTables> make_reduction_tables(std::span<const limb_t> moduli)
{
    return std::make_shared<const ModularTables>(moduli, false);
}

std::uint32_t crt_limbs(const ModularTables& tables) { return tables.product_limbs(); }

}  // namespace zgpu::gpu
