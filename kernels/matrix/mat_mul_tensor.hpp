// Matrix products mod n on the 8-bit tensor cores, through cuBLAS's int8 GEMM with 32-bit sums,
// exact for every modulus 2 <= n < 2^64 (the scheme and its bound: tensor_moduli.hpp). For a
// product mod a 62-bit prime with an inner dimension of 2048, 18 GEMMs of bytes stand for the
// 64 x 64-bit products that mat_mul_mod.hpp sums on the integer units.
#pragma once

#include <cstddef>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "kernels/common/temporary.hpp"
#include "kernels/matrix/matrix_view.hpp"
#include "kernels/modular/modulus.hpp"

namespace zgpu::kernels {

// The cuBLAS functions the products call, and the handle they call them with: the caller links
// cuBLAS or loads it (the header gives only the types). The GEMM is cuBLAS's exported
// cublasGemmStridedBatchedEx, with a cublasComputeType_t.
using GemmStridedBatchedEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                                                const void*, cudaDataType, int, long long, const void*, cudaDataType, int,
                                                long long, const void*, void*, cudaDataType, int, long long, int,
                                                cublasComputeType_t, cublasGemmAlgo_t);
struct BlasFunctions {
    cublasHandle_t handle = nullptr;
    decltype(&cublasSetStream) set_stream = nullptr;
    GemmStridedBatchedEx gemm = nullptr;
    decltype(&cublasGetStatusString) status_string = nullptr;
};

// c_b = a_b b_b mod moduli[b] for each b < c.count, with mat_mul_mod's contract (entries any
// words; a.cols == b.rows < 2^31), every moduli[b].n below 2^modulus_bits; rows, and the inner
// dimension and columns rounded up to 16 and 4, at most 2^31 - 1 (cuBLAS's int). Inner dimensions
// beyond kTensorInnerChunk are summed in chunks, each reduced before the next is added. The
// temporaries (the residues as bytes, the GEMMs' 32-bit sums) come from the stream-ordered pool,
// in passes of about pass_bytes: groups of products, or bands of rows of one (one row, and one
// matrix's residues of b, at the least). blas.handle is bound to `stream` for the call. Only
// enqueues work on `stream`; failures are thrown as zgpu::Error.
inline constexpr std::size_t kTensorPassBytes = std::size_t(1) << 31;
void mat_mul_mod_tensor(const BlasFunctions& blas, ConstMatricesView a, ConstMatricesView b, const Modulus* moduli,
                        unsigned modulus_bits, MatricesView c, cudaStream_t stream, std::size_t pass_bytes = kTensorPassBytes);

// b's side of products by the same b (bands of a's rows): its residues as bytes modulo the
// small moduli, and the reconstruction's weights for its moduli, made once on `stream` from
// stream-ordered memory. b and moduli must stay valid while products use it; products by it
// are queued on the same stream.
class TensorRightOperand {
public:
    TensorRightOperand(ConstMatricesView b, const Modulus* moduli, unsigned modulus_bits, cudaStream_t stream);
    // The device bytes it takes for `count` matrices of inner x cols: about 18 to 24 bytes an
    // entry and matrix, past twice b's own words.
    static std::size_t bytes(std::size_t inner, std::size_t cols, std::size_t count, unsigned modulus_bits);

private:
    friend void mat_mul_mod_tensor(const BlasFunctions&, ConstMatricesView, const TensorRightOperand&, MatricesView, cudaStream_t,
                                   std::size_t);
    ConstMatricesView b_;
    const Modulus* moduli_;
    unsigned t_;
    std::size_t padded_, ldc_;
    StreamMemory planes_, weights_;
};

// mat_mul_mod_tensor by a prepared b: a.cols == b's rows, c.count == b's count, a band of a's
// rows of about pass_bytes of a's bytes and sums at a time.
void mat_mul_mod_tensor(const BlasFunctions& blas, ConstMatricesView a, const TensorRightOperand& b, MatricesView c,
                        cudaStream_t stream, std::size_t pass_bytes = kTensorPassBytes);

// c_b = c_b - a_b b_b mod moduli[b], as mat_submul_mod (mat_mul_mod.hpp): c's entries in [0, n_b)
// before and after, and c may lie inside the matrix that a or b are views of (an LU's trailing
// block), sharing no entry with either. Otherwise mat_mul_mod_tensor's contract.
void mat_submul_mod_tensor(const BlasFunctions& blas, ConstMatricesView a, ConstMatricesView b, const Modulus* moduli,
                           unsigned modulus_bits, MatricesView c, cudaStream_t stream, std::size_t pass_bytes = kTensorPassBytes);

// The 8-bit multiply-adds of a call's GEMMs (padding included), for the benchmarks' share of
// cuBLAS's rate.
double mat_mul_tensor_terms(std::size_t rows, std::size_t inner, std::size_t cols, std::size_t count, unsigned modulus_bits);

}  // namespace zgpu::kernels
