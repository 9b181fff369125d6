// Operations on residue batches in device memory: each takes the runtime's lease and queues its
// kernel (kernels/modular/) on zgpu's stream.
#include "kernels/modular/multi_crt.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "kernels/modular/residue_arith.hpp"
#include "plugin/gpu/modular/modular_tables.hpp"

namespace zgpu::gpu {

void residues_multi_mod(ConstBatchView x, const ModularTables& tables, kernels::ResidueView out)
{
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    kernels::multi_mod(x, tables.view(), out, runtime.stream());
}

void residues_multi_crt(kernels::ConstResidueView r, const ModularTables& tables, bool sign, BatchView out)
{
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    kernels::multi_crt(r, tables.view(), sign, out, runtime.stream());
}

void residues_binary(ResidueOp op, kernels::ConstResidueView a, kernels::ConstResidueView b, const ModularTables& tables,
                     kernels::ResidueView r)
{
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const auto launch = op == ResidueOp::add ? kernels::residues_add : op == ResidueOp::sub ? kernels::residues_sub : kernels::residues_mul;
    launch(a, b, tables.view(), r, runtime.stream());
}

void residues_neg(kernels::ConstResidueView a, const ModularTables& tables, kernels::ResidueView r)
{
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    kernels::residues_neg(a, tables.view(), r, runtime.stream());
}

void residues_scalar_mul(kernels::ConstResidueView a, const limb_t* scalars, bool addmul, const ModularTables& tables,
                         kernels::ResidueView r)
{
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    (addmul ? kernels::residues_scalar_addmul : kernels::residues_scalar_mul)(a, scalars, tables.view(), r, runtime.stream());
}

}  // namespace zgpu::gpu
