// The rank, determinant and LU of one matrix mod a prime from host rows (matrix_backend.hpp):
// the rows gathered into pinned memory and uploaded band by band (host_rows.hpp), then a blocked
// LU of two levels on the device; the LU's factors come back and take FLINT's form on the host
// (lu_factors.hpp).
// Blocks of kLuBlock columns each run their panels (kernels/matrix/lu_panel_mod.hpp) with
// updates inside the block only; then the block's pivot rows become U's rows right of it (a
// triangular solve, panel by panel), and the rest of the matrix takes one update of inner
// dimension kLuBlock, which the tensor cores do (plugin/gpu/matrix/product_mod.hpp). With
// panels' updates over the whole width the tensor cores never served: each had 16 inner terms.
// The determinant needs a pivot in every column, so each panel's place is known in advance and
// the host waits once, at the end; the rank reads each panel's pivot count back before the
// next, and ends a block at a panel with fewer pivots than columns (its multipliers must fill
// the block's first columns); the determinant reads the state every kLuProgressPanels panels,
// and stops there once a column has had no pivot. The factors run as the rank does, and also
// finish U's rows right of the last block where the pivots ran out of rows. ZGPU_TIMING=1 prints
// the split; progress lines count the columns done.
#include <algorithm>
#include <bit>
#include <optional>
#include <cstdio>
#include <vector>

#include "kernels/common/temporary.hpp"
#include "kernels/matrix/lu_panel_mod.hpp"
#include "plugin/gpu/matrix/blocked_lu.hpp"
#include "plugin/gpu/matrix/host_rows.hpp"
#include "plugin/gpu/matrix/lu_factors.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/runtime.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {
namespace {

static_assert(kLuPanelColumns == kernels::kLuPanel);

// Columns of a block: the inner dimension of its wide update (bench/NOTES-matrices.md).
constexpr std::size_t kLuBlock = 256;

// full_factors: the factors at the determinant's pace (no readback a panel), which stops at the
// first column without a pivot.
enum class Goal { rank, determinant, factors, full_factors };

// The LU of one matrix on the device, block by block.
class BlockedLu {
public:
    BlockedLu(Runtime& runtime, kernels::MatricesView a, kernels::LuState* state, kernels::LuPanelTop* top, kernels::LuState* readback,
              limb_t p, Goal goal)
        : runtime_(runtime), a_(a), state_(state), top_(top), readback_(readback), bits_(unsigned(std::bit_width(p))),
          determinant_(goal == Goal::determinant || goal == Goal::full_factors),
          factors_(goal == Goal::factors || goal == Goal::full_factors), tile_rows_limit_(kernels::lu_panel_prepare())
    {
    }

    // Eliminates every column; columns_done as eliminate()'s. Returns the panels run.
    std::size_t run(const std::function<void(std::uint64_t)>& columns_done)
    {
        const std::size_t m = a_.rows, cols = a_.cols;
        std::size_t k0 = 0;
        while (k0 < cols && rank_ < m && !stopped_) {
            const std::size_t block_begin = k0, block_rank = rank_, block_end = std::min(cols, k0 + kLuBlock);
            const std::size_t block_panels = panels_.size();
            bool full = true;
            while (k0 < block_end && rank_ < m && full && !stopped_) {
                const std::size_t k1 = std::min(block_end, k0 + kernels::kLuPanel);
                const std::size_t q = panel(k0, k1, block_end, columns_done);
                panels_.push_back({rank_, q, k0, k1});
                rank_ += q;
                full = q == k1 - k0;
                k0 = k1;
            }
            if (!stopped_) finish_block(std::span(panels_).subspan(block_panels), block_begin, block_rank, block_end);
        }
        return panels_.size();
    }

    // The panels run, in order.
    const std::vector<LuPanel>& panels() const { return panels_; }

    // Reads the state back, waiting for the work queued.
    const kernels::LuState& read_state(const char* what)
    {
        check(cudaMemcpyAsync(readback_, state_, sizeof *readback_, cudaMemcpyDeviceToHost, runtime_.stream()),
              "reading the elimination's state");
        runtime_.synchronize(what);
        return *readback_;
    }

    // Tells columns_done of the columns not yet reported, once the work is done.
    void report_rest(const std::function<void(std::uint64_t)>& columns_done) const
    {
        if (columns_done && reported_ < a_.cols) columns_done(a_.cols - reported_);
    }

private:
    void submul(kernels::ConstMatricesView l, kernels::ConstMatricesView u, kernels::MatricesView c)
    {
        if (l.rows > 0 && l.cols > 0 && u.cols > 0) mat_submul_mod(runtime_, l, u, &state_->p, bits_, c);
    }

