// Exact division on the runtime: the method from ZGPU_DIV_ALGORITHM, the runtime's products,
// and results read back through pinned memory; the division itself is
// kernels::divexact (kernels/div/divexact.cu).
#include "base/settings.hpp"
#include "plugin/gpu/gpu_div.hpp"

#include <cstdlib>
#include <string>

#include "kernels/common/temporary.hpp"
#include "kernels/div/div_steps.hpp"
#include "kernels/div/divexact.hpp"
#include "plugin/gpu/gpu_mul.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

kernels::DivAlgorithm requested_algorithm()
{
    const std::string_view name = settings::div_algorithm();
    if (name == "hensel") return kernels::DivAlgorithm::hensel;
    if (name == "block") return kernels::DivAlgorithm::block;
    if (name == "newton") return kernels::DivAlgorithm::newton;
    return kernels::DivAlgorithm::automatic;
}

}  // namespace

kernels::DivisionSummary summarize_division(Runtime& runtime, ConstBatchView a, ConstBatchView b, cudaStream_t stream)
{
    kernels::StreamMemory on_device(sizeof(kernels::DivisionSummary), stream);
    auto* summary = static_cast<kernels::DivisionSummary*>(on_device.data());
    kernels::summarize_division(a, b, summary, stream);
    auto* result = runtime.readback<kernels::DivisionSummary>();
    check(cudaMemcpyAsync(result, summary, sizeof *result, cudaMemcpyDeviceToHost, stream), "reading the division summary");
    runtime.synchronize("summarizing a division");
    return *result;
}

std::size_t divexact(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, bool checked,
                     cudaStream_t stream)
{
    if (a.count == 0) return 0;
    // Checked: the first inexact index, from a.count down, on the device and in pinned memory.
    kernels::StreamMemory first(checked ? sizeof(unsigned long long) : 0, stream);
    auto* first_inexact = static_cast<unsigned long long*>(first.data());
    auto* result = checked ? runtime.readback<unsigned long long>() : nullptr;
    if (checked) {
        *result = a.count;
        check(cudaMemcpyAsync(first_inexact, result, sizeof *result, cudaMemcpyHostToDevice, stream), "starting the exactness check");
    }
    kernels::divexact(a, b, q, broadcast, requested_algorithm(), mul_context(runtime), first_inexact, stream);
    if (!checked) return a.count;
    check(cudaMemcpyAsync(result, first_inexact, sizeof *result, cudaMemcpyDeviceToHost, stream), "reading the exactness check");
    runtime.synchronize("checking exactness");
    return std::size_t(*result);
}

}  // namespace zgpu::gpu
