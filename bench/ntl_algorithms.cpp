// NTL's own functions and algorithms, timed as an unmodified NTL program: the NTL rows of the
// plugin's table. Run it as it is and under LD_PRELOAD=libzgpu_ntl.so (bench/flint_plugin.sh
// does both with PLUGIN_BENCH=ntl_algorithms); each row prints its seconds, twice (a first call
// and a second one after a pause), and a checksum of its result, which must be the same with and
// without the plugin. NTL runs on all host threads (SetNumThreads).
// Arguments: [threads (default: all)] [row names (default: all rows)].
#include <NTL/BasicThreadPool.h>
#include <NTL/ZZX.h>
#include <NTL/lzz_pX.h>
#include <NTL/mat_ZZ.h>
#include <NTL/mat_lzz_p.h>
#include <NTL/version.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace NTL;

namespace {

const long kPrime60 = 1152921504606846883L;  // the largest prime below 2^60, NTL's zz_p limit
const long kCheck = (1L << 61) - 1;

unsigned long mix(unsigned long h, unsigned long x) { return (h * 1000003u + x) % kCheck; }
unsigned long check(const ZZ& x, unsigned long h = 0) { return mix(h, static_cast<unsigned long>(rem(x, kCheck))); }
unsigned long check(const ZZX& f)
{
    unsigned long h = f.rep.length();
    for (long i = 0; i < f.rep.length(); ++i) h = check(f.rep[i], h);
    return h;
}
unsigned long check(const zz_pX& f)
{
    unsigned long h = f.rep.length();
    for (long i = 0; i < f.rep.length(); ++i) h = mix(h, static_cast<unsigned long>(rep(f.rep[i])) % kCheck);
    return h;
}
unsigned long check(const mat_zz_p& a)
{
    unsigned long h = a.NumRows();
    for (long i = 0; i < a.NumRows(); ++i)
        for (long j = 0; j < a.NumCols(); ++j) h = mix(h, static_cast<unsigned long>(rep(a[i][j])) % kCheck);
    return h;
}
unsigned long check(const mat_ZZ& a)
{
    unsigned long h = 0;
    for (long i = 0; i < a.NumRows(); ++i)
        for (long j = 0; j < a.NumCols(); ++j) h = check(a[i][j], h);
    return h;
}

ZZX random_zzx(long length, long bits)
{
    ZZX f;
    f.SetLength(length);
    for (long i = 0; i < length; ++i) {
        RandomBits(f.rep[i], bits);
        if (RandomBnd(2)) NTL::negate(f.rep[i], f.rep[i]);
    }
    f.normalize();
    return f;
}

mat_ZZ random_matrix(long n, long bits)
{
    mat_ZZ a;
    a.SetDims(n, n);
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < n; ++j) RandomBits(a[i][j], bits), a[i][j] -= power2_ZZ(bits - 1);
    return a;
}

// A row: its setup, run once before the timing, returns the body, which returns a checksum.
// zz_pX products of 2^18 coefficients mod a 60-bit prime; x^p modulo a polynomial of degree
// 2^14 (NTL's own powering, whose products call mul and sqr); ZZX products of 2^14 coefficients
// of 1024 bits; mat_ZZ products of 256 x 256 entries of 64 bits; the determinant of 200 x 200
// and the resultant of two polynomials of 300 coefficients, 64 bits; the echelon form (gauss) of
// 4000 x 4000 mod a 60-bit prime, and the kernel of 4000 x 4000 whose last 1000 rows repeat the
// first (a kernel of 1000 rows).
struct Row {
    const char* name;
    std::function<std::function<unsigned long()>()> setup;
};

const Row rows[] = {
    {"zz_pX_mul", [] {
         zz_p::init(kPrime60);
         zz_pX a, b;
         random(a, 1L << 18), random(b, 1L << 18);
         return [a, b] { zz_pX c; mul(c, a, b); return check(c); };
     }},
    {"zz_pX_PowerXMod", [] {
         zz_p::init(kPrime60);
         zz_pX f;
         random(f, 1L << 14);
         SetCoeff(f, 1L << 14);
         return [f] { zz_pX c; PowerXMod(c, ZZ(kPrime60), zz_pXModulus(f)); return check(c); };
     }},
    {"ZZX_mul", [] {
         const ZZX a = random_zzx(1L << 14, 1024), b = random_zzx(1L << 14, 1024);
         return [a, b] { ZZX c; mul(c, a, b); return check(c); };
     }},
    {"mat_ZZ_mul", [] {
         const mat_ZZ a = random_matrix(256, 64), b = random_matrix(256, 64);
         return [a, b] { mat_ZZ c; mul(c, a, b); return check(c); };
     }},
    {"mat_ZZ_determinant", [] {
         const mat_ZZ a = random_matrix(200, 64);
         return [a] { ZZ d; determinant(d, a); return check(d); };
     }},
    {"ZZX_resultant", [] {
         const ZZX a = random_zzx(300, 64), b = random_zzx(300, 64);
         return [a, b] { ZZ r; resultant(r, a, b); return check(r); };
     }},
    {"mat_zz_p_gauss", [] {
         zz_p::init(kPrime60);
         mat_zz_p a;
         random(a, 4000, 4000);
         return [a] { mat_zz_p m = a; const long rank = gauss(m); return mix(check(m), static_cast<unsigned long>(rank)); };
     }},
    {"mat_zz_p_kernel", [] {
         zz_p::init(kPrime60);
         mat_zz_p a;
         random(a, 4000, 4000);
         for (long i = 3000; i < 4000; ++i) a[i] = a[i - 3000];
         return [a] { mat_zz_p x; kernel(x, a); return check(x); };
     }},
};

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

}  // namespace

int main(int argc, char** argv)
{
    long threads = argc > 1 ? std::atol(argv[1]) : 0;
    if (threads <= 0) threads = long(std::thread::hardware_concurrency());
    SetNumThreads(threads);
    std::printf("NTL %s, %ld threads\n%-28s %10s %10s %20s\n", NTL_VERSION, threads, "row", "first s", "second s", "checksum");
    for (const Row& row : rows) {
        bool wanted = argc <= 2;
        for (int j = 2; j < argc; ++j) wanted |= std::strcmp(argv[j], row.name) == 0;
        if (!wanted) continue;
        SetSeed(ZZ(1));
        const std::function<unsigned long()> body = row.setup();
        const double t0 = now();
        const unsigned long first = body();
        const double t1 = now();
        sleep(1);
        const double t2 = now();
        const unsigned long second = body();
        const double t3 = now();
        std::printf("%-28s %10.4f %10.4f %20lu%s\n", row.name, t1 - t0, t3 - t2, first, first == second ? "" : " (second differs)");
        std::fflush(stdout);
    }
    return 0;
}
