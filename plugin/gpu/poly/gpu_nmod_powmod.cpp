// Powers of a polynomial mod n modulo another, on the GPU (poly_backend.hpp): the operands go up
// once, every step of the binary powering runs on the device, the result comes down once. A
// step is a product and a remainder by the precomputed inverse (Newton division): three
// products, each through the three 64-bit primes and the CRT to n (crt_to_moduli.hpp), with the
// reversals and the last subtraction between them. A chain of separate products (FLINT's
// powering through the plugin) crosses PCIe at each of them instead. ZGPU_TIMING=1 prints the
// split to stderr.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>

#include "kernels/modular/modulus.hpp"
#include "kernels/poly/crt_to_moduli.hpp"
#include "kernels/poly/nmod_poly_steps.hpp"
#include "kernels/poly/poly_mul.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/poly/garner.hpp"
#include "plugin/gpu/poly/gpu_ntt_tables.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/gpu/stream_events.hpp"
#include "plugin/gpu/upload_layout.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

// Where everything lies on the device, for f of degree m modulo n: the uploaded part first (f,
// its inverse's m - 1 coefficients, the base, the modulus's constants, the CRT's radix, one
// offset and the three products' lengths: the full square or product, the quotient's and the
// remainder's), then the device's own working arrays.
struct PowmodLayout {
    enum Product { kFull, kQuotient, kLow };

    PowmodLayout(std::size_t m, limb_t n, std::span<const limb_t> primes)
        : modulus{kernels::make_modulus(n)},
          radix(garner_radix(primes, n)),
          lengths{std::uint32_t(2 * m - 1), std::uint32_t(m - 1), std::uint32_t(m)}
    {
        f = layout.reserve((m + 1) * sizeof(limb_t));
        finv = layout.reserve((m - 1) * sizeof(limb_t));
        base = layout.reserve(m * sizeof(limb_t));
        modulus_at = layout.add(modulus);
        radix_at = layout.add(radix);
        offsets_at = layout.add(offsets);
        lengths_at = layout.add(lengths);
        upload_bytes = layout.bytes();
        power[0] = layout.reserve(m * sizeof(limb_t));
        power[1] = layout.reserve(m * sizeof(limb_t));
        full = layout.reserve((2 * m - 1) * sizeof(limb_t));
        top = layout.reserve((m - 1) * sizeof(limb_t));
        quotient_reversed = layout.reserve((m - 1) * sizeof(limb_t));
        quotient = layout.reserve((m - 1) * sizeof(limb_t));
        low = layout.reserve(m * sizeof(limb_t));
        residues = layout.reserve(primes.size() * (2 * m - 1) * sizeof(limb_t));
    }

    // The uploaded arrays, which the layout points into.
    std::vector<kernels::Modulus> modulus;
    std::vector<limb_t> radix;
    std::vector<std::uint64_t> offsets{0};
    std::vector<std::uint32_t> lengths;
    UploadLayout layout;
    std::size_t f, finv, base, modulus_at, radix_at, offsets_at, lengths_at, upload_bytes;
    std::size_t power[2], full, top, quotient_reversed, quotient, low, residues;
};

}  // namespace

