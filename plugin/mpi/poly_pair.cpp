#include "plugin/mpi/poly_pair.hpp"

#include <cstdlib>

#include "adapters/batch_reader.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/rank_outcome.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"

namespace zgpu::mpi {
namespace {

std::uint64_t coefficient_bits(const fmpz_poly_struct* p) { return std::uint64_t(std::llabs(fmpz_poly_max_bits(p))); }

poly::ZPoly operand(const LimbBatch& coeffs, std::uint64_t length, std::uint64_t bits, const char* name)
{
    return {host_operand(adapters::BatchReader(coeffs.view()), std::size_t(length), name), std::size_t(length), bits};
}

}  // namespace

PolyPair PolyPair::read(const std::string& function, const fmpz_poly_struct* a, const fmpz_poly_struct* b, const BoundOf& bound_of)
{
    if (!a || !b) throw Error(function + ": " + (!a ? "a" : "b") + " is NULL");
    PolyPair in;
    in.a_length = std::uint64_t(a->length), in.b_length = std::uint64_t(b->length);
    if (in.a_length == 0 || in.b_length == 0) return in;
    in.a_bits = coefficient_bits(a), in.b_bits = coefficient_bits(b);
    in.bound = bound_of(in, a, b);
    in.a = adapters::pack_fmpz_vec(a->coeffs, std::size_t(in.a_length), "a");
    in.b = adapters::pack_fmpz_vec(b->coeffs, std::size_t(in.b_length), "b");
    return in;
}

void PolyPair::broadcast(int root, MPI_Comm comm)
{
    std::uint64_t shape[5] = {a_length, b_length, a_bits, b_bits, bound};
    mpi::broadcast(shape, 5, MPI_UINT64_T, root, comm, "broadcasting the input");
    a_length = shape[0], b_length = shape[1], a_bits = shape[2], b_bits = shape[3], bound = shape[4];
    if (bound == 0) return;
    broadcast_batch(a, root, comm);
    broadcast_batch(b, root, comm);
}

poly::ZPoly PolyPair::a_operand() const { return operand(a, a_length, a_bits, "a"); }
poly::ZPoly PolyPair::b_operand() const { return operand(b, b_length, b_bits, "b"); }

}  // namespace zgpu::mpi
