// The GPU backend of a build without CUDA: no device is ever present, so the plugin never
// chooses the GPU and nothing below runs; each still fails clearly should it be called.
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular_backend.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

[[noreturn]] void unavailable() { throw Error("this zgpu was built without CUDA"); }

}  // namespace


void* allocate(std::size_t) { unavailable(); }
void release(void*) noexcept {}
void copy_to_device(void*, const void*, std::size_t) { unavailable(); }
void copy_to_host(void*, const void*, std::size_t) { unavailable(); }
void fill_zero(void*, std::size_t) { unavailable(); }
void synchronize() {}
void warm_up() {}

void batch_add_sub(ConstBatchView, ConstBatchView, BatchView, bool) { unavailable(); }
void batch_mul(ConstBatchView, ConstBatchView, BatchView, bool) { unavailable(); }
kernels::DivisionSummary batch_summarize_division(ConstBatchView, ConstBatchView) { unavailable(); }
std::size_t batch_divexact(ConstBatchView, ConstBatchView, BatchView, bool, bool) { unavailable(); }
void batch_divrem(ConstBatchView, ConstBatchView, bool, bool, BatchView, BatchView) { unavailable(); }

Backend host_add_sub(const HostOperand&, const HostOperand&, std::size_t, bool, std::uint32_t, const HostResult&,
                     const FinishOnHost&)
{
    unavailable();
}
Backend host_mul(const HostOperand&, std::size_t, const HostOperand&, std::size_t, std::uint32_t, const HostResult&,
                 const FinishOnHost&)
{
    unavailable();
}
Backend host_addmul(const HostOperand&, const HostOperand&, std::size_t, const HostOperand&, std::size_t, bool,
                    std::uint32_t, const HostResult&, const FinishOnHost&)
{
    unavailable();
}
Backend host_divexact(const HostOperand&, std::size_t, const HostOperand&, std::size_t, std::uint32_t,
                      const HostResult&, const FinishOnHost&)
{
    unavailable();
}

Backend host_divrem(const HostOperand&, std::size_t, const HostOperand&, std::size_t, bool, std::uint32_t, std::uint32_t,
                    const HostDivisionResult&, const FinishOnHost&)
{
    unavailable();
}
Backend host_mod(const HostOperand&, std::size_t, const HostOperand&, std::uint32_t, const HostResult&, const FinishOnHost&)
{
    unavailable();
}
CheckedDivision host_divexact_checked(const HostOperand&, std::size_t, const HostOperand&, std::size_t, std::uint32_t,
                                      const HostResult&, const std::function<void()>&)
{
    unavailable();
}

std::shared_ptr<const ModularTables> make_modular_tables(std::span<const limb_t>) { unavailable(); }
std::shared_ptr<const ModularTables> make_reduction_tables(std::span<const limb_t>) { unavailable(); }
std::uint32_t crt_limbs(const ModularTables&) { unavailable(); }
void residues_multi_mod(ConstBatchView, const ModularTables&, kernels::ResidueView) { unavailable(); }
void residues_upload(std::span<const limb_t* const>, kernels::ResidueView) { unavailable(); }
void residues_download(kernels::ConstResidueView, std::span<limb_t* const>) { unavailable(); }
void residues_upload_interleaved(const limb_t*, kernels::ResidueView) { unavailable(); }
void residues_download_interleaved(kernels::ConstResidueView, limb_t*) { unavailable(); }
void residues_multi_crt(kernels::ConstResidueView, const ModularTables&, bool, BatchView) { unavailable(); }
void residues_binary(ResidueOp, kernels::ConstResidueView, kernels::ConstResidueView, const ModularTables&,
                     kernels::ResidueView)
{
    unavailable();
}
void residues_neg(kernels::ConstResidueView, const ModularTables&, kernels::ResidueView) { unavailable(); }
void residues_scalar_mul(kernels::ConstResidueView, const limb_t*, bool, const ModularTables&, kernels::ResidueView)
{
    unavailable();
}
Backend host_multi_mod(const HostOperand&, std::size_t, const ModularTables&, std::span<limb_t* const>,
                       const FinishOnHost&)
{
    unavailable();
}
Backend host_multi_crt(std::span<const limb_t* const>, std::size_t, const ModularTables&, bool, const HostResult&,
                       const FinishOnHost&)
{
    unavailable();
}

