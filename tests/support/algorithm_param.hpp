// Runs a batch test suite once per backend and, on the GPU, once per algorithm that an
// environment variable forces (the automatic choice, then each forced where it applies).
#pragma once

#include <cstdlib>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "backend_param.hpp"
#include "zgpu/mpz_adapter.hpp"
#include "random_integers.hpp"
#include "zgpu/device_batch.hpp"

namespace zgpu::testing {

struct AlgorithmCase {
    Backend backend;
    const char* algorithm;
};

inline void PrintTo(const AlgorithmCase& c, std::ostream* os) { *os << backend_name(c.backend) << "/" << c.algorithm; }

inline std::string algorithm_case_name(const ::testing::TestParamInfo<AlgorithmCase>& info)
{
    return std::string(backend_name(info.param.backend)) + "_" + info.param.algorithm;
}

// A fixture whose tests run with `variable` set to the parameter's algorithm.
class OnAlgorithm : public ::testing::TestWithParam<AlgorithmCase> {
protected:
    explicit OnAlgorithm(const char* variable) : variable_(variable) {}

    void SetUp() override
    {
        ZGPU_SKIP_WITHOUT(backend());
        setenv(variable_, GetParam().algorithm, 1);
    }
    void TearDown() override { unsetenv(variable_); }

    Backend backend() const { return GetParam().backend; }
    DeviceBatch upload(const MpzArray& values) const
    {
        return DeviceBatch::upload(adapters::pack_mpz_array(values.data(), values.size()).view(), backend());
    }

private:
    const char* variable_;
};

}  // namespace zgpu::testing
