// zgpu_nmod_mat_lu and zgpu_nmod_mat_rref end to end (a FLINT matrix in, its factors or echelon
// form back in it) on the GPU and by the automatic choice, next to FLINT's nmod_mat_lu and
// nmod_mat_rref on one and on all host threads, modulo a 62-bit prime.
// Bounds: the LU's rows cols min / 3 multiply-adds at 8 IMADs each against the IMAD peak, and
// the matrix over PCIe twice (up, and the factors down) at 55 GB/s.
// Checks: the echelon form equals FLINT's (it is unique); the LU's rank equals FLINT's, and for a
// square matrix the sign of P times U's diagonal (the determinant) equals FLINT's.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <flint/flint.h>
#include <flint/nmod.h>
#include <flint/nmod_mat.h>

#include "bench_support.cuh"
#include "zgpu/zgpu.h"
#include "zgpu/zgpu_matrix.h"

namespace {

constexpr double kPcieBytesPerSecond = 55e9;
constexpr ulong kPrime62 = (ulong(1) << 62) - 57;

std::string ms(double seconds) { return std::to_string(1e3 * seconds).substr(0, 8); }

// The sign of P times the diagonal of the packed factors lu (a square matrix's determinant).
ulong determinant_of_factors(const nmod_mat_t lu, const std::vector<slong>& P)
{
    ulong d = 1;
    std::vector<bool> seen(P.size());
    std::size_t cycles = 0;
    for (std::size_t i = 0; i < P.size(); ++i) {
        d = nmod_mul(d, nmod_mat_entry(lu, slong(i), slong(i)), lu->mod);
        if (seen[i]) continue;
        ++cycles;
        for (std::size_t j = i; !seen[j]; j = std::size_t(P[j])) seen[j] = true;
    }
    return (P.size() - cycles) % 2 ? nmod_neg(d, lu->mod) : d;
}

// One row: nmod_mat_lu (rref: false) or nmod_mat_rref of a rows x cols matrix of rank `rank`.
void row(bool rref, slong rows, slong cols, slong rank, unsigned threads, bool flint_one_thread, double imad_peak)
{
    Mat a(rows, cols, kPrime62), work(rows, cols, kPrime62), theirs(rows, cols, kPrime62);
    fill_of_rank(a.m, rank, std::uint64_t(rows * 1000 + cols));
    std::vector<slong> P(static_cast<std::size_t>(rows)), Q(static_cast<std::size_t>(rows));
    slong rank_ours = -1, rank_theirs = -1;
    const auto flint_call = [&] {
        nmod_mat_set(theirs.m, a.m);
        rank_theirs = rref ? nmod_mat_rref(theirs.m) : nmod_mat_lu(Q.data(), theirs.m, 0);
    };
    const auto zgpu_call = [&] {
        nmod_mat_set(work.m, a.m);
        return rref ? zgpu_nmod_mat_rref(&rank_ours, work.m) : zgpu_nmod_mat_lu(&rank_ours, P.data(), work.m, 0);
    };
    const double flint_all = flint_second_call_seconds(int(threads), flint_call);
    const double flint_one = flint_one_thread ? flint_second_call_seconds(1, flint_call) : 0;
    const double gpu = zgpu_seconds("gpu", zgpu_call);
    const auto check = [&](const char* backend) {
        bool same = rank_ours == rank_theirs;
        if (rref) same = same && nmod_mat_equal(work.m, theirs.m);
        else if (rows == cols) same = same && determinant_of_factors(work.m, P) == determinant_of_factors(theirs.m, Q);
        if (same) return;
        std::fprintf(stderr, "%s of %ld x %ld: the %s's differs from FLINT's\n", rref ? "rref" : "lu", long(rows), long(cols), backend);
        std::exit(1);
    };
    check("GPU");
    const double automatic = zgpu_seconds("auto", zgpu_call);
    const std::string picked = zgpu_last_backend();
    check(picked.c_str());
    // The copy of a into the work matrix is inside every timing, as in FLINT's.
    const double terms = double(rows) * double(cols) * double(std::min(rows, cols)) / 3;
    const double update_at_peak = 8 * terms / imad_peak, pcie = 2 * 8.0 * double(rows) * double(cols) / kPcieBytesPerSecond;
    std::printf("| %s | %ld x %ld | %ld | %s | %s (%s) | %s | %s | %.1f | %s | %.3f | %.3f | %.0f %% |\n", rref ? "rref" : "lu", long(rows),
                long(cols), long(rank), ms(gpu).c_str(), ms(automatic).c_str(), picked.c_str(), flint_one_thread ? ms(flint_one).c_str() : "-",
                ms(flint_all).c_str(), flint_all / gpu, flint_one_thread ? std::to_string(flint_one / gpu).substr(0, 6).c_str() : "-",
                1e3 * update_at_peak, 1e3 * pcie, 100 * (update_at_peak + pcie) / gpu);
}

}  // namespace

// With the argument "all-threads", FLINT runs on all host threads only (no one-thread column).
int main(int argc, char** argv)
{
    const bool one_thread = !(argc > 1 && std::string(argv[1]) == "all-threads");
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const DeviceInfo device = device_info();
    std::printf("## zgpu LU factors and reduced echelon forms mod p of one matrix\n\ndevice: %s, %d SMs, %.2f GHz; IMAD peak %.3g a "
                "second; host threads: %u; FLINT %s; %s\n\n",
                device.prop.name, device.prop.multiProcessorCount, device.clock_ghz, device.imad_peak, threads, flint_version,
                device.date);
    std::printf("Modulo the prime 2^62 - 57. gpu / auto: ZGPU_BACKEND, median of 5 after two calls, auto's backend in brackets. "
                "FLINT 1 / %u: nmod_mat_lu or nmod_mat_rref with flint_set_num_threads(1) / (%u), its second call in this "
                "process. Each call copies the matrix into the one it factors first. Bounds: rows cols min / 3 multiply-adds, "
                "8 IMADs each, at the IMAD peak, and the matrix over PCIe twice at 55 GB/s; share: both over the gpu time. "
                "Checked against FLINT: the rank, the echelon form, and a square matrix's determinant from the factors.\n\n"
                "| | shape | rank | gpu ms | auto ms | FLINT 1 ms | FLINT %u ms | x FLINT-%u | x FLINT-1 | update at peak ms | "
                "PCIe ms | share |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                threads, threads, threads, threads);
    for (const bool rref : {false, true}) {
        for (const slong n : {128, 256, 512, 1024, 2048}) row(rref, n, n, n, threads, one_thread, device.imad_peak);
        row(rref, 4096, 4096, 4096, threads, false, device.imad_peak);
        row(rref, 2048, 2048, 1024, threads, one_thread, device.imad_peak);
        row(rref, 1000, 4000, 1000, threads, one_thread, device.imad_peak);
        row(rref, 4000, 1000, 600, threads, one_thread, device.imad_peak);
    }
    flint_cleanup_master();
    return 0;
}
