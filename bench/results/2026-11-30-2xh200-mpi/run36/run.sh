#!/usr/bin/env bash
# Run 36 (2 x H200): the review mends (root's weights, kept shares while times are even). The MPI tests with the GPU
# forced; the resultant of lengths 4000 (13 675 primes) on one rank and two ranks (a GPU each),
# three timed calls each, with the root's progress lines giving its share at each call.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
source ./mpi/env.sh
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" \
  -DZGPU_WITH_MPI=ON -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER" -DMPIEXEC_EXECUTABLE="$MPIEXEC_EXECUTABLE" > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests mpi_values_check mpi_fmpz_mat_det_example mpi_fmpz_poly_resultant_example bench_mpi >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 60 ./build/tests/zgpu_tests --gtest_filter='MpiShares.*:PrimeGroups.*:ProductPrimes.*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -20
(cd build && ZGPU_BACKEND=gpu timeout 200 ctest -R "^Mpi\." --output-on-failure) >> "$OUTD/tests.log" 2>&1
grep -E "Test +#|tests passed|failed out of" "$OUTD/tests.log" | tail -12
echo "tests $((SECONDS - t0)) s"
B=$(find build -name bench_mpi -type f | head -1)
mpiexec.openmpi -n 1 $B --header > "$OUTD/bench-mpi.md"
export ZGPU_PROGRESS=1
ZGPU_DEVICE=0 timeout 80 mpiexec.openmpi -n 1 $B resultant 4000 100 3 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
for k in 2; do timeout 80 mpiexec.openmpi -n $k $B resultant 4000 100 3 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"; done
cat "$OUTD/bench-mpi.md"
grep -E "rank 0's [0-9]+ of [0-9]+ primes: started" "$OUTD/bench-mpi.err" | sed 's/: started.*//' | uniq -c
echo "done $((SECONDS - t0)) s"
