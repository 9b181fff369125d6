// The rank and determinant of one matrix mod a prime from host rows (matrix_backend.hpp): the
// rows gathered into pinned memory, one upload, then a blocked LU on the device: panels of
// kernels/matrix/lu_panel_mod.hpp, each followed by its trailing update (mat_submul_mod) on the
// whole GPU. The determinant needs a pivot in every column, so each panel's place is known in
// advance and the host waits once, at the end; the rank reads each panel's pivot count back
// before the next; the determinant reads it every kLuProgressPanels panels, and stops there
// once a column has had no pivot. ZGPU_TIMING=1 prints the split; progress lines count the
// columns done.
#include <algorithm>
#include <cstdio>

#include "kernels/matrix/lu_panel_mod.hpp"
#include "kernels/matrix/mat_mul_mod.hpp"
#include "plugin/gpu/matrix/host_rows.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/runtime.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {
namespace {

static_assert(kLuPanelColumns == kernels::kLuPanel);

enum class Goal { rank, determinant };

// The elimination's final state: rows in [0, p), p prime.
kernels::LuState eliminate(std::span<const limb_t* const> rows, std::size_t cols, limb_t p, Goal goal,
                           const std::function<void(std::uint64_t)>& columns_done)
{
    const std::size_t m = rows.size(), words = m * cols;
    const Clock::time_point start = Clock::now();
    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    limb_t* host = reinterpret_cast<limb_t*>(runtime.staging(words * sizeof(limb_t)));
    std::byte* device = runtime.scratch(sizeof(kernels::LuState) + words * sizeof(limb_t));
    auto* state = reinterpret_cast<kernels::LuState*>(device);
    const kernels::MatricesView a{reinterpret_cast<limb_t*>(device + sizeof(kernels::LuState)), m, cols, cols, words, 1};
    gather_rows(rows, cols, host);
    const Clock::time_point gathered = Clock::now();

    enum Phase { kUpload, kElimination };
    PhaseTimes times(2);
    kernels::LuState* readback = runtime.readback<kernels::LuState>();
    *readback = kernels::LuState{};
    readback->p = kernels::make_modulus(p);
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(state, readback, sizeof *readback, cudaMemcpyHostToDevice, stream), "uploading the elimination's state");
    check(cudaMemcpyAsync(a.data, host, words * sizeof(limb_t), cudaMemcpyHostToDevice, stream), "uploading a matrix");
    times.end(kUpload, stream);
    times.begin(kElimination, stream);
    const bool determinant = goal == Goal::determinant;
    const auto read_state = [&](const char* what) {
        check(cudaMemcpyAsync(readback, state, sizeof *readback, cudaMemcpyDeviceToHost, stream), "reading the elimination's state");
        runtime.synchronize(what);
    };
    const std::size_t tile_rows_limit = kernels::lu_panel_prepare();
    std::size_t rank = 0, panels = 0, reported = 0;
    for (std::size_t k0 = 0; k0 < cols && rank < m; k0 += kernels::kLuPanel, ++panels) {
        const std::size_t k1 = std::min(cols, k0 + kernels::kLuPanel);
        kernels::lu_panel_mod(a, k0, k1 - k0, determinant, m - rank, tile_rows_limit, state, stream);
        // A determinant's panel finds a pivot in every column, or the elimination has stopped: it
        // reads the state every kLuProgressPanels panels, to stop its trailing updates too.
        std::size_t pivots = k1 - k0;
        if (!determinant) {
            read_state("a panel of an LU mod p");
            pivots = readback->pivots;
        } else if ((panels + 1) % kLuProgressPanels == 0) {
            read_state("a panel of an LU mod p");
            if (readback->stopped) break;
        }
        if (columns_done && (!determinant || (panels + 1) % kLuProgressPanels == 0)) {
            columns_done(k1 - reported);
            reported = k1;
        }
        if (pivots > 0 && k1 < cols && rank + pivots < m) {
            const kernels::LuTrailingUpdate update = kernels::lu_trailing_update(a, rank, pivots, k0, k1);
            kernels::mat_submul_mod(update.l, update.u, &state->p, update.a, stream);
        }
        rank += pivots;
    }
    times.end(kElimination, stream);
    read_state(determinant ? "a determinant mod p" : "a rank mod p");
    if (columns_done && reported < cols) columns_done(cols - reported);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: %s of %zu x %zu mod %llu on the GPU: gathering %.2f ms, upload %.2f ms, elimination %.2f ms (%zu panels), "
                     "total %.2f ms\n",
                     determinant ? "determinant" : "rank", m, cols, static_cast<unsigned long long>(p), milliseconds(gathered - start),
                     times.milliseconds(kUpload), times.milliseconds(kElimination), panels, milliseconds(Clock::now() - start));
    return *readback;
}

}  // namespace

limb_t nmod_mat_det(std::span<const limb_t* const> rows, limb_t p, const std::function<void(std::uint64_t)>& columns_done)
{
    const kernels::LuState s = eliminate(rows, rows.size(), p, Goal::determinant, columns_done);
    return s.stopped ? 0 : s.det;
}

std::size_t nmod_mat_rank(std::span<const limb_t* const> rows, std::size_t cols, limb_t p,
                          const std::function<void(std::uint64_t)>& columns_done)
{
    return std::size_t(eliminate(rows, cols, p, Goal::rank, columns_done).rank);
}

}  // namespace zgpu::gpu
