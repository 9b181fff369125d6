// Reduction and CRT of host data, as the front ends (flint/, ntl/) call them: each chooses the
// backend (modular_choice.hpp), runs the GPU's pipelined path or the CPU backend
// (cpu_modular.hpp), and records which ran. The front ends have checked their arguments
// (residues below their moduli included). Residues are one array a modulus, of `count` words.
#pragma once

#include <cstddef>
#include <span>

#include "adapters/host_operand.hpp"
#include "plugin/modular/cpu_modular.hpp"
#include "zgpu/prime_set.hpp"

namespace zgpu {

// residues[i][e] = x[e] mod n_i, e < count: x as the GPU packs it, value(e) as the CPU reads it.
void multi_mod_host(const PrimeSet& set, const HostOperand& x, std::size_t count, const FmpzSource& value,
                    std::span<limb_t* const> residues);

// The values with residues residues[i][e], e < count, in [0, P) or (sign) FLINT's symmetric
// range: on the CPU handed to sink(e, value) one by one; on the GPU to on_gpu_result(first,
// values) chunk by chunk, in order (sink computes the rest should the GPU fail part-way).
void multi_crt_host(const PrimeSet& set, std::span<const limb_t* const> residues, std::size_t count, bool sign,
                    const FmpzSink& sink, const HostResult& on_gpu_result);

}  // namespace zgpu
