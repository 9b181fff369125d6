#!/usr/bin/env bash
# Run 25: the pass within the warm start's pinned staging (96 MiB), bands of 79 rows at 1024; as run 24:
# tests of products over Z and of the bits; the plugin's programs; the
# products over Z with ZGPU_TIMING; the unmodified program's fmpz_mat_mul row with and without
# the plugin.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests zgpu_flint bench_matrix unmodified_program unmodified_program_linked unmodified_ntl_program unmodified_ntl_program_linked exit_during_start flint_algorithms >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 150 ./build/tests/zgpu_tests --gtest_filter='FmpzArrayBits.*:FmpzMat*:ProductBands.*:*FmpzPoly*:*Ntl*Mat*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|SKIPPED \]|Failure" "$OUTD/tests.log" | head -30
echo "tests $((SECONDS - t0)) s"
(cd build && timeout 90 ctest -R "FlintPlugin|NtlPlugin") > "$OUTD/plugin-ctest.log" 2>&1
grep -E "tests passed|Failed|\*\*\*" "$OUTD/plugin-ctest.log" | head -10
echo "ctest $((SECONDS - t0)) s"
ZGPU_TIMING=1 timeout 200 ./build/bench/bench_matrix mul-z > "$OUTD/bench-mul-z.md" 2> "$OUTD/bench-mul-z.timing"
grep -A10 "End to end over Z" "$OUTD/bench-mul-z.md" | tail -4
grep -E "fmpz_mat product 1024 x 1024 times 1024 x 1024, 34|fmpz_mat_mul: reading" "$OUTD/bench-mul-z.timing" | tail -6
echo "bench $((SECONDS - t0)) s"
timeout $((540 - (SECONDS - t0))) bench/flint_plugin.sh build 16 fmpz_mat_mul > "$OUTD/plugin-rows.md" 2>&1
tail -8 "$OUTD/plugin-rows.md"
echo "done $((SECONDS - t0)) s"
