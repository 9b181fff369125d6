// Asynchronous copies of one word or 16 bytes from global to shared memory (cp.async, sm_80 and up), with
// zero fill, so that a kernel's next stage of operands arrives while it computes on this one.
#pragma once

#include <cstddef>

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// *destination = *source, or 0 where !valid (source is then not read, but stays a global
// address). Done for this thread after wait_for_copies, for the block after a barrier too.
__device__ __forceinline__ void copy_word_async(limb_t* destination, const limb_t* source, bool valid)
{
    const unsigned shared = unsigned(__cvta_generic_to_shared(destination));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(shared), "l"(source), "r"(valid ? 8 : 0) : "memory");
}

// The same for 16 bytes (both addresses 16-byte aligned).
__device__ __forceinline__ void copy_chunk_async(void* destination, const void* source, bool valid)
{
    const unsigned shared = unsigned(__cvta_generic_to_shared(destination));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(shared), "l"(source), "r"(valid ? 16 : 0) : "memory");
}

// Closes this thread's group of copies issued since the last commit (possibly none).
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Waits for all this thread's groups but the Pending newest.
template <int Pending>
__device__ __forceinline__ void wait_for_copies()
{
    asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

// Runs stages 0 .. count - 1 of a block's work through two shared-memory buffers: load(n)
// issues and commits stage n's copies into buffer n % 2, and stage n + 1 is in flight while
// compute(n) reads stage n. The barriers make every thread's copies of stage n visible before
// compute(n), and every thread's reads of it done before stage n + 2 reuses its buffer.
template <class Load, class Compute>
__device__ __forceinline__ void double_buffered_stages(std::size_t count, Load load, Compute compute)
{
    if (count > 0) load(0);
    for (std::size_t n = 0; n < count; ++n) {
        if (n + 1 < count) load(n + 1);
        else commit_copies();  // an empty group: the wait below still means stage n
        wait_for_copies<1>();  // this thread's copies of stage n are done
        __syncthreads();       // and everyone's
        compute(n);
        __syncthreads();
    }
}

}  // namespace zgpu::kernels
