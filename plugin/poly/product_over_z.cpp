#include "plugin/poly/product_over_z.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "base/parallel.hpp"
#include "plugin/cpu/cpu_add_sub.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/modular/prime_set_state.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "plugin/poly/poly_choice.hpp"
#include "plugin/poly/product_pieces.hpp"
#include "plugin/modular/product_primes.hpp"
#include "plugin/host_ops/progress.hpp"
#include "zgpu/error.hpp"

namespace zgpu::poly {
namespace {

// Whether the GPU takes the product, judged before its prime set is made: coefficients that
// fit batches; CRT values that may fit a batch (P > 2^(bits + 1) - 2 has at least bits + 1 bits:
// the set's own size is checked once it is made).
bool gpu_takes(const ZPoly& a, const ZPoly& b, std::size_t out_length)
{
    return out_length > 0 && a.coeffs.too_large.empty() && b.coeffs.too_large.empty() &&
           (product_bits(a, b) + 1 + 63) / 64 <= kMaxLimbs;
}

// The transform a product needs whole (as gpu::fmpz_poly_product reads it, mullow cutting the
// operands), against max_transform.
bool fits_whole(const ZPoly& a, const ZPoly& b, std::size_t out_length, std::uint64_t max_transform)
{
    return transform_length_estimate(std::min(a.length, out_length), std::min(b.length, out_length)) <= max_transform;
}

// The smallest transform that pieces go down to before the host takes the product: each piece
// is a round trip of about 0.1 ms, and a product whose pieces must be smaller is one of
// coefficients of 2^17 bits or more (on a GPU of 80 GB) or a tight ZGPU_GPU_MEMORY_LIMIT, where
// thousands of them would take longer than FLINT (under a 256 KiB limit, products of 2^15 to
// 2^19 coefficients in transforms of 256 to 2048 took 95 s on an H200, six of them).
constexpr std::uint64_t kMinPieceTransform = 4096;

// The product as pieces (product_pieces.hpp) multiplied on the GPU with the whole product's
// primes (each piece's coefficients are below its bound), their values added into one batch on
// the host, which goes to result at the end: nothing is written before every piece is done.
// Progress advances piece by piece.
void multiply_in_pieces(const ZPoly& a, const ZPoly& b, std::size_t out_length, const PrimeSet& set, std::uint64_t max_transform,
                        const ZProductOnGpu& multiply, const HostResult& result, Progress& progress)
{
    const bool square = &a == &b;
    // Partial sums are bounded as the whole product's coefficients are; one limb more for the
    // additions' carry.
    LimbBatch sum(out_length, size_class(std::uint32_t(set.state().product_limbs + 1)));
    const std::vector<ProductPiece> pieces = product_pieces(a.length, b.length, out_length, max_transform);
    std::size_t reported = 0;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        const ProductPiece& piece = pieces[i];
        const HostOperand x = elements_from(a.coeffs, piece.a_first), y = elements_from(b.coeffs, piece.b_first);
        const bool diagonal = square && piece.a_first == piece.b_first && piece.a_length == piece.b_length;
        const std::size_t first = piece.out_first();
        multiply(x, piece.a_length, diagonal ? x : y, piece.b_length, piece.out_length, set, [&](std::size_t at, ConstBatchView values) {
            const BatchView target = sum.view();
            const BatchView slice{target.element(first + at), target.sizes + first + at, values.count, target.stride};
            LimbBatch added(values.count, target.stride);
            cpu::add_sub(slice, values, added.view(), false);
            std::copy_n(added.view().limbs, values.count * target.stride, slice.limbs);
            std::copy_n(added.view().sizes, values.count, slice.sizes);
        });
        const std::size_t done = out_length * (i + 1) / pieces.size();
        progress.advance(done - reported);
        reported = done;
    }
    result(0, sum.view());
}

PolyShape shape_of(const ZPoly& a, const ZPoly& b, std::size_t out_length)
{
    return fmpz_product_shape(a.length, b.length, out_length, a.bits, b.bits);
}

void on_host(const std::function<void()>& on_cpu)
{
    const FlintThreads threads(host_threads());
    on_cpu();
}

// Runs compute(deliver) on the GPU, where deliver passes the values on to on_gpu_result and
// advances the progress by them (unless compute advances it itself). Where the GPU fails before
// the first value, nothing is written and the error stands; after, the host computes the whole
// result, so that none is left half written. Returns the backend that finished.
Backend gpu_with_host_finish(const char* what, const std::function<void(const HostResult& deliver)>& compute,
                             const HostResult& on_gpu_result, Progress* progress, const std::function<void()>& on_cpu)
{
    bool delivered = false;
    const HostResult deliver = [&](std::size_t first, ConstBatchView values) {
        delivered = true;
        on_gpu_result(first, values);
        if (progress) progress->advance(values.count);
    };
    try {
        compute(deliver);
    } catch (const Error& e) {
        if (!delivered) throw;
        std::fprintf(stderr, "zgpu: the GPU failed during a %s (%s); the host computes it\n", what, e.what());
        on_host(on_cpu);
        return Backend::cpu;
    }
    return Backend::gpu;
}

// A result the GPU computes from its operands' residues modulo one prime set, without crossing
// PCIe between its steps (a power, a composition): its out_length coefficients below 2^bits.
struct ResidueAlgorithm {
    const char* what;       // for the host's warning where the GPU fails
    std::string progress;   // the progress line's name
    bool operands_fit;      // lengths that cannot overflow, coefficients of at most kMaxLimbs limbs
    std::uint64_t out_length;
    std::uint64_t bits;
    bool gpu_pays;          // the cost model's choice
    double flint_seconds;   // one thread
    std::function<std::size_t(const gpu::ModularTables&)> device_bytes;
    std::function<void(const gpu::ModularTables&, const HostResult&)> run;
};

// The algorithm on the GPU where it takes it (coefficients and results within kMaxLimbs limbs, a
// transform within gpu::kMaxPolyTransform, buffers that fit the device) and the cost model
// picks it, else on_cpu; failures as for products.
Backend on_residues(const ResidueAlgorithm& a, const std::function<void()>& on_cpu, const HostResult& on_gpu_result)
{
    const bool takes = a.operands_fit && a.bits < std::uint64_t(64) * kMaxLimbs &&
                       transform_length_estimate(a.out_length, 1) <= gpu::kMaxPolyTransform;
    const Backend backend = takes ? choose(a.gpu_pays) : Backend::cpu;
    Progress progress(a.progress, takes ? a.flint_seconds : 0, a.out_length);
    const auto on_gpu = [&] {
        const PrimeSet set = product_primes(a.bits);
        const bool fits = set.state().product_limbs <= kMaxLimbs && gpu::poly_device_fits(a.device_bytes(set.state().gpu_tables()));
        if (!fits) {
            on_host(on_cpu);
            return Backend::cpu;
        }
        return gpu_with_host_finish(
            a.what, [&](const HostResult& deliver) { a.run(set.state().gpu_tables(), deliver); }, on_gpu_result, &progress, on_cpu);
    };
    Backend ran = backend;
    run_on(
        backend, [&] { return ran = on_gpu(); }, [&] { on_host(on_cpu); });
    progress.ran_on(ran);
    return ran;
}

}  // namespace

