// Resultants modulo a batch of primes, a warp a prime (kernels/poly/resultant_mod.hpp): each
// step of a remainder sequence is a pass of the warp's lanes along the polynomials, which sit in
// shared memory where they fit. A block is one warp, so that a prime's words are all the shared
// memory it asks for and an SM holds as many primes as fit.
#include "kernels/poly/resultant_mod.hpp"

#include <algorithm>

#include "kernels/common/cuda_check.hpp"

namespace zgpu::kernels {
namespace {

constexpr unsigned kWarp = 32;

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

__global__ void __launch_bounds__(kWarp) resultant_mod_kernel(limb_t* a, std::size_t da, limb_t* b, std::size_t db,
                                                              const Modulus* moduli, std::size_t count, limb_t* res,
                                                              bool on_chip, unsigned long long* finished)
{
    extern __shared__ limb_t words[];
    const WarpLanes lanes;
    for (std::size_t k = blockIdx.x; k < count; k += gridDim.x) {
        limb_t* ak = a + k * (da + 1);
        limb_t* bk = b + k * (db + 1);
        if (on_chip) {
            for (std::size_t i = lanes.rank(); i <= da; i += kWarp) words[i] = ak[i];
            for (std::size_t i = lanes.rank(); i <= db; i += kWarp) words[da + 1 + i] = bk[i];
            ak = words, bk = words + da + 1;
        }
        __syncwarp();
        const limb_t r = resultant_mod(lanes, ak, da, bk, db, moduli[k]);
        if (lanes.rank() == 0) {
            res[k] = r;
            if (finished) atomicAdd(finished, 1ull);
        }
        __syncwarp();  // before the next prime's words overwrite these
    }
}

std::size_t shared_bytes(std::size_t da, std::size_t db) { return (da + db + 2) * sizeof(limb_t); }

}  // namespace

bool resultant_mod_fits_on_chip(std::size_t da, std::size_t db)
{
    int device = 0, most = 0;
    check(cudaGetDevice(&device), "resultant_mod: current device");
    check(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "resultant_mod: shared memory");
    return shared_bytes(da, db) <= std::size_t(most);
}

void resultant_mod(limb_t* a, std::size_t da, limb_t* b, std::size_t db, const Modulus* moduli, std::size_t count,
                   limb_t* res, cudaStream_t stream, unsigned long long* finished)
{
    if (count == 0) return;
    const bool on_chip = resultant_mod_fits_on_chip(da, db);
    const std::size_t bytes = on_chip ? shared_bytes(da, db) : 0;
    check(cudaFuncSetAttribute(resultant_mod_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
          "resultant_mod: shared memory");
    const unsigned blocks = unsigned(std::min<std::size_t>(count, 1u << 30));
    resultant_mod_kernel<<<blocks, kWarp, bytes, stream>>>(a, da, b, db, moduli, count, res, on_chip, finished);
    check_launch("resultant_mod");
}

}  // namespace zgpu::kernels
