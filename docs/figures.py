#!/usr/bin/env python3
"""The manual's generated parts, made again on every build (scripts/docs):

- figures and tables of measurements, read from the markdown tables that the benchmarks wrote
  into bench/results/ (each table says the file it comes from);
- the table of ZGPU_ environment variables, read from kSettings in base/settings.cpp;
- the table of CMake options, read from the option() lines of CMakeLists.txt.

Nothing here holds a number of its own: a figure is the file's numbers drawn again.
Usage: figures.py [OUT_DIR] (default: docs/_generated). Needs matplotlib.
"""
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after the backend is chosen)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = "bench/results"

# The runs the manual shows: one H200 with 16 host threads, FLINT 3.6 in the same process.
POLY = f"{RESULTS}/2026-11-26-h200-poly-efca329.md"
MATRIX = f"{RESULTS}/2026-11-26-h200-lu-blocks-133356f.md"
# The products mod n since they run on the tensor cores, over Z since their pass is pipelined (the
# README of each folder maps runs to trees).
MATRIX_MOD_N = f"{RESULTS}/2026-11-29-h200-inverse-leaves/run02/bench-mul.md"
MATRIX_OVER_Z = f"{RESULTS}/2026-11-30-h200-pipeline/run25/bench-mul-z.md"
# The LU mod p since its panels start on their top rows and its blocks update on the tensor cores.
MATRIX_LU = f"{RESULTS}/2026-11-29-h200-inverse-leaves/run02/bench-lu.md"
# The inverse mod p by blocks since its leaves eliminate without division.
MATRIX_INV = f"{RESULTS}/2026-11-29-h200-inverse-leaves/run03/bench-inverse.md"
RESULTANT = f"{RESULTS}/2026-11-26-h200-last-check-c6b3e02.md"
PRODUCTS = f"{RESULTS}/2026-11-24-h200-mul-0d65022.md"
# The plugin's rows: FLINT's from one run of every row (with compositions mod f and nmod_mat_inv
# on the GPU) and later runs of some (the last two with the median of calls 2 to 7 as "second"),
# NTL's from an earlier round. A later file's run of a row replaces the earlier one's.
PLUGIN_FLINT = [f"{RESULTS}/2026-11-29-h200-compose/run32-plugin-rows.md",
                f"{RESULTS}/2026-11-29-h200-inverse-leaves/run03/plugin-rows.md",
                f"{RESULTS}/2026-11-29-h200-inverse-leaves/run04/plugin-rows.md",
                f"{RESULTS}/2026-11-30-h200-compose-over-z/run08-plugin-rows.md",
                f"{RESULTS}/2026-11-30-h200-compose-over-z/run09-plugin-rows.md",
                f"{RESULTS}/2026-11-30-h200-compose-over-z/run10-plugin-rows.md",
                f"{RESULTS}/2026-11-30-h200-compose-over-z/run14-plugin-rows.md",
                f"{RESULTS}/2026-11-30-h200-pipeline/run25/plugin-rows.md",
                f"{RESULTS}/2026-11-30-h200-later-calls/run49/plugin-rows.md",
                f"{RESULTS}/2026-11-30-h200-later-calls/run52/plugin-rows.md"]
PLUGIN_NTL = f"{RESULTS}/2026-11-28-h200-plugin-ntl-pow-f12bc9c/bench-ntl.md"
# Multi-modular reduction and CRT: an H100 with 16 host threads.
MODULAR = f"{RESULTS}/2026-11-25-h100-modular-crt-tensor-a81b131.md"
# Two H200s joined by NVLink, 32 host threads.
DEVICES = f"{RESULTS}/2026-11-26-2xh200-devices-862578d.md"

SIXTEEN, ONE = "FLINT 3.6 on 16 threads", "FLINT 3.6 on one thread (its function uses one)"
COLOURS = {SIXTEEN: "tab:blue", ONE: "tab:orange"}


# --- reading the results' markdown tables -------------------------------------------------------

def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read().splitlines()


