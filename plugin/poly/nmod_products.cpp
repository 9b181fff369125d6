#include "plugin/poly/nmod_products.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <vector>

#include "base/parallel.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/poly/flint_threads.hpp"
#include "plugin/poly/poly_choice.hpp"

namespace zgpu::poly {
namespace {

// Products split over the host threads pay for waking them from about this much work.
constexpr double kParallelFromSeconds = 50e-6;

// One result polynomial a product, with its product's modulus, freed at the end.
class Results {
public:
    explicit Results(std::span<const PolyProduct> products) : polys_(products.size())
    {
        for (std::size_t i = 0; i < products.size(); ++i) nmod_poly_init_mod(&polys_[i], products[i].a->mod);
    }
    ~Results()
    {
        for (nmod_poly_struct& p : polys_) nmod_poly_clear(&p);
    }
    Results(const Results&) = delete;
    Results& operator=(const Results&) = delete;

    nmod_poly_struct* operator[](std::size_t i) { return &polys_[i]; }

private:
    std::vector<nmod_poly_struct> polys_;
};

// FLINT's own product: the CPU backend, and the products the GPU does not take.
void flint_product(nmod_poly_struct* res, const PolyProduct& p)
{
    if (p.trunc < 0) ::nmod_poly_mul(res, p.a, p.b);
    else ::nmod_poly_mullow(res, p.a, p.b, p.trunc);
}

// The coefficients of p that a product mod x^cut reads: the first min(length, cut), without
// the zeros on top.
std::size_t used_length(const nmod_poly_struct& p, std::size_t cut)
{
    std::size_t length = std::min(std::size_t(p.length), cut);
    while (length > 0 && p.coeffs[length - 1] == 0) --length;
    return length;
}

// The product as the GPU takes it, its output not yet given; out_length 0 for a zero product.
// a == b keeps the same pointer and length, which the GPU squares.
gpu::NmodProduct plan_of(const PolyProduct& p)
{
    const std::size_t cut = p.trunc < 0 ? std::numeric_limits<std::size_t>::max() : std::size_t(p.trunc);
    gpu::NmodProduct plan{p.a->coeffs, used_length(*p.a, cut), p.b->coeffs, used_length(*p.b, cut), p.a->mod.n, nullptr, 0};
    if (plan.a_length && plan.b_length) plan.out_length = std::min(plan.a_length + plan.b_length - 1, cut);
    return plan;
}

PolyShape shape_of(const gpu::NmodProduct& plan, std::uint64_t transform_length)
{
    const std::uint64_t bits = std::uint64_t(std::bit_width(plan.n - 1));
    return {plan.a_length, plan.b_length, plan.out_length, bits, bits, transform_length,
            nmod_primes_estimate(plan.n, transform_length)};
}

// One call's products: their plans, which of them the GPU takes, and the results.
class NmodCall {
public:
    explicit NmodCall(std::span<const PolyProduct> products) : products_(products), results_(products)
    {
        for (const PolyProduct& p : products) plans_.push_back(plan_of(p));
    }

    // The GPU's products: nonzero, their transform within its limit.
    void select_for_gpu(const NmodGpu& gpu)
    {
        for (std::size_t i = 0; i < plans_.size(); ++i) {
            if (!plans_[i].out_length) continue;
            const std::uint64_t length = gpu.transform_length(plans_[i]);
            if (length > gpu::kMaxPolyTransform) continue;
            on_gpu_.push_back(i);
            gpu_shapes_.push_back(shape_of(plans_[i], length));
        }
    }

    bool gpu_pays() const { return gpu_pays_for_nmod_products(gpu_shapes_, host_threads()); }

    Backend run(Backend backend, const NmodGpu& gpu, const std::function<void()>& on_cpu)
    {
        if (on_gpu_.empty()) backend = Backend::cpu;  // FLINT computes every product
        const auto gpu_path = [&] {
            on_the_gpu(gpu);
            return Backend::gpu;
        };
        run_on(backend, gpu_path, [&] {
            if (on_cpu) return on_cpu();
            flint_products(nonzero_except({}));
        });
        if (backend == Backend::cpu && on_cpu) return backend;
        for (std::size_t i = 0; i < products_.size(); ++i) nmod_poly_swap(products_[i].res, results_[i]);
        return backend;
    }

private:
    void on_the_gpu(const NmodGpu& gpu)
    {
        std::vector<gpu::NmodProduct> batch;
        for (const std::size_t i : on_gpu_) {
            nmod_poly_fit_length(results_[i], slong(plans_[i].out_length));
            batch.push_back(plans_[i]);
            batch.back().out = results_[i]->coeffs;
        }
        gpu.multiply(batch);
        for (const std::size_t i : on_gpu_) {
            _nmod_poly_set_length(results_[i], slong(plans_[i].out_length));
            _nmod_poly_normalise(results_[i]);
        }
        flint_products(nonzero_except(on_gpu_));
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
        double seconds = 0;
        for (const std::size_t i : which)
            seconds += flint_nmod_seconds(shape_of(plans_[i], transform_length_estimate(plans_[i].a_length, plans_[i].b_length)));
        const std::size_t min_parallel = seconds < kParallelFromSeconds ? which.size() + 1 : 2;
        parallel_for(which.size(), min_parallel, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) flint_product(results_[which[k]], products_[which[k]]);
        });
    }

    std::span<const PolyProduct> products_;
    std::vector<gpu::NmodProduct> plans_;
    std::vector<std::size_t> on_gpu_;
    std::vector<PolyShape> gpu_shapes_;
    Results results_;
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
