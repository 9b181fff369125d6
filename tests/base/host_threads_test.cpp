// The host threads follow the cores a process may run on, as an MPI launcher's binding sets them.
#include <sched.h>

#include <cstdlib>

#include <gtest/gtest.h>

#include "base/parallel.hpp"

namespace {

// In a new process (gtest's threadsafe death tests run the statement in a fresh one), so that
// the count is read for the first time after the affinity is set.
TEST(HostThreads, FollowTheProcessesAffinity)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            unsetenv("ZGPU_THREADS");
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(sched_getcpu(), &one);
            if (sched_setaffinity(0, sizeof one, &one) != 0) std::exit(2);
            std::exit(zgpu::host_threads() == 1 ? 0 : 1);
        },
        testing::ExitedWithCode(0), "");
}

}  // namespace
