// Access to the limbs of packed elements from kernels, and the arguments of add/sub launches.
#pragma once

#include <cstdint>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

struct AddSubArgs {
    ConstBatchView a, b;
    BatchView r;
    bool subtract;
};

// Loads limbs [first, first+L) of an element of `length` limbs; limbs past it read as zero
// without touching memory. Pairs go as one 16-byte load (element strides >= 2 are even).
// Bounded by the stride rather than the size, no load waits for the sizes to arrive: the
// layout guarantees zeros above the size.
template <int L>
__device__ void load_limbs(const limb_t* element, std::uint32_t length, std::uint32_t first, limb_t (&v)[L])
{
#pragma unroll
    for (int j = 0; j < L; j += 2) {
        const std::uint32_t k = first + j;
        if (k + 1 < length) {
            const ulonglong2 pair = __ldg(reinterpret_cast<const ulonglong2*>(element + k));
            v[j] = pair.x;
            v[j + 1] = pair.y;
        } else {
            v[j] = k < length ? __ldg(element + k) : 0;
            v[j + 1] = 0;
        }
    }
}

template <int L>
__device__ void store_limbs(limb_t* element, std::uint32_t stride, std::uint32_t first, const limb_t (&v)[L])
{
#pragma unroll
    for (int j = 0; j < L; j += 2) {
        const std::uint32_t k = first + j;
        if (k + 1 < stride) *reinterpret_cast<ulonglong2*>(element + k) = make_ulonglong2(v[j], v[j + 1]);
        else if (k < stride) element[k] = v[j];
    }
}

}  // namespace zgpu::kernels
