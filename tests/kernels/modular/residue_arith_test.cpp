// Elementwise residue arithmetic on the GPU (kernels/modular/residue_arith.hpp) against
// FLINT's _nmod_vec_* and nmod_mul, modulo every modulus of a set in one launch, with the
// output aliasing an input.
#include <random>

#include <flint/nmod_vec.h>
#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "kernels/modular/residue_arith.hpp"
#include "modular_reference.hpp"
#include "device_modular.hpp"

namespace zgpu::testing {
namespace {

enum class Op { add, sub, mul, neg, scalar_mul, scalar_addmul };

// residues[i][e] below moduli[i]: the edges 0, 1, n - 1 first, then random.
std::vector<std::vector<limb_t>> random_residues(const std::vector<limb_t>& moduli, std::size_t count, std::mt19937_64& rng)
{
    std::vector<std::vector<limb_t>> r(moduli.size(), std::vector<limb_t>(count));
    for (std::size_t i = 0; i < moduli.size(); ++i)
        for (std::size_t e = 0; e < count; ++e) r[i][e] = e == 0 ? 0 : e == 1 ? 1 % moduli[i] : e == 2 ? moduli[i] - 1 : rng() % moduli[i];
    return r;
}

std::vector<limb_t> expected_row(Op op, const std::vector<limb_t>& a, const std::vector<limb_t>& b, const std::vector<limb_t>& r, limb_t c, limb_t n)
{
    nmod_t mod;
    nmod_init(&mod, n);
    const slong len = slong(a.size());
    std::vector<ulong> out(r.begin(), r.end());
    switch (op) {
    case Op::add: _nmod_vec_add(out.data(), a.data(), b.data(), len, mod); break;
    case Op::sub: _nmod_vec_sub(out.data(), a.data(), b.data(), len, mod); break;
    case Op::mul:
        for (slong e = 0; e < len; ++e) out[e] = nmod_mul(a[e], b[e], mod);
        break;
    case Op::neg: _nmod_vec_neg(out.data(), a.data(), len, mod); break;
    case Op::scalar_mul: _nmod_vec_scalar_mul_nmod(out.data(), a.data(), len, c, mod); break;
    case Op::scalar_addmul: _nmod_vec_scalar_addmul_nmod(out.data(), a.data(), len, c, mod); break;
    }
    return std::vector<limb_t>(out.begin(), out.end());
}

void run(Op op, kernels::ResidueView a, kernels::ResidueView b, const limb_t* scalars, const kernels::ModularTablesView& t, kernels::ResidueView r)
{
    switch (op) {
    case Op::add: return kernels::residues_add(a, b, t, r, nullptr);
    case Op::sub: return kernels::residues_sub(a, b, t, r, nullptr);
    case Op::mul: return kernels::residues_mul(a, b, t, r, nullptr);
    case Op::neg: return kernels::residues_neg(a, t, r, nullptr);
    case Op::scalar_mul: return kernels::residues_scalar_mul(a, scalars, t, r, nullptr);
    case Op::scalar_addmul: return kernels::residues_scalar_addmul(a, scalars, t, r, nullptr);
    }
}

class ResidueArith : public ::testing::Test {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(Backend::gpu); }
};

// Each operation into a separate output, into a (r == a) and, for binary ones, into b.
TEST_F(ResidueArith, MatchesFlintWithAndWithoutAliasing)
{
    std::mt19937_64 rng(31);
    std::vector<ModuliSet> sets = small_moduli_sets();
    sets.push_back({"ntt primes 4096", kernels::ntt_primes(4096)});
    for (const ModuliSet& set : sets) {
        SCOPED_TRACE(set.name);
        const std::vector<limb_t>& moduli = set.moduli;
        const std::size_t count = moduli.size() > 100 ? 37 : 1029;
        const DeviceTables tables(kernels::make_modular_tables(moduli));
        const auto a = random_residues(moduli, count, rng), b = random_residues(moduli, count, rng), r0 = random_residues(moduli, count, rng);
        std::vector<limb_t> scalars(moduli.size());
        for (std::size_t i = 0; i < moduli.size(); ++i) scalars[i] = i % 3 == 0 ? moduli[i] - 1 : rng() % moduli[i];
        const DeviceArray<limb_t> device_scalars(scalars);
        for (const Op op : {Op::add, Op::sub, Op::mul, Op::neg, Op::scalar_mul, Op::scalar_addmul}) {
            const bool binary = op == Op::add || op == Op::sub || op == Op::mul;
            for (const int alias : {0, 1, 2}) {  // r separate, r == a, r == b
                if (alias == 2 && !binary) continue;
                const DeviceResidues da(a), db(b), dr(r0);
                const kernels::ResidueView out = alias == 0 ? dr.view() : alias == 1 ? da.view() : db.view();
                run(op, da.view(), db.view(), device_scalars.data(), tables.view(), out);
                const DeviceResidues& written = alias == 0 ? dr : alias == 1 ? da : db;
                const std::vector<limb_t> got = written.download();
                const auto& before = alias == 0 ? r0 : alias == 1 ? a : b;
                for (std::size_t i = 0; i < moduli.size(); ++i) {
                    const std::vector<limb_t> expected = expected_row(op, a[i], b[i], before[i], scalars[i], moduli[i]);
                    for (std::size_t e = 0; e < count; ++e)
                        ASSERT_EQ(got[i * written.stride() + e], expected[e])
                            << "op " << int(op) << ", alias " << alias << ", moduli[" << i << "] = " << moduli[i] << ", value " << e;
                    for (std::size_t e = count; e < written.stride(); ++e) ASSERT_EQ(got[i * written.stride() + e], 0xdeadbeefu) << "padding written";
                }
            }
        }
    }
}

}  // namespace
}  // namespace zgpu::testing
