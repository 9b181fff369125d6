// Work split across the host threads, for conversions and the CPU backend on large batches.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>

namespace zgpu {

// Threads used for host work: ZGPU_THREADS if set, else the cores this process may run on (its
// CPU affinity at the first call, which an MPI launcher's binding sets), else all hardware threads.
unsigned host_threads();

// Registers hook to run on each pool thread just before it ends (at exit), for libraries that
// keep memory per thread (the plugin registers FLINT's flint_cleanup). Registering the same
// hook again does nothing; at most 4 hooks.
void on_worker_exit(void (*hook)());

// Calls body(begin, end) on disjoint ranges covering [0, n): inline, in one range, when n is
// below min_parallel (where threads would cost more than they save); else on all host threads,
// in ranges of about n / (4 * threads). The first exception thrown by a body is rethrown here after all
// ranges are done. A call made while the pool is busy (another thread's call, or a nested
// one) runs inline.
void parallel_for(std::size_t n, std::size_t min_parallel, const std::function<void(std::size_t, std::size_t)>& body);

// While one lives, idle pool threads poll for the next parallel_for instead of sleeping, and the
// caller polls for their end: for callers that call parallel_for every few hundred microseconds
// (the GPU path packs and unpacks each chunk; every host operation checks, computes and writes
// in turn), where waking sleeping threads costs about 40 microseconds a call (H200 host, 16
// threads) and made the pipeline's 2 MiB chunks twice as slow. Between operations the threads
// sleep, so that they take no time from a busy machine.
class KeepWorkersAwake {
public:
    KeepWorkersAwake();
    ~KeepWorkersAwake();
    KeepWorkersAwake(const KeepWorkersAwake&) = delete;
    KeepWorkersAwake& operator=(const KeepWorkersAwake&) = delete;
};

// The same on [first, last): body(begin, end) gets indices from first on.
inline void parallel_for(std::size_t first, std::size_t last, std::size_t min_parallel,
                         const std::function<void(std::size_t, std::size_t)>& body)
{
    parallel_for(last - first, min_parallel, [&](std::size_t begin, std::size_t end) { body(first + begin, first + end); });
}

// body(i) for each row i of `rows`, each of about row_length entries: on the host threads from
// 2^16 entries in all, where threads cost less than they save.
inline void parallel_rows(std::size_t rows, std::size_t row_length, const std::function<void(std::size_t)>& body)
{
    const std::size_t rows_inline = std::max<std::size_t>(1, (std::size_t(1) << 16) / std::max<std::size_t>(row_length, 1));
    parallel_for(rows, rows_inline, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) body(i);
    });
}

}  // namespace zgpu
