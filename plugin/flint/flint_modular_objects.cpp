// FLINT-style reduction of fmpz_mat and fmpz_poly modulo the moduli of nmod_mat / nmod_poly
// residues, and CRT back (fmpz_mat_multi_mod_ui, fmpz_mat_multi_CRT_ui and their polynomial
// counterparts). The prime set comes from the residues' moduli (prime_set_of). Every check runs
// before anything is written.
#include <algorithm>
#include <string>
#include <vector>

#include "plugin/flint/fmpz_residues.hpp"
#include "plugin/modular/cpu_modular.hpp"
#include "zgpu/error.hpp"
#include "zgpu/flint_modular.hpp"

namespace zgpu {
namespace {

template <class Residues>
std::vector<limb_t> moduli_of(Residues residues, slong nres)
{
    std::vector<limb_t> moduli(static_cast<std::size_t>(nres));
    for (slong i = 0; i < nres; ++i) moduli[std::size_t(i)] = residues[i]->mod.n;
    return moduli;
}

// Residue matrices must have mat's shape.
void check_shapes(nmod_mat_t* residues, slong nres, const fmpz_mat_t mat, const std::string& name)
{
    if (!mat) throw Error(name + ": mat is NULL");
    for (slong i = 0; i < nres; ++i)
        if (residues[i]->r != mat->r || residues[i]->c != mat->c)
            throw Error(name + ": residues[" + std::to_string(i) + "] is " + std::to_string(residues[i]->r) + " x " +
                        std::to_string(residues[i]->c) + ", mat is " + std::to_string(mat->r) + " x " +
                        std::to_string(mat->c));
}

// The residue matrices' entries as arrays of one modulus each: one block of all r x c entries
// where every matrix keeps its rows one after the other (as nmod_mat_init does), else one a row
// (windows). Entry e of block b is mat's entry (b.row + e / c, e % c).
struct Block {
    slong row;
    std::size_t count;
    std::vector<limb_t*> arrays;
};

std::vector<Block> blocks_of(nmod_mat_t* residues, slong nres, slong r, slong c)
{
    if (r == 0 || c == 0) return {Block{0, 0, std::vector<limb_t*>(std::size_t(nres))}};
    bool contiguous = true;
    for (slong i = 0; i < nres && contiguous; ++i)
        for (slong row = 1; row < r && contiguous; ++row)
            contiguous = nmod_mat_entry_ptr(residues[i], row, 0) == nmod_mat_entry_ptr(residues[i], 0, 0) + row * c;
    std::vector<Block> blocks;
    for (slong row = 0; row < r; row += contiguous ? r : 1) {
        Block block{row, std::size_t(contiguous ? r * c : c), {}};
        for (slong i = 0; i < nres; ++i) block.arrays.push_back(nmod_mat_entry_ptr(residues[i], row, 0));
        blocks.push_back(std::move(block));
    }
    return blocks;
}

// Entry e of a block in the fmpz matrix.
fmpz* entry(const fmpz_mat_struct* mat, const Block& block, std::size_t e)
{
    const slong c = mat->c, at = slong(e);
    return fmpz_mat_entry(mat, block.row + at / c, at % c);
}

std::span<const limb_t* const> read_only(const std::vector<limb_t*>& arrays)
{
    return {const_cast<const limb_t* const*>(arrays.data()), arrays.size()};
}

}  // namespace

void fmpz_mat_multi_mod_ui(nmod_mat_t* residues, slong nres, const fmpz_mat_t mat)
{
    const std::string name = "fmpz_mat_multi_mod_ui";
    check_residue_count(residues, nres, name);
    check_shapes(residues, nres, mat, name);
    const PrimeSet set = prime_set_of(moduli_of(residues, nres));
    for (const Block& block : blocks_of(residues, nres, mat->r, mat->c))
        multi_mod_into(set, [&](std::size_t e) { return entry(mat, block, e); }, block.count, block.arrays, "mat");
}

void fmpz_mat_multi_CRT_ui(fmpz_mat_t mat, nmod_mat_t* const residues, slong nres, int sign)
{
    const std::string name = "fmpz_mat_multi_CRT_ui";
    check_residue_count(residues, nres, name);
    check_shapes(residues, nres, mat, name);
    const PrimeSet set = prime_set_of(moduli_of(residues, nres));
    const std::vector<Block> blocks = blocks_of(residues, nres, mat->r, mat->c);
    for (const Block& block : blocks) require_reduced(set.state(), read_only(block.arrays), block.count, name, "residues");
    for (const Block& block : blocks)
        multi_crt_into(set, read_only(block.arrays), block.count, sign != 0,
                       [&](std::size_t e) { return entry(mat, block, e); });
}

void fmpz_poly_multi_mod_ui(nmod_poly_t* residues, slong nres, const fmpz_poly_t poly)
{
    const std::string name = "fmpz_poly_multi_mod_ui";
    check_residue_count(residues, nres, name);
    if (!poly) throw Error(name + ": poly is NULL");
    const PrimeSet set = prime_set_of(moduli_of(residues, nres));
    const slong n = poly->length;
    std::vector<limb_t*> arrays;
    for (slong i = 0; i < nres; ++i) {
        nmod_poly_fit_length(residues[i], n);
        arrays.push_back(residues[i]->coeffs);
    }
    multi_mod_into(set, [poly](std::size_t e) { return poly->coeffs + e; }, std::size_t(n), arrays, "poly");
    for (slong i = 0; i < nres; ++i) {
        _nmod_poly_set_length(residues[i], n);
        _nmod_poly_normalise(residues[i]);
    }
}

void fmpz_poly_multi_CRT_ui(fmpz_poly_t poly, nmod_poly_t* const residues, slong nres, int sign)
{
    const std::string name = "fmpz_poly_multi_CRT_ui";
    check_residue_count(residues, nres, name);
    if (!poly) throw Error(name + ": poly is NULL");
    const PrimeSet set = prime_set_of(moduli_of(residues, nres));
    slong n = 0;
    for (slong i = 0; i < nres; ++i) n = std::max(n, residues[i]->length);
    // A residue shorter than the longest (its top coefficients zero modulo its modulus) is read
    // through a copy padded with zeros.
    std::vector<std::vector<limb_t>> padded;
    std::vector<const limb_t*> arrays;
    for (slong i = 0; i < nres; ++i) {
        if (residues[i]->length == n) {
            arrays.push_back(residues[i]->coeffs);
            continue;
        }
        padded.emplace_back(std::size_t(n), limb_t(0));
        std::copy_n(residues[i]->coeffs, residues[i]->length, padded.back().begin());
        arrays.push_back(padded.back().data());
    }
    require_reduced(set.state(), arrays, std::size_t(n), name, "residues");
    fmpz_poly_fit_length(poly, n);
    multi_crt_into(set, arrays, std::size_t(n), sign != 0, [poly](std::size_t e) { return poly->coeffs + e; });
    _fmpz_poly_set_length(poly, n);
    _fmpz_poly_normalise(poly);
}

}  // namespace zgpu
