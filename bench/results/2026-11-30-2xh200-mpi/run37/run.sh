#!/usr/bin/env bash
# Run 37 (2 x H200): products over Z and the vector CRT over ranks. The MPI tests with the GPU
# forced (values and vectors, 1 to 4 ranks); the plugin's tests of what the change touched; then
# bench_mpi's products on one rank and on two (a GPU each), three timed calls each.
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
timeout 150 ./build/tests/zgpu_tests --gtest_filter='MpiShares.*:PrimeGroups.*:ProductPrimes.*:ProductOverZ.*:ProductPieces.*:*Division*:ChunkedDivision.*:*NtlMatrix*:*ModularEntryPoints*:*PolyEntryPoints*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|SKIPPED \]|Failure" "$OUTD/tests.log" | head -20
(cd build && ZGPU_BACKEND=gpu timeout 240 ctest -R "^Mpi\." --output-on-failure) >> "$OUTD/tests.log" 2>&1
grep -E "Test +#|tests passed|failed out of" "$OUTD/tests.log" | tail -16
echo "tests $((SECONDS - t0)) s"
B=$(find build -name bench_mpi -type f | head -1)
mpiexec.openmpi -n 1 $B --header > "$OUTD/bench-mpi.md"
for row in "mat_mul 1024 1024" "mat_mul 512 8192" "poly_mul 262144 1024" "poly_mul 32768 16384"; do
  ZGPU_DEVICE=0 timeout 100 mpiexec.openmpi -n 1 $B $row 3 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
  timeout 100 mpiexec.openmpi -n 2 $B $row 3 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
  echo "$row $((SECONDS - t0)) s"
done
cat "$OUTD/bench-mpi.md"
tail -5 "$OUTD/bench-mpi.err"
echo "done $((SECONDS - t0)) s"
