// Multi-modular reduction and CRT of host vectors end to end: fmpz values in, one ulong array of
// residues a modulus out (zgpu_fmpz_vec_multi_mod_ui), and back (zgpu_fmpz_vec_multi_CRT_ui,
// signed), on the GPU, on the CPU backend (FLINT's comb on all host threads) and as the
// automatic choice picks; next to FLINT's loops on one and on all host threads, in one run.
//   bench_modular_host [count]    (default 2^16 values)
// Bound: PCIe, values up and residues down (or back), at the 55 GB/s a direction that pinned
// copies reach on the H200 host (bench/NOTES-mul.md); the GPU's own time is bench_modular's.
#include <string>
#include <vector>

#include "bench_support.cuh"
#include "flint_comb_timing.cuh"

namespace {

constexpr double kPcieBytesPerSecond = 55e9;

struct Case {
    std::uint32_t bits;
    slong k;
};

// One direction of one case: gpu, cpu (on `part` values, scaled) and auto, as a table row.
std::string row(const char* name, const Case& c, slong count, slong part, double bytes, const std::function<int(slong)>& call,
                double flint_one, double flint_all)
{
    const double gpu = zgpu_seconds("gpu", [&] { return call(count); });
    const double cpu = zgpu_seconds("cpu", [&] { return call(part); }) * double(count) / double(part);
    const double automatic = zgpu_seconds("auto", [&] { return call(count); });
    const std::string chosen = zgpu_last_backend();
    char line[400];
    std::snprintf(line, sizeof line, "| %s | %u | %ld | %.2f | %.2f | %.2f (%s) | %.1f | %.2f | %.1f | %.1f %% |", name, c.bits, long(c.k),
                  1e3 * gpu, 1e3 * cpu, 1e3 * automatic, chosen.c_str(), 1e3 * flint_one, 1e3 * flint_all, flint_all / gpu,
                  100 * bytes / kPcieBytesPerSecond / gpu);
    return line;
}

}  // namespace

int main(int argc, char** argv)
{
    const slong count = argc > 1 ? std::atol(argv[1]) : slong(1) << 16;
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::printf("## zgpu multi-modular reduction and CRT of host vectors, end to end\n\ndevice: %s; host threads: %u; %ld values\n\n",
                prop.name, threads, long(count));
    std::printf("fmpz in, ulong residues out (one array a modulus), and back by the signed CRT; median of 5, ms. zgpu cpu is "
                "FLINT's comb on all host threads, timed on a part of the values and scaled, like the FLINT columns. PCIe share: "
                "values and residues over %.0f GB/s, of the GPU time.\n\n", kPcieBytesPerSecond / 1e9);
    std::printf("| call | bits | k | zgpu gpu ms | zgpu cpu ms | zgpu auto ms (backend) | FLINT 1 thread ms | FLINT %u threads ms | "
                "gpu / FLINT-%u | PCIe share |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", threads, threads);
    for (const Case c : {Case{256, 10}, Case{1024, 35}, Case{4096, 134}, Case{4096, 70}, Case{32768, 1059}}) {
        const std::uint32_t limbs = c.bits / 64;
        const PrimeSet primes(c.k);
        FlintComb flint(primes.moduli(), limbs, std::size_t(count), threads);
        const double mod_one = flint.seconds(1, false), mod_all = flint.seconds(threads, false);
        const double crt_one = flint.seconds(1, true), crt_all = flint.seconds(threads, true);
        const slong part = std::min<slong>(count, std::max<slong>(threads, slong((1 << 26) / (limbs * c.k))));
        fmpz* values = _fmpz_vec_init(count);
        fmpz* back = _fmpz_vec_init(count);
        fill_fmpz(values, count, limbs, 5);
        std::vector<std::vector<ulong>> words(std::size_t(c.k), std::vector<ulong>(std::size_t(count)));
        std::vector<ulong*> residues;
        for (auto& w : words) residues.push_back(w.data());
        const double bytes = 8.0 * double(count) * (limbs + c.k);
        std::printf("%s\n", row("multi_mod", c, count, part, bytes, [&](slong n) {
            return zgpu_fmpz_vec_multi_mod_ui(residues.data(), values, n, primes.set);
        }, mod_one, mod_all).c_str());
        std::printf("%s\n", row("multi_CRT", c, count, part, bytes, [&](slong n) {
            return zgpu_fmpz_vec_multi_CRT_ui(back, residues.data(), n, primes.set, 1);
        }, crt_one, crt_all).c_str());
        std::fflush(stdout);
        if (!_fmpz_vec_equal(values, back, count)) {
            std::fprintf(stderr, "the round trip at %u bits modulo %ld primes does not give the values back\n", c.bits, long(c.k));
            return 1;
        }
        _fmpz_vec_clear(values, count);
        _fmpz_vec_clear(back, count);
    }
    flint_cleanup_master();
    return 0;
}
