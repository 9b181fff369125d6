// What the tests of operations on residue batches share: host arrays of residues (one a
// modulus), random ones, and their trips to and from a ResidueBatch on the test's backend.
#pragma once

#include <vector>

#include <flint/ulong_extras.h>

#include "flint_fixture.hpp"
#include "zgpu/residue_batch.hpp"

namespace zgpu::testing {

using Residues = std::vector<std::vector<ulong>>;  // one array a modulus

class OnBackendWithResidues : public OnBackendWithFlint {
protected:
    Residues random_residues(const PrimeSet& set, std::size_t count)
    {
        Residues r(set.size(), std::vector<ulong>(count));
        for (std::size_t i = 0; i < set.size(); ++i)
            for (ulong& x : r[i]) x = n_randint(state_, set.moduli()[i]);
        return r;
    }

    ResidueBatch upload(const PrimeSet& set, const Residues& r)
    {
        std::vector<const ulong*> p;
        for (const auto& v : r) p.push_back(v.data());
        return ResidueBatch::upload(set, p.data(), r.empty() ? 0 : r[0].size(), GetParam());
    }

    static Residues download(const ResidueBatch& b)
    {
        Residues r(b.prime_set().size(), std::vector<ulong>(b.count()));
        std::vector<ulong*> p;
        for (auto& v : r) p.push_back(v.data());
        b.download(p.data());
        return r;
    }
};

}  // namespace zgpu::testing
