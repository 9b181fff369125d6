// A thread that queues a call's GPU work in the order it is posted, while the calling thread
// packs and unpacks on the host threads: the CUDA and cuBLAS calls of a pipelined pass take
// milliseconds of one host thread, during which the others would wait (fmpz_mat_mul's bands:
// 2.1 to 2.7 ms of 22, bench/NOTES-matrices.md).
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

class QueueThread {
public:
    // The thread makes the runtime's device current, then polls for work (yielding the
    // processor) until the object ends.
    explicit QueueThread(const Runtime& runtime);
    // Runs no more work, and joins: the caller drains the streams after.
    ~QueueThread();
    QueueThread(const QueueThread&) = delete;
    QueueThread& operator=(const QueueThread&) = delete;

    // Posts `work`; returns its number, counted from 1.
    std::size_t post(std::function<void()> work);
    // Returns once work `ticket` and all before it have run (0: at once). Rethrows the first
    // error any work threw; work posted after it is not run.
    void wait(std::size_t ticket);

private:
    void run(int device);

    std::mutex mutex_;
    std::deque<std::function<void()>> posted_;
    std::size_t tickets_ = 0;
    std::atomic<std::size_t> done_{0};
    std::atomic<bool> failed_{false}, stopping_{false};
    std::exception_ptr error_;
    std::thread thread_;
};

}  // namespace zgpu::gpu
