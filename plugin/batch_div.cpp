#include "zgpu/batch_div.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>

#include "cpu_div.hpp"
#include "zgpu/error.hpp"

namespace zgpu {
namespace {

// The checks every division shares; returns whether b is shared by all of a.
bool check_division(const std::string& name, const DeviceBatch& a, const DeviceBatch& b)
{
    if (a.count() != b.count() && b.count() != 1)
        throw Error(name + ": a has " + std::to_string(a.count()) + " elements, b has " + std::to_string(b.count()) +
                    " (the same number, or one to divide them all)");
    if (a.backend() != b.backend())
        throw Error(name + ": a is on the " + std::string(backend_name(a.backend())) + " backend, b on the " +
                    std::string(backend_name(b.backend())));
    if (a.backend() == Backend::gpu) throw Error(name + ": division does not run on the GPU yet");
    if (const std::size_t i = cpu::first_zero(b.view()); i < b.count())
        throw Error(name + ": division by zero (b[" + std::to_string(i) + "] is 0)");
    return b.count() == 1;
}

// The quotient's stride: |a| / |b| has at most |a| - |b| + 1 limbs, one more when floor
// rounding adds 1 to a magnitude just below a power of 2^64, and never more than |a|.
std::uint32_t quotient_stride(const DeviceBatch& a, const DeviceBatch& b, bool floor)
{
    const ConstBatchView divisors = b.view();
    std::uint32_t smallest = a.stride();
    for (std::size_t i = 0; i < divisors.count; ++i) smallest = std::min<std::uint32_t>(smallest, std::abs(divisors.sizes[i]));
    return size_class(std::min(a.stride(), a.stride() + (floor ? 2 : 1) - std::max<std::uint32_t>(smallest, 1)));
}

void divexact(DeviceBatch& q, const DeviceBatch& a, const DeviceBatch& b, bool checked)
{
    const std::string name = checked ? "divexact_checked" : "divexact";
    const bool shared = check_division(name, a, b);
    DeviceBatch result(a.backend(), a.count(), quotient_stride(a, b, false), DeviceBatch::Uninitialized{});
    if (const std::size_t i = cpu::divexact(a.view(), b.view(), result.view(), shared, checked); i < a.count())
        throw Error(name + ": element " + std::to_string(i) + " does not divide exactly");
    q = std::move(result);
    set_last_backend(Backend::cpu);
}

void div_qr(DeviceBatch& q, DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b, bool floor)
{
    const std::string name = floor ? "fdiv_qr" : "tdiv_qr";
    if (&q == &r) throw Error(name + ": q and r are the same batch");
    const bool shared = check_division(name, a, b);
    DeviceBatch quotients(a.backend(), a.count(), quotient_stride(a, b, floor), DeviceBatch::Uninitialized{});
    DeviceBatch remainders(a.backend(), a.count(), b.stride(), DeviceBatch::Uninitialized{});
    cpu::div_qr(a.view(), b.view(), quotients.view(), remainders.view(), shared, floor);
    q = std::move(quotients);
    r = std::move(remainders);
    set_last_backend(Backend::cpu);
}

}  // namespace

void divexact(DeviceBatch& q, const DeviceBatch& a, const DeviceBatch& b) { divexact(q, a, b, false); }
void divexact_checked(DeviceBatch& q, const DeviceBatch& a, const DeviceBatch& b) { divexact(q, a, b, true); }
void fdiv_qr(DeviceBatch& q, DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b) { div_qr(q, r, a, b, true); }
void tdiv_qr(DeviceBatch& q, DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& b) { div_qr(q, r, a, b, false); }

void mod(DeviceBatch& r, const DeviceBatch& a, const DeviceBatch& m)
{
    if (m.count() != 1) throw Error("mod: m has " + std::to_string(m.count()) + " elements, one expected");
    check_division("mod", a, m);
    if (m.view().sizes[0] < 0) throw Error("mod: m is negative; m > 0 is required");
    DeviceBatch result(a.backend(), a.count(), m.stride(), DeviceBatch::Uninitialized{});
    cpu::mod(a.view(), m.view(), result.view());
    r = std::move(result);
    set_last_backend(Backend::cpu);
}

}  // namespace zgpu
