// An fmpz_poly that frees itself, for temporaries of code that may throw.
#pragma once

#include <flint/fmpz_poly.h>

namespace zgpu {

class FmpzPolyTemp {
public:
    FmpzPolyTemp() { fmpz_poly_init(poly_); }
    ~FmpzPolyTemp() { fmpz_poly_clear(poly_); }
    FmpzPolyTemp(const FmpzPolyTemp&) = delete;
    FmpzPolyTemp& operator=(const FmpzPolyTemp&) = delete;
    fmpz_poly_struct* get() { return poly_; }

private:
    fmpz_poly_t poly_;
};

}  // namespace zgpu
