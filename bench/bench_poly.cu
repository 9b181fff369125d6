// Polynomial products, all in this one run, each next to FLINT on one and on all host threads:
//  1. end to end through the C entry points (FLINT objects in, FLINT objects out) with the GPU
//     forced, the CPU backend forced and the automatic choice: fmpz_poly_mul, nmod_poly_mul
//     modulo a 62-bit prime that is not an NTT prime, and a batch of 10^4 products of length 1024
//     each modulo its own such prime (zgpu_nmod_poly_mul_many); every result checked against
//     FLINT's;
//  2. device-resident: kernels::poly_mul on residues already on the device, with the reduction
//     (multi_mod) and the CRT (multi_crt, or crt_to_moduli for the batch) timed apart, by CUDA
//     events; results checked against FLINT's;
//  3. the crossover of the automatic choice: end-to-end GPU and CPU backends by length.
// Markdown tables on stdout.
//   bench_poly
// ZGPU_BENCH_SKIP_FLINT1=1 leaves out FLINT's one-thread runs of the largest cases (2^16 x 4096
// bits, 2^18 x 256 bits, 2^12 x 16384 bits, nmod at 2^22, the batch).
#include <bit>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include <flint/fmpz_poly.h>
#include <flint/nmod_poly.h>
#include <flint/ulong_extras.h>

#include "bench_support.cuh"
#include "host_threads.cuh"
#include "nmod_batch.cuh"
#include "kernels/modular/modular_tables.hpp"
#include "kernels/modular/modulus.hpp"
#include "kernels/modular/multi_crt.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "kernels/modular/word_mod.hpp"
#include "kernels/ntt/ntt_field64.hpp"
#include "kernels/poly/crt_to_moduli.hpp"
#include "kernels/poly/poly_mul_mod_n.hpp"
#include "kernels/poly/poly_mul.hpp"
#include "kernels/poly/poly_ntt_tables.hpp"
#include "zgpu/prime_set.hpp"

