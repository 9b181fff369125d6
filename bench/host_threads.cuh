// Host threads kept for a whole benchmark run, for FLINT loops split over them.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <flint/flint.h>

// Host threads that live for the whole run, for FLINT's batch loop: FLINT keeps per-thread state
// (its small-prime FFT's tables), made once a thread, as in a program that keeps its threads.
class HostThreads {
public:
    explicit HostThreads(unsigned n)
    {
        for (unsigned t = 0; t < n; ++t) threads_.emplace_back([this, t, n] { work(t, n); });
    }
    ~HostThreads()
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (auto& th : threads_) th.join();
    }
    HostThreads(const HostThreads&) = delete;
    HostThreads& operator=(const HostThreads&) = delete;

    // body(begin, end) on each thread, the ranges splitting [0, count) evenly; returns when all
    // are done.
    void run(slong count, const std::function<void(slong, slong)>& body)
    {
        std::unique_lock<std::mutex> lock(mutex_);
        body_ = &body;
        count_ = count;
        pending_ = unsigned(threads_.size());
        ++generation_;
        wake_.notify_all();
        done_.wait(lock, [this] { return pending_ == 0; });
    }

private:
    void work(unsigned t, unsigned n)
    {
        unsigned seen = 0;
        for (;;) {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) break;
            seen = generation_;
            const auto* body = body_;
            const slong count = count_;
            lock.unlock();
            (*body)(count * t / n, count * (t + 1) / n);
            lock.lock();
            if (--pending_ == 0) done_.notify_one();
        }
        flint_cleanup();
    }

    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(slong, slong)>* body_ = nullptr;
    slong count_ = 0;
    unsigned generation_ = 0, pending_ = 0;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};
