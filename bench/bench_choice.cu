// The automatic choice for host data: products, addmul by a scalar and divisions of fmpz
// vectors on each backend, forced (ZGPU_BACKEND=cpu, gpu) and automatic, by element count,
// end to end (fmpz in and out). The rules in plugin/host_choice.cpp are fitted to this table;
// run it to refit them on another host. Markdown table, medians of 5.
//   bench_choice
#include <string>

#include <flint/fmpz_vec.h>

#include "bench_support.cuh"

namespace {

// One row: the op on each backend, the automatic choice and which backend was faster.
void row(const char* op, std::uint32_t bits, slong count, double mib_moved, const std::function<int()>& call)
{
    const double cpu = 1e3 * zgpu_seconds("cpu", call), gpu = 1e3 * zgpu_seconds("gpu", call);
    const double automatic = 1e3 * zgpu_seconds("auto", call);
    const std::string chosen = zgpu_last_backend();
    std::printf("| %s | %u | %ld | %.1f | %.3f | %.3f | %.3f (%s) | %s |\n", op, bits, long(count), mib_moved, cpu, gpu, automatic,
                chosen.c_str(), gpu < cpu ? "gpu" : "cpu");
}

void products(std::uint32_t bits, slong count)
{
    const std::uint32_t n = bits / 64;
    fmpz *a = _fmpz_vec_init(count), *b = _fmpz_vec_init(count), *r = _fmpz_vec_init(count);
    fill_fmpz(a, count, n, 5);
    fill_fmpz(b, count, n, 6);
    const double mib = 8.0 * n / (1 << 20) * count;
    row("mul", bits, count, 4 * mib, [&] { return zgpu_fmpz_vec_mul(r, a, b, count); });
    row("addmul by b[0]", bits, count, 5 * mib, [&] { return zgpu_fmpz_vec_scalar_addmul_fmpz(r, a, count, b); });
    for (fmpz* v : {a, b, r}) _fmpz_vec_clear(v, count);
}

// Dividends of `bits` bits, divisors of half as many.
void divisions(std::uint32_t bits, slong count)
{
    const std::uint32_t n = bits / 64;
    fmpz *a = _fmpz_vec_init(count), *b = _fmpz_vec_init(count), *q = _fmpz_vec_init(count), *r = _fmpz_vec_init(count);
    fill_fmpz(q, count, n / 2, 5);
    fill_fmpz(b, count, n / 2, 6);
    for (slong i = 0; i < count; ++i) fmpz_mul(a + i, q + i, b + i);
    const double mib = 8.0 * n / (1 << 20) * count;
    row("divexact", bits, count, 2 * mib, [&] { return zgpu_fmpz_vec_divexact(q, a, b, count); });
    row("fdiv_qr", bits, count, 2.5 * mib, [&] { return zgpu_fmpz_vec_fdiv_qr(q, r, a, b, count); });
    for (fmpz* v : {a, b, q, r}) _fmpz_vec_clear(v, count);
}

}  // namespace

int main()
{
    std::printf("## zgpu automatic choice for host data\n\nhost threads: %u; ms, medians of 5; MiB moved: operands (a "
                "shared b once) and results\n\n", std::thread::hardware_concurrency());
    std::printf("| op | bits | count | MiB moved | cpu ms | gpu ms | auto ms (backend) | faster |\n|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (const std::uint32_t bits : {1024u, 2048u, 4096u, 16384u, 65536u, 262144u, 1048576u})
        for (slong count = bits >= 16384 ? 1 : 256; 32.0 * (bits / 64) * count <= 64.0 * (1 << 20); count *= 4) products(bits, count);
    for (const std::uint32_t bits : {4096u, 16384u, 32768u, 131072u})
        for (slong count = bits >= 32768 ? 1 : 64; 16 * (bits / 64) * count <= (64 << 20); count *= 4) divisions(bits, count);
    flint_cleanup_master();
    return 0;
}
