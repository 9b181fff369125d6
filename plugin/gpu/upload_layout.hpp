// Host arrays laid out one after another for one copy to the device. Only plugin/gpu/ includes
// it.
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

namespace zgpu::gpu {

// Lays the host arrays out one after another, each at a 256-byte boundary, so that one copy
// moves them all and each starts aligned for the kernels' loads. Reserved places get no data
// from gather: the caller fills them, or (after the last uploaded part) the device alone uses
// them.
class UploadLayout {
public:
    template <class T>
    std::size_t add(const std::vector<T>& array)
    {
        return place(array.data(), array.size() * sizeof(T));
    }
    std::size_t reserve(std::size_t bytes) { return place(nullptr, bytes); }
    std::size_t bytes() const { return bytes_; }

    void gather_into(std::byte* all) const
    {
        for (const Part& p : parts_)
            if (p.data) std::memcpy(all + p.offset, p.data, p.bytes);
    }
    std::vector<std::byte> gather() const
    {
        std::vector<std::byte> all(bytes_);
        gather_into(all.data());
        return all;
    }

private:
    struct Part {
        const void* data;
        std::size_t bytes, offset;
    };

    std::size_t place(const void* data, std::size_t bytes)
    {
        const std::size_t offset = bytes_;
        parts_.push_back({data, bytes, offset});
        bytes_ = (offset + bytes + 255) / 256 * 256;
        return offset;
    }

    std::vector<Part> parts_;
    std::size_t bytes_ = 0;
};

}  // namespace zgpu::gpu
