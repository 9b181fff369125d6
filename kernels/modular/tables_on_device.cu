#include "kernels/modular/tables_on_device.hpp"

#include "kernels/common/cuda_check.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kThreads = 256;

// Entry e of powers (e < R k) or of block_powers (after them): modulus i = e mod k, exponent
// c or R b from e / k.
__global__ void powers_kernel(const ModularTablesTarget t)
{
    const std::size_t k = t.count, e = std::size_t(blockIdx.x) * kThreads + threadIdx.x;
    if (e >= std::size_t(kPowerBlock + kPowerBlocks) * k) return;
    const std::size_t row = e / k, i = e % k;
    if (row < kPowerBlock) t.powers[e] = limb_base_power(t.moduli[i], row);
    else t.block_powers[e - kPowerBlock * k] = limb_base_power(t.moduli[i], std::uint64_t(kPowerBlock) * (row - kPowerBlock));
}

// Modulus i's c_i = M_i^-1 mod n_i and the limbs of M_i = P / n_i.
__global__ void crt_kernel(const ModularTablesTarget t)
{
    const std::size_t i = std::size_t(blockIdx.x) * kThreads + threadIdx.x;
    if (i >= t.count) return;
    t.crt_inverses[i] = inverse_mod_coprime(cofactor_mod(t.moduli, t.count, i), t.moduli[i].n);
    divide_by_modulus(t.moduli[i], t.product, t.product_limbs, t.cofactors + i * t.product_limbs, 1);
}

unsigned blocks_for(std::size_t threads) { return unsigned((threads + kThreads - 1) / kThreads); }

}  // namespace

void fill_modular_tables(const ModularTablesTarget& target, cudaStream_t stream)
{
    powers_kernel<<<blocks_for(std::size_t(kPowerBlock + kPowerBlocks) * target.count), kThreads, 0, stream>>>(target);
    check_launch("building the powers of a prime set");
    if (!target.crt_inverses) return;
    crt_kernel<<<blocks_for(target.count), kThreads, 0, stream>>>(target);
    check_launch("building the CRT tables of a prime set");
}

}  // namespace zgpu::kernels
