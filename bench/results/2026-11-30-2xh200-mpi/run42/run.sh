#!/usr/bin/env bash
# Run 42 (2 x H200; four GPUs were not lent): the MPI checks with the GPU forced (the review mends
# and the inverse among them), the forced determinant's ways, and the scaling from one GPU to two,
# one rank a GPU (ZGPU_DEVICE = the local rank), ranks unbound: the resultant of 13 675 primes,
# the determinant of 2000 x 2000 x 256 bits as the model takes it (a divisor first) and by the
# whole bound's primes (ZGPU_DET_ALGORITHM=primes), the solver and the inverse.
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
(cd build && ZGPU_BACKEND=gpu timeout 240 ctest -R "^Mpi\." --output-on-failure) > "$OUTD/tests.log" 2>&1
grep -E "Test +#|tests passed|failed out of" "$OUTD/tests.log" | tail -16
T=$(find build -name zgpu_tests -type f | head -1)
LD_LIBRARY_PATH="$FLINT3_PREFIX/lib:$LD_LIBRARY_PATH" timeout 120 $T --gtest_filter='FmpzMatDet*:Environment.*' > "$OUTD/det-tests.log" 2>&1
tail -3 "$OUTD/det-tests.log"; grep -E "FAILED|SKIPPED \]" "$OUTD/det-tests.log" | head
echo "tests $((SECONDS - t0)) s"
B=$(find build -name bench_mpi -type f | head -1)
W=./one_gpu_a_rank.sh
mpiexec.openmpi -n 1 $B --header > "$OUTD/bench-mpi.md"
for row in "resultant 4000 100 3" "det 2000 256 1" "solve 1000 100 3" "inv 500 64 1"; do
  for k in 1 2; do
    timeout 120 mpiexec.openmpi --bind-to none -n $k $W $B $row >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
    echo "$row on $k: $((SECONDS - t0)) s"
  done
done
for k in 1 2; do
  ZGPU_DET_ALGORITHM=primes timeout 130 mpiexec.openmpi --bind-to none -x ZGPU_DET_ALGORITHM -n $k $W $B det 2000 256 1 \
    | sed 's/| det |/| det, the whole bound (primes) |/' >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
  echo "det by primes on $k: $((SECONDS - t0)) s"
done
cat "$OUTD/bench-mpi.md"
tail -5 "$OUTD/bench-mpi.err"
echo "done $((SECONDS - t0)) s"
