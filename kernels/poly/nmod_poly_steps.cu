// The steps of nmod_poly_steps.hpp: a word an element and bound by memory, written plainly.
#include "kernels/poly/nmod_poly_steps.hpp"

#include "kernels/common/cuda_check.hpp"

namespace zgpu::kernels {
namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::size_t count) { return unsigned((count + kThreads - 1) / kThreads); }

__global__ void __launch_bounds__(kThreads) reverse_kernel(const limb_t* in, std::size_t count, limb_t* out)
{
    const std::size_t i = std::size_t(blockIdx.x) * kThreads + threadIdx.x;
    if (i < count) out[i] = in[count - 1 - i];
}

__global__ void __launch_bounds__(kThreads) sub_mod_kernel(const limb_t* a, const limb_t* b, std::size_t count, limb_t n, limb_t* out)
{
    const std::size_t i = std::size_t(blockIdx.x) * kThreads + threadIdx.x;
    if (i >= count) return;
    const limb_t x = a[i], y = b[i];
    out[i] = x >= y ? x - y : x - y + n;
}

}  // namespace

void reverse_words(const limb_t* in, std::size_t count, limb_t* out, cudaStream_t stream)
{
    if (count == 0) return;
    reverse_kernel<<<blocks_for(count), kThreads, 0, stream>>>(in, count, out);
    check_launch("reverse_words");
}

void sub_mod_words(const limb_t* a, const limb_t* b, std::size_t count, limb_t n, limb_t* out, cudaStream_t stream)
{
    if (count == 0) return;
    sub_mod_kernel<<<blocks_for(count), kThreads, 0, stream>>>(a, b, count, n, out);
    check_launch("sub_mod_words");
}

}  // namespace zgpu::kernels
