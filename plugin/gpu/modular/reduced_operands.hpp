// Operands over Z reduced modulo every prime of a set on the GPU: the first half that the modular
// algorithms over Z share (determinants, resultants, products over Z), and the whole frame of
// those that answer one word a prime. Only plugin/gpu/ includes it.
#pragma once

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "adapters/host_operand.hpp"
#include "kernels/modular/residue_view.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/modular/gpu_modular_tables.hpp"
#include "plugin/gpu/parts_counter.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/upload_layout.hpp"

namespace zgpu::gpu {

// An operand: `count` elements of x.
struct OperandElements {
    const HostOperand& x;
    std::size_t count;
};

// The operands' packed batches take the front of a device layout, one upload; their residues
// follow, prime-major (a row of `count` words a prime). The algorithm reserves what else it
// needs after them. Throws an operand's too-large error at construction.
class ReducedOperands {
public:
    // Reserves in `layout`, which must be empty.
    ReducedOperands(UploadLayout& layout, std::initializer_list<OperandElements> operands, std::size_t primes);

    // The bytes of the packed batches, which the upload moves.
    std::size_t upload_bytes() const { return upload_bytes_; }
    // Packs the operands into `staging` (the layout's front, in pinned memory) on the host threads.
    void pack(std::byte* staging) const;
    // Enqueues on `stream` the upload of the staging into `device` (the layout's base) and each
    // operand's reduction modulo the primes, as phases `upload` and `reduction` of `times`.
    void upload_and_reduce(std::byte* device, const std::byte* staging, const kernels::ModularTablesView& tables,
                           cudaStream_t stream, PhaseTimes& times, int upload, int reduction) const;
    // Operand i's residues in the layout at `device`.
    kernels::ResidueView residues(std::byte* device, std::size_t i) const;

private:
    struct Placed {
        const HostOperand* x;
        BatchPlace batch;
        std::size_t residues;
    };
    std::vector<Placed> operands_;
    std::size_t primes_, upload_bytes_;
};

// The kernel of an algorithm that answers one word a prime: reads the reduced operands' residues
// at `device`, writes out[i] for prime i, raises `finished` (may be null) a prime at a time.
using WordPerPrimeKernel = std::function<void(const ReducedOperands& operands, std::byte* device,
                                              const kernels::ModularTablesView& tables, limb_t* out, cudaStream_t stream,
                                              unsigned long long* finished)>;

// The answer modulo each prime of the set, in order: the operands packed, copied up and reduced,
// then `kernel` (phase `phase` of ZGPU_TIMING's line, which names the call `what`), one word a
// prime copied down. primes_done, where not empty, is told of the primes finished as they are.
std::vector<limb_t> word_per_prime(const std::string& what, const char* phase, std::initializer_list<OperandElements> operands,
                                   const ModularTables& tables, const PartsDone& primes_done, const WordPerPrimeKernel& kernel);

}  // namespace zgpu::gpu
