// a x = den b and a^-1 = x / den over the ranks of a communicator (zgpu_mpi.h), with
// zgpu_fmpz_mat_solve's and zgpu_fmpz_mat_inv's answers: for more than 15 rows, det(a) over the
// ranks (det_over_ranks.hpp), then Cramer's numerators adj(a) b (adj(a) for the inverse) modulo
// primes that do not divide it, split over the ranks on the frame of values_over_ranks.hpp (on a
// GPU the plugin's adjugate times b, on the host a solution modulo each prime times det), and on
// the root den = |det| / g and x = sign(det) adj(a) b / g for g their gcd (fmpz_mat_cramer.hpp).
// Up to 15 rows, FLINT's function on the root.
#include <string>

#include <flint/fmpz_mat.h>
#include <flint/nmod_mat.h>
#include <flint/ulong_extras.h>

#include "adapters/batch_reader.hpp"
#include "base/parallel.hpp"
#include "plugin/flint/fmpz_mat_entries.hpp"
#include "plugin/flint/fmpz_mat_temp.hpp"
#include "plugin/matrix/fmpz_mat_cramer.hpp"
#include "plugin/matrix/fmpz_mat_solve.hpp"
#include "plugin/matrix/mat_choice.hpp"
#include "plugin/modular/fmpz_temp.hpp"
#include "plugin/mpi/det_over_ranks.hpp"
#include "plugin/mpi/mpi_values.hpp"
#include "plugin/mpi/rank_parts.hpp"
#include "plugin/mpi/values_over_ranks.hpp"
#include "zgpu/error.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/mpi.hpp"

namespace zgpu::mpi {
namespace {

// The identity of order n, packed: the inverse's right-hand side on a host without a GPU.
LimbBatch identity(std::size_t n)
{
    LimbBatch one(n * n, 1);
    for (std::size_t i = 0; i < n; ++i) one.limbs()[i * (n + 1)] = 1, one.sizes()[i * (n + 1)] = 1;
    return one;
}

// What every rank needs of a system: a as the determinant reads it; b's columns, its largest
// entries' bits and its entries packed (the identity's for the inverse); and Cramer's bound on
// the numerators (for more than 15 rows).
struct SolveInput {
    bool inverse = false;
    DetInput a;
    std::uint64_t cols = 0, b_bits = 0, numerator_bits = 0;
    LimbBatch b;

