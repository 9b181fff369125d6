#!/usr/bin/env bash
# Run 31 (2 x H200): the MPI layer's scaling at the issue's sizes, one rank a GPU: the determinant
# of 2000 x 2000 entries of 256 bits and a resultant of over 10 000 primes, on one rank (GPU 0)
# and on two (a GPU each); progress lines from the root. Determinants now take as many primes at
# a time as the device holds. zgpu's determinant tests and the checks on 2 ranks, GPU forced.
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
timeout 100 ./build/tests/zgpu_tests --gtest_filter='ProductPrimes.*:PrimeGroups.*:PrimeSet.*:*FmpzMatDet*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -20
ZGPU_BACKEND=gpu timeout 90 mpiexec.openmpi -n 2 ./build/tests/mpi_values_check >> "$OUTD/tests.log" 2>&1
echo "mpi check on 2 ranks, GPU forced: rc=$?, $(tail -1 "$OUTD/tests.log")"
echo "tests $((SECONDS - t0)) s"
B=$(find build -name bench_mpi -type f | head -1)
mpiexec.openmpi -n 1 $B --header > "$OUTD/bench-mpi.md"
export ZGPU_PROGRESS=1
for call in "resultant 4000 100" "det 2000 256"; do
  ZGPU_DEVICE=0 timeout 220 mpiexec.openmpi -n 1 $B $call 1 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
  echo "$call, 1 rank: rc=$? $((SECONDS - t0)) s"
  timeout 120 mpiexec.openmpi -n 2 $B $call 1 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
  echo "$call, 2 ranks: rc=$? $((SECONDS - t0)) s"
done
cat "$OUTD/bench-mpi.md"; grep -v "^\s*$" "$OUTD/bench-mpi.err" | tail -12
echo "done $((SECONDS - t0)) s"
