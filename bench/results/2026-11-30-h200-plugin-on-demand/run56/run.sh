#!/usr/bin/env bash
# Run 56 (one H200): the GPU's start first checks that NVIDIA's driver library loads. The
# plugins' end-to-end tests (forced GPU included) and the frame tests, and three rows with and
# without the plugin (medians of calls 2 to 5).
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat .device/commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DZGPU_WERROR=ON -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "warnings: $(grep -c "warning" "$OUTD/build.log"); build $((SECONDS - t0)) s"
(cd build && timeout 200 ctest -R "PluginIntercept|FlintPlugin|NtlPlugin" -j 4 -V) > "$OUTD/ctest-plugin.log" 2>&1
grep -E "same output|FAIL|functions sent|on the GPU|tests passed|Failed|cannot load" "$OUTD/ctest-plugin.log" | head -30
echo "plugin tests $((SECONDS - t0)) s"
BENCH_CALLS=5 timeout $((500 - (SECONDS - t0))) bench/flint_plugin.sh build 16 fmpz_poly_pow arb_poly_exp_series nmod_mat_det > "$OUTD/plugin-rows.md" 2>&1
grep -E "^(without|with):" "$OUTD/plugin-rows.md"; tail -6 "$OUTD/plugin-rows.md"
echo "done $((SECONDS - t0)) s"
