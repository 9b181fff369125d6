// An fmpz_mat's entries as the FLINT faces, the plugin's gates and the MPI layer read them:
// whether they lie one row after another (and a row-major copy where not), their largest size
// in bits, and the bits of each row's squared norm (for Hadamard's bound), on all host threads.
#pragma once

#include <gmp.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include <flint/fmpz_mat.h>

#include "adapters/packing.hpp"
#include "base/parallel.hpp"
#include "plugin/flint/fmpz_array.hpp"
#include "plugin/flint/fmpz_mat_temp.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "zgpu/fmpz_adapter.hpp"

namespace zgpu {

// Whether the entries lie one row after another from entry (0, 0): FLINT's matrices, not its
// windows into wider ones.
inline bool entries_contiguous(const fmpz_mat_struct* m)
{
    for (slong i = 1; i < m->r; ++i)
        if (fmpz_mat_entry(m, i, 0) != fmpz_mat_entry(m, 0, 0) + i * m->c) return false;
    return true;
}

// |fmpz_mat_max_bits(m)|: on all host threads, the records' sizes first, so that entries of full
// limbs end the search early (max_bits); FLINT's own for windows.
inline std::uint64_t fmpz_mat_bits(const fmpz_mat_struct* m)
{
    if (m->r == 0 || m->c == 0) return 0;
    if (!entries_contiguous(m)) return std::uint64_t(std::labs(fmpz_mat_max_bits(m)));
    const fmpz* entries = fmpz_mat_entry(m, 0, 0);
    const std::size_t count = std::size_t(m->r) * std::size_t(m->c);
    return max_bits(entries, count, adapters::measure(adapters::FmpzReader(entries), count).largest);
}

// The operand's entries as one row-major array: the matrix's own, or a copy of a window's.
class RowMajor {
public:
    explicit RowMajor(const fmpz_mat_struct* m) : whole_(entries_contiguous(m)), copy_(whole_ ? 0 : m->r, whole_ ? 0 : m->c)
    {
        if (m->r == 0 || m->c == 0) return;
        if (!whole_) fmpz_mat_set(copy_.get(), m);
        entries_ = whole_ ? fmpz_mat_entry(m, 0, 0) : fmpz_mat_entry(copy_.get(), 0, 0);
    }
    const fmpz* entries() const { return entries_; }
    // Whether the entries are the matrix's own (it is whole, not a window).
    bool whole() const { return whole_; }

private:
    bool whole_;
    FmpzMatTemp copy_;
    const fmpz* entries_ = nullptr;
};

// The bits of each row's squared norm (0 for a zero row).
inline std::vector<std::uint64_t> row_squared_norm_bits(const fmpz_mat_struct* m)
{
    std::vector<std::uint64_t> bits(std::size_t(m->r));
    parallel_for(std::size_t(m->r), 16, [&](std::size_t begin, std::size_t end) {
        FmpzTemp norm;
        for (std::size_t i = begin; i < end; ++i) {
            fmpz_zero(norm.get());
            for (slong j = 0; j < m->c; ++j) fmpz_addmul(norm.get(), fmpz_mat_entry(m, slong(i), j), fmpz_mat_entry(m, slong(i), j));
            bits[i] = fmpz_bits(norm.get());
        }
    });
    return bits;
}

}  // namespace zgpu
