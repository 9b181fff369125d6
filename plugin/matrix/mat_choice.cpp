#include "plugin/matrix/mat_choice.hpp"

#include <algorithm>
#include <cmath>

#include "base/settings.hpp"
#include "plugin/gpu/matrix_backend.hpp"
#include "plugin/matrix/fmpz_mat_det.hpp"
#include "plugin/matrix/fmpz_mat_solve.hpp"
#include "plugin/host_ops/machine_terms.hpp"

namespace zgpu::matrix {
namespace {

// FLINT 3.6's nmod_mat_mul on the H200 host (bench/results/2026-11-26-h200-matrix-first.md): on one
// thread about 8e-10 s a multiply-add modulo a 62-bit prime from 64 x 64 to 1024 x 1024 (5e-10
// at 2048, where Strassen starts), and 1.4 times less for a 20-bit modulus; on 32 threads 14 to
// 20 times faster from 256 x 256 and 4 times at 128 x 128 (1.6 ms on one), but slower than one
// thread at 64 x 64 (0.25 ms): the threads' start costs 0.2 to 0.3 ms.
constexpr double kFlintSecondsPerTerm = 8e-10;
constexpr double kFlintSmallModulusSpeedup = 1.4;
constexpr double kFlintThreadShare = 0.55;
constexpr double kFlintThreadedFromSeconds = 1e-3;
constexpr double kFlintThreadedAtLeastSeconds = 0.3e-3;

// The GPU path on the H200: about 0.1 ms a call (launch, synchronisation, host copies), the
// three matrices through pinned memory and PCIe at about 30 GB/s in all, and the kernel's
// multiply-adds (machine_terms.hpp).
constexpr double kGpuSecondsPerCall = 0.1e-3;
constexpr double kGpuBytesPerSecond = 30e9;

// The determinants' model.
namespace determinants {

// FLINT 3.6's fmpz_mat_det (one thread whatever it is given) on the H200 host
// (bench/results/2026-11-26-h200-matrix-det-3eca5f2.md): 20 x 20 of 64-bit entries 0.49 ms, and
// about (n / 20)^2.4 times that at n x n (4.6 ms at 50, 121 ms at 200, 892 ms at 400); about
// (b / 64)^1.6 times more for b bits an entry of the bound (100 x 100 of 1024 bits: 1.54 s).
constexpr double kFlintSeconds20x64 = 0.49e-3;
constexpr double kFlintSizeExponent = 2.4, kFlintBitsExponent = 1.6;
// The GPU (bench/results/2026-11-26-h200-det-ecce7e2.md): about 0.45 ms a call; 9 microseconds a
// column (a pivot's search, inversion and three synchronisations) for each wave of matrices the
// GPU holds at once (four blocks on each of the H200's 132 SMs); and 2.1e-12 s an elimination
// step n^3 / 3 a prime (400 x 400 modulo 439 primes: 19.9 ms; 300 x 300 modulo 4975: 91 ms).
constexpr double kGpuSecondsPerCall = 0.45e-3;
constexpr double kGpuSecondsPerColumn = 9e-6;
constexpr double kSms = 132;
constexpr double kGpuMatricesAtOnce = 4 * kSms;
constexpr double kGpuSecondsPerStepPrime = 2.1e-12;
constexpr double kPrimeBits = 62;

// det_mod with fewer primes than the SMs: a block alone on an SM took 2.9e9 steps a second
// (1000 x 1000 modulo 19 primes: 114 ms; 600 modulo 15: 28.7 ms); four blocks an SM together
// 3.6e9 (the rate above).
constexpr double kStepsPerSecondAlone = 2.9e9, kStepsPerSecondFour = 3.6e9;

// Block recursion, all primes at once (bench_matrix's "both ways" rows): 0.55 ms for every 32
// rows (launches, temporaries, the small blocks' eliminations), and about n^3 multiply-adds a
// matrix, at 4.2e-13 s from 600 rows (the products on the tensor cores) and 3.5e-12 below (100
// rows modulo 1657 primes: 7.9 ms, where det_mod took about 5); at 2.5e-13 from 1500 rows, the
// products' tiles fuller (2000 x 2000 modulo 8452 primes: 17.2 s with the reduction and the
// CRT, results/2026-11-30-2xh200-mpi/run32).
constexpr double kRecursionSecondsPer32Rows = 0.55e-3;
constexpr double kRecursionSecondsPerTermHuge = 2.5e-13, kRecursionSecondsPerTermLarge = 4.2e-13,
                 kRecursionSecondsPerTermSmall = 3.5e-12;
constexpr std::size_t kRecursionLargeFrom = 600, kRecursionHugeFrom = 1500;

// The determinant by a divisor (bench_matrix, 400 to 1000 rows of 64-bit entries): a lifting
// step 8.4 microseconds of two launches, and the inverse and a's residues read at 3e12 bytes a
// second (11.1 and 16.8 microseconds measured at 400 and 1000 rows); the host's reconstruction
// of two entries 2.2e-7 s a bit of the modulus (31 ms at 1000 rows); the quotient's primes about
// 0.72 n + 64 bits (Hadamard's bound exceeds a random determinant by about (n / 2) log2(e) bits).
constexpr double kLiftSecondsPerStep = 8.4e-6, kLiftBytesPerSecond = 3e12;
constexpr double kReconstructSecondsPerBit = 2.2e-7;
constexpr double kQuotientBitsPerRow = 0.72, kQuotientExtraBits = 64;

// Solutions (estimates from one measured row and the determinant's terms): FLINT 3.6's
// fmpz_mat_solve took 4.1 to 5.1 s for 500 x 500 of 64-bit entries and one column on 16 threads
// (its lifting's steps grow with n times the bits, each step with n^2 cols); the host's part of
// an entry here about 2.2e-8 s a bit of the lifting's modulus (its digits' value, a product and
// a remainder: 3.1 ms at 138,500 bits on the development machine).
constexpr double kFlintSolveSeconds500 = 4.5;
constexpr double kSolveHostSecondsPerEntryBit = 2.2e-8;

// The lifting keeps every digit on the device and in pinned memory until its end: at most this
// many bytes of them (1000 x 1000 by 32 columns: 0.87 GB).
constexpr double kLiftDigitsMaxBytes = double(std::uint64_t(1) << 30);

}  // namespace determinants

// The LU's model (nmod_mat_det, nmod_mat_rank).
namespace lu {

// FLINT 3.6's nmod_mat_det and nmod_mat_rank (an LU by blocks on nmod_mat_mul) modulo a 62-bit
// prime on one thread, H200 host (bench/results/2026-11-26-h200-lu-blocks-133356f.md): 4e-10 s a
// term of rows cols min(rows, cols) at 100 x 100 (0.40 ms; 0.69 ms in the next run), 2.4e-10 at
// 1024 and 2e-10 at 2048. The model takes 3.5e-10, right where the choice is made (about 120 x
// 120). The CPU backend gives FLINT its threads from 1 ms of work. On 16 threads FLINT was 1.15
// times faster at 256, 1.7 at 512, 2.4 at 1024 and 3.4 at 2048 (its threads run the products
// inside): about 1 + log2(one thread's time / 4 ms) / 3, at most threads / 4.
constexpr double kFlintSecondsPerTerm = 3.5e-10;
constexpr double kFlintThreadsPayFromSeconds = 4e-3;
constexpr double kFlintThreadedFromSeconds = 1e-3;

// The GPU, same run: a fixed cost a call, the matrix through pinned memory and PCIe, and per
// panel of 16 columns about 65 microseconds of latency (launches, a barrier-bound block) and
// 117 ns a row below the panel's first (one block's pace; half the rows on average), 15
// microseconds more where the rank waits for each panel; the trailing updates' multiply-adds
// (machine_terms.hpp). It measured 0.28 ms at 64 x 64, 8.1 ms at 1024 and 27 ms
// at 2048.
constexpr double kGpuSecondsPerCall = 0.02e-3;
constexpr double kGpuBytesPerSecond = 10e9;
constexpr double kGpuSecondsPerPanel = 65e-6, kGpuSecondsPerRankPanel = 80e-6;
constexpr double kGpuSecondsPerPanelRow = 117e-9;

double terms(std::size_t rows, std::size_t cols) { return double(rows) * double(cols) * double(std::min(rows, cols)); }

}  // namespace lu

// The GPU's inverse by blocks (block_inverse.hpp): a leaf of 32 rows and the products of halves
// above it, about 6 launches, at the latency the LU measured for a panel's few launches. With the
// multiply-adds of one product at the IMAD rate the model gives 82 ms at 4096; the inverse
// measured 77.7 ms end to end there (H200, bench/results/2026-11-29-h200-compose/run31).
namespace inverse {
constexpr double kGpuSecondsPerLeaf = 6 * 20e-6;
}  // namespace inverse

// The model of matrix products over Z.
namespace over_z {

// FLINT 3.6's fmpz_mat_mul on one thread (issue #21's table, an H100 host): 1024^3 multiply-adds
// of 64-bit entries 2.0 s, of 1024-bit entries 28.1 s; 512^3 of 256-bit entries 1.0 s. About
// 7.5e-10 s a multiply-add a 62-bit prime of the product's bound (FLINT reduces modulo word
// primes itself), and 8 to 9 times faster on 16 threads.
constexpr double kFlintSecondsPerTermPrime = 7.5e-10;
constexpr double kFlintThreadShare = 0.55;
constexpr double kFlintThreadedFromSeconds = 2e-3;

// The GPU path: a fixed cost a call, the entries' limbs and the product's through the host's
// packing and PCIe at about 10 GB/s in all, and the multiply-adds modulo each prime
// (machine_terms.hpp), as nmod_mat_mul measured.
constexpr double kGpuSecondsPerCall = 0.3e-3;
constexpr double kGpuBytesPerSecond = 10e9;
constexpr std::uint64_t kPrimeBits = 62;

double primes_for(const ZMatrix& a, const ZMatrix& b) { return double(product_bits(a, b) + 1) / kPrimeBits + 1; }
double terms(const ZMatrix& a, const ZMatrix& b) { return double(a.rows) * double(a.cols) * double(b.cols); }
std::uint64_t words(std::uint64_t bits) { return std::max<std::uint64_t>(1, (bits + 63) / 64); }

}  // namespace over_z

double terms(const MatShape& s) { return double(s.rows) * double(s.inner) * double(s.cols); }

}  // namespace

double flint_nmod_mat_seconds(const MatShape& s)
{
    const double per_term = s.bits <= 32 ? kFlintSecondsPerTerm / kFlintSmallModulusSpeedup : kFlintSecondsPerTerm;
    return terms(s) * per_term;
}

bool cpu_uses_threads(const MatShape& s) { return flint_nmod_mat_seconds(s) >= kFlintThreadedFromSeconds; }

bool gpu_pays_for_nmod_mat_mul(const MatShape& s, unsigned threads)
{
    const double one = flint_nmod_mat_seconds(s);
    const double cpu =
        cpu_uses_threads(s) ? std::max(kFlintThreadedAtLeastSeconds, one / std::max(1.0, kFlintThreadShare * double(threads))) : one;
    const double bytes = 8.0 * double(s.rows * s.inner + s.inner * s.cols + s.rows * s.cols);
    const double gpu = kGpuSecondsPerCall + bytes / kGpuBytesPerSecond + terms(s) * machine::kGpuSecondsPerTermMod;
    return gpu < cpu;
}


double flint_det_seconds(std::size_t n, std::uint64_t bound_bits)
{
    namespace d = determinants;
    const double size = double(n), bits_per_row = std::max(1.0, double(bound_bits) / size);
    return d::kFlintSeconds20x64 * std::pow(size / 20, d::kFlintSizeExponent) *
           std::pow(bits_per_row / 64, d::kFlintBitsExponent);
}

bool gpu_pays_for_fmpz_mat_det(std::size_t n, std::uint64_t bound_bits)
{
    namespace d = determinants;
    const double size = double(n);
    const double cpu = flint_det_seconds(n, bound_bits);
    const double primes = double(bound_bits + 1) / d::kPrimeBits + 1;
    const double waves = std::ceil(primes / d::kGpuMatricesAtOnce);
    const double gpu = d::kGpuSecondsPerCall + size * d::kGpuSecondsPerColumn * waves +
                       size * size * size / 3 * primes * d::kGpuSecondsPerStepPrime;
    return gpu < cpu;
}


namespace {

// The GPU's blocked LU of a rows x cols matrix already on the device, by lu's model.
double gpu_lu_seconds(std::size_t rows, std::size_t cols, bool rank_mode)
{
    const double panels = double((cols + gpu::kLuPanelColumns - 1) / gpu::kLuPanelColumns);
    const double per_panel = (rank_mode ? lu::kGpuSecondsPerRankPanel : lu::kGpuSecondsPerPanel) +
                             double(rows) / 2 * lu::kGpuSecondsPerPanelRow;
    return panels * per_panel + lu::terms(rows, cols) / 3 * machine::kGpuSecondsPerTermMod;
}

// Determinants of n x n matrices modulo `primes` primes on the device, a block a matrix
// (det_mod): waves of kGpuMatricesAtOnce, each with up to four blocks an SM.
double det_mod_seconds(std::size_t n, double primes)
{
    namespace d = determinants;
    const double size = double(n), waves = std::ceil(primes / d::kGpuMatricesAtOnce);
    const double per_sm = std::clamp(std::ceil(std::min(primes, d::kGpuMatricesAtOnce) / d::kSms), 1.0, 4.0);
    const double rate = d::kStepsPerSecondAlone + (per_sm - 1) / 3 * (d::kStepsPerSecondFour - d::kStepsPerSecondAlone);
    return waves * (size * d::kGpuSecondsPerColumn + size * size * size / 3 * per_sm / rate);
}

// The same by block recursion, all primes at once (also the inverses).
double recursion_seconds(std::size_t n, double primes)
{
    namespace d = determinants;
    const double size = double(n);
    const double per_term = n >= d::kRecursionHugeFrom   ? d::kRecursionSecondsPerTermHuge
                            : n >= d::kRecursionLargeFrom ? d::kRecursionSecondsPerTermLarge
                                                          : d::kRecursionSecondsPerTermSmall;
    return std::ceil(size / 32) * d::kRecursionSecondsPer32Rows + primes * size * size * size * per_term;
}

}  // namespace

bool det_by_blocks(std::size_t n, std::size_t primes) { return recursion_seconds(n, double(primes)) < det_mod_seconds(n, double(primes)); }

namespace {

// Dixon's lifting of `steps` steps for n x n by cols, entries of about entry_bits bits: the
// inverses modulo its two candidate primes, then the steps, each reading the inverse and a's
// residues once a column.
double lift_seconds(std::size_t n, std::size_t cols, double entry_bits, std::size_t steps)
{
    namespace d = determinants;
    const double size = double(n), matrices_read = std::ceil((entry_bits + 64) / d::kPrimeBits) + 1;
    const double step = d::kLiftSecondsPerStep + 8 * size * size * double(cols) * matrices_read / d::kLiftBytesPerSecond;
    return recursion_seconds(n, 2) + double(steps) * step;
}

// Whether its digits, all kept until the end, fit kLiftDigitsMaxBytes.
bool lift_digits_fit(std::size_t n, std::size_t cols, std::size_t steps)
{
    return 8 * double(steps) * double(n) * double(cols) <= determinants::kLiftDigitsMaxBytes;
}

}  // namespace

bool divisor_pays_for_fmpz_mat_det(std::size_t n, std::uint64_t entry_bits, std::uint64_t bound_bits, std::size_t gpus)
{
    namespace d = determinants;
    const std::string_view forced = settings::det_algorithm();
    if (forced == "primes") return false;
    const double size = double(n), bound = double(bound_bits), split = double(std::max<std::size_t>(gpus, 1));
    const double primes = (bound + 1) / d::kPrimeBits + 1;
    const double whole_bound = std::min(det_mod_seconds(n, primes), recursion_seconds(n, primes)) / split;
    const std::size_t steps = divisor_lift_steps(n, bound_bits);
    const double quotient_primes = std::min(primes, (d::kQuotientBitsPerRow * size + d::kQuotientExtraBits) / d::kPrimeBits + 1);
    const double divisor = lift_seconds(n, 1, double(entry_bits), steps) + 61 * double(steps) * d::kReconstructSecondsPerBit +
                           std::min(det_mod_seconds(n, quotient_primes), recursion_seconds(n, quotient_primes)) / split;
    return lift_digits_fit(n, 1, steps) && (forced == "divisor" || divisor < whole_bound);
}

double flint_solve_seconds(std::size_t n, std::size_t cols, std::uint64_t denominator_bits)
{
    const double size = double(n) / 500, bits_per_row = double(denominator_bits) / std::max<double>(1, double(n)) / 69;
    return determinants::kFlintSolveSeconds500 * size * size * size * bits_per_row * double(cols);
}

bool gpu_pays_for_fmpz_mat_solve(std::size_t n, std::size_t cols, std::uint64_t numerator_bits, std::uint64_t denominator_bits,
                                 unsigned threads)
{
    namespace d = determinants;
    const std::size_t steps = solve_lift_steps({numerator_bits, denominator_bits});
    const double lift_bits = 61 * double(steps);
    const double host = double(n) * double(cols) * lift_bits * d::kSolveHostSecondsPerEntryBit / std::max(1u, threads) +
                        lift_bits * d::kReconstructSecondsPerBit;
    // a's entries have about denominator_bits / n bits.
    const double gpu = lift_seconds(n, cols, double(denominator_bits) / double(n), steps) + host;
    return lift_digits_fit(n, cols, steps) && gpu < flint_solve_seconds(n, cols, denominator_bits);
}

double flint_solve_by_primes_seconds(std::size_t n, std::size_t cols, std::uint64_t numerator_bits)
{
    // FLINT solves modulo primes for numerators and denominators (twice the bound), an LU and
    // the triangular solves for cols columns a prime, on one thread.
    const double size = double(n), primes = double(numerator_bits) / 61 + 1;
    return 2 * primes * (size * size * size / 3 + size * size * double(cols)) * lu::kFlintSecondsPerTerm;
}

bool gpu_pays_for_solve_by_primes(std::size_t n, std::size_t cols, std::uint64_t hadamard_bits, std::uint64_t numerator_bits, unsigned)
{
    const double size = double(n), cube = size * size * size, primes = double(numerator_bits) / 61 + 1;
    const double cpu = flint_solve_by_primes_seconds(n, cols, numerator_bits);
    // The determinant first (a third of an inverse, modulo the primes of a's bound), the
    // inverses, the products by b, the numerators down.
    const double gpu = lu::kGpuSecondsPerCall + (double(hadamard_bits) / 61 + 1) * cube / 3 * machine::kGpuSecondsPerTermMod +
                       primes * (cube + size * size * double(cols)) * machine::kGpuSecondsPerTermMod +
                       size * double(cols) * double(numerator_bits) / 8 / lu::kGpuBytesPerSecond;
    return n > kSolveAboveRows && gpu < cpu;
}

double flint_nmod_mat_lu_seconds(std::size_t rows, std::size_t cols) { return lu::terms(rows, cols) * lu::kFlintSecondsPerTerm; }

bool nmod_mat_lu_uses_threads(std::size_t rows, std::size_t cols)
{
    return flint_nmod_mat_lu_seconds(rows, cols) >= lu::kFlintThreadedFromSeconds;
}

namespace {

// FLINT's LU-based work of `one` seconds on one thread, on `threads` threads.
double flint_lu_work_seconds(double one, unsigned threads)
{
    const double speedup = 1 + std::log2(std::max(1.0, one / lu::kFlintThreadsPayFromSeconds)) / 3;
    return one / std::clamp(speedup, 1.0, std::max(1.0, double(threads) / 4));
}

// The GPU's LU of rows x cols against FLINT's; `transfers` matrices of that shape cross PCIe.
bool gpu_pays_for_lu(std::size_t rows, std::size_t cols, bool rank_mode, double transfers, unsigned threads)
{
    const double cpu = flint_lu_work_seconds(flint_nmod_mat_lu_seconds(rows, cols), threads);
    const double gpu = lu::kGpuSecondsPerCall + transfers * 8.0 * double(rows) * double(cols) / lu::kGpuBytesPerSecond +
                       gpu_lu_seconds(rows, cols, rank_mode);
    return gpu < cpu;
}

}  // namespace

bool gpu_pays_for_nmod_mat_lu(std::size_t rows, std::size_t cols, bool rank_mode, unsigned threads)
{
    return gpu_pays_for_lu(rows, cols, rank_mode, 1, threads);
}

bool gpu_pays_for_nmod_mat_lu_factors(std::size_t rows, std::size_t cols, unsigned threads)
{
    return gpu_pays_for_lu(rows, cols, true, 2, threads);
}

namespace {

// FLINT's work of `one` seconds on one thread (its LU and triangular solves, or the solves
// alone) on `threads` threads, against the GPU's inverse of n x n and, for a solution, its
// product into n x product_cols: a (and b) up, the inverse or the solution down.
bool gpu_pays_for_inverse(std::size_t n, double one, std::size_t product_cols, unsigned threads)
{
    const double size = double(n), cols = double(product_cols);
    const double cpu = flint_lu_work_seconds(one, threads);
    const double words = size * size + size * cols + size * (product_cols ? cols : size);
    // The recursion's multiply-adds are about those of one product of the whole size; its
    // leaves of 32 rows each take a few launches (the inverse, the products around it).
    const double gpu = lu::kGpuSecondsPerCall + 8.0 * words / lu::kGpuBytesPerSecond +
                       (size * size * size + size * size * cols) * machine::kGpuSecondsPerTermMod + size / 32 * inverse::kGpuSecondsPerLeaf;
    return gpu < cpu;
}

// FLINT's LU and its triangular solves for `cols` right-hand sides (n for an inverse).
double flint_lu_and_solves_seconds(std::size_t n, std::size_t cols)
{
    return flint_nmod_mat_lu_seconds(n, n) + double(n) * double(n) * double(cols) * lu::kFlintSecondsPerTerm;
}

}  // namespace

bool gpu_pays_for_nmod_mat_inv(std::size_t n, unsigned threads) { return gpu_pays_for_inverse(n, flint_lu_and_solves_seconds(n, n), 0, threads); }

bool gpu_pays_for_nmod_mat_solve(std::size_t n, std::size_t cols, unsigned threads)
{
    return gpu_pays_for_inverse(n, flint_lu_and_solves_seconds(n, cols), cols, threads);
}

bool gpu_pays_for_nmod_mat_solve_triu(std::size_t n, std::size_t cols, unsigned threads)
{
    return gpu_pays_for_inverse(n, double(n) * double(n) * double(cols) / 2 * lu::kFlintSecondsPerTerm, cols, threads);
}

double flint_fmpz_mat_seconds(const ZMatrix& a, const ZMatrix& b)
{
    namespace z = over_z;
    return z::terms(a, b) * z::primes_for(a, b) * z::kFlintSecondsPerTermPrime;
}

bool fmpz_mat_mul_uses_threads(const ZMatrix& a, const ZMatrix& b)
{
    return flint_fmpz_mat_seconds(a, b) >= over_z::kFlintThreadedFromSeconds;
}

bool gpu_pays_for_fmpz_mat_mul(const ZMatrix& a, const ZMatrix& b, unsigned threads)
{
    namespace z = over_z;
    const double one = flint_fmpz_mat_seconds(a, b);
    const double cpu = one < z::kFlintThreadedFromSeconds ? one : one / std::max(1.0, z::kFlintThreadShare * double(threads));
    const double bytes = 8.0 * double(a.rows * a.cols * z::words(a.bits) + b.rows * b.cols * z::words(b.bits) +
                                      a.rows * b.cols * z::words(product_bits(a, b) + 1));
    const double gpu = z::kGpuSecondsPerCall + bytes / z::kGpuBytesPerSecond +
                       z::terms(a, b) * z::primes_for(a, b) * machine::kGpuSecondsPerTermMod;
    return gpu < cpu;
}

}  // namespace zgpu::matrix
