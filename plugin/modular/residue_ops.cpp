// Operations on ResidueBatch: reduction of a DeviceBatch, CRT back, and arithmetic modulo each
// modulus; on the GPU through modular_backend.hpp, on the CPU through FLINT on all host threads.
#include <string>

#include <flint/nmod_vec.h>

#include "base/parallel.hpp"
#include "plugin/gpu/gpu_backend.hpp"
#include "plugin/gpu/modular_backend.hpp"
#include "plugin/modular/cpu_modular.hpp"
#include "plugin/modular/fmpz_convert.hpp"
#include "plugin/modular/residue_storage.hpp"
#include "zgpu/error.hpp"
#include "zgpu/residue_batch.hpp"

namespace zgpu {
namespace {

void require_compatible(const ResidueBatch& a, const ResidueBatch& b, const char* name)
{
    if (!a.prime_set().same_moduli(b.prime_set()))
        throw Error(std::string(name) + ": the operands are residues modulo different moduli");
    if (a.count() != b.count())
        throw Error(std::string(name) + ": the operands have " + std::to_string(a.count()) + " and " +
                    std::to_string(b.count()) + " values");
    if (a.backend() != b.backend()) throw Error(std::string(name) + ": the operands are on different backends");
}

// Makes r a batch of a's moduli, count and backend, keeping its storage when it already is one
// (r may be an operand).
void shape_like(ResidueBatch& r, const ResidueBatch& a)
{
    if (&r == &a || (r.prime_set().same_moduli(a.prime_set()) && r.count() == a.count() && r.backend() == a.backend()))
        return;
    r = ResidueBatch(a.prime_set(), a.count(), a.backend());
}

// body(i, begin, end) over blocks of each modulus's residues, on all host threads.
template <class Body>
void for_each_block(const ResidueBatch& a, Body body)
{
    constexpr std::size_t kBlock = 1 << 14;
    const std::size_t count = a.count(), blocks = (count + kBlock - 1) / kBlock;
    parallel_for(a.prime_set().size() * blocks, 4, [&](std::size_t first, std::size_t last) {
        for (std::size_t b = first; b < last; ++b) {
            const std::size_t i = b / blocks, begin = (b % blocks) * kBlock;
            body(i, begin, std::min(count, begin + kBlock));
        }
    });
}

void binary(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b, gpu::ResidueOp op, const char* name)
{
    require_compatible(a, b, name);
    shape_like(r, a);
    const PrimeSet::State& set = a.prime_set().state();
    if (a.backend() == Backend::gpu)
        return gpu::residues_binary(op, residue_view(a), residue_view(b), set.gpu_tables(), residue_view(r));
    const std::size_t stride = a.prime_stride();
    for_each_block(a, [&](std::size_t i, std::size_t begin, std::size_t end) {
        limb_t* out = r.data() + i * stride;
        const limb_t *x = a.data() + i * stride, *y = b.data() + i * stride;
        const slong n = slong(end - begin);
        switch (op) {
        case gpu::ResidueOp::add: _nmod_vec_add(out + begin, x + begin, y + begin, n, set.mods[i]); break;
        case gpu::ResidueOp::sub: _nmod_vec_sub(out + begin, x + begin, y + begin, n, set.mods[i]); break;
        case gpu::ResidueOp::mul:
            for (std::size_t e = begin; e < end; ++e) out[e] = nmod_mul(x[e], y[e], set.mods[i]);
            break;
        }
    });
}

void scalar(ResidueBatch& r, const ResidueBatch& a, std::span<const limb_t> c, bool addmul, const char* name)
{
    const PrimeSet::State& set = a.prime_set().state();
    if (c.size() != set.moduli.size())
        throw Error(std::string(name) + ": " + std::to_string(c.size()) + " scalars for " +
                    std::to_string(set.moduli.size()) + " moduli");
    for (std::size_t i = 0; i < c.size(); ++i)
        if (c[i] >= set.moduli[i])
            throw Error(std::string(name) + ": c[" + std::to_string(i) + "] = " + std::to_string(c[i]) +
                        " is not below its modulus " + std::to_string(set.moduli[i]));
    if (addmul) require_compatible(r, a, name);
    else shape_like(r, a);
    if (a.backend() == Backend::gpu) {
        void* scalars = gpu::allocate(c.size_bytes());
        try {
            gpu::copy_to_device(scalars, c.data(), c.size_bytes());
            gpu::residues_scalar_mul(residue_view(a), static_cast<const limb_t*>(scalars), addmul, set.gpu_tables(),
                                     residue_view(r));
            gpu::synchronize();
        } catch (...) {
            gpu::release(scalars);
            throw;
        }
        return gpu::release(scalars);
    }
    const std::size_t stride = a.prime_stride();
    for_each_block(a, [&](std::size_t i, std::size_t begin, std::size_t end) {
        limb_t* out = r.data() + i * stride + begin;
        const limb_t* x = a.data() + i * stride + begin;
        if (addmul) _nmod_vec_scalar_addmul_nmod(out, x, slong(end - begin), c[i], set.mods[i]);
        else _nmod_vec_scalar_mul_nmod(out, x, slong(end - begin), c[i], set.mods[i]);
    });
}

void reduce_on_backend(ResidueBatch& r, const DeviceBatch& x, const PrimeSet& set)
{
    ResidueBatch out(set, x.count(), x.backend());
    if (x.backend() == Backend::gpu) {
        gpu::residues_multi_mod(x.view(), set.state().gpu_tables(), residue_view(out));
    } else {
        const BatchReader reader{x.view()};
        cpu_multi_mod(set.state(), 0, x.count(),
                      [&](std::size_t e, fmpz* scratch) {
                          set_fmpz(scratch, reader, e);
                          return scratch;
                      },
                      modulus_arrays(residue_view(out)));
    }
    r = std::move(out);
}

void crt_on_backend(DeviceBatch& x, const ResidueBatch& r, bool sign)
{
    const PrimeSet::State& set = r.prime_set().state();
    if (set.product_limbs > kMaxLimbs)
        throw Error("crt: the product of the moduli has " + std::to_string(set.product_limbs) +
                    " limbs, more than the " + std::to_string(kMaxLimbs) + " of a batch");
    const std::uint32_t limbs = r.backend() == Backend::gpu ? gpu::crt_limbs(set.gpu_tables())
                                                            : std::uint32_t(set.product_limbs);
    DeviceBatch out(r.backend(), r.count(), size_class(limbs), DeviceBatch::Uninitialized{});
    if (r.backend() == Backend::gpu) {
        gpu::residues_multi_crt(residue_view(r), set.gpu_tables(), sign, out.view());
    } else {
        const BatchWriter writer{out.view()};
        cpu_multi_crt(set, 0, r.count(), modulus_arrays(residue_view(r)), sign,
                      [&](std::size_t e, fmpz* value) { write_fmpz(writer, e, value); });
    }
    x = std::move(out);
}

void negate(ResidueBatch& r, const ResidueBatch& a)
{
    shape_like(r, a);
    const PrimeSet::State& set = a.prime_set().state();
    if (a.backend() == Backend::gpu) return gpu::residues_neg(residue_view(a), set.gpu_tables(), residue_view(r));
    const std::size_t stride = a.prime_stride();
    for_each_block(a, [&](std::size_t i, std::size_t begin, std::size_t end) {
        _nmod_vec_neg(r.data() + i * stride + begin, a.data() + i * stride + begin, slong(end - begin), set.mods[i]);
    });
}

}  // namespace

void reduce(ResidueBatch& r, const DeviceBatch& x, const PrimeSet& set)
{
    run_recorded(x.backend(), [&] { reduce_on_backend(r, x, set); });
}

void crt(DeviceBatch& x, const ResidueBatch& r, bool sign)
{
    run_recorded(r.backend(), [&] { crt_on_backend(x, r, sign); });
}

void crt_checked(DeviceBatch& x, const ResidueBatch& r, bool sign, const fmpz_t bound)
{
    if (!r.prime_set().represents(bound, sign))
        throw Error("crt_checked: too few moduli: their product (" + std::to_string(r.prime_set().product_bits()) +
                    " bits) does not represent every value up to the bound (" + std::to_string(fmpz_bits(bound)) +
                    " bits)");
    crt(x, r, sign);
}

void add(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b)
{
    run_recorded(a.backend(), [&] { binary(r, a, b, gpu::ResidueOp::add, "add"); });
}

void sub(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b)
{
    run_recorded(a.backend(), [&] { binary(r, a, b, gpu::ResidueOp::sub, "sub"); });
}

void mul(ResidueBatch& r, const ResidueBatch& a, const ResidueBatch& b)
{
    run_recorded(a.backend(), [&] { binary(r, a, b, gpu::ResidueOp::mul, "mul"); });
}

void neg(ResidueBatch& r, const ResidueBatch& a)
{
    run_recorded(a.backend(), [&] { negate(r, a); });
}

void scalar_mul(ResidueBatch& r, const ResidueBatch& a, std::span<const limb_t> c)
{
    run_recorded(a.backend(), [&] { scalar(r, a, c, false, "scalar_mul"); });
}

void scalar_addmul(ResidueBatch& r, const ResidueBatch& a, std::span<const limb_t> c)
{
    run_recorded(a.backend(), [&] { scalar(r, a, c, true, "scalar_addmul"); });
}

}  // namespace zgpu
