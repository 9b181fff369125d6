// Products over Z over the ranks of a communicator (zgpu_mpi.h) on the frame of
// values_over_ranks.hpp: the bound on the product's coefficients or entries, and each rank's
// share of its primes by the plugin's own GPU products (the polynomial product's transforms, the
// matrix product's bands) or, on a rank without a GPU, by zgpu's device-resident layer on the
// host, a group of primes at a time.
#include <gmp.h>

#include <algorithm>
#include <string>

#include "adapters/batch_reader.hpp"
#include "plugin/flint/fmpz_mat_entries.hpp"
#include "plugin/matrix/fmpz_mat_mul.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/poly_pair.hpp"
#include "plugin/mpi/rank_parts.hpp"
#include "plugin/mpi/values_over_ranks.hpp"
#include "plugin/poly/poly_choice.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/mpi.hpp"
#include "zgpu/residue_batch.hpp"
#include "zgpu/residue_matrix.hpp"
#include "zgpu/residue_poly.hpp"

namespace zgpu::mpi {
namespace {

const std::string kPolyFunction = "mpi_fmpz_poly_mul", kMatFunction = "mpi_fmpz_mat_mul";

// a * b modulo the product of mine's primes, in [0, that product).
void poly_part(fmpz* values, const PolyPair& in, const PrimeSet& mine, Backend where, const PrimesDone& done)
{
    const std::size_t count = std::size_t(in.a_length + in.b_length - 1);
    const poly::ZPoly a = in.a_operand(), b = in.b_operand();
    const auto on_gpu = [&](const PrimeSet& group, const HostResult& result) { return poly::gpu_product_modulo(a, b, count, group, result); };
    if (where == Backend::gpu && part_on_gpu(values, count, mine, on_gpu, done)) return;
    // No GPU, or no transform fits it.
    part_on_host(values, count, mine, in.a, in.b, [](const ResidueBatch& x, const ResidueBatch& y) {
        ResidueBatch product(x.prime_set(), 0, Backend::cpu);
        poly_mul(product, x, y);
        return product;
    }, done);
}

// Two matrices over Z as every rank needs them: their shapes, their largest entries' bits and
// their entries packed, row by row.
struct MatPair {
    std::uint64_t rows = 0, inner = 0, cols = 0, a_bits = 0, b_bits = 0;
    LimbBatch a, b;

