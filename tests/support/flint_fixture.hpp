// What the FLINT-facing tests share: self-freeing vectors, and a fixture with a random state
// that runs each test with ZGPU_BACKEND set to its parameter.
#pragma once

#include <flint/fmpz_vec.h>

#include "backend_env.hpp"
#include "flint_random.hpp"

namespace zgpu::testing {

// A FLINT vector that frees itself.
struct Vec {
    explicit Vec(slong n) : n(n), v(_fmpz_vec_init(n)) {}
    ~Vec() { _fmpz_vec_clear(v, n); }
    Vec(const Vec&) = delete;
    Vec& operator=(const Vec&) = delete;
    slong n;
    fmpz* v;
};

class OnBackendWithFlint : public OnBackend {
protected:
    void SetUp() override
    {
        OnBackend::SetUp();
        random_init(state_);
    }
    void TearDown() override
    {
        random_clear(state_);
        OnBackend::TearDown();
    }

    void random_vec(Vec& x, flint_bitcnt_t bits) { _fmpz_vec_randtest(x.v, state_, x.n, bits); }

    flint_rand_t state_;
};

}  // namespace zgpu::testing
