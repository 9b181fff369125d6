#!/usr/bin/env bash
# Run 57 (one H200): the review's tree. The plugins' end-to-end tests (forced GPU included), then
# FLINT 3.6's own tests of fmpz_poly, nmod_poly, fmpz_mat and nmod_mat linked with the FLINT
# plugin with every call it takes sent to the GPU (ZGPU_BACKEND=gpu, FLINT_TEST_MULTIPLIER=0.1),
# sixteen at once, within the time left.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat .device/commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DZGPU_WERROR=ON -DZGPU_BUILD_BENCH=OFF -DZGPU_BUILD_EXAMPLES=OFF -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "warnings: $(grep -c "warning" "$OUTD/build.log"); build $((SECONDS - t0)) s"
(cd build && timeout 120 ctest -R "FlintPlugin|NtlPlugin" -j 4 -V) > "$OUTD/ctest-plugin.log" 2>&1
grep -E "same output|FAIL|functions sent|on the GPU|tests passed|Failed" "$OUTD/ctest-plugin.log" | head -20
echo "plugin tests $((SECONDS - t0)) s"
tar -C /tmp -xJf .device/flint-3.6.0-src.tar.xz; export FLINT_SOURCE=/tmp/flint-3.6.0
FLINT_TEST_MULTIPLIER=0.1 ZGPU_BACKEND=gpu FLINT_TESTS_JOBS=16 FLINT_TESTS_TIMEOUT=$((400 - (SECONDS - t0))) \
  timeout $((410 - (SECONDS - t0))) scripts/flint-tests build fmpz_poly nmod_poly fmpz_mat nmod_mat > "$OUTD/flint-tests.log" 2>&1
tail -1 "$OUTD/flint-tests.log"; grep FAIL "$OUTD/flint-tests.log" | head -20
echo "done $((SECONDS - t0)) s"
