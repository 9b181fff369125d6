// FLINT arrays as the host dispatch reads them, shared by the FLINT-style entry points.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include <atomic>
#include <cstdlib>
#include <functional>

#include <flint/fmpz.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_vec.h>

#include "adapters/packing.hpp"
#include "base/parallel.hpp"

#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/error.hpp"

namespace zgpu {

// Elements of a FLINT array whose start is looked up at each access (see host_dispatch.hpp);
// entries from `length` on read as zero.
struct FmpzArray {
    const fmpz* const* start;
    std::size_t length;

    std::int64_t size(std::size_t i) const { return i < length ? adapters::FmpzReader(*start).size(i) : 0; }
    void copy(std::size_t i, limb_t* dst) const
    {
        if (i < length) adapters::FmpzReader(*start).copy(i, dst);
    }
    void prefetch(std::size_t i, std::size_t count) const { adapters::FmpzReader(*start).prefetch(i, std::min(count, length)); }
    const fmpz* at(std::size_t i, const fmpz* zero) const { return i < length ? *start + i : zero; }
};

// The most bits of values[0 .. n) in absolute value, on all host threads (from 4096 values):
// each value larger than a word is a record and limbs elsewhere in memory, so reading them is
// latency bound. Where no value has more than max_limbs limbs (0: not known), the first value of
// 64 max_limbs bits ends the search: entries of full limbs cost one chunk a thread.
inline std::uint64_t max_bits(const fmpz* values, std::size_t n, std::uint64_t max_limbs = 0)
{
    constexpr std::size_t kChunk = 1024;
    const std::uint64_t most_possible = max_limbs ? 64 * max_limbs : ~std::uint64_t(0);
    std::atomic<std::uint64_t> most{0};
    parallel_for(n, 4096, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end && most.load(std::memory_order_relaxed) < most_possible; i += kChunk) {
            const slong count = slong(std::min(kChunk, end - i));
            adapters::keep_better(most, std::uint64_t(std::labs(_fmpz_vec_max_bits(values + i, count))), std::greater<>());
        }
    });
    return most.load();
}

// A copy of one fmpz that frees itself: a scalar read once, before the output changes (it may
// be an entry of the output).
class FmpzCopy {
public:
    explicit FmpzCopy(const fmpz_t value) { fmpz_init_set(value_, value); }
    ~FmpzCopy() { fmpz_clear(value_); }
    FmpzCopy(const FmpzCopy&) = delete;
    FmpzCopy& operator=(const FmpzCopy&) = delete;
    const fmpz* get() const { return value_; }

private:
    fmpz_t value_;
};

// The checks FLINT leaves to its caller: a negative length, NULL arrays with a positive one.
inline void check_vec_arguments(const fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len, const char* name,
                                const char* first = "vec1", const char* second = "vec2")
{
    const std::string f = name;
    if (len < 0) throw Error(f + ": len is negative (" + std::to_string(len) + ")");
    if (len == 0) return;
    if (!res) throw Error(f + ": res is NULL with len = " + std::to_string(len));
    if (!vec1) throw Error(f + ": " + first + " is NULL with len = " + std::to_string(len));
    if (!vec2) throw Error(f + ": " + second + " is NULL with len = " + std::to_string(len));
}

// The checks of the fmpz_poly-by-scalar entry points (res = poly op x); returns poly's length.
inline std::size_t check_poly_arguments(const fmpz_poly_t res, const fmpz_poly_t poly, const fmpz_t x,
                                        const std::string& name)
{
    if (!res) throw Error(name + ": res is NULL");
    if (!poly) throw Error(name + ": poly is NULL");
    if (!x) throw Error(name + ": x is NULL");
    return std::size_t(poly->length);
}

// Where an fmpz_poly entry point writes n coefficients, as a resize hook that runs once every
// check has passed: fit_length, then res's coefficients. When res is an input, fit_length may
// move them; the readers (FmpzArray) look them up at each access. finish_poly sets the length
// and normalises.
inline auto poly_output(fmpz_poly_t res, std::size_t n)
{
    return [res, n] {
        fmpz_poly_fit_length(res, slong(n));
        return res->coeffs;
    };
}

inline void finish_poly(fmpz_poly_t res, std::size_t n)
{
    _fmpz_poly_set_length(res, slong(n));
    _fmpz_poly_normalise(res);
}

}  // namespace zgpu