def table(path, after=None):
    """The rows (dicts by column name) of the first table after the first line that contains
    `after` (the file's first table without it). A table that is not there is an error, so that a
    renamed heading stops the build instead of drawing nothing."""
    lines = read(path)
    start = 0
    if after is not None:
        start = next((i for i, line in enumerate(lines) if after in line), None)
        if start is None:
            sys.exit(f"figures.py: no line with '{after}' in {path}")
    at = next((i for i in range(start, len(lines)) if lines[i].startswith("|")), None)
    if at is None:
        sys.exit(f"figures.py: no table after '{after}' in {path}")

    def cells(line):
        return [c.strip() for c in line.strip().strip("|").split("|")]

    header = cells(lines[at])
    rows = []
    for line in lines[at + 2:]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(header, cells(line))))
    return rows


def number(cell):
    """The number a cell starts with ("1.00 (gpu)", "4.7, parallel", "2048 x 2048"); None for "-".
    A number is itself."""
    if isinstance(cell, (int, float)):
        return float(cell)
    m = re.match(r"[0-9]+(\.[0-9]+)?", cell.strip())
    return float(m.group(0)) if m else None


def pick(rows, **want):
    """The one row whose columns hold the given texts."""
    found = [r for r in rows if all(r.get(k) == v for k, v in want.items())]
    if len(found) != 1:
        sys.exit(f"figures.py: {len(found)} rows match {want}")
    return found[0]


def power_of_two(n):
    n = int(n)
    return f"2^{n.bit_length() - 1}" if n >= 1024 and n & (n - 1) == 0 else str(n)


# --- writing rst -------------------------------------------------------------------------------

def rst_table(header, rows, sources, widths=None):
    """A list-table, then the files its numbers come from."""
    out = [".. list-table::", "   :header-rows: 1"]
    if widths:
        out.append("   :widths: " + " ".join(str(w) for w in widths))
    out.append("")
    for row in [header] + rows:
        for j, cell in enumerate(row):
            text = str(cell).replace("*", r"\*") if cell != "" else " "
            out.append(("   * - " if j == 0 else "     - ") + text)
    sources = [sources] if isinstance(sources, str) else sources
    out += ["", "Source: " + ", ".join(f"``{s}``" for s in sources) + ".", ""]
    return "\n".join(out)


def write(out_dir, name, text):
    with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
        f.write(text if text.endswith("\n") else text + "\n")


def save(fig, out_dir, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=110, metadata={"Software": None})
    plt.close(fig)


