// The NTT's butterflies on lazy residues of any field (ntt_field.hpp, ntt_field64.hpp), host and
// device, with the bounds that butterfly_bounds.hpp works out: each takes its words' bounds and
// corrects where the bound it is to give is smaller than what the arithmetic leaves.
// A Field has Word, Twiddle, mul_twiddle(x, w) (x w below 2p for any word x), multiple(c) (c p)
// and below(x, c) (x < 2c p to [0, c p)).
#pragma once

#include "zgpu/limb_batch.hpp"

namespace zgpu::kernels {

// x below `from` p, below `to` p: one correction where to < from.
template <class Field, class Word>
ZGPU_HOST_DEVICE constexpr Word settle(const Field& f, Word x, int from, int to)
{
    return from > to ? f.below(x, to) : x;
}

// Forward (decimation in frequency): (u, v) -> (u + v, (u - v) w) for u and v below bu p and bv p;
// the sum left below `sum` p, the product below 2p.
template <class Field, class Word, class Twiddle>
ZGPU_HOST_DEVICE constexpr void forward_butterfly(const Field& f, Word& u, Word& v, const Twiddle& w, int bu, int bv, int sum)
{
    const Word difference = u + f.multiple(bv) - v;
    u = settle(f, u + v, bu + bv, sum);
    v = f.mul_twiddle(difference, w);
}

// The forward butterfly with the twiddle 1: (u + v, u - v), both left below `out` p.
template <class Field, class Word>
ZGPU_HOST_DEVICE constexpr void forward_unit_butterfly(const Field& f, Word& u, Word& v, int bu, int bv, int out)
{
    const Word difference = u + f.multiple(bv) - v;
    u = settle(f, u + v, bu + bv, out);
    v = settle(f, difference, bu + bv, out);
}

// The forward butterfly on (u, 0): (u, u w), for the top stage of a transform whose upper half
// is zero.
template <class Field, class Word, class Twiddle>
ZGPU_HOST_DEVICE constexpr void forward_upper_zero_butterfly(const Field& f, Word u, Word& v, const Twiddle& w)
{
    v = f.mul_twiddle(u, w);
}

// Inverse (decimation in time, Harvey's): (u, v) -> (u + v w, u - v w) for u below bu p and any
// word v: u taken below bx p first, so that both outputs are below (bx + 2) p.
template <class Field, class Word, class Twiddle>
ZGPU_HOST_DEVICE constexpr void inverse_butterfly(const Field& f, Word& u, Word& v, const Twiddle& w, int bu, int bx)
{
    const Word x = settle(f, u, bu, bx), t = f.mul_twiddle(v, w);
    u = x + t;
    v = x + f.multiple(2) - t;
}

// The inverse butterfly with the twiddle 1: u taken below bx p and v below by p, the outputs
// below (bx + by) p.
template <class Field, class Word>
ZGPU_HOST_DEVICE constexpr void inverse_unit_butterfly(const Field& f, Word& u, Word& v, int bu, int bv, int bx, int by)
{
    const Word x = settle(f, u, bu, bx), y = settle(f, v, bv, by);
    u = x + y;
    v = x + f.multiple(by) - y;
}

}  // namespace zgpu::kernels
