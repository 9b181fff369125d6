// Where a matrix product mod n pays on the GPU: cost models of FLINT's nmod_mat_mul and of the
// GPU path, pure functions of the shapes, so that they can be tested without a GPU.
#pragma once

#include <cstdint>

namespace zgpu::matrix {

// A product of a rows x inner matrix by an inner x cols one, modulo an n of `bits` bits.
struct MatShape {
    std::uint64_t rows, inner, cols;
    unsigned bits;
};

// FLINT's nmod_mat_mul on one thread, in seconds, by the model.
double flint_nmod_mat_seconds(const MatShape& s);

// Whether the CPU backend runs FLINT on all host threads (else on one): from about 1 ms of work,
// below which FLINT's threads cost more than they save.
bool cpu_uses_threads(const MatShape& s);

// Whether the GPU path (upload, product, download, host copies) beats FLINT on `threads` host
// threads.
bool gpu_pays_for_nmod_mat_mul(const MatShape& s, unsigned threads);

}  // namespace zgpu::matrix
