// ResidueBatch storage, and its transfers to and from host arrays in FLINT's layouts.
#include "zgpu/residue_batch.hpp"

#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "base/parallel.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/modular_backend.hpp"
#include "plugin/modular/cpu_modular.hpp"
#include "plugin/modular/residue_storage.hpp"
#include "zgpu/error.hpp"

namespace zgpu {
namespace {

// Each modulus's residues start on a 256-byte boundary on the device (coalesced access).
constexpr std::size_t kStrideMultiple = 32;

// Values from which a modulus's residues cross to and from the GPU straight from the caller's
// array, a copy a modulus of 256 KiB or more; fewer are gathered into one host array first, so
// that many small copies do not each pay a copy's fixed cost.
constexpr std::size_t kDirectCopyValues = std::size_t(1) << 15;

std::size_t stride_for(std::size_t count)
{
    if (count > std::numeric_limits<std::size_t>::max() - kStrideMultiple)
        throw Error("ResidueBatch: " + std::to_string(count) + " values do not fit in memory");
    return (count + kStrideMultiple - 1) / kStrideMultiple * kStrideMultiple;
}

std::size_t bytes_for(std::size_t moduli, std::size_t stride)
{
    if (stride && moduli > std::numeric_limits<std::size_t>::max() / sizeof(limb_t) / stride)
        throw Error("ResidueBatch: " + std::to_string(moduli) + " x " + std::to_string(stride) +
                    " residues do not fit in memory");
    return moduli * stride * sizeof(limb_t);
}

void* allocate(Backend where, std::size_t bytes)
{
    if (where == Backend::gpu && !gpu_available())
        throw Error("a ResidueBatch on the GPU backend, but " + std::string(gpu_unavailable_reason()));
    if (bytes == 0) return nullptr;
    if (where == Backend::gpu) return gpu::allocate(bytes);
    if (void* p = std::calloc(1, bytes)) return p;
    throw Error("out of host memory allocating " + std::to_string(bytes) + " bytes for a ResidueBatch");
}

// Fills the batch from host words, element e of modulus i read from at(i, e): on the CPU
// backend in place, on the GPU through one staging copy (the transfers below say where).
template <class At>
void fill(ResidueBatch& r, At at)
{
    const std::size_t k = r.prime_set().size(), count = r.count(), stride = r.prime_stride();
    std::vector<limb_t> staging(r.backend() == Backend::gpu ? k * stride : 0);
    limb_t* target = r.backend() == Backend::gpu ? staging.data() : r.data();
    parallel_for(k, std::max<std::size_t>(1, (std::size_t(1) << 15) / (count + 1)), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            for (std::size_t e = 0; e < count; ++e) target[i * stride + e] = at(i, e);
    });
    if (r.backend() == Backend::gpu) gpu::copy_to_device(r.data(), staging.data(), staging.size() * sizeof(limb_t));
}

// Calls put(i, e, word) with every residue, read from the backend.
template <class Put>
void drain(const ResidueBatch& r, Put put)
{
    const std::size_t k = r.prime_set().size(), count = r.count(), stride = r.prime_stride();
    std::vector<limb_t> staging(r.backend() == Backend::gpu ? k * stride : 0);
    if (r.backend() == Backend::gpu) gpu::copy_to_host(staging.data(), r.data(), staging.size() * sizeof(limb_t));
    const limb_t* source = r.backend() == Backend::gpu ? staging.data() : r.data();
    parallel_for(k, std::max<std::size_t>(1, (std::size_t(1) << 15) / (count + 1)), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            for (std::size_t e = 0; e < count; ++e) put(i, e, source[i * stride + e]);
    });
}

}  // namespace

void ResidueBatch::Release::operator()(void* storage) const
{
    if (where == Backend::gpu) gpu::release(storage);
    else std::free(storage);
}

ResidueBatch::ResidueBatch(const PrimeSet& set, std::size_t count, Backend where)
    : set_(set), backend_(where), count_(count), prime_stride_(stride_for(count)),
      storage_(allocate(where, bytes_for(set.size(), prime_stride_)), Release{where})
{
    if (where == Backend::gpu && storage_) gpu::fill_zero(storage_.get(), bytes_for(set.size(), prime_stride_));
}

ResidueBatch ResidueBatch::upload(const PrimeSet& set, const ulong* const* residues, std::size_t count, Backend where)
{
    if (count > 0 && !residues) throw Error("ResidueBatch::upload: residues is NULL");
    const std::span<const limb_t* const> arrays(residues, count ? set.size() : 0);
    for (std::size_t i = 0; i < arrays.size(); ++i)
        if (!arrays[i]) throw Error("ResidueBatch::upload: residues[" + std::to_string(i) + "] is NULL");
    require_reduced(set.state(), arrays, count, "ResidueBatch::upload", "residues");
    ResidueBatch r(set, count, where);
    if (where == Backend::gpu && count >= kDirectCopyValues) gpu::residues_upload(arrays, residue_view(r));
    else fill(r, [&](std::size_t i, std::size_t e) { return arrays[i][e]; });
    return r;
}

ResidueBatch ResidueBatch::upload_interleaved(const PrimeSet& set, const ulong* residues, std::size_t count,
                                              Backend where)
{
    if (count > 0 && !residues) throw Error("ResidueBatch::upload_interleaved: residues is NULL");
    const std::size_t k = set.size();
    const std::span<const limb_t> moduli = set.moduli();
    for (std::size_t e = 0; e < count; ++e)
        for (std::size_t i = 0; i < k; ++i)
            if (residues[e * k + i] >= moduli[i])
                throw Error("ResidueBatch::upload_interleaved: residues[" + std::to_string(e * k + i) + "] = " +
                            std::to_string(residues[e * k + i]) + " (value " + std::to_string(e) + ", modulus " +
                            std::to_string(i) + ") is not below its modulus " + std::to_string(moduli[i]));
    ResidueBatch r(set, count, where);
    if (where == Backend::gpu) gpu::residues_upload_interleaved(residues, residue_view(r));  // transposed on the device
    else fill(r, [&](std::size_t i, std::size_t e) { return residues[e * k + i]; });
    return r;
}

void ResidueBatch::download(ulong* const* residues) const
{
    if (backend_ == Backend::gpu && count_ >= kDirectCopyValues)
        gpu::residues_download(residue_view(*this), std::span<limb_t* const>(residues, set_.size()));
    else drain(*this, [&](std::size_t i, std::size_t e, limb_t word) { residues[i][e] = word; });
}

void ResidueBatch::download_interleaved(ulong* residues) const
{
    const std::size_t k = set_.size();
    if (backend_ == Backend::gpu) gpu::residues_download_interleaved(residue_view(*this), residues);
    else drain(*this, [&](std::size_t i, std::size_t e, limb_t word) { residues[e * k + i] = word; });
}

}  // namespace zgpu
