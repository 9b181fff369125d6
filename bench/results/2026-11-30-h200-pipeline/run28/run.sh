#!/usr/bin/env bash
# Run 28: the session's last tree: zgpu's matrix, LU, inverse, echelon and NTL tests, the kernel
# tests of the products mod n; bench_matrix mul-z without ZGPU_TIMING.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests bench_matrix >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 170 ./build/tests/zgpu_tests --gtest_filter='*Mat*:*Lu*:*Inverse*:*Ntl*:*Echelon*:*Det*:*Product*:FmpzArrayBits.*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -20
echo "tests $((SECONDS - t0)) s"
timeout 90 ./build/bench/bench_matrix mul-z > "$OUTD/bench-mul-z.md" 2>&1
grep -A10 "End to end over Z" "$OUTD/bench-mul-z.md" | tail -5
echo "done $((SECONDS - t0)) s"
