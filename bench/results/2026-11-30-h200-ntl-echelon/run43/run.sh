#!/usr/bin/env bash
# Run 43 (one H200): the session's tree against FLINT 3.6, the whole of zgpu's suite with the GPU
# (two shards at once), the plugins' frame tests and unmodified programs (NTL's gauss, image and
# kernel among them).
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
for i in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i timeout 400 ./build/tests/zgpu_tests --gtest_filter=-PluginIntercept.* > "$OUTD/tests-$i.log" 2>&1 &
done
wait
for i in 0 1; do grep -E "tests ran|PASSED|FAILED|Failure" "$OUTD/tests-$i.log" | head -20; done
echo "suite $((SECONDS - t0)) s"
(cd build && timeout 150 ctest -R "PluginIntercept|FlintPlugin|NtlPlugin" --output-on-failure) > "$OUTD/ctest-plugin.log" 2>&1
grep -E "tests passed|Failed|\(Failed\)" "$OUTD/ctest-plugin.log" | head
echo "done $((SECONDS - t0)) s"
