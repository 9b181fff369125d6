// Determinants of residue batches in device memory (matrix_backend.hpp): the matrices copied to
// stream-ordered temporaries (elimination overwrites them), eliminated a block a modulus, and the
// determinants read back.
#include <vector>

#include "kernels/common/temporary.hpp"
#include "kernels/matrix/det_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/gpu_modular_tables.hpp"

namespace zgpu::gpu {

std::vector<limb_t> residues_mat_det(kernels::ConstResidueView a, const ModularTables& tables, std::size_t n)
{
    const ResidentLease resident({a.data});
    Runtime& runtime = resident.runtime();
    const cudaStream_t stream = runtime.stream();
    const std::size_t k = a.primes, words = n * n;
    const kernels::StreamMemory matrices(k * words * sizeof(limb_t), stream), det(k * sizeof(limb_t), stream);
    limb_t* m = static_cast<limb_t*>(matrices.data());
    check(cudaMemcpy2DAsync(m, words * sizeof(limb_t), a.data, a.prime_stride * sizeof(limb_t), words * sizeof(limb_t), k,
                            cudaMemcpyDeviceToDevice, stream),
          "copying matrices");
    kernels::det_mod({m, n, n, n, words, k}, tables.view(runtime).moduli, static_cast<limb_t*>(det.data()), stream);
    std::vector<limb_t> out(k);
    check(cudaMemcpyAsync(out.data(), det.data(), k * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading determinants");
    runtime.synchronize("determinants mod p");
    return out;
}

}  // namespace zgpu::gpu
