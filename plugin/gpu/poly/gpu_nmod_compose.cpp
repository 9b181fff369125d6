// Compositions mod f of nmod polynomials on the GPU (poly_backend.hpp), by Brent and Kung's
// blocks as FLINT computes them: C = B A, then each group of C's rows evaluated at h. FLINT
// evaluates a group by Horner's rule or by rectangular splitting, one product mod f after
// another; here the group's value sum_i C_i h^i mod f is one batch of products C_i h^i, their
// sum and one remainder, with the powers of h by doubling (a batch a round). The value mod f is
// the same, so the result is FLINT's coefficient for coefficient.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>

#include "kernels/poly/nmod_poly_steps.hpp"
#include "plugin/gpu/matrix/product_mod.hpp"
#include "plugin/gpu/phase_times.hpp"
#include "plugin/gpu/poly/mod_f_batch.hpp"
#include "plugin/gpu/poly_backend.hpp"
#include "zgpu/error.hpp"

namespace zgpu::gpu {
namespace {

constexpr std::size_t kBatchBytes = std::size_t(1) << 28;

// CUDA's limit on a grid's y dimension, which the batched steps walk (nmod_poly_steps.hpp).
constexpr std::size_t kMaxBatch = 65535;

// The largest batch: whole groups where they fit kBatchBytes and a launch, at least one group.
std::size_t max_batch_for(std::size_t m, std::size_t group, std::size_t products)
{
    const std::size_t fits = std::min(kMaxBatch, std::max<std::size_t>(1, kBatchBytes / (kNmodComposeWordsOfMPerProduct * m * sizeof(limb_t))));
    return std::min(products, std::max(group, fits / group * group));
}

}  // namespace

namespace {

// A composition's arrays: the uploaded B (rows x inner), the rows of A where they are the
// caller's, 1 and g, and the offsets (i mod group) m of the powers of h; the device's own C, the
// powers of h, the products, their sums and the results.
struct ComposeArrays {
    std::size_t b = 0, a = 0, one = 0, g = 0, power_offsets = 0;
    std::size_t c = 0, powers = 0, products = 0, sums = 0, results = 0;
};

class Composition {
public:
    // groups of `group` rows; B of rows = groups x group by inner; A of inner rows (uploaded
    // where a_uploaded, else the powers of g).
    Composition(std::size_t m, limb_t n, std::size_t inner, std::size_t group, std::size_t groups, bool a_uploaded)
        : m_(m), inner_(inner), group_(group), groups_(groups), plan_(m, n, m, m, max_batch_for(m, group, group * groups)),
          call_(plan_)
    {
        const std::size_t word = sizeof(limb_t), rows = group * groups;
        UploadLayout& layout = call_.layout;
        for (std::size_t t = 0; t < plan_.max_batch; ++t) power_offsets_.push_back((t % group) * m);
        at_.power_offsets = layout.add(power_offsets_);
        at_.b = layout.reserve(rows * inner * word);
        at_.one = layout.reserve(m * word);
        if (a_uploaded) at_.a = layout.reserve(inner * m * word);
        else at_.g = layout.reserve(m * word);
        call_.end_uploads();
        if (!a_uploaded) at_.a = layout.reserve(inner * m * word);
        at_.c = layout.reserve(rows * m * word);
        at_.powers = layout.reserve(std::max<std::size_t>(group, 2) * m * word);  // h in row 1
        at_.products = layout.reserve(plan_.max_batch * plan_.full_stride() * word);
        at_.sums = layout.reserve(plan_.max_batch / group * plan_.full_stride() * word);
        at_.results = layout.reserve(groups * m * word);
    }

    const ComposeArrays& at() const { return at_; }

