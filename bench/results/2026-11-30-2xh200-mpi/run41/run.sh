#!/usr/bin/env bash
# Run 41 (2 x H200): the MPI layer's communication at four ranks (two a GPU, unbound), to check
# the costs on paper at K = 4: bench_mpi's resultant (13 675 primes) and determinant (2000 x 2000
# x 256 bits), one timed call each after one untimed.
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
source ./mpi/env.sh
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" \
  -DZGPU_WITH_MPI=ON -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER" -DMPIEXEC_EXECUTABLE="$MPIEXEC_EXECUTABLE" > "$OUTD/build.log" 2>&1
cmake --build build --target bench_mpi >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
B=$(find build -name bench_mpi -type f | head -1)
mpiexec.openmpi -n 1 $B --header > "$OUTD/bench-mpi.md"
timeout 60 mpiexec.openmpi --bind-to none -n 4 $B resultant 4000 100 1 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
echo "resultant $((SECONDS - t0)) s"
timeout 90 mpiexec.openmpi --bind-to none -n 4 $B det 2000 256 1 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
cat "$OUTD/bench-mpi.md"
echo "done $((SECONDS - t0)) s"
