// Products of nmod polynomials from host arrays (poly_backend.hpp): grouped by transform length
// and route (one prime, or three and a reduction mod n), each group's operands gathered into
// pinned memory and copied up at once, multiplied (kernels/poly/poly_mul.hpp), reduced mod each
// n (crt_to_moduli.hpp) and copied back.
#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "base/parallel.hpp"
#include "kernels/modular/ntt_primes.hpp"
#include "kernels/poly/crt_to_moduli.hpp"
#include "kernels/poly/poly_mul.hpp"
#include "plugin/gpu/poly/garner.hpp"
#include "plugin/gpu/poly/ntt_tables.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "plugin/gpu/upload_layout.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

// Products that run as one batch: one transform length, one prime n (0: the three primes), all
// squares or none.
struct Route {
    std::uint64_t length;
    limb_t prime;
    bool square;
    auto operator<=>(const Route&) const = default;
};

bool is_square(const NmodProduct& p) { return p.a == p.b && p.a_length == p.b_length; }

Route route_of(const NmodProduct& p)
{
    const std::uint64_t length = nmod_transform_length(p);
    // The cheap test first: few moduli have the transform length dividing n - 1.
    const bool one_prime = p.n < (limb_t(1) << 62) && p.n > 2 && (p.n - 1) % length == 0 && kernels::is_prime_word(p.n);
    return {length, one_prime ? p.n : 0, is_square(p)};
}

std::span<const limb_t> three_primes()
{
    static const std::vector<limb_t> primes = kernels::ntt_primes(3);
    return primes;
}

// Coefficients of an operand that the product reads (mullow reads no more than it returns).
std::size_t read_length(std::size_t length, const NmodProduct& p) { return std::min(length, p.out_length); }

