// Products of nmod polynomials modulo f on a device, a batch at a time: the products go through
// the three 64-bit primes and the CRT to n (crt_to_moduli.hpp), and a remainder by f's
// precomputed inverse (Newton division) is two more products with the reversals and the last
// subtraction between them. Powers mod f and compositions mod f (gpu_nmod_mod_f.cpp,
// gpu_nmod_compose.cpp) are chains of such batches whose operands stay on the device. Only
// plugin/gpu/ includes it; callers hold the runtime's lease.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "kernels/modular/modulus.hpp"
#include "kernels/poly/crt_to_moduli.hpp"
#include "kernels/poly/poly_ntt_tables.hpp"
#include "plugin/gpu/runtime.hpp"
#include "plugin/gpu/stream_events.hpp"
#include "plugin/gpu/upload_layout.hpp"

namespace zgpu::gpu {

// The check every call mod f makes first: f of lenf coefficients, of degree 2 or more, within
// the GPU's transforms (else an Error naming `function`).
void check_modulus_degree(const char* function, std::size_t lenf);

// Where a batch's arrays lie in a call's layout, for f of degree m modulo n, operands of la and
// lb coefficients (each at most m, la + lb - 1 > m) and batches of at most max_batch products.
// The constants are uploaded with the call's other arrays (add_constants, before the uploads
// end); the working arrays are the device's alone (add_work, after them).
struct ModFBatchPlan {
    ModFBatchPlan(std::size_t m, limb_t n, std::size_t la, std::size_t lb, std::size_t max_batch);
    // The layout points into the plan's own arrays.
    ModFBatchPlan(const ModFBatchPlan&) = delete;
    ModFBatchPlan& operator=(const ModFBatchPlan&) = delete;

    void add_constants(UploadLayout& layout);
    void add_work(UploadLayout& layout);

    // The strides of the working arrays: a full product, a quotient, a remainder.
    std::size_t full_stride() const { return 2 * m - 1; }
    std::size_t quotient_stride() const { return m - 1; }

    std::size_t m, la, lb, max_batch;
    limb_t n;
    // Uploaded: a modulus and its radix a product of a batch (crt_to_moduli reads them a group),
    // f's lengths a product, and the offsets j stride of each working stride.
    std::vector<kernels::Modulus> moduli;
    std::vector<limb_t> radix;
    std::vector<std::uint32_t> lengths[3];
    std::vector<std::uint64_t> offsets[3];
    std::size_t moduli_at = 0, radix_at = 0, lengths_at[3] = {}, offsets_at[3] = {};
    // The device's own: residues, full products, the quotients' steps, the remainders' low parts.
    std::size_t residues_at = 0, full_at = 0, top_at = 0, quotient_reversed_at = 0, quotient_at = 0, low_at = 0;
};

// A batch's operands: polynomial j at words + offsets[j] (device offsets), or every product the
// one polynomial at words (offsets null).
struct ModFOperands {
    const limb_t* words;
    const std::uint64_t* offsets = nullptr;
};

// The products of a plan on a runtime's device, its memory at `device` (the call's layout), f
// (m + 1 coefficients) and the first m - 1 coefficients of its reversed inverse on the device.
class ModFBatch {
public:
    ModFBatch(Runtime& runtime, const ModFBatchPlan& plan, std::byte* device, const limb_t* f, const limb_t* finv);

    // The device offsets j m, for operands laid out as remainders are.
    const std::uint64_t* remainder_offsets() const { return offsets(kLow); }

    // out_j = a_j b_j, la + lb - 1 coefficients at out + j (2m - 1), for j < count <= max_batch; a
    // and b the same operands square.
    void multiply(ModFOperands a, ModFOperands b, std::size_t count, limb_t* out) const;
    // out_j = x_j mod f (m coefficients at out + j out_stride), x_j the la + lb - 1 coefficients
    // at x + j (2m - 1), for j < count <= max_batch; out overlaps no x_j.
    void reduce(const limb_t* x, std::size_t count, limb_t* out, std::size_t out_stride) const;
    // out_j = a_j b_j mod f: multiply, then reduce.
    void mulmod(ModFOperands a, ModFOperands b, std::size_t count, limb_t* out, std::size_t out_stride) const;

private:
    enum Product { kFull, kQuotient, kLow };

