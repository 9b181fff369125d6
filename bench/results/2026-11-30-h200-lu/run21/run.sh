#!/usr/bin/env bash
# Run 21: the session's last tree: zgpu's matrix, LU and NTL tests, the plugins' programs (FLINT
# and NTL), and the unmodified program's new rows with and without the plugin.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests zgpu_flint unmodified_program unmodified_program_linked unmodified_ntl_program unmodified_ntl_program_linked exit_during_start flint_algorithms >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 150 ./build/tests/zgpu_tests --gtest_filter='*Mat*:*Lu*:*Ntl*:*Inverse*:PluginGates.*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -30
echo "tests $((SECONDS - t0)) s"
(cd build && timeout 90 ctest -R "FlintPlugin|NtlPlugin") > "$OUTD/plugin-ctest.log" 2>&1
grep -E "tests passed|Failed|\*\*\*" "$OUTD/plugin-ctest.log" | head -10
echo "ctest $((SECONDS - t0)) s"
timeout $((400 - (SECONDS - t0))) bench/flint_plugin.sh build 16 nmod_mat_nullspace fmpz_mat_inv fmpz_mat_rank > "$OUTD/plugin-rows.md" 2>&1
tail -6 "$OUTD/plugin-rows.md"
echo "done $((SECONDS - t0)) s"