    // Runs the composition: stage(staging) fills the uploads (B, A or g; 1 is set here); the
    // powers of h come from h_of(A) (two rows of A, multiplied mod f into the powers' row 1),
    // and `a_from_g` builds A from g first. The results' groups x m words land in `results`.
    template <class Stage, class H>
    void run(const limb_t* f, const limb_t* finv, std::size_t finv_length, bool a_from_g, const Stage& stage, const H& h_rows,
             limb_t* results, const char* what)
    {
        const Clock::time_point start = Clock::now();
        call_.run(f, finv, finv_length, [&](const ModFBatch& batch, std::byte* staging, std::byte* device, Runtime& runtime) {
            const cudaStream_t stream = runtime.stream();
            const auto at = [&](std::size_t offset) { return reinterpret_cast<limb_t*>(device + offset); };
            limb_t* one = reinterpret_cast<limb_t*>(staging + at_.one);
            std::fill_n(one, m_, limb_t(0));
            one[0] = 1;
            stage(staging);
            enum Phase { kUpload, kMatrix, kPowers, kProducts, kDownload };
            PhaseTimes times(5);
            times.begin(kUpload, stream);
            call_.upload(device, staging, stream);
            times.end(kUpload, stream);
            times.begin(kMatrix, stream);
            if (a_from_g) powers(batch, at(at_.g), inner_, at(at_.one), at(at_.a), stream);
            const std::size_t rows = group_ * groups_;
            const kernels::Modulus* modulus = reinterpret_cast<const kernels::Modulus*>(device + plan_.moduli_at);
            mat_mul_mod(runtime, kernels::ConstMatricesView{at(at_.b), rows, inner_, inner_, 0, 1},
                        kernels::ConstMatricesView{at(at_.a), inner_, m_, m_, 0, 1}, modulus,
                        unsigned(std::bit_width(plan_.n)), kernels::MatricesView{at(at_.c), rows, m_, m_, 0, 1});
            times.end(kMatrix, stream);
            times.begin(kPowers, stream);
            // h into the powers' row 1, then its powers.
            const auto [first, second] = h_rows;
            limb_t* h = at(at_.powers) + m_;
            batch.mulmod({at(at_.a) + first * m_}, {at(at_.a) + second * m_}, 1, h, m_);
            powers(batch, h, group_, at(at_.one), at(at_.powers), stream);
            times.end(kPowers, stream);
            times.begin(kProducts, stream);
            evaluate(batch, at(at_.c), at(at_.powers), reinterpret_cast<const std::uint64_t*>(device + at_.power_offsets),
                     at(at_.products), at(at_.sums), at(at_.results), stream);
            times.end(kProducts, stream);
            times.begin(kDownload, stream);
            // The results come back through the staging memory, which the uploads (B alone has
            // more than groups x m words) have drained by then, in the stream's order.
            const std::size_t bytes = groups_ * m_ * sizeof(limb_t);
            check(cudaMemcpyAsync(staging, at(at_.results), bytes, cudaMemcpyDeviceToHost, stream), "downloading compositions mod f");
            times.end(kDownload, stream);
            runtime.synchronize(what);
            if (times.on())
                std::fprintf(stderr,
                             "zgpu: %zu nmod_poly compositions mod f of degree %zu (%zu x %zu blocks, %zu rows a group): upload %.2f ms, "
                             "matrix %.2f ms, powers %.2f ms, products %.2f ms, download %.2f ms, total %.2f ms\n",
                             groups_, m_, group_ * groups_, inner_, group_, times.milliseconds(kUpload),
                             times.milliseconds(kMatrix), times.milliseconds(kPowers), times.milliseconds(kProducts),
                             times.milliseconds(kDownload), milliseconds(Clock::now() - start));
            std::copy_n(reinterpret_cast<const limb_t*>(staging), groups_ * m_, results);
        });
    }

private:
    // out_i = x^i mod f for i < count (rows of m): 1 and x (where out's row 1 is not x already),
    // then from the powers up to x^t known, x^(t + j) = x^t x^j for j = 1 .. t, a batch a round.
    void powers(const ModFBatch& batch, const limb_t* x, std::size_t count, const limb_t* one, limb_t* out, cudaStream_t stream) const
    {
        const std::size_t bytes = m_ * sizeof(limb_t);
        check(cudaMemcpyAsync(out, one, bytes, cudaMemcpyDeviceToDevice, stream), "setting a power mod f");
        if (count < 2) return;
        if (x != out + m_) check(cudaMemcpyAsync(out + m_, x, bytes, cudaMemcpyDeviceToDevice, stream), "setting a power mod f");
        for (std::size_t known = 2; known < count;) {
            const std::size_t top = known - 1, todo = std::min(top, count - known);
            for (std::size_t done = 0; done < todo; done += plan_.max_batch) {
                const std::size_t now = std::min(plan_.max_batch, todo - done);
                batch.mulmod({out + (1 + done) * m_, batch.remainder_offsets()}, {out + top * m_}, now, out + (known + done) * m_, m_);
            }
            known += todo;
        }
    }

