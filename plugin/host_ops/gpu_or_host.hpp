// One rule for a GPU that fails in a computation whose result the host can compute alone
// (matrix products and determinants, resultants): the host computes the result, with a
// warning, unless ZGPU_BACKEND forced the backend and nothing has been written yet, where the
// error stands. A failure after some of the result was written is always finished by the host,
// so that no output is left half written.
#pragma once

#include <functional>
#include <optional>

#include "zgpu/backend.hpp"

namespace zgpu {

// Runs gpu(); should it throw, runs host() as the rule says (`what` names the computation in the
// warning; written() says whether gpu() had written part of the result). Returns the backend
// that finished.
Backend gpu_or_host(const std::function<void()>& gpu, const std::function<void()>& host, const char* what,
                    const std::function<bool()>& written = [] { return false; });

// A GPU way that may stand aside: runs served = gpu() as run_on runs the GPU backend (the
// backend recorded), under gpu_or_host's rule with host() for a GPU that fails. Returns the
// backend that finished, or nothing where gpu() returned false and so nothing was computed: the
// caller then takes another way.
std::optional<Backend> gpu_unless_it_stands_aside(const std::function<bool()>& gpu, const std::function<void()>& host,
                                                  const char* what);

}  // namespace zgpu
