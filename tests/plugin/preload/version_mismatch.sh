#!/usr/bin/env bash
# The plugin built for one FLINT, loaded into a program of another: it says so once on stderr and
# passes every call to the process's FLINT, so that the program's output is its own.
# Arguments: PROGRAM (built against one FLINT) PLUGIN (built against another).
set -euo pipefail
exec "$(dirname "$0")/passes_every_call.sh" "$1" "$2" \
  "zgpu plugin: built for FLINT .*, but the process runs FLINT .*; every call goes to FLINT"
