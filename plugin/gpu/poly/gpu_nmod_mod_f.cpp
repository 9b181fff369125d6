// Arithmetic of nmod polynomials modulo another on the GPU (poly_backend.hpp): a product mod f,
// and powers mod f whose every step stays on the device. The operands go up once and the result
// comes down once. A product mod f is a product and a remainder by the precomputed inverse
// (Newton division): three products, each through the three 64-bit primes and the CRT to n
// (crt_to_moduli.hpp), with the reversals and the last subtraction between them. A chain of
// separate products (FLINT's through the plugin) crosses PCIe at each of them instead.
// ZGPU_TIMING=1 prints a power's split to stderr.
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

// Where everything lies on the device, for f of degree m modulo n and products of at most 2m - 1
// coefficients before the remainder: the uploaded part first (f, the m - 1 coefficients of its
// inverse, the operands a and b, the modulus's constants, the CRT's radix and one offset), then
// the device's own working arrays.
struct ModFLayout {
    ModFLayout(std::size_t m, limb_t n, std::span<const limb_t> primes, std::size_t a_length, std::size_t b_length)
        : modulus{kernels::make_modulus(n)}, radix(garner_radix(primes, n))
    {
        f = layout.reserve((m + 1) * sizeof(limb_t));
        finv = layout.reserve((m - 1) * sizeof(limb_t));
        a = layout.reserve(a_length * sizeof(limb_t));
        b = layout.reserve(b_length * sizeof(limb_t));
        modulus_at = layout.add(modulus);
        radix_at = layout.add(radix);
        offsets_at = layout.add(offsets);
        lengths_at = layout.reserve(3 * sizeof(std::uint32_t));
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
    // The layout points into the object's own arrays.
    ModFLayout(const ModFLayout&) = delete;
    ModFLayout& operator=(const ModFLayout&) = delete;

    // The uploaded arrays, which the layout points into.
    std::vector<kernels::Modulus> modulus;
    std::vector<limb_t> radix;
    std::vector<std::uint64_t> offsets{0};
    UploadLayout layout;
    std::size_t f, finv, a, b, modulus_at, radix_at, offsets_at, lengths_at, upload_bytes;
    std::size_t power[2], full, top, quotient_reversed, quotient, low, residues;
};

// One call's device side: f and its inverse uploaded with the operands, and products mod f of
// operands on the device. The caller holds the runtime's lease.
class ModF {
public:
    // The three products' lengths: the full product (or square), the quotient's and the
    // remainder's; a product mod f of a_length x b_length coefficients (each at most m, their
    // product at least m + 1 long).
    enum Product { kFull, kQuotient, kLow };

    ModF(Runtime& runtime, const ModFLayout& at, std::size_t m, limb_t n, std::span<const limb_t> primes, std::size_t full_length)
        : at_(at), m_(m), n_(n), stream_(runtime.stream()), primes_(primes),
          lengths_{std::uint32_t(full_length), std::uint32_t(full_length - m), std::uint32_t(m)},
          device_(runtime.scratch(at.layout.bytes())),
          ntt_(poly_ntt_tables(runtime, primes, kernels::poly_ntt_length(m, m))),
          garner_(garner_tables(runtime, primes).view())
    {
    }

    limb_t* words(std::size_t offset) const { return reinterpret_cast<limb_t*>(device_ + offset); }
    std::byte* device() const { return device_; }
    const std::uint32_t* lengths() const { return lengths_; }