std::uint64_t nmod_transform_length(const NmodProduct&) { unavailable(); }
void nmod_products(std::span<const NmodProduct>) { unavailable(); }
void nmod_poly_powmod(limb_t*, const limb_t*, std::span<const limb_t>, const limb_t*, std::size_t, const limb_t*, std::size_t, limb_t)
{
    unavailable();
}
void nmod_poly_mulmod(limb_t*, const limb_t*, std::size_t, const limb_t*, std::size_t, const limb_t*, std::size_t, const limb_t*, std::size_t, limb_t)
{
    unavailable();
}
void nmod_poly_compose_mod_precomp(limb_t*, const limb_t*, std::size_t, const limb_t* const*, std::size_t, std::pair<std::size_t, std::size_t>,
                                   const limb_t*, std::size_t, const limb_t*, std::size_t, limb_t)
{
    unavailable();
}
void nmod_poly_compose_mod_vec(limb_t* const*, const limb_t* const*, const std::size_t*, std::size_t, std::size_t, std::size_t,
                               const limb_t*, std::size_t,
                               const limb_t*, std::size_t, const limb_t*, std::size_t, limb_t)
{
    unavailable();
}
void fmpz_poly_product(const HostOperand&, std::size_t, const HostOperand&, std::size_t, std::size_t, const ModularTables&,
                       const HostResult&)
{
    unavailable();
}
std::size_t fmpz_poly_product_bytes(const HostOperand&, std::size_t, const HostOperand&, std::size_t, std::size_t,
                                    const ModularTables&)
{
    unavailable();
}
void fmpz_poly_power(const HostOperand&, std::size_t, std::uint64_t, const ModularTables&, const HostResult&) { unavailable(); }
std::size_t fmpz_poly_power_bytes(const HostOperand&, std::size_t, std::size_t, const ModularTables&) { unavailable(); }
void fmpz_poly_compose(const HostOperand&, std::size_t, const HostOperand&, std::size_t, const ModularTables&, const HostResult&)
{
    unavailable();
}
std::size_t fmpz_poly_compose_bytes(const HostOperand&, std::size_t, const HostOperand&, std::size_t, const ModularTables&)
{
    unavailable();
}
bool poly_device_fits(std::size_t) { unavailable(); }
void residues_poly_mul(kernels::ConstResidueView, kernels::ConstResidueView, std::span<const limb_t>, kernels::ResidueView)
{
    unavailable();
}
std::vector<limb_t> fmpz_poly_resultant_residues(const HostOperand&, std::size_t, const HostOperand&, std::size_t,
                                                 const ModularTables&, const std::function<void(std::uint64_t)>&)
{
    unavailable();
}

limb_t nmod_poly_resultant(std::span<const limb_t>, std::span<const limb_t>, limb_t) { unavailable(); }

void fmpz_mat_product(const HostOperand&, const HostOperand&, std::size_t, std::size_t, std::size_t, const ModularTables&,
                      const HostResult&, std::size_t)
{
    unavailable();
}
std::vector<limb_t> fmpz_mat_det_residues(const HostOperand&, std::size_t, const ModularTables&, bool,
                                          const std::function<void(std::uint64_t)>&)
{
    unavailable();
}
std::size_t fmpz_mat_det_primes_at_once(std::size_t) { unavailable(); }
DixonDigits fmpz_mat_dixon_digits(const HostOperand&, const HostOperand&, std::size_t, std::size_t, const ModularTables&,
                                  std::size_t, std::size_t, const std::function<void(std::uint64_t)>&)
{
    unavailable();
}
void residues_mat_mul(kernels::ConstResidueView, kernels::ConstResidueView, const ModularTables&, std::size_t, std::size_t,
                      std::size_t, kernels::ResidueView)
{
    unavailable();
}
std::vector<limb_t> residues_mat_det(kernels::ConstResidueView, const ModularTables&, std::size_t) { unavailable(); }
void nmod_mat_mul(std::span<const limb_t* const>, std::span<const limb_t* const>, std::span<limb_t* const>, std::size_t,
                  std::size_t, limb_t)
{
    unavailable();
}
limb_t nmod_mat_inv(std::span<const limb_t* const>, std::span<limb_t* const>, limb_t)
{
    unavailable();
}
limb_t nmod_mat_solve(std::span<const limb_t* const>, std::span<const limb_t* const>, std::size_t, std::span<limb_t* const>, limb_t)
{
    unavailable();
}
limb_t nmod_mat_det(std::span<const limb_t* const>, limb_t, const std::function<void(std::uint64_t)>&) { unavailable(); }
std::size_t nmod_mat_rank(std::span<const limb_t* const>, std::size_t, limb_t, const std::function<void(std::uint64_t)>&)
{
    unavailable();
}
bool fmpz_mat_adjugate_times(const HostOperand&, const HostOperand*, std::size_t, std::size_t, const ModularTables&, const HostResult&)
{
    unavailable();
}
LuPivots nmod_mat_lu(std::span<const limb_t* const>, std::size_t, limb_t, std::span<limb_t* const>,
                     const std::function<void(std::uint64_t)>&)
{
    unavailable();
}

}  // namespace zgpu::gpu

namespace zgpu {

bool gpu_available() { return false; }
std::string_view gpu_unavailable_reason() { return "this zgpu was built without CUDA"; }
std::vector<int> gpu_devices() { gpu::unavailable(); }
void set_gpu_devices(std::span<const int>) { gpu::unavailable(); }

}  // namespace zgpu
