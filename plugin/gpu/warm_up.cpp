// The GPU's start ahead of the first call (gpu_backend.hpp). A process's first products over Z
// would otherwise wait, inside the call, for the pinned staging, the scratch memory and the NTT
// tables of their primes (the first power of bench/flint_algorithms on the H200 machine: about
// 12 ms of its 30 ms).
#include "kernels/modular/ntt_primes.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/poly/ntt_tables.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {
namespace {

// The generated primes whose tables are built ahead: the sets of products over Z whose
// coefficients have up to about 3800 bits are runs of them (poly_ntt_tables builds the tables of
// a run for the generated primes up to the next power of two). 256 MiB at the shortest length.
constexpr std::size_t kWarmPrimes = 128;
constexpr std::uint32_t kWarmLength = 1u << 16;
// The scratch of a product of two polynomials of length 2^15 with 2000-bit coefficients.
constexpr std::size_t kWarmScratchBytes = std::size_t(256) << 20;

}  // namespace

void warm_up()
{
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    runtime.make_current();
    // The two slots of a CRT of full chunks, and the operands' upload beside them.
    runtime.staging(3 * kCrtChunkBytes);
    runtime.scratch(kWarmScratchBytes);
    poly_ntt_tables(runtime, kernels::ntt_primes(kWarmPrimes), kWarmLength);
    runtime.synchronize("starting the GPU");
}

}  // namespace zgpu::gpu
