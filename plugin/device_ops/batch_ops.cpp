#include "zgpu/batch_ops.hpp"

#include <algorithm>
#include <string>

#include "plugin/cpu/cpu_add_sub.hpp"
#include "plugin/cpu/cpu_mul.hpp"
#include "plugin/device_ops/result_storage.hpp"
#include "zgpu/error.hpp"
#include "plugin/gpu/gpu_backend.hpp"

namespace zgpu {
namespace {

void check_same_backend(const std::string& name, const DeviceBatch& a, const DeviceBatch& b)
{
    if (a.backend() != b.backend())
        throw Error(name + ": a is on the " + std::string(backend_name(a.backend())) + " backend, b on the " +
                    std::string(backend_name(b.backend())));
}

// Runs compute(out) into r: in place when r already has the result's shape and is neither
// operand (chains of operations then allocate nothing), else into new storage that replaces r.
template <class Compute>
void into_result(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b, std::uint32_t stride, Compute compute)
{
    ResultStorage out(r, a.backend(), a.count(), stride, {&a, &b});
    compute(out.view());
    out.commit();
    set_last_backend(a.backend());
}

void check_stride(const std::string& name, std::uint32_t needed, const DeviceBatch& a, const DeviceBatch& b)
{
    if (needed > kMaxLimbs)
        throw Error(name + ": the result's stride would exceed the supported " + std::to_string(kMaxLimbs) +
                    " limbs (a and b have strides " + std::to_string(a.stride()) + " and " + std::to_string(b.stride()) + ")");
}

void add_sub(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b, bool subtract)
{
    const std::string name = subtract ? "sub" : "add";
    if (a.count() != b.count())
        throw Error(name + ": a has " + std::to_string(a.count()) + " elements, b has " + std::to_string(b.count()));
    check_same_backend(name, a, b);
    const std::uint32_t bound = std::max(a.stride(), b.stride()) + 1;
    check_stride(name, bound, a, b);
    into_result(r, a, b, size_class(bound), [&](BatchView out) {
        if (a.backend() == Backend::gpu) gpu::batch_add_sub(a.view(), b.view(), out, subtract);
        else cpu::add_sub(a.view(), b.view(), out, subtract);
    });
}

}  // namespace

void add(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b) { add_sub(r, a, b, false); }
void sub(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b) { add_sub(r, a, b, true); }

void mul(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b)
{
    if (a.count() != b.count() && b.count() != 1)
        throw Error("mul: a has " + std::to_string(a.count()) + " elements, b has " + std::to_string(b.count()) +
                    " (the same number, or one to multiply them all)");
    check_same_backend("mul", a, b);
    const std::uint32_t columns = a.stride() + b.stride();
    check_stride("mul", columns, a, b);
    const bool broadcast = b.count() == 1;
    into_result(r, a, b, size_class(columns), [&](BatchView out) {
        if (a.backend() == Backend::gpu) gpu::batch_mul(a.view(), b.view(), out, broadcast);
        else cpu::mul(a.view(), b.view(), out, broadcast);
    });
}

void sqr(DeviceBatch& r, const DeviceBatch& a) { mul(r, a, a); }

namespace {

void addmul_submul(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b, bool subtract)
{
    if (r.count() != a.count())
        throw Error(std::string(subtract ? "submul" : "addmul") + ": r has " + std::to_string(r.count()) +
                    " elements, a has " + std::to_string(a.count()));
    DeviceBatch product(a.backend(), 0, 1);
    mul(product, a, b);
    add_sub(r, r, product, subtract);
}

}  // namespace

void addmul(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b) { addmul_submul(r, a, b, false); }
void submul(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b) { addmul_submul(r, a, b, true); }

void synchronize(Backend backend)
{
    if (backend == Backend::gpu) gpu::synchronize();
}

}  // namespace zgpu
