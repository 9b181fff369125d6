// An fmpz, and a vector of them, that free themselves: temporaries of code that may throw.
#pragma once

#include <cstddef>
#include <vector>

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

// n fmpz, zeros at first.
class FmpzVecTemp {
public:
    explicit FmpzVecTemp(std::size_t n) : values_(n) { for (fmpz& v : values_) fmpz_init(&v); }
    ~FmpzVecTemp() { for (fmpz& v : values_) fmpz_clear(&v); }
    FmpzVecTemp(const FmpzVecTemp&) = delete;
    FmpzVecTemp& operator=(const FmpzVecTemp&) = delete;
    fmpz* data() { return values_.data(); }

private:
    std::vector<fmpz> values_;
};

}  // namespace zgpu
