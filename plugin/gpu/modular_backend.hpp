// What the modular layer (plugin/modular/) calls of the GPU backend. No CUDA type appears here,
// as in gpu_backend.hpp: a build without CUDA compiles without_cuda.cpp's stand-ins, which throw.
// Residues are prime-major (kernels/modular/residue_view.hpp). Functions throw zgpu::Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "adapters/host_operand.hpp"
#include "kernels/modular/residue_view.hpp"
#include "zgpu/backend.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::gpu {

// A set of pairwise coprime moduli's constants in device memory (reduction powers, CRT
// cofactors), built once a set and shared by every call on it.
class ModularTables;
// The tables of `moduli` (each 2 <= n < 2^64, pairwise coprime, as a PrimeSet has checked),
// built on each device at its first use.
std::shared_ptr<const ModularTables> make_modular_tables(std::span<const limb_t> moduli);
// The reduction's tables alone, for moduli known to be pairwise coprime: for calls that reduce on the GPU and reconstruct on the host. crt_limbs gives 0.
std::shared_ptr<const ModularTables> make_reduction_tables(std::span<const limb_t> moduli);
// Limbs of the product of the moduli: the stride that CRT results need.
std::uint32_t crt_limbs(const ModularTables& tables);

// Residues of device batch x (signed values of at most kMaxLimbs limbs) modulo each modulus,
// into `out` (device memory, out.count == x.count, out.primes the set's size). Queued on zgpu's
// stream.
void residues_multi_mod(ConstBatchView x, const ModularTables& tables, kernels::ResidueView out);
// The values in [0, P) (sign: FLINT's symmetric range) with residues r (each below its
// modulus), into `out` (device memory, out.stride >= crt_limbs). Queued on the first device's stream.
void residues_multi_crt(kernels::ConstResidueView r, const ModularTables& tables, bool sign, BatchView out);

// Host residues into device residues `r` and back, with no copy on the host: one copy a
// modulus between the caller's array arrays[i] (r.count words) and its row; the interleaved
// array (interleaved[e * r.primes + i]) as it is, transposed on the device through a temporary.
// Each returns once the host memory may be reused.
void residues_upload(std::span<const limb_t* const> arrays, kernels::ResidueView r);
void residues_download(kernels::ConstResidueView r, std::span<limb_t* const> arrays);
void residues_upload_interleaved(const limb_t* interleaved, kernels::ResidueView r);
void residues_download_interleaved(kernels::ConstResidueView r, limb_t* interleaved);

// Elementwise arithmetic on device residues, modulo each modulus of the set, one launch for all
// moduli; outputs may alias inputs. scalars: one residue a modulus (device memory).
enum class ResidueOp { add, sub, mul };
void residues_binary(ResidueOp op, kernels::ConstResidueView a, kernels::ConstResidueView b, const ModularTables& tables,
                     kernels::ResidueView r);
void residues_neg(kernels::ConstResidueView a, const ModularTables& tables, kernels::ResidueView r);
// r = a * c (addmul: r += a * c), c one residue a modulus.
void residues_scalar_mul(kernels::ConstResidueView a, const limb_t* scalars, bool addmul, const ModularTables& tables,
                         kernels::ResidueView r);

// Host vectors through the pipeline (pipeline.hpp), chunk by chunk, so that vectors larger
// than device memory work. residues[i] is modulus i's array of `count` words.
// Reduction: residues[i][e] written as chunks arrive; finish_on_host(first) computes elements
// from `first` on should the GPU fail after some were written.
Backend host_multi_mod(const HostOperand& x, std::size_t count, const ModularTables& tables,
                       std::span<limb_t* const> residues, const FinishOnHost& finish_on_host);
// CRT: residues[i][e] (each below its modulus: the caller checks) to the values, handed to
// result(first, values) chunk by chunk, of stride crt_limbs(tables).
Backend host_multi_crt(std::span<const limb_t* const> residues, std::size_t count, const ModularTables& tables, bool sign,
                       const HostResult& result, const FinishOnHost& finish_on_host);

}  // namespace zgpu::gpu
