#include "plugin/gpu/matrix/host_rows.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "base/parallel.hpp"
#include "plugin/gpu/runtime.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {
namespace {

// Matrices of fewer words are copied on the calling thread: a few hundred microseconds of
// copying at most, where waking the host threads took milliseconds while FLINT's own threads
// were busy on the same cores (H200 host, 32 threads).
constexpr std::size_t kParallelFromWords = std::size_t(1) << 18;

// Words a band of the transfers holds at least (4 MiB): a band's copy call and its round of
// the host threads cost some microseconds, a band's transfer about 80.
constexpr std::size_t kBandWords = std::size_t(1) << 19;

// The fewest rows of `words` words that the host threads copy together.
std::size_t rows_parallel_from(std::size_t words) { return std::max<std::size_t>(2, kParallelFromWords / std::max<std::size_t>(words, 1)); }

// Whether the rows lie one after another, as FLINT 3 keeps a matrix's rows: then they copy as
// one block (a column matrix's rows are one word each).
template <class Row>
bool contiguous(std::span<Row const> rows, std::size_t words)
{
    for (std::size_t i = 1; i < rows.size(); ++i)
        if (rows[i] != rows[0] + i * words) return false;
    return true;
}

// Copies `count` words on the host threads where it pays.
void copy_words(limb_t* to, const limb_t* from, std::size_t count)
{
    parallel_for(count, kParallelFromWords, [&](std::size_t begin, std::size_t end) {
        std::memcpy(to + begin, from + begin, (end - begin) * sizeof(limb_t));
    });
}

// Rows a band of rows of `words` words holds.
std::size_t band_rows(std::size_t words) { return std::max<std::size_t>(1, kBandWords / std::max<std::size_t>(words, 1)); }

}  // namespace

void gather_rows(std::span<const limb_t* const> rows, std::size_t words, limb_t* packed)
{
    if (!rows.empty() && contiguous(rows, words)) return copy_words(packed, rows[0], rows.size() * words);
    parallel_for(rows.size(), rows_parallel_from(words), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) std::memcpy(packed + i * words, rows[i], words * sizeof(limb_t));
    });
}

void scatter_rows(const limb_t* packed, std::size_t words, std::span<limb_t* const> rows)
{
    if (!rows.empty() && contiguous(rows, words)) return copy_words(rows[0], packed, rows.size() * words);
    parallel_for(rows.size(), rows_parallel_from(words), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) std::memcpy(rows[i], packed + i * words, words * sizeof(limb_t));
    });
}

void upload_rows(std::span<const limb_t* const> rows, std::size_t words, limb_t* packed, limb_t* device, cudaStream_t stream)
{
    const std::size_t step = band_rows(words);
    const KeepWorkersAwake awake;  // a round of the host threads a band
    for (std::size_t first = 0; first < rows.size(); first += step) {
        const std::size_t count = std::min(step, rows.size() - first);
        gather_rows(rows.subspan(first, count), words, packed + first * words);
        check(cudaMemcpyAsync(device + first * words, packed + first * words, count * words * sizeof(limb_t), cudaMemcpyHostToDevice,
                              stream),
              "uploading rows");
    }
}

void download_rows(const limb_t* device, limb_t* packed, std::size_t words, std::span<limb_t* const> rows, cudaStream_t stream)
{
    const std::size_t step = band_rows(words), bands = (rows.size() + step - 1) / step;
    std::vector<Event> copied(bands);
    for (std::size_t band = 0; band < bands; ++band) {
        const std::size_t first = band * step, count = std::min(step, rows.size() - first);
        check(cudaMemcpyAsync(packed + first * words, device + first * words, count * words * sizeof(limb_t), cudaMemcpyDeviceToHost,
                              stream),
              "downloading rows");
        copied[band].record(stream);
    }
    if (bands == 0) return;
    copied[0].wait();  // after all the work before: the host threads sleep meanwhile
    const KeepWorkersAwake awake;  // a round of the host threads a band
    for (std::size_t band = 0; band < bands; ++band) {
        const std::size_t first = band * step, count = std::min(step, rows.size() - first);
        copied[band].wait();
        scatter_rows(packed + first * words, words, rows.subspan(first, count));
    }
}

}  // namespace zgpu::gpu
