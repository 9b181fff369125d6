// The thread that queues a pass's GPU work (plugin/gpu/queue_thread.hpp): work runs in the order
// posted, on the runtime's device, and a wait returns once its ticket has run; the first error
// comes back at every later wait and the work after it does not run; work still posted when the
// object ends does not run.
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "backend_param.hpp"
#ifdef ZGPU_WITH_CUDA
#include "plugin/gpu/queue_thread.hpp"
#include "plugin/gpu/runtime.hpp"
#endif

namespace zgpu::testing {
namespace {

TEST(GpuQueueThread, RunsInOrderOnTheDeviceAndReportsTheFirstError)
{
    ZGPU_SKIP_WITHOUT(Backend::gpu);
#ifdef ZGPU_WITH_CUDA
    auto& runtime = gpu::Runtime::get();
    const gpu::Runtime::Lease lease(runtime);
    std::vector<int> order;
    int device = -1;
    {
        gpu::QueueThread queue(runtime);
        EXPECT_NO_THROW(queue.wait(0));
        std::size_t last = 0;
        for (int i = 0; i < 100; ++i) last = queue.post([&order, i] { order.push_back(i); });
        const std::size_t asked = queue.post([&device] { cudaGetDevice(&device); });
        queue.wait(asked);
        EXPECT_EQ(last, 100u);
        ASSERT_EQ(order.size(), 100u);
        for (int i = 0; i < 100; ++i) EXPECT_EQ(order[std::size_t(i)], i);
        EXPECT_EQ(device, runtime.device());

        const std::size_t failing = queue.post([] { throw std::runtime_error("the third launch failed"); });
        std::atomic<bool> ran_after{false};
        const std::size_t after = queue.post([&ran_after] { ran_after = true; });
        for (const std::size_t ticket : {failing, after}) {
            try {
                queue.wait(ticket);
                ADD_FAILURE() << "no error at ticket " << ticket;
            } catch (const std::runtime_error& e) {
                EXPECT_EQ(std::string(e.what()), "the third launch failed");
            }
        }
        EXPECT_FALSE(ran_after);
    }
    // Work posted when the object ends is not run (the caller is unwinding): the first work is
    // held until well after the end has begun.
    std::atomic<int> ran{0};
    std::atomic<bool> release{false};
    std::thread releaser([&release] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        release = true;
    });
    {
        gpu::QueueThread queue(runtime);
        queue.post([&release] {
            while (!release) std::this_thread::yield();
        });
        for (int i = 0; i < 10; ++i) queue.post([&ran] { ++ran; });
    }
    releaser.join();
    EXPECT_EQ(ran.load(), 0);
#endif
}

}  // namespace
}  // namespace zgpu::testing
