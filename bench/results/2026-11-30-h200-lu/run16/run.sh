#!/usr/bin/env bash
# Run 16: the last session's final tree (7ec8e90), not yet run on a GPU: the products', powers'
# and compositions' tests, the plugin's gates and its ctest (the exit guard included).
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" -DZGPU_BUILD_EXAMPLES=OFF > "$OUTD/build.log" 2>&1
cmake --build build >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 200 ./build/tests/zgpu_tests --gtest_filter='PolyMul.*:Backends/FmpzPoly*:PolyChoice.*:PluginGates.*:*NmodMat*:*Lu*:MatMulMod.*:DetMod.*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure|tests ran" "$OUTD/tests.log" | head -20
(cd build && timeout 150 ctest -R "FlintPlugin|PluginIntercept") > "$OUTD/plugin-ctest.log" 2>&1
grep -E "tests passed|Failed|\*\*\*" "$OUTD/plugin-ctest.log" | head -20
echo "done $((SECONDS - t0)) s"
