#include "plugin/gpu/poly/ntt_tables.hpp"

#include <algorithm>
#include <string>

#include "kernels/modular/ntt_primes.hpp"
#include "plugin/gpu/upload_layout.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

constexpr std::uint32_t kMinTableLength = 1u << 16;
constexpr std::size_t kCacheBytes = std::size_t(1) << 30;
constexpr std::size_t kCacheEntries = 4;

void check_prime(limb_t p, std::uint32_t length)
{
    if (p >= (limb_t(1) << 62) || p < 3 || !kernels::is_prime_word(p))
        throw Error("NTT products: modulus " + std::to_string(p) + " is not an odd prime below 2^62");
    if ((p - 1) % length != 0)
        throw Error("NTT products: the transform length " + std::to_string(length) + " does not divide " + std::to_string(p) + " - 1");
}

}  // namespace

PolyNttTables::PolyNttTables(std::span<const limb_t> primes, std::uint32_t length, cudaStream_t stream)
    : primes_(primes.begin(), primes.end())
{
    std::vector<kernels::Field64> fields;
    std::vector<limb_t> roots, inverse_roots;
    for (const limb_t p : primes) {
        check_prime(p, length);
        const kernels::Field64 f = kernels::make_field64(p);
        const limb_t root = kernels::root_of_unity64(f, length);
        fields.push_back(f);
        roots.push_back(root);
        inverse_roots.push_back(f.pow(root, length - 1));
    }
    UploadLayout layout;
    const std::size_t fields_at = layout.add(fields), roots_at = layout.add(roots), inverse_at = layout.add(inverse_roots);
    const std::size_t table_entries = primes.size() * std::size_t(length);
    // The tables after the roots, at a 256-byte boundary (kernels load an entry's 16 bytes at once).
    memory_ = DeviceMemory(layout.bytes() + 2 * table_entries * sizeof(kernels::Twiddle64));
    const std::vector<std::byte> gathered = layout.gather();
    // From pageable memory a copy may return before the data has left it: wait.
    check(cudaMemcpyAsync(memory_.data(), gathered.data(), gathered.size(), cudaMemcpyHostToDevice, stream), "uploading NTT roots");
    check(cudaStreamSynchronize(stream), "uploading NTT roots");
    std::byte* base = memory_.data();
    auto* forward = reinterpret_cast<kernels::Twiddle64*>(base + layout.bytes());
    const auto* device_fields = reinterpret_cast<const kernels::Field64*>(base + fields_at);
    kernels::make_poly_ntt_tables(device_fields, reinterpret_cast<const limb_t*>(base + roots_at),
                                  reinterpret_cast<const limb_t*>(base + inverse_at), primes.size(), length, forward,
                                  forward + table_entries, stream);
    view_ = {primes.size(), length, device_fields, forward, forward + table_entries};
}

bool PolyNttTables::serves(std::span<const limb_t> primes, std::uint32_t length) const
{
    return length <= view_.length && std::equal(primes.begin(), primes.end(), primes_.begin(), primes_.end());
}

const PolyNttTables& poly_ntt_tables(Runtime& runtime, std::span<const limb_t> primes, std::uint32_t length)
{
    // The runtime's own (the tables live on its device), guarded by its lease.
    auto& cache = runtime.kept<std::vector<std::unique_ptr<PolyNttTables>>>([] {
        return std::vector<std::unique_ptr<PolyNttTables>>();  // most recent last
    });
    for (auto it = cache.begin(); it != cache.end(); ++it) {
        if (!(*it)->serves(primes, length)) continue;
        std::rotate(it, it + 1, cache.end());
        return *cache.back();
    }
    // Longer tables only where every prime allows them.
    std::uint32_t table_length = std::max(length, kMinTableLength);
    for (const limb_t p : primes)
        while (table_length > length && (p - 1) % table_length != 0) table_length /= 2;
    auto tables = std::make_unique<PolyNttTables>(primes, table_length, runtime.stream());
    std::size_t bytes = tables->bytes();
    for (auto it = cache.rbegin(); it != cache.rend(); ++it) bytes += (*it)->bytes();
    while (!cache.empty() && (cache.size() >= kCacheEntries || bytes > kCacheBytes)) {
        bytes -= cache.front()->bytes();
        cache.erase(cache.begin());
    }
    cache.push_back(std::move(tables));
    return *cache.back();
}

}  // namespace zgpu::gpu
