#include "plugin/matrix/nmod_mat_lu.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <flint/ulong_extras.h>

#include "base/parallel.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/gpu_or_host.hpp"
#include "plugin/host_ops/machine_terms.hpp"
#include "plugin/host_ops/progress.hpp"
#include "plugin/matrix/nmod_mat_rows.hpp"
#include "plugin/host_ops/flint_threads.hpp"

namespace zgpu::matrix {
namespace {

// FLINT 3.6's nmod_mat_det and nmod_mat_rank (an LU by blocks on nmod_mat_mul) modulo a 62-bit
// prime on one thread, H200 host (bench/results/2026-11-26-h200-lu-blocks-133356f.md): 4e-10 s a
// term of rows cols min(rows, cols) at 100 x 100 (0.40 ms; 0.69 ms in the next run), 2.4e-10 at
// 1024 and 2e-10 at 2048. The model takes 3.5e-10, right where the choice is made (about 120 x
// 120). The CPU backend gives FLINT its threads from 1 ms of work. On 16 threads FLINT was 1.15
// times faster at 256, 1.7 at 512, 2.4 at 1024 and 3.4 at 2048 (its threads run the products
// inside): about 1 + log2(one thread's time / 4 ms) / 3, at most threads / 4.
constexpr double kFlintSecondsPerTerm = 3.5e-10;
constexpr double kFlintThreadsPayFromSeconds = 4e-3;
constexpr double kFlintThreadedFromSeconds = 1e-3;

// The GPU, same run: a fixed cost a call, the matrix through pinned memory and PCIe, and per
// panel of 16 columns about 65 microseconds of latency (launches, a barrier-bound block) and
// 117 ns a row below the panel's first (one block's pace; half the rows on average), 15
// microseconds more where the rank waits for each panel; the trailing updates' multiply-adds
// (machine_terms.hpp). It measured 0.28 ms at 64 x 64, 8.1 ms at 1024 and 27 ms
// at 2048.
constexpr double kGpuSecondsPerCall = 0.02e-3;
constexpr double kGpuBytesPerSecond = 10e9;
constexpr double kGpuSecondsPerPanel = 65e-6, kGpuSecondsPerRankPanel = 80e-6;
constexpr double kGpuSecondsPerPanelRow = 117e-9;

double terms(std::size_t rows, std::size_t cols) { return double(rows) * double(cols) * double(std::min(rows, cols)); }

template <class Result>
Result on_host(const nmod_mat_struct* a, Result (*flint)(const nmod_mat_struct*))
{
    const bool threaded = terms(std::size_t(a->r), std::size_t(a->c)) * kFlintSecondsPerTerm >= kFlintThreadedFromSeconds;
    const FlintThreads threads(threaded ? host_threads() : 1);
    return flint(a);
}

ulong flint_det(const nmod_mat_struct* a) { return ::nmod_mat_det(a); }
slong flint_rank(const nmod_mat_struct* a) { return ::nmod_mat_rank(a); }

ulong gpu_det(const nmod_mat_struct* a, const std::function<void(std::uint64_t)>& columns_done)
{
    return gpu::nmod_mat_det(rows_of<const limb_t*>(a), a->mod.n, columns_done);
}
slong gpu_rank(const nmod_mat_struct* a, const std::function<void(std::uint64_t)>& columns_done)
{
    return slong(gpu::nmod_mat_rank(rows_of<const limb_t*>(a), std::size_t(a->c), a->mod.n, columns_done));
}

bool empty(const nmod_mat_struct* a) { return a->r == 0 || a->c == 0; }
// The GPU's elimination needs a prime (FLINT's determinant takes any modulus) and an entry.
bool gpu_can(const nmod_mat_struct* a) { return !empty(a) && n_is_prime(a->mod.n); }

// `what` names the function for progress lines, `failure` the computation for the warning.
template <class Result, class Gpu>
Result on(Backend backend, const nmod_mat_struct* a, const Gpu& gpu, Result (*flint)(const nmod_mat_struct*), const char* what,
          const char* failure)
{
    // The primality test only where the GPU would run: small matrices stay as cheap as FLINT's.
    if (backend != Backend::cpu && !gpu_can(a)) backend = Backend::cpu;
    Progress progress(std::string(what) + ", " + std::to_string(a->r) + " x " + std::to_string(a->c) + " mod " + std::to_string(a->mod.n),
                      terms(std::size_t(a->r), std::size_t(a->c)) * kFlintSecondsPerTerm, std::uint64_t(a->c));
    // Only where lines are shown: the GPU's determinant then waits for its panels now and then.
    std::function<void(std::uint64_t)> columns_done;
    if (progress.on()) columns_done = [&](std::uint64_t columns) { progress.advance(columns); };
    Result result{};
    const auto host = [&] { result = on_host(a, flint); };
    Backend ran = backend;
    run_on(
        backend, [&] { return ran = gpu_or_host([&] { result = gpu(a, columns_done); }, host, failure); }, host);
    progress.ran_on(ran);
    return result;
}

// ZGPU_BACKEND=gpu forces the GPU where it can run (on() tests that).
Backend choice(const nmod_mat_struct* a, bool rank_mode)
{
    if (empty(a)) return Backend::cpu;
    return choose(gpu_pays_for_nmod_mat_lu(std::size_t(a->r), std::size_t(a->c), rank_mode, host_threads()));
}

}  // namespace

bool gpu_pays_for_nmod_mat_lu(std::size_t rows, std::size_t cols, bool rank_mode, unsigned threads)
{
    const double one = terms(rows, cols) * kFlintSecondsPerTerm;
    const double speedup = 1 + std::log2(std::max(1.0, one / kFlintThreadsPayFromSeconds)) / 3;
    const double cpu = one / std::clamp(speedup, 1.0, std::max(1.0, double(threads) / 4));
    const double panels = double((cols + gpu::kLuPanelColumns - 1) / gpu::kLuPanelColumns);
    const double gpu = kGpuSecondsPerCall + 8.0 * double(rows) * double(cols) / kGpuBytesPerSecond +
                       panels * ((rank_mode ? kGpuSecondsPerRankPanel : kGpuSecondsPerPanel) + double(rows) / 2 * kGpuSecondsPerPanelRow) +
                       terms(rows, cols) / 3 * machine::kGpuSecondsPerTermMod;
    return gpu < cpu;
}

ulong nmod_mat_lu_det_on(Backend backend, const nmod_mat_struct* a, const NmodMatDetGpu& gpu)
{
    return on(backend, a, gpu, flint_det, "nmod_mat_det", "a determinant mod p");
}

slong nmod_mat_lu_rank_on(Backend backend, const nmod_mat_struct* a, const NmodMatRankGpu& gpu)
{
    return on(backend, a, gpu, flint_rank, "nmod_mat_rank", "a rank mod p");
}

ulong nmod_mat_lu_det(const nmod_mat_struct* a) { return nmod_mat_lu_det_on(choice(a, false), a, gpu_det); }
slong nmod_mat_lu_rank(const nmod_mat_struct* a) { return nmod_mat_lu_rank_on(choice(a, true), a, gpu_rank); }

}  // namespace zgpu::matrix