    // out = a b mod f, a of la and b of lb coefficients (the same la + lb - 1 for every call of
    // this object: the lengths uploaded); a == b with la == lb squares.
    void mulmod(const limb_t* a, std::size_t la, const limb_t* b, std::size_t lb, limb_t* out) const
    {
        const std::size_t quotient = lengths_[kQuotient];
        product(a, la, b, lb, kFull, words(at_.full));
        // The quotient's reverse: the top of a b, reversed, times f's inverse.
        kernels::reverse_words(words(at_.full) + m_, quotient, words(at_.top), stream_);
        product(words(at_.top), quotient, words(at_.finv), quotient, kQuotient, words(at_.quotient_reversed));
        kernels::reverse_words(words(at_.quotient_reversed), quotient, words(at_.quotient), stream_);
        product(words(at_.quotient), quotient, words(at_.f), m_ + 1, kLow, words(at_.low));
        kernels::sub_mod_words(words(at_.full), words(at_.low), m_, n_, out, stream_);
    }

private:
    // out = a b mod x^(lengths[which]) mod n (a == b: a square).
    void product(const limb_t* a, std::size_t la, const limb_t* b, std::size_t lb, Product which, limb_t* out) const
    {
        const std::size_t out_length = lengths_[which];
        const kernels::ResidueView r{words(at_.residues), out_length, primes_.size(), out_length};
        kernels::poly_mul({{a, la, primes_.size(), 0}}, {{b, lb, primes_.size(), 0}}, a == b && la == lb, 1,
                          kernels::poly_ntt_length(std::min(la, out_length), std::min(lb, out_length)), ntt_, {r}, stream_);
        const auto* lengths = reinterpret_cast<const std::uint32_t*>(device_ + at_.lengths_at);
        kernels::crt_to_moduli(r, garner_, reinterpret_cast<const kernels::Modulus*>(device_ + at_.modulus_at), words(at_.radix_at),
                               reinterpret_cast<const std::uint64_t*>(device_ + at_.offsets_at), lengths + which, 1,
                               std::uint32_t(out_length), out, stream_);
    }

    const ModFLayout& at_;
    std::size_t m_;
    limb_t n_;
    cudaStream_t stream_;
    std::span<const limb_t> primes_;
    std::uint32_t lengths_[3];
    std::byte* device_;
    kernels::PolyNttTablesView ntt_;
    kernels::GarnerView garner_;
};

// The checks both calls share: f of degree 2 or more within the GPU's transforms.
void check_modulus(const char* function, std::size_t lenf)
{
    if (lenf < 3) throw Error(std::string(function) + ": needs a modulus of degree 2 or more");
    if (kernels::poly_ntt_length(lenf - 1, lenf - 1) > kMaxPolyTransform)
        throw Error(std::string(function) + ": a modulus of degree " + std::to_string(lenf - 1) + " needs a transform longer than the GPU takes");
}

// Runs work(mod_f, staging, runtime) on the first device in use, its lease held, once f, the
// inverse's first coefficients up to m - 1 (the longest quotient: no more are read; zeros past
// finv_length, as FLINT reads finv), the products' lengths and the layout's own arrays are in
// pinned memory, for products of full_length coefficients before the remainder. The streams
// are drained on every exit. The caller stages its operands and uploads.
template <class Work>
void on_first_device(const ModFLayout& at, std::size_t m, limb_t n, std::size_t full_length, const limb_t* f, const limb_t* finv,
                     std::size_t finv_length, const Work& work)
{
    const std::vector<Runtime*> in_use = Runtime::in_use();
    Runtime& runtime = *in_use[0];
    const Runtime::Leases leases(std::span<Runtime* const>(in_use.data(), 1));
    runtime.make_current();
    const cudaStream_t stream = runtime.stream();
    const DrainOnExit drain(stream, stream, stream);
    const ModF mod_f(runtime, at, m, n, three_product_primes(), full_length);
    // Results come back through the same memory (the upload is longer).
    std::byte* staging = runtime.staging(at.upload_bytes);
    at.layout.gather_into(staging);
    std::copy_n(f, m + 1, reinterpret_cast<limb_t*>(staging + at.f));
    limb_t* staged_finv = reinterpret_cast<limb_t*>(staging + at.finv);
    const std::size_t read = std::min(finv_length, m - 1);
    std::copy_n(finv, read, staged_finv);
    std::fill(staged_finv + read, staged_finv + (m - 1), limb_t(0));
    std::copy_n(mod_f.lengths(), 3, reinterpret_cast<std::uint32_t*>(staging + at.lengths_at));
    work(mod_f, staging, runtime);
}

}  // namespace

