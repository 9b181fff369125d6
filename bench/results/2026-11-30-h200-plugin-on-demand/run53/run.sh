#!/usr/bin/env bash
# Run 53 (one H200): the plugins split in two, libzgpu_flint.so (FLINT's functions, its C++
# runtime inside, private) and libzgpu_ntl.so (NTL's). The plugins' end-to-end tests (forced GPU
# included), two FLINT rows and two NTL rows with and without the plugin (medians of calls 2
# to 3), and zgpu's whole suite with the GPU (two shards at once).
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat .device/commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DZGPU_WERROR=ON -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
grep -c "warning" "$OUTD/build.log"
echo "build $((SECONDS - t0)) s"
(cd build && timeout 240 ctest -R "PluginIntercept|FlintPlugin|NtlPlugin" -j 4 -V) > "$OUTD/ctest-plugin.log" 2>&1
grep -E "same output|FAIL|functions sent|on the GPU|tests passed|Failed|loaded with|libzgpu" "$OUTD/ctest-plugin.log" | head -30
echo "plugin tests $((SECONDS - t0)) s"
BENCH_CALLS=3 timeout 60 bench/flint_plugin.sh build 16 fmpz_poly_pow arb_poly_exp_series > "$OUTD/plugin-rows.md" 2>&1
BENCH_CALLS=3 PLUGIN_BENCH=ntl_algorithms timeout 60 bench/flint_plugin.sh build 16 zz_pX_mul mat_ZZ_determinant > "$OUTD/plugin-rows-ntl.md" 2>&1
tail -6 "$OUTD/plugin-rows.md"; tail -6 "$OUTD/plugin-rows-ntl.md"
echo "rows $((SECONDS - t0)) s"
for i in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout $((560 - (SECONDS - t0))) ./build/tests/zgpu_tests --gtest_filter=-PluginIntercept.* > "$OUTD/tests-$i.log" 2>&1 &
done
wait
for i in 0 1; do grep -E "tests ran|PASSED|FAILED|Failure" "$OUTD/tests-$i.log" | head -20; done
echo "done $((SECONDS - t0)) s"