    // results_g = sum_i c_(g group + i) powers_i mod f, whole groups a batch.
    void evaluate(const ModFBatch& batch, const limb_t* c, const limb_t* powers, const std::uint64_t* power_offsets, limb_t* products,
                  limb_t* sums, limb_t* results, cudaStream_t stream) const
    {
        const std::size_t groups_at_once = plan_.max_batch / group_, full = plan_.full_stride();
        for (std::size_t g = 0; g < groups_; g += groups_at_once) {
            const std::size_t now = std::min(groups_at_once, groups_ - g);
            batch.multiply({c + g * group_ * m_, batch.remainder_offsets()}, {powers, power_offsets}, now * group_, products);
            kernels::sum_groups_mod({products, full}, full, group_, now, plan_.n, {sums, full}, stream);
            batch.reduce(sums, now, results + g * m_, m_);
        }
    }

    std::size_t m_, inner_, group_, groups_;
    ModFBatchPlan plan_;
    ModFCall call_;
    std::vector<std::uint64_t> power_offsets_;
    ComposeArrays at_;
};


}  // namespace

void nmod_poly_compose_mod_precomp(limb_t* res, const limb_t* poly1, std::size_t len1, const limb_t* const* a_rows, std::size_t inner,
                                   std::pair<std::size_t, std::size_t> h_rows, const limb_t* f, std::size_t lenf, const limb_t* finv,
                                   std::size_t finv_length, limb_t n)
{
    check_modulus_degree("nmod_poly_compose_mod_precomp", lenf);
    const std::size_t m = lenf - 1;
    if (inner < 2 || len1 > inner * inner || h_rows.first >= inner || h_rows.second >= inner)
        throw Error("nmod_poly_compose_mod_precomp: " + std::to_string(len1) + " coefficients do not fit blocks of " + std::to_string(inner));
    Composition composition(m, n, inner, inner, 1, true);
    const ComposeArrays& at = composition.at();
    composition.run(
        f, finv, finv_length, false,
        [&](std::byte* staging) {
            limb_t* b = reinterpret_cast<limb_t*>(staging + at.b);
            std::fill_n(b, inner * inner, limb_t(0));
            std::copy_n(poly1, len1, b);
            limb_t* a = reinterpret_cast<limb_t*>(staging + at.a);
            for (std::size_t i = 0; i < inner; ++i) std::copy_n(a_rows[i], m, a + i * m);
        },
        h_rows, res, "a composition mod f");
}

void nmod_poly_compose_mod_vec(limb_t* const* res, const limb_t* const* polys, const std::size_t* lengths, std::size_t count,
                               std::size_t inner, std::size_t group, const limb_t* g, std::size_t glen, const limb_t* f, std::size_t lenf,
                               const limb_t* finv, std::size_t finv_length, limb_t n)
{
    check_modulus_degree("nmod_poly_compose_mod_vec", lenf);
    const std::size_t m = lenf - 1;
    if (count == 0 || glen > m || inner < 2 || group < 1) throw Error("nmod_poly_compose_mod_vec: needs polynomials, blocks, and g reduced mod f");
    for (std::size_t j = 0; j < count; ++j)
        if (lengths[j] > group * inner) throw Error("nmod_poly_compose_mod_vec: a polynomial longer than its blocks");
    Composition composition(m, n, inner, group, count, false);
    const ComposeArrays& at = composition.at();
    std::vector<limb_t> results(count * m);
    composition.run(
        f, finv, finv_length, true,
        [&](std::byte* staging) {
            limb_t* b = reinterpret_cast<limb_t*>(staging + at.b);
            std::fill_n(b, count * group * inner, limb_t(0));
            for (std::size_t j = 0; j < count; ++j) std::copy_n(polys[j], lengths[j], b + j * group * inner);
            limb_t* staged_g = reinterpret_cast<limb_t*>(staging + at.g);
            std::fill_n(staged_g, m, limb_t(0));
            std::copy_n(g, glen, staged_g);
        },
        std::pair<std::size_t, std::size_t>{inner - 1, 1}, results.data(), "compositions mod f");
    for (std::size_t j = 0; j < count; ++j) std::copy_n(results.data() + j * m, m, res[j]);
}

}  // namespace zgpu::gpu
