// Copies into memory that this host's cores will not read again soon, such as pinned staging
// that a DMA reads next. A plain store first reads its target line into the cache (read for
// ownership), so a plain copy moves each target byte over the memory bus twice; non-temporal
// stores write whole lines without reading them. They pay where the target is long and
// contiguous (packing: 20 % less time at 4096 bits on an H200 host); into fmpz results, a few
// lines each, unpacking took 1.7 times as long (bench/NOTES-mul.md).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace zgpu::adapters {

// Copies `bytes` from src to dst: whole 64-byte lines of dst with non-temporal stores on
// x86-64, a partial line at either end with plain ones (a partial line written non-temporally
// costs a bus transaction of its own). Elsewhere a plain copy. The stores are weakly ordered:
// call stream_fence() before another thread or a device reads what was written.
inline void stream_copy(void* dst, const void* src, std::size_t bytes)
{
#if defined(__x86_64__)
    auto* out = static_cast<unsigned char*>(dst);
    const auto* in = static_cast<const unsigned char*>(src);
    const std::size_t head = std::min(bytes, (64 - reinterpret_cast<std::uintptr_t>(out) % 64) % 64);
    std::memcpy(out, in, head);
    out += head, in += head, bytes -= head;
    for (; bytes >= 64; out += 64, in += 64, bytes -= 64)
        for (int k = 0; k < 64; k += 16)
            _mm_stream_si128(reinterpret_cast<__m128i*>(out + k), _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + k)));
    std::memcpy(out, in, bytes);
#else
    std::memcpy(dst, src, bytes);
#endif
}

// Orders the non-temporal stores of this thread before its later stores (a completion flag).
inline void stream_fence()
{
#if defined(__x86_64__)
    _mm_sfence();
#endif
}

}  // namespace zgpu::adapters
