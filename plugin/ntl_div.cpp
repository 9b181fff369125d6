// NTL-style division of Vec<ZZ> and ZZX by a scalar: div, rem, DivRem and divide as NTL's on
// ZZ, entry by entry (floor rounding), and ZZX's exact div and divide. On the host threads for
// now, like the FLINT-style division. b is read once, before any output changes; a zero b
// (where NTL raises an error), an inexact exact division and a fixed-length output of the wrong
// length throw zgpu::Error with the outputs untouched.
#include <string>

#include "parallel.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl.hpp"
#include "zz_array.hpp"

namespace zgpu {
namespace {

constexpr std::size_t kMinParallel = 64;  // see flint_div.cpp

// b, copied (it may be an entry of an output), once the backend is settled: the host threads.
NTL::ZZ backend_checked(const NTL::ZZ& b, const std::string& name)
{
    const Backend requested = requested_backend();  // rejects unknown ZGPU_BACKEND values
    if (backend_forced() && requested == Backend::gpu)
        throw Error(name + ": division does not run on the GPU yet (ZGPU_BACKEND=gpu)");
    set_last_backend(Backend::cpu);
    return b;
}

// The same, for the functions that NTL does not define for b = 0.
NTL::ZZ checked_divisor(const NTL::ZZ& b, const std::string& name)
{
    if (NTL::IsZero(b)) throw Error(name + ": division by zero (b is 0)");
    return backend_checked(b, name);
}

// body(i) for every entry, on the host threads.
template <class Body>
void each(std::size_t n, Body body)
{
    parallel_for(n, kMinParallel, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) body(long(i));
    });
}

// Moves the computed entries into x entry by entry (x keeps its own storage, fixed or not).
void move_into(NTL::Vec<NTL::ZZ>& x, NTL::Vec<NTL::ZZ>& computed)
{
    x.SetLength(computed.length());
    for (long i = 0; i < computed.length(); ++i) NTL::swap(x[i], computed[i]);
}

// q[i] = a[i] / b for every entry if all divide exactly (returns -1), else the first index
// that does not, with q untouched. As NTL's divide, b = 0 divides 0 only (the quotient is 0).
long divide_all(NTL::Vec<NTL::ZZ>& q, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b, const std::string& name)
{
    require_resizable(q, std::size_t(a.length()), name, "q");
    NTL::Vec<NTL::ZZ> quotients;
    quotients.SetLength(a.length());
    NTL::Vec<char> exact;
    exact.SetLength(a.length());
    each(a.length(), [&](long i) { exact[i] = char(NTL::IsZero(b) ? NTL::IsZero(a[i]) : NTL::divide(quotients[i], a[i], b)); });
    for (long i = 0; i < a.length(); ++i)
        if (!exact[i]) return i;
    move_into(q, quotients);
    return -1;
}

}  // namespace

void div(NTL::Vec<NTL::ZZ>& q, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b)
{
    require_resizable(q, std::size_t(a.length()), "div", "q");
    const NTL::ZZ d = checked_divisor(b, "div");
    q.SetLength(a.length());
    each(a.length(), [&](long i) { NTL::div(q[i], a[i], d); });
}

void rem(NTL::Vec<NTL::ZZ>& r, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b)
{
    require_resizable(r, std::size_t(a.length()), "rem", "r");
    const NTL::ZZ d = checked_divisor(b, "rem");
    r.SetLength(a.length());
    each(a.length(), [&](long i) { NTL::rem(r[i], a[i], d); });
}

void DivRem(NTL::Vec<NTL::ZZ>& q, NTL::Vec<NTL::ZZ>& r, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b)
{
    if (&q == &r) throw Error("DivRem: q and r are the same vector");
    require_resizable(q, std::size_t(a.length()), "DivRem", "q");
    require_resizable(r, std::size_t(a.length()), "DivRem", "r");
    const NTL::ZZ d = checked_divisor(b, "DivRem");
    NTL::Vec<NTL::ZZ> quotients, remainders;  // a may be q or r
    quotients.SetLength(a.length());
    remainders.SetLength(a.length());
    each(a.length(), [&](long i) { NTL::DivRem(quotients[i], remainders[i], a[i], d); });
    move_into(q, quotients);
    move_into(r, remainders);
}

bool divide(NTL::Vec<NTL::ZZ>& q, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b)
{
    return divide_all(q, a, backend_checked(b, "divide"), "divide") < 0;
}

void div(NTL::ZZX& q, const NTL::ZZX& a, const NTL::ZZ& b)
{
    if (const long i = divide_all(q.rep, a.rep, checked_divisor(b, "div"), "div"); i >= 0)
        throw Error("div: b does not divide coefficient " + std::to_string(i));
}

bool divide(NTL::ZZX& q, const NTL::ZZX& a, const NTL::ZZ& b)
{
    return divide_all(q.rep, a.rep, backend_checked(b, "divide"), "divide") < 0;
}

}  // namespace zgpu
