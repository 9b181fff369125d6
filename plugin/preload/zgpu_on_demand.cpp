// zgpu itself, loaded by the FLINT plugin when a call first goes to it. The plugin holds only its
// frame, its cheap tests and the cost models they ask (with the stand-in GPU backend of a build
// without CUDA, which they never call); the zgpu C functions it calls are defined here, each
// forwarding to libzgpu's, which is loaded from beside the plugin on first use. A FLINT program
// whose calls all stay with FLINT so never loads zgpu, the CUDA runtime, NTL or the C++ runtime,
// which cost short FLINT test programs several percent (bench/NOTES-flint-plugin.md, tenth round).
#include <dlfcn.h>

#include <cstdio>
#include <mutex>
#include <string>

#include "zgpu/zgpu.h"

namespace {

// libzgpu, loaded once (nullptr: it did not load, which is said once on stderr).
void* zgpu_library()
{
    static void* library = nullptr;
    static std::once_flag loaded;
    std::call_once(loaded, [] {
        Dl_info self{};
        std::string path = "libzgpu.so.0";
        // Beside this plugin, where the build and the install put both.
        if (dladdr(reinterpret_cast<void*>(&zgpu_library), &self) && self.dli_fname) {
            const std::string plugin = self.dli_fname;
            if (const auto slash = plugin.rfind('/'); slash != std::string::npos) path = plugin.substr(0, slash + 1) + path;
        }
        library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!library) std::fprintf(stderr, "zgpu plugin: cannot load zgpu (%s); every call goes to FLINT\n", dlerror());
    });
    return library;
}

// libzgpu's function `name`, or nullptr where libzgpu did not load.
template <class F>
F zgpu_function(const char* name)
{
    void* library = zgpu_library();
    return library ? reinterpret_cast<F>(dlsym(library, name)) : nullptr;
}

}  // namespace

