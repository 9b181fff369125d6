#!/usr/bin/env bash
# Run 32 (2 x H200): the determinant of 2000 x 2000 entries of 256 bits over one rank (GPU 0) and two
# (a GPU each), its groups of primes sized for the block recursion's temporaries too; each row
# checked against one process's zgpu_fmpz_mat_det. zgpu's determinant tests on the GPU.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
source ./mpi/env.sh
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" \
  -DZGPU_WITH_MPI=ON -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER" -DMPIEXEC_EXECUTABLE="$MPIEXEC_EXECUTABLE" > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests mpi_values_check bench_mpi >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 100 ./build/tests/zgpu_tests --gtest_filter='PrimeGroups.*:*FmpzMatDet*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -20
ZGPU_BACKEND=gpu timeout 90 mpiexec.openmpi -n 2 ./build/tests/mpi_values_check >> "$OUTD/tests.log" 2>&1
echo "mpi check on 2 ranks, GPU forced: rc=$?, $(tail -1 "$OUTD/tests.log")"
echo "tests $((SECONDS - t0)) s"
B=$(find build -name bench_mpi -type f | head -1)
mpiexec.openmpi -n 1 $B --header > "$OUTD/bench-mpi.md"
export ZGPU_PROGRESS=1
for call in "det 2000 256"; do
  ZGPU_DEVICE=0 timeout 250 mpiexec.openmpi -n 1 $B $call 1 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
  echo "$call, 1 rank: rc=$? $((SECONDS - t0)) s"
  timeout 150 mpiexec.openmpi -n 2 $B $call 1 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
  echo "$call, 2 ranks: rc=$? $((SECONDS - t0)) s"
done
cat "$OUTD/bench-mpi.md"; grep -v "^\s*$" "$OUTD/bench-mpi.err" | tail -12
echo "done $((SECONDS - t0)) s"
