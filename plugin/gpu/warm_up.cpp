// The GPU's start ahead of the first call (gpu_backend.hpp): the driver, the context, the
// streams, the pinned staging that a large result's CRT copies down through (pinning tens of MB
// takes tens of milliseconds), and the stream-ordered pool that kernels' temporaries come from,
// grown once: growing it maps memory, and a first power of 1024 coefficients, whose every
// squaring asks for more, spent 11 of its 12 ms of device time doing so; cuBLAS, which the
// matrix products mod n use; and the NTT tables of the first 128 generated primes, which every
// product over Z of up to 128 primes and transforms up to 2^16 reads (a power of 1024
// coefficients to the 64th spent 1.2 of its 5.4 ms building them); and the kernels of the
// polynomial products and of reduction and CRT.
#include "kernels/modular/multi_crt.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "kernels/poly/poly_mul.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/crt_to_host.hpp"
#include "plugin/gpu/poly/gpu_ntt_tables.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

void warm_up()
{
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    runtime.make_current();
    // The two slots of a CRT of full chunks, and the operands' upload beside them; a product's
    // pass over Z stays within them too.
    static_assert(kProductPinnedBytes <= 3 * kCrtChunkBytes);
    runtime.staging(3 * kCrtChunkBytes);
    // As much as the longest NTT products take; the pool keeps at least 1 GiB (runtime.cpp), so
    // this stays mapped.
    void* reserve = nullptr;
    check(cudaMallocAsync(&reserve, kernels::kPolyMulWorkspaceBytes, runtime.stream()), "growing the memory pool");
    check(cudaFreeAsync(reserve, runtime.stream()), "growing the memory pool");
    start_tensor_products(runtime);
    // The kernels of the products, powers and compositions over Z and of their reduction and
    // CRT: loaded at their first launch otherwise, which took a power of 1024 coefficients to the
    // 64th from 2.3 to 6.2 ms as a process's first GPU call after this start.
    kernels::load_multi_mod_kernels();
    kernels::load_poly_mul_kernels();
    kernels::load_multi_crt_kernels();
    poly_ntt_tables(runtime, kernels::ntt_primes(128), std::uint32_t(1) << 16);
    runtime.synchronize("starting the GPU");
}

}  // namespace zgpu::gpu
