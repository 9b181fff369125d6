#include "plugin/poly/nmod_products.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <flint/ulong_extras.h>

#include "base/parallel.hpp"
#include "base/settings.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/host_ops/flint_threads.hpp"
#include "plugin/host_ops/progress.hpp"
#include "plugin/poly/poly_choice.hpp"
#include "plugin/poly/product_pieces.hpp"
#include "zgpu/error.hpp"

namespace zgpu::poly {
namespace {

using Clock = std::chrono::steady_clock;

double milliseconds(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// Products split over the host threads pay for waking them from about this much work.
constexpr double kParallelFromSeconds = 50e-6;

// Where each product's result goes: its res, or a temporary swapped in at the end where res is
// an operand of some product of the call (all operands are read before any res changes).
class Results {
public:
    explicit Results(std::span<const PolyProduct> products) : targets_(products.size())
    {
        if (!any_operand_among_results(products)) {
            for (std::size_t i = 0; i < products.size(); ++i) targets_[i] = products[i].res;
            return;
        }
        std::vector<const nmod_poly_struct*> operands;
        for (const PolyProduct& p : products) operands.insert(operands.end(), {p.a, p.b});
        std::sort(operands.begin(), operands.end());
        std::vector<std::size_t> aliased;
        for (std::size_t i = 0; i < products.size(); ++i) {
            if (std::binary_search(operands.begin(), operands.end(), products[i].res)) aliased.push_back(i);
            else targets_[i] = products[i].res;
        }
        temporaries_.resize(aliased.size());
        for (std::size_t t = 0; t < aliased.size(); ++t) {
            nmod_poly_init_mod(&temporaries_[t], products[aliased[t]].a->mod);
            targets_[aliased[t]] = &temporaries_[t];
            swaps_.emplace_back(products[aliased[t]].res, &temporaries_[t]);
        }
    }
    ~Results()
    {
        for (nmod_poly_struct& p : temporaries_) nmod_poly_clear(&p);
    }
    Results(const Results&) = delete;
    Results& operator=(const Results&) = delete;

    nmod_poly_struct* operator[](std::size_t i) const { return targets_[i]; }
    // Whether some product is written in place (then a failure may leave it half written).
    bool in_place() const { return swaps_.size() < targets_.size(); }
    // The temporaries into their res.
    void swap_in()
    {
        for (const auto& [res, temporary] : swaps_) nmod_poly_swap(res, temporary);
    }

private:
    // False where no operand lies between the lowest and the highest res (the usual batch: res,
    // a and b in separate arrays), without sorting; true where some operand may be a res.
    static bool any_operand_among_results(std::span<const PolyProduct> products)
    {
        const auto [low, high] = std::minmax_element(products.begin(), products.end(), [](const PolyProduct& x, const PolyProduct& y) {
            return std::less<>()(x.res, y.res);
        });
        const auto among = [&](const nmod_poly_struct* p) { return !std::less<>()(p, low->res) && !std::less<>()(high->res, p); };
        return std::any_of(products.begin(), products.end(), [&](const PolyProduct& p) { return among(p.a) || among(p.b); });
    }

    std::vector<nmod_poly_struct*> targets_;
    std::vector<nmod_poly_struct> temporaries_;
    std::vector<std::pair<nmod_poly_struct*, nmod_poly_struct*>> swaps_;
};

// FLINT's own product: the CPU backend, and the products the GPU does not take.
void flint_product(nmod_poly_struct* res, const PolyProduct& p)
{
    if (p.trunc < 0) ::nmod_poly_mul(res, p.a, p.b);
    else ::nmod_poly_mullow(res, p.a, p.b, p.trunc);
}

// The coefficients of p that a product mod x^cut reads: the first min(length, cut), without
// the zeros on top. A whole polynomial has none (FLINT keeps them normalised): its coefficients
// are not read here, which for a batch would be a cache miss an operand.
std::size_t without_top_zeros(const ulong* x, std::size_t length)
{
    while (length > 0 && x[length - 1] == 0) --length;
    return length;
}

std::size_t used_length(const nmod_poly_struct& p, std::size_t cut)
{
    return std::size_t(p.length) <= cut ? std::size_t(p.length) : without_top_zeros(p.coeffs, cut);
}

// Products of a batch are planned and their results sized on all host threads from this many:
// each touches the polynomials' structs and arrays, a few cache misses a product.
constexpr std::size_t kParallelFromProducts = 512;
// Pieces' results are added into their product's on all host threads from this many words.
constexpr std::size_t kParallelFromWords = std::size_t(1) << 16;

// The product as the GPU takes it, its output not yet given; out_length 0 for a zero product.
// a == b keeps the same pointer and length, which the GPU squares.
gpu::NmodProduct plan_of(const PolyProduct& p)
{
    const std::size_t cut = p.trunc < 0 ? std::numeric_limits<std::size_t>::max() : std::size_t(p.trunc);
    gpu::NmodProduct plan{p.a->coeffs, used_length(*p.a, cut), p.b->coeffs, used_length(*p.b, cut), p.a->mod.n, nullptr, 0};
    if (plan.a_length && plan.b_length) plan.out_length = std::min(plan.a_length + plan.b_length - 1, cut);
    return plan;
}

// A piece of a product too long for one transform, as the GPU takes it: its operands without
// the zeros on top; out_length 0 where either is then empty.
gpu::NmodProduct piece_plan(const gpu::NmodProduct& whole, const ProductPiece& piece)
{
    gpu::NmodProduct plan{whole.a + piece.a_first, without_top_zeros(whole.a + piece.a_first, piece.a_length),
                          whole.b + piece.b_first, without_top_zeros(whole.b + piece.b_first, piece.b_length), whole.n, nullptr, 0};
    if (plan.a_length && plan.b_length) plan.out_length = std::min(plan.a_length + plan.b_length - 1, piece.out_length);
    return plan;
}

// A call of the GPU takes pieces up to this many result words (host memory for their results
// until they are added up: 256 MiB, two pieces of the longest transform).
constexpr std::size_t kPiecesCallWords = std::size_t(1) << 25;

PolyShape shape_of(const gpu::NmodProduct& plan, std::uint64_t transform_length)
{
    return nmod_product_shape(plan.a_length, plan.b_length, plan.out_length, plan.n, transform_length);
}

// One call's products: their plans, which of them the GPU takes, and the results.
class NmodCall {
public:
    explicit NmodCall(std::span<const PolyProduct> products) : products_(products), plans_(products.size()), results_(products)
    {
        parallel_for(products.size(), kParallelFromProducts, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) plans_[i] = plan_of(products[i]);
        });
    }

