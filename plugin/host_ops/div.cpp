// Divisions of host data.
#include <algorithm>

#include "base/parallel.hpp"
#include "plugin/device_ops/divide_exactly.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/host_ops.hpp"
#include "zgpu/batch_div.hpp"

namespace zgpu {

void divexact_host(const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                   const HostRange& on_cpu, const HostResult& on_gpu_result)
{
    // |a| / |b| has at most |a| - |b| + 1 limbs, and never more than |a|.
    const std::uint32_t sa = size_class(std::uint32_t(std::min<std::uint64_t>(a.max_limbs, kMaxLimbs)));
    const std::uint32_t sb = size_class(std::uint32_t(std::min<std::uint64_t>(b.max_limbs, kMaxLimbs)));
    const std::uint32_t quotient = size_class(std::min<std::uint32_t>(sa, sa + 1 - std::max<std::uint32_t>(1, b.min_limbs)));
    const bool fits = a.too_large.empty() && b.too_large.empty() && gpu::divexact_fits(quotient, sb);
    const auto on_cpu_all = [&] { on_cpu(0, count); };
    const auto on_gpu = [&] {
        // Forced too: elements too large for a batch are an error, as for products.
        a.require_packable();
        b.require_packable();
        // Quotients too long for the GPU's products go to the host, as for DeviceBatch.
        if (!fits) return on_cpu_all(), Backend::cpu;
        return gpu::host_divexact(a, count, b, b_count, quotient, on_gpu_result,
                                  [&](std::size_t first) { on_cpu(first, count); });
    };
    run_on(choose(fits && gpu_pays_for_host_exact_division(shape_of(a, b, count, b_count), host_threads())), on_gpu,
           on_cpu_all);
}

namespace {

bool with_remainder(HostDivision kind)
{
    return kind == HostDivision::floor || kind == HostDivision::truncate || kind == HostDivision::mod;
}

// A host operand copied to a DeviceBatch on the GPU.
DeviceBatch to_gpu(const HostOperand& x, std::size_t count)
{
    x.require_packable();
    LimbBatch host(count, size_class(std::uint32_t(x.max_limbs)));
    x.pack(0, host.view());
    return DeviceBatch::upload(host.view(), Backend::gpu);
}

// div_host's GPU path: the operands uploaded, divided as DeviceBatches, the results downloaded.
std::size_t divide_on_gpu(HostDivision kind, const HostOperand& a, std::size_t count, const HostOperand& b,
                          std::size_t b_count, const HostDivisionResult& on_gpu_result)
{
    const DeviceBatch da = to_gpu(a, count), db = to_gpu(b, b_count);
    DeviceBatch q, r;
    switch (kind) {
    case HostDivision::exact_checked:
        if (const std::size_t i = divide_exactly(q, da, db, true, "divexact_checked"); i < count) return i;
        break;
    case HostDivision::floor: fdiv_qr(q, r, da, db); break;
    case HostDivision::truncate: tdiv_qr(q, r, da, db); break;
    case HostDivision::mod: mod(r, da, db); break;
    }
    const LimbBatch hq = kind != HostDivision::mod ? q.download() : LimbBatch();
    const LimbBatch hr = with_remainder(kind) ? r.download() : LimbBatch();
    on_gpu_result(hq.view(), hr.view());
    return count;
}

}  // namespace

std::size_t div_host(HostDivision kind, const HostOperand& a, std::size_t count, const HostOperand& b, std::size_t b_count,
                     const std::function<void()>& on_cpu, const HostDivisionResult& on_gpu_result)
{
    // Division with remainder only by divisors the kernel takes: longer ones would be divided
    // on the host after the transfers.
    const bool fits = a.too_large.empty() && b.too_large.empty() &&
                      (!with_remainder(kind) || b.max_limbs <= gpu::kDivremMaxDivisorLimbs);
    const Backend backend =
        choose(fits && gpu_pays_for_host_division(shape_of(a, b, count, b_count), host_threads()));
    std::size_t first_inexact = count;
    const auto on_gpu = [&] {
        // With no elements there is nothing to compute anywhere.
        if (count > 0) first_inexact = divide_on_gpu(kind, a, count, b, b_count, on_gpu_result);
        else on_cpu();
        return Backend::gpu;
    };
    run_on(backend, on_gpu, on_cpu);
    return first_inexact;
}

}  // namespace zgpu