std::uint64_t product_bits(const ZPoly& a, const ZPoly& b) { return fmpz_product_bits(a.length, b.length, a.bits, b.bits); }

std::uint64_t gpu_max_transform(const ZPoly& a, const ZPoly& b, std::size_t out_length, const PrimeSet& set)
{
    const gpu::ModularTables& tables = set.state().gpu_tables();
    const auto bytes = [&](std::uint64_t transform) {
        // The first piece is the largest (the whole product where it fits the transform).
        const ProductPiece largest = product_pieces(a.length, b.length, out_length, transform)[0];
        const HostOperand& y = &a == &b && largest.a_length == largest.b_length ? a.coeffs : b.coeffs;
        return gpu::fmpz_poly_product_bytes(a.coeffs, largest.a_length, y, largest.b_length, largest.out_length, tables);
    };
    for (std::uint64_t transform = gpu::kMaxPolyTransform; transform >= kMinPieceTransform; transform /= 2)
        if (gpu::poly_device_fits(bytes(transform))) return transform;
    return 0;
}

void gpu_product_over_z(const HostOperand& a, std::size_t a_length, const HostOperand& b, std::size_t b_length,
                        std::size_t out_length, const PrimeSet& set, const HostResult& result)
{
    gpu::fmpz_poly_product(a, a_length, b, b_length, out_length, set.state().gpu_tables(), result);
}

bool gpu_product_modulo(const ZPoly& a, const ZPoly& b, std::size_t out_length, const PrimeSet& set, const HostResult& result)
{
    if (set.state().product_limbs > kMaxLimbs) return false;
    const std::uint64_t transform = gpu_max_transform(a, b, out_length, set);
    if (transform == 0) return false;
    if (fits_whole(a, b, out_length, transform)) {
        gpu_product_over_z(a.coeffs, a.length, b.coeffs, b.length, out_length, set, result);
    } else {
        Progress quiet("", 0, 0);  // the caller reports
        multiply_in_pieces(a, b, out_length, set, transform, gpu_product_over_z, result, quiet);
    }
    return true;
}

