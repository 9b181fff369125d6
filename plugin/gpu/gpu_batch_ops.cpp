// Operations on DeviceBatch views on the GPU: each takes the first runtime's lease, checks that
// the views live on its device, and queues its kernels on its stream.
#include "kernels/add_sub/add_sub.hpp"
#include "kernels/div/divrem.hpp"
#include "plugin/gpu/gpu_div.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/gpu_mul.hpp"

namespace zgpu::gpu {

static_assert(kDivremMaxDivisorLimbs == kernels::kDivremWarpMaxDivisorLimbs);

void batch_add_sub(ConstBatchView a, ConstBatchView b, BatchView r, bool subtract)
{
    const ResidentLease resident({a.limbs, b.limbs, r.limbs});
    Runtime& runtime = resident.runtime();
    kernels::add_sub(a, b, r, subtract, runtime.stream());
}

void batch_mul(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b)
{
    const ResidentLease resident({a.limbs, b.limbs, r.limbs});
    Runtime& runtime = resident.runtime();
    mul(runtime, a, b, r, broadcast_b, runtime.stream());
}

kernels::DivisionSummary batch_summarize_division(ConstBatchView a, ConstBatchView b)
{
    const ResidentLease resident({a.limbs, b.limbs});
    Runtime& runtime = resident.runtime();
    return summarize_division(runtime, a, b, runtime.stream());
}

std::size_t batch_divexact(ConstBatchView a, ConstBatchView b, BatchView q, bool broadcast, bool checked)
{
    const ResidentLease resident({a.limbs, b.limbs, q.limbs});
    Runtime& runtime = resident.runtime();
    return divexact(runtime, a, b, q, broadcast, checked, runtime.stream());
}

void batch_divrem(ConstBatchView a, ConstBatchView b, bool broadcast, bool floor, BatchView q, BatchView r)
{
    const ResidentLease resident({a.limbs, b.limbs, q.limbs, r.limbs});
    Runtime& runtime = resident.runtime();
    kernels::divrem_warp(a, b, broadcast, floor, q, r, runtime.stream());
}

}  // namespace zgpu::gpu
