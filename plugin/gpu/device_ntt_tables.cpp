#include "plugin/gpu/device_ntt_tables.hpp"

#include <span>
#include <vector>

#include "kernels/ntt/ntt_twiddles.hpp"

namespace zgpu::gpu {

namespace {

struct TwiddlesOnDevice {
    DeviceMemory memory;
    kernels::NttTables tables{};
};

TwiddlesOnDevice upload_twiddles(Runtime& runtime)
{
    constexpr std::size_t entries = kernels::kNttMaxLength;
    std::vector<kernels::Twiddle> host(2 * kernels::kNttPrimeCount * entries);
    for (int q = 0; q < kernels::kNttPrimeCount; ++q)
        for (const bool inverse : {false, true})
            kernels::fill_twiddles(kernels::make_field(kernels::kNttPrimes[q]), inverse,
                                   std::span(host).subspan((2 * q + inverse) * entries, entries));
    TwiddlesOnDevice uploaded{DeviceMemory(host.size() * sizeof(kernels::Twiddle))};
    // On the runtime's stream, then waited for: from pageable memory a copy may return before the data
    // has arrived, and the stream is not ordered after the default one.
    check(cudaMemcpyAsync(uploaded.memory.data(), host.data(), uploaded.memory.size(), cudaMemcpyHostToDevice,
                          runtime.stream()),
          "uploading the NTT tables");
    runtime.synchronize("uploading the NTT tables");
    const auto* device = reinterpret_cast<const kernels::Twiddle*>(uploaded.memory.data());
    for (int q = 0; q < kernels::kNttPrimeCount; ++q) {
        uploaded.tables.forward[q] = device + 2 * q * entries;
        uploaded.tables.inverse[q] = device + (2 * q + 1) * entries;
    }
    return uploaded;
}

}  // namespace

const kernels::NttTables& ntt_tables(Runtime& runtime)
{
    return runtime.kept<TwiddlesOnDevice>([&] { return upload_twiddles(runtime); }).tables;
}

}  // namespace zgpu::gpu
