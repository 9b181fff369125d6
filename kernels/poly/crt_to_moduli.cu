// Garner's mixed-radix digits of x from its residues, x = v_0 + v_1 p_0 + v_2 p_0 p_1 + ...
// with v_i < p_i, then x mod n = sum_l v_l (p_0 ... p_(l-1) mod n) mod n: k (k - 1) / 2 + k
// products modulo the primes and k modulo n a value.
#include "kernels/poly/crt_to_moduli.hpp"

#include <algorithm>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kThreads = 256;

struct CrtArgs {
    ConstResidueView r;
    GarnerView g;
    const Modulus* moduli;
    const limb_t* radix;
    const std::uint64_t* offsets;
    const std::uint32_t* lengths;
    std::size_t groups;
    limb_t* out;
};

__global__ void __launch_bounds__(kThreads) crt_to_moduli_kernel(const CrtArgs args)
{
    const std::size_t k = args.g.primes;
    for (std::size_t j = blockIdx.y; j < args.groups; j += gridDim.y) {
        const std::uint32_t length = args.lengths[j];
        const std::uint64_t offset = args.offsets[j];
        const Modulus m = args.moduli[j];
        for (std::uint32_t c = blockIdx.x * kThreads + threadIdx.x; c < length; c += gridDim.x * kThreads) {
            const std::uint64_t e = offset + c;
            limb_t v[kCrtToModuliMaxPrimes];
            limb_t x = m.reduce(args.r.prime(0)[e]);
            v[0] = args.r.prime(0)[e];
            for (std::size_t i = 1; i < k; ++i) {
                const Field64& f = args.g.fields[i];
                limb_t below = 0;  // v_0 + v_1 p_0 + ... + v_(i-1) p_0 ... p_(i-2), mod p_i
                for (std::size_t l = 0; l < i; ++l) below = f.normal(below + f.normal(f.mul(v[l], args.g.below[i * k + l])));
                const limb_t r = args.r.prime(i)[e];
                const limb_t difference = r >= below ? r - below : r + f.p - below;
                v[i] = f.normal(f.mul(difference, args.g.inverse[i]));
                x = m.add(x, m.mul(v[i], args.radix[j * k + i]));
            }
            args.out[e] = x;
        }
    }
}

}  // namespace

void crt_to_moduli(ConstResidueView r, const GarnerView& g, const Modulus* moduli, const limb_t* radix,
                   const std::uint64_t* offsets, const std::uint32_t* lengths, std::size_t groups,
                   std::uint32_t max_length, limb_t* out, cudaStream_t stream)
{
    if (groups == 0 || max_length == 0) return;
    if (g.primes == 0 || g.primes > kCrtToModuliMaxPrimes)
        throw Error("CRT to moduli: " + std::to_string(g.primes) + " primes (1 to " + std::to_string(kCrtToModuliMaxPrimes) + " allowed)");
    const CrtArgs args{r, g, moduli, radix, offsets, lengths, groups, out};
    const dim3 grid(std::min<std::uint32_t>((max_length + kThreads - 1) / kThreads, 65535),
                    unsigned(std::min<std::size_t>(groups, 65535)));
    crt_to_moduli_kernel<<<grid, kThreads, 0, stream>>>(args);
    check_launch("CRT to moduli launch");
}

}  // namespace zgpu::kernels
