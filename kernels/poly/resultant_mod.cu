// Resultants modulo a batch of primes (kernels/poly/resultant_mod.hpp): each step of a
// remainder sequence is a pass of a group of lanes along the polynomials, which sit in shared
// memory where they fit. Many primes take a warp each, in blocks of one warp, so that a prime's
// words are all the shared memory it asks for and an SM holds as many primes as fit. Fewer
// primes than the GPU has SMs take a block of 256 threads each, so that one prime's sequence
// still spreads over an SM.
#include "kernels/poly/resultant_mod.hpp"

#include <algorithm>
#include <string>

#include "kernels/common/cuda_check.hpp"

namespace zgpu::kernels {
namespace {

constexpr unsigned kWarp = 32, kBlock = 256, kBlockWarps = kBlock / kWarp;

// The lanes of one warp as resultant_sequence.hpp's group.
struct WarpLanes {
    __device__ unsigned rank() const { return threadIdx.x; }
    __device__ unsigned size() const { return kWarp; }
    __device__ void sync() const { __syncwarp(); }
    __device__ limb_t product(limb_t x, const Modulus& p) const
    {
        for (unsigned offset = kWarp / 2; offset; offset /= 2) x = p.mul(x, __shfl_xor_sync(~0u, x, offset));
        return x;
    }
    __device__ long highest_nonzero(const limb_t* x, std::size_t d) const
    {
        unsigned top = 0;  // 1 + the highest nonzero index among this lane's words
        for (std::size_t i = rank(); i <= d; i += kWarp)
            if (x[i] != 0) top = unsigned(i + 1);
        return long(__reduce_max_sync(~0u, top)) - 1;
    }
};

// The threads of one block of kBlock as resultant_sequence.hpp's group: a warp's shuffles, then
// the warps' partial results through shared memory.
struct BlockLanes {
    limb_t* partial;  // shared, kBlockWarps words
    unsigned* top;    // shared

    __device__ unsigned rank() const { return threadIdx.x; }
    __device__ unsigned size() const { return kBlock; }
    __device__ void sync() const { __syncthreads(); }
    __device__ limb_t product(limb_t x, const Modulus& p) const
    {
        x = WarpLanes{}.product(x, p);
        if (threadIdx.x % kWarp == 0) partial[threadIdx.x / kWarp] = x;
        __syncthreads();
        limb_t all = partial[0];
        for (unsigned w = 1; w < kBlockWarps; ++w) all = p.mul(all, partial[w]);
        __syncthreads();  // before partial is written again
        return all;
    }
    __device__ long highest_nonzero(const limb_t* x, std::size_t d) const
    {
        if (threadIdx.x == 0) *top = 0;
        __syncthreads();
        unsigned mine = 0;  // 1 + the highest nonzero index among this thread's words
        for (std::size_t i = rank(); i <= d; i += kBlock)
            if (x[i] != 0) mine = unsigned(i + 1);
        mine = __reduce_max_sync(~0u, mine);
        if (threadIdx.x % kWarp == 0) atomicMax(top, mine);
        __syncthreads();
        const long highest = long(*top) - 1;
        __syncthreads();  // before top is reset
        return highest;
    }
};

// The batch, a group of lanes a prime: each prime's words copied to shared memory where they
// fit, its sequence run, its value written and counted.
template <class Lanes>
__device__ void resultants(const Lanes& lanes, limb_t* words, limb_t* a, std::size_t da, limb_t* b, std::size_t db,
                           const Modulus* moduli, std::size_t count, limb_t* res, bool on_chip, unsigned long long* finished)
{
    for (std::size_t k = blockIdx.x; k < count; k += gridDim.x) {
        limb_t* ak = a + k * (da + 1);
        limb_t* bk = b + k * (db + 1);
        if (on_chip) {
            for (std::size_t i = lanes.rank(); i <= da; i += lanes.size()) words[i] = ak[i];
            for (std::size_t i = lanes.rank(); i <= db; i += lanes.size()) words[da + 1 + i] = bk[i];
            ak = words, bk = words + da + 1;
        }
        lanes.sync();
        const limb_t r = resultant_mod(lanes, ak, da, bk, db, moduli[k]);
        if (lanes.rank() == 0) {
            res[k] = r;
            if (finished) atomicAdd(finished, 1ull);
        }
        lanes.sync();  // before the next prime's words overwrite these
    }
}

__global__ void __launch_bounds__(kWarp) resultant_warp_kernel(limb_t* a, std::size_t da, limb_t* b, std::size_t db,
                                                               const Modulus* moduli, std::size_t count, limb_t* res,
                                                               bool on_chip, unsigned long long* finished)
{
    extern __shared__ limb_t words[];
    resultants(WarpLanes{}, words, a, da, b, db, moduli, count, res, on_chip, finished);
}

__global__ void __launch_bounds__(kBlock) resultant_block_kernel(limb_t* a, std::size_t da, limb_t* b, std::size_t db,
                                                                 const Modulus* moduli, std::size_t count, limb_t* res,
                                                                 bool on_chip, unsigned long long* finished)
{
    extern __shared__ limb_t words[];
    __shared__ limb_t partial[kBlockWarps];
    __shared__ unsigned top;
    resultants(BlockLanes{partial, &top}, words, a, da, b, db, moduli, count, res, on_chip, finished);
}

// Both polynomials' words, and room for the block kernel's own shared words.
std::size_t shared_bytes(std::size_t da, std::size_t db) { return (da + db + 2) * sizeof(limb_t); }
constexpr std::size_t kStaticSharedBytes = 128;

template <class Kernel>
void launch(Kernel kernel, unsigned threads, limb_t* a, std::size_t da, limb_t* b, std::size_t db, const Modulus* moduli,
            std::size_t count, limb_t* res, cudaStream_t stream, unsigned long long* finished)
{
    const bool on_chip = resultant_mod_fits_on_chip(da, db);
    const std::size_t bytes = on_chip ? shared_bytes(da, db) : 0;
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)), "resultant_mod: shared memory");
    const unsigned blocks = unsigned(std::min<std::size_t>(count, 1u << 30));
    kernel<<<blocks, threads, bytes, stream>>>(a, da, b, db, moduli, count, res, on_chip, finished);
    check_launch("resultant_mod");
}

}  // namespace

bool resultant_mod_fits_on_chip(std::size_t da, std::size_t db)
{
    int device = 0, most = 0;
    check(cudaGetDevice(&device), "resultant_mod: current device");
    check(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "resultant_mod: shared memory");
    return shared_bytes(da, db) + kStaticSharedBytes <= std::size_t(most);
}

void resultant_mod(limb_t* a, std::size_t da, limb_t* b, std::size_t db, const Modulus* moduli, std::size_t count,
                   limb_t* res, cudaStream_t stream, unsigned long long* finished, unsigned lanes_per_prime)
{
    if (count == 0) return;
    if (lanes_per_prime == 0) {
        int device = 0, sms = 0;
        check(cudaGetDevice(&device), "resultant_mod: current device");
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "resultant_mod: SMs");
        lanes_per_prime = count < std::size_t(sms) ? kBlock : kWarp;
    }
    if (lanes_per_prime != kWarp && lanes_per_prime != kBlock)
        throw Error("resultant_mod: " + std::to_string(lanes_per_prime) + " lanes a prime (32, 256 or 0)");
    if (lanes_per_prime == kBlock)
        launch(resultant_block_kernel, kBlock, a, da, b, db, moduli, count, res, stream, finished);
    else
        launch(resultant_warp_kernel, kWarp, a, da, b, db, moduli, count, res, stream, finished);
}

}  // namespace zgpu::kernels
