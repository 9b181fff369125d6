#!/usr/bin/env bash
# Run 50 (one H200): the gate's mend (no sample of an empty operand). The rows
# arb_poly_exp_series (four processes) and fmpz_poly_div (three), the median of calls 2 to 7 in
# each; the gates' tests and the products' GPU tests; the plugins' frame tests and unmodified
# programs; FLINT 3.6's own fmpz_poly, fmpz_poly_factor and arb_poly tests under the plugin,
# automatic (products under 256 out now reach the GPU there).
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
r=(); for k in 1 2 3; do r+=(arb_poly_exp_series fmpz_poly_div); done
BENCH_CALLS=7 timeout 150 bench/flint_plugin.sh build 16 "${r[@]}" arb_poly_exp_series > "$OUTD/plugin-rows.md" 2>&1
echo "rows $((SECONDS - t0)) s"; tail -9 "$OUTD/plugin-rows.md"
timeout 120 ./build/tests/zgpu_tests --gtest_filter='PluginGates.*:*FmpzPoly*:*ProductOverZ*:*PolyEntryPoints*:*MulEntryPoints*' > "$OUTD/tests.log" 2>&1
grep -E "tests ran|PASSED|FAILED" "$OUTD/tests.log" | head
(cd build && timeout 150 ctest -R "PluginIntercept|FlintPlugin|NtlPlugin" --output-on-failure) > "$OUTD/ctest-plugin.log" 2>&1
grep -E "tests passed|Failed|\(Failed\)" "$OUTD/ctest-plugin.log" | head
echo "ctest $((SECONDS - t0)) s"
tar -C /tmp -xJf ./flint-3.6.0-src.tar.xz; export FLINT_SOURCE=/tmp/flint-3.6.0
FLINT_TESTS_TIMEOUT=$((560 - (SECONDS - t0))) timeout $((570 - (SECONDS - t0))) scripts/flint-tests build fmpz_poly fmpz_poly_factor arb_poly > "$OUTD/flint-tests.log" 2>&1
tail -1 "$OUTD/flint-tests.log"; grep FAIL "$OUTD/flint-tests.log" | head
echo "done $((SECONDS - t0)) s"
