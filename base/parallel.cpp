#include "base/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace zgpu {
namespace {

thread_local bool inside_parallel_for = false;  // nested calls run inline

// Workers live as long as the process, so libraries that keep per-thread caches (FLINT's
// mpz pool) do not lose them at every call. Between jobs they poll for the next one for a
// short while before they sleep: the GPU path calls parallel_for three times a chunk, and
// waking sleeping threads cost about 40 microseconds a call (H200 host, 16 threads), which
// made 2 MiB chunks twice as slow end to end as with polling.
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
            std::lock_guard<std::mutex> guard(mutex_);
            body_ = &body;
            n_ = n;
            grain_ = grain;
            next_ = 0;
            error_ = nullptr;
            running_ = threads_.size();
            ++generation_;  // publishes the job to polling workers (release)
        }
        wake_.notify_all();
        inside_parallel_for = true;
        take_ranges();
        inside_parallel_for = false;
        if (!poll([this] { return running_ == 0; })) {
            std::unique_lock<std::mutex> guard(mutex_);
            done_.wait(guard, [this] { return running_ == 0; });
        }
        body_ = nullptr;
        if (error_) std::rethrow_exception(error_);
    }

private:
    // Whether ready() became true within the polling time.
    template <class Ready>
    static bool poll(Ready ready)
    {
        constexpr auto kPollTime = std::chrono::microseconds(200);
        const auto deadline = std::chrono::steady_clock::now() + kPollTime;
        for (int k = 0;; ++k) {
            if (ready()) return true;
            if (k % 64 == 63 && std::chrono::steady_clock::now() > deadline) return false;
            std::this_thread::yield();
        }
    }

    void take_ranges()
    {
        for (;;) {
            const std::size_t begin = next_.fetch_add(grain_);
            if (begin >= n_) return;
            try {
                (*body_)(begin, std::min(n_, begin + grain_));
            } catch (...) {
                std::lock_guard<std::mutex> guard(mutex_);
                if (!error_) error_ = std::current_exception();
            }
        }
    }

    void work()
    {
        inside_parallel_for = true;
        std::size_t seen = 0;
        for (;;) {
            if (!poll([&] { return generation_ != seen || stopping_; })) {
                std::unique_lock<std::mutex> guard(mutex_);
                wake_.wait(guard, [&] { return stopping_ || generation_ != seen; });
            }
            if (stopping_) return;
            seen = generation_;
            take_ranges();
            if (--running_ == 0) {
                std::lock_guard<std::mutex> guard(mutex_);  // the caller waits under it
                done_.notify_one();
            }
        }
    }

    std::vector<std::thread> threads_;
    std::mutex busy_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::atomic<bool> stopping_ = false;
    std::atomic<std::size_t> generation_ = 0;
    const std::function<void(std::size_t, std::size_t)>* body_ = nullptr;
    std::size_t n_ = 0, grain_ = 1;
    std::atomic<std::size_t> next_{0};
    std::atomic<std::size_t> running_ = 0;
    std::exception_ptr error_;
};

Pool& pool()
{
    static Pool instance(host_threads() - 1);
    return instance;
}

}  // namespace

unsigned host_threads()
{
    static const unsigned threads = [] {
        if (const char* requested = std::getenv("ZGPU_THREADS"))
            if (const int n = std::atoi(requested); n > 0) return unsigned(n);
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