    void broadcast(int root, MPI_Comm comm)
    {
        a.broadcast(root, comm);
        std::uint64_t shape[4] = {inverse, cols, b_bits, numerator_bits};
        mpi::broadcast(shape, 4, MPI_UINT64_T, root, comm, "broadcasting the input");
        inverse = shape[0] != 0, cols = shape[1], b_bits = shape[2], numerator_bits = shape[3];
        if (numerator_bits == 0) return;
        if (!inverse) broadcast_batch(b, root, comm);
        else if (rank_of(comm).rank != root) b = identity(std::size_t(a.n));  // the root read it
    }
    matrix::ZMatrix b_operand() const
    {
        const std::size_t n = std::size_t(a.n), c = std::size_t(cols);
        return {host_operand(adapters::BatchReader(b.view()), n * c, "b"), n, c, b_bits};
    }
    // Whether FLINT answers on the root: up to 15 rows (where FLINT's den is not the lcm of the
    // denominators), no columns, or a zero row (singular).
    bool flint_answers() const { return a.n <= matrix::kSolveAboveRows || cols == 0 || a.bound == 0; }
};

// a and b (NULL for the inverse) on the rank that holds them: checked and packed.
SolveInput read_system(const std::string& function, const fmpz_mat_struct* a, const fmpz_mat_struct* b, bool inverse)
{
    if (!inverse && !b) throw Error(function + ": b is NULL");
    SolveInput in;
    in.inverse = inverse;
    in.a = DetInput::read(function, a);
    if (!inverse && b->r != a->r)
        throw Error(function + ": b has " + std::to_string(b->r) + " rows and a " + std::to_string(a->r) + ": they must be equal");
    in.cols = inverse ? in.a.n : std::uint64_t(b->c);
    if (in.flint_answers()) return in;
    // The inverse's numerators are (n - 1)-minors of a: below Hadamard's bound, each row nonzero.
    in.numerator_bits = inverse ? in.a.bound : matrix::solve_bounds(a, b).numerator_bits;
    in.b_bits = inverse ? 1 : fmpz_mat_bits(b);
    in.b = inverse ? identity(std::size_t(in.a.n)) : adapters::pack_fmpz_vec(RowMajor(b).entries(), std::size_t(in.a.n * in.cols), "b");
    return in;
}

// adj(a) b modulo each prime of a group, from a's residues (x) and b's (y): a solution modulo
// each (none divides det), times det.
ResidueBatch numerators_modulo(const std::string& function, const ResidueBatch& x, const ResidueBatch& y, std::size_t n, std::size_t cols,
                               const fmpz_t det)
{
    ResidueBatch numerators(x.prime_set(), n * cols, Backend::cpu);
    const std::span<const limb_t> primes = x.prime_set().moduli();
    parallel_for(primes.size(), 1, [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i) {
            nmod_mat_t a, b, solution;
            nmod_mat_init(a, slong(n), slong(n), primes[i]);
            nmod_mat_init(b, slong(n), slong(cols), primes[i]);
            nmod_mat_init(solution, slong(n), slong(cols), primes[i]);
            for (std::size_t e = 0; e < n * n; ++e) nmod_mat_entry(a, e / n, e % n) = x.data()[i * x.prime_stride() + e];
            for (std::size_t e = 0; e < n * cols; ++e) nmod_mat_entry(b, e / cols, e % cols) = y.data()[i * y.prime_stride() + e];
            const int solved = nmod_mat_solve(solution, a, b);
            const ulong d = fmpz_fdiv_ui(det, primes[i]);
            for (std::size_t e = 0; e < n * cols; ++e)
                numerators.data()[i * numerators.prime_stride() + e] =
                    n_mulmod2_preinv(nmod_mat_entry(solution, e / cols, e % cols), d, a->mod.n, a->mod.ninv);
            nmod_mat_clear(a);
            nmod_mat_clear(b);
            nmod_mat_clear(solution);
            if (!solved) throw Error(function + ": internal error: a singular modulo a prime that does not divide det(a)");
        }
    });
    return numerators;
}

// Cramer's numerators modulo the product of mine's primes, in [0, that product).
void numerators_part(const std::string& function, fmpz* values, const SolveInput& in, const fmpz_t det, const PrimeSet& mine,
                     Backend where, const PrimesDone& done)
{
    const std::size_t n = std::size_t(in.a.n), cols = std::size_t(in.cols);
    const matrix::ZMatrix b = in.b_operand();
    const matrix::ZMatrix a = in.a.matrix();
    const matrix::ZMatrix* right = in.inverse ? nullptr : &b;  // the GPU's adjugate alone for the inverse
    const auto on_gpu = [&](const PrimeSet& group, const HostResult& result) { return matrix::gpu_fmpz_mat_cramer(a, right, group, result); };
    if (where == Backend::gpu && part_on_gpu(values, n * cols, mine, on_gpu, done)) return;
    part_on_host(values, n * cols, mine, in.a.entries, in.b,
                 [&](const ResidueBatch& x, const ResidueBatch& y) { return numerators_modulo(function, x, y, n, cols, det); }, done);
}

// FLINT's answer on the root: x's entries into values, den into common.
int flint_on_root(fmpz* values, fmpz_t common, const fmpz_mat_struct* a, const fmpz_mat_struct* b, slong cols)
{
    FmpzMatTemp x(a->r, cols);
    const int answer = b ? ::fmpz_mat_solve(x.get(), common, a, b) : ::fmpz_mat_inv(x.get(), common, a);
    for (slong i = 0; i < a->r; ++i)
        for (slong j = 0; j < cols; ++j) fmpz_swap(values + i * cols + j, fmpz_mat_entry(x.get(), i, j));
    return answer;
}

// Both entry points: a x = den b, or x / den = a^-1 where b is NULL (`inverse`); answer, x and
// den where the result goes. x_name names x in errors.
void system_over_ranks(const std::string& function, const char* x_name, int* answer_out, fmpz_mat_struct* x, fmpz_t den,
                       const fmpz_mat_struct* a, const fmpz_mat_struct* b, bool inverse, Where input, Where result, int root,
                       MPI_Comm comm)
{
    comm = begin_call(function, x, x_name, input, result, root, comm);
    const RankOf me = rank_of(comm);
    const bool writes = result == Where::all || me.rank == root;
    const char* answer_name = inverse ? "invertible" : "nonsingular";
    on_every_rank(comm, [&] {
        if (writes && (!answer_out || !den)) throw Error(function + ": " + (!answer_out ? answer_name : "den") + " is NULL");
    });
    const SolveInput in = input_on_every_rank<SolveInput>(input, root, comm, [&] { return read_system(function, a, b, inverse); });
    on_every_rank(comm, [&] {
        if (writes && (std::uint64_t(x->r) != in.a.n || std::uint64_t(x->c) != in.cols))
            throw Error(function + ": " + x_name + " is " + std::to_string(x->r) + " x " + std::to_string(x->c) + ", not " +
                        std::to_string(in.a.n) + " x " + std::to_string(in.cols));
    });
    const std::size_t n = std::size_t(in.a.n), cols = std::size_t(in.cols), count = n * cols;
    FmpzVecTemp values(count);
    FmpzTemp common;
    int answer = 0;
    if (in.flint_answers()) {
        on_every_rank(comm, [&] {
            if (me.rank != root) return;
            answer = flint_on_root(values.data(), common.get(), a, inverse ? nullptr : b, slong(cols));
            if (!answer) fmpz_zero(common.get());  // singular: den = 0 and x untouched on every path
        });
        set_last_backend(Backend::cpu);
        broadcast(&answer, 1, MPI_INT, root, comm, "broadcasting the answer");
    } else {
        FmpzTemp det;
        det_over_ranks(det.get(), function, in.a, root, comm);
        broadcast_fmpz(det.get(), root, comm);
        // Singular, decided exactly: FLINT returns 0 too; den = 0, x untouched.
        answer = !fmpz_is_zero(det.get());
        if (answer) {
            const PrimeSet primes = matrix::primes_not_dividing(det.get(), in.numerator_bits);
            const std::string call = (inverse ? "fmpz_mat_inv, " : "fmpz_mat_solve, ") + std::to_string(n) + " x " + std::to_string(n) +
                                     (inverse ? "" : " by " + std::to_string(cols) + " columns") + ", Cramer's numerators";
            values_over_ranks(values.data(), count,
                              {function, call, in.numerator_bits, matrix::flint_solve_by_primes_seconds(n, cols, in.numerator_bits), &primes},
                              root, comm, [&](fmpz* part, const PrimeSet& mine, Backend where, const PrimesDone& done) {
                                  numerators_part(function, part, in, det.get(), mine, where, done);
                              });
            if (me.rank == root) matrix::solution_from_numerators(values.data(), count, det.get(), common.get());
        }
    }
    if (answer) deliver_values(values.data(), count, result, root, comm);
    deliver(den, common.get(), result, root, comm);
    if (!writes) return;
    *answer_out = answer;
    if (!answer) return;
    for (std::size_t e = 0; e < count; ++e) fmpz_swap(fmpz_mat_entry(x, slong(e / cols), slong(e % cols)), values.data() + e);
}

}  // namespace

void fmpz_mat_solve(int* nonsingular, fmpz_mat_t x, fmpz_t den, const fmpz_mat_t a, const fmpz_mat_t b, Where input, Where result,
                    int root, MPI_Comm comm)
{
    system_over_ranks("mpi_fmpz_mat_solve", "x", nonsingular, x, den, a, b, false, input, result, root, comm);
}

void fmpz_mat_inv(int* invertible, fmpz_mat_t b, fmpz_t den, const fmpz_mat_t a, Where input, Where result, int root, MPI_Comm comm)
{
    system_over_ranks("mpi_fmpz_mat_inv", "b", invertible, b, den, a, nullptr, true, input, result, root, comm);
}

}  // namespace zgpu::mpi