    // Panel k0 .. k1 - 1 of a block ending at block_end, with its update inside the block; its
    // pivot count.
    std::size_t panel(std::size_t k0, std::size_t k1, std::size_t block_end, const std::function<void(std::uint64_t)>& columns_done)
    {
        const std::size_t m = a_.rows;
        kernels::lu_panel_mod(a_, k0, k1 - k0, determinant_, m - rank_, tile_rows_limit_, block_end, state_, top_, runtime_.stream());
        // A determinant's panel finds a pivot in every column, or the elimination has stopped: it
        // reads the state every kLuProgressPanels panels, to stop its updates too.
        std::size_t q = k1 - k0;
        const bool report = !determinant_ || (panels_.size() + 1) % kLuProgressPanels == 0;
        if (!determinant_) {
            q = read_state("a panel of an LU mod p").pivots;
        } else if (report) {
            stopped_ = read_state("a panel of an LU mod p").stopped != 0;
        }
        if (columns_done && report) {
            columns_done(k1 - reported_);
            reported_ = k1;
        }
        if (!stopped_ && q > 0 && rank_ + q < m) {
            kernels::MatricesView inside_block = a_;
            inside_block.cols = block_end;
            const kernels::LuTrailingUpdate update = kernels::lu_trailing_update(inside_block, rank_, q, k0, k1);
            submul(update.l, update.u, update.a);
        }
        return q;
    }

    // After a block's panels: its pivot rows become U's rows right of it, each panel's after the
    // panels above it have reached them, and the rows below lose their part, one wide update.
    void finish_block(std::span<const LuPanel> panels, std::size_t block_begin, std::size_t block_rank, std::size_t block_end)
    {
        const std::size_t m = a_.rows, cols = a_.cols, q = rank_ - block_rank;
        // With a pivot in every row the elimination is over: only the factors read U.
        if (q == 0 || block_end == cols || (rank_ == m && !factors_)) return;
        for (const LuPanel& pp : panels) {
            kernels::lu_substitute_mod(a_, pp.r0, pp.q, pp.k0, block_end, cols, state_, runtime_.stream());
            const std::size_t next = pp.r0 + pp.q;
            submul(a_.block(next, pp.k0, rank_ - next, pp.q), a_.block(pp.r0, block_end, pp.q, cols - block_end),
                   a_.block(next, block_end, rank_ - next, cols - block_end));
        }
        submul(a_.block(rank_, block_begin, m - rank_, q), a_.block(block_rank, block_end, q, cols - block_end),
               a_.block(rank_, block_end, m - rank_, cols - block_end));
    }

