// Multi-modular reduction and CRT, device-resident (kernels::multi_mod and kernels::multi_crt
// on device batches, timed with CUDA events), next to FLINT's fmpz_multi_mod_ui and
// fmpz_multi_CRT_ui on one host thread and on all (the vector split over threads, each with
// its own fmpz_comb_temp), all in this one run; markdown tables.
//   bench_modular [count]    (default 2^16 values)
// Cases: 256, 1024, 4096 and 32768-bit values with k = ceil((2 bits + 64) / 62) generated
// primes (what a product of two such values needs), and k = 70 at 4096 bits.
#include <cmath>
#include <string>
#include <vector>

#include "bench_support.cuh"
#include "flint_comb_timing.cuh"
#include "kernels/modular/modular_tables.hpp"
#include "kernels/modular/multi_crt.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "kernels/modular/ntt_primes.hpp"

namespace {

using zgpu::limb_t;
namespace kernels = zgpu::kernels;

template <class T>
T* device_copy(const std::vector<T>& host)
{
    T* p = nullptr;
    check(cudaMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(1, host.size()) * sizeof(T)), "cudaMalloc");
    check(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
    return p;
}

kernels::ModularTablesView upload(const kernels::ModularTables& t)
{
    return {t.count, device_copy(t.moduli), device_copy(t.powers), device_copy(t.block_powers), device_copy(t.crt_inverses),
            device_copy(t.cofactors), device_copy(t.product), t.product_limbs, t.product_bits};
}

void release(const kernels::ModularTablesView& v)
{
    for (const void* p : {(const void*)v.moduli, (const void*)v.powers, (const void*)v.block_powers, (const void*)v.crt_inverses,
                          (const void*)v.cofactors, (const void*)v.product})
        cudaFree(const_cast<void*>(p));
}


struct Case {
    std::uint32_t bits;
    std::size_t k;
};

struct Peaks {
    double imad;  // IMAD a second
    double mma;   // dense 8-bit tensor core products a second
    double bytes; // HBM bytes a second
};

struct Row {
    std::string mod, crt;
};

Row run_case(const Case& c, std::size_t count, const Peaks& peaks, unsigned threads)
{
    const std::vector<limb_t> primes = kernels::ntt_primes(c.k);
    const kernels::ModularTables tables = kernels::make_modular_tables(primes);
    const kernels::ModularTablesView view = upload(tables);
    const std::uint32_t limbs = c.bits / 64, stride = zgpu::size_class(limbs), p_limbs = tables.product_limbs;

    // Device data: values, residues (prime stride rounded to 32), CRT results.
    limb_t *x_limbs, *residues, *out_limbs;
    std::int32_t *x_sizes, *out_sizes;
    const std::size_t prime_stride = (count + 31) / 32 * 32;
    check(cudaMalloc(&x_limbs, count * stride * 8), "cudaMalloc");
    check(cudaMalloc(&x_sizes, count * 4), "cudaMalloc");
    check(cudaMalloc(&residues, c.k * prime_stride * 8), "cudaMalloc");
    check(cudaMalloc(&out_limbs, count * std::size_t(p_limbs) * 8), "cudaMalloc");
    check(cudaMalloc(&out_sizes, count * 4), "cudaMalloc");
    const zgpu::BatchView x{x_limbs, x_sizes, count, stride}, out{out_limbs, out_sizes, count, p_limbs};
    const kernels::ResidueView r{residues, count, c.k, prime_stride};
    fill_random<<<1024, 256>>>(x, limbs, 1);
    check(cudaDeviceSynchronize(), "fill");
    const double mod_seconds = event_seconds([&] { kernels::multi_mod(x, view, r, nullptr); });
    const double crt_seconds = event_seconds([&] { kernels::multi_crt(r, view, true, out, nullptr); });

    FlintComb flint(std::vector<ulong>(primes.begin(), primes.end()), limbs, count, threads);
    const double mod_one = flint.seconds(1, false), mod_all = flint.seconds(threads, false);
    const double crt_one = flint.seconds(1, true), crt_all = flint.seconds(threads, true);

    // Work: for the reduction 8 IMADs a term (a 64 x 64 -> 128-bit product into three words),
    // count * limbs * k terms; for the CRT the byte products of its matrix product, count values
    // x 8 k bytes of y x 8 (limbs(P) + 1) columns, without the kernel's padding. Bytes: values
    // and residues once; the CRT also writes and reads its y_i once more.
    const double mod_share = 8.0 * count * limbs * c.k / peaks.imad, crt_share = 64.0 * count * c.k * (p_limbs + 1) / peaks.mma;
    const double mod_bytes = 8.0 * count * (stride + c.k), crt_bytes = 8.0 * count * (3.0 * c.k + p_limbs);
    char line[512];
    const auto format = [&](double seconds, double peak_seconds, double bytes, double one, double all) {
        std::snprintf(line, sizeof line, "| %u | %zu | %u | %.3f | %.1f %% | %.1f %% | %.1f | %.2f | %.0f | %.0f |", c.bits, c.k, p_limbs,
                      1e3 * seconds, 100 * peak_seconds / seconds, 100 * bytes / seconds / peaks.bytes, 1e3 * one, 1e3 * all,
                      one / seconds, all / seconds);
        return std::string(line);
    };
    Row row{format(mod_seconds, mod_share, mod_bytes, mod_one, mod_all), format(crt_seconds, crt_share, crt_bytes, crt_one, crt_all)};
    for (void* p : {(void*)x_limbs, (void*)x_sizes, (void*)residues, (void*)out_limbs, (void*)out_sizes}) cudaFree(p);
    release(view);
    return row;
}

}  // namespace

