#!/usr/bin/env bash
# Run 34 (2 x H200): the MPI determinant takes a divisor on the root's GPU first where that pays
# against the primes split over the ranks; every wait of the layer has a time limit. The MPI
# tests on 1 to 3 ranks with the GPU forced (a hanging rank among them), the examples, and
# bench_mpi's determinant of 2000 x 2000 entries of 256 bits on one and two ranks.
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
timeout 100 ./build/tests/zgpu_tests --gtest_filter='FmpzMatDet*:Environment.Mpi*:MpiShares.*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -20
(cd build && ZGPU_BACKEND=gpu timeout 200 ctest -R "^Mpi\." --output-on-failure) >> "$OUTD/tests.log" 2>&1
grep -E "Test +#|tests passed|failed out of" "$OUTD/tests.log" | tail -12
echo "tests $((SECONDS - t0)) s"
for k in 1 2; do
  ZGPU_PROGRESS=1 timeout 60 mpiexec.openmpi -n $k ./build/examples/mpi_fmpz_mat_det_example 1500 200 >> "$OUTD/examples.log" 2>&1
done
grep -E "over [0-9] ranks" "$OUTD/examples.log"
B=$(find build -name bench_mpi -type f | head -1)
mpiexec.openmpi -n 1 $B --header > "$OUTD/bench-mpi.md"
ZGPU_DEVICE=0 timeout 120 mpiexec.openmpi -n 1 $B det 2000 256 1 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
timeout 120 mpiexec.openmpi -n 2 $B det 2000 256 1 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
cat "$OUTD/bench-mpi.md"
echo "done $((SECONDS - t0)) s"