void nmod_poly_powmod(limb_t* res, const limb_t* base, std::span<const limb_t> exponent, const limb_t* f, std::size_t lenf,
                      const limb_t* finv, limb_t n)
{
    const Clock::time_point start = Clock::now();
    const std::size_t m = lenf - 1;
    if (lenf < 3 || exponent.empty() || exponent.back() == 0)
        throw Error("nmod_poly_powmod: needs a modulus of degree 2 or more and a nonzero exponent");
    const std::uint32_t length = kernels::poly_ntt_length(m, m);
    if (length > kMaxPolyTransform)
        throw Error("nmod_poly_powmod: a modulus of degree " + std::to_string(m) + " needs a transform longer than the GPU takes");
    const std::span<const limb_t> primes = three_product_primes();
    const PowmodLayout at(m, n, primes);

    const std::vector<Runtime*> in_use = Runtime::in_use();
    Runtime& runtime = *in_use[0];
    const Runtime::Leases leases(std::span<Runtime* const>(in_use.data(), 1));
    runtime.make_current();
    const cudaStream_t stream = runtime.stream();
    const DrainOnExit drain(stream, stream, stream);
    std::byte* staging = runtime.staging(std::max(at.upload_bytes, m * sizeof(limb_t)));
    at.layout.gather_into(staging);
    std::copy_n(f, m + 1, reinterpret_cast<limb_t*>(staging + at.f));
    std::copy_n(finv, m - 1, reinterpret_cast<limb_t*>(staging + at.finv));
    limb_t* staged_base = reinterpret_cast<limb_t*>(staging + at.base);
    if (base) std::copy_n(base, m, staged_base);
    else std::fill_n(staged_base, m, limb_t(0)), staged_base[1] = 1;  // x, reduced: f has degree 2 or more

    enum Phase { kUpload, kSteps, kDownload };
    PhaseTimes times(3);
    std::byte* device = runtime.scratch(at.layout.bytes());
    const auto words = [&](std::size_t offset) { return reinterpret_cast<limb_t*>(device + offset); };
    times.begin(kUpload, stream);
    check(cudaMemcpyAsync(device, staging, at.upload_bytes, cudaMemcpyHostToDevice, stream), "uploading a power's operands");
    times.end(kUpload, stream);

    const kernels::PolyNttTablesView ntt = poly_ntt_tables(runtime, primes, length);
    const kernels::GarnerView garner = garner_tables(runtime, primes).view();
    const auto* modulus = reinterpret_cast<const kernels::Modulus*>(device + at.modulus_at);
    const auto* offsets = reinterpret_cast<const std::uint64_t*>(device + at.offsets_at);
    const auto* out_lengths = reinterpret_cast<const std::uint32_t*>(device + at.lengths_at);
    // out = a b mod x^(lengths[which]) mod n (a == b: a square).
    const auto product = [&](const limb_t* a, std::size_t la, const limb_t* b, std::size_t lb, PowmodLayout::Product which,
                             limb_t* out) {
        const std::size_t out_length = at.lengths[which];
        const kernels::ResidueView r{words(at.residues), out_length, primes.size(), out_length};
        kernels::poly_mul({{a, la, primes.size(), 0}}, {{b, lb, primes.size(), 0}}, a == b && la == lb, 1,
                          kernels::poly_ntt_length(std::min(la, out_length), std::min(lb, out_length)), ntt, {r}, stream);
        kernels::crt_to_moduli(r, garner, modulus, words(at.radix_at), offsets, out_lengths + which, 1, std::uint32_t(out_length),
                               out, stream);
    };
    // out = a b mod f: the quotient's reverse is the top of a b, reversed, times f's inverse.
    const auto mulmod = [&](const limb_t* a, const limb_t* b, limb_t* out) {
        product(a, m, b, m, PowmodLayout::kFull, words(at.full));
        kernels::reverse_words(words(at.full) + m, m - 1, words(at.top), stream);
        product(words(at.top), m - 1, words(at.finv), m - 1, PowmodLayout::kQuotient, words(at.quotient_reversed));
        kernels::reverse_words(words(at.quotient_reversed), m - 1, words(at.quotient), stream);
        product(words(at.quotient), m - 1, words(at.f), m + 1, PowmodLayout::kLow, words(at.low));
        kernels::sub_mod_words(words(at.full), words(at.low), m, n, out, stream);
    };
    times.begin(kSteps, stream);
    const limb_t* power = words(at.base);
    int next = 0;
    const int top_bit = 64 * int(exponent.size() - 1) + std::bit_width(exponent.back()) - 1;
    for (int bit = top_bit - 1; bit >= 0; --bit) {
        mulmod(power, power, words(at.power[next]));
        power = words(at.power[next]);
        next ^= 1;
        if ((exponent[std::size_t(bit) / 64] >> (bit % 64)) & 1) {
            mulmod(power, words(at.base), words(at.power[next]));
            power = words(at.power[next]);
            next ^= 1;
        }
    }
    times.end(kSteps, stream);
    times.begin(kDownload, stream);
    check(cudaMemcpyAsync(staging, power, m * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading a power");
    times.end(kDownload, stream);
    runtime.synchronize("a power mod f");
    std::copy_n(reinterpret_cast<const limb_t*>(staging), m, res);
    if (times.on())
        std::fprintf(stderr,
                     "zgpu: nmod_poly power mod f of degree %zu, exponent of %d bits, transform %u: upload %.2f ms, steps %.2f ms, "
                     "download %.2f ms, total %.2f ms\n",
                     m, top_bit + 1, length, times.milliseconds(kUpload), times.milliseconds(kSteps), times.milliseconds(kDownload),
                     milliseconds(Clock::now() - start));
}

}  // namespace zgpu::gpu
