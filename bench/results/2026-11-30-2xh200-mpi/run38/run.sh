#!/usr/bin/env bash
# Run 38 (2 x H200): products over Z over ranks again, the ranks unbound (--bind-to none), so
# that each has the host's cores (run37's were bound to one core each by Open MPI's default for
# two ranks or fewer). One rank, then two (a GPU each), three timed calls each.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
source ./mpi/env.sh
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" \
  -DZGPU_WITH_MPI=ON -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER" -DMPIEXEC_EXECUTABLE="$MPIEXEC_EXECUTABLE" > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests bench_mpi >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 60 ./build/tests/zgpu_tests --gtest_filter='HostThreads.*:MpiShares.*' 2>&1 | grep -E "PASSED|FAILED" | head -5
B=$(find build -name bench_mpi -type f | head -1)
mpiexec.openmpi -n 1 $B --header > "$OUTD/bench-mpi.md"
for row in "mat_mul 1024 1024" "poly_mul 262144 1024" "poly_mul 32768 16384" "mat_mul 512 8192"; do
  for k in 1 2; do
    if [ $k = 1 ]; then export ZGPU_DEVICE=0; else unset ZGPU_DEVICE; fi
    timeout 120 mpiexec.openmpi --bind-to none -n $k $B $row 3 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
    echo "$row on $k: $((SECONDS - t0)) s"
  done
done
cat "$OUTD/bench-mpi.md"
tail -5 "$OUTD/bench-mpi.err"
echo "done $((SECONDS - t0)) s"
