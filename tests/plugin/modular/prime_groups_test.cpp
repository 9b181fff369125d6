// Residues a group of primes at a time (plugin/modular/prime_groups.hpp): the same residues in the
// same order as one call on the whole set, no group above the most asked for, every prime once
// reported done; groups of the generated primes kept between calls; the caller's moduli grouped too.
#include <vector>

#include <gtest/gtest.h>

#include "plugin/modular/prime_groups.hpp"
#include "plugin/modular/prime_set_state.hpp"

namespace zgpu {
namespace {

// A stand-in for the GPU: each prime's residue is the prime itself minus 1; the groups' states
// are recorded.
struct Recorder {
    std::vector<std::size_t> sizes;
    std::vector<const PrimeSet::State*> states;
    std::vector<limb_t> operator()(const PrimeSet& group, const PrimesDone& done)
    {
        sizes.push_back(group.size());
        states.push_back(&group.state());
        std::vector<limb_t> r;
        for (const limb_t p : group.moduli()) r.push_back(p - 1);
        if (done) done(group.size());
        return r;
    }
};

void expect_grouped(const PrimeSet& set, std::size_t most, Recorder& recorder)
{
    std::uint64_t done = 0;
    const std::vector<limb_t> r = residues_in_groups(
        set, most, [&](const PrimeSet& g, const PrimesDone& d) { return recorder(g, d); }, [&](std::uint64_t n) { done += n; });
    ASSERT_EQ(r.size(), set.size());
    for (std::size_t i = 0; i < r.size(); ++i) ASSERT_EQ(r[i], set.moduli()[i] - 1) << i;
    EXPECT_EQ(done, set.size());
    for (const std::size_t s : recorder.sizes) EXPECT_LE(s, most);
}

TEST(PrimeGroups, SameResiduesAsOneCallAndKeptForGeneratedRanges)
{
    const PrimeSet set = PrimeSet::generated_range(5, 103);
    for (const std::size_t most : {std::size_t(1), std::size_t(7), std::size_t(10), std::size_t(102), std::size_t(103), std::size_t(500)}) {
        Recorder first, second;
        expect_grouped(set, most, first);
        expect_grouped(set, most, second);
        EXPECT_EQ(first.sizes.size(), (set.size() + most - 1) / most) << most;
        if (most >= set.size()) {
            EXPECT_EQ(first.states[0], &set.state()) << "the set itself, not regrouped";
        } else if (first.sizes.size() <= 16) {  // the last 16 ranges are kept, not all
            EXPECT_EQ(first.states, second.states) << "the groups kept, " << most << " at a time";
        }
    }
}

TEST(PrimeGroups, CallersModuliAreGroupedToo)
{
    const std::vector<limb_t> moduli = {101, 103, 107, 109, 113, 127, 131};
    Recorder recorder;
    expect_grouped(PrimeSet(moduli), 3, recorder);
    EXPECT_EQ(recorder.sizes, (std::vector<std::size_t>{3, 3, 1}));
}

}  // namespace
}  // namespace zgpu
