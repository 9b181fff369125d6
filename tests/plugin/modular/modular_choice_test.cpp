// The placeholder cost rule of reduction and CRT of host vectors: small calls stay on the host,
// large ones of enough work a word go to the GPU, and more threads need larger calls.
#include <gtest/gtest.h>

#include "plugin/modular/modular_choice.hpp"

namespace zgpu::testing {
namespace {

TEST(ModularChoice, SmallCallsAndLightWorkStayOnTheHost)
{
    EXPECT_FALSE(gpu_pays_for_host_multi_mod({64, 70, 0}, 16));
    EXPECT_FALSE(gpu_pays_for_host_multi_mod({64, 70, 16}, 16));
    EXPECT_TRUE(gpu_pays_for_host_multi_mod({64, 70, 1 << 16}, 16));
    EXPECT_TRUE(gpu_pays_for_host_multi_crt({70, 70, 1 << 16}, 16));
    // One-limb values modulo two moduli: memory-bound, at any count.
    EXPECT_FALSE(gpu_pays_for_host_multi_mod({1, 2, std::size_t(1) << 30}, 16));
    // The threshold grows with the threads.
    EXPECT_TRUE(gpu_pays_for_host_multi_mod({16, 16, 8192}, 1));
    EXPECT_FALSE(gpu_pays_for_host_multi_mod({16, 16, 8192}, 64));
}

}  // namespace
}  // namespace zgpu::testing
