// Products of GMP integers through the GPU path with a failure injected, for the tests of
// gpu::run and run_by_size: the product kernel throws at its call `failing_call` (counted from
// 0; -1: never), and every result given to the caller is unpacked and compared with GMP's.
// Only for builds with CUDA.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "adapters/host_operand.hpp"
#include "plugin/gpu/gpu_mul.hpp"
#include "plugin/gpu/pipeline.hpp"
#include "plugin/gpu/runtime.hpp"
#include "random_integers.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/error.hpp"
#include "zgpu/mpz_adapter.hpp"

namespace zgpu::testing {

class FailingProducts {
public:
    // `count` pairs, set by fill(a, b).
    FailingProducts(std::size_t count, int failing_call, const std::function<void(MpzArray& a, MpzArray& b)>& fill)
        : a_(count), b_(count), expected_(count), got_(count), failing_call_(failing_call)
    {
        fill(a_, b_);
        for (std::size_t i = 0; i < count; ++i) mpz_mul(expected_[i], a_[i], b_[i]);
        pa_ = host_operand(adapters::MpzReader(a_.data()), count, "a");
        pb_ = host_operand(adapters::MpzReader(b_.data()), count, "b");
    }
    FailingProducts(const FailingProducts&) = delete;  // the kernel and operands point into it
    FailingProducts& operator=(const FailingProducts&) = delete;

    const HostOperand& a() const { return pa_; }
    const HostOperand& b() const { return pb_; }
    std::size_t count() const { return a_.size(); }

    gpu::OneResultKernel kernel()
    {
        return [this](std::span<const ConstBatchView> x, BatchView r, gpu::Runtime& runtime) {
            outcome_.runtimes.push_back(&runtime);
            if (calls_++ == failing_call_) throw Error("injected failure");
            gpu::mul(runtime, x[0], x[1], r, false, runtime.stream());
        };
    }
    HostResult result()
    {
        return [this](std::size_t first, ConstBatchView r) {
            outcome_.firsts.push_back(first);
            outcome_.given += r.count;
            adapters::unpack_mpz_array(r, got_.data() + first);
            for (std::size_t i = 0; i < r.count; ++i) outcome_.correct += mpz_cmp(got_[first + i], expected_[first + i]) == 0;
        };
    }
    FinishOnHost finish_on_host()
    {
        return [this](std::size_t first) { outcome_.finished_from = first; };
    }

    // What the caller was given, and how the run ended.
    struct Outcome {
        std::vector<std::size_t> firsts;           // of the results given, in order
        std::vector<const gpu::Runtime*> runtimes;  // that the kernel was called on, call by call
        std::size_t given = 0, correct = 0;        // results given, and those that match GMP
        std::optional<std::size_t> finished_from;  // where the host was asked to take over, if it was
        Backend finished_by = Backend::gpu;        // what the run said
        bool threw = false;
        std::string error;
    };
    // Runs run() (a call of gpu::run or run_by_size with kernel(), result() and
    // finish_on_host(), returning its backend) and records its outcome.
    template <class Run>
    Outcome outcome_of(Run run)
    {
        try {
            outcome_.finished_by = run();
        } catch (const Error& e) {
            outcome_.threw = true;
            outcome_.error = e.what();
        }
        return outcome_;
    }

private:
    MpzArray a_, b_, expected_, got_;
    int calls_ = 0, failing_call_;
    HostOperand pa_, pb_;
    Outcome outcome_;
};

// Products of `count` pairs of 16-limb operands (several chunks), the kernel failing at its
// call `failing_call` (counted from 0; -1: never), through gpu::run. Records what the caller
// was given.
inline FailingProducts::Outcome multiply_failing_at(std::size_t count, int failing_call)
{
    IntegerSource source(17);
    FailingProducts products(count, failing_call, [&](MpzArray& a, MpzArray& b) {
        for (std::size_t i = 0; i < count; ++i) {
            source.set(a[i], 16, i % 3 ? Shape::random : Shape::all_ones, i % 2);
            source.set(b[i], 16, Shape::random, i % 5 == 1);
        }
    });
    return products.outcome_of([&] {
        const gpu::Operand operands[] = {{&products.a(), count}, {&products.b(), count}};
        return gpu::run(operands, count, 32, products.kernel(), products.result(), products.finish_on_host());
    });
}

}  // namespace zgpu::testing
