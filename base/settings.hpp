// Every setting zgpu reads from the environment, each parsed here alone, with its default and its
// error message. A variable is read at each call unless its comment says once a process. A bad
// value throws zgpu::Error naming the variable, the value and what it takes.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace zgpu::settings {

// One row of the table of settings, for the manual and its test.
struct Setting {
    std::string_view name, default_value, meaning;
};
std::span<const Setting> all();

// ZGPU_BACKEND: "auto" (also when unset or empty), "cpu" or "gpu".
std::string_view backend();
// ZGPU_MUL_ALGORITHM: "auto" (also when unset or empty), "classical", "tensor" or "ntt".
std::string_view mul_algorithm();
// ZGPU_DIV_ALGORITHM: "auto" (also when unset or empty), "hensel", "block" or "newton".
std::string_view div_algorithm();
// ZGPU_DET_ALGORITHM: "auto" (also when unset or empty), "primes" (never a divisor first) or
// "divisor" (a divisor first wherever its lifting's digits fit).
std::string_view det_algorithm();
// ZGPU_DEVICES ("0,1"), else ZGPU_DEVICE (one number); empty where neither is set: every device.
std::vector<int> devices();
// ZGPU_GPU_MEMORY_LIMIT in bytes, a positive number; SIZE_MAX where unset or empty.
std::size_t gpu_memory_limit();
// ZGPU_THREADS, a positive number; 0 where unset or empty: the cores the process may run on.
unsigned threads();
// ZGPU_PLUGIN_HEAP_PAD in bytes (0 allowed: off), at most 2^30; 64 MiB where unset or empty.
std::size_t plugin_heap_pad();
// Whether ZGPU_PLUGIN_EXCLUDE (function names split by commas) names `function`.
bool plugin_excludes(std::string_view function);
// ZGPU_MPI_TEST_FAIL_RANK: the rank (a number) whose part of each MPI call fails on purpose, for
// tests; -1 where unset or empty.
long mpi_test_fail_rank();
// ZGPU_MPI_TEST_HANG_RANK: the same for a part that never ends; -1 where unset.
long mpi_test_hang_rank();
// ZGPU_MPI_TIMEOUT in seconds, a positive number; 600 where unset or empty.
double mpi_timeout();

// Switches: on where set to anything but "" or "0".
bool timing();    // ZGPU_TIMING
bool progress();  // ZGPU_PROGRESS
bool report();    // ZGPU_REPORT

}  // namespace zgpu::settings
