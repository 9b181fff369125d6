// The cost rule of reduction and CRT of host vectors: the GPU for the measured cases (2^16
// values, 256 to 32768 bits, where it was 3.6 to 72 times faster end to end), the host for small
// calls, and a crossover that grows with the host threads.
#include <gtest/gtest.h>

#include "plugin/modular/modular_choice.hpp"

namespace zgpu::testing {
namespace {

TEST(ModularChoice, MeasuredCasesGoToTheGpuSmallCallsStayOnTheHost)
{
    for (const ModularShape shape : {ModularShape{4, 10, 1 << 16}, ModularShape{16, 35, 1 << 16}, ModularShape{64, 70, 1 << 16},
                                     ModularShape{64, 134, 1 << 16}, ModularShape{512, 1059, 1 << 16}}) {
        EXPECT_TRUE(gpu_pays_for_host_multi_mod(shape, 16)) << shape.value_limbs << " limbs";
        EXPECT_TRUE(gpu_pays_for_host_multi_crt(shape, 16)) << shape.value_limbs << " limbs";
    }
    EXPECT_FALSE(gpu_pays_for_host_multi_mod({64, 70, 0}, 16));
    EXPECT_FALSE(gpu_pays_for_host_multi_mod({64, 70, 16}, 16));
    EXPECT_FALSE(gpu_pays_for_host_multi_mod({4, 10, 1000}, 16));
    // The crossover grows with the threads.
    EXPECT_TRUE(gpu_pays_for_host_multi_mod({4, 10, 4000}, 1));
    EXPECT_FALSE(gpu_pays_for_host_multi_mod({4, 10, 4000}, 64));
}

}  // namespace
}  // namespace zgpu::testing
