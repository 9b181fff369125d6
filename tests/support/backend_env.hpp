// Sets ZGPU_BACKEND (or another setting) for the lifetime of a test fixture or scope.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

#include "backend_param.hpp"

namespace zgpu::testing {

// Sets `name` to `value`, and puts back its value before (or unsets it) at the end of the scope.
class ScopedVariable {
public:
    ScopedVariable(const char* name, const char* value) : name_(name)
    {
        if (const char* before = std::getenv(name)) before_ = before;
        setenv(name, value, 1);
    }
    ~ScopedVariable()
    {
        if (before_) setenv(name_.c_str(), before_->c_str(), 1);
        else unsetenv(name_.c_str());
    }
    ScopedVariable(const ScopedVariable&) = delete;
    ScopedVariable& operator=(const ScopedVariable&) = delete;

private:
    std::string name_;
    std::optional<std::string> before_;
};

class ScopedBackend : public ScopedVariable {
public:
    explicit ScopedBackend(const char* value) : ScopedVariable("ZGPU_BACKEND", value) {}
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
