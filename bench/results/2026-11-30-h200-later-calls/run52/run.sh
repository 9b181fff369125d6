#!/usr/bin/env bash
# Run 52 (one H200): a host-thread job ends with its last element, not when every worker has
# seen it. The exp series' GPU products split (ZGPU_TIMING, nine calls); the rows
# arb_poly_exp_series (two processes) and fmpz_poly_div (one), the median of calls 2 to 7 in
# each; zgpu's whole suite with the GPU (two shards at once) and the plugins' frame tests.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
BENCH_CALLS=9 ZGPU_REPORT=1 ZGPU_TIMING=1 LD_PRELOAD=build/libzgpu_flint.so timeout 60 build/bench/flint_algorithms 16 arb_poly_exp_series > "$OUTD/report-and-timing.txt" 2>&1
tail -3 "$OUTD/report-and-timing.txt"
r=(); r=(arb_poly_exp_series fmpz_poly_div)
BENCH_CALLS=7 timeout 70 bench/flint_plugin.sh build 16 "${r[@]}" arb_poly_exp_series > "$OUTD/plugin-rows.md" 2>&1
echo "rows $((SECONDS - t0)) s"; tail -7 "$OUTD/plugin-rows.md"
for i in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout $((420 - (SECONDS - t0))) ./build/tests/zgpu_tests --gtest_filter=-PluginIntercept.* > "$OUTD/tests-$i.log" 2>&1 &
done
wait
for i in 0 1; do grep -E "tests ran|PASSED|FAILED|Failure" "$OUTD/tests-$i.log" | head -20; done
echo "suite $((SECONDS - t0)) s"
(cd build && timeout $((480 - (SECONDS - t0))) ctest -R "PluginIntercept|FlintPlugin|NtlPlugin" --output-on-failure) > "$OUTD/ctest-plugin.log" 2>&1
grep -E "tests passed|Failed|\(Failed\)" "$OUTD/ctest-plugin.log" | head
echo "done $((SECONDS - t0)) s"
