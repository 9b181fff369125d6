// Products of a vector of mixed sizes, fmpz in and out through zgpu_fmpz_vec_mul on the GPU
// path: 2^20 64-bit values and 16 values of 2^20 bits (at shuffled places, in both vectors),
// which run in size groups (plugin/gpu/grouped_run.hpp) instead of padding every element to
// 2^20 bits (2^20 products of 2^20 bits: 128 GiB an operand, which no GPU holds). Timed next to
// its two parts alone and to FLINT's fmpz_mul loop on one and on all host threads; a markdown
// table. Median of 5 after two warm-up calls.
//   bench_mixed [small_count] [huge_count] [huge_bits]    (defaults 2^20, 16, 2^20)
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "bench_support.cuh"

namespace {

// Two vectors to multiply, elementwise, and room for the products.
struct Operands {
    Operands(slong small_count, slong huge_count, std::uint32_t huge_limbs) : n(small_count + huge_count)
    {
        a = _fmpz_vec_init(n);
        b = _fmpz_vec_init(n);
        r = _fmpz_vec_init(n);
        fill_fmpz(a, n, 1, 1);
        fill_fmpz(b, n, 1, 2);
        std::vector<slong> places(n);
        std::iota(places.begin(), places.end(), slong(0));
        std::shuffle(places.begin(), places.end(), std::mt19937_64(3));
        for (slong k = 0; k < huge_count; ++k) {
            fill_fmpz(a + places[k], 1, huge_limbs, 4 + k);
            fill_fmpz(b + places[k], 1, huge_limbs, 1000 + k);
        }
    }
    ~Operands()
    {
        _fmpz_vec_clear(a, n);
        _fmpz_vec_clear(b, n);
        _fmpz_vec_clear(r, n);
    }
    Operands(const Operands&) = delete;
    Operands& operator=(const Operands&) = delete;

    slong n;
    fmpz *a, *b, *r;
};

double zgpu_gpu_seconds(const Operands& x)
{
    return zgpu_seconds("gpu", [&] { return zgpu_fmpz_vec_mul(x.r, x.a, x.b, x.n); });
}

double flint_seconds(const Operands& x, unsigned threads)
{
    return median_seconds(5, [&] {
        on_threads(x.n, threads, [&](slong begin, slong end) {
            for (slong i = begin; i < end; ++i) fmpz_mul(x.r + i, x.a + i, x.b + i);
        });
    }, [] {});
}

}  // namespace

int main(int argc, char** argv)
{
    const slong small_count = argc > 1 ? std::atol(argv[1]) : slong(1) << 20;
    const slong huge_count = argc > 2 ? std::atol(argv[2]) : 16;
    const std::uint32_t huge_bits = argc > 3 ? std::atoi(argv[3]) : 1u << 20;
    const std::uint32_t huge_limbs = huge_bits / 64;
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::printf("## zgpu products of mixed sizes, fmpz in and out\n\ndevice: %s; host threads: %u\n\n", prop.name, threads);
    std::printf("%ld 64-bit values and %ld of %u bits at shuffled places, in both vectors; zgpu_fmpz_vec_mul with "
                "ZGPU_BACKEND=gpu (size groups), its parts alone, and FLINT's fmpz_mul loop. Median of 5, ms.\n\n",
                long(small_count), long(huge_count), huge_bits);
    std::printf("| products | zgpu GPU ms | FLINT 1 thread ms | FLINT %u threads ms |\n|---|---:|---:|---:|\n", threads);
    const auto row = [&](const char* name, slong small, slong huge) {
        const Operands x(small, huge, huge_limbs);
        std::printf("| %s | %.2f | %.2f | %.2f |\n", name, 1e3 * zgpu_gpu_seconds(x), 1e3 * flint_seconds(x, 1),
                    1e3 * flint_seconds(x, threads));
        std::fflush(stdout);
    };
    row("mixed: both parts in one vector", small_count, huge_count);
    row("small part alone (64-bit)", small_count, 0);
    row("huge part alone", 0, huge_count);
    flint_cleanup_master();
    return 0;
}
