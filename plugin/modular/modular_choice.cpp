#include "plugin/modular/modular_choice.hpp"

#include <algorithm>

namespace zgpu {
namespace {

// Fitted to bench_modular_host on the H200 host (16 threads; 2^16 values of 256 to 32768 bits
// modulo 10 to 1059 primes; bench/results/2026-11-25-h200-modular-*):
// - FLINT's comb costs a host thread about 300 ns a value plus 2 ns a word product (value limbs
//   times moduli): measured 395 ns at 256 bits and 10 moduli, 9.4 us at 4096 bits and 70; its
//   CRT costs about as much (up to twice at 256 bits);
// - the GPU path costs about 0.15 ms a call (the pipeline's start) plus the bytes it moves
//   (values and residues) at 20 GB/s: measured 0.35 ms for 2^16 values at 256 bits and 10
//   moduli, where PCIe alone would take 0.13.
// Every measured case is faster on the GPU (3.6 to 72 times); the crossover below 2^16 values
// (about 8000 values at 256 bits on 16 threads) follows from the model, not from a measurement.
constexpr double kCpuSecondsPerValue = 300e-9, kCpuSecondsPerWordProduct = 2e-9;
constexpr double kGpuSecondsPerCall = 0.15e-3, kGpuBytesPerSecond = 20e9;

bool gpu_pays(const ModularShape& s, unsigned threads)
{
    const double values = double(s.count), limbs = double(std::max<std::uint64_t>(1, s.value_limbs));
    const double cpu = values * (kCpuSecondsPerValue + kCpuSecondsPerWordProduct * limbs * double(s.moduli)) /
                       double(std::max(1u, threads));
    const double gpu = kGpuSecondsPerCall + values * 8 * (limbs + double(s.moduli)) / kGpuBytesPerSecond;
    return s.count > 0 && cpu > gpu;
}

}  // namespace

bool gpu_pays_for_host_multi_mod(const ModularShape& shape, unsigned threads) { return gpu_pays(shape, threads); }
bool gpu_pays_for_host_multi_crt(const ModularShape& shape, unsigned threads) { return gpu_pays(shape, threads); }

}  // namespace zgpu
