#include "plugin/gpu/poly/mod_f_batch.hpp"

#include <algorithm>
#include <string>

#include "kernels/poly/nmod_poly_steps.hpp"
#include "kernels/poly/poly_mul.hpp"
#include "plugin/gpu/poly/garner.hpp"
#include "plugin/gpu/poly/gpu_ntt_tables.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {

void check_modulus_degree(const char* function, std::size_t lenf)
{
    if (lenf < 3) throw Error(std::string(function) + ": needs a modulus of degree 2 or more");
    if (kernels::poly_ntt_length(lenf - 1, lenf - 1) > kMaxPolyTransform)
        throw Error(std::string(function) + ": a modulus of degree " + std::to_string(lenf - 1) + " needs a transform longer than the GPU takes");
}

ModFBatchPlan::ModFBatchPlan(std::size_t m, limb_t n, std::size_t la, std::size_t lb, std::size_t max_batch)
    : m(m), la(la), lb(lb), max_batch(max_batch), n(n)
{
    const std::span<const limb_t> primes = three_product_primes();
    const std::vector<limb_t> one_radix = garner_radix(primes, n);
    moduli.assign(max_batch, kernels::make_modulus(n));
    for (std::size_t j = 0; j < max_batch; ++j) radix.insert(radix.end(), one_radix.begin(), one_radix.end());
    const std::size_t full = la + lb - 1;
    const std::size_t length[3] = {full, full - m, m};
    const std::size_t stride[3] = {full_stride(), quotient_stride(), m};
    for (int k = 0; k < 3; ++k) {
        lengths[k].assign(max_batch, std::uint32_t(length[k]));
        for (std::size_t j = 0; j < max_batch; ++j) offsets[k].push_back(j * stride[k]);
    }
}

void ModFBatchPlan::add_constants(UploadLayout& layout)
{
    moduli_at = layout.add(moduli);
    radix_at = layout.add(radix);
    for (int k = 0; k < 3; ++k) lengths_at[k] = layout.add(lengths[k]), offsets_at[k] = layout.add(offsets[k]);
}

void ModFBatchPlan::add_work(UploadLayout& layout)
{
    const std::size_t word = sizeof(limb_t);
    residues_at = layout.reserve(three_product_primes().size() * max_batch * full_stride() * word);
    full_at = layout.reserve(max_batch * full_stride() * word);
    top_at = layout.reserve(max_batch * quotient_stride() * word);
    quotient_reversed_at = layout.reserve(max_batch * quotient_stride() * word);
    quotient_at = layout.reserve(max_batch * quotient_stride() * word);
    low_at = layout.reserve(max_batch * m * word);
}

ModFBatch::ModFBatch(Runtime& runtime, const ModFBatchPlan& plan, std::byte* device, const limb_t* f, const limb_t* finv)
    : plan_(plan), device_(device), f_(f), finv_(finv), stream_(runtime.stream()), primes_(three_product_primes()),
      lengths_{plan.la + plan.lb - 1, plan.la + plan.lb - 1 - plan.m, plan.m},
      ntt_(poly_ntt_tables(runtime, primes_, kernels::poly_ntt_length(plan.m, plan.m))),
      garner_(garner_tables(runtime, primes_).view())
{
}

const std::uint64_t* ModFBatch::offsets(Product which) const
{
    return reinterpret_cast<const std::uint64_t*>(device_ + plan_.offsets_at[which]);
}

void ModFBatch::product(ModFOperands a, std::size_t la, ModFOperands b, std::size_t lb, std::size_t count, Product which,
                        limb_t* out) const
{
    const std::size_t out_length = lengths_[which], primes = primes_.size();
    const std::size_t prime_stride = plan_.max_batch * plan_.full_stride();
    const kernels::ResidueView r{words(plan_.residues_at), out_length, primes, prime_stride};
    const bool square = a.words == b.words && a.offsets == b.offsets && la == lb;
    kernels::poly_mul({{a.words, la, primes, 0}, a.offsets}, {{b.words, lb, primes, 0}, b.offsets}, square, count,
                      kernels::poly_ntt_length(std::min(la, out_length), std::min(lb, out_length)), ntt_, {r, offsets(which)},
                      stream_);
    const auto* lengths = reinterpret_cast<const std::uint32_t*>(device_ + plan_.lengths_at[which]);
    kernels::crt_to_moduli(r, garner_, reinterpret_cast<const kernels::Modulus*>(device_ + plan_.moduli_at), words(plan_.radix_at),
                           offsets(which), lengths, count, std::uint32_t(out_length), out, stream_);
}

void ModFBatch::multiply(ModFOperands a, ModFOperands b, std::size_t count, limb_t* out) const
{
    product(a, plan_.la, b, plan_.lb, count, kFull, out);
}

void ModFBatch::reduce(const limb_t* x, std::size_t count, limb_t* out, std::size_t out_stride) const
{
    const std::size_t m = plan_.m, quotient = lengths_[kQuotient], full = plan_.full_stride(), q = plan_.quotient_stride();
    limb_t* top = words(plan_.top_at);
    limb_t* quotient_reversed = words(plan_.quotient_reversed_at);
    limb_t* quotients = words(plan_.quotient_at);
    limb_t* low = words(plan_.low_at);
    // The quotient's reverse: the top of x, reversed, times f's inverse.
    kernels::reverse_words({x + m, full}, quotient, count, {top, q}, stream_);
    product({top, offsets(kQuotient)}, quotient, {finv_}, quotient, count, kQuotient, quotient_reversed);
    kernels::reverse_words({quotient_reversed, q}, quotient, count, {quotients, q}, stream_);
    product({quotients, offsets(kQuotient)}, quotient, {f_}, m + 1, count, kLow, low);
    kernels::sub_mod_words({x, full}, {low, m}, m, count, plan_.n, {out, out_stride}, stream_);
}

void ModFBatch::mulmod(ModFOperands a, ModFOperands b, std::size_t count, limb_t* out, std::size_t out_stride) const
{
    limb_t* full = words(plan_.full_at);
    multiply(a, b, count, full);
    reduce(full, count, out, out_stride);
}

}  // namespace zgpu::gpu
