// NTL-style division of Vec<ZZ> and ZZX by a scalar: div, rem, DivRem and divide as NTL's on
// ZZ, entry by entry (floor rounding), and ZZX's exact div and divide; the host dispatch
// chooses the host threads (NTL's own functions) or the GPU. b is read once, before any output
// changes; a zero b (where NTL raises an error), an inexact exact division and a fixed-length
// output of the wrong length throw zgpu::Error with the outputs untouched.
#include <string>

#include "plugin/host_ops/host_ops.hpp"
#include "base/parallel.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl.hpp"
#include "plugin/ntl/zz_array.hpp"

namespace zgpu {
namespace {

// b as one entry, copied (it may be an entry of an output); NTL raises an error for b = 0.
NTL::Vec<NTL::ZZ> nonzero_divisor(const NTL::ZZ& b, const std::string& name)
{
    if (NTL::IsZero(b)) throw Error(name + ": division by zero (b is 0)");
    return one_element(b);
}

// body(i) for the entries first .. last - 1 of a divided by b, on the host threads.
template <class Body>
void each(std::size_t first, std::size_t last, const HostOperand& a, const HostOperand& b, Body body)
{
    parallel_for(first, last, host_min_parallel(a, b), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) body(long(i));
    });
}

// a[i] divided by b[0] != 0 with floor rounding, as NTL's DivRem on ZZ, computed aside (a may
// be an output): the quotients, the remainders, or both.
struct FloorDivision {
    NTL::Vec<NTL::ZZ> quotients, remainders;
};

FloorDivision floor_divide(const NTL::Vec<NTL::ZZ>& a, const NTL::Vec<NTL::ZZ>& b, bool quotients, bool remainders)
{
    const std::size_t n = std::size_t(a.length());
    const ZZArray dividends{&a, n}, divisor{&b, 1};
    FloorDivision result;
    const HostOperand pa = host_operand(dividends, n, "a"), pb = host_operand(divisor, 1, "b");
    const auto size_results = [&] {
        result.quotients.SetLength(quotients ? long(n) : 0);
        result.remainders.SetLength(remainders ? long(n) : 0);
    };
    div_host(HostDivision::floor, pa, n, pb, 1,
        [&](std::size_t first, std::size_t last) {
            size_results();
            each(first, last, pa, pb, [&](long i) {
                if (quotients && remainders) NTL::DivRem(result.quotients[i], result.remainders[i], a[i], b[0]);
                else if (quotients) NTL::div(result.quotients[i], a[i], b[0]);
                else NTL::rem(result.remainders[i], a[i], b[0]);
            });
        },
        [&](std::size_t first, ConstBatchView q, ConstBatchView r) {
            size_results();
            if (quotients) adapters::unpack_zz_array(q, result.quotients.elts() + first);
            if (remainders) adapters::unpack_zz_array(r, result.remainders.elts() + first);
        });
    return result;
}

// q[i] = a[i] / b for every entry if all divide exactly (returns -1), else the first index
// that does not, with q untouched. As NTL's divide, b = 0 divides 0 only (the quotient is 0).
long divide_all(NTL::Vec<NTL::ZZ>& q, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b, const std::string& name)
{
    const std::size_t n = std::size_t(a.length());
    require_resizable(q, n, name, "q");
    const NTL::Vec<NTL::ZZ> divisor = one_element(b);
    NTL::Vec<NTL::ZZ> quotients;
    long first_inexact = -1;
    const ZZArray dividends{&a, n}, divisors{&divisor, 1};
    const HostOperand pa = host_operand(dividends, n, "a"), pb = host_operand(divisors, 1, "b");
    const auto on_cpu = [&] {
        quotients.SetLength(long(n));
        NTL::Vec<char> exact;
        exact.SetLength(long(n));
        each(0, n, pa, pb, [&](long i) { exact[i] = char(NTL::IsZero(b) ? NTL::IsZero(a[i]) : NTL::divide(quotients[i], a[i], divisor[0])); });
        for (long i = 0; i < long(n) && first_inexact < 0; ++i)
            if (!exact[i]) first_inexact = i;
    };
    if (NTL::IsZero(b)) {  // not a division: the host threads answer
        on_cpu();
        set_last_backend(Backend::cpu);
    } else {
        const std::size_t first = divexact_checked_host(pa, n, pb, 1, on_cpu, [&](std::size_t, ConstBatchView q) {
            adapters::unpack_vec_zz(q, quotients);  // all of them, at once
        });
        if (first < n) first_inexact = long(first);
    }
    if (first_inexact >= 0) return first_inexact;
    move_into(q, quotients);
    return -1;
}

}  // namespace

void div(NTL::Vec<NTL::ZZ>& q, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b)
{
    require_resizable(q, std::size_t(a.length()), "div", "q");
    FloorDivision result = floor_divide(a, nonzero_divisor(b, "div"), true, false);
    move_into(q, result.quotients);
}

void rem(NTL::Vec<NTL::ZZ>& r, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b)
{
    require_resizable(r, std::size_t(a.length()), "rem", "r");
    FloorDivision result = floor_divide(a, nonzero_divisor(b, "rem"), false, true);
    move_into(r, result.remainders);
}

void DivRem(NTL::Vec<NTL::ZZ>& q, NTL::Vec<NTL::ZZ>& r, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b)
{
    if (&q == &r) throw Error("DivRem: q and r are the same vector");
    require_resizable(q, std::size_t(a.length()), "DivRem", "q");
    require_resizable(r, std::size_t(a.length()), "DivRem", "r");
    FloorDivision result = floor_divide(a, nonzero_divisor(b, "DivRem"), true, true);
    move_into(q, result.quotients);
    move_into(r, result.remainders);
}

bool divide(NTL::Vec<NTL::ZZ>& q, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b)
{
    return divide_all(q, a, b, "divide") < 0;
}

void div(NTL::ZZX& q, const NTL::ZZX& a, const NTL::ZZ& b)
{
    if (NTL::IsZero(b)) throw Error("div: division by zero (b is 0)");
    if (const long i = divide_all(q.rep, a.rep, b, "div"); i >= 0)
        throw Error("div: b does not divide coefficient " + std::to_string(i));
}

bool divide(NTL::ZZX& q, const NTL::ZZX& a, const NTL::ZZ& b)
{
    return divide_all(q.rep, a.rep, b, "divide") < 0;
}

}  // namespace zgpu
