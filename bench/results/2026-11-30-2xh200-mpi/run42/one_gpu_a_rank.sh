#!/usr/bin/env bash
# Under mpiexec: each rank on the GPU of its local rank's number.
export ZGPU_DEVICE=${OMPI_COMM_WORLD_LOCAL_RANK:-0}
exec "$@"