// Each forwards to libzgpu's function of its name; where libzgpu did not load it returns
// `otherwise`: the zgpu calls fail, writing nothing, as a zgpu call that fails does.
#define ZGPU_ON_DEMAND_RETURNING(type, name, parameters, arguments, otherwise) \
    type name parameters                                                       \
    {                                                                          \
        static const auto function = zgpu_function<decltype(&name)>(#name);   \
        return function ? function arguments : otherwise;                      \
    }
#define ZGPU_ON_DEMAND(name, parameters, arguments) ZGPU_ON_DEMAND_RETURNING(int, name, parameters, arguments, -1)

extern "C" {

ZGPU_ON_DEMAND_RETURNING(const char*, zgpu_last_error, (void), (), "zgpu did not load")
ZGPU_ON_DEMAND_RETURNING(const char*, zgpu_last_backend, (void), (), "none")
ZGPU_ON_DEMAND(zgpu_start_gpu, (void), ())

ZGPU_ON_DEMAND(zgpu_fmpz_poly_mul, (fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b), (res, a, b))
ZGPU_ON_DEMAND(zgpu_fmpz_poly_mullow, (fmpz_poly_t res, const fmpz_poly_t a, const fmpz_poly_t b, slong n), (res, a, b, n))
ZGPU_ON_DEMAND(zgpu_fmpz_poly_sqr, (fmpz_poly_t res, const fmpz_poly_t a), (res, a))
ZGPU_ON_DEMAND(_zgpu_fmpz_poly_mul, (fmpz* res, const fmpz* a, slong lena, const fmpz* b, slong lenb), (res, a, lena, b, lenb))
ZGPU_ON_DEMAND(_zgpu_fmpz_poly_pow, (fmpz* res, const fmpz* poly, slong len, ulong e), (res, poly, len, e))
ZGPU_ON_DEMAND(_zgpu_fmpz_poly_compose, (fmpz* res, const fmpz* poly1, slong len1, const fmpz* poly2, slong len2),
               (res, poly1, len1, poly2, len2))
ZGPU_ON_DEMAND(zgpu_fmpz_poly_resultant, (fmpz_t res, const fmpz_poly_t a, const fmpz_poly_t b), (res, a, b))

ZGPU_ON_DEMAND(zgpu_nmod_poly_mul, (nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b), (res, a, b))
ZGPU_ON_DEMAND(zgpu_nmod_poly_mullow, (nmod_poly_t res, const nmod_poly_t a, const nmod_poly_t b, slong n), (res, a, b, n))
ZGPU_ON_DEMAND(_zgpu_nmod_poly_mul, (ulong* res, const ulong* a, slong lena, const ulong* b, slong lenb, nmod_t mod),
               (res, a, lena, b, lenb, mod))
ZGPU_ON_DEMAND(_zgpu_nmod_poly_mullow, (ulong* res, const ulong* a, slong lena, const ulong* b, slong lenb, slong n, nmod_t mod),
               (res, a, lena, b, lenb, n, mod))
ZGPU_ON_DEMAND(_zgpu_nmod_poly_mulmod_preinv,
               (ulong* res, const ulong* poly1, slong len1, const ulong* poly2, slong len2, const ulong* f, slong lenf,
                const ulong* finv, slong lenfinv, nmod_t mod),
               (res, poly1, len1, poly2, len2, f, lenf, finv, lenfinv, mod))
ZGPU_ON_DEMAND(_zgpu_nmod_poly_powmod_ui_binexp, (ulong* res, const ulong* poly, ulong e, const ulong* f, slong lenf, nmod_t mod),
               (res, poly, e, f, lenf, mod))
ZGPU_ON_DEMAND(_zgpu_nmod_poly_powmod_ui_binexp_preinv,
               (ulong* res, const ulong* poly, ulong e, const ulong* f, slong lenf, const ulong* finv, slong lenfinv, nmod_t mod),
               (res, poly, e, f, lenf, finv, lenfinv, mod))
ZGPU_ON_DEMAND(_zgpu_nmod_poly_powmod_x_ui_preinv,
               (ulong* res, ulong e, const ulong* f, slong lenf, const ulong* finv, slong lenfinv, nmod_t mod),
               (res, e, f, lenf, finv, lenfinv, mod))
ZGPU_ON_DEMAND(zgpu_nmod_poly_compose_mod_brent_kung_precomp_preinv,
               (nmod_poly_t res, const nmod_poly_t poly1, const nmod_mat_t A, const nmod_poly_t poly3, const nmod_poly_t poly3inv),
               (res, poly1, A, poly3, poly3inv))
ZGPU_ON_DEMAND(zgpu_nmod_poly_compose_mod_brent_kung_vec_preinv,
               (nmod_poly_struct* res, const nmod_poly_struct* polys, slong len1, slong n, const nmod_poly_t g,
                const nmod_poly_t poly, const nmod_poly_t polyinv),
               (res, polys, len1, n, g, poly, polyinv))
ZGPU_ON_DEMAND(zgpu_nmod_poly_resultant, (ulong* res, const nmod_poly_t a, const nmod_poly_t b), (res, a, b))

ZGPU_ON_DEMAND(zgpu_fmpz_mat_mul, (fmpz_mat_t c, const fmpz_mat_t a, const fmpz_mat_t b), (c, a, b))
ZGPU_ON_DEMAND(zgpu_fmpz_mat_det, (fmpz_t det, const fmpz_mat_t a), (det, a))
ZGPU_ON_DEMAND(zgpu_fmpz_mat_solve, (int* nonsingular, fmpz_mat_t x, fmpz_t den, const fmpz_mat_t a, const fmpz_mat_t b),
               (nonsingular, x, den, a, b))
ZGPU_ON_DEMAND(zgpu_fmpz_mat_inv, (int* invertible, fmpz_mat_t b, fmpz_t den, const fmpz_mat_t a), (invertible, b, den, a))
ZGPU_ON_DEMAND(zgpu_fmpz_mat_rref, (slong* rank, fmpz_mat_t r, fmpz_t den, const fmpz_mat_t a), (rank, r, den, a))
ZGPU_ON_DEMAND(zgpu_nmod_mat_mul, (nmod_mat_t c, const nmod_mat_t a, const nmod_mat_t b), (c, a, b))
ZGPU_ON_DEMAND(zgpu_nmod_mat_det, (ulong* det, const nmod_mat_t a), (det, a))
ZGPU_ON_DEMAND(zgpu_nmod_mat_rank, (slong* rank, const nmod_mat_t a), (rank, a))
ZGPU_ON_DEMAND(zgpu_nmod_mat_inv, (int* invertible, nmod_mat_t b, const nmod_mat_t a), (invertible, b, a))
ZGPU_ON_DEMAND(zgpu_nmod_mat_solve, (int* nonsingular, nmod_mat_t x, const nmod_mat_t a, const nmod_mat_t b), (nonsingular, x, a, b))
ZGPU_ON_DEMAND(zgpu_nmod_mat_lu, (slong* rank, slong* P, nmod_mat_t a, int rank_check), (rank, P, a, rank_check))
ZGPU_ON_DEMAND(zgpu_nmod_mat_rref, (slong* rank, nmod_mat_t a), (rank, a))

}  // extern "C"
