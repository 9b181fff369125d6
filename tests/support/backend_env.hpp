// Sets ZGPU_BACKEND for the lifetime of a test fixture.
#pragma once

#include <cstdlib>

#include "backend_param.hpp"

namespace zgpu::testing {

class ScopedBackend {
public:
    explicit ScopedBackend(const char* value) { setenv("ZGPU_BACKEND", value, 1); }
    ~ScopedBackend() { unsetenv("ZGPU_BACKEND"); }
};

// A fixture whose tests run with ZGPU_BACKEND set to the parameter.
class OnBackend : public ::testing::TestWithParam<Backend> {
protected:
    void SetUp() override
    {
        ZGPU_SKIP_WITHOUT(GetParam());
        setenv("ZGPU_BACKEND", GetParam() == Backend::gpu ? "gpu" : "cpu", 1);
    }
    void TearDown() override { unsetenv("ZGPU_BACKEND"); }
};

}  // namespace zgpu::testing
