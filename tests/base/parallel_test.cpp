// parallel_for on the host threads: every element once, the first exception after every range,
// nested and concurrent calls, and thousands of jobs in a row (a lost wake-up would hang). Each
// test runs in a fresh process with more threads than this machine has cores, so that workers
// often wake after their job is done, or halfway through the next.
#include <atomic>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "base/parallel.hpp"

namespace {

constexpr const char* kThreads = "8";

// Runs one job of n elements, each counting its visits, and notes the threads that took part;
// whether each element was visited once. The body lives on the heap and is freed at once, so
// that a worker touching it after the job (a late one) is a use after free for AddressSanitizer.
bool one_job(std::size_t n, std::size_t min_parallel, std::set<std::thread::id>* threads = nullptr)
{
    std::vector<std::atomic<int>> visits(n);
    std::mutex seen;
    auto body = std::make_unique<std::function<void(std::size_t, std::size_t)>>([&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) ++visits[i];
        if (!threads) return;
        const std::lock_guard lock(seen);
        threads->insert(std::this_thread::get_id());
    });
    zgpu::parallel_for(n, min_parallel, *body);
    body.reset();
    for (const auto& v : visits)
        if (v != 1) return false;
    return true;
}

// Jobs of 1 to 1249 elements, some with the workers kept awake.
bool many_jobs(int jobs, std::set<std::thread::id>* threads = nullptr)
{
    for (int j = 0; j < jobs; ++j) {
        std::optional<zgpu::KeepWorkersAwake> awake;
        if (j / 500 % 2 == 1) awake.emplace();
        if (!one_job(std::size_t(1 + j * 13 % 1249), 2, threads)) return false;
    }
    return true;
}

template <class Check>
void in_a_fresh_process(Check check)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            setenv("ZGPU_THREADS", kThreads, 1);
            std::exit(check() ? 0 : 1);
        },
        testing::ExitedWithCode(0), "");
}

TEST(ParallelFor, EveryElementOnceOverThousandsOfJobs)
{
    in_a_fresh_process([] {
        std::set<std::thread::id> threads;
        const bool once = zgpu::host_threads() == 8 && many_jobs(6000, &threads) && one_job(0, 1) && one_job(1, 1);
        return once && threads.size() > 1;  // the workers took part
    });
}

TEST(ParallelFor, TheFirstExceptionComesAfterEveryRange)
{
    in_a_fresh_process([] {
        for (int round = 0; round < 200; ++round) {
            const std::size_t n = 1000;
            std::vector<std::atomic<int>> visits(n);
            bool thrown = false;
            try {
                zgpu::parallel_for(n, 2, [&](std::size_t begin, std::size_t end) {
                    for (std::size_t i = begin; i < end; ++i) ++visits[i];
                    if (begin <= 500 && 500 < end) throw std::runtime_error("range of 500");
                });
            } catch (const std::runtime_error&) {
                thrown = true;
            }
            if (!thrown) return false;
            for (const auto& v : visits)
                if (v != 1) return false;  // every range ran, the throwing one included
        }
        return many_jobs(200);  // and the pool still works
    });
}

TEST(ParallelFor, NestedAndConcurrentCallsRunInline)
{
    in_a_fresh_process([] {
        std::atomic<bool> ok = true;
        std::vector<std::thread> callers;
        for (int t = 0; t < 4; ++t)
            callers.emplace_back([&] {
                if (!many_jobs(1500)) ok = false;
            });
        // Nested: each range of the outer job runs a whole inner job.
        std::vector<std::atomic<int>> inner(64 * 64);
        zgpu::parallel_for(64, 2, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i)
                zgpu::parallel_for(64, 2, [&](std::size_t b, std::size_t e) {
                    for (std::size_t k = b; k < e; ++k) ++inner[i * 64 + k];
                });
        });
        for (auto& c : callers) c.join();
        for (const auto& v : inner)
            if (v != 1) return false;
        return ok.load();
    });
}

}  // namespace
