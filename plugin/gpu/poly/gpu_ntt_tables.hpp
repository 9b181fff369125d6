// The twiddle tables of a set of 64-bit NTT primes (kernels/poly/poly_ntt_tables.hpp) in device
// memory, built on the device and kept for the next calls on the same primes or a run of them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "kernels/poly/poly_ntt_tables.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

class PolyNttTables {
public:
    // Tables of every length up to `length` for `primes` (each an odd prime below 2^62 with
    // `length` dividing p - 1: checked, zgpu::Error otherwise), queued on the runtime's stream.
    PolyNttTables(std::span<const limb_t> primes, std::uint32_t length, cudaStream_t stream);
    // The tables of `primes` for transforms up to `length`, where they are a run of this
    // object's primes and length is within its own.
    std::optional<kernels::PolyNttTablesView> window(std::span<const limb_t> primes, std::uint32_t length) const;
    std::size_t bytes() const { return memory_.size(); }

private:
    std::vector<limb_t> primes_;
    DeviceMemory memory_;
    kernels::PolyNttTablesView view_;
};

// Tables on `runtime`'s device serving these primes and length: a window of tables already built
// there, or of new ones (at least 2^16 long, so that shorter calls share them; for generated
// primes, those of a larger set that later sets share). The last few are kept, up to 2 GiB a
// runtime. The view is valid until the next call on the runtime. The caller holds the
// runtime's lease.
kernels::PolyNttTablesView poly_ntt_tables(Runtime& runtime, std::span<const limb_t> primes, std::uint32_t length);

}  // namespace zgpu::gpu
