#include "plugin/host_ops/flint_threads.hpp"

#include <algorithm>
#include <mutex>

#include <flint/flint.h>
#include <flint/thread_pool.h>

namespace zgpu {
namespace {

// The pool is FLINT's global one. flint_set_num_threads would resize it too, but aborts where
// another thread holds some of its workers; thread_pool_set_size fails instead, and the call
// then runs with the workers there are.
void grow_pool(slong workers)
{
    static std::mutex mutex;
    const std::lock_guard<std::mutex> lock(mutex);
    if (!global_thread_pool_initialized) {
        thread_pool_init(global_thread_pool, workers);
        global_thread_pool_initialized = 1;
    } else if (thread_pool_get_size(global_thread_pool) < workers) {
        thread_pool_set_size(global_thread_pool, workers);
    }
}

}  // namespace

FlintThreads::FlintThreads(unsigned threads) : old_workers_(flint_get_num_threads() - 1)
{
    const int workers = int(std::max(1u, threads)) - 1;
    if (workers > old_workers_) {
        grow_pool(workers);
        _flint_set_num_workers(workers);
    } else {
        flint_set_num_workers(workers);
    }
}

FlintThreads::~FlintThreads() { flint_reset_num_workers(old_workers_); }

}  // namespace zgpu
