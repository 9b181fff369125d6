#!/usr/bin/env bash
# Run 46 (one H200): the session's last tree: NTL's gauss into m's own rows and the kernel's basis
# on the host threads; the NTL faces' tests, the GPU's LU against a plain LU, zgpu's LU and
# determinant tests against FLINT, the NTL plugin's unmodified program, and NTL's gauss and kernel
# rows with and without the plugin.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests zgpu_flint unmodified_ntl_program unmodified_ntl_program_linked ntl_algorithms >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 150 ./build/tests/zgpu_tests --gtest_filter='NtlLuForms.*:*NtlEchelon*:*NmodMatEchelon*:*NtlMatricesModP*:*FmpzMatDet*:Settings.*:Environment.*' > "$OUTD/tests.log" 2>&1
grep -E "tests ran|PASSED|FAILED|Failure" "$OUTD/tests.log" | head -20
(cd build && timeout 120 ctest -R "NtlPlugin" --output-on-failure) > "$OUTD/ctest-plugin.log" 2>&1
grep -E "tests passed|Failed" "$OUTD/ctest-plugin.log" | head
echo "tests $((SECONDS - t0)) s"
PLUGIN_BENCH=ntl_algorithms timeout 150 bench/flint_plugin.sh build 0 mat_zz_p_gauss mat_zz_p_kernel > "$OUTD/bench-ntl.md" 2>&1
tail -6 "$OUTD/bench-ntl.md"
echo "done $((SECONDS - t0)) s"