Backend product_over_z(const ZPoly& a, const ZPoly& b, std::size_t out_length, const std::function<void()>& on_cpu,
                       const HostResult& on_gpu_result)
{
    const bool gpu_pays = gpu_takes(a, b, out_length) &&
                          gpu_pays_for_fmpz_poly_product(shape_of(a, b, out_length), host_threads());
    return product_over_z_on(choose(gpu_pays), a, b, out_length, on_cpu, on_gpu_result, gpu_product_over_z, gpu_max_transform);
}

Backend power_over_z(const ZPoly& f, std::uint64_t e, std::uint64_t bits, const std::function<void()>& on_cpu,
                     const HostResult& on_gpu_result)
{
    // Lengths beyond any transform are left to the host before they can overflow.
    const bool short_enough = e <= gpu::kMaxPolyTransform / (f.length - 1);
    const std::uint64_t out_length = short_enough ? (f.length - 1) * e + 1 : 0;
    const PolyShape last = fmpz_power_shape(short_enough ? f.length : 2, short_enough ? e : 1, bits);
    const ResidueAlgorithm power{
        "polynomial power",
        "polynomial power over Z, " + std::to_string(f.length) + " coefficients of " + std::to_string(f.bits) + " bits to the " +
            std::to_string(e),
        short_enough && f.coeffs.too_large.empty(),
        out_length,
        bits,
        gpu_pays_for_fmpz_poly_product(last, host_threads()),
        flint_fmpz_seconds(last),
        [&](const gpu::ModularTables& tables) { return gpu::fmpz_poly_power_bytes(f.coeffs, f.length, out_length, tables); },
        [&](const gpu::ModularTables& tables, const HostResult& deliver) { gpu::fmpz_poly_power(f.coeffs, f.length, e, tables, deliver); }};
    return on_residues(power, on_cpu, on_gpu_result);
}

Backend compose_over_z(const ZPoly& f, const ZPoly& h, std::uint64_t bits, const std::function<void()>& on_cpu,
                       const HostResult& on_gpu_result)
{
    const bool short_enough = f.length >= 2 && h.length >= 2 && f.length - 1 <= gpu::kMaxPolyTransform / (h.length - 1);
    const std::uint64_t out_length = short_enough ? (f.length - 1) * (h.length - 1) + 1 : 0;
    const ComposeShape shape{f.length, h.length, f.bits, h.bits, bits};
    const ResidueAlgorithm composition{
        "polynomial composition",
        "polynomial composition over Z, " + std::to_string(f.length) + " of " + std::to_string(h.length) + " coefficients of " +
            std::to_string(f.bits) + " and " + std::to_string(h.bits) + " bits",
        short_enough && f.coeffs.too_large.empty() && h.coeffs.too_large.empty(),
        out_length,
        bits,
        gpu_pays_for_fmpz_poly_compose(shape, host_threads()),
        flint_fmpz_compose_seconds(shape, 1),
        [&](const gpu::ModularTables& tables) { return gpu::fmpz_poly_compose_bytes(f.coeffs, f.length, h.coeffs, h.length, tables); },
        [&](const gpu::ModularTables& tables, const HostResult& deliver) {
            gpu::fmpz_poly_compose(f.coeffs, f.length, h.coeffs, h.length, tables, deliver);
        }};
    return on_residues(composition, on_cpu, on_gpu_result);
}

Backend product_over_z_on(Backend backend, const ZPoly& a, const ZPoly& b, std::size_t out_length,
                          const std::function<void()>& on_cpu, const HostResult& on_gpu_result,
                          const ZProductOnGpu& multiply, const ZMaxTransform& max_transform)
{
    if (!gpu_takes(a, b, out_length)) backend = Backend::cpu;
    Progress progress("polynomial product over Z, " + std::to_string(a.length) + " x " + std::to_string(b.length) +
                          " coefficients of " + std::to_string(a.bits) + " x " + std::to_string(b.bits) + " bits",
                      out_length ? flint_fmpz_seconds(shape_of(a, b, out_length)) : 0, out_length);
    const auto on_gpu = [&] {
        const PrimeSet set = product_primes(product_bits(a, b));
        const std::uint64_t transform = set.state().product_limbs > kMaxLimbs ? 0 : max_transform(a, b, out_length, set);
        if (transform == 0) {
            on_host(on_cpu);
            return Backend::cpu;
        }
        const bool whole = fits_whole(a, b, out_length, transform);
        return gpu_with_host_finish(
            "polynomial product",
            [&](const HostResult& deliver) {
                if (whole) multiply(a.coeffs, a.length, b.coeffs, b.length, out_length, set, deliver);
                else multiply_in_pieces(a, b, out_length, set, transform, multiply, deliver, progress);
            },
            on_gpu_result, whole ? &progress : nullptr, on_cpu);
    };
    Backend ran = backend;
    run_on(
        backend, [&] { return ran = on_gpu(); }, [&] { on_host(on_cpu); });
    progress.ran_on(ran);
    return ran;
}

}  // namespace zgpu::poly
