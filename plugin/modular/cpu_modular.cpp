#include "plugin/modular/cpu_modular.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include "base/parallel.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "zgpu/error.hpp"

namespace zgpu {
namespace {

// Elements from which a reduction or CRT pays for the host threads: each costs about k words
// of work and more.
std::size_t min_parallel(const PrimeSet::State& set) { return std::max<std::size_t>(2, 4096 / set.moduli.size()); }

}  // namespace

void cpu_multi_mod(const PrimeSet::State& set, std::size_t first, std::size_t last, const FmpzSource& value,
                   std::span<limb_t* const> residues)
{
    const std::size_t k = set.moduli.size();
    parallel_for(first, last, min_parallel(set), [&](std::size_t begin, std::size_t end) {
        CombTemp temp(set);
        FmpzTemp scratch;
        std::vector<limb_t> element(k);
        for (std::size_t e = begin; e < end; ++e) {
            fmpz_multi_mod_ui(element.data(), value(e, scratch.get()), set.comb(), temp.get());
            for (std::size_t i = 0; i < k; ++i) residues[i][e] = element[i];
        }
    });
}

void cpu_multi_crt(const PrimeSet::State& set, std::size_t first, std::size_t last,
                   std::span<const limb_t* const> residues, bool sign, const FmpzSink& sink)
{
    const std::size_t k = set.moduli.size();
    parallel_for(first, last, min_parallel(set), [&](std::size_t begin, std::size_t end) {
        CombTemp temp(set);
        FmpzTemp value;
        std::vector<limb_t> element(k);
        for (std::size_t e = begin; e < end; ++e) {
            for (std::size_t i = 0; i < k; ++i) element[i] = residues[i][e];
            fmpz_multi_CRT_ui(value.get(), element.data(), set.comb(), temp.get(), sign);
            sink(e, value.get());
        }
    });
}

void require_reduced(const PrimeSet::State& set, std::span<const limb_t* const> residues, std::size_t count,
                     const std::string& name, const char* argument)
{
    // Blocks of one modulus's residues; the first bad one by (modulus, element) is reported.
    constexpr std::size_t kBlock = 1 << 14;
    const std::size_t blocks = (count + kBlock - 1) / kBlock, k = set.moduli.size();
    std::atomic<std::size_t> first_bad = k * count;
    parallel_for(k * blocks, 4, [&](std::size_t begin, std::size_t end) {
        for (std::size_t b = begin; b < end; ++b) {
            const std::size_t i = b / blocks, from = (b % blocks) * kBlock, to = std::min(count, from + kBlock);
            const limb_t n = set.moduli[i];
            const limb_t* r = residues[i];
            const limb_t* bad = std::find_if(r + from, r + to, [n](limb_t x) { return x >= n; });
            if (bad == r + to) continue;
            std::size_t seen = first_bad.load(), index = i * count + std::size_t(bad - r);
            while (index < seen && !first_bad.compare_exchange_weak(seen, index)) {}
        }
    });
    const std::size_t bad = first_bad.load();
    if (bad == k * count) return;
    const std::size_t i = bad / count, e = bad % count;
    throw Error(name + ": " + argument + "[" + std::to_string(i) + "][" + std::to_string(e) + "] = " +
                std::to_string(residues[i][e]) + " is not below its modulus " + std::to_string(set.moduli[i]));
}

void crt_one(fmpz_t out, std::span<const limb_t> residues, const PrimeSet::State& set)
{
    if (residues.size() != set.moduli.size())
        throw Error("CRT: " + std::to_string(residues.size()) + " residues for " + std::to_string(set.moduli.size()) + " moduli");
    CombTemp temp(set);
    fmpz_multi_CRT_ui(out, residues.data(), set.comb(), temp.get(), 1);
}

}  // namespace zgpu
