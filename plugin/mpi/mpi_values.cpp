#include "plugin/mpi/mpi_values.hpp"

#include <gmp.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "base/parallel.hpp"
#include "plugin/mpi/rank_outcome.hpp"
#include "zgpu/fmpz_adapter.hpp"

namespace zgpu::mpi {
namespace {

// MPI counts are ints: long arrays go in pieces.
constexpr std::size_t kPieceWords = std::size_t(1) << 30;

// Values converted on one thread at least.
constexpr std::size_t kParallelFrom = 4096;

template <class T>
void send_array(const T* data, std::size_t count, MPI_Datatype type, int to, MPI_Comm comm, double expected_seconds)
{
    for (std::size_t at = 0; at < count; at += kPieceWords)
        send(data + at, int(std::min(kPieceWords, count - at)), type, to, comm, "sending values", expected_seconds);
}

template <class T>
void receive_array(T* data, std::size_t count, MPI_Datatype type, int from, MPI_Comm comm, double expected_seconds)
{
    for (std::size_t at = 0; at < count; at += kPieceWords)
        receive(data + at, int(std::min(kPieceWords, count - at)), type, from, comm, "receiving values", expected_seconds);
}

template <class T>
void broadcast_array(T* data, std::size_t count, MPI_Datatype type, int root, MPI_Comm comm)
{
    for (std::size_t at = 0; at < count; at += kPieceWords)
        broadcast(data + at, int(std::min(kPieceWords, count - at)), type, root, comm, "broadcasting values");
}

// Values as they travel: each one's size (its sign and limb count, as mpz's) and all limbs one
// after another, from `offsets`.
struct Ragged {
    std::vector<std::int64_t> sizes;
    std::vector<std::uint64_t> offsets;  // count + 1: the last is the limbs' count
    std::vector<limb_t> limbs;

    explicit Ragged(std::size_t count) : sizes(count), offsets(count + 1) {}

    void set_offsets()
    {
        for (std::size_t e = 0; e < sizes.size(); ++e) offsets[e + 1] = offsets[e] + std::uint64_t(std::llabs(sizes[e]));
        limbs.resize(offsets.back());
    }
};

Ragged ragged(const fmpz* values, std::size_t count)
{
    Ragged r(count);
    const adapters::FmpzReader reader(values);
    for (std::size_t e = 0; e < count; ++e) r.sizes[e] = reader.size(e);
    r.set_offsets();
    parallel_for(count, kParallelFrom, [&](std::size_t begin, std::size_t end) {
        for (std::size_t e = begin; e < end; ++e) reader.copy(e, r.limbs.data() + r.offsets[e]);
    });
    return r;
}

void unragged(const Ragged& r, fmpz* values)
{
    const adapters::FmpzWriter writer(values);
    parallel_for(r.sizes.size(), kParallelFrom, [&](std::size_t begin, std::size_t end) {
        for (std::size_t e = begin; e < end; ++e) writer(e, std::int32_t(r.sizes[e]), r.limbs.data() + r.offsets[e]);
    });
}

}  // namespace

void send_values(const fmpz* values, std::size_t count, int to, MPI_Comm comm, double expected_seconds)
{
    const Ragged r = ragged(values, count);
    send_array(r.sizes.data(), count, MPI_INT64_T, to, comm, expected_seconds);
    send_array(r.limbs.data(), r.limbs.size(), MPI_UINT64_T, to, comm, expected_seconds);
}

void receive_values(fmpz* values, std::size_t count, int from, MPI_Comm comm, double expected_seconds)
{
    Ragged r(count);
    receive_array(r.sizes.data(), count, MPI_INT64_T, from, comm, expected_seconds);
    r.set_offsets();
    receive_array(r.limbs.data(), r.limbs.size(), MPI_UINT64_T, from, comm, expected_seconds);
    unragged(r, values);
}

void broadcast_values(fmpz* values, std::size_t count, int root, MPI_Comm comm)
{
    const bool on_root = rank_of(comm).rank == root;
    Ragged r = on_root ? ragged(values, count) : Ragged(count);
    broadcast_array(r.sizes.data(), count, MPI_INT64_T, root, comm);
    if (!on_root) r.set_offsets();
    broadcast_array(r.limbs.data(), r.limbs.size(), MPI_UINT64_T, root, comm);
    if (!on_root) unragged(r, values);
}

void broadcast_batch(LimbBatch& batch, int root, MPI_Comm comm)
{
    const int rank = rank_of(comm).rank;
    std::uint64_t shape[2] = {batch.count(), batch.stride()};
    broadcast(shape, 2, MPI_UINT64_T, root, comm, "broadcasting values");
    if (rank != root) batch = LimbBatch(std::size_t(shape[0]), std::uint32_t(shape[1]));
    broadcast_array(batch.sizes().data(), batch.count(), MPI_INT32_T, root, comm);
    broadcast_array(batch.limbs().data(), batch.limbs().size(), MPI_UINT64_T, root, comm);
}

}  // namespace zgpu::mpi