    // The root's on every rank.
    void broadcast(int root, MPI_Comm comm)
    {
        std::uint64_t shape[5] = {rows, inner, cols, a_bits, b_bits};
        mpi::broadcast(shape, 5, MPI_UINT64_T, root, comm, "broadcasting the input");
        rows = shape[0], inner = shape[1], cols = shape[2], a_bits = shape[3], b_bits = shape[4];
        if (a_bits == 0 || b_bits == 0) return;
        broadcast_batch(a, root, comm);
        broadcast_batch(b, root, comm);
    }
    matrix::ZMatrix a_operand() const { return operand(a, rows, inner, a_bits, "a"); }
    matrix::ZMatrix b_operand() const { return operand(b, inner, cols, b_bits, "b"); }

private:
    static matrix::ZMatrix operand(const LimbBatch& entries, std::uint64_t rows, std::uint64_t cols, std::uint64_t bits, const char* name)
    {
        const std::size_t r = std::size_t(rows), c = std::size_t(cols);
        return {host_operand(adapters::BatchReader(entries.view()), r * c, name), r, c, bits};
    }
};

// a and b on the rank that holds them: checked and packed (nothing where the product is zero or
// empty).
MatPair read_mats(const fmpz_mat_struct* a, const fmpz_mat_struct* b)
{
    if (!a || !b) throw Error(kMatFunction + ": " + (!a ? "a" : "b") + " is NULL");
    if (a->c != b->r)
        throw Error(kMatFunction + ": a is " + std::to_string(a->r) + " x " + std::to_string(a->c) + " and b " + std::to_string(b->r) +
                    " x " + std::to_string(b->c) + ": a's columns must be b's rows");
    MatPair in;
    in.rows = std::uint64_t(a->r), in.inner = std::uint64_t(a->c), in.cols = std::uint64_t(b->c);
    in.a_bits = fmpz_mat_bits(a), in.b_bits = fmpz_mat_bits(b);
    if (in.a_bits == 0 || in.b_bits == 0 || in.rows == 0 || in.cols == 0) {
        in.a_bits = in.b_bits = 0;
        return in;
    }
    in.a = adapters::pack_fmpz_vec(RowMajor(a).entries(), std::size_t(in.rows * in.inner), "a");
    in.b = adapters::pack_fmpz_vec(RowMajor(b).entries(), std::size_t(in.inner * in.cols), "b");
    return in;
}

// a * b modulo the product of mine's primes, in [0, that product).
void mat_part(fmpz* values, const MatPair& in, const PrimeSet& mine, Backend where, const PrimesDone& done)
{
    const std::size_t rows = std::size_t(in.rows), inner = std::size_t(in.inner), cols = std::size_t(in.cols);
    const matrix::ZMatrix a = in.a_operand(), b = in.b_operand();
    const auto on_gpu = [&](const PrimeSet& group, const HostResult& result) {
        matrix::gpu_fmpz_mat_product(a, b, group, result);
        return true;
    };
    if (where == Backend::gpu && part_on_gpu(values, rows * cols, mine, on_gpu, done)) return;
    part_on_host(values, rows * cols, mine, in.a, in.b, [&](const ResidueBatch& x, const ResidueBatch& y) {
        ResidueBatch product(x.prime_set(), 0, Backend::cpu);
        mat_mul(product, x, y, rows, inner, cols);
        return product;
    }, done);
}

}  // namespace

void fmpz_poly_mul(fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b, Where input, Where result, int root, MPI_Comm comm)
{
    comm = begin_call(kPolyFunction, res, "res", input, result, root, comm);
    const PolyPair in = input_on_every_rank<PolyPair>(input, root, comm, [&] {
        return PolyPair::read(kPolyFunction, a, b, [](const PolyPair& pair, const fmpz_poly_struct*, const fmpz_poly_struct*) {
            return poly::fmpz_product_bits(pair.a_length, pair.b_length, pair.a_bits, pair.b_bits);
        });
    });
    if (in.bound == 0) {  // a zero polynomial's product: the host's answer
        set_last_backend(Backend::cpu);
        if (result == Where::all || rank_of(comm).rank == root) fmpz_poly_zero(res);
        return;
    }
    const std::size_t count = std::size_t(in.a_length + in.b_length - 1);
    FmpzVecTemp values(count);
    const std::string call = "fmpz_poly_mul, " + std::to_string(in.a_length) + " x " + std::to_string(in.b_length) +
                             " coefficients of " + std::to_string(in.a_bits) + " x " + std::to_string(in.b_bits) + " bits";
    const double flint_seconds = poly::flint_fmpz_seconds(poly::fmpz_product_shape(in.a_length, in.b_length, count, in.a_bits, in.b_bits));
    values_over_ranks(values.data(), count, {kPolyFunction, call, in.bound, flint_seconds}, root, comm,
                      [&](fmpz* part, const PrimeSet& mine, Backend where, const PrimesDone& done) { poly_part(part, in, mine, where, done); });
    deliver_values(values.data(), count, result, root, comm);
    if (result == Where::root && rank_of(comm).rank != root) return;
    fmpz_poly_fit_length(res, slong(count));
    for (std::size_t e = 0; e < count; ++e) fmpz_swap(res->coeffs + e, values.data() + e);
    _fmpz_poly_set_length(res, slong(count));  // over Z the top coefficient of a product of nonzero polynomials is nonzero
}

void fmpz_mat_mul(fmpz_mat_t c, const fmpz_mat_t a, const fmpz_mat_t b, Where input, Where result, int root, MPI_Comm comm)
{
    comm = begin_call(kMatFunction, c, "c", input, result, root, comm);
    const MatPair in = input_on_every_rank<MatPair>(input, root, comm, [&] { return read_mats(a, b); });
    const bool writes = result == Where::all || rank_of(comm).rank == root;
    on_every_rank(comm, [&] {
        if (writes && (std::uint64_t(c->r) != in.rows || std::uint64_t(c->c) != in.cols))
            throw Error(kMatFunction + ": c is " + std::to_string(c->r) + " x " + std::to_string(c->c) + ", not " +
                        std::to_string(in.rows) + " x " + std::to_string(in.cols));
    });
    if (in.a_bits == 0) {  // a zero or empty product: the host's answer
        set_last_backend(Backend::cpu);
        if (writes) fmpz_mat_zero(c);
        return;
    }
    const std::size_t count = std::size_t(in.rows * in.cols);
    FmpzVecTemp values(count);
    const std::string call = "fmpz_mat_mul, " + std::to_string(in.rows) + " x " + std::to_string(in.inner) + " times " +
                             std::to_string(in.inner) + " x " + std::to_string(in.cols) + ", " + std::to_string(in.a_bits) + " x " +
                             std::to_string(in.b_bits) + " bits";
    const matrix::ZMatrix x = in.a_operand(), y = in.b_operand();
    values_over_ranks(values.data(), count, {kMatFunction, call, matrix::product_bits(x, y), matrix::flint_fmpz_mat_seconds(x, y)},
                      root, comm,
                      [&](fmpz* part, const PrimeSet& mine, Backend where, const PrimesDone& done) { mat_part(part, in, mine, where, done); });
    deliver_values(values.data(), count, result, root, comm);
    if (!writes) return;
    const std::size_t cols = std::size_t(in.cols);
    for (std::size_t e = 0; e < count; ++e) fmpz_swap(fmpz_mat_entry(c, slong(e / cols), slong(e % cols)), values.data() + e);
}

}  // namespace zgpu::mpi
