#!/usr/bin/env bash
# Run 49 (one H200): products over Z under 256 coefficients out whose sampled coefficients are
# large now read their sizes (Arb's power series), and the host threads stay awake through a
# GPU product over Z. The exp series' GPU products split (ZGPU_TIMING, five calls); the rows
# arb_poly_exp_series, fmpz_poly_factor and fmpz_poly_div, the median of calls 2 to 7 in each
# process, four processes a row (two for the division); the plugins' frame tests and unmodified
# programs; FLINT 3.6's own fmpz_poly tests under the plugin, automatic.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
BENCH_CALLS=5 ZGPU_TIMING=1 LD_PRELOAD=build/libzgpu_flint.so timeout 30 build/bench/flint_algorithms 16 arb_poly_exp_series > "$OUTD/timing-exp-series.txt" 2>&1
tail -1 "$OUTD/timing-exp-series.txt"
r=(); for k in 1 2 3 4; do r+=(arb_poly_exp_series fmpz_poly_factor); done
BENCH_CALLS=7 timeout 150 bench/flint_plugin.sh build 16 "${r[@]}" fmpz_poly_div fmpz_poly_div > "$OUTD/plugin-rows.md" 2>&1
echo "rows $((SECONDS - t0)) s"; tail -12 "$OUTD/plugin-rows.md"
./build/tests/zgpu_tests --gtest_filter='PluginGates.*' 2>&1 | tail -2
(cd build && timeout 150 ctest -R "PluginIntercept|FlintPlugin|NtlPlugin" --output-on-failure) > "$OUTD/ctest-plugin.log" 2>&1
grep -E "tests passed|Failed|\(Failed\)" "$OUTD/ctest-plugin.log" | head
echo "ctest $((SECONDS - t0)) s"
tar -C /tmp -xJf ./flint-3.6.0-src.tar.xz; export FLINT_SOURCE=/tmp/flint-3.6.0
FLINT_TESTS_TIMEOUT=$((560 - (SECONDS - t0))) timeout $((570 - (SECONDS - t0))) scripts/flint-tests build fmpz_poly > "$OUTD/flint-tests-fmpz_poly.log" 2>&1
tail -1 "$OUTD/flint-tests-fmpz_poly.log"; grep FAIL "$OUTD/flint-tests-fmpz_poly.log" | head
echo "done $((SECONDS - t0)) s"
