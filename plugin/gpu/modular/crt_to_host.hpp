// What the products over Z on the GPU share (fmpz_poly_product, fmpz_mat_product): operands
// packed into a layout's batches on the host threads, and the product's residues reconstructed
// by one signed CRT and handed to the caller chunk by chunk. Only plugin/gpu/ includes it.
#pragma once

#include <chrono>

#include "adapters/host_operand.hpp"
#include "kernels/modular/residue_view.hpp"
#include "plugin/gpu/modular/gpu_modular_tables.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/upload_layout.hpp"

namespace zgpu::gpu {

// Where a batch of `count` elements of `stride` limbs lies in a layout: limbs, then sizes.
struct BatchPlace {
    std::size_t limbs, sizes, count;
    std::uint32_t stride;

    static BatchPlace reserve(UploadLayout& layout, std::size_t count, std::uint32_t stride);
    BatchView in(std::byte* base) const;
};

// The places of an operand's `count` elements, of its largest size class.
BatchPlace operand_place(UploadLayout& layout, const HostOperand& x, std::size_t count);

// Writes the operand's elements into `out` on all host threads.
void pack(const HostOperand& x, BatchView out);

// The bytes of a CRT chunk's values: enough for the whole GPU (the kernel takes 32 values a
// block), few enough that copying one down overlaps the next.
inline constexpr std::size_t kCrtChunkBytes = std::size_t(32) << 20;

// The CRT of `count` values modulo the set's primes, in chunks: each reconstructed into the
// device batch reserved in the layout, copied into one of two pinned slots and given to the
// caller while the next chunk runs.
class CrtToHost {
public:
    CrtToHost(UploadLayout& device_layout, std::size_t count, const ModularTables& tables);
    // Pinned bytes the two slots take.
    std::size_t staging_bytes() const { return 2 * slot_layout_.bytes(); }
    // Reconstructs c (residues on the runtime's device, c.count == count) on its stream, the
    // device batch at `device` (the layout's base), the slots at `staging`; result(first, values)
    // gets the values in order. Records the CRT and downloads as phases crt and download of
    // `times`; returns the host's time in result().
    Clock::duration run(kernels::ConstResidueView c, Runtime& runtime, std::byte* device, std::byte* staging,
                        const HostResult& result, PhaseTimes& times, int crt, int download) const;

private:
    const ModularTables& tables_;
    std::size_t count_, chunk_;
    std::uint32_t stride_;
    BatchPlace out_place_, slot_place_;
    UploadLayout slot_layout_;  // one chunk of results in pinned memory
};

}  // namespace zgpu::gpu
