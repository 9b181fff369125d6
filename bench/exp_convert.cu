// Experiment, run once and taken out again: packing and unpacking variants, cold, on all host threads
#include <cstring>
#include <string>

#include <flint/fmpz.h>

#include "../adapters/fmpz_adapter.hpp"
#include "../adapters/packing.hpp"
#include "../adapters/parallel.hpp"
#include "../adapters/streaming_copy.hpp"
#include "bench_support.cuh"

namespace {

class PinnedBytes {
public:
    explicit PinnedBytes(std::size_t bytes) { if (cudaMallocHost(&data_, bytes) != cudaSuccess) data_ = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096), host_ = true; }
    ~PinnedBytes() { if (host_) std::free(data_); else cudaFreeHost(data_); }
    std::byte* data() const { return static_cast<std::byte*>(data_); }

private:
    void* data_ = nullptr;
    bool host_ = false;
};

void evict_caches()
{
    static std::vector<std::byte> sweep(std::size_t(1) << 30);
    zgpu::parallel_for(sweep.size() / 4096, 1, [&](std::size_t begin, std::size_t end) {
        std::memset(sweep.data() + 4096 * begin, int(begin & 0xff) | 1, 4096 * (end - begin));
    });
}

struct Gather {
    const ulong* limbs;
    std::int64_t size;
};

constexpr std::size_t kRanges = 64;

