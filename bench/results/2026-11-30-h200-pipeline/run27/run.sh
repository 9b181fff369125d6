#!/usr/bin/env bash
# Run 27: why the unmodified program's fmpz_poly_div row is slower with the plugin in some runs.
# Three alternating rounds of: without the plugin; with it; with it and _fmpz_poly_mul left to
# FLINT (ZGPU_PLUGIN_EXCLUDE); then one run with ZGPU_TIMING and ZGPU_REPORT for the shapes and
# the split of the products that went to the GPU.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF -DZGPU_BUILD_TESTS=OFF > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_flint flint_algorithms >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
ulimit -s 8192
p=build/bench/flint_algorithms
for round in 1 2 3; do
  echo "round $round" >> "$OUTD/rows.txt"
  $p 16 fmpz_poly_div | tail -1 | sed 's/^/without  /' >> "$OUTD/rows.txt"
  LD_PRELOAD=build/libzgpu_flint.so $p 16 fmpz_poly_div | tail -1 | sed 's/^/with     /' >> "$OUTD/rows.txt"
  ZGPU_PLUGIN_EXCLUDE=_fmpz_poly_mul LD_PRELOAD=build/libzgpu_flint.so $p 16 fmpz_poly_div | tail -1 | sed 's/^/excluded /' >> "$OUTD/rows.txt"
done
cat "$OUTD/rows.txt"
ZGPU_TIMING=1 ZGPU_REPORT=1 LD_PRELOAD=build/libzgpu_flint.so $p 16 fmpz_poly_div > "$OUTD/timing-row.txt" 2> "$OUTD/timing.txt"
grep -c "fmpz_poly product" "$OUTD/timing.txt"
grep "fmpz_poly product" "$OUTD/timing.txt" | sed -E 's/, total .*//; s/: packing.*//' | sort | uniq -c | sort -rn | head -20
grep "zgpu plugin" "$OUTD/timing.txt"
echo "done $((SECONDS - t0)) s"
