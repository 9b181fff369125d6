#!/usr/bin/env bash
# Run 51 (one H200): where the exp series' time with the plugin goes. The plugin's report and the
# GPU products' split in one process; a profile of the row with the plugin where perf is there.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_flint flint_algorithms >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
which perf nsys 2>&1 | tee "$OUTD/tools.txt"; ls /usr/local/cuda/bin 2>/dev/null | tr '\n' ' ' >> "$OUTD/tools.txt"
p=build/bench/flint_algorithms
BENCH_CALLS=9 ZGPU_REPORT=1 ZGPU_TIMING=1 LD_PRELOAD=build/libzgpu_flint.so timeout 60 $p 16 arb_poly_exp_series > "$OUTD/report-and-timing.txt" 2>&1
tail -4 "$OUTD/report-and-timing.txt"
for k in 1 2 3; do
  BENCH_CALLS=9 timeout 60 $p 16 arb_poly_exp_series | tail -1
  BENCH_CALLS=9 LD_PRELOAD=build/libzgpu_flint.so timeout 60 $p 16 arb_poly_exp_series | tail -1
done 2>&1 | tee "$OUTD/rows.txt"
if command -v perf > /dev/null; then
  BENCH_CALLS=21 LD_PRELOAD=build/libzgpu_flint.so perf record -F 4000 -g -o /tmp/p.data $p 16 arb_poly_exp_series > /dev/null 2>&1
  perf report -i /tmp/p.data --no-children --sort dso,sym -g none 2>/dev/null | head -80 > "$OUTD/perf-self.txt"
  perf report -i /tmp/p.data --children --sort sym -g none 2>/dev/null | head -120 > "$OUTD/perf-children.txt"
fi
echo "done $((SECONDS - t0)) s"
