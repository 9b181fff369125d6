#include "zgpu/batch_div.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "plugin/cpu/cpu_div.hpp"
#include "plugin/device_ops/divide_exactly.hpp"
#include "plugin/device_ops/result_storage.hpp"
#include "zgpu/error.hpp"
#include "plugin/gpu/gpu_backend.hpp"

namespace zgpu {
namespace {

// What every division checks first: the shapes, the backends, and no zero divisor; and, where
// the quotients' length is wanted (exact division), its bound, which reads the dividends.
struct Divisors {
    bool shared;                    // one divisor for all of a
    std::uint32_t smallest;         // the smallest |b[i]|, in limbs
    std::uint32_t longest_quotient; // no |a[i]| / |b[i]| has more limbs (kernels::quotient_limbs_bound), if wanted
};

Divisors check_division(const std::string& name, const DeviceBatch& a, const DeviceBatch& b, bool bound_quotients = false)
{
    if (a.count() != b.count() && b.count() != 1)
        throw Error(name + ": a has " + std::to_string(a.count()) + " elements, b has " + std::to_string(b.count()) +
                    " (the same number, or one to divide them all)");
    if (a.backend() != b.backend())
        throw Error(name + ": a is on the " + std::string(backend_name(a.backend())) + " backend, b on the " +
                    std::string(backend_name(b.backend())));
    kernels::DivisionSummary summary{b.count(), kMaxLimbs, 0};
    const ConstBatchView dividends = bound_quotients ? a.view() : ConstBatchView{};
    if (b.backend() == Backend::gpu) summary = gpu::batch_summarize_division(dividends, b.view());
    else summary = cpu::summarize_division(dividends, b.view());
    if (summary.first_zero < b.count())
        throw Error(name + ": division by zero (b[" + std::to_string(summary.first_zero) + "] is 0)");
    const std::uint32_t longest_quotient = bound_quotients ? summary.longest_quotient : kMaxLimbs;
    return {b.count() == 1, std::min<std::uint32_t>(summary.min_size, kMaxLimbs), longest_quotient};
}

// The quotient's stride: |a| / |b| has at most |a| - |b| + 1 limbs, one more when floor
// rounding adds 1 to a magnitude just below a power of 2^64, and never more than |a|.
std::uint32_t quotient_stride(const DeviceBatch& a, const Divisors& divisors, bool floor)
{
    return size_class(std::min(a.stride(), a.stride() + (floor ? 2 : 1) - std::max<std::uint32_t>(divisors.smallest, 1)));
}

// An exact quotient's stride: where the quotients were bounded element by element, that bound
// (no rounding to add), which can be a limb or a size class below the strides' bound.
std::uint32_t exact_quotient_stride(const DeviceBatch& a, const Divisors& divisors)
{
    return std::min(quotient_stride(a, divisors, false), size_class(std::max<std::uint32_t>(1, divisors.longest_quotient)));
}

// Bounding each quotient reads every dividend's top limb, a pass over short dividends; it pays
// where the quotients are long (the precision of Newton's method and the output shrink with it),
// from about this many limbs.
constexpr std::uint32_t kBoundQuotientsFromLimbs = 32;

// A batch's contents in host memory: its own storage on the CPU backend, a copy from the GPU.
class OnHost {
public:
    explicit OnHost(const DeviceBatch& batch)
    {
        if (batch.backend() == Backend::gpu) copy_ = batch.download();
        view_ = copy_ ? copy_->view() : batch.view();
    }
    ConstBatchView view() const { return view_; }

private:
    std::optional<LimbBatch> copy_;
    ConstBatchView view_;
};

// A result computed on the host into `result` (CPU backend), moved to `where`.
DeviceBatch to_backend(DeviceBatch result, Backend where)
{
    return where == Backend::cpu ? std::move(result) : DeviceBatch::upload(std::as_const(result).view(), where);
}

}  // namespace

std::size_t divide_exactly(DeviceBatch& q, const DeviceBatch& a, const DeviceBatch& b, bool checked, const std::string& name)
{
    const Divisors divisors = check_division(name, a, b, a.stride() + 1 >= b.stride() + kBoundQuotientsFromLimbs);
    const std::uint32_t stride = exact_quotient_stride(a, divisors);
    std::size_t inexact = a.count();
    if (a.backend() == Backend::gpu && gpu::divexact_fits(stride, b.stride())) {
        ResultStorage out(q, Backend::gpu, a.count(), stride, {&a, &b}, checked);
        inexact = gpu::batch_divexact(a.view(), b.view(), out.view(), divisors.shared, checked);
        if (inexact < a.count()) return inexact;
        out.commit();
        set_last_backend(Backend::gpu);
        return inexact;
    }
    // The CPU backend, and GPU batches too long for the GPU's products (through the host).
    DeviceBatch result(Backend::cpu, a.count(), stride, DeviceBatch::Uninitialized{});
    inexact = cpu::divexact(OnHost(a).view(), OnHost(b).view(), result.view(), divisors.shared, checked);
    if (inexact < a.count()) return inexact;
    q = to_backend(std::move(result), a.backend());
    set_last_backend(Backend::cpu);
    return inexact;
}

namespace {

// Division with remainder of GPU batches runs on the GPU where the one-warp kernel takes the
// divisors; the CPU backend, and longer divisors, on the host threads.
void div_qr(DeviceBatch& q, DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b, bool floor)
{
    const std::string name = floor ? "fdiv_qr" : "tdiv_qr";
    if (&q == &r) throw Error(name + ": q and r are the same batch");
    const Divisors divisors = check_division(name, a, b);
    const std::uint32_t stride = quotient_stride(a, divisors, floor);
    if (a.backend() == Backend::gpu && b.stride() <= gpu::kDivremMaxDivisorLimbs) {
        ResultStorage quotients(q, Backend::gpu, a.count(), stride, {&a, &b, &r});
        ResultStorage remainders(r, Backend::gpu, a.count(), b.stride(), {&a, &b, &q});
        gpu::batch_divrem(a.view(), b.view(), divisors.shared, floor, quotients.view(), remainders.view());
        quotients.commit();
        remainders.commit();
        set_last_backend(Backend::gpu);
        return;
    }
    DeviceBatch quotients(Backend::cpu, a.count(), stride, DeviceBatch::Uninitialized{});
    DeviceBatch remainders(Backend::cpu, a.count(), b.stride(), DeviceBatch::Uninitialized{});
    cpu::div_qr(OnHost(a).view(), OnHost(b).view(), quotients.view(), remainders.view(), divisors.shared, floor);
    DeviceBatch q_out = to_backend(std::move(quotients), a.backend()), r_out = to_backend(std::move(remainders), a.backend());
    q = std::move(q_out);
    r = std::move(r_out);
    set_last_backend(Backend::cpu);
}

}  // namespace

void divexact(DeviceBatch& q, const DeviceBatch& a, const DeviceBatch& b) { divide_exactly(q, a, b, false, "divexact"); }

void divexact_checked(DeviceBatch& q, const DeviceBatch& a, const DeviceBatch& b)
{
    if (const std::size_t i = divide_exactly(q, a, b, true, "divexact_checked"); i < a.count())
        throw Error("divexact_checked: element " + std::to_string(i) + " does not divide exactly");
}
void fdiv_qr(DeviceBatch& q, DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b) { div_qr(q, r, a, b, true); }
void tdiv_qr(DeviceBatch& q, DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b) { div_qr(q, r, a, b, false); }

void mod(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& m)
{
    if (m.count() != 1) throw Error("mod: m has " + std::to_string(m.count()) + " elements, one expected");
    check_division("mod", a, m);
    const OnHost modulus(m);
    if (modulus.view().sizes[0] < 0) throw Error("mod: m is negative; m > 0 is required");
    // The floor remainder by a positive m, without the quotient.
    if (a.backend() == Backend::gpu && m.stride() <= gpu::kDivremMaxDivisorLimbs) {
        ResultStorage result(r, Backend::gpu, a.count(), m.stride(), {&a, &m});
        gpu::batch_divrem(a.view(), m.view(), true, true, BatchView{}, result.view());
        result.commit();
        set_last_backend(Backend::gpu);
        return;
    }
    DeviceBatch result(Backend::cpu, a.count(), m.stride(), DeviceBatch::Uninitialized{});
    cpu::mod(OnHost(a).view(), modulus.view(), result.view());
    r = to_backend(std::move(result), a.backend());
    set_last_backend(Backend::cpu);
}

}  // namespace zgpu
