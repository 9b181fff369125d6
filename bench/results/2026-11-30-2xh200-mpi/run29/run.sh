#!/usr/bin/env bash
# Run 29 (2 x H200): the MPI layer on GPUs (Debian 12's Open MPI, carried): its checks on 1 to 3
# ranks with the GPU forced, the examples, a first scaling row at small sizes; zgpu's tests of the
# new pieces; FLINT 3.6's fmpz_mat tests under the plugin with the GPU forced (the pipelined
# fmpz_mat_mul's first run under them).
set -uo pipefail
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
source ./mpi/env.sh
echo "commit $(cat commit.txt 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)" | tee "$OUTD/device.txt"
nvidia-smi -L | tee -a "$OUTD/device.txt"; nproc | tee -a "$OUTD/device.txt"
mpiexec.openmpi --version | head -1 | tee -a "$OUTD/device.txt"
tar -C /tmp -xJf ./flint-3.6.0-src.tar.xz
export FLINT_SOURCE=/tmp/flint-3.6.0
t0=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$FLINT3_PREFIX" \
  -DZGPU_WITH_MPI=ON -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER" -DMPIEXEC_EXECUTABLE="$MPIEXEC_EXECUTABLE" > "$OUTD/build.log" 2>&1
grep -E "MPI" "$OUTD/build.log" | head -5
cmake --build build --target zgpu_tests zgpu_flint mpi_values_check mpi_fmpz_mat_det_example mpi_fmpz_poly_resultant_example bench_mpi >> "$OUTD/build.log" 2>&1 || { echo BUILD FAILED; grep -E "error" "$OUTD/build.log" | head -20; }
echo "build $((SECONDS - t0)) s"
timeout 60 ./build/tests/zgpu_tests --gtest_filter='FormalResultant.*:MpiShares.*:*Resultant*' > "$OUTD/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  FAILED|PASSED \]|Failure" "$OUTD/tests.log" | head -20
echo "tests $((SECONDS - t0)) s"
for k in 1 2 3; do
  ZGPU_BACKEND=gpu timeout 90 mpiexec.openmpi -n $k ./build/tests/mpi_values_check > "$OUTD/mpi-check-$k.log" 2>&1
  echo "mpi check on $k ranks, GPU forced: rc=$?, $(tail -1 "$OUTD/mpi-check-$k.log")"
done
echo "mpi checks $((SECONDS - t0)) s"
export FLINT_TESTS_FILTER='^fmpz_mat/fmpz_mat_(mul|mul_multi_mod|sqr|mul_strassen|det|solve)$'
ZGPU_BACKEND=gpu ZGPU_REPORT=1 timeout 150 scripts/flint-tests build fmpz_mat > "$OUTD/flint-tests.log" 2>&1
grep -E "FAIL|passed" "$OUTD/flint-tests.log" | tail -8
grep -h "zgpu plugin: fmpz_mat_mul" build/flint-tests/logs/*.log | head -8 > "$OUTD/flint-tests-report.txt"; cat "$OUTD/flint-tests-report.txt"
echo "flint tests $((SECONDS - t0)) s"
for k in 1 2; do
  timeout 60 mpiexec.openmpi -n $k ./build/examples/mpi_fmpz_mat_det_example 600 128 2>&1 | tee -a "$OUTD/examples.log"
  timeout 60 mpiexec.openmpi -n $k ./build/examples/mpi_fmpz_poly_resultant_example 500 300 2>&1 | tee -a "$OUTD/examples.log"
done
echo "examples $((SECONDS - t0)) s"
B=$(find build -name bench_mpi -type f | head -1)
mpiexec.openmpi -n 1 $B --header > "$OUTD/bench-mpi.md"
for call in "det 1000 256" "resultant 1000 300"; do
  ZGPU_DEVICE=0 timeout 100 mpiexec.openmpi -n 1 $B $call 1 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
  timeout 80 mpiexec.openmpi -n 2 $B $call 1 >> "$OUTD/bench-mpi.md" 2>> "$OUTD/bench-mpi.err"
  echo "$call $((SECONDS - t0)) s"
done
cat "$OUTD/bench-mpi.md"; tail -5 "$OUTD/bench-mpi.err"
echo "done $((SECONDS - t0)) s"
