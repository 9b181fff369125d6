#include "plugin/modular/modular_choice.hpp"

#include <algorithm>

namespace zgpu {
namespace {

// A placeholder until the GPU path is measured: the GPU pays once a call moves at least this
// many bytes (values and residues) a host thread, where FLINT's work, about value_limbs x moduli
// word operations an element, is at least kMinWorkPerWord for each word moved (small values
// modulo few moduli are memory-bound on both sides, and the host has no transfer to pay). Both
// constants are to be fitted to bench_choice on the GPU machine, as host_choice.cpp's are.
constexpr std::uint64_t kMinBytesPerThread = std::uint64_t(1) << 20;
constexpr std::uint64_t kMinWorkPerWord = 8;

bool gpu_pays(const ModularShape& s, unsigned threads)
{
    const std::uint64_t limbs = std::max<std::uint64_t>(1, s.value_limbs);
    const std::uint64_t words = limbs + s.moduli;  // moved for each element
    const std::uint64_t work = limbs * s.moduli;   // FLINT's word operations for each element, about
    return s.count > 0 && work >= kMinWorkPerWord * words &&
           8 * words > kMinBytesPerThread * std::max(1u, threads) / s.count;
}

}  // namespace

bool gpu_pays_for_host_multi_mod(const ModularShape& shape, unsigned threads) { return gpu_pays(shape, threads); }
bool gpu_pays_for_host_multi_crt(const ModularShape& shape, unsigned threads) { return gpu_pays(shape, threads); }

}  // namespace zgpu
