// Sums and products of host data on the GPU: each one's kernel, run chunk by chunk by the
// pipeline (divisions: host_div.cpp).
#include <span>

#include "kernels/add_sub/add_sub.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/mul.hpp"
#include "plugin/gpu/pipeline.hpp"
#include "plugin/gpu/temporary.hpp"

namespace zgpu::gpu {

// The pipeline holds the runtime's lease while kernels run, so they use Runtime::get() directly.

Backend host_add_sub(const HostOperand& a, const HostOperand& b, std::size_t count, bool subtract,
                     std::uint32_t result_stride, const HostResult& result, const FinishOnHost& finish_on_host)
{
    const auto kernel = [subtract](std::span<const ConstBatchView> x, BatchView r, cudaStream_t stream) {
        kernels::add_sub(x[0], x[1], r, subtract, stream);
    };
    const Operand operands[] = {{&a, count}, {&b, count}};
    return run(operands, count, result_stride, kernel, result, finish_on_host);
}

Backend host_mul(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                 std::uint32_t product_stride, const HostResult& result, const FinishOnHost& finish_on_host)
{
    const bool broadcast = b_count == 1;
    const auto kernel = [broadcast](std::span<const ConstBatchView> x, BatchView r, cudaStream_t stream) {
        mul(Runtime::get(), x[0], x[1], r, broadcast, stream);
    };
    const Operand operands[] = {{&a, count}, {&b, b_count}};
    return run(operands, count, product_stride, kernel, result, finish_on_host);
}

Backend host_addmul(const HostOperand& r, const HostOperand& a, std::size_t count, const HostOperand& b,
                    std::size_t b_count, bool subtract, std::uint32_t product_stride, std::uint32_t sum_stride,
                    const HostResult& result, const FinishOnHost& finish_on_host)
{
    const bool broadcast = b_count == 1;
    const auto kernel = [&](std::span<const ConstBatchView> x, BatchView sum, cudaStream_t stream) {
        const TemporaryBatch product(x[1].count, product_stride, stream);
        mul(Runtime::get(), x[1], x[2], product.view(), broadcast, stream);
        kernels::add_sub(x[0], product.view(), sum, subtract, stream);
    };
    const Operand operands[] = {{&r, count}, {&a, count}, {&b, b_count}};
    return run(operands, count, sum_stride, kernel, result, finish_on_host);
}

}  // namespace zgpu::gpu
