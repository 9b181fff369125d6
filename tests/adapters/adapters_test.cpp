// Round trips through every adapter on mixed elements: 0, +-1, inline fmpz, up to 2^20 bits.
#include <algorithm>
#include <string>
#include <vector>

#include <flint/fmpz_vec.h>
#include <gtest/gtest.h>

#include "batch_checks.hpp"
#include "zgpu/fmpz_adapter.hpp"
#include "zgpu/mpz_adapter.hpp"
#include "zgpu/ntl_adapter.hpp"
#include "adapters/packing.hpp"
#include "adapters/streaming_copy.hpp"
#include "zgpu/error.hpp"

namespace zgpu::testing {
namespace {

constexpr std::size_t kElements = 100000;
// A batch has one stride, that of its largest element: the 10^5 elements travel in slices so
// that a few 2^20-bit values do not make every element 16384 limbs wide.
constexpr std::size_t kSlice = 100;

// 0, +-1, +-(2^62 +- 1) around FLINT's inline limit, one-limb values, up to 40 limbs, and
// 0.2 % up to 16384 limbs (2^20 bits).
void fill_mixed(MpzArray& values, std::uint64_t seed)
{
    IntegerSource source(seed);
    for (std::size_t i = 0; i < values.size(); ++i) {
        mpz_ptr v = values[i];
        switch (source.below(8)) {
        case 0: mpz_set_si(v, long(source.below(3)) - 1); break;
        case 1:
            mpz_set_ui(v, 1);
            mpz_mul_2exp(v, v, 62);
            mpz_add_ui(v, v, source.below(3));
            mpz_sub_ui(v, v, 1);
            if (source.coin()) mpz_neg(v, v);
            break;
        case 2: mpz_set_si(v, std::int64_t(source.next()) >> source.below(64)); break;
        default:
            source.set_random(v, source.below(500) == 0 ? 16384 : std::uint32_t(1 + source.below(40)));
        }
    }
}

class Adapters : public ::testing::Test {
protected:
    void SetUp() override { fill_mixed(values_, 20261122); }

    // Calls check(slice) with a copy of each slice of the values.
    template <class Check>
    void for_each_slice(Check check)
    {
        for (std::size_t first = 0; first < values_.size(); first += kSlice) {
            MpzArray slice(std::min(kSlice, values_.size() - first));
            for (std::size_t i = 0; i < slice.size(); ++i) mpz_set(slice[i], values_[first + i]);
            check(slice);
            if (::testing::Test::HasFailure()) return;
        }
    }