    // The GPU's products: the nonzero ones, whole where their transform is within its limit,
    // else in pieces.
    void select_for_gpu(const NmodGpu& gpu)
    {
        for (std::size_t i = 0; i < plans_.size(); ++i) {
            if (!plans_[i].out_length) continue;
            const std::uint64_t length = gpu.transform_length(plans_[i]);
            if (length <= gpu.max_transform) {
                on_gpu_.push_back(i);
                gpu_shapes_.push_back(shape_of(plans_[i], length));
                continue;
            }
            in_pieces_.push_back({i, {}});
            for (const ProductPiece& piece : product_pieces(plans_[i].a_length, plans_[i].b_length, plans_[i].out_length, gpu.max_transform)) {
                const gpu::NmodProduct plan = piece_plan(plans_[i], piece);
                if (!plan.out_length) continue;
                in_pieces_.back().pieces.push_back({plan, piece.out_first()});
                gpu_shapes_.push_back(shape_of(plan, gpu.transform_length(plan)));
            }
        }
    }

    bool gpu_pays() const { return gpu_pays_for_nmod_products(gpu_shapes_, host_threads()); }

    Backend run(Backend backend, const NmodGpu& gpu, const std::function<void()>& on_cpu)
    {
        if (on_gpu_.empty() && in_pieces_.empty()) backend = Backend::cpu;  // FLINT computes every product
        const std::vector<std::size_t> nonzero = nonzero_except({});
        // The cost model's estimate only where progress is asked for: it visits every product.
        Progress progress(progress_title(), progress_asked() ? flint_seconds(nonzero) : 0, nonzero.size() > 1 ? nonzero.size() : 0);
        progress_ = &progress;
        Backend ran = backend;
        const Clock::time_point started = Clock::now();
        run_on(
            backend, [&] { return ran = on_the_gpu(gpu, on_cpu); }, [&] { on_the_cpu(on_cpu); });
        progress.ran_on(ran);
        if (ran == Backend::cpu && on_cpu) return ran;
        const Clock::time_point ran_at = Clock::now();
        for (std::size_t i = 0; i < products_.size(); ++i)
            if (!plans_[i].out_length) nmod_poly_zero(results_[i]);
        results_.swap_in();
        if (settings::timing())
            std::fprintf(stderr, "zgpu: %zu nmod polynomial products on the %s: planning %.2f ms, products %.2f ms, finishing %.2f ms\n",
                         products_.size(), backend_name(ran).data(), milliseconds(started - made_), milliseconds(ran_at - started),
                         milliseconds(Clock::now() - ran_at));
        return ran;
    }

private:
    std::string progress_title() const
    {
        if (plans_.size() != 1) return "nmod polynomial products, " + std::to_string(plans_.size()) + " of them";
        return "nmod polynomial product, " + std::to_string(plans_[0].a_length) + " x " + std::to_string(plans_[0].b_length) +
               " coefficients mod " + std::to_string(plans_[0].n);
    }

