#include "plugin/gpu/gpu_mul.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "base/settings.hpp"
#include "plugin/gpu/device_ntt_tables.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

kernels::MulAlgorithm requested_algorithm()
{
    const std::string_view name = settings::mul_algorithm();
    if (name == "classical") return kernels::MulAlgorithm::classical;
    if (name == "tensor") return kernels::MulAlgorithm::tensor;
    if (name == "ntt") return kernels::MulAlgorithm::ntt;
    return kernels::MulAlgorithm::automatic;
}

// The workspace runs the batch in chunks of at most this much, or half the free device memory
// if less; one product at a time at the least.
constexpr std::size_t kWorkspaceChunkBytes = std::size_t(1) << 30;

std::size_t workspace_bytes(const kernels::MulWorkspace& words)
{
    const std::size_t minimum = words.minimum * sizeof(std::uint32_t), whole = words.whole_batch * sizeof(std::uint32_t);
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "querying free device memory");
    return std::max(minimum, std::min({whole, kWorkspaceChunkBytes, free / 2}));
}

}  // namespace

kernels::MulContext mul_context(Runtime& runtime)
{
    return {.algorithm = requested_algorithm(),
            .tables = [&runtime]() -> const kernels::NttTables& { return ntt_tables(runtime); },
            .workspace = [&runtime](const kernels::MulWorkspace& words) {
                const std::size_t bytes = workspace_bytes(words);
                return std::span(reinterpret_cast<std::uint32_t*>(runtime.workspace(bytes)), bytes / sizeof(std::uint32_t));
            }};
}

void mul(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream)
{
    kernels::mul(a, b, r, broadcast_b, mul_context(runtime), stream);
}

}  // namespace zgpu::gpu
