#!/usr/bin/env bash
# Run 39 (2 x H200): the solver over ranks. The MPI tests with the GPU forced (values and
# vectors, the solver's cases among them, 1 to 4 ranks); bench_mpi's solve on one rank and on two
# (a GPU each, unbound), three timed calls each, against one process's zgpu_fmpz_mat_solve.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
source ./mpi/env.sh
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" \
  -DZGPU_WITH_MPI=ON -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER" -DMPIEXEC_EXECUTABLE="$MPIEXEC_EXECUTABLE" > "$OUTD/build.log" 2>&1
cmake --build build --target zgpu_tests mpi_values_check mpi_vectors_check mpi_fmpz_mat_det_example mpi_fmpz_poly_resultant_example bench_mpi >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 60 ./build/tests/zgpu_tests --gtest_filter='HostThreads.*:MpiShares.*:*FmpzMatSolve*:*Cramer*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -10
(cd build && ZGPU_BACKEND=gpu timeout 240 ctest -R "^Mpi\." --output-on-failure) >> "$OUTD/tests.log" 2>&1
grep -E "Test +#|tests passed|failed out of" "$OUTD/tests.log" | tail -16
echo "tests $((SECONDS - t0)) s"
B=$(find build -name bench_mpi -type f | head -1)
mpiexec.openmpi -n 1 $B --header > "$OUTD/bench-mpi.md"
for row in "solve 500 64" "solve 1000 100"; do
  for k in 1 2; do
    if [ $k = 1 ]; then export ZGPU_DEVICE=0; else unset ZGPU_DEVICE; fi
    timeout 100 mpiexec.openmpi --bind-to none -n $k $B $row 3 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
    echo "$row on $k: $((SECONDS - t0)) s"
  done
done
cat "$OUTD/bench-mpi.md"
tail -5 "$OUTD/bench-mpi.err"
echo "done $((SECONDS - t0)) s"
