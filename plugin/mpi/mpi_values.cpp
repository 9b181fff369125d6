#include "plugin/mpi/mpi_values.hpp"

#include <gmp.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "plugin/mpi/rank_outcome.hpp"
#include "zgpu/fmpz_adapter.hpp"

namespace zgpu::mpi {
namespace {

// MPI counts are ints: long arrays go in pieces.
constexpr std::size_t kPieceWords = std::size_t(1) << 30;

void send_words(const limb_t* words, std::size_t count, int to, MPI_Comm comm)
{
    for (std::size_t at = 0; at < count; at += kPieceWords)
        send(words + at, int(std::min(kPieceWords, count - at)), MPI_UINT64_T, to, comm, "sending a value");
}

void receive_words(limb_t* words, std::size_t count, int from, MPI_Comm comm)
{
    for (std::size_t at = 0; at < count; at += kPieceWords)
        receive(words + at, int(std::min(kPieceWords, count - at)), MPI_UINT64_T, from, comm, "receiving a value");
}

template <class T>
void broadcast_array(T* data, std::size_t count, MPI_Datatype type, int root, MPI_Comm comm)
{
    for (std::size_t at = 0; at < count; at += kPieceWords)
        broadcast(data + at, int(std::min(kPieceWords, count - at)), type, root, comm, "broadcasting the input");
}

// x as a batch of one value of the stride its size needs.
LimbBatch one_value(const fmpz_t x) { return adapters::pack_fmpz_vec(x, 1, "a value sent between ranks"); }

}  // namespace

void send_fmpz(const fmpz_t x, int to, MPI_Comm comm)
{
    const LimbBatch value = one_value(x);
    const std::int64_t size = value.sizes()[0];
    send(&size, 1, MPI_INT64_T, to, comm, "sending a value");
    send_words(value.limbs().data(), std::size_t(std::llabs(size)), to, comm);
}

void receive_fmpz(fmpz_t x, int from, MPI_Comm comm)
{
    std::int64_t size = 0;
    receive(&size, 1, MPI_INT64_T, from, comm, "receiving a value");
    const std::size_t limbs = std::size_t(std::llabs(size));
    LimbBatch value(1, size_class(std::uint32_t(std::max<std::size_t>(limbs, 1))));
    receive_words(value.limbs().data(), limbs, from, comm);
    value.sizes()[0] = std::int32_t(size);
    adapters::unpack_fmpz_vec(value.view(), x);
}

void broadcast_fmpz(fmpz_t x, int root, MPI_Comm comm)
{
    const int rank = rank_of(comm).rank;
    LimbBatch value = rank == root ? one_value(x) : LimbBatch();
    broadcast_batch(value, root, comm);
    if (rank != root) adapters::unpack_fmpz_vec(value.view(), x);
}

void broadcast_batch(LimbBatch& batch, int root, MPI_Comm comm)
{
    const int rank = rank_of(comm).rank;
    std::uint64_t shape[2] = {batch.count(), batch.stride()};
    broadcast(shape, 2, MPI_UINT64_T, root, comm, "broadcasting the input");
    if (rank != root) batch = LimbBatch(std::size_t(shape[0]), std::uint32_t(shape[1]));
    broadcast_array(batch.sizes().data(), batch.count(), MPI_INT32_T, root, comm);
    broadcast_array(batch.limbs().data(), batch.limbs().size(), MPI_UINT64_T, root, comm);
}

}  // namespace zgpu::mpi
