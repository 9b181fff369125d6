// Products given a MulContext: the full product, and the low product alone or cut from one.
#include "kernels/mul/mul_context.hpp"

#include "kernels/common/temporary.hpp"
#include "kernels/common/slice.hpp"

namespace zgpu::kernels {

void mul(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, const MulContext& context, cudaStream_t stream)
{
    const MulWorkspace words = mul_workspace(a, b, broadcast_b, context.algorithm);
    if (words.minimum == 0 || a.count == 0) return mul(a, b, r, broadcast_b, context.algorithm, NttTables{}, {}, stream);
    const NttTables& tables = context.tables();
    mul(a, b, r, broadcast_b, context.algorithm, tables, context.workspace(words), stream);
}

void mul_low(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, const MulContext& context,
             cudaStream_t stream)
{
    if (r.stride >= a.stride + b.stride || mul_computes_low_products(a, b, context.algorithm))
        return mul(a, b, r, broadcast_b, context, stream);
    const TemporaryBatch product(a.count, size_class(a.stride + b.stride), stream);
    mul(a, b, product.view(), broadcast_b, context, stream);
    slice({.in = product.view(), .keep_sign = true, .out = r}, stream);
}

}  // namespace zgpu::kernels
