#include "plugin/gpu/poly/gpu_ntt_tables.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "kernels/modular/ntt_primes.hpp"
#include "plugin/gpu/upload_layout.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

constexpr std::uint32_t kMinTableLength = 1u << 16;
constexpr std::size_t kCacheBytes = std::size_t(2) << 30;
constexpr std::size_t kCacheEntries = 4;
// Tables up to this size are built for the generated primes up to the next power of two of
// those asked for, so that the sets of later products of other coefficient sizes (prefixes of
// the same list) find them built: a new table costs an allocation and a launch, and freeing one
// waits for the device.
constexpr std::size_t kSharedTableBytes = std::size_t(1) << 30;

void check_prime(limb_t p, std::uint32_t length)
{
    // The generated primes are known to be.
    const bool prime = kernels::ntt_prime_index(p) || kernels::is_prime_word(p);
    if (p >= (limb_t(1) << 62) || p < 3 || !prime)
        throw Error("NTT products: modulus " + std::to_string(p) + " is not an odd prime below 2^62");
    if ((p - 1) % length != 0)
        throw Error("NTT products: the transform length " + std::to_string(length) + " does not divide " + std::to_string(p) + " - 1");
}

// The primes to build tables of `length` for, serving `primes`: where they are a run of the
// generated list, the list's first primes up to the next power of two past the run's end, as
// far as kSharedTableBytes allows; else `primes` alone.
std::vector<limb_t> primes_to_build(std::span<const limb_t> primes, std::uint32_t length)
{
    if (const std::optional<std::size_t> first = kernels::ntt_prime_index(primes[0])) {
        const std::size_t shared = std::bit_ceil(*first + primes.size());
        if (shared * length * 2 * sizeof(kernels::Twiddle64) <= kSharedTableBytes) {
            std::vector<limb_t> list = kernels::ntt_primes(shared);
            if (std::equal(primes.begin(), primes.end(), list.begin() + std::ptrdiff_t(*first))) return list;
        }
    }
    return {primes.begin(), primes.end()};
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

std::optional<kernels::PolyNttTablesView> PolyNttTables::window(std::span<const limb_t> primes, std::uint32_t length) const
{
    if (length > view_.length || primes.empty()) return std::nullopt;
    const auto first = std::find(primes_.begin(), primes_.end(), primes[0]);
    const std::size_t at = std::size_t(first - primes_.begin());
    if (primes_.size() - at < primes.size() || !std::equal(primes.begin(), primes.end(), first)) return std::nullopt;
    kernels::PolyNttTablesView view = view_;
    view.primes = primes.size();
    view.fields += at;
    view.forward += at * view.length;
    view.inverse += at * view.length;
    return view;
}

kernels::PolyNttTablesView poly_ntt_tables(Runtime& runtime, std::span<const limb_t> primes, std::uint32_t length)
{
    // The runtime's own (the tables live on its device), guarded by its lease.
    auto& cache = runtime.kept<std::vector<std::unique_ptr<PolyNttTables>>>([] {
        return std::vector<std::unique_ptr<PolyNttTables>>();  // most recent last
    });
    for (auto it = cache.begin(); it != cache.end(); ++it) {
        const std::optional<kernels::PolyNttTablesView> view = (*it)->window(primes, length);
        if (!view) continue;
        std::rotate(it, it + 1, cache.end());
        return *view;
    }
    // Longer tables only where every prime allows them.
    std::uint32_t table_length = std::max(length, kMinTableLength);
    for (const limb_t p : primes)
        while (table_length > length && (p - 1) % table_length != 0) table_length /= 2;
    auto tables = std::make_unique<PolyNttTables>(primes_to_build(primes, table_length), table_length, runtime.stream());
    std::size_t bytes = tables->bytes();
    for (auto it = cache.rbegin(); it != cache.rend(); ++it) bytes += (*it)->bytes();
    while (!cache.empty() && (cache.size() >= kCacheEntries || bytes > kCacheBytes)) {
        bytes -= cache.front()->bytes();
        cache.erase(cache.begin());
    }
    cache.push_back(std::move(tables));
    return *cache.back()->window(primes, length);
}

}  // namespace zgpu::gpu