int main(int argc, char** argv)
{
    const std::size_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t(1) << 16;
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    keep_pool_memory();
    int clock_khz = 0, memory_khz = 0, bus_bits = 0;
    check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0), "clock rate");
    check(cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, 0), "memory clock rate");
    check(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0), "memory bus width");
    // IMAD: 64 a clock an SM on sm_90 (half the FP32 rate); 8-bit tensor core products: 4096 a
    // clock an SM (dense), both at the boost clock the device reports. HBM: two transfers a
    // memory clock over the bus width.
    const double sm_clocks = double(prop.multiProcessorCount) * clock_khz * 1e3;
    const Peaks peaks{64.0 * sm_clocks, 4096.0 * sm_clocks, 2.0 * memory_khz * 1e3 * bus_bits / 8};
    std::printf("## zgpu multi-modular reduction and CRT benchmark\n\ndevice: %s, %d SMs, %.2f GHz; host threads: %u; %zu values\n\n",
                prop.name, prop.multiProcessorCount, clock_khz / 1e6, threads, count);
    std::printf("Compute share: for the reduction 8 IMADs a term (one 64 x 64 -> 128-bit product added into three words), count x "
                "limbs x k terms, over the peak %.3g IMAD/s (64 a clock an SM); for the CRT (on the tensor cores up to 4096 moduli) the "
                "byte products of count x 8 k bytes of y times 8 (limbs(P) + 1) byte columns, over the dense 8-bit peak %.3g/s (4096 "
                "a clock an SM). HBM share: values "
                "and residues moved once (and the CRT's y_i written and read once more) over %.3g B/s. FLINT: fmpz_multi_mod_ui / "
                "fmpz_multi_CRT_ui (sign 1) on a part of the values, scaled to %zu. Moduli: the largest primes 1 mod 2^32 below "
                "2^62.\n\n", peaks.imad, peaks.mma, peaks.bytes, count);
    const std::vector<Case> cases = {{256, 10}, {1024, 35}, {4096, 134}, {4096, 70}, {32768, 1059}};
    std::vector<Row> rows;
    for (const Case& c : cases) rows.push_back(run_case(c, count, peaks, threads));
    const char* header = "| bits | k | limbs(P) | zgpu ms | compute share | HBM share | FLINT 1 thread ms | FLINT %u threads ms | zgpu / FLINT-1 | zgpu / FLINT-%u |\n"
                         "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    std::printf("### Reduction (multi_mod), device-resident, median of 10\n\n");
    std::printf(header, threads, threads);
    for (const Row& r : rows) std::printf("%s\n", r.mod.c_str());
    std::printf("\n### CRT, signed (multi_crt), device-resident, median of 10\n\n");
    std::printf(header, threads, threads);
    for (const Row& r : rows) std::printf("%s\n", r.crt.c_str());
    flint_cleanup_master();
    return 0;
}
