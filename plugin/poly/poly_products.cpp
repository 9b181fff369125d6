#include "plugin/poly/poly_products.hpp"

#include <algorithm>
#include <vector>

#include "adapters/packing.hpp"
#include "base/parallel.hpp"
#include "plugin/host_ops/dispatch.hpp"
#include "plugin/poly/ks_pair.hpp"
#include "plugin/poly/poly_choice.hpp"
#include "zgpu/backend.hpp"

namespace zgpu::poly {
namespace {

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

// FLINT's own product: the CPU backend, and the GPU path's products too long for a batch.
void flint_product(nmod_poly_struct* res, const PolyProduct& p)
{
    if (p.trunc < 0) ::nmod_poly_mul(res, p.a, p.b);
    else ::nmod_poly_mullow(res, p.a, p.b, p.trunc);
}

// The pair's product from its digits: the KS integer `limbs[0 .. size)`.
void unpack_product(nmod_poly_struct* res, const KsPair& p, const limb_t* limbs, std::size_t size)
{
    nmod_poly_fit_length(res, slong(p.out_len));
    ks_unpack(limbs, size, p.bits, p.mod, res->coeffs, p.out_len);
    _nmod_poly_set_length(res, slong(p.out_len));
    _nmod_poly_normalise(res);
}

}  // namespace

void nmod_poly_products(std::span<const PolyProduct> products, const IntegerProducts& multiply)
{
    const std::size_t count = products.size();
    std::vector<KsPair> pairs(count);
    bool squares = true;
    for (std::size_t i = 0; i < count; ++i) {
        pairs[i] = ks_pair(*products[i].a, *products[i].b, products[i].trunc);
        squares = squares && products[i].a == products[i].b;
    }
    Results results(products);
    const std::vector<std::size_t> on_gpu_path = gpu_pairs(pairs);
    std::vector<std::size_t> flint_only;
    for (std::size_t i = 0, next = 0; i < count; ++i) {
        if (next < on_gpu_path.size() && on_gpu_path[next] == i) ++next;
        else if (pairs[i].out_len) flint_only.push_back(i);
    }
    const auto flint_products = [&](const std::vector<std::size_t>& which, std::size_t first, std::size_t last,
                                    std::size_t min_parallel) {
        parallel_for(first, last, min_parallel, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) flint_product(results[which[k]], products[which[k]]);
        });
    };

    if (on_gpu_path.empty()) {
        set_last_backend(Backend::cpu);  // FLINT computes every product
    } else {
        const std::size_t n = on_gpu_path.size();
        const HostOperand pa = host_operand(KsReader{pairs.data(), on_gpu_path.data(), false}, n, "a");
        const HostOperand pb = squares ? HostOperand{} : host_operand(KsReader{pairs.data(), on_gpu_path.data(), true}, n, "b");
        const HostOperand& second = squares ? pa : pb;  // the same operand twice: the kernels square
        multiply(
            pa, n, second, n,
            [&](std::size_t first, std::size_t last) { flint_products(on_gpu_path, first, last, host_min_parallel(pa, second)); },
            [&](std::size_t first, ConstBatchView r) {
                parallel_for(r.count, adapters::min_parallel_elements(r.stride), [&](std::size_t begin, std::size_t end) {
                    for (std::size_t k = begin; k < end; ++k) {
                        const std::size_t i = on_gpu_path[first + k];
                        unpack_product(results[i], pairs[i], r.element(k), std::size_t(r.sizes[k]));
                    }
                });
            });
    }
    flint_products(flint_only, 0, flint_only.size(), 1);

    for (std::size_t i = 0; i < count; ++i) nmod_poly_swap(products[i].res, results[i]);
}

}  // namespace zgpu::poly