    limb_t* words(std::size_t offset) const { return reinterpret_cast<limb_t*>(device_ + offset); }
    const std::uint64_t* offsets(Product which) const;
    // out_j = a_j b_j mod x^(length of `which`) mod n at the working stride of `which`.
    void product(ModFOperands a, std::size_t la, ModFOperands b, std::size_t lb, std::size_t count, Product which, limb_t* out) const;

    const ModFBatchPlan& plan_;
    std::byte* device_;
    const limb_t* f_;
    const limb_t* finv_;
    cudaStream_t stream_;
    std::span<const limb_t> primes_;
    std::size_t lengths_[3];
    kernels::PolyNttTablesView ntt_;
    kernels::GarnerView garner_;
};

// A call's layout: f and the first m - 1 coefficients of its reversed inverse, the plan's
// constants, then the caller's uploads (add them to `layout`, then end_uploads()); after them the
// plan's working arrays and the caller's own device arrays.
class ModFCall {
public:
    explicit ModFCall(ModFBatchPlan& plan) : plan_(plan)
    {
        f_at_ = layout.reserve((plan.m + 1) * sizeof(limb_t));
        finv_at_ = layout.reserve((plan.m - 1) * sizeof(limb_t));
        plan.add_constants(layout);
    }
    void end_uploads()
    {
        upload_bytes_ = layout.bytes();
        plan_.add_work(layout);
    }

    // Runs work(batch, staging, device, runtime) on the first device in use, its lease held, once
    // f, the inverse's first coefficients up to m - 1 (zeros past finv_length: no more are read,
    // as FLINT reads finv) and the layout's own arrays are in pinned memory (`staging`); the
    // caller stages its operands there and calls upload(). The stream is drained on every exit.
    template <class Work>
    void run(const limb_t* f, const limb_t* finv, std::size_t finv_length, const Work& work)
    {
        const std::vector<Runtime*> in_use = Runtime::in_use();
        Runtime& runtime = *in_use[0];
        const Runtime::Leases leases(std::span<Runtime* const>(in_use.data(), 1));
        runtime.make_current();
        const cudaStream_t stream = runtime.stream();
        const DrainOnExit drain(stream, stream, stream);
        std::byte* device = runtime.scratch(layout.bytes());
        std::byte* staging = runtime.staging(upload_bytes_);
        layout.gather_into(staging);
        const std::size_t m = plan_.m;
        std::copy_n(f, m + 1, reinterpret_cast<limb_t*>(staging + f_at_));
        limb_t* staged_finv = reinterpret_cast<limb_t*>(staging + finv_at_);
        const std::size_t read = std::min(finv_length, m - 1);
        std::copy_n(finv, read, staged_finv);
        std::fill(staged_finv + read, staged_finv + (m - 1), limb_t(0));
        const ModFBatch batch(runtime, plan_, device, reinterpret_cast<const limb_t*>(device + f_at_),
                              reinterpret_cast<const limb_t*>(device + finv_at_));
        work(batch, staging, device, runtime);
    }

    // The staged uploads to the device, on the runtime's stream.
    void upload(std::byte* device, const std::byte* staging, cudaStream_t stream) const
    {
        check(cudaMemcpyAsync(device, staging, upload_bytes_, cudaMemcpyHostToDevice, stream), "uploading operands mod f");
    }

    UploadLayout layout;

private:
    ModFBatchPlan& plan_;
    std::size_t f_at_ = 0, finv_at_ = 0, upload_bytes_ = 0;
};

}  // namespace zgpu::gpu