namespace {

using zgpu::limb_t;
namespace kernels = zgpu::kernels;

// The PCIe bound's rate, a direction, pinned memory, on the H200 hosts (bench/NOTES-mul.md);
// this run also measures its own (printed in the header).
constexpr double kPcieBytesPerSecond = 55e9;
// A host timing whose warm-up call takes longer than this is that one call.
constexpr double kLongSeconds = 1.0;
// zgpu's calls run this long before they are timed (see zgpu_time).
constexpr double kWarmSeconds = 0.3;
constexpr slong kBatchCount = 10000, kBatchLength = 1024;

[[noreturn]] void fail(const std::string& what)
{
    std::fflush(stdout);
    std::fprintf(stderr, "bench_poly: %s\n", what.c_str());
    std::exit(1);
}

double cpu_now()
{
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// A host-side timing: the median, how many calls it is of, and the process's CPU time over the
// wall time of those calls (about 1 where the work ran on one thread).
struct Timing {
    double seconds = 0;
    double busy = 0;
    int runs = 0;  // 0: not measured
};

// One warm-up call, then the median of 3 (of 11 where the warm-up took under many_below
// seconds); a warm-up longer than kLongSeconds is the timing.
Timing host_time(const std::function<void()>& op, double many_below = 0.01)
{
    double cpu = cpu_now(), start = now();
    op();
    const double first = now() - start;
    if (first > kLongSeconds) return {first, (cpu_now() - cpu) / first, 1};
    const int repeats = first < many_below ? 11 : 3;
    std::vector<double> times;
    double cpu_total = 0, wall_total = 0;
    for (int r = 0; r < repeats; ++r) {
        cpu = cpu_now();
        start = now();
        op();
        times.push_back(now() - start);
        cpu_total += cpu_now() - cpu;
        wall_total += times.back();
    }
    std::sort(times.begin(), times.end());
    return {times[times.size() / 2], cpu_total / wall_total, repeats};
}

// FLINT's own call with flint_set_num_threads(threads); FLINT's default (1) again afterwards, so
// that zgpu's calls run as a program's would.
Timing flint_time(int threads, const std::function<void()>& op)
{
    flint_set_num_threads(threads);
    const Timing t = host_time(op);
    flint_set_num_threads(1);
    return t;
}

// A zgpu C call (0 on success) timed with ZGPU_BACKEND = backend, and the backend that ran it:
// after calls for at least kWarmSeconds, the median of 11 where a call takes under 50 ms. On the
// GPU machines' hosts the first calls after a phase of one busy thread (FLINT's one-thread
// timings) packed and unpacked up to 40 times slower, for about 0.1 s (idle host threads slow
// to wake), which a program's steady state does not see.
struct ZgpuTiming {
    Timing time;
    std::string ran;
};

ZgpuTiming zgpu_time(const char* backend, const std::function<int()>& call)
{
    setenv("ZGPU_BACKEND", backend, 1);
    for (const double start = now(); now() - start < kWarmSeconds;)
        if (call() != 0) fail(std::string("ZGPU_BACKEND=") + backend + ": " + zgpu_last_error());
    const Timing t = host_time(
        [&] {
            if (call() != 0) fail(std::string("ZGPU_BACKEND=") + backend + ": " + zgpu_last_error());
        },
        0.05);
    ZgpuTiming result{t, zgpu_last_backend()};
    unsetenv("ZGPU_BACKEND");
    return result;
}

struct FmpzPoly {
    fmpz_poly_t p;
    FmpzPoly() { fmpz_poly_init(p); }
    ~FmpzPoly() { fmpz_poly_clear(p); }
    FmpzPoly(const FmpzPoly&) = delete;
    FmpzPoly& operator=(const FmpzPoly&) = delete;
};

struct NmodPoly {
    nmod_poly_t p;
    explicit NmodPoly(ulong n) { nmod_poly_init(p, n); }
    ~NmodPoly() { nmod_poly_clear(p); }
    NmodPoly(const NmodPoly&) = delete;
    NmodPoly& operator=(const NmodPoly&) = delete;
};

// `length` coefficients of exactly `bits` bits (a multiple of 64), random limbs and signs.
void random_fmpz_poly(fmpz_poly_t p, slong length, unsigned bits, std::uint64_t seed)
{
    fmpz_poly_fit_length(p, length);
    fill_fmpz(p->coeffs, length, bits / 64, seed);
    _fmpz_poly_set_length(p, length);
}

int ceil_log2(std::uint64_t x)
{
    int e = 0;
    while ((std::uint64_t(1) << e) < x) ++e;
    return e;
}

// ---- Section 1: end to end -------------------------------------------------------------------

struct EndToEndRow {
    std::string product;
    slong length;
    unsigned bits;
    double target;        // the issue's lowest factor over FLINT on all threads
    double pcie_bytes;    // operands up, results down
    ZgpuTiming gpu, cpu, automatic;
    Timing flint_one, flint_all;
};

std::string ms(double seconds)
{
    const double v = 1e3 * seconds;
    char s[32];
    std::snprintf(s, sizeof s, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : v >= 0.01 ? "%.3f" : "%.4f", v);
    return s;
}

// "12.3", with "*" where it is one call (over kLongSeconds), or "skipped".
std::string ms(const Timing& t)
{
    if (t.runs == 0) return "skipped";
    return ms(t.seconds) + (t.runs == 1 ? "*" : "");
}

// A speed-up: one decimal below 10.
std::string factor(double x)
{
    char s[32];
    std::snprintf(s, sizeof s, x < 10 ? "%.1f" : "%.0f", x);
    return s;
}

std::string ratio(const Timing& flint, double seconds)
{
    return flint.runs == 0 ? "-" : factor(flint.seconds / seconds);
}

// FLINT's CPU time over wall time, and what it says.
std::string busy(const Timing& t)
{
    char s[48];
    std::snprintf(s, sizeof s, "%.1f, %s", t.busy, t.busy >= 1.5 ? "parallel" : "one thread");
    return s;
}

std::string backend_note(const ZgpuTiming& z, const char* forced)
{
    return z.ran == forced ? "" : " (ran " + z.ran + ")";
}

void print_end_to_end(const std::vector<EndToEndRow>& rows, unsigned threads)
{
    std::printf("### 1. End to end: FLINT objects in, FLINT objects out\n\n");
    std::printf("zgpu gpu / cpu / auto: the C entry point with ZGPU_BACKEND=gpu, cpu (zgpu's CPU backend: FLINT's function on "
                "all host threads) and auto (the backend it picked in brackets). FLINT 1 / %u threads: FLINT's own function in this "
                "process with flint_set_num_threads(1) / (%u); for the batch, FLINT's loop on one thread and split over %u host "
                "threads (std::thread, kept across calls). FLINT busy: the process's CPU time over the wall time of the FLINT "
                "%u-thread calls, and what it says (from 1.5: parallel); about 1 means FLINT runs that function on one thread "
                "whatever flint_set_num_threads says. Times: ms, median of 3 after a warm-up (of 11 under 10 ms; zgpu: after 0.3 s of calls, of 11 under 50 ms); * one call (over "
                "%.0f s). x FLINT: FLINT's time over zgpu gpu's; target: the issue's lowest x FLINT-%u (- where it sets none). PCIe: operands up and "
                "results down (nmod: 8 bytes a coefficient; fmpz: the coefficients' limbs, the product's at 2 bits + log2 length + "
                "1 bits), at %.0f GB/s a direction, not overlapped; share: that time over zgpu gpu's (100 %% = the transfers "
                "alone; PCIe is full duplex, so up and down overlapped can exceed it). Every result is checked against FLINT's.\n\n",
                threads, threads, threads, threads, kLongSeconds, threads, kPcieBytesPerSecond / 1e9);
    std::printf("| product | length | bits | zgpu gpu ms | zgpu cpu ms | zgpu auto ms (backend) | FLINT 1 thread ms | FLINT %u threads ms | "
                "FLINT busy | x FLINT-1 | x FLINT-%u | target | PCIe MB | PCIe share |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", threads, threads);
    for (const EndToEndRow& r : rows) {
        const double gpu = r.gpu.time.seconds;
        std::printf("| %s | %ld | %u | %s%s | %s%s | %s (%s) | %s | %s | %s | %s | %s | %s | %.0f | %.0f %% |\n", r.product.c_str(),
                    long(r.length), r.bits, ms(r.gpu.time).c_str(), backend_note(r.gpu, "gpu").c_str(), ms(r.cpu.time).c_str(),
                    backend_note(r.cpu, "cpu").c_str(), ms(r.automatic.time).c_str(), r.automatic.ran.c_str(), ms(r.flint_one).c_str(),
                    ms(r.flint_all).c_str(), busy(r.flint_all).c_str(), ratio(r.flint_one, gpu).c_str(), ratio(r.flint_all, gpu).c_str(),
                    r.target ? factor(r.target).c_str() : "-", r.pcie_bytes / 1e6, 100 * r.pcie_bytes / kPcieBytesPerSecond / gpu);
    }
    std::printf("\n");
    std::fflush(stdout);
}

struct FmpzCase {
    slong length;
    unsigned bits;
    double target;
    bool big;  // FLINT's one-thread run left out under ZGPU_BENCH_SKIP_FLINT1
};

// What section 2 needs of a case of section 1: its operands, FLINT's product and time.
struct FmpzData {
    FmpzCase c;
    FmpzPoly a, b, flint;
    Timing flint_all;
};

// who: "ZGPU_BACKEND=gpu" and the like, or "FLINT on one thread".
void check_fmpz(const fmpz_poly_t r, const fmpz_poly_t expected, const char* who, slong length, unsigned bits)
{
    if (!fmpz_poly_equal(r, expected))
        fail("fmpz_poly_mul at length " + std::to_string(length) + ", " + std::to_string(bits) + " bits: " + who +
             " differs from FLINT's product");
}

EndToEndRow fmpz_end_to_end(FmpzData& d, unsigned threads, bool skip_big)
{
    const FmpzCase& c = d.c;
    random_fmpz_poly(d.a.p, c.length, c.bits, 11 * std::uint64_t(c.length) + c.bits);
    random_fmpz_poly(d.b.p, c.length, c.bits, 13 * std::uint64_t(c.length) + c.bits + 1);
    EndToEndRow row{"fmpz_poly_mul", c.length, c.bits, c.target, 0, {}, {}, {}, {}, {}};
    const double out_limbs = std::ceil((2.0 * c.bits + ceil_log2(std::uint64_t(c.length)) + 1) / 64);
    row.pcie_bytes = 8.0 * (2.0 * c.length * (c.bits / 64) + (2.0 * c.length - 1) * out_limbs);
    row.flint_all = d.flint_all = flint_time(int(threads), [&] { fmpz_poly_mul(d.flint.p, d.a.p, d.b.p); });
    FmpzPoly r;
    if (!(c.big && skip_big)) {
        row.flint_one = flint_time(1, [&] { fmpz_poly_mul(r.p, d.a.p, d.b.p); });
        check_fmpz(r.p, d.flint.p, "FLINT on one thread", c.length, c.bits);
        fmpz_poly_zero(r.p);
    }
    const auto call = [&] { return zgpu_fmpz_poly_mul(r.p, d.a.p, d.b.p); };
    row.gpu = zgpu_time("gpu", call);
    check_fmpz(r.p, d.flint.p, "ZGPU_BACKEND=gpu", c.length, c.bits);
    fmpz_poly_zero(r.p);
    row.cpu = zgpu_time("cpu", call);
    check_fmpz(r.p, d.flint.p, "ZGPU_BACKEND=cpu", c.length, c.bits);
    fmpz_poly_zero(r.p);
    row.automatic = zgpu_time("auto", call);
    check_fmpz(r.p, d.flint.p, "ZGPU_BACKEND=auto", c.length, c.bits);
    return row;
}

void check_nmod(const nmod_poly_t r, const nmod_poly_t expected, const std::string& what)
{
    if (!nmod_poly_equal(r, expected)) fail(what + " differs from FLINT's product");
}

// target 0: a row the issue sets none for.
EndToEndRow nmod_end_to_end(slong length, bool big, double target, unsigned threads, bool skip_big)
{
    const ulong p = random_prime62(length);
    NmodPoly a(p), b(p), flint(p), r(p);
    random_nmod_poly(a.p, length, 21);
    random_nmod_poly(b.p, length, 22);
    EndToEndRow row{"nmod_poly_mul, 62-bit prime", length, 62, target, 8.0 * (4.0 * length - 1), {}, {}, {}, {}, {}};
    row.flint_all = flint_time(int(threads), [&] { nmod_poly_mul(flint.p, a.p, b.p); });
    const std::string what = "nmod_poly_mul at length " + std::to_string(length);
    if (!(big && skip_big)) {
        row.flint_one = flint_time(1, [&] { nmod_poly_mul(r.p, a.p, b.p); });
        check_nmod(r.p, flint.p, what + ", FLINT on one thread,");
        nmod_poly_zero(r.p);
    }
    const auto call = [&] { return zgpu_nmod_poly_mul(r.p, a.p, b.p); };
    row.gpu = zgpu_time("gpu", call);
    check_nmod(r.p, flint.p, what + ", ZGPU_BACKEND=gpu,");
    nmod_poly_zero(r.p);
    row.cpu = zgpu_time("cpu", call);
    check_nmod(r.p, flint.p, what + ", ZGPU_BACKEND=cpu,");
    nmod_poly_zero(r.p);
    row.automatic = zgpu_time("auto", call);
    check_nmod(r.p, flint.p, what + ", ZGPU_BACKEND=auto,");
    return row;
}

// who: "ZGPU_BACKEND=gpu" and the like, or "FLINT on one thread". Empties the results.
void check_batch(NmodBatch& d, const char* who)
{
    for (slong i = 0; i < kBatchCount; ++i) {
        if (!nmod_poly_equal(&d.r[i], &d.flint[i]))
            fail(std::string("nmod_poly_mul_many, ") + who + ": product " + std::to_string(i) + " differs from FLINT's");
        nmod_poly_zero(&d.r[i]);
    }
}

EndToEndRow batch_end_to_end(NmodBatch& d, HostThreads& pool, bool skip_big, Timing& flint_all)
{
    EndToEndRow row{"nmod_poly_mul_many, 10^4 pairs, 62-bit primes", kBatchLength, 62, 5,
                    8.0 * kBatchCount * (4.0 * kBatchLength - 1), {}, {}, {}, {}, {}};
    const auto loop = [&](slong begin, slong end) {
        for (slong i = begin; i < end; ++i) nmod_poly_mul(&d.flint[i], &d.a[i], &d.b[i]);
    };
    row.flint_all = flint_all = host_time([&] { pool.run(kBatchCount, loop); });
    if (!skip_big) {
        row.flint_one = flint_time(1, [&] {
            for (slong i = 0; i < kBatchCount; ++i) nmod_poly_mul(&d.r[i], &d.a[i], &d.b[i]);
        });
        check_batch(d, "FLINT on one thread");
    }
    const auto call = [&] { return zgpu_nmod_poly_mul_many(d.r.get(), d.a.get(), d.b.get(), kBatchCount); };
    row.gpu = zgpu_time("gpu", call);
    check_batch(d, "ZGPU_BACKEND=gpu");
    row.cpu = zgpu_time("cpu", call);
    check_batch(d, "ZGPU_BACKEND=cpu");
    row.automatic = zgpu_time("auto", call);
    check_batch(d, "ZGPU_BACKEND=auto");
    return row;
}

// ---- Section 2: device-resident ----------------------------------------------------------------

// Device memory of one case, freed together.
class DeviceArena {
public:
    DeviceArena() = default;
    ~DeviceArena()
    {
        for (void* p : blocks_) cudaFree(p);
    }
    DeviceArena(const DeviceArena&) = delete;
    DeviceArena& operator=(const DeviceArena&) = delete;

    template <class T>
    T* alloc(std::size_t count)
    {
        void* p = nullptr;
        check(cudaMalloc(&p, std::max<std::size_t>(1, count) * sizeof(T)), "cudaMalloc");
        blocks_.push_back(p);
        return static_cast<T*>(p);
    }
    template <class T>
    T* upload(std::span<const T> host)
    {
        T* p = alloc<T>(host.size());
        check(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
        return p;
    }
    template <class T>
    T* upload(const std::vector<T>& host)
    {
        return upload(std::span<const T>(host));
    }

private:
    std::vector<void*> blocks_;
};

template <class T>
std::vector<T> download(const T* device, std::size_t count)
{
    std::vector<T> host(count);
    check(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return host;
}


kernels::ModularTablesView upload_modular(DeviceArena& arena, const kernels::ModularTables& t)
{
    return {t.count, arena.upload(t.moduli), arena.upload(t.powers), arena.upload(t.block_powers), arena.upload(t.crt_inverses),
            arena.upload(t.cofactors), arena.upload(t.product), t.product_limbs, t.product_bits};
}

std::vector<kernels::Field64> fields_of(std::span<const limb_t> primes)
{
    std::vector<kernels::Field64> fields;
    for (const limb_t p : primes) fields.push_back(kernels::make_field64(p));
    return fields;
}

// The transforms' twiddles for `primes` up to `length`, built on the device.
kernels::PolyNttTablesView ntt_tables(DeviceArena& arena, std::span<const limb_t> primes, std::uint32_t length)
{
    const std::vector<kernels::Field64> fields = fields_of(primes);
    std::vector<limb_t> roots, inverse_roots;
    for (const kernels::Field64& f : fields) {
        const limb_t w = kernels::root_of_unity64(f, length);
        roots.push_back(w);
        inverse_roots.push_back(f.pow(w, length - 1));
    }
    const kernels::Field64* d_fields = arena.upload(fields);
    auto* forward = arena.alloc<kernels::Twiddle64>(primes.size() * length);
    auto* inverse = arena.alloc<kernels::Twiddle64>(primes.size() * length);
    kernels::make_poly_ntt_tables(d_fields, arena.upload(roots), arena.upload(inverse_roots), primes.size(), length, forward, inverse,
                                  nullptr);
    check(cudaDeviceSynchronize(), "make_poly_ntt_tables");
    return {primes.size(), length, d_fields, forward, inverse};
}

std::size_t round32(std::size_t n) { return (n + 31) / 32 * 32; }

// IMADs of the transforms, a prime, a product: 3 transforms of N/2 log2 N butterflies and N
// pointwise steps. By default the 62-bit primes' counts: a product by a twiddle with Shoup's
// companion is 10 IMADs (4 for the high half of x w_shoup, 3 each for the low halves of x w and
// q p), a pointwise step two Montgomery products (11 IMADs each).
double ntt_imads(double products, double primes, std::uint32_t n, double butterfly = 10, double pointwise = 22)
{
    return products * primes * (butterfly * 3.0 * n / 2 * std::log2(double(n)) + pointwise * n);
}

struct DeviceRow {
    std::string shape;
    std::size_t primes;
    std::uint32_t n;
    double reduction, product, crt;  // seconds; reduction < 0: none
    double imads;
    Timing flint_all;
    double target;
};

// fmpz coefficients (exactly `limbs` limbs each) into a limb batch of that stride.
void to_limbs(const fmpz* values, slong count, std::uint32_t limbs, std::vector<limb_t>& out, std::vector<std::int32_t>& sizes)
{
    out.assign(std::size_t(count) * limbs, 0);
    sizes.assign(std::size_t(count), 0);
    fmpz_t t;
    fmpz_init(t);
    for (slong i = 0; i < count; ++i) {
        fmpz_abs(t, values + i);
        fmpz_get_ui_array(out.data() + std::size_t(i) * limbs, limbs, t);
        std::int32_t used = std::int32_t(limbs);
        while (used > 0 && out[std::size_t(i) * limbs + std::size_t(used) - 1] == 0) --used;
        sizes[std::size_t(i)] = fmpz_sgn(values + i) < 0 ? -used : used;
    }
    fmpz_clear(t);
}

DeviceRow fmpz_device(const FmpzData& d)
{
    const FmpzCase& c = d.c;
    const std::uint64_t length = std::uint64_t(c.length), out_length = 2 * length - 1;
    const std::uint32_t limbs = c.bits / 64;
    // |coefficient| <= length (2^bits - 1)^2 < 2^(2 bits + log2 length): the library's own count.
    const zgpu::PrimeSet set = zgpu::PrimeSet::for_bits(2 * std::uint64_t(c.bits) + ceil_log2(length), true);
    const std::vector<limb_t> primes(set.moduli().begin(), set.moduli().end());
    const std::size_t k = primes.size();
    const std::uint32_t n = kernels::poly_ntt_length(length, length);
    DeviceArena arena;
    const kernels::ModularTables host_tables = kernels::make_modular_tables(primes);
    const kernels::ModularTablesView tables = upload_modular(arena, host_tables);
    const kernels::PolyNttTablesView ntt = ntt_tables(arena, primes, n);

    // Operands as limb batches, reduced to residues, multiplied, reconstructed.
    std::vector<limb_t> host_limbs;
    std::vector<std::int32_t> host_sizes;
    zgpu::BatchView x[2];
    for (int side = 0; side < 2; ++side) {
        to_limbs((side ? d.b.p : d.a.p)->coeffs, c.length, limbs, host_limbs, host_sizes);
        x[side] = {arena.upload(host_limbs), arena.upload(host_sizes), length, limbs};
    }
    const std::size_t in_stride = round32(length), out_stride = round32(out_length);
    const kernels::ResidueView ra{arena.alloc<limb_t>(k * in_stride), length, k, in_stride};
    const kernels::ResidueView rb{arena.alloc<limb_t>(k * in_stride), length, k, in_stride};
    const kernels::ResidueView rr{arena.alloc<limb_t>(k * out_stride), out_length, k, out_stride};
    const std::vector<std::uint64_t> zero{0};
    const std::uint64_t* offsets = arena.upload(zero);
    const std::uint32_t* in_lengths = arena.upload(std::vector<std::uint32_t>{std::uint32_t(length)});
    const std::uint32_t* out_lengths = arena.upload(std::vector<std::uint32_t>{std::uint32_t(out_length)});
    const std::uint32_t p_limbs = tables.product_limbs;
    const zgpu::BatchView result{arena.alloc<limb_t>(out_length * p_limbs), arena.alloc<std::int32_t>(out_length), out_length, p_limbs};

    DeviceRow row{std::to_string(c.length) + " x " + std::to_string(c.bits) + " bits", k, n, 0, 0, 0,
                  ntt_imads(1, double(k), n), d.flint_all, 0};
    row.reduction = event_seconds([&] {
        kernels::multi_mod(x[0], tables, ra, nullptr);
        kernels::multi_mod(x[1], tables, rb, nullptr);
    });
    row.product = event_seconds([&] {
        kernels::poly_mul({ra, offsets, in_lengths}, {rb, offsets, in_lengths}, false, 1, n, ntt, {rr, offsets, out_lengths}, nullptr);
    });
    row.crt = event_seconds([&] { kernels::multi_crt(rr, tables, true, result, nullptr); });
    check(cudaDeviceSynchronize(), "device-resident product");

    // The reconstructed coefficients against FLINT's.
    const std::vector<limb_t> out = download(result.limbs, out_length * p_limbs);
    const std::vector<std::int32_t> sizes = download(result.sizes, out_length);
    fmpz_t v;
    fmpz_init(v);
    const fmpz_poly_struct* expected = d.flint.p;
    for (std::uint64_t i = 0; i < out_length; ++i) {
        fmpz_set_ui_array(v, out.data() + i * p_limbs, std::abs(sizes[i]));
        if (sizes[i] < 0) fmpz_neg(v, v);
        const bool same = slong(i) < expected->length ? fmpz_equal(v, expected->coeffs + i) : fmpz_is_zero(v);
        if (!same)
            fail("device-resident product at length " + std::to_string(c.length) + ", " + std::to_string(c.bits) + " bits: coefficient " +
                 std::to_string(i) + " differs from FLINT's");
    }
    fmpz_clear(v);
    return row;
}

// The batch's products against FLINT's.
void check_device_batch(const NmodBatch& d, const limb_t* out, std::uint64_t out_length, const char* who)
{
    const std::vector<limb_t> host = download(out, std::size_t(d.count) * out_length);
    for (slong j = 0; j < d.count; ++j) {
        const nmod_poly_struct& e = d.flint[j];
        for (std::uint64_t i = 0; i < out_length; ++i)
            if (host[j * out_length + i] != (slong(i) < e.length ? e.coeffs[i] : 0))
                fail(std::string("device-resident batch (") + who + "): product " + std::to_string(j) + ", coefficient " +
                     std::to_string(i) + " differs from FLINT's");
    }
}

// The batch through three 62-bit primes and crt_to_moduli, and through the five 29-bit primes
// with the CRT in the same kernel.
std::vector<DeviceRow> batch_device(const NmodBatch& d, const Timing& flint_all)
{
    const std::vector<limb_t> primes = kernels::ntt_primes(3);
    const std::size_t k = primes.size();
    const std::uint64_t length = kBatchLength, out_length = 2 * length - 1, count = kBatchCount;
    const std::uint32_t n = kernels::poly_ntt_length(length, length);
    DeviceArena arena;
    const kernels::PolyNttTablesView ntt = ntt_tables(arena, primes, n);

    // Garner's constants of the three primes, and each modulus's radix p_0 ... p_(l-1) mod n_j.
    const std::vector<kernels::Field64> fields = fields_of(primes);
    std::vector<limb_t> below(k * k, 0), inverse(k);
    for (std::size_t i = 0; i < k; ++i) {
        limb_t prefix = 1;
        for (std::size_t l = 0; l < i; ++l) {
            below[i * k + l] = fields[i].to_montgomery(prefix);
            prefix = kernels::mul_mod(prefix, primes[l] % primes[i], primes[i]);
        }
        inverse[i] = fields[i].to_montgomery(kernels::pow_mod(prefix, primes[i] - 2, primes[i]));
    }
    const kernels::GarnerView garner{k, arena.upload(fields), arena.upload(below), arena.upload(inverse)};
    std::vector<kernels::Modulus> moduli;
    std::vector<limb_t> radix(count * k);
    std::vector<limb_t> a_words(count * length), b_words(count * length);
    std::vector<std::uint64_t> in_offsets(count), out_offsets(count);
    for (std::uint64_t j = 0; j < count; ++j) {
        const limb_t m = d.a[j].mod.n;
        moduli.push_back(kernels::make_modulus(m));
        limb_t prefix = 1;
        for (std::size_t l = 0; l < k; ++l) {
            radix[j * k + l] = prefix;
            prefix = kernels::mul_mod(prefix, primes[l] % m, m);
        }
        std::copy(d.a[j].coeffs, d.a[j].coeffs + length, a_words.begin() + std::ptrdiff_t(j * length));
        std::copy(d.b[j].coeffs, d.b[j].coeffs + length, b_words.begin() + std::ptrdiff_t(j * length));
        in_offsets[j] = j * length;
        out_offsets[j] = j * out_length;
    }
    // The coefficients go in as they are (prime_stride 0): poly_mul reduces them modulo each prime.
    const kernels::ResidueView a_values{arena.upload(a_words), count * length, k, 0};
    const kernels::ResidueView b_values{arena.upload(b_words), count * length, k, 0};
    const std::uint64_t* d_in_offsets = arena.upload(in_offsets);
    const std::uint64_t* d_out_offsets = arena.upload(out_offsets);
    const std::uint32_t* d_in_lengths = arena.upload(std::vector<std::uint32_t>(count, std::uint32_t(length)));
    const std::uint32_t* d_out_lengths = arena.upload(std::vector<std::uint32_t>(count, std::uint32_t(out_length)));
    const std::size_t stride = round32(count * out_length);
    const kernels::ResidueView rr{arena.alloc<limb_t>(k * stride), count * out_length, k, stride};
    const kernels::Modulus* d_moduli = arena.upload(moduli);
    const limb_t* d_radix = arena.upload(radix);
    limb_t* out = arena.alloc<limb_t>(count * out_length);

    DeviceRow row{"10^4 x 1024, 62-bit moduli", k, n, -1, 0, 0, ntt_imads(double(count), double(k), n), flint_all, 100};
    row.product = event_seconds([&] {
        kernels::poly_mul({a_values, d_in_offsets, d_in_lengths}, {b_values, d_in_offsets, d_in_lengths}, false, count, n, ntt,
                          {rr, d_out_offsets, d_out_lengths}, nullptr);
    });
    row.crt = event_seconds([&] {
        kernels::crt_to_moduli(rr, garner, d_moduli, d_radix, d_out_offsets, d_out_lengths, count, std::uint32_t(out_length), out, nullptr);
    });
    check(cudaDeviceSynchronize(), "device-resident batch");

    check_device_batch(d, out, out_length, "three primes");

    std::vector<limb_t> moduli_words(count);
    for (std::uint64_t j = 0; j < count; ++j) moduli_words[j] = d.a[j].mod.n;
    const limb_t* d_moduli_words = arena.upload(moduli_words);
    std::vector<kernels::Twiddle> five_tables(2 * kernels::kFivePrimeCount * kernels::kPolyMulModNMaxLength);
    kernels::fill_five_prime_tables(std::span(five_tables).first(five_tables.size() / 2),
                                    std::span(five_tables).subspan(five_tables.size() / 2));
    const kernels::Twiddle* d_five = arena.upload(five_tables);
    const kernels::FivePrimeTablesView five{d_five, d_five + five_tables.size() / 2};
    const kernels::ResidueView a_words_view{a_values.data, count * length, 1, 0}, b_words_view{b_values.data, count * length, 1, 0};
    const kernels::ResidueView out_view{out, count * out_length, 1, 0};
    check(cudaMemset(out, 0, count * out_length * sizeof(limb_t)), "clearing the batch's products");
    DeviceRow fused{"10^4 x 1024, 62-bit moduli, five 29-bit primes, CRT fused", kernels::kFivePrimeCount, n, -1, 0, 0,
                    ntt_imads(double(count), kernels::kFivePrimeCount, n, 3, 3), flint_all, 100};
    fused.product = event_seconds([&] {
        kernels::poly_mul_mod_n({a_words_view, d_in_offsets, d_in_lengths}, {b_words_view, d_in_offsets, d_in_lengths}, false, count, n,
                                d_moduli_words, five, {out_view, d_out_offsets, d_out_lengths}, nullptr);
    });
    check(cudaDeviceSynchronize(), "device-resident batch, five primes");
    check_device_batch(d, out, out_length, "five primes");
    return {row, fused};
}

void print_device(const std::vector<DeviceRow>& rows, double imad_peak, unsigned threads)
{
    std::printf("### 2. Device-resident: residues already on the device\n\n");
    std::printf("CUDA events, median of 10, ms. k: primes (fmpz: PrimeSet::for_bits(2 bits + log2 length, signed), the largest "
                "primes 1 mod 2^32 below 2^62; the batch: the three largest); N: transform length. reduction: multi_mod of a and b "
                "(the batch: none, its coefficients go in as words, reduced on the way); product: kernels::poly_mul; CRT: multi_crt "
                "(signed) of the 2 length - 1 coefficients, for the batch crt_to_moduli to each pair's 62-bit modulus; the batch "
                "through five 29-bit primes: kernels::poly_mul_mod_n, reduction, products and CRT in one kernel (its product time "
                "includes the CRT; its IMADs: 3 a butterfly, two 32-bit products and a high half, and 3 a pointwise step, one Montgomery "
                "product whose scale the CRT takes). NTT IMAD "
                "share: 10 IMADs a butterfly (a product by a twiddle with Shoup's companion: 4 for the high half of x w_shoup, 3 "
                "each for the low halves of x w and q p) and 22 a pointwise step (two Montgomery products), times (3 transforms x N/2 "
                "log2 N butterflies + N pointwise steps) x k a product, over the peak %.3g IMAD/s "
                "(64 a clock an SM x SMs x clock), of the product's time. x FLINT-%u: FLINT's %u-thread time of section 1 over the "
                "product alone and over reduction + product + CRT; target: the issue's device-resident x FLINT-%u (the batch; for the "
                "NTT IMAD share it aims at 40 %%). Results are checked against FLINT's.\n\n",
                imad_peak, threads, threads, threads);
    std::printf("| shape | k | N | reduction ms | product ms | CRT ms | total ms | NTT IMAD share | FLINT %u threads ms | x FLINT-%u, "
                "product | x FLINT-%u, total | target |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                threads, threads, threads);
    for (const DeviceRow& r : rows) {
        const double total = std::max(0.0, r.reduction) + r.product + r.crt;
        std::printf("| %s | %zu | %u | %s | %s | %s | %s | %.1f %% | %s | %s | %s | %s |\n", r.shape.c_str(), r.primes, r.n,
                    r.reduction < 0 ? "-" : ms(r.reduction).c_str(), ms(r.product).c_str(), ms(r.crt).c_str(), ms(total).c_str(),
                    100 * r.imads / r.product / imad_peak, ms(r.flint_all).c_str(), ratio(r.flint_all, r.product).c_str(),
                    ratio(r.flint_all, total).c_str(), r.target > 0 ? factor(r.target).c_str() : "-");
    }
    std::printf("\n");
    std::fflush(stdout);
}

// ---- Section 3: crossover ----------------------------------------------------------------------

struct CrossRow {
    const char* op;
    unsigned bits;
    slong length;
    ZgpuTiming cpu, gpu, automatic;
};

// The three backends of a row, each timed as zgpu_time does (its steady state after calls for
// kWarmSeconds), twice: in the order cpu, gpu, auto and then backwards, the faster of the two
// medians of each; then one call on each, whose result check(backend) checks. Timed in turns
// call by call, a call right after a CPU-backend call ran up to 1.7 times slower (host threads
// slow to wake), which a program calling one backend does not see; once each, the host's drift
// fell on one backend.
void time_twice(CrossRow& row, const std::function<int()>& call, const std::function<void(const char*)>& check)
{
    const char* backends[] = {"cpu", "gpu", "auto"};
    ZgpuTiming* timings[] = {&row.cpu, &row.gpu, &row.automatic};
    for (const int pass : {0, 1})
        for (int j = 0; j < 3; ++j) {
            const int k = pass ? 2 - j : j;
            const ZgpuTiming t = zgpu_time(backends[k], call);
            if (pass == 0 || t.time.seconds < timings[k]->time.seconds) *timings[k] = t;
        }
    for (int k = 0; k < 3; ++k) {
        setenv("ZGPU_BACKEND", backends[k], 1);
        if (call() != 0) fail(std::string("ZGPU_BACKEND=") + backends[k] + ": " + zgpu_last_error());
        check(backends[k]);
    }
    unsetenv("ZGPU_BACKEND");
}

CrossRow nmod_cross(slong length)
{
    const ulong p = random_prime62(77);
    NmodPoly a(p), b(p), expected(p), r(p);
    random_nmod_poly(a.p, length, 31);
    random_nmod_poly(b.p, length, 32);
    nmod_poly_mul(expected.p, a.p, b.p);
    CrossRow row{"nmod_poly_mul", 62, length, {}, {}, {}};
    const auto call = [&] { return zgpu_nmod_poly_mul(r.p, a.p, b.p); };
    const std::string what = "crossover: nmod_poly_mul at length " + std::to_string(length);
    time_twice(row, call, [&](const char* backend) {
        check_nmod(r.p, expected.p, what + ", ZGPU_BACKEND=" + backend + ",");
        nmod_poly_zero(r.p);
    });
    return row;
}

CrossRow fmpz_cross(slong length, unsigned bits)
{
    FmpzPoly a, b, expected, r;
    random_fmpz_poly(a.p, length, bits, 41 + std::uint64_t(length));
    random_fmpz_poly(b.p, length, bits, 43 + std::uint64_t(length));
    fmpz_poly_mul(expected.p, a.p, b.p);
    CrossRow row{"fmpz_poly_mul", bits, length, {}, {}, {}};
    const auto call = [&] { return zgpu_fmpz_poly_mul(r.p, a.p, b.p); };
    time_twice(row, call, [&](const char* backend) {
        check_fmpz(r.p, expected.p, (std::string("crossover, ZGPU_BACKEND=") + backend).c_str(), length, bits);
        fmpz_poly_zero(r.p);
    });
    return row;
}

void print_cross(const std::vector<CrossRow>& rows)
{
    std::printf("### 3. Crossover of the automatic choice, end to end\n\n");
    std::printf("Equal lengths, ms: each backend after 0.3 s of calls the median of 3 (of 11 under 50 ms), measured twice (in the order "
                "cpu, gpu, auto, then backwards), the faster of the two. cpu: ZGPU_BACKEND=cpu (FLINT's function on all host "
                "threads); gpu: ZGPU_BACKEND=gpu (the backend that ran it, if not the GPU, in brackets); auto: the automatic choice "
                "and the backend it picked; faster: the faster forced backend; auto / best: auto's time over the faster one's (the "
                "issue allows 1.10).\n\n");
    std::printf("| op | bits | length | cpu ms | gpu ms | auto ms | auto backend | faster | gpu / cpu | auto / best |\n"
                "|---|---:|---:|---:|---:|---:|---|---|---:|---:|\n");
    for (const CrossRow& r : rows) {
        const double cpu = r.cpu.time.seconds, gpu = r.gpu.time.seconds;
        std::printf("| %s | %u | %ld | %s | %s%s | %s | %s | %s | %.2f | %.2f |\n", r.op, r.bits, long(r.length), ms(r.cpu.time).c_str(),
                    ms(r.gpu.time).c_str(), backend_note(r.gpu, "gpu").c_str(), ms(r.automatic.time).c_str(), r.automatic.ran.c_str(),
                    gpu < cpu ? "gpu" : "cpu", gpu / cpu, r.automatic.time.seconds / std::min(cpu, gpu));
    }
    std::printf("\n");
    std::fflush(stdout);
}

// ---- The header --------------------------------------------------------------------------------

// Pinned host <-> device copies of 256 MiB, GB/s: up (host to device) and down.
std::pair<double, double> measure_pcie()
{
    const std::size_t bytes = std::size_t(256) << 20;
    void *host = nullptr, *device = nullptr;
    check(cudaMallocHost(&host, bytes), "cudaMallocHost");
    check(cudaMalloc(&device, bytes), "cudaMalloc");
    std::memset(host, 1, bytes);
    const auto rate = [&](bool up) {
        return double(bytes) / median_seconds(5, [&] {
            check(up ? cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice) : cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost),
                  "cudaMemcpy");
        }, [] { check(cudaDeviceSynchronize(), "synchronize"); });
    };
    const double up = rate(true), down = rate(false);
    cudaFree(device);
    cudaFreeHost(host);
    return {up, down};
}

// One small product on each path, so that the GPU's start (context, pools, tables) is not in any
// warm-up that decides whether a timing is one call.
void start_gpu()
{
    setenv("ZGPU_BACKEND", "gpu", 1);
    FmpzPoly a, r;
    random_fmpz_poly(a.p, 64, 64, 1);
    NmodPoly x(random_prime62(5)), y(x.p->mod.n);
    random_nmod_poly(x.p, 64, 1);
    if (zgpu_fmpz_poly_mul(r.p, a.p, a.p) != 0 || zgpu_nmod_poly_mul(y.p, x.p, x.p) != 0) fail(zgpu_last_error());
    unsetenv("ZGPU_BACKEND");
}

// The transforms alone, device-resident, without FLINT: `products` products of two random
// polynomials of `length` residues modulo `primes` NTT primes, timed by CUDA events; three
// coefficients of the last product checked against the schoolbook sum.
void transform_row(std::size_t products, std::uint64_t length, std::size_t primes, double imad_peak)
{
    const std::vector<limb_t> p = kernels::ntt_primes(primes);
    const std::uint64_t out_length = 2 * length - 1;
    const std::uint32_t n = kernels::poly_ntt_length(length, length);
    DeviceArena arena;
    const kernels::PolyNttTablesView ntt = ntt_tables(arena, p, n);
    const std::size_t in_stride = round32(products * length), out_stride = round32(products * out_length);
    std::vector<limb_t> a(primes * in_stride), b(primes * in_stride);
    for (std::size_t i = 0; i < primes; ++i)
        for (std::size_t e = 0; e < products * length; ++e) {
            a[i * in_stride + e] = mix(3 * (i * in_stride + e)) % p[i];
            b[i * in_stride + e] = mix(3 * (i * in_stride + e) + 1) % p[i];
        }
    std::vector<std::uint64_t> in_offsets(products), out_offsets(products);
    for (std::size_t j = 0; j < products; ++j) in_offsets[j] = j * length, out_offsets[j] = j * out_length;
    const std::uint64_t *d_in = arena.upload(in_offsets), *d_out = arena.upload(out_offsets);
    const std::uint32_t* d_in_lengths = arena.upload(std::vector<std::uint32_t>(products, std::uint32_t(length)));
    const std::uint32_t* d_out_lengths = arena.upload(std::vector<std::uint32_t>(products, std::uint32_t(out_length)));
    const kernels::ResidueView av{arena.upload(a), products * length, primes, in_stride}, bv{arena.upload(b), products * length, primes, in_stride};
    const kernels::ResidueView rv{arena.alloc<limb_t>(primes * out_stride), products * out_length, primes, out_stride};
    const double t = event_seconds([&] {
        kernels::poly_mul({av, d_in, d_in_lengths}, {bv, d_in, d_in_lengths}, false, products, n, ntt, {rv, d_out, d_out_lengths}, nullptr);
    });
    const std::size_t i = primes - 1, j = products - 1;
    const std::vector<limb_t> r = download(rv.data + i * out_stride + j * out_length, out_length);
    const limb_t* x = a.data() + i * in_stride + j * length;
    const limb_t* y = b.data() + i * in_stride + j * length;
    for (const std::uint64_t c : {std::uint64_t(0), length - 1, out_length - 1}) {
        limb_t sum = 0;
        for (std::uint64_t k = c >= length ? c - length + 1 : 0; k <= std::min(c, length - 1); ++k)
            sum = limb_t((sum + (unsigned __int128)x[k] * y[c - k]) % p[i]);
        if (sum != r[c]) fail("transforms: product " + std::to_string(j) + " coefficient " + std::to_string(c) + " differs from the schoolbook sum");
    }
    const double imads = ntt_imads(double(products), double(primes), n);
    std::printf("| %zu x %llu | %zu | 2^%d | %.3f | %.1f %% |\n", products, static_cast<unsigned long long>(length), primes,
                std::countr_zero(n), 1e3 * t, 100 * imads / t / imad_peak);
}

int transforms_only()
{
    const DeviceInfo device = device_info();
    std::printf("## zgpu polynomial products: the transforms alone\n\ndevice: %s; IMAD peak %.3g a second; %s\n\n"
                "poly_mul on device-resident residues, CUDA events, median of 10. IMAD share: 3 transforms of N/2 log2 N "
                "butterflies of 10 IMADs and N pointwise steps of 22 a prime, over the peak.\n\n"
                "| products x length | primes | N | ms | IMAD share |\n|---|---:|---:|---:|---:|\n",
                device.prop.name, device.imad_peak, device.date);
    transform_row(10000, 1024, 3, device.imad_peak);
    transform_row(1, std::uint64_t(1) << 16, 34, device.imad_peak);
    transform_row(1, std::uint64_t(1) << 18, 9, device.imad_peak);
    transform_row(1, std::uint64_t(1) << 12, 529, device.imad_peak);
    transform_row(1, std::uint64_t(1) << 20, 3, device.imad_peak);
    return 0;
}

// The three sections, in order; the tables printed as each ends.
int run()
{
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const char* skip_env = std::getenv("ZGPU_BENCH_SKIP_FLINT1");
    const bool skip_big = skip_env && std::string(skip_env) != "0";
    const DeviceInfo device = device_info();
    const cudaDeviceProp& prop = device.prop;
    const double imad_peak = device.imad_peak;
    const std::pair<double, double> pcie = measure_pcie();
    const double pcie_up = pcie.first, pcie_down = pcie.second;
    std::printf("## zgpu polynomial products benchmark\n\n");
    std::printf("device: %s, %d SMs, %.2f GHz; IMAD peak %.3g a second (64 a clock an SM); host threads: %u; FLINT %s; %s\n\n",
                prop.name, prop.multiProcessorCount, device.clock_ghz, imad_peak, threads, flint_version, device.date);
    std::printf("PCIe bound: %.0f GB/s a direction assumed (pinned copies on the H200 hosts); measured in this run, pinned 256 MiB "
                "copies: up %.1f GB/s, down %.1f GB/s.%s\n\n",
                kPcieBytesPerSecond / 1e9, pcie_up / 1e9, pcie_down / 1e9,
                skip_big ? " ZGPU_BENCH_SKIP_FLINT1: FLINT's one-thread runs of the largest cases left out." : "");
    std::fflush(stdout);
    start_gpu();

    // 1. End to end.
    const std::vector<FmpzCase> fmpz_cases = {
        {slong(1) << 14, 1024, 20, false}, {slong(1) << 16, 1024, 30, false}, {slong(1) << 16, 4096, 30, true},
        {slong(1) << 18, 256, 30, true},   {slong(1) << 12, 16384, 20, true}};
    std::vector<std::unique_ptr<FmpzData>> fmpz_data;
    std::vector<EndToEndRow> rows;
    for (const FmpzCase& c : fmpz_cases) {
        fmpz_data.push_back(std::make_unique<FmpzData>());
        fmpz_data.back()->c = c;
        rows.push_back(fmpz_end_to_end(*fmpz_data.back(), threads, skip_big));
    }
    rows.push_back(nmod_end_to_end(slong(1) << 20, false, 20, threads, skip_big));
    rows.push_back(nmod_end_to_end(slong(1) << 22, true, 20, threads, skip_big));
    // Beyond the GPU's longest transform (2^24): in pieces.
    rows.push_back(nmod_end_to_end((slong(1) << 24) + 1, true, 0, threads, skip_big));
    NmodBatch batch(kBatchCount, kBatchLength);
    Timing batch_flint_all;
    {
        HostThreads pool(threads);
        rows.push_back(batch_end_to_end(batch, pool, skip_big, batch_flint_all));
    }
    print_end_to_end(rows, threads);

    // 2. Device-resident.
    std::vector<DeviceRow> device_rows;
    for (const auto& d : fmpz_data) device_rows.push_back(fmpz_device(*d));
    for (const DeviceRow& r : batch_device(batch, batch_flint_all)) device_rows.push_back(r);
    print_device(device_rows, imad_peak, threads);
    fmpz_data.clear();

    // 3. Crossover.
    std::vector<CrossRow> cross;
    for (slong length = 64; length <= (slong(1) << 20); length *= 4) cross.push_back(nmod_cross(length));
    for (slong length = 16; length <= (slong(1) << 16); length *= 4) cross.push_back(fmpz_cross(length, 64));
    for (slong length = 16; length <= (slong(1) << 14); length *= 4) cross.push_back(fmpz_cross(length, 1024));
    print_cross(cross);
    flint_cleanup_master();
    return 0;
}

}  // namespace

// With the argument "transforms", only the device-resident transforms (no FLINT), for work on
// the NTT.
int main(int argc, char** argv)
{
    try {
        if (argc > 1 && std::string(argv[1]) == "transforms") return transforms_only();
        return run();
    } catch (const std::exception& e) {  // zgpu::Error from the kernels' calls
        fail(e.what());
    }
}
