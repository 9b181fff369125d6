// Products for launchers that compose them (the 2-adic division, kernels/div/divexact.hpp):
// kernels::mul with what it needs beyond its operands asked of the caller, and low products.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include <cuda_runtime_api.h>

#include "kernels/mul/mul.hpp"
#include "kernels/ntt/ntt_tables.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// What products need from whoever owns the device. tables and workspace are called only by a
// product that needs a workspace (the NTT's), right before it is enqueued, so that the tables
// are made on first use: tables() returns the NTT's tables in device memory, workspace(words)
// at least words.minimum words of device memory, which only that product uses until it has run
// (one workspace for all is safe when every product goes on one stream).
struct MulContext {
    MulAlgorithm algorithm = MulAlgorithm::automatic;
    std::function<const NttTables&()> tables;
    std::function<std::span<std::uint32_t>(const MulWorkspace& words)> workspace;
};

// kernels::mul (kernels/mul/mul.hpp, same contract) with the algorithm, tables and workspace
// of `context`.
void mul(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, const MulContext& context, cudaStream_t stream);

// The low product r[i] = sign(a[i] b[i]) (|a[i] b[i]| mod B^r.stride) (B = 2^64), for
// r.stride <= a.stride + b.stride: computed alone where kernels::mul can
// (mul_computes_low_products), else cut from a full product in temporary memory of `stream`'s
// pool. Otherwise kernels::mul's contract.
void mul_low(ConstBatchView a, ConstBatchView b, BatchView r, bool broadcast_b, const MulContext& context,
             cudaStream_t stream);

}  // namespace zgpu::kernels
