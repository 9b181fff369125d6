#include "zgpu/device_batch.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "base/parallel.hpp"
#include "zgpu/error.hpp"
#include "plugin/gpu/gpu_backend.hpp"

namespace zgpu {
namespace {

std::size_t storage_bytes(std::size_t count, std::uint32_t stride)
{
    if (stride == 0 || stride > kMaxLimbs || size_class(stride) != stride)
        throw Error("stride " + std::to_string(stride) + " is not a size class (see size_class) of at most " +
                    std::to_string(kMaxLimbs) + " limbs");
    if (count > std::numeric_limits<std::size_t>::max() / (8 * std::size_t(stride) + 4))
        throw Error("a batch of " + std::to_string(count) + " elements of " + std::to_string(stride) +
                    " limbs does not fit in memory");
    return count * (stride * sizeof(limb_t) + sizeof(std::int32_t));
}

void* allocate(Backend where, std::size_t bytes)
{
    if (where == Backend::gpu && !gpu_available())
        throw Error("a DeviceBatch on the GPU backend, but " + std::string(gpu_unavailable_reason()));
    if (bytes == 0) return nullptr;
    if (where == Backend::gpu) return gpu::allocate(bytes);
    if (void* p = std::malloc(bytes)) return p;
    throw Error("out of host memory allocating " + std::to_string(bytes) + " bytes for a DeviceBatch");
}

// Copies between host memory and the batch's storage.
void copy(Backend where, void* dst, const void* src, std::size_t bytes, bool to_storage)
{
    if (bytes == 0) return;
    if (where == Backend::cpu) std::memcpy(dst, src, bytes);
    else if (to_storage) gpu::copy_to_device(dst, src, bytes);
    else gpu::copy_to_host(dst, src, bytes);
}

void fill_zero(Backend where, void* dst, std::size_t bytes)
{
    if (bytes == 0) return;
    if (where == Backend::gpu) gpu::fill_zero(dst, bytes);
    else std::memset(dst, 0, bytes);
}

}  // namespace

void DeviceBatch::Release::operator()(void* storage) const
{
    if (where == Backend::gpu) gpu::release(storage);
    else std::free(storage);
}

DeviceBatch::DeviceBatch() : DeviceBatch(requested_backend(), 0, 1) {}

DeviceBatch::DeviceBatch(Backend where, std::size_t count, std::uint32_t stride, Uninitialized)
    : backend_(where), count_(count), stride_(stride),
      storage_(allocate(where, storage_bytes(count, stride)), Release{where})
{
}

DeviceBatch::DeviceBatch(Backend where, std::size_t count, std::uint32_t stride)
    : DeviceBatch(where, count, stride, Uninitialized{})
{
    fill_zero(backend_, storage_.get(), storage_bytes(count, stride));
}

DeviceBatch DeviceBatch::upload(ConstBatchView host, Backend where)
{
    storage_bytes(host.count, host.stride);
    parallel_for(host.count, std::max<std::size_t>(1, (std::size_t(1) << 17) / host.stride), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const std::uint32_t n = std::abs(host.sizes[i]);
            if (n > host.stride)
                throw Error("upload: element " + std::to_string(i) + " has size " + std::to_string(host.sizes[i]) +
                            ", more limbs than the stride " + std::to_string(host.stride));
            const limb_t* element = host.element(i);
            if ((n > 0 && element[n - 1] == 0) || std::any_of(element + n, element + host.stride, [](limb_t x) { return x; }))
                throw Error("upload: element " + std::to_string(i) + " breaks the layout (its top limb is zero or a limb above its size is not)");
        }
    });
    DeviceBatch batch(where, host.count, host.stride, Uninitialized{});
    const BatchView view = batch.view();
    copy(where, view.limbs, host.limbs, host.count * host.stride * sizeof(limb_t), true);
    copy(where, view.sizes, host.sizes, host.count * sizeof(std::int32_t), true);
    return batch;
}

DeviceBatch DeviceBatch::upload(const LimbBatch& host)
{
    return upload(host.view(), requested_backend());
}

LimbBatch DeviceBatch::download() const
{
    LimbBatch host(count_, stride_);
    const ConstBatchView view = this->view();
    copy(backend_, host.limbs().data(), view.limbs, count_ * stride_ * sizeof(limb_t), false);
    copy(backend_, host.sizes().data(), view.sizes, count_ * sizeof(std::int32_t), false);
    return host;
}

BatchView DeviceBatch::view()
{
    auto* limbs = static_cast<limb_t*>(storage_.get());
    return {limbs, reinterpret_cast<std::int32_t*>(limbs + count_ * stride_), count_, stride_};
}

ConstBatchView DeviceBatch::view() const
{
    const auto* limbs = static_cast<const limb_t*>(storage_.get());
    return {limbs, reinterpret_cast<const std::int32_t*>(limbs + count_ * stride_), count_, stride_};
}

}  // namespace zgpu
