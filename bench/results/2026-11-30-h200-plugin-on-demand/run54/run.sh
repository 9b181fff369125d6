#!/usr/bin/env bash
# Run 54 (one H200): the FLINT plugin loads zgpu (libzgpu.so) when a call first goes to it. The
# plugins' end-to-end tests (forced GPU included), FLINT rows and an NTL row with and without the
# plugins (medians of calls 2 to 5), a row's report, and zgpu's whole suite with the GPU (two
# shards at once).
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat .device/commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DZGPU_WERROR=ON -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "warnings: $(grep -c "warning" "$OUTD/build.log")"
ls -la build/libzgpu_flint.so build/libzgpu_ntl.so build/libzgpu.so.0.1.0 | tee -a "$OUTD/device.txt"
echo "build $((SECONDS - t0)) s"
(cd build && timeout 240 ctest -R "PluginIntercept|FlintPlugin|NtlPlugin|Backend\." -j 4 -V) > "$OUTD/ctest-plugin.log" 2>&1
grep -E "same output|FAIL|functions sent|on the GPU|tests passed|Failed|loaded with|libzgpu|cannot load" "$OUTD/ctest-plugin.log" | head -30
echo "plugin tests $((SECONDS - t0)) s"
r=(fmpz_poly_pow fmpz_poly_compose nmod_poly_powmod_ui_binexp arb_poly_exp_series nmod_mat_det fmpz_mat_det)
BENCH_CALLS=5 timeout 150 bench/flint_plugin.sh build 16 "${r[@]}" > "$OUTD/plugin-rows.md" 2>&1
BENCH_CALLS=5 PLUGIN_BENCH=ntl_algorithms timeout 40 bench/flint_plugin.sh build 16 zz_pX_mul > "$OUTD/plugin-rows-ntl.md" 2>&1
tail -9 "$OUTD/plugin-rows.md"; tail -4 "$OUTD/plugin-rows-ntl.md"
echo "rows $((SECONDS - t0)) s"
for i in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout $((570 - (SECONDS - t0))) ./build/tests/zgpu_tests --gtest_filter=-PluginIntercept.* > "$OUTD/tests-$i.log" 2>&1 &
done
wait
for i in 0 1; do grep -E "tests ran|PASSED|FAILED|Failure" "$OUTD/tests-$i.log" | head -20; done
echo "done $((SECONDS - t0)) s"
