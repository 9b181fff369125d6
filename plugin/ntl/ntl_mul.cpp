// NTL-style products of Vec<ZZ>: by a scalar (as NTL's mul), and pointwise; ZZX by a scalar.
#include <string>

#include "plugin/host_ops/host_ops.hpp"
#include "base/parallel.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl.hpp"
#include "plugin/ntl/zz_array.hpp"

namespace zgpu {
namespace {

// x[i] = a[i] * b[i], or a[i] * b[0] with b of one element; x resized once all checks passed.
void multiply(NTL::Vec<NTL::ZZ>& x, const ZZArray& a, std::size_t n, const ZZArray& b, std::size_t b_count)
{
    require_resizable(x, n, "mul", "x");
    const HostOperand pa = host_operand(a, n, "a");
    const HostOperand pb = host_operand(b, b_count, "b");
    mul_host(
        pa, n, pb, b_count,
        [&](std::size_t first, std::size_t last) {
            x.SetLength(long(n));
            parallel_for(first, last, host_min_parallel(pa, pb), [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) NTL::mul(x[long(i)], a.at(i), b.at(b_count == 1 ? 0 : i));
            });
        },
        [&](std::size_t first, ConstBatchView r) {
            x.SetLength(long(n));
            adapters::unpack_zz_array(r, x.elts() + first);
        });
}

}  // namespace

void mul(NTL::Vec<NTL::ZZ>& x, const NTL::Vec<NTL::ZZ>& a, const NTL::ZZ& b)
{
    const NTL::Vec<NTL::ZZ> scalar = one_element(b);
    const std::size_t n = a.length();
    multiply(x, {&a, n}, n, {&scalar, 1}, 1);
}

void mul(NTL::ZZX& x, const NTL::ZZX& a, const NTL::ZZ& b)
{
    const NTL::Vec<NTL::ZZ> scalar = one_element(b);
    const std::size_t n = a.rep.length();
    multiply(x.rep, {&a.rep, n}, n, {&scalar, 1}, 1);
    x.normalize();  // b = 0 leaves zero coefficients
}

void mul(NTL::Vec<NTL::ZZ>& x, const NTL::Vec<NTL::ZZ>& a, const NTL::Vec<NTL::ZZ>& b)
{
    if (a.length() != b.length())
        throw Error("mul: vector lengths differ (a has " + std::to_string(a.length()) + " entries, b has " +
                    std::to_string(b.length()) + ")");
    const std::size_t n = a.length();
    multiply(x, {&a, n}, n, {&b, n}, n);
}

}  // namespace zgpu
