// Dixon's p-adic lifting on the GPU (matrix_backend.hpp): a and b reduced modulo the set's
// primes (reduced_operands.hpp); a^-1 modulo the candidates for p by block recursion
// (block_inverse.hpp); then two kernels a step (kernels/matrix/dixon_step.hpp), the digits kept
// on the device and brought down together at the end. ZGPU_TIMING=1 prints the split.
#include <algorithm>
#include <cstdio>
#include <string>

#include "kernels/matrix/dixon_step.hpp"
#include "plugin/gpu/matrix/block_inverse.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/gpu/modular/reduced_operands.hpp"
#include "plugin/gpu/parts_counter.hpp"
#include "plugin/gpu/runtime.hpp"
#include "plugin/gpu/stream_events.hpp"

namespace zgpu::gpu {
namespace {

static_assert(kDixonMaxResidueModuli == kernels::kDixonMaxModuli);

// The constants of p = moduli[p_index] and the other moduli as the q_j.
kernels::DixonModuli moduli_around(std::span<const limb_t> moduli, std::size_t p_index)
{
    std::vector<limb_t> q;
    std::vector<std::uint32_t> matrix;
    for (std::size_t i = 0; i < moduli.size(); ++i)
        if (i != p_index) {
            q.push_back(moduli[i]);
            matrix.push_back(std::uint32_t(i));
        }
    return kernels::dixon_moduli(moduli[p_index], q, matrix);
}

}  // namespace

DixonDigits fmpz_mat_dixon_digits(const HostOperand& a, const HostOperand& b, std::size_t n, std::size_t cols,
                                  const ModularTables& tables, std::size_t candidates, std::size_t steps,
                                  const std::function<void(std::uint64_t)>& steps_done)
{
    const Clock::time_point start = Clock::now();
    const std::span<const limb_t> moduli = tables.moduli();
    const std::size_t k = moduli.size(), square = n * n, entries = n * cols;
    if (k < 2 || k - 1 > kernels::kDixonMaxModuli || candidates == 0 || candidates > k || steps == 0)
        throw Error("fmpz_mat_dixon_digits: " + std::to_string(k) + " primes, " + std::to_string(candidates) + " candidates, " +
                    std::to_string(steps) + " steps");
    UploadLayout layout;
    const ReducedOperands reduced(layout, {{a, square}, {b, entries}}, k);
    const std::size_t inverse_at = layout.reserve(candidates * square * sizeof(limb_t));
    const std::size_t dets_at = layout.reserve(candidates * sizeof(limb_t));
    const std::size_t r_at = layout.reserve(entries * sizeof(limb_t));
    const std::size_t d_at = layout.reserve((k - 1) * entries * sizeof(limb_t));
    const std::size_t digits_at = layout.reserve(steps * entries * sizeof(limb_t));

    Runtime& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    std::byte* staging = runtime.staging(std::max(reduced.upload_bytes(), steps * entries * sizeof(limb_t)));
    reduced.pack(staging);
    const Clock::time_point packed = Clock::now();
    std::byte* device = runtime.scratch(layout.bytes());
    const PartsCounter finished(steps_done);
    const DrainOnExit drain{stream, stream, stream};  // before the staging is used again
    enum Phase { kUpload, kReduction, kInverse, kLifting, kDownload };
    PhaseTimes times(5);
    const kernels::ModularTablesView& view = tables.view(runtime);
    reduced.upload_and_reduce(device, staging, view, stream, times, kUpload, kReduction);
    const kernels::ResidueView a_residues = reduced.residues(device, 0), b_residues = reduced.residues(device, 1);

    // a^-1 modulo the candidates together; p is the first modulo which a is invertible. Where
    // the plain recursion finds none, the preconditioned one tells singular matrices apart.
    const kernels::ConstMatricesView candidate_matrices{a_residues.data, n, n, n, a_residues.prime_stride, candidates};
    const kernels::MatricesView inverses{reinterpret_cast<limb_t*>(device + inverse_at), n, n, n, square, candidates};
    limb_t* dets = reinterpret_cast<limb_t*>(device + dets_at);
    const unsigned bits = modulus_bits(moduli);
    const auto first_invertible = [&] {
        check(cudaMemcpyAsync(staging, dets, candidates * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "reading determinants mod p");
        runtime.synchronize("inverses mod p");
        const limb_t* det = reinterpret_cast<const limb_t*>(staging);
        return std::size_t(std::find_if(det, det + candidates, [](limb_t x) { return x != 0; }) - det);
    };
    times.begin(kInverse, stream);
    invert_by_blocks(runtime, candidate_matrices, inverses, view.moduli, bits, dets);
    std::size_t p_index = first_invertible();
    if (p_index == candidates) {
        invert_by_blocks_preconditioned(runtime, candidate_matrices, inverses, view.moduli, bits, dets);
        p_index = first_invertible();
    }
    times.end(kInverse, stream);
    DixonDigits out;
    if (p_index == candidates) return out;
    out.p = moduli[p_index];
    const limb_t* inverse = inverses.matrix(p_index);

    // d = b, as residues modulo the q_j, and r = b mod p.
    const kernels::DixonModuli constants = moduli_around(moduli, p_index);
    limb_t* r = reinterpret_cast<limb_t*>(device + r_at);
    const kernels::MatricesView d{reinterpret_cast<limb_t*>(device + d_at), n, cols, cols, entries, k - 1};
    for (std::size_t j = 0; j + 1 < k; ++j)
        check(cudaMemcpyAsync(d.matrix(j), b_residues.prime(constants.matrix[j]), entries * sizeof(limb_t), cudaMemcpyDeviceToDevice,
                              stream),
              "copying b's residues");
    check(cudaMemcpyAsync(r, b_residues.prime(p_index), entries * sizeof(limb_t), cudaMemcpyDeviceToDevice, stream),
          "copying b mod p");

    const kernels::ConstMatricesView a_view{a_residues.data, n, n, n, a_residues.prime_stride, k};
    limb_t* digits = reinterpret_cast<limb_t*>(device + digits_at);
    times.begin(kLifting, stream);
    for (std::size_t s = 0; s < steps; ++s) {
        limb_t* y = digits + s * entries;
        kernels::dixon_digit(inverse, r, n, cols, constants.p, y, stream);
        if (s + 1 < steps) kernels::dixon_residual(a_view, y, d, constants, r, finished.device_count(), stream);
    }
    times.end(kLifting, stream);
    times.begin(kDownload, stream);
    check(cudaMemcpyAsync(staging, digits, steps * entries * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading digits");
    times.end(kDownload, stream);
    finished.wait(stream, "Dixon's lifting");
    const limb_t* words = reinterpret_cast<const limb_t*>(staging);
    out.digits.assign(words, words + steps * entries);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: Dixon's lifting, %zu x %zu by %zu columns, %zu steps mod %llu: packing %.2f ms, upload %.2f ms, "
                     "reduction %.2f ms, inverses %.2f ms, lifting %.2f ms, download %.2f ms, total %.2f ms\n",
                     n, n, cols, steps, static_cast<unsigned long long>(out.p), milliseconds(packed - start), times.milliseconds(kUpload),
                     times.milliseconds(kReduction), times.milliseconds(kInverse), times.milliseconds(kLifting),
                     times.milliseconds(kDownload), milliseconds(Clock::now() - start));
    return out;
}

}  // namespace zgpu::gpu
