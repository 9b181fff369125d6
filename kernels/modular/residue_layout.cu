// Transposes between the interleaved and the prime-major layouts of residues in tiles of 32
// values x 32 moduli through shared memory, so that both the reads and the writes of a warp are
// 32 consecutive words.
#include "kernels/modular/residue_layout.hpp"

#include <string>

#include "kernels/common/cuda_check.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kTile = 32;
constexpr int kRows = 8;  // threadIdx.y: each thread moves kTile / kRows words

// FromInterleaved: from the interleaved layout to the prime-major one; else back.
template <bool FromInterleaved>
__global__ void __launch_bounds__(kTile * kRows) transpose(const limb_t* interleaved_in, limb_t* interleaved_out, BasicResidueView<const limb_t> in,
                                                            ResidueView out)
{
    __shared__ limb_t tile[kTile][kTile + 1];  // [value][modulus]; odd length: distinct banks both ways
    const std::size_t e0 = std::size_t(blockIdx.x) * kTile, i0 = std::size_t(blockIdx.y) * kTile;
    const std::size_t count = FromInterleaved ? out.count : in.count, primes = FromInterleaved ? out.primes : in.primes;
    for (int r = threadIdx.y; r < kTile; r += kRows) {
        if (FromInterleaved) {  // row r: value e0 + r, moduli along x
            const std::size_t e = e0 + r, i = i0 + threadIdx.x;
            if (e < count && i < primes) tile[r][threadIdx.x] = interleaved_in[e * primes + i];
        } else {  // row r: modulus i0 + r, values along x
            const std::size_t e = e0 + threadIdx.x, i = i0 + r;
            if (e < count && i < primes) tile[threadIdx.x][r] = in.prime(i)[e];
        }
    }
    __syncthreads();
    for (int r = threadIdx.y; r < kTile; r += kRows) {
        if (FromInterleaved) {  // modulus i0 + r, values along x
            const std::size_t e = e0 + threadIdx.x, i = i0 + r;
            if (e < count && i < primes) out.prime(i)[e] = tile[threadIdx.x][r];
        } else {  // value e0 + r, moduli along x
            const std::size_t e = e0 + r, i = i0 + threadIdx.x;
            if (e < count && i < primes) interleaved_out[e * primes + i] = tile[r][threadIdx.x];
        }
    }
}

dim3 grid_for(std::size_t count, std::size_t primes, const char* what)
{
    const std::size_t x = (count + kTile - 1) / kTile, y = (primes + kTile - 1) / kTile;
    if (x > 0x7fffffffu || y > 65535)
        throw Error(std::string(what) + ": " + std::to_string(count) + " values modulo " + std::to_string(primes) + " moduli exceed one launch");
    return dim3(unsigned(x), unsigned(y));
}

}  // namespace

void residues_from_interleaved(const limb_t* interleaved, ResidueView out, cudaStream_t stream)
{
    if (out.count == 0 || out.primes == 0) return;
    transpose<true><<<grid_for(out.count, out.primes, "residues_from_interleaved"), dim3(kTile, kRows), 0, stream>>>(interleaved, nullptr, {},
                                                                                                                    out);
    check_launch("residues_from_interleaved kernel launch");
}

void residues_to_interleaved(ConstResidueView in, limb_t* interleaved, cudaStream_t stream)
{
    if (in.count == 0 || in.primes == 0) return;
    transpose<false><<<grid_for(in.count, in.primes, "residues_to_interleaved"), dim3(kTile, kRows), 0, stream>>>(nullptr, interleaved, in, {});
    check_launch("residues_to_interleaved kernel launch");
}

}  // namespace zgpu::kernels
