// One kernel for every elementwise operation: blocks of 256 values along x, moduli along y
// (each block reads its modulus's constants once). Memory-bound: 16 to 24 bytes a value.
#include "kernels/modular/residue_arith.hpp"

#include <algorithm>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

enum class Op { add, sub, mul, neg, scalar_mul, scalar_addmul };
constexpr unsigned kThreads = 256;

template <Op op>
__global__ void __launch_bounds__(kThreads)
    residue_kernel(const ConstResidueView a, const ConstResidueView b, const limb_t* scalars, const Modulus* moduli, const ResidueView r)
{
    for (std::size_t i = blockIdx.y; i < r.primes; i += gridDim.y) {
        const Modulus m = moduli[i];
        const limb_t c = op == Op::scalar_mul || op == Op::scalar_addmul ? scalars[i] : 0;
        const limb_t* ai = a.prime(i);
        const limb_t* bi = op == Op::add || op == Op::sub || op == Op::mul ? b.prime(i) : nullptr;
        limb_t* ri = r.prime(i);
        for (std::size_t e = std::size_t(blockIdx.x) * kThreads + threadIdx.x; e < r.count; e += std::size_t(gridDim.x) * kThreads) {
            const limb_t x = ai[e];
            limb_t v;
            if constexpr (op == Op::add) v = m.add(x, bi[e]);
            else if constexpr (op == Op::sub) v = m.sub(x, bi[e]);
            else if constexpr (op == Op::mul) v = m.mul(x, bi[e]);
            else if constexpr (op == Op::neg) v = m.neg(x);
            else if constexpr (op == Op::scalar_mul) v = m.mul(x, c);
            else v = m.addmul(ri[e], x, c);
            ri[e] = v;
        }
    }
}

template <Op op>
void launch(ConstResidueView a, ConstResidueView b, const limb_t* scalars, const ModularTablesView& t, ResidueView r, cudaStream_t stream,
            const char* name)
{
    if (r.count == 0 || r.primes == 0) return;
    if (r.primes != t.count || a.count != r.count || a.primes != r.primes)
        throw Error(std::string(name) + ": internal error: " + std::to_string(r.count) + " values modulo " + std::to_string(r.primes) +
                    " moduli for a set of " + std::to_string(t.count));
    const dim3 grid(unsigned(std::min<std::size_t>((r.count + kThreads - 1) / kThreads, 65535)), unsigned(std::min<std::size_t>(r.primes, 65535)));
    residue_kernel<op><<<grid, kThreads, 0, stream>>>(a, b, scalars, t.moduli, r);
    check_launch(std::string(name) + " kernel launch");
}

}  // namespace

void residues_add(ConstResidueView a, ConstResidueView b, const ModularTablesView& tables, ResidueView r, cudaStream_t stream)
{
    launch<Op::add>(a, b, nullptr, tables, r, stream, "residues_add");
}
void residues_sub(ConstResidueView a, ConstResidueView b, const ModularTablesView& tables, ResidueView r, cudaStream_t stream)
{
    launch<Op::sub>(a, b, nullptr, tables, r, stream, "residues_sub");
}
void residues_mul(ConstResidueView a, ConstResidueView b, const ModularTablesView& tables, ResidueView r, cudaStream_t stream)
{
    launch<Op::mul>(a, b, nullptr, tables, r, stream, "residues_mul");
}
void residues_neg(ConstResidueView a, const ModularTablesView& tables, ResidueView r, cudaStream_t stream)
{
    launch<Op::neg>(a, a, nullptr, tables, r, stream, "residues_neg");
}
void residues_scalar_mul(ConstResidueView a, const limb_t* scalars, const ModularTablesView& tables, ResidueView r, cudaStream_t stream)
{
    launch<Op::scalar_mul>(a, a, scalars, tables, r, stream, "residues_scalar_mul");
}
void residues_scalar_addmul(ConstResidueView a, const limb_t* scalars, const ModularTablesView& tables, ResidueView r,
                            cudaStream_t stream)
{
    launch<Op::scalar_addmul>(a, a, scalars, tables, r, stream, "residues_scalar_addmul");
}

}  // namespace zgpu::kernels
