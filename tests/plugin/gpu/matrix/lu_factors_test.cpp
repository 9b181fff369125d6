// flint_form_of_lu without a device: FLINT's classical LU of a matrix is written in the device's
// layout (each panel's pivot columns first in its rows from the panel's first pivot row on, its
// multipliers in its first columns; panels of 16 columns in blocks of 256, a block ending at a
// panel short of pivots), every other entry garbage, and must come back as FLINT's packed form.
// Shapes of every rank, columns without a pivot inside panels and at their edges, pivots that
// run out of rows inside a panel.
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include <flint/nmod_mat.h>
#include <gtest/gtest.h>

#include "flint_random.hpp"
#include "flint_values.hpp"
#include "nmod_mat_random.hpp"
#include "plugin/gpu/matrix/lu_factors.hpp"

namespace zgpu::testing {
namespace {

constexpr std::size_t kPanel = 16, kBlock = 256;
constexpr limb_t kGarbage = 0xdeadbeef;

// The panels the blocked LU runs for these pivot columns (m rows, n columns).
std::vector<gpu::LuPanel> panels_of(const std::vector<std::size_t>& pivots, std::size_t m, std::size_t n)
{
    std::vector<gpu::LuPanel> panels;
    std::size_t k0 = 0, r0 = 0;
    while (k0 < n && r0 < m) {
        const std::size_t block_end = std::min(n, k0 + kBlock);
        bool full = true;
        while (k0 < block_end && r0 < m && full) {
            const std::size_t k1 = std::min(block_end, k0 + kPanel);
            const std::size_t q = std::size_t(std::count_if(pivots.begin(), pivots.end(), [&](std::size_t c) { return c >= k0 && c < k1; }));
            panels.push_back({r0, q, k0, k1});
            r0 += q;
            full = q == k1 - k0;
            k0 = k1;
        }
    }
    return panels;
}

// FLINT's packed LU (rank = pivots.size()) in the device's layout, garbage elsewhere.
std::vector<limb_t> device_form(const nmod_mat_t lu, const std::vector<std::size_t>& pivots, const std::vector<gpu::LuPanel>& panels)
{
    const std::size_t m = std::size_t(lu->r), n = std::size_t(lu->c), rank = pivots.size();
    std::vector<limb_t> device(m * n, kGarbage);
    std::vector<std::size_t> multiplier_column(rank);
    for (const gpu::LuPanel& p : panels)
        for (std::size_t t = p.r0; t < p.r0 + p.q; ++t) multiplier_column[t] = p.k0 + (t - p.r0);
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t t = 0; t < std::min(i, rank); ++t) device[i * n + multiplier_column[t]] = nmod_mat_entry(lu, i, t);
        if (i >= rank) continue;
        const gpu::LuPanel& own = *std::find_if(panels.begin(), panels.end(), [&](const gpu::LuPanel& p) { return i < p.r0 + p.q; });
        // The panel's columns in its order: its pivot columns, then the others.
        std::vector<std::size_t> order;
        for (std::size_t t = own.r0; t < own.r0 + own.q; ++t) order.push_back(pivots[t]);
        for (std::size_t j = own.k0; j < own.k1; ++j)
            if (std::find(order.begin(), order.end(), j) == order.end()) order.push_back(j);
        for (std::size_t u = i - own.r0; u < order.size(); ++u) device[i * n + own.k0 + u] = nmod_mat_entry(lu, i, order[u]);
        for (std::size_t j = own.k1; j < n; ++j) device[i * n + j] = nmod_mat_entry(lu, i, j);
    }
    return device;
}

void expect_round_trip(const nmod_mat_t a, const std::string& what)
{
    const std::size_t m = std::size_t(a->r), n = std::size_t(a->c);
    NmodMat lu(a->r, a->c, a->mod.n), out(a->r, a->c, a->mod.n);
    nmod_mat_set(lu.m, a);
    std::vector<slong> P(m);
    const std::size_t rank = std::size_t(nmod_mat_lu_classical(P.data(), lu.m, 0));
    std::vector<std::size_t> pivots;
    for (std::size_t i = 0, j = 0; i < rank; ++i, ++j) {
        while (nmod_mat_entry(lu.m, i, j) == 0) ++j;
        pivots.push_back(j);
    }
    const std::vector<gpu::LuPanel> panels = panels_of(pivots, m, n);
    const std::vector<limb_t> device = device_form(lu.m, pivots, panels);
    std::vector<limb_t*> rows(m);
    for (std::size_t i = 0; i < m; ++i) rows[i] = &nmod_mat_entry(out.m, slong(i), 0);
    for (std::size_t i = 0; i < m; ++i) std::fill(rows[i], rows[i] + n, kGarbage);
    gpu::flint_form_of_lu(device.data(), m, n, panels, pivots, rows);
    EXPECT_TRUE(nmod_mat_equal(out.m, lu.m)) << what << ", rank " << rank;
}

TEST(LuFactorsHost, DeviceLayoutBecomesFlintsPackedForm)
{
    flint_rand_t state;
    random_init(state);
    const ulong p = 65537;
    for (const auto& [m, n, r] : std::vector<std::tuple<slong, slong, slong>>{
             {1, 1, 1}, {5, 40, 5}, {40, 5, 5}, {33, 50, 20}, {50, 33, 33}, {300, 300, 300}, {300, 300, 250}, {20, 600, 20}, {600, 40, 30}}) {
        NmodMat a(m, n, p);
        if (r == std::min(m, n)) fill_uniform(a.m, state);
        else fill_rank_at_most(a.m, r, state);
        expect_round_trip(a.m, std::to_string(m) + " x " + std::to_string(n));
    }
    // Zero and repeated columns inside panels and at their edges.
    NmodMat a(60, 70, p);
    fill_uniform(a.m, state);
    for (const slong j : {0, 5, 15, 16, 17, 31, 32, 33, 34, 47, 69})
        for (slong i = 0; i < 60; ++i) nmod_mat_entry(a.m, i, j) = j % 2 ? nmod_mat_entry(a.m, i, j - 1) : 0;
    expect_round_trip(a.m, "columns without a pivot");
    random_clear(state);
}

}  // namespace
}  // namespace zgpu::testing