    Runtime& runtime_;
    kernels::MatricesView a_;
    kernels::LuState* state_;
    kernels::LuPanelTop* top_;
    kernels::LuState* readback_;
    unsigned bits_;
    bool determinant_, factors_;
    std::size_t tile_rows_limit_;
    std::size_t rank_ = 0, reported_ = 0;
    std::vector<LuPanel> panels_;
    bool stopped_ = false;
};

constexpr std::size_t kStateBytes = sizeof(kernels::LuState) + sizeof(kernels::LuPanelTop);
static_assert(sizeof(kernels::LuState) % alignof(kernels::LuPanelTop) == 0 && kStateBytes % sizeof(limb_t) == 0);

// Where the factors go: out_rows (FLINT's form) and each pivot's row swap and column.
struct FactorsOut {
    std::span<limb_t* const> rows;
    LuPivots& pivots;
};

// The elimination's final state: rows in [0, p), p prime. columns_done, where not empty, is told
// of the columns eliminated. With Goal::factors, `factors` receives them.
kernels::LuState eliminate(std::span<const limb_t* const> rows, std::size_t cols, limb_t p, Goal goal,
                           const std::function<void(std::uint64_t)>& columns_done, const FactorsOut* factors = nullptr)
{
    const std::size_t m = rows.size(), words = m * cols, most_pivots = goal == Goal::factors ? std::min(m, cols) : 0;
    const Clock::time_point start = Clock::now();
    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    limb_t* host = reinterpret_cast<limb_t*>(runtime.staging(words * sizeof(limb_t)));
    std::byte* device = runtime.scratch(kStateBytes + words * sizeof(limb_t) + most_pivots * sizeof(kernels::LuPivot));
    auto* state = reinterpret_cast<kernels::LuState*>(device);
    auto* top = reinterpret_cast<kernels::LuPanelTop*>(device + sizeof(kernels::LuState));
    const kernels::MatricesView a{reinterpret_cast<limb_t*>(device + kStateBytes), m, cols, cols, words, 1};
    enum Phase { kUpload, kElimination, kDownload };
    PhaseTimes times(3);
    kernels::LuState* readback = runtime.readback<kernels::LuState>();
    // A fresh state and the rows up (the readback is free: the last pass read its state).
    const auto upload = [&] {
        *readback = kernels::LuState{};
        readback->p = kernels::make_modulus(p);
        if (most_pivots) readback->record = reinterpret_cast<kernels::LuPivot*>(a.data + words);
        times.begin(kUpload, stream);
        check(cudaMemcpyAsync(state, readback, sizeof *readback, cudaMemcpyHostToDevice, stream), "uploading the elimination's state");
        upload_rows(rows, cols, host, a.data, stream);
        times.end(kUpload, stream);
    };
    upload();
    const Clock::time_point queued = Clock::now();
    // Factors of a matrix with no more columns than rows go at the determinant's pace first: a
    // pivot in every column is the common case. Where a column has none, they start over from
    // the rows, panel by panel (progress lines stay with the first pass).
    const Goal first = goal == Goal::factors && m >= cols ? Goal::full_factors : goal;
    const char* state_what = goal == Goal::determinant ? "a determinant mod p" : "an LU mod p";
    times.begin(kElimination, stream);
    BlockedLu lu(runtime, a, state, top, readback, p, first);
    std::size_t panels = lu.run(columns_done);
    times.end(kElimination, stream);
    kernels::LuState result = lu.read_state(state_what);
    std::optional<BlockedLu> again;
    if (first == Goal::full_factors && result.stopped) {
        upload();
        times.begin(kElimination, stream);
        again.emplace(runtime, a, state, top, readback, p, Goal::factors);
        panels += again->run({});
        times.end(kElimination, stream);
        result = again->read_state(state_what);
    }
    const char* what = goal == Goal::determinant ? "determinant" : goal == Goal::rank ? "rank" : "LU";
    double form_ms = 0;
    if (factors) {
        std::vector<kernels::LuPivot> record(result.rank);
        times.begin(kDownload, stream);
        check(cudaMemcpyAsync(record.data(), result.record, record.size() * sizeof record[0], cudaMemcpyDeviceToHost, stream),
              "downloading the LU's pivots");
        check(cudaMemcpyAsync(host, a.data, words * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading the LU");
        times.end(kDownload, stream);
        runtime.synchronize("downloading an LU mod p");
        const Clock::time_point formed = Clock::now();
        factors->pivots.rows.resize(record.size());
        factors->pivots.columns.resize(record.size());
        for (std::size_t t = 0; t < record.size(); ++t) {
            factors->pivots.rows[t] = std::size_t(record[t].row);
            factors->pivots.columns[t] = std::size_t(record[t].column);
        }
        flint_form_of_lu(host, m, cols, (again ? *again : lu).panels(), factors->pivots.columns, factors->rows);
        form_ms = milliseconds(Clock::now() - formed);
    }
    lu.report_rest(columns_done);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: %s of %zu x %zu mod %llu on the GPU: gathering while uploading %.2f ms on the host, upload %.2f ms, "
                     "elimination %.2f ms (%zu panels), download %.2f ms, FLINT's form %.2f ms on the host, total %.2f ms\n",
                     what, m, cols, static_cast<unsigned long long>(p), milliseconds(queued - start), times.milliseconds(kUpload),
                     times.milliseconds(kElimination), panels, factors ? times.milliseconds(kDownload) : 0.0, form_ms,
                     milliseconds(Clock::now() - start));
    return result;
}

}  // namespace

limb_t det_by_blocked_lu(Runtime& runtime, kernels::MatricesView a, limb_t p)
{
    const cudaStream_t stream = runtime.stream();
    const kernels::StreamMemory memory(kStateBytes, stream);
    auto* state = static_cast<kernels::LuState*>(memory.data());
    auto* top = reinterpret_cast<kernels::LuPanelTop*>(static_cast<std::byte*>(memory.data()) + sizeof(kernels::LuState));
    // The readback is free: every user of it waits for the stream before it returns.
    kernels::LuState* readback = runtime.readback<kernels::LuState>();
    *readback = kernels::LuState{};
    readback->p = kernels::make_modulus(p);
    check(cudaMemcpyAsync(state, readback, sizeof *readback, cudaMemcpyHostToDevice, stream), "uploading the elimination's state");
    BlockedLu lu(runtime, a, state, top, readback, p, Goal::determinant);
    lu.run({});
    const kernels::LuState s = lu.read_state("a determinant mod p");
    return s.stopped ? 0 : s.det;
}

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

LuPivots nmod_mat_lu(std::span<const limb_t* const> rows, std::size_t cols, limb_t p, std::span<limb_t* const> out_rows,
                     const std::function<void(std::uint64_t)>& columns_done)
{
    LuPivots pivots;
    const FactorsOut factors{out_rows, pivots};
    eliminate(rows, cols, p, Goal::factors, columns_done, &factors);
    return pivots;
}

}  // namespace zgpu::gpu
