#include "plugin/modular/product_primes.hpp"

#include <mutex>
#include <vector>

#include "plugin/modular/fmpz_temp.hpp"

namespace zgpu {
namespace {

// Sets kept: a few sizes of coefficients in turn (a modular algorithm's products grow as it
// goes, then start again) each find theirs.
constexpr std::size_t kKept = 4;

// for_bits(b, true) is `set` for every lo <= b <= hi.
struct Kept {
    std::uint64_t lo, hi;
    PrimeSet set;
};

// The most bits whose values P represents signed: the largest b with 2^(b + 1) - 2 < P, that is
// 2^(b + 1) <= P + 1.
std::uint64_t represented_bits(const fmpz* product)
{
    FmpzTemp above;
    fmpz_add_ui(above.get(), product, 1);
    return fmpz_bits(above.get()) - 2;
}

// The bits for which for_bits takes exactly this set: those its primes but the last (the
// largest are taken first) do not represent, up to those it does.
Kept kept(PrimeSet set)
{
    const std::uint64_t hi = represented_bits(set.product());
    if (set.size() == 1) return {0, hi, std::move(set)};
    FmpzTemp fewer;
    fmpz_divexact_ui(fewer.get(), set.product(), set.moduli().back());
    return {represented_bits(fewer.get()) + 1, hi, std::move(set)};
}

std::mutex mutex;
std::vector<Kept> sets;  // the most recently used last

}  // namespace

PrimeSet product_primes(std::uint64_t bits)
{
    {
        const std::lock_guard<std::mutex> lock(mutex);
        for (std::size_t i = 0; i < sets.size(); ++i) {
            if (sets[i].lo > bits || bits > sets[i].hi) continue;
            const Kept found = sets[i];
            sets.erase(sets.begin() + std::ptrdiff_t(i));
            sets.push_back(found);
            return found.set;
        }
    }
    // Built unlocked: other threads' products need not wait (two may build the same set).
    Kept made = kept(PrimeSet::for_bits(bits, true));
    const std::lock_guard<std::mutex> lock(mutex);
    if (sets.size() == kKept) sets.erase(sets.begin());
    sets.push_back(made);
    return made.set;
}

}  // namespace zgpu
