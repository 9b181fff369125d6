// Twiddle tables of the polynomial products (layout: poly_ntt_tables.hpp). The top level
// (entries N/2 + j = w_N^j) goes in runs: a thread raises the root to its run's first exponent
// and multiplies by the root along the run, one product and one companion (a 128-bit division)
// an entry. The levels below take every (N / 2h)-th entry of the top one: w_2h^j =
// w_N^(j N / 2h).
#include "kernels/poly/poly_ntt_tables.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "zgpu/error.hpp"

namespace zgpu::kernels {
namespace {

constexpr int kThreads = 256;
constexpr std::uint32_t kRun = 32;  // top-level entries a thread

struct TableArgs {
    const Field64* fields;
    const limb_t* roots[2];  // forward, inverse
    Twiddle64* tables[2];
    std::uint32_t length;
};

// Rows prime * 2 + direction, gridDim.y of them at a time.
__global__ void __launch_bounds__(kThreads) top_level(const TableArgs args, std::size_t rows)
{
    const std::uint32_t half = args.length / 2, first = (blockIdx.x * kThreads + threadIdx.x) * kRun;
    if (first >= half) return;
    for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
        const std::size_t prime = row / 2;
        const Field64 f = args.fields[prime];
        const limb_t root = args.roots[row % 2][prime];
        Twiddle64* top = args.tables[row % 2] + prime * args.length + half;
        limb_t w = f.pow(root, first);  // Montgomery form
        for (std::uint32_t j = first; j < first + kRun && j < half; ++j) {
            top[j] = f.twiddle(w);
            w = f.normal(f.mul(w, root));
        }
    }
}

__global__ void __launch_bounds__(kThreads) lower_levels(const TableArgs args, std::size_t rows)
{
    const std::uint32_t entry = blockIdx.x * kThreads + threadIdx.x, half = args.length / 2;
    if (entry >= half) return;
    for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
        Twiddle64* table = args.tables[row % 2] + row / 2 * args.length;
        if (entry == 0) {
            table[0] = {0, 0};
            continue;
        }
        const std::uint32_t h = std::uint32_t(1) << (31 - __clz(entry)), j = entry - h;
        table[entry] = table[half + j * (half / h)];
    }
}

}  // namespace

void make_poly_ntt_tables(const Field64* fields, const limb_t* roots, const limb_t* inverse_roots, std::size_t primes,
                          std::uint32_t length, Twiddle64* forward, Twiddle64* inverse, cudaStream_t stream)
{
    if (primes == 0) return;
    if (length < 2 || !std::has_single_bit(length)) throw Error("NTT tables: length " + std::to_string(length) + " is not a power of two >= 2");
    const TableArgs args{fields, {roots, inverse_roots}, {forward, inverse}, length};
    const std::uint32_t half = length / 2;
    const std::size_t rows = 2 * primes;
    const unsigned grid_rows = unsigned(std::min<std::size_t>(rows, 65535));
    const dim3 top_grid((half + kRun * kThreads - 1) / (kRun * kThreads), grid_rows);
    top_level<<<top_grid, kThreads, 0, stream>>>(args, rows);
    check_launch("NTT tables: top level launch");
    const dim3 lower_grid((half + kThreads - 1) / kThreads, grid_rows);
    lower_levels<<<lower_grid, kThreads, 0, stream>>>(args, rows);
    check_launch("NTT tables: lower levels launch");
}

}  // namespace zgpu::kernels
