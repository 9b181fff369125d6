#!/usr/bin/env bash
# Run 20: the LU's factors at the determinant's pace, the echelon form's host copies on the host
# threads, NTL's inv of mat_ZZ: zgpu's tests, the NTL plugin's program, bench_nmod_echelon with
# ZGPU_TIMING (FLINT on all threads only).
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests zgpu_flint unmodified_ntl_program unmodified_ntl_program_linked bench_nmod_echelon >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 200 ./build/tests/zgpu_tests --gtest_filter='*NmodMatEchelon*:*NmodMatLu*:LuPanelMod.*:*NtlMatrices*:*NmodMatInv*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -30
echo "tests $((SECONDS - t0)) s"
(cd build && timeout 100 ctest -R "NtlPlugin" -V) > "$OUTD/plugin-ctest.log" 2>&1
grep -E "same output|FAIL|functions sent|calls on the GPU|tests passed|differ" "$OUTD/plugin-ctest.log" | head -20
echo "ctest $((SECONDS - t0)) s"
ZGPU_TIMING=1 timeout $((560 - (SECONDS - t0))) ./build/bench/bench_nmod_echelon all-threads > "$OUTD/bench-echelon.md" 2> "$OUTD/bench-echelon.err"
tail -20 "$OUTD/bench-echelon.md"; grep -E "LU of 4096 x 4096|LU of 1000 x 4000|LU of 2048 x 2048" "$OUTD/bench-echelon.err" | tail -6
echo "done $((SECONDS - t0)) s"
