#!/usr/bin/env bash
# Run 17: the LU's factors, echelon forms and null spaces mod p on the GPU: zgpu's tests of the
# LU (det, rank, factors), FLINT 3.6's own nmod_mat tests under the plugin with the GPU forced,
# the plugin's program, bench_nmod_echelon, and the determinant's time after the kernel change.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
tar -C /tmp -xJf the FLINT 3.6 source archive
export FLINT_SOURCE=/tmp/flint-3.6.0
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests zgpu_flint unmodified_program unmodified_program_linked exit_during_start bench_nmod_echelon bench_nmod_lu >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 200 ./build/tests/zgpu_tests --gtest_filter='*NmodMatEchelon*:*NmodMatLu*:LuPanelMod.*:DetMod.*:*NmodMatInv*:*NmodMatSolve*:*NmodMat.*:*NtlMatrices*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -30
echo "tests $((SECONDS - t0)) s"
(cd build && timeout 100 ctest -R "FlintPlugin" -V) > "$OUTD/plugin-ctest.log" 2>&1
grep -E "same output|FAIL|functions sent|calls on the GPU|tests passed|differ" "$OUTD/plugin-ctest.log" | head -20
echo "ctest $((SECONDS - t0)) s"
ZGPU_BACKEND=gpu ZGPU_REPORT=1 timeout 150 scripts/flint-tests build nmod_mat > "$OUTD/flint-tests.log" 2>&1
grep -E "FAIL|passed" "$OUTD/flint-tests.log" | tail -8
echo "flint tests $((SECONDS - t0)) s"
timeout 200 ./build/bench/bench_nmod_echelon > "$OUTD/bench-echelon.md" 2> "$OUTD/bench-echelon.err"
cat "$OUTD/bench-echelon.md"; tail -3 "$OUTD/bench-echelon.err"
echo "bench $((SECONDS - t0)) s"
ZGPU_TIMING=1 timeout 30 ./build/bench/bench_nmod_lu 4096 > "$OUTD/det-4096.txt" 2>&1
tail -4 "$OUTD/det-4096.txt"
echo "done $((SECONDS - t0)) s"
