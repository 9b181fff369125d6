// Asynchronous copies of one word from global to shared memory (cp.async, sm_80 and up), with
// zero fill, so that a kernel's next stage of operands arrives while it computes on this one.
#pragma once

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// *destination = *source, or 0 where !valid (source is then not read, but stays a global
// address). Done for this thread after wait_for_copies, for the block after a barrier too.
__device__ __forceinline__ void copy_word_async(limb_t* destination, const limb_t* source, bool valid)
{
    const unsigned shared = unsigned(__cvta_generic_to_shared(destination));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(shared), "l"(source), "r"(valid ? 8 : 0) : "memory");
}

// Closes this thread's group of copies issued since the last commit (possibly none).
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Waits for all this thread's groups but the Pending newest.
template <int Pending>
__device__ __forceinline__ void wait_for_copies()
{
    asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

}  // namespace zgpu::kernels
