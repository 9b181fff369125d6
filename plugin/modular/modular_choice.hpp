// Where reduction and CRT of host vectors pay on the GPU: a pure function of the shape, so that
// it can be tested without a GPU and fitted to measurements.
#pragma once

#include <cstddef>
#include <cstdint>

namespace zgpu {

// `count` values of up to value_limbs limbs and their residues modulo `moduli` moduli.
struct ModularShape {
    std::uint64_t value_limbs;
    std::size_t moduli;
    std::size_t count;
};

// Reduction (fmpz in, residues out) and CRT (residues in, fmpz out) through the pipelined GPU
// path, rather than FLINT on `threads` host threads.
bool gpu_pays_for_host_multi_mod(const ModularShape& shape, unsigned threads);
bool gpu_pays_for_host_multi_crt(const ModularShape& shape, unsigned threads);

}  // namespace zgpu
