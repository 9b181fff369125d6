// The NTT's twiddle tables as the kernels read them: for each of the NTT's primes
// (ntt_field.hpp), forward and inverse, in device memory. ntt_twiddles.hpp fills them.
#pragma once

#include <cstdint>

#include "kernels/ntt/ntt_field.hpp"

namespace zgpu::kernels {

// Device tables of twiddle factors for each NTT prime, each of kNttMaxLength entries; entry
// M/2 + j is w_M^j (forward) or w_M^-j (inverse) for the M-th root of unity w_M of
// root_of_unity, M = 2, 4, ..., kNttMaxLength. ntt_twiddles.hpp fills them on the host.
struct NttTables {
    const Twiddle* forward[kNttPrimeCount];
    const Twiddle* inverse[kNttPrimeCount];
};

}  // namespace zgpu::kernels
