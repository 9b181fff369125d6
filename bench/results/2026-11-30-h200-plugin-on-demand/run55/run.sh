#!/usr/bin/env bash
# Run 55 (one H200, the machine of run 54 still up): FLINT 3.6's own tests of the plugin's modules
# and of the algorithms above them, linked with the FLINT plugin ahead of libflint, automatic (the
# plugin loads zgpu when a call first goes to it and starts the GPU on its own thread), sixteen
# at once; then the fmpz_mat_det row, which run 54's time limit left out.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat .device/commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake --build build --target zgpu_flint zgpu_shared flint_algorithms > "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; tail -20 "$OUTD/build.log"; }
tar -C /tmp -xJf .device/flint-3.6.0-src.tar.xz; export FLINT_SOURCE=/tmp/flint-3.6.0
FLINT_TESTS_TIMEOUT=300 timeout 380 scripts/flint-tests build fmpz_poly nmod_poly fmpz_mat nmod_mat fmpz_poly_factor nmod_poly_factor arb_poly > "$OUTD/flint-tests.log" 2>&1
tail -1 "$OUTD/flint-tests.log"; grep FAIL "$OUTD/flint-tests.log" | head
echo "flint tests $((SECONDS - t0)) s"
BENCH_CALLS=3 timeout $((470 - (SECONDS - t0))) bench/flint_plugin.sh build 16 fmpz_mat_det > "$OUTD/plugin-rows.md" 2>&1
tail -4 "$OUTD/plugin-rows.md"
echo "done $((SECONDS - t0)) s"
