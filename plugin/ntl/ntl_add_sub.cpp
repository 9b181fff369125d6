// NTL-style add/sub entry points: Vec<ZZ> and ZZX.
#include <string>

#include "plugin/host_ops/host_ops.hpp"
#include "plugin/ntl/zz_array.hpp"
#include "base/parallel.hpp"
#include "zgpu/error.hpp"
#include "zgpu/ntl.hpp"

namespace zgpu {
namespace {

// Below this many elements threads cost more than they save, even for small values.
constexpr std::size_t kMinParallel = 512;

// x[0 .. n) = a +- b with x resized to n once every check has passed.
void add_sub(NTL::Vec<NTL::ZZ>& x, const ZZArray& a, const ZZArray& b, std::size_t n, bool subtract)
{
    add_sub_host(
        [&] { return host_operand(a, n, "a"); }, [&] { return host_operand(b, n, "b"); }, n, subtract,
        [&](std::size_t first, std::size_t last) {
            x.SetLength(long(n));
            parallel_for(first, last, kMinParallel, [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) {
                    if (subtract) NTL::sub(x[long(i)], a.at(i), b.at(i));
                    else NTL::add(x[long(i)], a.at(i), b.at(i));
                }
            });
        },
        [&](std::size_t first, ConstBatchView r) {
            x.SetLength(long(n));
            adapters::unpack_zz_array(r, x.elts() + first);
        });
}

void vec_add_sub(NTL::Vec<NTL::ZZ>& x, const NTL::Vec<NTL::ZZ>& a, const NTL::Vec<NTL::ZZ>& b, bool subtract)
{
    if (a.length() != b.length())
        throw Error(std::string(subtract ? "sub" : "add") + ": vector lengths differ (a has " +
                    std::to_string(a.length()) + " entries, b has " + std::to_string(b.length()) + ")");
    const std::size_t n = a.length();
    require_resizable(x, n, subtract ? "sub" : "add", "x");
    add_sub(x, {&a, n}, {&b, n}, n, subtract);
}

void poly_add_sub(NTL::ZZX& x, const NTL::ZZX& a, const NTL::ZZX& b, bool subtract)
{
    const std::size_t la = a.rep.length(), lb = b.rep.length();
    add_sub(x.rep, {&a.rep, la}, {&b.rep, lb}, std::max(la, lb), subtract);
    x.normalize();
}

}  // namespace

void add(NTL::Vec<NTL::ZZ>& x, const NTL::Vec<NTL::ZZ>& a, const NTL::Vec<NTL::ZZ>& b) { vec_add_sub(x, a, b, false); }
void sub(NTL::Vec<NTL::ZZ>& x, const NTL::Vec<NTL::ZZ>& a, const NTL::Vec<NTL::ZZ>& b) { vec_add_sub(x, a, b, true); }
void add(NTL::ZZX& x, const NTL::ZZX& a, const NTL::ZZX& b) { poly_add_sub(x, a, b, false); }
void sub(NTL::ZZX& x, const NTL::ZZX& a, const NTL::ZZX& b) { poly_add_sub(x, a, b, true); }

}  // namespace zgpu
