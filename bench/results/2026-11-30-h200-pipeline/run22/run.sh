#!/usr/bin/env bash
# Run 22: the pipelined product over Z (banded_product) and the review mends of 9c7f95f: tests of
# products over Z, inverses, echelon forms, solves and NTL's matrices; the plugins' programs;
# bench_matrix's products over Z with ZGPU_TIMING.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests zgpu_flint bench_matrix unmodified_program unmodified_program_linked unmodified_ntl_program unmodified_ntl_program_linked exit_during_start flint_algorithms >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 200 ./build/tests/zgpu_tests --gtest_filter='FmpzMat*:ProductBands.*:ProductBlocks.*:*FmpzMatInv*:*FmpzMatEchelon*:*NtlMatrices*:*FmpzMatSolve*:*Ntl*Mat*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|SKIPPED \]|Failure" "$OUTD/tests.log" | head -30
echo "tests $((SECONDS - t0)) s"
(cd build && timeout 90 ctest -R "FlintPlugin|NtlPlugin") > "$OUTD/plugin-ctest.log" 2>&1
grep -E "tests passed|Failed|\*\*\*" "$OUTD/plugin-ctest.log" | head -10
echo "ctest $((SECONDS - t0)) s"
ZGPU_TIMING=1 timeout $((480 - (SECONDS - t0))) ./build/bench/bench_matrix mul-z > "$OUTD/bench-mul-z.md" 2> "$OUTD/bench-mul-z.timing"
cat "$OUTD/bench-mul-z.md" | tail -20
grep "fmpz_mat product 1024 x 1024 times 1024 x 1024, 34" "$OUTD/bench-mul-z.timing" | tail -3
echo "done $((SECONDS - t0)) s"
