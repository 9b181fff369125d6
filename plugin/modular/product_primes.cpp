#include "plugin/modular/product_primes.hpp"

#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "plugin/modular/fmpz_temp.hpp"

namespace zgpu {
namespace {

// The last `kept` sets made, each with what finds it again, the most recently used last: a few
// sizes in turn (a modular algorithm's products grow as it goes, then start again) each find
// theirs.
template <class Key>
class KeptSets {
public:
    explicit KeptSets(std::size_t kept) : kept_count_(kept) {}

    template <class Matches, class Make>
    PrimeSet get(Matches matches, Make make)
    {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            for (std::size_t i = 0; i < kept_.size(); ++i) {
                if (!matches(kept_[i].first)) continue;
                const std::pair<Key, PrimeSet> found = kept_[i];
                kept_.erase(kept_.begin() + std::ptrdiff_t(i));
                kept_.push_back(found);
                return found.second;
            }
        }
        // Built unlocked: other threads' calls need not wait (two may build the same set).
        std::pair<Key, PrimeSet> made = make();
        const std::lock_guard<std::mutex> lock(mutex_);
        if (kept_.size() == kept_count_) kept_.erase(kept_.begin());
        kept_.push_back(made);
        return made.second;
    }

private:
    std::size_t kept_count_;
    std::mutex mutex_;
    std::vector<std::pair<Key, PrimeSet>> kept_;
};

// for_bits(b, true) is the set for every lo <= b <= hi.
struct BitsRange {
    std::uint64_t lo, hi;
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
BitsRange bits_range(const PrimeSet& set)
{
    const std::uint64_t hi = represented_bits(set.product());
    if (set.size() == 1) return {0, hi};
    FmpzTemp fewer;
    fmpz_divexact_ui(fewer.get(), set.product(), set.moduli().back());
    return {represented_bits(fewer.get()) + 1, hi};
}

// The generated primes first .. first + count - 1.
struct PrimesRange {
    std::size_t first, count;
};

KeptSets<BitsRange> by_bits(4);
// A rank's share and the groups a determinant splits it into (prime_groups.hpp): tens of
// thousands of primes of a large matrix in groups of a few hundred or thousand.
KeptSets<PrimesRange> by_range(16);

}  // namespace

PrimeSet product_primes(std::uint64_t bits)
{
    return by_bits.get([&](const BitsRange& r) { return r.lo <= bits && bits <= r.hi; },
                       [&] {
                           PrimeSet set = PrimeSet::for_bits(bits, true);
                           return std::pair(bits_range(set), set);
                       });
}

PrimeSet kept_primes_range(std::size_t first, std::size_t count)
{
    return by_range.get([&](const PrimesRange& r) { return r.first == first && r.count == count; },
                        [&] { return std::pair(PrimesRange{first, count}, PrimeSet::generated_range(first, count)); });
}

}  // namespace zgpu
