// zgpu::Error: the one exception type the library throws.
#pragma once

#include <stdexcept>
#include <string>

namespace zgpu {

// Raised for bad arguments (the message names the argument) and for failures of the
// GPU runtime (the message names the operation and carries CUDA's own message).
// Whenever it is raised, no output argument has been written.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& what) : std::runtime_error("zgpu: " + what) {}
};

}  // namespace zgpu
