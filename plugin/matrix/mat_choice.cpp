#include "plugin/matrix/mat_choice.hpp"

#include <algorithm>

#include "plugin/host_ops/machine_terms.hpp"

namespace zgpu::matrix {
namespace {

// FLINT 3.6's nmod_mat_mul on the H200 host (bench/results/2026-11-26-h200-matrix-first.md): on one
// thread about 8e-10 s a multiply-add modulo a 62-bit prime from 64 x 64 to 1024 x 1024 (5e-10
// at 2048, where Strassen starts), and 1.4 times less for a 20-bit modulus; on 32 threads 14 to
// 20 times faster from 256 x 256 and 4 times at 128 x 128 (1.6 ms on one), but slower than one
// thread at 64 x 64 (0.25 ms): the threads' start costs 0.2 to 0.3 ms.
constexpr double kFlintSecondsPerTerm = 8e-10;
constexpr double kFlintSmallModulusSpeedup = 1.4;
constexpr double kFlintThreadShare = 0.55;
constexpr double kFlintThreadedFromSeconds = 1e-3;
constexpr double kFlintThreadedAtLeastSeconds = 0.3e-3;

// The GPU path on the H200: about 0.1 ms a call (launch, synchronisation, host copies), the
// three matrices through pinned memory and PCIe at about 30 GB/s in all, and the kernel's
// multiply-adds (machine_terms.hpp).
constexpr double kGpuSecondsPerCall = 0.1e-3;
constexpr double kGpuBytesPerSecond = 30e9;

double terms(const MatShape& s) { return double(s.rows) * double(s.inner) * double(s.cols); }

}  // namespace

double flint_nmod_mat_seconds(const MatShape& s)
{
    const double per_term = s.bits <= 32 ? kFlintSecondsPerTerm / kFlintSmallModulusSpeedup : kFlintSecondsPerTerm;
    return terms(s) * per_term;
}

bool cpu_uses_threads(const MatShape& s) { return flint_nmod_mat_seconds(s) >= kFlintThreadedFromSeconds; }

bool gpu_pays_for_nmod_mat_mul(const MatShape& s, unsigned threads)
{
    const double one = flint_nmod_mat_seconds(s);
    const double cpu =
        cpu_uses_threads(s) ? std::max(kFlintThreadedAtLeastSeconds, one / std::max(1.0, kFlintThreadShare * double(threads))) : one;
    const double bytes = 8.0 * double(s.rows * s.inner + s.inner * s.cols + s.rows * s.cols);
    const double gpu = kGpuSecondsPerCall + bytes / kGpuBytesPerSecond + terms(s) * machine::kGpuSecondsPerTermMod;
    return gpu < cpu;
}

}  // namespace zgpu::matrix
