#include "base/parallel.hpp"
#include "base/settings.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace zgpu {
namespace {

thread_local bool inside_parallel_for = false;  // nested calls run inline

std::atomic<int> awake_requests{0};  // KeepWorkersAwake objects alive

// Polls until ready(), yielding the processor, while some KeepWorkersAwake lives; whether ready.
template <class Ready>
bool poll_while_awake(Ready ready)
{
    while (awake_requests.load(std::memory_order_relaxed) > 0)
        if (ready()) return true;
        else std::this_thread::yield();
    return ready();
}

// Functions run on each worker before it ends. Constant-initialized, with no destructor, so
// registering is safe at any time, static initialization included, and the pool (destroyed at
// exit) still finds them.
constexpr std::size_t kMaxExitHooks = 4;
std::atomic<void (*)()> exit_hooks[kMaxExitHooks] = {};

void run_exit_hooks()
{
    for (auto& hook : exit_hooks)
        if (void (*f)() = hook.load()) f();
}

// Workers live as long as the process, so libraries that keep per-thread caches (FLINT's
// mpz pool) do not lose them at every call. Between jobs they sleep on a condition variable,
// unless a KeepWorkersAwake asks them to poll.
//
// A job is done when its last element is, not when every worker has seen it: a worker the
// system has not run yet (its core busy with another thread) would otherwise hold the caller
// back by up to a time slice. On the H200 host, packing 256 coefficients of 4096 bits took 2
// to 7 ms instead of 0.1 that way, several times a call of Arb's power series. A worker that
// wakes after its job has closed finds it closed and leaves its fields alone; the caller waits
// only for workers between taking a job and finding it closed, a few instructions.
class Pool {
public:
    explicit Pool(unsigned workers)
    {
        for (unsigned k = 0; k < workers; ++k) threads_.emplace_back([this] { work(); });
    }

    ~Pool()
    {
        {
            std::lock_guard<std::mutex> guard(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (auto& t : threads_) t.join();
    }

    std::mutex& busy() { return busy_; }

    // Runs the job on the workers and the calling thread; the caller holds busy().
    void run(std::size_t n, std::size_t grain, const std::function<void(std::size_t, std::size_t)>& body)
    {
        {
            // No worker is inside a job here (the last run waited for them), so the fields are
            // the caller's until open_ publishes them.
            std::lock_guard<std::mutex> guard(mutex_);
            body_ = &body;
            n_ = n;
            grain_ = grain;
            next_ = 0;
            remaining_ = n;
            error_ = nullptr;
            open_ = true;
            ++generation_;  // wakes polling workers
        }
        wake_.notify_all();
        inside_parallel_for = true;
        take_ranges();
        inside_parallel_for = false;
        wait_until([this] { return remaining_ == 0; });
        open_ = false;
        wait_until([this] { return active_ == 0; });
        body_ = nullptr;
        if (error_) std::rethrow_exception(error_);
    }

private:
    template <class Ready>
    void wait_until(Ready ready)
    {
        if (poll_while_awake(ready)) return;
        std::unique_lock<std::mutex> guard(mutex_);
        done_.wait(guard, ready);
    }

    // After a change that may end a wait: the caller checks its condition under the mutex.
    void notify_caller()
    {
        std::lock_guard<std::mutex> guard(mutex_);
        done_.notify_one();
    }

    void take_ranges()
    {
        for (;;) {
            const std::size_t begin = next_.fetch_add(grain_);
            if (begin >= n_) return;
            const std::size_t end = std::min(n_, begin + grain_);
            try {
                (*body_)(begin, end);
            } catch (...) {
                std::lock_guard<std::mutex> guard(mutex_);
                if (!error_) error_ = std::current_exception();
            }
            if (remaining_.fetch_sub(end - begin) == end - begin) notify_caller();
        }
    }

    void work()
    {
        inside_parallel_for = true;
        std::size_t seen = 0;
        // A worker that sees the job while polling takes it without the mutex: 15 workers
        // locking it at the start and end of every job queued on it made the GPU path's chunks
        // a third slower end to end.
        for (;;) {
            if (!poll_while_awake([&] { return stopping_ || generation_ != seen; })) {
                std::unique_lock<std::mutex> guard(mutex_);
                wake_.wait(guard, [&] { return stopping_ || generation_ != seen; });
            }
            if (stopping_) break;
            seen = generation_;
            ++active_;  // before open_ is read: the caller closes the job, then waits for active_
            if (open_) take_ranges();
            // Only a closed job's caller can be waiting for active_: locking the mutex on every
            // worker's way out would bring back the cost above.
            if (--active_ == 0 && !open_) notify_caller();
        }
        run_exit_hooks();
    }

    std::vector<std::thread> threads_;
    std::mutex busy_;
    std::mutex mutex_;  // guards the waits and error_
    std::condition_variable wake_, done_;
    std::atomic<bool> stopping_ = false;  // atomic for the polls, written under mutex_
    std::atomic<std::size_t> generation_ = 0;
    std::atomic<bool> open_ = false;        // the job's fields below may be read
    std::atomic<unsigned> active_ = 0;      // workers between taking a job and leaving it
    const std::function<void(std::size_t, std::size_t)>* body_ = nullptr;
    std::size_t n_ = 0, grain_ = 1;
    std::atomic<std::size_t> next_{0};
    std::atomic<std::size_t> remaining_{0};  // elements not yet done
    std::exception_ptr error_;
};

Pool& pool()
{
    static Pool instance(host_threads() - 1);
    return instance;
}

}  // namespace

KeepWorkersAwake::KeepWorkersAwake() { ++awake_requests; }
KeepWorkersAwake::~KeepWorkersAwake() { --awake_requests; }

void on_worker_exit(void (*hook)())
{
    for (auto& slot : exit_hooks) {
        void (*expected)() = nullptr;
        if (slot.compare_exchange_strong(expected, hook) || expected == hook) return;
    }
    std::abort();  // more hooks than kMaxExitHooks: a programming error
}

unsigned host_threads()
{
    static const unsigned threads = [] {
        if (const unsigned requested = settings::threads()) return requested;
#if defined(__linux__)
        // The cores this process may run on: an MPI launcher that binds each rank to some of a
        // machine's cores leaves it those alone, and more threads would only take turns on them.
        // The main thread's (the process's id), whichever thread asks first.
        cpu_set_t allowed;
        if (sched_getaffinity(getpid(), sizeof allowed, &allowed) == 0) return unsigned(std::max(1, CPU_COUNT(&allowed)));
#endif
        return std::max(1u, std::thread::hardware_concurrency());
    }();
    return threads;
}

void parallel_for(std::size_t n, std::size_t min_parallel, const std::function<void(std::size_t, std::size_t)>& body)
{
    if (n == 0) return;
    if (host_threads() == 1 || n < std::max<std::size_t>(min_parallel, 2) || inside_parallel_for) return body(0, n);
    Pool& workers = pool();
    std::unique_lock<std::mutex> busy(workers.busy(), std::try_to_lock);
    if (!busy.owns_lock()) return body(0, n);
    // Ranges of about n / (4 * threads) elements balance uneven elements without much overhead.
    const std::size_t range = n / (4 * std::size_t(host_threads())) + 1;
    workers.run(n, range, body);
}

}  // namespace zgpu
