// Device copies for the modular kernels' tests: arrays, the tables of a set (as the plugin will
// upload them), batches, and residues in the prime-major layout. CUDA builds only.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "kernels/modular/modular_tables.hpp"
#include "kernels/modular/residue_view.hpp"
#include "zgpu/limb_batch.hpp"

namespace zgpu::testing {

inline void cuda_ok(cudaError_t status, const char* what)
{
    if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

template <class T>
class DeviceArray {
public:
    explicit DeviceArray(std::size_t n) : n_(n) { cuda_ok(cudaMalloc(reinterpret_cast<void**>(&data_), std::max<std::size_t>(n, 1) * sizeof(T)), "cudaMalloc"); }
    explicit DeviceArray(const std::vector<T>& host) : DeviceArray(host.size())
    {
        cuda_ok(cudaMemcpy(data_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), "upload");
    }
    ~DeviceArray() { cudaFree(data_); }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;

    T* data() const { return data_; }
    std::vector<T> download() const
    {
        cuda_ok(cudaDeviceSynchronize(), "kernels");
        std::vector<T> host(n_);
        cuda_ok(cudaMemcpy(host.data(), data_, n_ * sizeof(T), cudaMemcpyDeviceToHost), "download");
        return host;
    }

private:
    T* data_ = nullptr;
    std::size_t n_;
};

class DeviceTables {
public:
    explicit DeviceTables(const kernels::ModularTables& t)
        : moduli_(t.moduli), powers_(t.powers), block_powers_(t.block_powers), inverses_(t.crt_inverses), cofactors_(t.cofactors),
          product_(t.product)
    {
        view_ = {t.count, moduli_.data(), powers_.data(), block_powers_.data(), inverses_.data(), cofactors_.data(), product_.data(),
                 t.product_limbs, t.product_bits};
    }
    const kernels::ModularTablesView& view() const { return view_; }

private:
    DeviceArray<kernels::Modulus> moduli_;
    DeviceArray<limb_t> powers_, block_powers_, inverses_, cofactors_, product_;
    kernels::ModularTablesView view_;
};

// A batch on the device, filled with `fill` limbs (to see what a kernel leaves unwritten).
class DeviceLimbBatch {
public:
    explicit DeviceLimbBatch(const LimbBatch& host) : limbs_(std::vector<limb_t>(host.limbs().begin(), host.limbs().end())),
          sizes_(std::vector<std::int32_t>(host.sizes().begin(), host.sizes().end())), count_(host.count()), stride_(host.stride()) {}
    DeviceLimbBatch(std::size_t count, std::uint32_t stride, limb_t fill)
        : limbs_(std::vector<limb_t>(count * stride, fill)), sizes_(std::vector<std::int32_t>(count, 12345)), count_(count), stride_(stride) {}

    BatchView view() const { return {limbs_.data(), sizes_.data(), count_, stride_}; }
    LimbBatch download() const
    {
        LimbBatch host(count_, stride_);
        const auto limbs = limbs_.download();
        const auto sizes = sizes_.download();
        std::copy(limbs.begin(), limbs.end(), host.limbs().begin());
        std::copy(sizes.begin(), sizes.end(), host.sizes().begin());
        return host;
    }

private:
    DeviceArray<limb_t> limbs_;
    DeviceArray<std::int32_t> sizes_;
    std::size_t count_;
    std::uint32_t stride_;
};

// Residues of `count` values modulo k moduli, prime-major with a stride above count (rounded up
// to 32, plus 3 so that the rows are not aligned alike), filled with `fill` where not given.
class DeviceResidues {
public:
    DeviceResidues(std::size_t count, std::size_t k, limb_t fill)
        : stride_((count + 31) / 32 * 32 + 3), array_(std::vector<limb_t>(k * stride_, fill)), count_(count), k_(k) {}
    // residues[i][e]
    explicit DeviceResidues(const std::vector<std::vector<limb_t>>& residues)
        : stride_((residues[0].size() + 31) / 32 * 32 + 3), array_(flatten(residues, stride_)), count_(residues[0].size()), k_(residues.size()) {}

    kernels::ResidueView view() const { return {array_.data(), count_, k_, stride_}; }
    std::size_t stride() const { return stride_; }
    // The whole array, padding included: element e of modulus i at [i * stride() + e].
    std::vector<limb_t> download() const { return array_.download(); }

private:
    static std::vector<limb_t> flatten(const std::vector<std::vector<limb_t>>& residues, std::size_t stride)
    {
        std::vector<limb_t> flat(residues.size() * stride, 0xdeadbeef);
        for (std::size_t i = 0; i < residues.size(); ++i) std::copy(residues[i].begin(), residues[i].end(), flat.begin() + i * stride);
        return flat;
    }
    std::size_t stride_;
    DeviceArray<limb_t> array_;
    std::size_t count_, k_;
};

}  // namespace zgpu::testing