void nmod_poly_powmod(limb_t* res, const limb_t* base, std::span<const limb_t> exponent, const limb_t* f, std::size_t lenf,
                      const limb_t* finv, std::size_t finv_length, limb_t n)
{
    const Clock::time_point start = Clock::now();
    check_modulus("nmod_poly_powmod", lenf);
    if (exponent.empty() || exponent.back() == 0) throw Error("nmod_poly_powmod: needs a nonzero exponent");
    const std::size_t m = lenf - 1;
    const ModFLayout at(m, n, three_product_primes(), m, 0);
    on_first_device(at, m, n, 2 * m - 1, f, finv, finv_length, [&](const ModF& mod_f, std::byte* staging, Runtime& runtime) {
        const cudaStream_t stream = runtime.stream();
        limb_t* staged_base = reinterpret_cast<limb_t*>(staging + at.a);
        if (base) std::copy_n(base, m, staged_base);
        else std::fill_n(staged_base, m, limb_t(0)), staged_base[1] = 1;  // x, reduced: f has degree 2 or more

        enum Phase { kUpload, kSteps, kDownload };
        PhaseTimes times(3);
        times.begin(kUpload, stream);
        check(cudaMemcpyAsync(mod_f.device(), staging, at.upload_bytes, cudaMemcpyHostToDevice, stream), "uploading a power's operands");
        times.end(kUpload, stream);
        times.begin(kSteps, stream);
        const limb_t* power = mod_f.words(at.a);
        int next = 0;
        const int top_bit = 64 * int(exponent.size() - 1) + std::bit_width(exponent.back()) - 1;
        const auto step = [&](const limb_t* by) {
            mod_f.mulmod(power, m, by, m, mod_f.words(at.power[next]));
            power = mod_f.words(at.power[next]);
            next ^= 1;
        };
        for (int bit = top_bit - 1; bit >= 0; --bit) {
            step(power);
            if ((exponent[std::size_t(bit) / 64] >> (bit % 64)) & 1) step(mod_f.words(at.a));
        }
        times.end(kSteps, stream);
        times.begin(kDownload, stream);
        check(cudaMemcpyAsync(staging, power, m * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading a power");
        times.end(kDownload, stream);
        runtime.synchronize("a power mod f");
        // Before res is written: reading the events may fail.
        if (times.on())
            std::fprintf(stderr,
                         "zgpu: nmod_poly power mod f of degree %zu, exponent of %d bits: upload %.2f ms, steps %.2f ms, "
                         "download %.2f ms, total %.2f ms\n",
                         m, top_bit + 1, times.milliseconds(kUpload), times.milliseconds(kSteps), times.milliseconds(kDownload),
                         milliseconds(Clock::now() - start));
        std::copy_n(reinterpret_cast<const limb_t*>(staging), m, res);
    });
}

void nmod_poly_mulmod(limb_t* res, const limb_t* a, std::size_t a_length, const limb_t* b, std::size_t b_length, const limb_t* f,
                      std::size_t lenf, const limb_t* finv, std::size_t finv_length, limb_t n)
{
    check_modulus("nmod_poly_mulmod", lenf);
    const std::size_t m = lenf - 1;
    if (a_length < 1 || b_length < 1 || a_length > m || b_length > m || a_length + b_length - 1 <= m)
        throw Error("nmod_poly_mulmod: operands of " + std::to_string(a_length) + " and " + std::to_string(b_length) +
                    " coefficients, modulo f of degree " + std::to_string(m) + ": each at most the degree, their product longer");
    const ModFLayout at(m, n, three_product_primes(), a_length, b_length);
    on_first_device(at, m, n, a_length + b_length - 1, f, finv, finv_length, [&](const ModF& mod_f, std::byte* staging, Runtime& runtime) {
        const cudaStream_t stream = runtime.stream();
        std::copy_n(a, a_length, reinterpret_cast<limb_t*>(staging + at.a));
        std::copy_n(b, b_length, reinterpret_cast<limb_t*>(staging + at.b));
        check(cudaMemcpyAsync(mod_f.device(), staging, at.upload_bytes, cudaMemcpyHostToDevice, stream),
              "uploading a product's operands");
        const bool square = a == b && a_length == b_length;
        limb_t* product = mod_f.words(at.power[0]);
        mod_f.mulmod(mod_f.words(at.a), a_length, square ? mod_f.words(at.a) : mod_f.words(at.b), b_length, product);
        check(cudaMemcpyAsync(staging, product, m * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading a product mod f");
        runtime.synchronize("a product mod f");
        std::copy_n(reinterpret_cast<const limb_t*>(staging), m, res);
    });
}

}  // namespace zgpu::gpu