def ratio_plot(out_dir, name, series, xlabel, ylabel, title, x_base=10):
    """Ratios (1 is a tie) against a size, log-log: series is a list of (label, [(x, y)])."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, points in series:
        ax.plot([number(x) for x, _ in points], [number(y) for _, y in points], marker="o", label=label)
    ax.set_xscale("log", base=x_base)
    ax.set_yscale("log")
    ax.axhline(1, color="black", linewidth=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7)
    save(fig, out_dir, name)


# --- the figures -------------------------------------------------------------------------------

def speedups():
    """End-to-end speed-ups of the main operations, as the files print them:
    (label, zgpu ms, FLINT ms, x FLINT, baseline, file)."""
    out = []
    rows = table(POLY, "### 1. End to end")
    names = {"fmpz_poly_mul": "fmpz_poly_mul", "nmod_poly_mul, 62-bit prime": "nmod_poly_mul",
             "nmod_poly_mul_many, 10^4 pairs, 62-bit primes": "nmod_poly_mul_many"}
    for r in rows:
        name = names[r["product"]]
        if name == "fmpz_poly_mul":
            label = f"{name}, {power_of_two(r['length'])} x {r['bits']} bits"
        elif name == "nmod_poly_mul":
            label = f"{name}, {power_of_two(r['length'])}, 62-bit prime"
        else:
            label = f"{name}, 10^4 x {r['length']}"
        out.append((label, r["zgpu gpu ms"], r["FLINT 16 threads ms"], r["x FLINT-16"], SIXTEEN, POLY))

    def rows_of(path, heading, picks, ms, flint_ms, ratio, baseline):
        """One row of `out` a pick: (label, columns wanted) of the table under `heading`."""
        found = table(path, heading)
        for label, want in picks:
            r = pick(found, **want)
            out.append((label, r[ms], r[flint_ms], r[ratio], baseline, path))

    rows_of(MATRIX_MOD_N, "### End to end: zgpu_nmod_mat_mul",
            [(f"nmod_mat_mul, {n} x {n}, 62-bit prime", {"n": n, "bits": "62"}) for n in ("1024", "2048")],
            "gpu ms", "FLINT 16 ms", "x FLINT-16", SIXTEEN)
    rows_of(MATRIX_OVER_Z, "### End to end over Z: zgpu_fmpz_mat_mul",
            [(f"fmpz_mat_mul, {n} x {n}, {bits} bits", {"n": n, "bits": bits}) for n, bits in (("512", "256"), ("1024", "1024"))],
            "gpu ms", "FLINT 16 ms", "x FLINT-16", SIXTEEN)
    rows_of(MATRIX_LU, "## zgpu determinants and ranks mod p",
            [(f"nmod_mat_{kind}, {shape}, 62-bit prime", {"": kind, "shape": shape, "rank": rank})
             for kind, shape, rank in (("det", "2048 x 2048", "2048"), ("det", "4096 x 4096", "4096"),
                                       ("rank", "1000 x 4000", "1000"))],
            "gpu ms", "FLINT 16 ms", "x FLINT-16", SIXTEEN)
    rows_of(MATRIX_INV, "### End to end: zgpu_nmod_mat_inv",
            [("nmod_mat_inv, 2048 x 2048, 62-bit prime", {"n": "2048"})], "gpu ms", "FLINT ms", "x FLINT", SIXTEEN)
    rows_of(MATRIX, "### End to end: zgpu_fmpz_mat_det",
            [(f"fmpz_mat_det, {n} x {n}, {bits} bits", {"n": n, "bits": bits}) for n, bits in (("400", "64"), ("100", "1024"))],
            "gpu ms", "FLINT ms", "x FLINT", ONE)
    rows_of(RESULTANT, "## zgpu resultants over Z",
            [(f"fmpz_poly_resultant, {length} x {bits} bits", {"length": length, "bits": bits})
             for length, bits in (("500", "64"), ("1000", "256"), ("2000", "64"))],
            "gpu ms", "FLINT ms", "x FLINT", ONE)
    return out


def figure_speedups(out_dir):
    rows = speedups()
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(rows) + 1.4))
    y = range(len(rows))[::-1]
    x = [number(r[3]) for r in rows]
    ax.barh(list(y), x, color=[COLOURS[r[4]] for r in rows])
    ax.set_yticks(list(y), [r[0] for r in rows], fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("speed-up over FLINT 3.6, end to end (FLINT objects in and out)")
    ax.axvline(1, color="black", linewidth=0.8)
    for yy, xx, r in zip(y, x, rows):
        ax.text(xx * 1.08, yy, r[3], va="center", fontsize=7)
    ax.set_xlim(1, max(x) * 3)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in COLOURS.values()]
    ax.legend(handles, list(COLOURS), fontsize=7, loc="upper right")
    ax.set_title("zgpu on one NVIDIA H200 (16 host threads)", fontsize=10)
    save(fig, out_dir, "speedup.png")

    header = ["call", "zgpu ms", "FLINT ms", "x FLINT", "FLINT ran on"]
    body = [[r[0], r[1], r[2], r[3], "16 threads" if r[4] == SIXTEEN else "one thread"] for r in rows]
    files = list(dict.fromkeys(r[5] for r in rows))
    text = rst_table(header, body, files, widths=[45, 12, 12, 12, 19])
    write(out_dir, "speedup.inc", text)


def figure_matrices(out_dir):
    mul = [r for r in table(MATRIX_MOD_N, "### End to end: zgpu_nmod_mat_mul") if r["bits"] == "62"]
    lu = table(MATRIX_LU, "## zgpu determinants and ranks mod p")
    def square_full_rank(r, kind):
        rows, cols = r["shape"].split(" x ")
        return r[""] == kind and rows == cols == r["rank"]

    det = [r for r in lu if square_full_rank(r, "det")]
    rank = [r for r in lu if square_full_rank(r, "rank")]
    zdet = [r for r in table(MATRIX, "### End to end: zgpu_fmpz_mat_det") if r["bits"] == "64"]
    inv = [r for r in table(MATRIX_INV, "### End to end: zgpu_nmod_mat_inv") if r["x FLINT"] != "-"]
    series = [
        ("nmod_mat_mul, 62-bit prime (FLINT on 16 threads)", [(r["n"], r["x FLINT-16"]) for r in mul]),
        ("nmod_mat_det, 62-bit prime (FLINT on 16 threads)", [(r["rank"], r["x FLINT-16"]) for r in det]),
        ("nmod_mat_rank, 62-bit prime (FLINT on 16 threads)", [(r["rank"], r["x FLINT-16"]) for r in rank]),
        ("nmod_mat_inv, 62-bit prime (FLINT on 16 threads)", [(r["n"], r["x FLINT"]) for r in inv]),
        ("fmpz_mat_det, 64-bit entries (FLINT on one thread)", [(r["n"], r["x FLINT"]) for r in zdet]),
    ]
    ratio_plot(out_dir, "matrices.png", series, "n (n x n matrices)", "FLINT's time / zgpu's time (GPU forced)",
               "Matrices, end to end, one H200", x_base=2)

    header = ["n", "nmod_mat_mul x FLINT-16", "nmod_mat_det x FLINT-16", "nmod_mat_rank x FLINT-16", "nmod_mat_inv x FLINT-16",
              "fmpz_mat_det x FLINT-1"]
    sizes = sorted({int(p[0]) for _, points in series for p in points})
    lookup = [dict((int(p[0]), p[1]) for p in points) for _, points in series]
    body = [[str(n)] + [s.get(n, "-") for s in lookup] for n in sizes]
    write(out_dir, "matrices.inc", rst_table(header, body, [MATRIX_MOD_N, MATRIX_LU, MATRIX_INV, MATRIX]))


def figure_polynomials(out_dir):
    rows = table(POLY, "### 3. Crossover")
    series = {}
    for r in rows:
        key = f"{r['op']}, {r['bits']}-bit " + ("prime" if r["op"].startswith("nmod") else "coefficients")
        series.setdefault(key, []).append((number(r["length"]), number(r["cpu ms"]) / number(r["gpu ms"]),
                                           r["auto backend"]))
    ratio_plot(out_dir, "polynomials.png", [(label, [p[:2] for p in points]) for label, points in series.items()],
               "length of each operand", "CPU backend's time / GPU's time",
               "Polynomial products: where the GPU pays (FLINT on 16 threads)", x_base=2)

    header = ["product", "length", "cpu ms", "gpu ms", "auto chose"]
    body = [[r["op"] + f", {r['bits']} bits", r["length"], r["cpu ms"], r["gpu ms"], r["auto backend"]] for r in rows]
    write(out_dir, "polynomials.inc", rst_table(header, body, POLY))

    ends = table(POLY, "### 1. End to end")
    header = ["product", "length", "bits", "GPU path ms", "FLINT 16 threads ms", "x FLINT-16"]
    body = [[r["product"], r["length"], r["bits"], r["zgpu gpu ms"], r["FLINT 16 threads ms"], r["x FLINT-16"]] for r in ends]
    write(out_dir, "polynomials-end-to-end.inc", rst_table(header, body, POLY))


def figure_resultants(out_dir):
    over_z = table(RESULTANT, "## zgpu resultants over Z")
    mod_p = table(RESULTANT, "## zgpu resultants modulo one prime")
    z64 = [r for r in over_z if r["bits"] == "64"]
    ratio_plot(out_dir, "resultants.png",
               [("fmpz_poly_resultant, 64-bit coefficients", [(r["length"], r["x FLINT"]) for r in z64]),
                ("nmod_poly_resultant, 62-bit prime (GPU forced)", [(r["length"], r["x FLINT"]) for r in mod_p])],
               "length of each polynomial", "FLINT's time / zgpu's GPU time",
               "Resultants, one H200 (FLINT's functions use one thread)")

    header = ["length", "bits", "result bits", "gpu ms", "auto ms (backend)", "FLINT ms", "x FLINT"]
    body = [[r["length"], r["bits"], r["res bits"], r["gpu ms"], r["auto ms"], r["FLINT ms"], r["x FLINT"]] for r in over_z]
    write(out_dir, "resultants.inc", rst_table(header, body, RESULTANT))
    header = ["length", "gpu ms", "auto ms (backend)", "FLINT ms", "x FLINT"]
    body = [[r["length"], r["gpu ms"], r["auto ms"], r["FLINT ms"], r["x FLINT"]] for r in mod_p]
    write(out_dir, "resultants-mod-p.inc", rst_table(header, body, RESULTANT))


def figure_products(out_dir):
    resident = table(PRODUCTS, "### Full products, equal sizes, device-resident")
    ends = table(PRODUCTS, "### End to end: zgpu_fmpz_vec_mul")
    ratio_plot(out_dir, "products.png",
               [("device-resident (DeviceBatch)", [(r["bits"], r["zgpu / FLINT-16"]) for r in resident]),
                ("end to end (zgpu_fmpz_vec_mul, GPU forced)", [(r["bits"], r["gpu / FLINT-16"]) for r in ends])],
               "bits of each operand", "speed-up over fmpz_mul on 16 threads", "Batches of full products, one H200",
               x_base=2)

    header = ["bits", "count", "zgpu M products/s", "FLINT 16 threads M products/s", "x FLINT-16"]
    body = [[r["bits"], r["count"], r["zgpu auto Mprod/s"], r["FLINT 16 threads Mprod/s"], r["zgpu / FLINT-16"]]
            for r in resident]
    write(out_dir, "products-resident.inc", rst_table(header, body, PRODUCTS))
    header = ["bits", "count", "GPU path ms", "CPU backend ms", "auto ms (backend)", "FLINT 16 threads ms", "x FLINT-16"]
    body = [[r["bits"], r["count"], r["zgpu gpu ms"], r["zgpu cpu ms"], r["zgpu auto ms (backend)"],
             r["FLINT 16 threads ms"], r["gpu / FLINT-16"]] for r in ends]
    write(out_dir, "products-end-to-end.inc", rst_table(header, body, PRODUCTS))


def figure_plugin(out_dir):
    """A row of each file, the median by speed-up where a file repeats it (the lower of the two
    middle ones for an even count); a later file's row stands for the earlier ones' (the files
    are in the order of the trees they ran)."""
    by_row = {}
    for name in PLUGIN_FLINT + [PLUGIN_NTL]:
        library = "NTL" if name == PLUGIN_NTL else "FLINT"
        repeats = {}
        for r in table(name, "| row |"):
            without = r["without the plugin s (first, second)"].split(",")[1].strip()
            with_ = r["with the plugin s (first, second)"].split(",")[1].strip()
            repeats.setdefault(r["row"], []).append((r["row"], without, with_, r["speed-up (second)"], r["same result"], library))
        for row, runs in repeats.items():
            runs.sort(key=lambda run: number(run[3]))
            by_row[(library, row)] = runs[(len(runs) - 1) // 2]
    rows = list(by_row.values())
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(rows) + 1.4))
    y = range(len(rows))[::-1]
    x = [number(r[3]) for r in rows]
    ax.barh(list(y), x, color=["tab:green" if r[5] == "FLINT" else "tab:purple" for r in rows])
    ax.set_yticks(list(y), [f"{r[5]}: {r[0]}" for r in rows], fontsize=8)
    ax.set_xscale("log")
    ax.axvline(1, color="black", linewidth=0.8)
    for yy, xx, r in zip(y, x, rows):
        ax.text(xx * 1.08, yy, r[3], va="center", fontsize=7)
    ax.set_xlim(min(x) / 1.5, max(x) * 3)
    ax.set_xlabel("time without the plugin / time with it (second call, or median of later ones)")
    ax.set_title("Unmodified programs with libzgpu_flint.so, one H200", fontsize=10)
    save(fig, out_dir, "plugin.png")

    header = ["library", "row", "without s", "with the plugin s", "speed-up", "same result"]
    body = [[r[5], r[0], r[1], r[2], r[3], r[4]] for r in rows]
    write(out_dir, "plugin.inc", rst_table(header, body, PLUGIN_FLINT + [PLUGIN_NTL]))


def modular_tables(out_dir):
    body = []
    for what, heading in (("reduction", "### Reduction (multi_mod), device-resident"),
                          ("CRT, signed", "### CRT, signed (multi_crt), device-resident")):
        for r in table(MODULAR, heading):
            body.append([what, r["bits"], r["k"], r["zgpu ms"], r["FLINT 16 threads ms"], r["zgpu / FLINT-16"]])
    header = ["call", "bits", "moduli", "zgpu ms", "FLINT 16 threads ms", "x FLINT-16"]
    write(out_dir, "modular-resident.inc", rst_table(header, body, MODULAR))
    rows = table(MODULAR, "## zgpu multi-modular reduction and CRT of host vectors, end to end")
    header = ["call", "bits", "moduli", "GPU path ms", "CPU backend ms", "auto ms (backend)", "FLINT 16 threads ms",
              "x FLINT-16"]
    body = [[r["call"], r["bits"], r["k"], r["zgpu gpu ms"], r["zgpu cpu ms"], r["zgpu auto ms (backend)"],
             r["FLINT 16 threads ms"], r["gpu / FLINT-16"]] for r in rows]
    write(out_dir, "modular-end-to-end.inc", rst_table(header, body, MODULAR))


def devices_table(out_dir):
    rows = table(DEVICES, "## zgpu operations on host vectors on one GPU and split over 2")
    header = ["call", "n", "bits", "moduli", "1 GPU ms", "2 GPUs ms", "scaling", "host copy share, 2 GPUs"]
    body = [[r["call"], power_of_two(r["n"]), r["bits"], r["k"] if r["k"] != "0" else "-", r["1 GPU ms"], r["2 GPUs ms"],
             r["scaling"], r["host copy share, 2"]] for r in rows]
    write(out_dir, "devices.inc", rst_table(header, body, DEVICES))


# --- settings and options ----------------------------------------------------------------------

def settings_table(out_dir):
    text = "\n".join(read("base/settings.cpp"))
    block = re.search(r"kSettings\[\] = \{(.*?)\n\};", text, re.S)
    if not block:
        sys.exit("figures.py: no kSettings in base/settings.cpp")
    rows = re.findall(r'\{"(ZGPU_\w+)",\s*"([^"]*)",\s*"([^"]*)"\}', block.group(1))
    if not rows:
        sys.exit("figures.py: kSettings in base/settings.cpp has no rows")
    body = [[f"``{name}``", default, meaning] for name, default, meaning in rows]
    write(out_dir, "settings.inc", rst_table(["variable", "default", "meaning"], body, "base/settings.cpp", [25, 20, 55]))


def cmake_options_table(out_dir):
    lines = read("CMakeLists.txt")
    rows = []
    for line in lines:
        m = re.match(r'option\((\w+) "([^"]*)" ([^)]*)\)', line.strip())
        if m:
            default = m.group(3)
            if default == "${PROJECT_IS_TOP_LEVEL}":
                default = "ON, OFF inside another project's build"
            rows.append([f"``{m.group(1)}``", default, m.group(2)])
    if not rows:
        sys.exit("figures.py: no option() in CMakeLists.txt")
    write(out_dir, "cmake-options.inc", rst_table(["option", "default", "meaning"], rows, "CMakeLists.txt", [25, 20, 55]))


def main():
    out_dir = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "_generated")
    os.makedirs(out_dir, exist_ok=True)
    figure_speedups(out_dir)
    figure_matrices(out_dir)
    figure_polynomials(out_dir)
    figure_resultants(out_dir)
    figure_products(out_dir)
    figure_plugin(out_dir)
    modular_tables(out_dir)
    devices_table(out_dir)
    settings_table(out_dir)
    cmake_options_table(out_dir)
    print(f"figures.py: figures and tables in {os.path.relpath(out_dir, ROOT)}")


if __name__ == "__main__":
    main()
