// Resultants modulo a batch of primes, a thread a prime (kernels/poly/resultant_mod.hpp): the
// coefficients interleaved, so that a warp's 32 primes read 32 neighbouring words at each step
// of their remainder sequences, which run in step where the degrees drop alike (the usual case).
#include "kernels/poly/resultant_mod.hpp"

#include "kernels/common/cuda_check.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kThreads = 128;

__global__ void __launch_bounds__(kThreads) resultant_mod_kernel(limb_t* a, std::size_t da, limb_t* b, std::size_t db,
                                                                  const Modulus* moduli, std::size_t count, limb_t* res)
{
    const std::size_t k = blockIdx.x * std::size_t(kThreads) + threadIdx.x;
    if (k >= count) return;
    res[k] = resultant_mod({a + k, count}, da, {b + k, count}, db, moduli[k]);
}

}  // namespace

void resultant_mod(limb_t* a, std::size_t da, limb_t* b, std::size_t db, const Modulus* moduli, std::size_t count,
                   limb_t* res, cudaStream_t stream)
{
    if (count == 0) return;
    resultant_mod_kernel<<<unsigned((count + kThreads - 1) / kThreads), kThreads, 0, stream>>>(a, da, b, db, moduli, count, res);
    check_launch("resultant_mod");
}

}  // namespace zgpu::kernels
