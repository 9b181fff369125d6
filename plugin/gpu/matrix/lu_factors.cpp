#include "plugin/gpu/matrix/lu_factors.hpp"

#include <algorithm>
#include <vector>

#include "base/parallel.hpp"

namespace zgpu::gpu {

void flint_form_of_lu(const limb_t* device_form, std::size_t m, std::size_t n, std::span<const LuPanel> panels,
                      std::span<const std::size_t> pivot_columns, std::span<limb_t* const> out_rows)
{
    const std::size_t rank = pivot_columns.size();
    // Pivot t's panel and the column of its multipliers; each panel column's place in its panel's order.
    std::vector<std::size_t> panel_of(rank), multiplier_column(rank), place(n);
    std::vector<bool> pivot_column(n);
    for (std::size_t index = 0; index < panels.size(); ++index) {
        const LuPanel& panel = panels[index];
        for (std::size_t t = panel.r0; t < panel.r0 + panel.q; ++t) {
            panel_of[t] = index;
            multiplier_column[t] = panel.k0 + (t - panel.r0);
            place[pivot_columns[t]] = t - panel.r0;
            pivot_column[pivot_columns[t]] = true;
        }
        std::size_t next = panel.q;
        for (std::size_t j = panel.k0; j < panel.k1; ++j)
            if (!pivot_column[j]) place[j] = next++;
    }
    // Each row reads only its own row: U's entries from its pivot's column on, the multipliers
    // of the pivots above it.
    parallel_for(m, std::max<std::size_t>(2, (std::size_t(1) << 18) / std::max<std::size_t>(n, 1)), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const limb_t* from = device_form + i * n;
            limb_t* to = out_rows[i];
            std::fill(to, to + n, limb_t(0));
            for (std::size_t t = 0; t < std::min(i, rank); ++t) to[t] = from[multiplier_column[t]];
            if (i >= rank) continue;
            const LuPanel& panel = panels[panel_of[i]];
            for (std::size_t j = pivot_columns[i]; j < n; ++j) to[j] = j < panel.k1 ? from[panel.k0 + place[j]] : from[j];
        }
    });
}

}  // namespace zgpu::gpu
