#include "plugin/gpu/mul.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "kernels/div/div_steps.hpp"
#include "kernels/mul/mul.hpp"
#include "plugin/gpu/ntt_tables.hpp"
#include "kernels/common/temporary.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

kernels::MulAlgorithm requested_algorithm()
{
    const char* value = std::getenv("ZGPU_MUL_ALGORITHM");
    const std::string name = value ? value : "auto";
    if (name == "auto") return kernels::MulAlgorithm::automatic;
    if (name == "classical") return kernels::MulAlgorithm::classical;
    if (name == "tensor") return kernels::MulAlgorithm::tensor;
    if (name == "ntt") return kernels::MulAlgorithm::ntt;
    throw Error("ZGPU_MUL_ALGORITHM=" + name + ": expected classical, tensor, ntt or auto");
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

void mul(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream)
{
    const kernels::MulAlgorithm algorithm = requested_algorithm();
    const kernels::MulWorkspace words = kernels::mul_workspace(a, b, broadcast_b, algorithm);
    std::span<std::uint32_t> workspace;
    const kernels::NttTables* tables = nullptr;
    if (words.minimum > 0 && a.count > 0) {
        tables = &ntt_tables(runtime);
        const std::size_t bytes = workspace_bytes(words);
        workspace = {reinterpret_cast<std::uint32_t*>(runtime.workspace(bytes)), bytes / sizeof(std::uint32_t)};
    }
    kernels::mul(a, b, r, broadcast_b, algorithm, tables ? *tables : kernels::NttTables{}, workspace, stream);
}

void mul_low(Runtime& runtime, ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, cudaStream_t stream)
{
    if (r.stride >= a.stride + b.stride || kernels::mul_computes_low_products(a, b, requested_algorithm()))
        return mul(runtime, a, b, r, broadcast_b, stream);
    const kernels::TemporaryBatch product(a.count, size_class(a.stride + b.stride), stream);
    mul(runtime, a, b, product.view(), broadcast_b, stream);
    kernels::slice({.in = product.view(), .keep_sign = true, .out = r}, stream);
}

}  // namespace zgpu::gpu
