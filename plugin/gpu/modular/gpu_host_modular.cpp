// Reduction and CRT of host vectors through the pipeline (pipeline.hpp), chunk by chunk. A
// chunk's residues travel as a batch of its elements with stride size_class(k): the batch's
// limbs hold the chunk's residues modulus by modulus (kernels::ResidueView with prime_stride =
// the chunk's count), its sizes are not used. The stride's padding (under an eighth) and the
// sizes (4 bytes against 8 k) are the price of one pipeline for every operation.
#include <cstring>
#include <string>
#include <type_traits>

#include "adapters/packing.hpp"
#include "adapters/streaming_copy.hpp"
#include "base/parallel.hpp"
#include "kernels/modular/multi_crt.hpp"
#include "kernels/modular/multi_mod.hpp"
#include "plugin/gpu/modular/gpu_modular_tables.hpp"
#include "plugin/gpu/pipeline.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

// The CRT kernel takes 32 values a block: chunks of fewer than 4096 values (128 blocks) leave
// most of the GPU idle, which the byte bounds of a chunk would allow from k of a few hundred on
// (at 32768 bits and k = 1059, end to end took 6 times the kernel's time). 4096 values of
// k = 1059 are 70 MiB a chunk.
constexpr std::size_t kCrtChunkValues = 4096;

std::uint32_t residue_stride(std::size_t moduli)
{
    if (moduli > kMaxLimbs) throw Error("the GPU path takes at most " + std::to_string(kMaxLimbs) + " moduli");
    return size_class(std::uint32_t(moduli));
}

template <class View>
auto residues_of(View chunk, std::size_t moduli)
{
    return kernels::BasicResidueView<std::remove_pointer_t<decltype(chunk.limbs)>>{chunk.limbs, chunk.count, moduli,
                                                                                   chunk.count};
}

}  // namespace

Backend host_multi_mod(const HostOperand& x, std::size_t count, const ModularTables& tables,
                       std::span<limb_t* const> residues, const FinishOnHost& finish_on_host)
{
    const std::size_t k = tables.moduli().size();  // residues is empty where count is 0
    const auto kernel = [&](std::span<const ConstBatchView> in, BatchView out, Runtime& runtime) {
        kernels::multi_mod(in[0], tables.view(runtime), residues_of(out, k), runtime.stream());
    };
    // Each modulus's row of the chunk into the caller's array, on all host threads.
    const auto result = [&](std::size_t first, ConstBatchView chunk) {
        const kernels::ConstResidueView r = residues_of(chunk, k);
        parallel_for(r.count, adapters::min_parallel_elements(std::uint32_t(k)), [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = 0; i < k; ++i)
                std::memcpy(residues[i] + first + begin, r.prime(i) + begin, (end - begin) * sizeof(limb_t));
        });
    };
    const Operand operands[] = {{&x, count}};
    return run(operands, count, residue_stride(k), kernel, result, finish_on_host);
}

Backend host_multi_crt(std::span<const limb_t* const> residues, std::size_t count, const ModularTables& tables, bool sign,
                       const HostResult& result, const FinishOnHost& finish_on_host)
{
    const std::size_t k = tables.moduli().size();  // residues is empty where count is 0
    HostOperand packed;
    packed.max_limbs = packed.min_limbs = residue_stride(k);
    // The chunk's residues, modulus by modulus, into pinned staging that the GPU reads next.
    packed.pack = [&](std::size_t first, BatchView out) {
        const kernels::ResidueView r = residues_of(out, k);
        parallel_for(r.count, adapters::min_parallel_elements(std::uint32_t(k)), [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = 0; i < k; ++i)
                adapters::stream_copy(r.prime(i) + begin, residues[i] + first + begin, (end - begin) * sizeof(limb_t));
            adapters::stream_fence();
        });
    };
    const auto kernel = [&](std::span<const ConstBatchView> in, BatchView out, Runtime& runtime) {
        kernels::multi_crt(residues_of(in[0], k), tables.view(runtime), sign, out, runtime.stream());
    };
    const Operand operands[] = {{&packed, count}};
    return run(operands, count, size_class(crt_limbs(tables)), kernel, result, finish_on_host, kCrtChunkValues);
}

}  // namespace zgpu::gpu
