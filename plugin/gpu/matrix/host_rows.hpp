// Matrices between FLINT's rows (nmod_mat: row pointers in FLINT 2.9, a stride in FLINT 3) and
// one packed row-major array in pinned memory, on the host threads where it pays; and between
// FLINT's rows and the device, a band of rows at a time, so that the host's copying of one band
// overlaps the next band's PCIe transfer. Only plugin/gpu/ includes it.
#pragma once

#include <cstddef>
#include <span>

#include <cuda_runtime_api.h>

#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// Rows of `words` words each, from `rows` to one packed array, or back.
void gather_rows(std::span<const limb_t* const> rows, std::size_t words, limb_t* packed);
void scatter_rows(const limb_t* packed, std::size_t words, std::span<limb_t* const> rows);

// The rows gathered into pinned `packed` and copied to `device` (the same packed layout), queued
// on `stream` band by band as each is gathered. packed stays in use until the stream has run.
void upload_rows(std::span<const limb_t* const> rows, std::size_t words, limb_t* packed, limb_t* device, cudaStream_t stream);

// The reverse, after the work queued on `stream`: `device` through pinned `packed` into `rows`,
// each band scattered while the next one downloads. Returns once every row is written. The
// first band's wait follows all earlier work on the stream, so a failed computation writes
// nothing; a copy that fails after the first band leaves the bands before it written (where the
// rows are an input's, the host's answer after it would read them).
void download_rows(const limb_t* device, limb_t* packed, std::size_t words, std::span<limb_t* const> rows, cudaStream_t stream);

}  // namespace zgpu::gpu