void run_group(std::span<const NmodProduct* const> group, const Route& route)
{
    const std::span<const limb_t> primes = route.prime ? std::span<const limb_t>(&route.prime, 1) : three_primes();
    const std::size_t count = group.size(), k = primes.size();
    std::vector<std::uint64_t> a_offsets(count), b_offsets(count), out_offsets(count);
    std::vector<std::uint32_t> a_lengths(count), b_lengths(count), out_lengths(count);
    std::vector<kernels::Modulus> moduli;
    std::vector<limb_t> radix;
    std::uint64_t a_total = 0, b_total = 0, out_total = 0;
    std::uint32_t max_out = 0;
    for (std::size_t j = 0; j < count; ++j) {
        const NmodProduct& p = *group[j];
        a_offsets[j] = a_total, b_offsets[j] = b_total, out_offsets[j] = out_total;
        a_lengths[j] = std::uint32_t(read_length(p.a_length, p));
        b_lengths[j] = route.square ? 0 : std::uint32_t(read_length(p.b_length, p));
        out_lengths[j] = std::uint32_t(p.out_length);
        a_total += a_lengths[j], b_total += b_lengths[j], out_total += out_lengths[j];
        max_out = std::max(max_out, out_lengths[j]);
        if (!route.prime) {
            moduli.push_back(kernels::make_modulus(p.n));
            const std::vector<limb_t> r = garner_radix(primes, p.n);
            radix.insert(radix.end(), r.begin(), r.end());
        }
    }
    auto& runtime = Runtime::get();
    const Runtime::Lease lease(runtime);
    const cudaStream_t stream = runtime.stream();
    const PolyNttTables& tables = poly_ntt_tables(primes, std::uint32_t(route.length));
    const GarnerTables* garner = route.prime ? nullptr : &garner_tables(primes);

    // Up: the coefficients (gathered on all host threads), then the small arrays.
    UploadLayout up;
    const std::size_t a_at = up.reserve(a_total * sizeof(limb_t)), b_at = up.reserve(b_total * sizeof(limb_t));
    const std::size_t a_offsets_at = up.add(a_offsets), a_lengths_at = up.add(a_lengths), b_offsets_at = up.add(b_offsets),
                      b_lengths_at = up.add(b_lengths), out_offsets_at = up.add(out_offsets),
                      out_lengths_at = up.add(out_lengths), moduli_at = up.add(moduli), radix_at = up.add(radix);
    const std::size_t upload_bytes = up.bytes();
    // On the device alone: the products mod n and, for three primes, their residues.
    const std::size_t out_at = up.reserve(out_total * sizeof(limb_t));
    const std::size_t residues_at = route.prime ? out_at : up.reserve(k * out_total * sizeof(limb_t));
    std::byte* staging = runtime.staging(std::max(upload_bytes, out_total * sizeof(limb_t)));
    up.gather_into(staging);
    parallel_for(count, 64, [&](std::size_t begin, std::size_t end) {
        for (std::size_t j = begin; j < end; ++j) {
            const NmodProduct& p = *group[j];
            std::memcpy(staging + a_at + a_offsets[j] * sizeof(limb_t), p.a, a_lengths[j] * sizeof(limb_t));
            std::memcpy(staging + b_at + b_offsets[j] * sizeof(limb_t), p.b, b_lengths[j] * sizeof(limb_t));
        }
    });
    std::byte* device = runtime.scratch(up.bytes());
    check(cudaMemcpyAsync(device, staging, upload_bytes, cudaMemcpyHostToDevice, stream), "uploading polynomials");

    const auto at = [&](std::size_t offset) { return reinterpret_cast<limb_t*>(device + offset); };
    const auto u64 = [&](std::size_t offset) { return reinterpret_cast<const std::uint64_t*>(device + offset); };
    const auto u32 = [&](std::size_t offset) { return reinterpret_cast<const std::uint32_t*>(device + offset); };
    const kernels::ConstPolyBatchView a{{at(a_at), a_total, k, 0}, u64(a_offsets_at), u32(a_lengths_at)};
    const kernels::ConstPolyBatchView b{{at(b_at), b_total, k, 0}, u64(b_offsets_at), u32(b_lengths_at)};
    const kernels::PolyBatchView residues{{at(residues_at), out_total, k, out_total}, u64(out_offsets_at), u32(out_lengths_at)};
    kernels::poly_mul(a, b, route.square, count, std::uint32_t(route.length), tables.view(), residues, stream);
    if (garner)
        kernels::crt_to_moduli(residues.values, garner->view(), reinterpret_cast<const kernels::Modulus*>(device + moduli_at),
                               at(radix_at), u64(out_offsets_at), u32(out_lengths_at), count, max_out, at(out_at), stream);
    check(cudaMemcpyAsync(staging, at(out_at), out_total * sizeof(limb_t), cudaMemcpyDeviceToHost, stream), "downloading products");
    runtime.synchronize("polynomial products");
    parallel_for(count, 64, [&](std::size_t begin, std::size_t end) {
        for (std::size_t j = begin; j < end; ++j)
            std::memcpy(group[j]->out, staging + out_offsets[j] * sizeof(limb_t), out_lengths[j] * sizeof(limb_t));
    });
}

}  // namespace

std::uint64_t nmod_transform_length(const NmodProduct& p)
{
    const std::uint64_t la = std::min(p.a_length, p.out_length), lb = std::min(p.b_length, p.out_length);
    if (la == 0 || lb == 0) return 0;
    return std::max<std::uint64_t>(kernels::kPolyNttMinLength, std::bit_ceil(la + lb - 1));
}

void nmod_products(std::span<const NmodProduct> products)
{
    std::map<Route, std::vector<const NmodProduct*>> groups;
    for (const NmodProduct& p : products) {
        if (p.out_length == 0) continue;
        if (nmod_transform_length(p) > kMaxPolyTransform)
            throw Error("nmod polynomial products: a transform of " + std::to_string(nmod_transform_length(p)) +
                        " words exceeds the GPU's " + std::to_string(kMaxPolyTransform));
        groups[route_of(p)].push_back(&p);
    }
    for (const auto& [route, group] : groups) run_group(group, route);
}

}  // namespace zgpu::gpu
