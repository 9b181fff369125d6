#include "plugin/gpu/memory_limit.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "zgpu/error.hpp"

namespace zgpu::gpu {

std::size_t device_memory_limit()
{
    const char* value = std::getenv("ZGPU_GPU_MEMORY_LIMIT");
    if (!value || !*value) return SIZE_MAX;
    char* end = nullptr;
    // strtoull would take "-1" as the largest number: the value must start with a digit.
    const unsigned long long bytes = std::isdigit(static_cast<unsigned char>(*value)) ? std::strtoull(value, &end, 10) : 0;
    if (bytes == 0 || *end != '\0') throw Error(std::string("ZGPU_GPU_MEMORY_LIMIT=") + value + ": expected a positive number of bytes");
    return std::size_t(bytes);
}

}  // namespace zgpu::gpu
