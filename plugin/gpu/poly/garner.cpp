#include "plugin/gpu/poly/garner.hpp"

#include <algorithm>
#include <memory>

#include "kernels/modular/ntt_primes.hpp"
#include "kernels/modular/word_mod.hpp"
#include "plugin/gpu/upload_layout.hpp"

namespace zgpu::gpu {

using kernels::mul_mod;
using kernels::pow_mod;

GarnerTables::GarnerTables(std::span<const limb_t> primes, cudaStream_t stream) : primes_(primes.begin(), primes.end())
{
    const std::size_t k = primes.size();
    std::vector<kernels::Field64> fields;
    std::vector<limb_t> below(k * k, 0), inverse(k, 0);
    for (std::size_t i = 0; i < k; ++i) {
        const kernels::Field64 f = kernels::make_field64(primes[i]);
        fields.push_back(f);
        limb_t product = 1;  // p_0 ... p_(l-1) mod p_i
        for (std::size_t l = 0; l < i; ++l) {
            below[i * k + l] = f.to_montgomery(product);
            product = mul_mod(product, primes[l] % primes[i], primes[i]);
        }
        inverse[i] = f.to_montgomery(pow_mod(product, primes[i] - 2, primes[i]));
    }
    UploadLayout layout;
    const std::size_t fields_at = layout.add(fields), below_at = layout.add(below), inverse_at = layout.add(inverse);
    memory_ = DeviceMemory(layout.bytes());
    const std::vector<std::byte> gathered = layout.gather();
    // From pageable memory a copy may return before the data has left it: wait.
    check(cudaMemcpyAsync(memory_.data(), gathered.data(), gathered.size(), cudaMemcpyHostToDevice, stream), "uploading CRT constants");
    check(cudaStreamSynchronize(stream), "uploading CRT constants");
    const std::byte* base = memory_.data();
    view_ = {k, reinterpret_cast<const kernels::Field64*>(base + fields_at), reinterpret_cast<const limb_t*>(base + below_at),
             reinterpret_cast<const limb_t*>(base + inverse_at)};
}

bool GarnerTables::serves(std::span<const limb_t> primes) const
{
    return std::equal(primes.begin(), primes.end(), primes_.begin(), primes_.end());
}

const GarnerTables& garner_tables(Runtime& runtime, std::span<const limb_t> primes)
{
    // The runtime's own (the tables live on its device), guarded by its lease.
    auto& last = runtime.kept<std::unique_ptr<GarnerTables>>([] { return std::unique_ptr<GarnerTables>(); });
    if (!last || !last->serves(primes)) last = std::make_unique<GarnerTables>(primes, runtime.stream());
    return *last;
}

std::span<const limb_t> three_product_primes()
{
    static const std::vector<limb_t> three = kernels::ntt_primes(3);
    return three;
}

std::vector<limb_t> garner_radix(std::span<const limb_t> primes, limb_t n)
{
    std::vector<limb_t> radix(primes.size());
    limb_t product = 1 % n;
    for (std::size_t l = 0; l < primes.size(); ++l) {
        radix[l] = product;
        product = mul_mod(product, primes[l] % n, n);
    }
    return radix;
}

}  // namespace zgpu::gpu
