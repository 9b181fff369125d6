#!/usr/bin/env bash
# The FLINT plugin without libzgpu beside it (copied alone to a folder of its own): it says once
# that zgpu did not load, and FLINT computes every call, so that the program's output is its own.
# Arguments: PROGRAM PLUGIN.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$2" "$work/"
"$(dirname "$0")/passes_every_call.sh" "$1" "$work/$(basename "$2")" \
  "zgpu plugin: cannot load zgpu (.*); every call goes to FLINT"
