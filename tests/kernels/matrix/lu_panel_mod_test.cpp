// One panel of the LU mod p (kernels/matrix/lu_panel_mod.hpp): its top part with the rows below
// it against the block over all rows (a tile limit of 0 takes that path), entry for entry and
// in the state: random matrices, p = 2 (swaps inside the top rows), one row below the top part
// and many, a column whose top rows are zero (the top part fails and the block redoes the
// panel), the rank's skipped column and the determinant's stop, an update that ends before the
// last column; lu_substitute_mod against a substitution on the host.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../modular/device_modular.hpp"
#include "backend_param.hpp"
#include "kernels/matrix/lu_panel_mod.hpp"

namespace zgpu::testing {
namespace {

const limb_t kPrime62 = (limb_t(1) << 62) - 57;

class LuPanelMod : public ::testing::Test {
protected:
    void SetUp() override { ZGPU_SKIP_WITHOUT(Backend::gpu); }
};

// An m x n matrix of random entries mod p.
std::vector<limb_t> random_matrix(std::size_t m, std::size_t n, limb_t p, std::uint64_t seed)
{
    std::mt19937_64 random(seed);
    std::vector<limb_t> a(m * n);
    for (limb_t& x : a) x = random() % p;
    return a;
}

struct PanelResult {
    std::vector<limb_t> matrix;
    kernels::LuState state;
    bool top_failed;
};

// One panel of columns k0 .. k0 + width - 1 from row r0, as the LU runs it.
PanelResult panel(const std::vector<limb_t>& host, std::size_t m, std::size_t n, std::size_t r0, std::size_t k0, std::size_t width,
                  limb_t p, bool stop, std::size_t tile_rows_limit, std::size_t update_end)
{
    kernels::LuState state;
    state.p = kernels::make_modulus(p);
    state.rank = r0;
    DeviceArray<limb_t> a(host);
    DeviceArray<kernels::LuState> s(std::vector<kernels::LuState>{state});
    DeviceArray<kernels::LuPanelTop> top(std::vector<kernels::LuPanelTop>(1));
    kernels::lu_panel_mod({a.data(), m, n, n, 0, 1}, k0, width, stop, m - r0, tile_rows_limit, update_end, s.data(), top.data(), nullptr);
    return {a.download(), s.download()[0], top.download()[0].failed != 0};
}

// The top part's path and the whole panel's give the same matrix and state.
void expect_same_panel(const std::vector<limb_t>& a, std::size_t m, std::size_t n, std::size_t r0, std::size_t k0, limb_t p, bool stop,
                       std::size_t update_end, bool top_fails, const std::string& what)
{
    ASSERT_GT(m - r0, kernels::kLuTopRows) << what;
    const std::size_t width = std::min(kernels::kLuPanel, n - k0);
    const PanelResult top = panel(a, m, n, r0, k0, width, p, stop, kernels::lu_panel_prepare(), update_end);
    const PanelResult whole = panel(a, m, n, r0, k0, width, p, stop, 0, update_end);
    EXPECT_EQ(top.top_failed, top_fails) << what;
    EXPECT_EQ(top.state.rank, whole.state.rank) << what;
    EXPECT_EQ(top.state.pivots, whole.state.pivots) << what;
    EXPECT_EQ(top.state.det, whole.state.det) << what;
    EXPECT_EQ(top.state.stopped, whole.state.stopped) << what;
    for (std::size_t e = 0; e < m * n; ++e)
        ASSERT_EQ(top.matrix[e], whole.matrix[e]) << what << ": entry (" << e / n << ", " << e % n << ")";
}

TEST_F(LuPanelMod, TopPartAndRowsBelowMatchTheWholePanel)
{
    const std::size_t n = 40;
    for (const std::size_t m : {kernels::kLuTopRows + 1, std::size_t(300), std::size_t(1000)}) {
        expect_same_panel(random_matrix(m, n, kPrime62, m), m, n, 0, 0, kPrime62, true, n, false, "first panel, " + std::to_string(m) + " rows");
        expect_same_panel(random_matrix(m + 16, n, kPrime62, m + 1), m + 16, n, 16, 16, kPrime62, true, n, false,
                          "second panel, " + std::to_string(m) + " rows from it");
        expect_same_panel(random_matrix(m, n, kPrime62, m + 2), m, n, 0, 32, kPrime62, false, n, false, "last columns, rank");
    }
    // Modulo 2 about half the top rows' entries are zero: pivots need swaps.
    expect_same_panel(random_matrix(300, n, 2, 7), 300, n, 0, 0, 2, true, n, false, "p = 2");
    // The forward substitution only up to column 24; the columns after it are only swapped.
    expect_same_panel(random_matrix(300, n, 2, 8), 300, n, 0, 0, 2, true, 24, false, "update to column 24");
}

TEST_F(LuPanelMod, TopPartsWithoutAPivotLeaveThePanelToTheBlock)
{
    const std::size_t m = 300, n = 40;
    // Column 3 is zero in the top rows (and stays so: the pivot rows are top rows), not below.
    std::vector<limb_t> a = random_matrix(m, n, kPrime62, 9);
    for (std::size_t i = 0; i < kernels::kLuTopRows; ++i) a[i * n + 3] = 0;
    expect_same_panel(a, m, n, 0, 0, kPrime62, true, n, true, "column 3 below the top rows, det");
    expect_same_panel(a, m, n, 0, 0, kPrime62, false, n, true, "column 3 below the top rows, rank");
    // Column 5 is zero in every row: the rank skips it, the determinant stops there.
    for (std::size_t i = 0; i < m; ++i) a[i * n + 5] = 0;
    expect_same_panel(a, m, n, 0, 0, kPrime62, false, n, true, "column 5 zero, rank");
    const PanelResult rank = panel(a, m, n, 0, 0, 16, kPrime62, false, kernels::lu_panel_prepare(), n);
    EXPECT_EQ(rank.state.pivots, 15u);
    expect_same_panel(a, m, n, 0, 0, kPrime62, true, n, true, "column 5 zero, det");
    const PanelResult det = panel(a, m, n, 0, 0, 16, kPrime62, true, kernels::lu_panel_prepare(), n);
    EXPECT_EQ(det.state.stopped, 1u);
    EXPECT_EQ(det.state.det, 0u);
}

TEST_F(LuPanelMod, SubstitutionMatchesTheHost)
{
    // Rows r0 .. r0 + q - 1 lose their multipliers (columns k0 ..) times the rows above them in
    // the panel, in columns [begin, end) only; a stopped elimination changes nothing.
    const std::size_t m = 40, n = 60, r0 = 3, k0 = 2, begin = 20, end = 50;
    for (const std::size_t q : {std::size_t(1), std::size_t(5), kernels::kLuPanel})
        for (const std::uint32_t stopped : {0u, 1u}) {
            const std::vector<limb_t> before = random_matrix(m, n, kPrime62, q + stopped);
            std::vector<limb_t> expected = before;
            const kernels::Modulus p = kernels::make_modulus(kPrime62);
            for (std::size_t t = 1; t < q && !stopped; ++t)
                for (std::size_t j = begin; j < end; ++j)
                    for (std::size_t s = 0; s < t; ++s) {
                        limb_t& x = expected[(r0 + t) * n + j];
                        x = p.sub(x, p.mul(expected[(r0 + t) * n + k0 + s], expected[(r0 + s) * n + j]));
                    }
            kernels::LuState state;
            state.p = p;
            state.stopped = stopped;
            DeviceArray<limb_t> a(before);
            DeviceArray<kernels::LuState> s(std::vector<kernels::LuState>{state});
            kernels::lu_substitute_mod({a.data(), m, n, n, 0, 1}, r0, q, k0, begin, end, s.data(), nullptr);
            const std::vector<limb_t> after = a.download();
            for (std::size_t e = 0; e < m * n; ++e)
                ASSERT_EQ(after[e], expected[e]) << "entry (" << e / n << ", " << e % n << "), q = " << q << ", stopped " << stopped;
        }
}

}  // namespace
}  // namespace zgpu::testing
