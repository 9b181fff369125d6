// Collectives of the T threads that work on one big-integer instance (T a power of two).
// T <= 32: the group is an aligned segment of a warp, and a warp holds 32/T instances; every
//          collective is confined to the segment, so no carry leaks between instances.
// T > 32:  the group is the whole block (T threads, one instance per block); warps combine
//          through a few words of shared memory.
// Every thread of the warp (block) must call each collective, also threads whose instance is
// past the end of the batch: they take part with neutral inputs.
#pragma once

#include <cstdint>

namespace zgpu::kernels {

// Carry lookahead by the integer adder: with one bit per thread, generate mask g and
// propagate mask p (never both set in one thread), the carries into the threads are the
// carries of the binary sum g + (g | p) + carry_in, i.e. (sum ^ g ^ (g | p)).
// One add resolves 32 positions, cheaper than a five-step shuffle scan.
struct CarryLookahead {
    std::uint64_t sum, g, gp;

    __device__ CarryLookahead(std::uint32_t generate, std::uint32_t propagate, std::uint32_t carry_in)
        : sum(std::uint64_t(generate) + (generate | propagate) + carry_in), g(generate), gp(generate | propagate)
    {
    }
    __device__ std::uint32_t carry_into(int position) const { return std::uint32_t(((sum ^ g ^ gp) >> position) & 1); }
    __device__ std::uint32_t carry_out(int width) const { return std::uint32_t((sum >> width) & 1); }
};

constexpr unsigned kFullWarp = 0xffffffffu;

// The carries of a group for both values of its carry-in, decided later (by the previous chunk,
// or by a look-back across blocks): into[c] is the carry into this thread when the group's
// carry-in is c; the group generates a carry-out, or propagates its carry-in, or neither.
struct Carries {
    bool into[2];
    bool generate, propagate;

    __device__ bool carry_out(bool carry_in) const { return generate || (propagate && carry_in); }
};

template <int T, bool InBlock = (T > 32)>
class ThreadGroup;

// A segment of T <= 32 lanes.
template <int T>
class ThreadGroup<T, false> {
public:
    struct Shared {};  // needs no shared memory

    __device__ explicit ThreadGroup(Shared&) {}

    __device__ static int rank() { return threadIdx.x % T; }
    // This thread's instance among the block's (the block holds blockDim.x / T of them).
    __device__ static int instance_in_block() { return threadIdx.x / T; }

    // From each thread's own carry-out (generate) and all-ones (propagate) flags.
    __device__ Carries carries(bool generate, bool propagate) const
    {
        const std::uint32_t g = segment(__ballot_sync(kFullWarp, generate));
        const std::uint32_t p = segment(__ballot_sync(kFullWarp, propagate));
        const CarryLookahead c0(g, p, 0), c1(g, p, 1);
        return {{bool(c0.carry_into(rank())), bool(c1.carry_into(rank()))},
                bool(c0.carry_out(T)),
                p == (T == 32 ? kFullWarp : (1u << T) - 1)};
    }

    // The value of the highest-ranked thread whose `flag` is set; `found` says whether any was.
    __device__ std::uint32_t value_of_highest(bool flag, std::uint32_t value, bool& found) const
    {
        const std::uint32_t mask = segment(__ballot_sync(kFullWarp, flag));
        found = mask != 0;
        const int source = found ? 31 - __clz(mask) : 0;
        return __shfl_sync(kFullWarp, value, segment_base() + source);
    }

    __device__ std::uint32_t max(std::uint32_t value) const
    {
        for (int offset = 1; offset < T; offset *= 2) value = ::max(value, __shfl_xor_sync(kFullWarp, value, offset));
        return value;
    }

    // The group's flags, bit r from the thread of rank r.
    __device__ std::uint32_t ballot(bool flag) const { return segment(__ballot_sync(kFullWarp, flag)); }

private:
    __device__ static int segment_base() { return (threadIdx.x % 32) & ~(T - 1); }
    __device__ static std::uint32_t segment(std::uint32_t warp_mask)
    {
        if constexpr (T == 32) return warp_mask;
        else return (warp_mask >> segment_base()) & ((1u << T) - 1);
    }
};

// A whole block of T = 32*W threads.
template <int T>
class ThreadGroup<T, true> {
    static constexpr int W = T / 32;
    static_assert(T % 32 == 0 && W <= 32, "a block-wide group is 2 to 32 warps");

public:
    struct Shared {
        std::uint32_t word[2][W];
    };

    __device__ explicit ThreadGroup(Shared& shared) : shared_(shared) {}

    __device__ static int rank() { return threadIdx.x; }
    __device__ static int instance_in_block() { return 0; }

    __device__ Carries carries(bool generate, bool propagate) const
    {
        const std::uint32_t g = __ballot_sync(kFullWarp, generate);
        const std::uint32_t p = __ballot_sync(kFullWarp, propagate);
        // Each warp's own carry-out and all-propagate flags, then lookahead across warps.
        publish(CarryLookahead(g, p, 0).carry_out(32), p == kFullWarp);
        const std::uint32_t wg = __ballot_sync(kFullWarp, lane() < W && shared_.word[0][lane() % W]);
        const std::uint32_t wp = __ballot_sync(kFullWarp, lane() < W && shared_.word[1][lane() % W]);
        const CarryLookahead across0(wg, wp, 0), across1(wg, wp, 1);
        const CarryLookahead c0(g, p, across0.carry_into(warp())), c1(g, p, across1.carry_into(warp()));
        return {{bool(c0.carry_into(lane())), bool(c1.carry_into(lane()))},
                bool(across0.carry_out(W)),
                wp == (W == 32 ? kFullWarp : (1u << W) - 1)};
    }

    __device__ std::uint32_t value_of_highest(bool flag, std::uint32_t value, bool& found) const
    {
        const std::uint32_t mask = __ballot_sync(kFullWarp, flag);
        const std::uint32_t warp_value = __shfl_sync(kFullWarp, value, mask ? 31 - __clz(mask) : 0);
        publish(mask != 0, warp_value);
        const std::uint32_t warps = __ballot_sync(kFullWarp, lane() < W && shared_.word[0][lane() % W]);
        found = warps != 0;
        return shared_.word[1][found ? 31 - __clz(warps) : 0];
    }

    __device__ std::uint32_t max(std::uint32_t value) const
    {
        for (int offset = 1; offset < 32; offset *= 2) value = ::max(value, __shfl_xor_sync(kFullWarp, value, offset));
        publish(value, 0);
        std::uint32_t result = 0;
        for (int w = 0; w < W; ++w) result = ::max(result, shared_.word[0][w]);
        return result;
    }

private:
    __device__ static int lane() { return threadIdx.x % 32; }
    __device__ static int warp() { return threadIdx.x / 32; }

    // Lane 0 of each warp stores two words; afterwards every thread may read all warps' words.
    // The first barrier keeps a fast warp from overwriting words a slow warp still reads.
    __device__ void publish(std::uint32_t first, std::uint32_t second) const
    {
        __syncthreads();
        if (lane() == 0) {
            shared_.word[0][warp()] = first;
            shared_.word[1][warp()] = second;
        }
        __syncthreads();
    }

    Shared& shared_;
};

}  // namespace zgpu::kernels
