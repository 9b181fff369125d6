// An fmpz_mat that frees itself, for temporaries of code that may throw.
#pragma once

#include <flint/fmpz_mat.h>

namespace zgpu {

class FmpzMatTemp {
public:
    FmpzMatTemp(slong rows, slong cols) { fmpz_mat_init(m_, rows, cols); }
    ~FmpzMatTemp() { fmpz_mat_clear(m_); }
    FmpzMatTemp(const FmpzMatTemp&) = delete;
    FmpzMatTemp& operator=(const FmpzMatTemp&) = delete;
    fmpz_mat_struct* get() { return m_; }

private:
    fmpz_mat_t m_;
};

}  // namespace zgpu
