// The GPU devices in use (zgpu::set_gpu_devices) changed for a scope: for tests that count chunks
// or calls on one device, and for tests that split work over several.
#pragma once

#include <vector>

#include "zgpu/backend.hpp"

namespace zgpu::testing {

// Uses `devices` while it lives, then the list before.
class DevicesInUse {
public:
    explicit DevicesInUse(const std::vector<int>& devices) : before_(gpu_devices()) { set_gpu_devices(devices); }
    ~DevicesInUse() { set_gpu_devices(before_); }
    DevicesInUse(const DevicesInUse&) = delete;
    DevicesInUse& operator=(const DevicesInUse&) = delete;

private:
    std::vector<int> before_;
};

}  // namespace zgpu::testing
