// An fmpz that frees itself, for temporaries of code that may throw.
#pragma once

#include <flint/fmpz.h>

namespace zgpu {

class FmpzTemp {
public:
    FmpzTemp() { fmpz_init(value_); }
    ~FmpzTemp() { fmpz_clear(value_); }
    FmpzTemp(const FmpzTemp&) = delete;
    FmpzTemp& operator=(const FmpzTemp&) = delete;
    fmpz* get() { return value_; }
    const fmpz* get() const { return value_; }

private:
    fmpz_t value_;
};

}  // namespace zgpu
