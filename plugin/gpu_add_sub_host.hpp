// Addition/subtraction of host data on the GPU: pack into pinned staging, one upload, the
// kernel, one download, unpack. Only built with the GPU backend.
#pragma once

#include "host_dispatch.hpp"

namespace zgpu::gpu {

// result(r) receives r[i] = a[i] +- b[i] for i < count, in pinned memory valid during the call;
// it is called only once everything else has succeeded.
void add_sub(const HostOperand& a, const HostOperand& b, std::size_t count, bool subtract, const HostResult& result);

}  // namespace zgpu::gpu
