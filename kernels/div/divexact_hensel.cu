// Exact division by Hensel's schoolbook method (2-adic, from the lowest limb), one thread an
// element with the dividend (and up to 32 limbs, the divisor) in registers:
//   strip the divisor's t low zero bits from both: a' = |a| / 2^t, b' = |b| / 2^t, b' odd;
//   for j = 0, 1, ...: q_j = r_j b'^-1 mod B, then r -= q_j b' B^j (r_j becomes 0).
// Only the quotient's k limbs of r need updating; checked, all of them do, and the division
// is exact when r ends at zero with no borrow out of the top and no bit of a was stripped.
// Cost: k m limb products for k quotient limbs and an m-limb divisor, about k^2/2 of r's
// positions when unchecked: at 1024 bits (dividend twice the divisor), 9 x 8 against the
// 16 x 16 of a product of two dividend-size operands.
#include "kernels/div/divexact_hensel.hpp"

#include <bit>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/warp_limbs.cuh"
#include "kernels/common/word_inverse.cuh"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kBlockThreads = 128;

// out = floor(x / 2^(64 z + bits)) mod B^N for the n-limb magnitude x.
template <int N>
__device__ void shift_down(const limb_t* x, std::uint32_t n, std::uint32_t z, int bits, limb_t (&out)[N])
{
    limb_t low = z < n ? x[z] : 0;
#pragma unroll
    for (int l = 0; l < N; ++l) {
        const limb_t high = z + l + 1 < n ? x[z + l + 1] : 0;
        out[l] = bits ? low >> bits | high << (64 - bits) : low;
        low = high;
    }
}

// A limb read each time it is used: volatile, so the compiler keeps no copies of the divisor
// alive next to the dividend's registers (it would spill them).
__device__ limb_t load_each_time(const limb_t* p)
{
    limb_t v;
    asm volatile("ld.global.nc.u64 %0, [%1];" : "=l"(v) : "l"(p));
    return v;
}

template <int N, bool kDivisorInRegisters>
__global__ void __launch_bounds__(kBlockThreads)
    divexact_hensel_kernel(ConstBatchView a, ConstBatchView b, bool broadcast, BatchView q, unsigned long long* first_inexact)
{
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= a.count) return;
    const std::size_t other = broadcast ? 0 : i;
    const limb_t* divisor = b.element(other);
    std::uint32_t z = 0;
    while (divisor[z] == 0) ++z;
    const int bits = __ffsll(divisor[z]) - 1;
    const std::uint32_t nb = magnitude(b.sizes[other]);
    // r holds the low N limbs of a', all of them when checked, the quotient's when not. b'
    // sits in registers next to it up to 32 limbs; above, it is read limb by limb (from L1).
    limb_t d[kDivisorInRegisters ? N : 1], r[N];
    if constexpr (kDivisorInRegisters) shift_down(divisor, nb, z, bits, d);
    const std::uint32_t m = nb - z - ((divisor[nb - 1] >> bits) == 0);
    const auto divisor_limb = [&](int l) -> limb_t {
        if constexpr (kDivisorInRegisters) return d[l];
        else {
            if (l >= m) return 0;
            const limb_t low = load_each_time(divisor + z + l);
            const limb_t high = z + l + 1 < nb ? load_each_time(divisor + z + l + 1) : 0;
            return bits ? low >> bits | high << (64 - bits) : low;
        }
    };
    const limb_t* dividend = a.element(i);
    const std::uint32_t na = magnitude(a.sizes[i]);
    shift_down(dividend, na, z, bits, r);
    const bool checked = first_inexact != nullptr;
    bool inexact = false;
    if (checked) {
        for (std::uint32_t l = 0; l < z && l < na; ++l) inexact |= dividend[l] != 0;
        if (z < na) inexact |= (dividend[z] & ((limb_t(1) << bits) - 1)) != 0;
    }
    // An exact quotient has at most n - m + 1 limbs and fits q's stride; more would be inexact.
    const std::uint32_t n = na <= z ? 0 : na - z - ((dividend[na - 1] >> bits) == 0);
    const std::uint32_t k = n >= m ? ::min(n - m + 1, q.stride) : 0;
    const std::uint32_t kept = checked ? N : k;  // the positions of r kept up to date
    const limb_t inverse = inverse_mod_word(divisor_limb(0));
#pragma unroll
    for (int j = 0; j < N; ++j) {
        if (j >= k) break;
        inexact |= hensel_step(r, j, kept, inverse, divisor_limb) != 0;  // a borrow out of the top: q b' > a'
    }
    if (checked) {
#pragma unroll
        for (int l = 0; l < N; ++l) inexact |= l >= k && r[l] != 0;
        if (inexact) atomicMin(first_inexact, (unsigned long long)i);
    }
    limb_t* out = q.element(i);
    std::uint32_t size = 0;
#pragma unroll
    for (int j = 0; j < N; ++j) {
        const limb_t v = j < k ? r[j] : 0;
        if (j < q.stride) out[j] = v;
        if (v) size = j + 1;
    }
    for (std::uint32_t j = N; j < q.stride; ++j) out[j] = 0;
    const bool negative = (a.sizes[i] < 0) != (b.sizes[other] < 0);
    q.sizes[i] = negative ? -std::int32_t(size) : std::int32_t(size);
}

}  // namespace

void divexact_hensel(ConstBatchView a, ConstBatchView b, bool broadcast, BatchView q, unsigned long long* first_inexact,
                     cudaStream_t stream)
{
    if (a.count == 0) return;
    const std::size_t blocks = (a.count + kBlockThreads - 1) / kBlockThreads;
    if (blocks > 0x7fffffffu) throw Error("divexact: " + std::to_string(a.count) + " elements exceed one launch");
    const std::uint32_t need = first_inexact ? a.stride : q.stride;
    const auto launch = [&](auto kernel) { kernel<<<unsigned(blocks), kBlockThreads, 0, stream>>>(a, b, broadcast, q, first_inexact); };
    if (b.stride <= 32 && need <= 32) {
        switch (std::bit_ceil(std::max({need, b.stride, 2u}))) {
        case 2: launch(divexact_hensel_kernel<2, true>); break;
        case 4: launch(divexact_hensel_kernel<4, true>); break;
        case 8: launch(divexact_hensel_kernel<8, true>); break;
        case 16: launch(divexact_hensel_kernel<16, true>); break;
        default: launch(divexact_hensel_kernel<32, true>); break;
        }
    } else if (need <= 32) launch(divexact_hensel_kernel<32, false>);
    else if (need <= 40) launch(divexact_hensel_kernel<40, false>);
    else if (need <= kDivexactHenselMaxLimbs) launch(divexact_hensel_kernel<48, false>);
    else throw Error("divexact: internal error: " + std::to_string(need) + " limbs exceed the one-thread kernel");
    check_launch("divexact kernel launch");
}

}  // namespace zgpu::kernels