    // FLINT's time on one thread for these products, by the cost model.
    double flint_seconds(const std::vector<std::size_t>& which) const
    {
        double seconds = 0;
        for (const std::size_t i : which)
            seconds += flint_nmod_seconds(shape_of(plans_[i], transform_length_estimate(plans_[i].a_length, plans_[i].b_length)));
        return seconds;
    }

    void on_the_cpu(const std::function<void()>& on_cpu)
    {
        if (on_cpu) return on_cpu();
        flint_products(nonzero_except({}));
    }

    Backend on_the_gpu(const NmodGpu& gpu, const std::function<void()>& on_cpu)
    {
        const KeepWorkersAwake awake;  // for the sizing, each chunk's gathering and scattering, and the lengths
        std::vector<gpu::NmodProduct> batch(on_gpu_.size());
        parallel_for(on_gpu_.size(), kParallelFromProducts, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) {
                const std::size_t i = on_gpu_[k];
                nmod_poly_fit_length(results_[i], slong(plans_[i].out_length));
                batch[k] = plans_[i];
                batch[k].out = results_[i]->coeffs;
            }
        });
        try {
            gpu.multiply(batch);
            for (const PiecedProduct& p : in_pieces_) multiply_in_pieces(gpu, p);
        } catch (const Error& e) {
            // Results written in place may be half written: the host computes them all. Otherwise
            // nothing is written and the error stands.
            if (!results_.in_place()) throw;
            std::fprintf(stderr, "zgpu: the GPU failed during polynomial products (%s); the host computes them\n", e.what());
            on_the_cpu(on_cpu);
            return Backend::cpu;
        }
        parallel_for(on_gpu_.size(), kParallelFromProducts, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) {
                const std::size_t i = on_gpu_[k];
                _nmod_poly_set_length(results_[i], slong(plans_[i].out_length));
                _nmod_poly_normalise(results_[i]);
            }
        });
        progress_->advance(on_gpu_.size());
        std::vector<std::size_t> taken = on_gpu_;
        for (const PiecedProduct& p : in_pieces_) taken.push_back(p.index);
        std::sort(taken.begin(), taken.end());
        flint_products(nonzero_except(taken));
        return Backend::gpu;
    }

    // A product too long for one transform (plan_of's operands cut into product_pieces): its
    // pieces' products, a few a call, added into its result.
    struct Piece {
        gpu::NmodProduct plan;
        std::size_t out_first;
    };
    struct PiecedProduct {
        std::size_t index;
        std::vector<Piece> pieces;
    };
    void multiply_in_pieces(const NmodGpu& gpu, const PiecedProduct& product)
    {
        nmod_poly_struct* res = results_[product.index];
        const std::size_t length = plans_[product.index].out_length;
        nmod_poly_fit_length(res, slong(length));
        parallel_for(length, kParallelFromWords, [&](std::size_t begin, std::size_t end) {
            std::fill(res->coeffs + begin, res->coeffs + end, ulong(0));
        });
        // The pieces' results, written whole by the GPU: not zeroed first (128 MiB a piece of the
        // longest transform, tens of ms on one thread).
        struct Output {
            std::unique_ptr<limb_t[]> words;
            std::size_t length;
            std::size_t first;
        };
        std::vector<gpu::NmodProduct> call;
        std::vector<Output> outputs;
        const auto run_call = [&] {
            gpu.multiply(call);
            for (const Output& out : outputs) {
                ulong* target = res->coeffs + out.first;
                parallel_for(out.length, kParallelFromWords, [&](std::size_t begin, std::size_t end) {
                    for (std::size_t e = begin; e < end; ++e) target[e] = n_addmod(target[e], out.words[e], res->mod.n);
                });
            }
            call.clear(), outputs.clear();
        };
        std::size_t words = 0;
        for (const Piece& piece : product.pieces) {
            if (words + piece.plan.out_length > kPiecesCallWords && !call.empty()) run_call(), words = 0;
            outputs.push_back({std::make_unique_for_overwrite<limb_t[]>(piece.plan.out_length), piece.plan.out_length, piece.out_first});
            call.push_back(piece.plan);
            call.back().out = outputs.back().words.get();
            words += piece.plan.out_length;
        }
        if (!call.empty()) run_call();
        _nmod_poly_set_length(res, slong(length));
        _nmod_poly_normalise(res);
        progress_->advance(1);
    }

    // The nonzero products but those of `taken` (ascending).
    std::vector<std::size_t> nonzero_except(std::span<const std::size_t> taken) const
    {
        std::vector<std::size_t> rest;
        for (std::size_t i = 0, next = 0; i < plans_.size(); ++i) {
            if (next < taken.size() && taken[next] == i) ++next;
            else if (plans_[i].out_length) rest.push_back(i);
        }
        return rest;
    }

    // One product on FLINT's threads, several split over the host threads.
    void flint_products(const std::vector<std::size_t>& which)
    {
        if (which.size() == 1) {
            const FlintThreads threads(host_threads());
            return flint_product(results_[which[0]], products_[which[0]]);
        }
        const std::size_t min_parallel = flint_seconds(which) < kParallelFromSeconds ? which.size() + 1 : 2;
        parallel_for(which.size(), min_parallel, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) {
                flint_product(results_[which[k]], products_[which[k]]);
                progress_->advance(1);
            }
        });
    }

    Clock::time_point made_ = Clock::now();  // for ZGPU_TIMING: planning starts
    std::span<const PolyProduct> products_;
    std::vector<gpu::NmodProduct> plans_;
    std::vector<std::size_t> on_gpu_;
    std::vector<PiecedProduct> in_pieces_;
    std::vector<PolyShape> gpu_shapes_;
    Results results_;
    Progress* progress_ = nullptr;  // the running call's
};

}  // namespace

Backend nmod_poly_products(std::span<const PolyProduct> products, const std::function<void()>& on_cpu)
{
    NmodCall call(products);
    const NmodGpu gpu;
    // The GPU backend is asked nothing where it cannot be chosen (without CUDA it has only
    // stand-ins, which throw).
    const bool gpu_possible = requested_backend() != Backend::cpu;
    if (gpu_possible) call.select_for_gpu(gpu);
    return call.run(gpu_possible ? choose(call.gpu_pays()) : Backend::cpu, gpu, on_cpu);
}

Backend nmod_poly_products_on(Backend backend, std::span<const PolyProduct> products, const NmodGpu& gpu,
                              const std::function<void()>& on_cpu)
{
    NmodCall call(products);
    if (backend == Backend::gpu) call.select_for_gpu(gpu);
    return call.run(backend, gpu, on_cpu);
}

}  // namespace zgpu::poly
