#!/usr/bin/env bash
# Run 19: solutions beyond 32 columns, the echelon forms, ranks and null spaces over Z (zgpu's tests, FLINT 3.6's
# own tests under the plugin with the GPU forced, bench_matrix solve and rref), the plugin's program.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
tar -C /tmp -xJf the FLINT 3.6 source archive
export FLINT_SOURCE=/tmp/flint-3.6.0
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests zgpu_flint unmodified_program unmodified_program_linked exit_during_start bench_matrix bench_nmod_echelon >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 200 ./build/tests/zgpu_tests --gtest_filter='*FmpzMatEchelon*:*FmpzMatInv*:*FmpzMatSolve*:*FmpzMat.*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -30
echo "tests $((SECONDS - t0)) s"
(cd build && timeout 100 ctest -R "FlintPlugin" -V) > "$OUTD/plugin-ctest.log" 2>&1
grep -E "same output|FAIL|functions sent|calls on the GPU|tests passed|differ" "$OUTD/plugin-ctest.log" | head -20
echo "ctest $((SECONDS - t0)) s"
export FLINT_TESTS_FILTER='^(fmpz_mat/fmpz_mat_(inv|solve|solve_multi_mod_den|can_solve_multi_mod_den|nullspace|rank|rref|rref_mul|rref_fflu)|fmpq_mat/fmpq_mat_(inv|solve_fmpz_mat|solve_fmpz_mat_multi_mod|rref))$'
ZGPU_BACKEND=gpu ZGPU_REPORT=1 timeout 120 scripts/flint-tests build fmpz_mat fmpq_mat > "$OUTD/flint-tests.log" 2>&1
grep -E "FAIL|passed" "$OUTD/flint-tests.log" | tail -8
grep -h "zgpu plugin: fmpz_mat_inv\|zgpu plugin: fmpz_mat_solve\|zgpu plugin: fmpz_mat_rref" build/flint-tests/logs/*.log | head -12 > "$OUTD/flint-tests-report.txt"; cat "$OUTD/flint-tests-report.txt"
echo "flint tests $((SECONDS - t0)) s"
ZGPU_TIMING=1 timeout $((560 - (SECONDS - t0))) ./build/bench/bench_matrix solve rref > "$OUTD/bench-solve-rref.md" 2> "$OUTD/bench-solve-rref.err"
tail -22 "$OUTD/bench-solve-rref.md"; grep -E "adjugate" "$OUTD/bench-solve-rref.err" | tail -3
echo "bench $((SECONDS - t0)) s"
echo "done $((SECONDS - t0)) s"
