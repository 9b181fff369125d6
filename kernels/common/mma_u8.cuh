// The tensor cores' 8-bit integer product, mma.m16n8k32 with unsigned bytes and 32-bit sums
// (sm_80 and up), and ldmatrix, which loads its A fragment from shared memory.
#pragma once

#include <cstdint>

namespace zgpu::kernels {

// d += A B for the 16 x 32 bytes of A (a0 .. a3) and the 32 x 8 of B (b0, b1), in the PTX
// fragment layout: lane (g, t) = (lane / 4, lane % 4) holds A[g][4t ..], A[g + 8][4t ..],
// A[g][16 + 4t ..], A[g + 8][16 + 4t ..]; B[4t ..][g], B[16 + 4t ..][g]; and D[g][2t, 2t + 1],
// D[g + 8][2t, 2t + 1].
__device__ __forceinline__ void mma_u8(int (&d)[4], std::uint32_t a0, std::uint32_t a1, std::uint32_t a2, std::uint32_t a3,
                                       std::uint32_t b0, std::uint32_t b1)
{
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// Four 8 x 16-byte matrices from shared memory, lane l giving the address of row l % 8 of matrix
// l / 8; lane (g, t) receives word t of row g of each: an A fragment of mma_u8 where the matrices
// are its rows 0-7 and 8-15 of bytes 0-15, then of bytes 16-31.
__device__ __forceinline__ void load_matrices(std::uint32_t (&a)[4], const void* row)
{
    const unsigned address = unsigned(__cvta_generic_to_shared(row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(address));
}

}  // namespace zgpu::kernels
