// One resultant modulo a prime on the GPU (poly_backend.hpp): both coefficient arrays copied up
// through the staging memory, the remainder sequence run by one block (resultant_mod, a batch of
// one prime), the value read back.
#include <cstring>

#include "kernels/poly/resultant_mod.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/gpu/stream_events.hpp"
#include "plugin/gpu/upload_layout.hpp"

namespace zgpu::gpu {

limb_t nmod_poly_resultant(std::span<const limb_t> a, std::span<const limb_t> b, limb_t n)
{
    const kernels::Modulus modulus = kernels::make_modulus(n);
    UploadLayout layout;
    const std::size_t a_at = layout.reserve(a.size_bytes()), b_at = layout.reserve(b.size_bytes());
    const std::size_t modulus_at = layout.reserve(sizeof modulus), res_at = layout.reserve(sizeof(limb_t));
    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    std::byte* staging = runtime.staging(layout.bytes());
    std::memcpy(staging + a_at, a.data(), a.size_bytes());
    std::memcpy(staging + b_at, b.data(), b.size_bytes());
    std::memcpy(staging + modulus_at, &modulus, sizeof modulus);
    std::byte* device = runtime.scratch(layout.bytes());
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    const auto words = [&](std::size_t at) { return reinterpret_cast<limb_t*>(device + at); };
    check(cudaMemcpyAsync(device, staging, res_at, cudaMemcpyHostToDevice, stream), "uploading polynomials");
    kernels::resultant_mod(words(a_at), a.size() - 1, words(b_at), b.size() - 1,
                           reinterpret_cast<const kernels::Modulus*>(device + modulus_at), 1, words(res_at), stream);
    check(cudaMemcpyAsync(staging + res_at, device + res_at, sizeof(limb_t), cudaMemcpyDeviceToHost, stream),
          "downloading a resultant");
    runtime.synchronize("a resultant mod p");
    limb_t res;
    std::memcpy(&res, staging + res_at, sizeof res);
    return res;
}

}  // namespace zgpu::gpu
