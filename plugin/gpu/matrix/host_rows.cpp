#include "plugin/gpu/matrix/host_rows.hpp"

#include <algorithm>
#include <cstring>

#include "base/parallel.hpp"

namespace zgpu::gpu {
namespace {

// Matrices of fewer words are copied on the calling thread: a few hundred microseconds of
// copying at most, where waking the host threads took milliseconds while FLINT's own threads
// were busy on the same cores (H200 host, 32 threads).
constexpr std::size_t kParallelFromWords = std::size_t(1) << 18;

// The fewest rows of `words` words that the host threads copy together.
std::size_t rows_parallel_from(std::size_t words) { return std::max<std::size_t>(2, kParallelFromWords / std::max<std::size_t>(words, 1)); }

}  // namespace

void gather_rows(std::span<const limb_t* const> rows, std::size_t words, limb_t* packed)
{
    parallel_for(rows.size(), rows_parallel_from(words), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) std::memcpy(packed + i * words, rows[i], words * sizeof(limb_t));
    });
}

void scatter_rows(const limb_t* packed, std::size_t words, std::span<limb_t* const> rows)
{
    parallel_for(rows.size(), rows_parallel_from(words), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) std::memcpy(rows[i], packed + i * words, words * sizeof(limb_t));
    });
}

}  // namespace zgpu::gpu
