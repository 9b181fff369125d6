#!/usr/bin/env bash
# Run 40 (2 x H200): the MPI checks with the GPU forced, the test's expectation for singular
# systems with a zero row mended (run39).
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
source ./mpi/env.sh
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" \
  -DZGPU_WITH_MPI=ON -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER" -DMPIEXEC_EXECUTABLE="$MPIEXEC_EXECUTABLE" > "$OUTD/build.log" 2>&1
cmake --build build --target mpi_values_check mpi_vectors_check mpi_fmpz_mat_det_example mpi_fmpz_poly_resultant_example >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
(cd build && ZGPU_BACKEND=gpu timeout 240 ctest -R "^Mpi\." --output-on-failure) > "$OUTD/tests.log" 2>&1
grep -E "Test +#|tests passed|failed out of" "$OUTD/tests.log" | tail -16
grep -E "rank [0-9] of" "$OUTD/tests.log" | head -5
echo "done $((SECONDS - t0)) s"
