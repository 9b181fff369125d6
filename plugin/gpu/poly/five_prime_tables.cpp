#include "plugin/gpu/poly/five_prime_tables.hpp"

#include <vector>

namespace zgpu::gpu {
namespace {

struct FivePrimeTables {
    DeviceMemory memory;
    kernels::FivePrimeTablesView view;
};

FivePrimeTables upload_tables(Runtime& runtime)
{
    constexpr std::size_t entries = kernels::kFivePrimeCount * kernels::kPolyMulModNMaxLength;
    std::vector<kernels::Twiddle> host(2 * entries);
    kernels::fill_five_prime_tables(std::span(host).first(entries), std::span(host).subspan(entries));
    FivePrimeTables tables{DeviceMemory(host.size() * sizeof(kernels::Twiddle)), {}};
    // From pageable memory a copy may return before the data has left it: wait.
    check(cudaMemcpyAsync(tables.memory.data(), host.data(), tables.memory.size(), cudaMemcpyHostToDevice, runtime.stream()),
          "uploading the five primes' NTT tables");
    runtime.synchronize("uploading the five primes' NTT tables");
    const auto* device = reinterpret_cast<const kernels::Twiddle*>(tables.memory.data());
    tables.view = {device, device + entries};
    return tables;
}

}  // namespace

const kernels::FivePrimeTablesView& five_prime_tables(Runtime& runtime)
{
    return runtime.kept<FivePrimeTables>([&] { return upload_tables(runtime); }).view;
}

}  // namespace zgpu::gpu
