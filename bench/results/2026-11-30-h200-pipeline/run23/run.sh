#!/usr/bin/env bash
# Run 23: b's planes made once for all bands (TensorRightOperand): the kernel tests of products
# mod n, the LU's and the products over Z; bench_matrix's products mod n and over Z with ZGPU_TIMING.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests bench_matrix >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 240 ./build/tests/zgpu_tests --gtest_filter='MatMulMod.*:FmpzMat*:ProductBands.*:*NmodMat*:*Lu*:DetMod.*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|SKIPPED \]|Failure" "$OUTD/tests.log" | head -30
echo "tests $((SECONDS - t0)) s"
ZGPU_TIMING=1 timeout $((500 - (SECONDS - t0))) ./build/bench/bench_matrix mul-z mul > "$OUTD/bench.md" 2> "$OUTD/bench.timing"
grep -A12 "End to end over Z" "$OUTD/bench.md"; grep -A14 "End to end: zgpu_nmod_mat_mul" "$OUTD/bench.md" | head -20
grep "fmpz_mat product 1024 x 1024 times 1024 x 1024, 34" "$OUTD/bench.timing" | tail -3
echo "done $((SECONDS - t0)) s"
