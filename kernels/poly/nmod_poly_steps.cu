// The steps of nmod_poly_steps.hpp: a word an element and bound by memory, written plainly. The
// grid's y dimension walks the batch.
#include "kernels/poly/nmod_poly_steps.hpp"

#include <string>

#include "kernels/common/cuda_check.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr unsigned kThreads = 256;
// CUDA's limit on a grid's y dimension.
constexpr std::size_t kMaxGridY = 65535;

dim3 grid_for(std::size_t count, std::size_t batch, const char* step)
{
    if (batch > kMaxGridY) throw Error(std::string(step) + ": a batch of " + std::to_string(batch) + " is more than a launch takes");
    return dim3(unsigned((count + kThreads - 1) / kThreads), unsigned(batch));
}

__device__ limb_t add_mod(limb_t x, limb_t y, limb_t n) { return x >= n - y ? x - (n - y) : x + y; }

__global__ void __launch_bounds__(kThreads) reverse_kernel(ConstWordsBatch in, std::size_t count, WordsBatch out)
{
    const std::size_t i = std::size_t(blockIdx.x) * kThreads + threadIdx.x, j = blockIdx.y;
    if (i < count) out.words[j * out.stride + i] = in.words[j * in.stride + count - 1 - i];
}

__global__ void __launch_bounds__(kThreads) sub_mod_kernel(ConstWordsBatch a, ConstWordsBatch b, std::size_t count, limb_t n,
                                                           WordsBatch out)
{
    const std::size_t i = std::size_t(blockIdx.x) * kThreads + threadIdx.x, j = blockIdx.y;
    if (i >= count) return;
    const limb_t x = a.words[j * a.stride + i], y = b.words[j * b.stride + i];
    out.words[j * out.stride + i] = x >= y ? x - y : x - y + n;
}

__global__ void __launch_bounds__(kThreads) sum_groups_kernel(ConstWordsBatch in, std::size_t count, std::size_t group, limb_t n,
                                                              WordsBatch out)
{
    const std::size_t i = std::size_t(blockIdx.x) * kThreads + threadIdx.x, g = blockIdx.y;
    if (i >= count) return;
    const limb_t* x = in.words + g * group * in.stride + i;
    limb_t sum = 0;
    for (std::size_t k = 0; k < group; ++k) sum = add_mod(sum, x[k * in.stride], n);
    out.words[g * out.stride + i] = sum;
}

}  // namespace

void reverse_words(ConstWordsBatch in, std::size_t count, std::size_t batch, WordsBatch out, cudaStream_t stream)
{
    if (count == 0 || batch == 0) return;
    reverse_kernel<<<grid_for(count, batch, "reverse_words"), kThreads, 0, stream>>>(in, count, out);
    check_launch("reverse_words");
}

void sub_mod_words(ConstWordsBatch a, ConstWordsBatch b, std::size_t count, std::size_t batch, limb_t n, WordsBatch out,
                   cudaStream_t stream)
{
    if (count == 0 || batch == 0) return;
    sub_mod_kernel<<<grid_for(count, batch, "sub_mod_words"), kThreads, 0, stream>>>(a, b, count, n, out);
    check_launch("sub_mod_words");
}

void sum_groups_mod(ConstWordsBatch in, std::size_t count, std::size_t group, std::size_t groups, limb_t n, WordsBatch out,
                    cudaStream_t stream)
{
    if (count == 0 || groups == 0) return;
    sum_groups_kernel<<<grid_for(count, groups, "sum_groups_mod"), kThreads, 0, stream>>>(in, count, group, n, out);
    check_launch("sum_groups_mod");
}

}  // namespace zgpu::kernels
