// Operations on residue batches in device memory: each takes the first runtime's lease, checks
// that the batches live on its device, and queues its kernel (kernels/modular/) on its stream;
// their transfers to and from host arrays.
#include "kernels/common/temporary.hpp"
#include "kernels/modular/multi_crt.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "kernels/modular/residue_arith.hpp"
#include "kernels/modular/residue_layout.hpp"
#include "plugin/gpu/modular/gpu_modular_tables.hpp"

namespace zgpu::gpu {

void residues_upload(std::span<const limb_t* const> arrays, kernels::ResidueView r)
{
    const ResidentLease resident({r.data});
    Runtime& runtime = resident.runtime();
    // From pageable memory each copy returns once the driver holds the words.
    for (std::size_t i = 0; i < arrays.size(); ++i)
        check(cudaMemcpyAsync(r.prime(i), arrays[i], r.count * sizeof(limb_t), cudaMemcpyHostToDevice, runtime.stream()),
              "uploading residues");
    runtime.synchronize("uploading residues");
}

void residues_download(kernels::ConstResidueView r, std::span<limb_t* const> arrays)
{
    const ResidentLease resident({r.data});
    Runtime& runtime = resident.runtime();
    for (std::size_t i = 0; i < arrays.size(); ++i)
        check(cudaMemcpyAsync(arrays[i], r.prime(i), r.count * sizeof(limb_t), cudaMemcpyDeviceToHost, runtime.stream()),
              "downloading residues");
    runtime.synchronize("downloading residues");
}

void residues_upload_interleaved(const limb_t* interleaved, kernels::ResidueView r)
{
    const ResidentLease resident({r.data});
    Runtime& runtime = resident.runtime();
    const std::size_t bytes = r.count * r.primes * sizeof(limb_t);
    const kernels::StreamMemory words(bytes, runtime.stream());
    check(cudaMemcpyAsync(words.data(), interleaved, bytes, cudaMemcpyHostToDevice, runtime.stream()), "uploading residues");
    kernels::residues_from_interleaved(static_cast<const limb_t*>(words.data()), r, runtime.stream());
    runtime.synchronize("uploading residues");
}

void residues_download_interleaved(kernels::ConstResidueView r, limb_t* interleaved)
{
    const ResidentLease resident({r.data});
    Runtime& runtime = resident.runtime();
    const std::size_t bytes = r.count * r.primes * sizeof(limb_t);
    const kernels::StreamMemory words(bytes, runtime.stream());
    kernels::residues_to_interleaved(r, static_cast<limb_t*>(words.data()), runtime.stream());
    check(cudaMemcpyAsync(interleaved, words.data(), bytes, cudaMemcpyDeviceToHost, runtime.stream()), "downloading residues");
    runtime.synchronize("downloading residues");
}

void residues_multi_mod(ConstBatchView x, const ModularTables& tables, kernels::ResidueView out)
{
    const ResidentLease resident({x.limbs, out.data});
    Runtime& runtime = resident.runtime();
    kernels::multi_mod(x, tables.view(runtime), out, runtime.stream());
}

void residues_multi_crt(kernels::ConstResidueView r, const ModularTables& tables, bool sign, BatchView out)
{
    const ResidentLease resident({r.data, out.limbs});
    Runtime& runtime = resident.runtime();
    kernels::multi_crt(r, tables.view(runtime), sign, out, runtime.stream());
}

void residues_binary(ResidueOp op, kernels::ConstResidueView a, kernels::ConstResidueView b, const ModularTables& tables,
                     kernels::ResidueView r)
{
    const ResidentLease resident({a.data, b.data, r.data});
    Runtime& runtime = resident.runtime();
    const auto launch = op == ResidueOp::add ? kernels::residues_add : op == ResidueOp::sub ? kernels::residues_sub : kernels::residues_mul;
    launch(a, b, tables.view(runtime), r, runtime.stream());
}

void residues_neg(kernels::ConstResidueView a, const ModularTables& tables, kernels::ResidueView r)
{
    const ResidentLease resident({a.data, r.data});
    Runtime& runtime = resident.runtime();
    kernels::residues_neg(a, tables.view(runtime), r, runtime.stream());
}

void residues_scalar_mul(kernels::ConstResidueView a, const limb_t* scalars, bool addmul, const ModularTables& tables,
                         kernels::ResidueView r)
{
    const ResidentLease resident({a.data, scalars, r.data});
    Runtime& runtime = resident.runtime();
    (addmul ? kernels::residues_scalar_addmul : kernels::residues_scalar_mul)(a, scalars, tables.view(runtime), r, runtime.stream());
}

}  // namespace zgpu::gpu
