#!/usr/bin/env bash
# Run 33 (one H200): fmpz_mat_mul's pass with its GPU work queued by a thread of its own
# (QueueThread): its test, the tests of products over Z in bands, FLINT 3.6's fmpz_mat tests under
# the plugin with the GPU forced, bench_matrix mul-z without and with ZGPU_TIMING.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
tar -C /tmp -xJf ./flint-3.6.0-src.tar.xz
export FLINT_SOURCE=/tmp/flint-3.6.0
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests zgpu_flint bench_matrix >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 120 ./build/tests/zgpu_tests --gtest_filter='GpuQueueThread.*:FmpzMat*:ProductBands.*:PrimeGroups.*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|SKIPPED \]|Failure" "$OUTD/tests.log" | head -30
echo "tests $((SECONDS - t0)) s"
export FLINT_TESTS_FILTER='^fmpz_mat/fmpz_mat_(mul|mul_multi_mod|sqr|mul_strassen|det|solve)$'
ZGPU_BACKEND=gpu ZGPU_REPORT=1 timeout 120 scripts/flint-tests build fmpz_mat > "$OUTD/flint-tests.log" 2>&1
grep -h "zgpu plugin: fmpz_mat_mul" build/flint-tests/logs/*.log | head -8 >> "$OUTD/flint-tests.log"
grep -E "FAIL|passed|zgpu plugin" "$OUTD/flint-tests.log" | tail -10
echo "flint tests $((SECONDS - t0)) s"
timeout 100 ./build/bench/bench_matrix mul-z > "$OUTD/bench-mul-z.md" 2>&1
grep -A10 "End to end over Z" "$OUTD/bench-mul-z.md" | tail -5
ZGPU_TIMING=1 timeout 100 ./build/bench/bench_matrix mul-z > "$OUTD/bench-mul-z-timing.md" 2> "$OUTD/bench-mul-z.timing"
grep -A10 "End to end over Z" "$OUTD/bench-mul-z-timing.md" | tail -3
grep -E "fmpz_mat product 1024 x 1024 times 1024 x 1024, 34" "$OUTD/bench-mul-z.timing" | tail -4
echo "done $((SECONDS - t0)) s"
