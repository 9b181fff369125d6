#!/usr/bin/env bash
# Run 44 (one H200): run43 found kernels of mat_zz_p mod 2 and 3 that differ from NTL's on the
# GPU; the GPU's LU and triangular solve apart, then FLINT 3.6's own fmpz_mat and nmod_mat tests
# under the plugin with the GPU forced, and NTL's gauss and kernel rows with and without the plugin.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 120 ./build/tests/zgpu_tests --gtest_filter='NtlLuForms.*:*NtlEchelon*:Settings.*' > "$OUTD/tests.log" 2>&1
grep -E "tests ran|PASSED|FAILED|Failure|Which is|LU|solve|kernel" "$OUTD/tests.log" | head -40
echo "tests $((SECONDS - t0)) s"
ZGPU_BACKEND=gpu ZGPU_REPORT=1 timeout 200 scripts/flint-tests build fmpz_mat nmod_mat > "$OUTD/flint-tests.log" 2>&1
grep -E "FAIL|passed" "$OUTD/flint-tests.log" | tail -8
echo "flint tests $((SECONDS - t0)) s"
PLUGIN_BENCH=ntl_algorithms timeout 150 bench/flint_plugin.sh build 0 mat_zz_p_gauss mat_zz_p_kernel > "$OUTD/bench-ntl.md" 2>&1
tail -6 "$OUTD/bench-ntl.md"
echo "done $((SECONDS - t0)) s"