    MpzArray values_{kElements};
};

TEST_F(Adapters, MpzRoundTrip)
{
    for_each_slice([](const MpzArray& values) {
        const LimbBatch batch = adapters::pack_mpz_array(values.data(), values.size());
        expect_batch_equals(batch, values, "packed mpz");
        MpzArray back(values.size());
        adapters::unpack_mpz_array(batch.view(), back.data());
        for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(mpz_cmp(back[i], values[i]), 0) << "element " << i;
    });
}

TEST_F(Adapters, FmpzVecRoundTrip)
{
    for_each_slice([](const MpzArray& values) {
        const slong n = slong(values.size());
        fmpz* vec = _fmpz_vec_init(n);
        for (slong i = 0; i < n; ++i) fmpz_set_mpz(vec + i, values[i]);
        const LimbBatch batch = adapters::pack_fmpz_vec(vec, values.size());
        expect_batch_equals(batch, values, "packed fmpz");

        fmpz* back = _fmpz_vec_init(n);
        // Old values must not leak through: small ones, and large ones of other sizes (a result
        // reuses a large value's limbs where they suffice).
        for (slong i = 0; i < n; i += 3) fmpz_set_si(back + i, -5);
        for (slong i = 1; i < n; i += 3) fmpz_set_mpz(back + i, values[std::size_t(n - i)]);
        adapters::unpack_fmpz_vec(batch.view(), back);
        EXPECT_TRUE(_fmpz_vec_equal(back, vec, n));
        for (slong i = 0; i < n; ++i) {
            // FLINT requires values that fit inline to be stored inline.
            const bool fits_inline = fmpz_bits(back + i) <= FLINT_BITS - 2;
            ASSERT_EQ(COEFF_IS_MPZ(back[i]), !fits_inline) << "element " << i << " is not canonical";
        }
        _fmpz_vec_clear(vec, n);
        _fmpz_vec_clear(back, n);
    });
}

TEST_F(Adapters, FmpzPolyRoundTrip)
{
    fmpz_poly_t poly, back;
    fmpz_poly_init(poly);
    fmpz_poly_init(back);
    fmpz_poly_set_coeff_si(back, 5000, 7);  // a longer old value must be replaced entirely
    for_each_slice([&](const MpzArray& values) {
        fmpz_poly_zero(poly);
        fmpz_t c;
        fmpz_init(c);
        for (std::size_t i = 0; i < values.size(); ++i) {
            fmpz_set_mpz(c, values[i]);
            fmpz_poly_set_coeff_fmpz(poly, slong(i), c);
        }
        fmpz_clear(c);
        const LimbBatch batch = adapters::pack_fmpz_poly(poly);
        ASSERT_EQ(batch.count(), std::size_t(fmpz_poly_length(poly)));
        adapters::unpack_fmpz_poly(batch.view(), back);
        ASSERT_TRUE(fmpz_poly_equal(back, poly));
    });

    // Zero leading coefficients in a batch are normalised away.
    LimbBatch padded(3, 1);
    padded.limbs()[0] = 9;
    padded.sizes()[0] = -1;
    adapters::unpack_fmpz_poly(padded.view(), back);
    EXPECT_EQ(fmpz_poly_length(back), 1);
    EXPECT_EQ(fmpz_get_si(back->coeffs), -9);
    fmpz_poly_clear(poly);
    fmpz_poly_clear(back);
}

TEST_F(Adapters, NtlVecZZRoundTrip)
{
    std::size_t checked = 0;
    for_each_slice([&](const MpzArray& values) {
        const LimbBatch batch = adapters::pack_mpz_array(values.data(), values.size());
        NTL::Vec<NTL::ZZ> vec;
        adapters::unpack_vec_zz(batch.view(), vec);
        ASSERT_EQ(std::size_t(vec.length()), values.size());
        // Independent of the adapters: NTL's and GMP's decimal strings agree.
        for (std::size_t i = checked++ % 97; i < values.size(); i += 97) {
            char* digits = mpz_get_str(nullptr, 10, values[i]);
            ASSERT_EQ(vec[long(i)], NTL::conv<NTL::ZZ>(digits)) << "element " << i;
            std::free(digits);
        }
        expect_batch_equals(adapters::pack_vec_zz(vec), values, "packed Vec<ZZ>");
    });
}

TEST_F(Adapters, NtlZZRoundTrip)
{
    for_each_slice([](const MpzArray& values) {
        MpzArray one(1);
        for (std::size_t i = 0; i < values.size(); ++i) {
            mpz_set(one[0], values[i]);
            NTL::ZZ z;
            adapters::unpack_zz(adapters::pack_mpz_array(one.data(), 1).view(), z);
            expect_batch_equals(adapters::pack_zz(z), one, "packed ZZ " + std::to_string(i));
            if (::testing::Test::HasFailure()) return;
        }
    });
}

TEST_F(Adapters, NtlZZXRoundTrip)
{
    for_each_slice([](const MpzArray& values) {
        NTL::ZZX poly;
        adapters::unpack_zzx(adapters::pack_mpz_array(values.data(), values.size()).view(), poly);
        const LimbBatch again = adapters::pack_zzx(poly);
        // Trailing zero coefficients are normalised away; the rest come back.
        std::size_t length = values.size();
        while (length > 0 && mpz_sgn(values[length - 1]) == 0) --length;
        ASSERT_EQ(again.count(), length);
        MpzArray prefix(length);
        for (std::size_t i = 0; i < length; ++i) mpz_set(prefix[i], values[i]);
        expect_batch_equals(again, prefix, "packed ZZX");
    });
}

// Packing for the GPU goes through a cached buffer and non-temporal stores: the same batch
// as packing in place, for every stride (the buffer holds 2048 limbs: several elements, one,
// or none, when the element is packed in place), counts that fill no whole buffer, and
// elements at offsets that are not whole cache lines (strides 1, 2 and 4 limbs).
TEST_F(Adapters, StreamedPackingMatchesCached)
{
    const auto check = [](const MpzArray& values, std::size_t first, std::size_t count) {
        const adapters::MpzReader reader(values.data());
        const std::uint32_t stride = size_class(adapters::max_limbs(reader, values.size(), "values"));
        LimbBatch cached(count, stride), streamed(count, stride);
        std::ranges::fill(streamed.limbs(), ~limb_t(0));  // no old limb may stay
        adapters::pack_into(reader, cached.view(), first);
        adapters::pack_into(reader, streamed.view(), first, adapters::PackTarget::streamed);
        ASSERT_TRUE(std::ranges::equal(cached.sizes(), streamed.sizes())) << "sizes, stride " << stride;
        ASSERT_TRUE(std::ranges::equal(cached.limbs(), streamed.limbs())) << "limbs, stride " << stride;
    };
    for_each_slice([&](const MpzArray& values) { check(values, 1, values.size() - 1); });

    IntegerSource source(7);
    for (const std::uint32_t limbs : {1u, 2u, 3u, 8u, 100u}) {
        MpzArray values(30011);  // many threads' ranges
        for (std::size_t i = 0; i < values.size(); ++i) source.set_random(values[i], std::uint32_t(1 + source.below(limbs)));
        check(values, 0, values.size());
    }
}

// Packing elements through a list of indices (a size group's) gives what packing each of them
// alone does, cached and streamed, with fmpz readers (which prefetch) as with mpz ones.
TEST_F(Adapters, IndexedPackingMatchesElementByElement)
{
    IntegerSource source(11);
    MpzArray values(40009);
    for (std::size_t i = 0; i < values.size(); ++i) source.set_random(values[i], i % 997 ? 3 : 300);
    std::vector<std::size_t> indices;
    for (std::size_t i = 1; i < values.size(); i += 1 + source.below(4)) indices.push_back(i);
    const adapters::MpzReader reader(values.data());
    const std::uint32_t stride = size_class(adapters::max_limbs(reader, values.size(), "values"));
    LimbBatch one(1, stride), cached(indices.size(), stride), streamed(indices.size(), stride);
    std::ranges::fill(streamed.limbs(), ~limb_t(0));  // no old limb may stay
    adapters::pack_indexed_into(reader, indices, cached.view());
    adapters::pack_indexed_into(reader, indices, streamed.view(), adapters::PackTarget::streamed);
    for (std::size_t k = 0; k < indices.size(); ++k) {
        adapters::pack_into(reader, one.view(), indices[k]);
        ASSERT_EQ(cached.sizes()[k], one.sizes()[0]) << k;
        ASSERT_TRUE(std::ranges::equal(cached.element(k), one.element(0))) << k;
        ASSERT_EQ(streamed.sizes()[k], one.sizes()[0]) << k;
        ASSERT_TRUE(std::ranges::equal(streamed.element(k), one.element(0))) << k;
    }
    // FLINT's vectors, through the reader that prefetches.
    const LimbBatch all = adapters::pack(reader, values.size(), "values");
    std::vector<fmpz> fmpzs(values.size());
    adapters::unpack_fmpz_vec(all.view(), fmpzs.data());
    const adapters::FmpzReader fmpz_reader(fmpzs.data());
    LimbBatch from_fmpz(indices.size(), stride);
    adapters::pack_indexed_into(fmpz_reader, indices, from_fmpz.view(), adapters::PackTarget::streamed);
    EXPECT_TRUE(std::ranges::equal(from_fmpz.limbs(), cached.limbs()));
    EXPECT_TRUE(std::ranges::equal(from_fmpz.sizes(), cached.sizes()));
    for (fmpz& x : fmpzs) fmpz_clear(&x);
}

// stream_copy is memcpy at every alignment and length, touching nothing around its target.
TEST(StreamingCopy, CopiesExactlyAtEveryAlignment)
{
    std::vector<unsigned char> from(512), to(512 + 192);
    for (std::size_t k = 0; k < from.size(); ++k) from[k] = static_cast<unsigned char>(k * 131 + 7);
    for (std::size_t offset = 0; offset < 64; ++offset) {
        for (std::size_t bytes = 0; bytes <= 300; bytes += bytes < 140 ? 1 : 37) {
            std::fill(to.begin(), to.end(), 0xa5);
            adapters::stream_copy(to.data() + 64 + offset, from.data() + 3, bytes);
            adapters::stream_fence();
            for (std::size_t k = 0; k < to.size(); ++k) {
                const bool inside = k >= 64 + offset && k < 64 + offset + bytes;
                ASSERT_EQ(to[k], inside ? from[3 + k - 64 - offset] : 0xa5) << "offset " << offset << ", " << bytes << " bytes, byte " << k;
            }
        }
    }
}

TEST(AdapterErrors, ElementTooLargeNamesArgumentAndIndex)
{
    MpzArray values(5);
    IntegerSource source(1);
    source.set(values[3], kMaxLimbs + 1, Shape::random, true);
    try {
        adapters::pack_mpz_array(values.data(), values.size(), "coefficients");
        FAIL() << "packing an element of more than kMaxLimbs limbs did not throw";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("coefficients[3]"), std::string::npos) << e.what();
    }
    source.set(values[3], kMaxLimbs, Shape::all_ones, true);  // the largest supported element packs
    expect_batch_equals(adapters::pack_mpz_array(values.data(), values.size()), values, "largest element");
}

TEST(AdapterErrors, EmptyBatches)
{
    EXPECT_EQ(adapters::pack_mpz_array(nullptr, 0).count(), 0u);
    NTL::Vec<NTL::ZZ> vec;
    vec.SetLength(4);
    adapters::unpack_vec_zz(LimbBatch().view(), vec);
    EXPECT_EQ(vec.length(), 0);
}

}  // namespace
}  // namespace zgpu::testing
