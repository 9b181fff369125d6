// Host conversions, the part of an end-to-end call that the GPU does not do: packing fmpz
// vectors into a limb batch (pageable, cached; pinned, streamed as the GPU path does) and
// unpacking a batch into fmpz, next to a plain copy of the same bytes from pageable to pinned
// memory on the same threads, which bounds what the host's memory allows; with the data in cache
// (repeated calls) and out of it (caches emptied first). Run with
// ZGPU_THREADS=1, 2, 4, ... to see how the conversions scale. Markdown table.
//   bench_convert [bits ...]    (default 1024 2048 4096; 2^23 / limbs elements, 64 MiB of limbs)
#include <cstring>
#include <string>

#include "zgpu/fmpz_adapter.hpp"
#include "adapters/packing.hpp"
#include "base/parallel.hpp"
#include "bench_support.cuh"

namespace {

// Pinned host memory that frees itself.
class PinnedBytes {
public:
    explicit PinnedBytes(std::size_t bytes) { check(cudaMallocHost(&data_, bytes), "cudaMallocHost"); }
    ~PinnedBytes() { cudaFreeHost(data_); }
    PinnedBytes(const PinnedBytes&) = delete;
    PinnedBytes& operator=(const PinnedBytes&) = delete;
    std::byte* data() const { return static_cast<std::byte*>(data_); }

private:
    void* data_ = nullptr;
};

// Writes 1 GiB, more than any last-level cache, so that what a timing reads comes from memory.
void evict_caches()
{
    static std::vector<std::byte> sweep(std::size_t(1) << 30);
    zgpu::parallel_for(sweep.size() / 4096, 1, [&](std::size_t begin, std::size_t end) {
        std::memset(sweep.data() + 4096 * begin, int(begin & 0xff) | 1, 4096 * (end - begin));
    });
}

void row(std::uint32_t bits)
{
    const std::uint32_t n = bits / 64;
    const std::size_t count = (std::size_t(1) << 23) / n, limb_bytes = count * n * sizeof(ulong);
    fmpz* values = _fmpz_vec_init(slong(count));
    fmpz* out = _fmpz_vec_init(slong(count));
    fill_fmpz(values, slong(count), n, 7);
    const zgpu::adapters::FmpzReader reader(values);

    zgpu::LimbBatch pageable(count, n);
    PinnedBytes pinned(limb_bytes + count * sizeof(std::int32_t));
    auto* pinned_limbs = reinterpret_cast<ulong*>(pinned.data());
    const zgpu::BatchView staging{pinned_limbs, reinterpret_cast<std::int32_t*>(pinned_limbs + count * n), count, n};
    std::vector<std::byte> source(limb_bytes, std::byte{1});

    const auto ms = [](const std::function<void()>& op) { return 1e3 * median_seconds(5, op, [] {}); };
    // The same, but with the caches emptied before each timing (the host's last-level cache may
    // hold all of a batch, which an application's data between two calls seldom is).
    const auto cold_ms = [](const std::function<void()>& op) { return 1e3 * median_seconds(5, op, [] {}, evict_caches); };
    const auto pack_streamed = [&] { zgpu::adapters::pack_into(reader, staging, 0, zgpu::adapters::PackTarget::streamed); };
    // As the GPU path packs: chunks of 8 MiB of limbs, one parallel conversion each.
    const std::size_t chunk = (std::size_t(8) << 20) / (n * sizeof(ulong));
    const auto pack_chunks = [&] {
        for (std::size_t first = 0; first < count; first += chunk) {
            const std::size_t m = std::min(chunk, count - first);
            const zgpu::BatchView part{staging.limbs + first * n, staging.sizes + first, m, n};
            zgpu::adapters::pack_into(reader, part, first, zgpu::adapters::PackTarget::streamed);
        }
    };
    const double cached = ms([&] { zgpu::adapters::pack_into(reader, pageable.view(), 0); });
    const double streamed = ms(pack_streamed), streamed_cold = cold_ms(pack_streamed), chunks_cold = cold_ms(pack_chunks);
    const double unpack = ms([&] { zgpu::adapters::unpack_fmpz_vec(pageable.view(), out); });
    const double unpack_cold = cold_ms([&] { zgpu::adapters::unpack_fmpz_vec(pageable.view(), out); });
    const auto copy_limbs = [&] {
        zgpu::parallel_for(limb_bytes / 4096, 1, [&](std::size_t begin, std::size_t end) {
            std::memcpy(pinned.data() + 4096 * begin, source.data() + 4096 * begin, 4096 * (end - begin));
        });
    };
    const double copy = ms(copy_limbs), copy_cold = cold_ms(copy_limbs);
    if (!_fmpz_vec_equal(out, values, slong(count))) {
        std::fprintf(stderr, "unpacking did not give the packed values back\n");
        std::exit(1);
    }
    const auto ns = [&](double t) { return 1e6 * t / count; };
    std::printf("| %u | %zu | %u | %.2f (%.1f) | %.2f (%.1f) | %.2f | %.2f | %.2f (%.1f) | %.2f | %.2f (%.1f GB/s) | %.2f |\n",
                bits, count, zgpu::host_threads(), cached, ns(cached), streamed, ns(streamed), streamed_cold, chunks_cold,
                unpack, ns(unpack), unpack_cold, copy, limb_bytes / copy / 1e6, copy_cold);
    _fmpz_vec_clear(values, slong(count));
    _fmpz_vec_clear(out, slong(count));
}

}  // namespace

int main(int argc, char** argv)
{
    std::printf("## zgpu host conversions\n\nhost threads used: %u of %u; medians of 5\n\n", zgpu::host_threads(),
                std::thread::hardware_concurrency());
    std::printf("| bits | elements | threads | pack, pageable ms (ns an element) | pack, pinned streamed ms (ns) | "
                "the same, caches emptied | the same in 8 MiB chunks | unpack into fmpz ms (ns) | the same, caches "
                "emptied | memcpy of the limbs, pageable to pinned ms | the same, caches emptied |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    if (argc > 1)
        for (int k = 1; k < argc; ++k) row(std::uint32_t(std::stoul(argv[k])));
    else
        for (const std::uint32_t bits : {1024u, 2048u, 4096u}) row(bits);
    flint_cleanup_master();
    return 0;
}
