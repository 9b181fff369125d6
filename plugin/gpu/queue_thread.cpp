#include "plugin/gpu/queue_thread.hpp"

#include <string>
#include <utility>

#include "zgpu/error.hpp"

namespace zgpu::gpu {

QueueThread::QueueThread(const Runtime& runtime) : thread_([this, device = runtime.device()] { run(device); }) {}

QueueThread::~QueueThread()
{
    stopping_ = true;
    thread_.join();
}

std::size_t QueueThread::post(std::function<void()> work)
{
    const std::lock_guard<std::mutex> lock(mutex_);
    posted_.push_back(std::move(work));
    return ++tickets_;
}

void QueueThread::wait(std::size_t ticket)
{
    while (done_.load(std::memory_order_acquire) < ticket && !failed_.load(std::memory_order_acquire)) std::this_thread::yield();
    if (failed_.load(std::memory_order_acquire)) std::rethrow_exception(error_);
}

void QueueThread::run(int device)
{
    if (cudaSetDevice(device) != cudaSuccess) {
        error_ = std::make_exception_ptr(Error("queueing the GPU's work: cannot use device " + std::to_string(device)));
        failed_ = true;
        return;
    }
    while (!stopping_.load(std::memory_order_acquire)) {
        std::function<void()> work;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            if (!posted_.empty()) {
                work = std::move(posted_.front());
                posted_.pop_front();
            }
        }
        if (!work) {
            std::this_thread::yield();
            continue;
        }
        try {
            work();
        } catch (...) {
            error_ = std::current_exception();
            failed_.store(true, std::memory_order_release);
            return;
        }
        done_.fetch_add(1, std::memory_order_release);
    }
}

}  // namespace zgpu::gpu
