#!/usr/bin/env bash
# Run 47 (one H200): the review's mends after run46 (the triangular solve's and the kernel's
# temporaries, ScopedVariable): the NTL faces' tests, the GPU's LU against a plain LU, zgpu's LU
# tests against FLINT, the determinant's tests.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 100 ./build/tests/zgpu_tests --gtest_filter='NtlLuForms.*:*NtlEchelon*:*NmodMatEchelon*:*FmpzMatDet*:Settings.*:Environment.*' > "$OUTD/tests.log" 2>&1
grep -E "tests ran|PASSED|FAILED|Failure" "$OUTD/tests.log" | head -20
echo "done $((SECONDS - t0)) s"
