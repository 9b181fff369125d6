// FLINT-style products of fmpz vectors: pointwise, and by a scalar.
#include <string>

#include "fmpz_array.hpp"
#include "host_dispatch.hpp"
#include "parallel.hpp"
#include "zgpu/flint.hpp"

namespace zgpu {
namespace {

// Products cost far more than additions: threads pay from a few dozen elements on.
constexpr std::size_t kMinParallel = 64;

// res[i] = a[i] * b[i], or a[i] * b[0] with b of one element.
void multiply(fmpz* res, const FmpzArray& a, std::size_t n, const FmpzArray& b, std::size_t b_count,
              const char* names[2])
{
    const HostOperand pa = host_operand(a, n, names[0]);
    const HostOperand pb = host_operand(b, b_count, names[1]);
    mul_host(
        pa, n, pb, b_count,
        [&] {
            parallel_for(n, kMinParallel, [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) fmpz_mul(res + i, *a.start + i, *b.start + (b_count == 1 ? 0 : i));
            });
        },
        [&](ConstBatchView r) { adapters::unpack_fmpz_vec(r, res); });
}

}  // namespace

void fmpz_vec_mul(fmpz* res, const fmpz* vec1, const fmpz* vec2, slong len)
{
    check_vec_arguments(res, vec1, vec2, len, "fmpz_vec_mul");
    const char* names[2] = {"vec1", "vec2"};
    multiply(res, {&vec1, std::size_t(len)}, std::size_t(len), {&vec2, std::size_t(len)}, std::size_t(len), names);
}

void fmpz_vec_scalar_mul_fmpz(fmpz* res, const fmpz* vec, slong len, const fmpz_t c)
{
    check_vec_arguments(res, vec, c, len, "fmpz_vec_scalar_mul_fmpz", "vec", "c");
    const char* names[2] = {"vec", "c"};
    fmpz_t copy;  // c may be an entry of res: read once, before res changes
    fmpz_init_set(copy, c);
    const fmpz* scalar = copy;
    try {
        multiply(res, {&vec, std::size_t(len)}, std::size_t(len), {&scalar, 1}, 1, names);
    } catch (...) {
        fmpz_clear(copy);
        throw;
    }
    fmpz_clear(copy);
}

}  // namespace zgpu
