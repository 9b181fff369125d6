#include "plugin/gpu/modular/reduced_operands.hpp"

#include <algorithm>
#include <cstdio>

#include "kernels/modular/multi_mod.hpp"
#include "plugin/gpu/stream_events.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {

ReducedOperands::ReducedOperands(UploadLayout& layout, std::initializer_list<OperandElements> operands, std::size_t primes)
    : primes_(primes)
{
    if (layout.bytes() != 0) throw Error("internal error: reduced operands must open their layout");
    for (const OperandElements& o : operands) {
        o.x.require_packable();
        operands_.push_back({&o.x, operand_place(layout, o.x, o.count), 0});
    }
    upload_bytes_ = layout.bytes();
    for (Placed& o : operands_) o.residues = layout.reserve(primes * o.batch.count * sizeof(limb_t));
}

void ReducedOperands::pack(std::byte* staging) const
{
    for (const Placed& o : operands_) gpu::pack(*o.x, o.batch.in(staging));
}

void ReducedOperands::upload_and_reduce(std::byte* device, const std::byte* staging, const kernels::ModularTablesView& tables,
                                        cudaStream_t stream, PhaseTimes& times, int upload, int reduction) const
{
    times.begin(upload, stream);
    check(cudaMemcpyAsync(device, staging, upload_bytes_, cudaMemcpyHostToDevice, stream), "uploading operands");
    times.end(upload, stream);
    times.begin(reduction, stream);
    for (std::size_t i = 0; i < operands_.size(); ++i) kernels::multi_mod(operands_[i].batch.in(device), tables, residues(device, i), stream);
    times.end(reduction, stream);
}

kernels::ResidueView ReducedOperands::residues(std::byte* device, std::size_t i) const
{
    const Placed& o = operands_[i];
    return {reinterpret_cast<limb_t*>(device + o.residues), o.batch.count, primes_, o.batch.count};
}

std::vector<limb_t> word_per_prime(const std::string& what, const char* phase, std::initializer_list<OperandElements> operands,
                                   const ModularTables& tables, const PartsDone& primes_done, const WordPerPrimeKernel& kernel)
{
    const Clock::time_point start = Clock::now();
    const std::size_t k = tables.moduli().size();
    UploadLayout layout;
    const ReducedOperands reduced(layout, operands, k);
    const std::size_t out_at = layout.reserve(k * sizeof(limb_t));

    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    std::byte* staging = runtime.staging(std::max(reduced.upload_bytes(), k * sizeof(limb_t)));
    reduced.pack(staging);
    const Clock::time_point packed = Clock::now();
    std::byte* device = runtime.scratch(layout.bytes());
    // The counter outlives the drain: no kernel still raises it when it is freed.
    const PartsCounter finished(primes_done);
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    limb_t* out = reinterpret_cast<limb_t*>(device + out_at);
    enum Phase { kUpload, kReduction, kKernel };
    PhaseTimes times(3);
    const kernels::ModularTablesView& view = tables.view(runtime);
    reduced.upload_and_reduce(device, staging, view, stream, times, kUpload, kReduction);
    times.begin(kKernel, stream);
    kernel(reduced, device, view, out, stream, finished.device_count());
    times.end(kKernel, stream);
    check(cudaMemcpyAsync(staging, out, k * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading residues");
    finished.wait(stream, what);
    const limb_t* words = reinterpret_cast<const limb_t*>(staging);
    std::vector<limb_t> answer(words, words + k);
    if (times.on())
        std::fprintf(stderr, "zgpu: %s, %zu primes: packing %.2f ms, upload %.2f ms, reduction %.2f ms, %s %.2f ms, total %.2f ms\n",
                     what.c_str(), k, milliseconds(packed - start), times.milliseconds(kUpload), times.milliseconds(kReduction),
                     phase, times.milliseconds(kKernel), milliseconds(Clock::now() - start));
    return answer;
}

}  // namespace zgpu::gpu
