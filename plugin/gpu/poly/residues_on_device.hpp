// What the GPU's powers and compositions over Z share: polynomials packed and copied up once,
// reduced modulo each prime of the set, a result computed from their residues on the device in
// steps that never cross PCIe, and reconstructed by one CRT at the end, chunk by chunk as
// fmpz_poly_product does. Only plugin/gpu/poly/ includes it.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>

#include "adapters/host_operand.hpp"
#include "kernels/modular/residue_view.hpp"
#include "kernels/poly/poly_ntt_tables.hpp"
#include "plugin/gpu/modular/gpu_modular_tables.hpp"

namespace zgpu::gpu {

// One polynomial over Z: `length` coefficients that `coeffs` packs.
struct PolyOnHost {
    const HostOperand* coeffs;
    std::size_t length;
};

// Where the steps work: residues of the inputs (one view each, prime-major, a row a prime),
// `work` arrays of out_length residues a prime, the NTT tables of transforms up to the
// longest, and the stream. Each view's stride is its array's length.
struct ResidueWork {
    std::span<const kernels::ResidueView> inputs;
    std::span<const kernels::ResidueView> work;
    kernels::PolyNttTablesView ntt;
    cudaStream_t stream;
};

// Enqueues the steps on work.stream; returns the view of the result's out_length residues.
using ResidueSteps = std::function<kernels::ResidueView(const ResidueWork& work)>;

// The device memory residues_on_device takes for these inputs, work arrays and result.
std::size_t residues_on_device_bytes(std::span<const PolyOnHost> inputs, std::size_t work_arrays, std::size_t out_length,
                                     const ModularTables& tables);

// Runs `steps` on the first device in use over the inputs' residues modulo the set's primes
// (device tables `tables`), with transforms up to `longest`, and hands the result's out_length
// coefficients to result(first, values) in order, reconstructed by one signed CRT. ZGPU_TIMING=1
// prints the split to stderr, named by `what`.
void residues_on_device(const std::string& what, std::span<const PolyOnHost> inputs, std::size_t work_arrays,
                        std::size_t out_length, std::uint32_t longest, const ModularTables& tables, const ResidueSteps& steps,
                        const HostResult& result);

}  // namespace zgpu::gpu
