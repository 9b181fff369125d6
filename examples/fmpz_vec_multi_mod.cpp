// Multi-modular reduction and CRT of a FLINT vector through zgpu, checked against FLINT, with
// the backend that ran and the time taken: random signed values modulo 70 generated primes
// (zgpu_fmpz_vec_multi_mod_ui), then back by the signed CRT (zgpu_fmpz_vec_multi_CRT_ui).
//   fmpz_vec_multi_mod_example [count] [bits]      (defaults: 65536 values of 4096 bits)
#include <vector>

#include "example_support.hpp"

using example::Clock;
using example::ms_since;

int main(int argc, char** argv)
{
    const auto arguments = example::parse_arguments(argc, argv, 65536, 4096);
    if (!arguments) return 2;
    const auto [n, bits] = *arguments;
    zgpu_prime_set_t set;
    if (zgpu_prime_set_init_ntt_primes(set, 70) != 0) {
        std::fprintf(stderr, "%s\n", zgpu_last_error());
        return 1;
    }
    if (zgpu_prime_set_bits(set) <= bits + 1)
        std::printf("note: %ld-bit values exceed what 70 primes represent; the CRT returns them modulo P\n", long(bits));
    flint_rand_t state;
    example::random_init(state);
    fmpz* a = _fmpz_vec_init(n);
    for (slong i = 0; i < n; ++i) {
        fmpz_randbits(a + i, state, bits);
        if (i % 2) fmpz_neg(a + i, a + i);
    }
    std::vector<std::vector<ulong>> words(70, std::vector<ulong>(std::size_t(n))), theirs = words;
    std::vector<ulong*> residues;
    for (auto& w : words) residues.push_back(w.data());

    auto start = Clock::now();
    int status = zgpu_fmpz_vec_multi_mod_ui(residues.data(), a, n, set);
    const double mod_ms = ms_since(start);
    const char* mod_backend = zgpu_last_backend();
    fmpz* back = _fmpz_vec_init(n);
    start = Clock::now();
    if (status == 0) status = zgpu_fmpz_vec_multi_CRT_ui(back, residues.data(), n, set, 1);
    const double crt_ms = ms_since(start);
    if (status != 0) {
        std::fprintf(stderr, "failed: %s\n", zgpu_last_error());
        return 1;
    }
    std::printf("zgpu_fmpz_vec_multi_mod_ui: backend %s, %ld values of %ld bits modulo 70 primes in %.2f ms\n",
                mod_backend, long(n), long(bits), mod_ms);
    std::printf("zgpu_fmpz_vec_multi_CRT_ui: backend %s, in %.2f ms\n", zgpu_last_backend(), crt_ms);

    // FLINT on one thread, for the check and the comparison.
    fmpz_comb_t comb;
    fmpz_comb_temp_t temp;
    fmpz_comb_init(comb, zgpu_prime_set_moduli(set), 70);
    fmpz_comb_temp_init(temp, comb);
    std::vector<ulong> one(70);
    bool same = true;
    start = Clock::now();
    for (slong i = 0; i < n; ++i) {
        fmpz_multi_mod_ui(one.data(), a + i, comb, temp);
        for (std::size_t k = 0; k < 70; ++k) same = same && one[k] == words[k][std::size_t(i)];
    }
    const double flint_mod_ms = ms_since(start);
    fmpz_t x;
    fmpz_init(x);
    start = Clock::now();
    for (slong i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < 70; ++k) one[k] = words[k][std::size_t(i)];
        fmpz_multi_CRT_ui(x, one.data(), comb, temp, 1);
        same = same && fmpz_equal(x, back + i);
    }
    const double flint_crt_ms = ms_since(start);
    const bool round_trip = zgpu_prime_set_bits(set) > bits + 1 ? _fmpz_vec_equal(a, back, n) : true;
    std::printf("FLINT on one thread: %.2f ms and %.2f ms; residues and values %s%s\n", flint_mod_ms, flint_crt_ms,
                same ? "match FLINT" : "MISMATCH", round_trip ? "" : ", ROUND TRIP FAILED");

    fmpz_clear(x);
    fmpz_comb_temp_clear(temp);
    fmpz_comb_clear(comb);
    _fmpz_vec_clear(back, n);
    _fmpz_vec_clear(a, n);
    zgpu_prime_set_clear(set);
    example::random_clear(state);
    flint_cleanup();
    return same && round_trip ? 0 : 1;
}
