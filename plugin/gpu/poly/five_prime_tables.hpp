// The twiddle tables of the five 29-bit primes (kernels/poly/poly_mul_mod_n.hpp) on a runtime's
// device: built on the host once, kept for the rest of the process.
#pragma once

#include "kernels/poly/poly_mul_mod_n.hpp"
#include "plugin/gpu/runtime.hpp"

namespace zgpu::gpu {

// The caller holds the runtime's lease.
const kernels::FivePrimeTablesView& five_prime_tables(Runtime& runtime);

}  // namespace zgpu::gpu
