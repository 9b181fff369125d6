#!/usr/bin/env bash
# Run 26: the products over Z without ZGPU_TIMING (its events cost the host thread), then with it
# for the split, now with the time the host thread spends queueing the GPU's work.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests bench_matrix >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 100 ./build/tests/zgpu_tests --gtest_filter='FmpzMat*:ProductBands.*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -10
timeout 150 ./build/bench/bench_matrix mul-z > "$OUTD/bench-mul-z.md" 2>&1
grep -A10 "End to end over Z" "$OUTD/bench-mul-z.md" | tail -4
ZGPU_TIMING=1 timeout 150 ./build/bench/bench_matrix mul-z > "$OUTD/bench-mul-z-timing.md" 2> "$OUTD/bench-mul-z.timing"
grep -A10 "End to end over Z" "$OUTD/bench-mul-z-timing.md" | tail -2
grep -E "fmpz_mat product 1024 x 1024 times 1024 x 1024, 34" "$OUTD/bench-mul-z.timing" | tail -4
echo "done $((SECONDS - t0)) s"
