#include "plugin/mpi/mpi_values.hpp"

#include <gmp.h>

#include <algorithm>
#include <cstdint>

#include "plugin/mpi/rank_outcome.hpp"
#include "zgpu/fmpz_adapter.hpp"

namespace zgpu::mpi {
namespace {

// MPI counts are ints: long arrays go in pieces.
constexpr std::size_t kPieceWords = std::size_t(1) << 30;

template <class T>
void send_array(const T* data, std::size_t count, MPI_Datatype type, int to, MPI_Comm comm)
{
    for (std::size_t at = 0; at < count; at += kPieceWords)
        send(data + at, int(std::min(kPieceWords, count - at)), type, to, comm, "sending values");
}

template <class T>
void receive_array(T* data, std::size_t count, MPI_Datatype type, int from, MPI_Comm comm)
{
    for (std::size_t at = 0; at < count; at += kPieceWords)
        receive(data + at, int(std::min(kPieceWords, count - at)), type, from, comm, "receiving values");
}

template <class T>
void broadcast_array(T* data, std::size_t count, MPI_Datatype type, int root, MPI_Comm comm)
{
    for (std::size_t at = 0; at < count; at += kPieceWords)
        broadcast(data + at, int(std::min(kPieceWords, count - at)), type, root, comm, "broadcasting values");
}

// x as a batch of one value of the stride its size needs.
LimbBatch one_value(const fmpz_t x) { return adapters::pack_fmpz_vec(x, 1, "a value sent between ranks"); }

}  // namespace

void send_batch(const LimbBatch& batch, int to, MPI_Comm comm)
{
    const std::uint64_t shape[2] = {batch.count(), batch.stride()};
    send(shape, 2, MPI_UINT64_T, to, comm, "sending values");
    send_array(batch.sizes().data(), batch.count(), MPI_INT32_T, to, comm);
    send_array(batch.limbs().data(), batch.limbs().size(), MPI_UINT64_T, to, comm);
}

LimbBatch receive_batch(int from, MPI_Comm comm)
{
    std::uint64_t shape[2] = {0, 1};
    receive(shape, 2, MPI_UINT64_T, from, comm, "receiving values");
    LimbBatch batch{std::size_t(shape[0]), std::uint32_t(shape[1])};
    receive_array(batch.sizes().data(), batch.count(), MPI_INT32_T, from, comm);
    receive_array(batch.limbs().data(), batch.limbs().size(), MPI_UINT64_T, from, comm);
    return batch;
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

void send_fmpz(const fmpz_t x, int to, MPI_Comm comm) { send_batch(one_value(x), to, comm); }

void receive_fmpz(fmpz_t x, int from, MPI_Comm comm) { adapters::unpack_fmpz_vec(receive_batch(from, comm).view(), x); }

void broadcast_fmpz(fmpz_t x, int root, MPI_Comm comm)
{
    const int rank = rank_of(comm).rank;
    LimbBatch value = rank == root ? one_value(x) : LimbBatch();
    broadcast_batch(value, root, comm);
    if (rank != root) adapters::unpack_fmpz_vec(value.view(), x);
}

}  // namespace zgpu::mpi