void row(std::uint32_t bits)
{
    using namespace zgpu::adapters;
    const std::uint32_t n = bits / 64;
    const std::size_t count = (std::size_t(1) << 23) / n, limb_bytes = count * n * sizeof(ulong);
    fmpz* values = _fmpz_vec_init(slong(count));
    fmpz* out = _fmpz_vec_init(slong(count));
    fill_fmpz(values, slong(count), n, 7);
    fill_fmpz(out, slong(count), 2 * n, 9);
    const FmpzReader reader(values);

    PinnedBytes pinned(2 * limb_bytes + count * 16 + 4096);
    auto* pinned_limbs = reinterpret_cast<ulong*>(pinned.data());
    const zgpu::BatchView staging{pinned_limbs, reinterpret_cast<std::int32_t*>(pinned_limbs + count * n), count, n};
    std::vector<Gather> list(count);
    std::vector<std::uint64_t> offsets(count);
    std::vector<std::byte> source(limb_bytes, std::byte{1});

    const auto cold_ms = [](const std::function<void()>& op) { return 1e3 * median_seconds(7, op, [] {}, evict_caches); };

    const auto p0 = [&] {  // as now: measure, then pack streamed
        const Extent e = measure(reader, count);
        if (e.largest != n) std::exit(2);
        pack_into(reader, staging, 0, PackTarget::streamed);
    };
    const auto measure_only = [&] { (void)measure(reader, count); };
    const auto p1 = [&] {  // measure writes a gather list; packing reads it
        std::atomic<std::uint64_t> largest{0};
        zgpu::parallel_for(count, 8192, [&](std::size_t begin, std::size_t end) {
            std::uint64_t local = 0;
            for (std::size_t i = begin; i < end; ++i) {
                const fmpz c = values[i];
                const __mpz_struct* z = COEFF_TO_PTR(c);
                if (i + 16 < end) __builtin_prefetch(COEFF_TO_PTR(values[i + 16]));
                list[i] = {z->_mp_d, z->_mp_size};
                local = std::max<std::uint64_t>(local, std::llabs(z->_mp_size));
            }
            std::uint64_t seen = largest.load();
            while (local > seen && !largest.compare_exchange_weak(seen, local)) {}
        });
        zgpu::parallel_for(count, 8192, [&](std::size_t begin, std::size_t end) {
            alignas(64) ulong buffer[2048];
            const std::size_t per = 2048 / n;
            for (std::size_t block = begin; block < end; block += per) {
                const std::size_t m = std::min(per, end - block);
                for (std::size_t j = 0; j < m; ++j) {
                    const std::size_t i = block + j;
                    if (i + 12 < end)
                        for (std::uint32_t l = 0; l < 8 * n; l += 64) __builtin_prefetch(reinterpret_cast<const char*>(list[i + 12].limbs) + l);
                    const std::size_t s = std::llabs(list[i].size);
                    std::memcpy(buffer + j * n, list[i].limbs, 8 * s);
                    staging.sizes[i] = std::int32_t(list[i].size);
                }
                stream_copy(staging.element(block), buffer, m * n * 8);
            }
            stream_fence();
        });
    };
    // Spans: each range copies runs of limbs that lie one after another on the heap (gaps up to
    // 64 bytes) as they are; offsets say where each element's limbs landed.
    const auto p2 = [&] {
        std::atomic<std::uint64_t> largest{0};
        const std::size_t per_range = (count + kRanges - 1) / kRanges;
        zgpu::parallel_for(kRanges, 1, [&](std::size_t r0, std::size_t r1) {
            for (std::size_t r = r0; r < r1; ++r) {
                const std::size_t begin = r * per_range, end = std::min(count, begin + per_range);
                std::byte* dst = pinned.data() + begin * (8 * n + 64);
                std::uint64_t local = 0;
                const char *span_start = nullptr, *span_end = nullptr;
                std::size_t written = 0;
                const auto flush = [&] {
                    if (span_start && !getenv("NOCOPY")) stream_copy(dst + written, span_start, span_end - span_start), written += span_end - span_start;
                };
                for (std::size_t i = begin; i < end; ++i) {
                    if (i + 16 < end) __builtin_prefetch(COEFF_TO_PTR(values[i + 16]));
                    const __mpz_struct* z = COEFF_TO_PTR(values[i]);
                    const std::size_t s = std::llabs(z->_mp_size);
                    local = std::max<std::uint64_t>(local, s);
                    const char* p = reinterpret_cast<const char*>(z->_mp_d);
                    if (!span_start || p < span_end || p - span_end > 64 || span_end - span_start > 65536) {
                        flush();
                        span_start = p;
                    }
                    span_end = p + 8 * s;
                    offsets[i] = (begin * (8 * n + 64) + written + (p - span_start)) | (std::uint64_t(s) << 48);
                }
                flush();
                std::uint64_t seen = largest.load();
                while (local > seen && !largest.compare_exchange_weak(seen, local)) {}
            }
            stream_fence();
        });
    };
    const auto check_p2 = [&] {
        for (std::size_t i = 0; i < count; i += 997) {
            const __mpz_struct* z = COEFF_TO_PTR(values[i]);
            if (std::memcmp(pinned.data() + (offsets[i] & ((1ull << 48) - 1)), z->_mp_d, 8 * n)) {
                std::fprintf(stderr, "span copy wrong at %zu\n", i);
                std::exit(3);
            }
        }
    };

    // Results: 2n limbs an element, from a pinned batch.
    const std::uint32_t rn = 2 * n;
    PinnedBytes pinned_results(count * (8 * rn + 4));
    auto* result_limbs = reinterpret_cast<ulong*>(pinned_results.data());
    const zgpu::BatchView results{result_limbs, reinterpret_cast<std::int32_t*>(result_limbs + count * rn), count, rn};
    for (std::size_t i = 0; i < count; ++i) {
        for (std::uint32_t j = 0; j < rn; ++j) results.limbs[i * rn + j] = mix(i * 77 + j) | (j == rn - 1 ? 1ull << 62 : 0);
        results.sizes[i] = (i & 1) ? -std::int32_t(rn) : std::int32_t(rn);
    }
    const auto u0 = [&] { unpack_fmpz_vec(results, out); };
    const auto in_place = [&](bool streaming) {
        zgpu::parallel_for(count, 8192, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                if (i + 16 < end) __builtin_prefetch(COEFF_TO_PTR(out[i + 16]));
                if (!streaming && i + 8 < end) __builtin_prefetch(COEFF_TO_PTR(out[i + 8])->_mp_d, 1);
                __mpz_struct* z = COEFF_TO_PTR(out[i]);
                const std::uint32_t s = std::abs(results.sizes[i]);
                if (streaming) stream_copy(z->_mp_d, results.element(i), 8 * s);
                else std::memcpy(z->_mp_d, results.element(i), 8 * s);
                z->_mp_size = results.sizes[i];
            }
            stream_fence();
        });
    };
    const auto copy_limbs = [&] {
        zgpu::parallel_for(limb_bytes / 4096, 1, [&](std::size_t begin, std::size_t end) {
            std::memcpy(pinned.data() + 4096 * begin, source.data() + 4096 * begin, 4096 * (end - begin));
        });
    };
    const auto stream_limbs = [&] {
        zgpu::parallel_for(limb_bytes / 4096, 1, [&](std::size_t begin, std::size_t end) {
            stream_copy(pinned.data() + 4096 * begin, source.data() + 4096 * begin, 4096 * (end - begin));
            stream_fence();
        });
    };

    const double t_copy = cold_ms(copy_limbs), t_stream = cold_ms(stream_limbs);
    const double t_measure = cold_ms(measure_only), t_p0 = cold_ms(p0), t_p1 = cold_ms(p1), t_p2 = cold_ms(p2);
    if (!getenv("NOCOPY")) check_p2();
    const double t_p0b = cold_ms(p0), t_p2b = cold_ms(p2);
    const double t_u0 = cold_ms(u0), t_u1 = cold_ms([&] { in_place(false); }), t_u2 = cold_ms([&] { in_place(true); });
    const double t_u0b = cold_ms(u0), t_u2b = cold_ms([&] { in_place(true); });
    for (std::size_t i = 0; i < count; i += 1) {
        fmpz_t expect;
        fmpz_init(expect);
        fmpz_set_ui_array(expect, results.element(i), rn);
        if (results.sizes[i] < 0) fmpz_neg(expect, expect);
        if (!fmpz_equal(expect, out + i)) {
            std::fprintf(stderr, "unpack wrong at %zu\n", i);
            std::exit(4);
        }
        fmpz_clear(expect);
    }
    std::printf("| %u | %zu | %u | %.2f | %.2f | %.2f | %.2f / %.2f | %.2f | %.2f / %.2f | %.2f / %.2f | %.2f | %.2f / %.2f |\n", bits,
                count, zgpu::host_threads(), t_copy, t_stream, t_measure, t_p0, t_p0b, t_p1, t_p2, t_p2b, t_u0, t_u0b, t_u1, t_u2,
                t_u2b);
    _fmpz_vec_clear(values, slong(count));
    _fmpz_vec_clear(out, slong(count));
}

}  // namespace

int main(int argc, char** argv)
{
    std::printf("cold, medians of 7, ms\n\n| bits | elements | threads | memcpy | stream copy | measure | P0 now (twice) | P1 list | "
                "P2 spans (twice) | U0 now (twice) | U1 in place | U2 in place streamed (twice) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int k = 1; k < argc; ++k) row(std::uint32_t(std::stoul(argv[k])));
    flint_cleanup_master();
    return 0;
}
