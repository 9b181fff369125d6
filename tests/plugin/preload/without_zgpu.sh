#!/usr/bin/env bash
# The FLINT plugin without libzgpu beside it (copied alone to a folder of its own): with every
# call sent to zgpu (ZGPU_BACKEND=cpu), it says once that zgpu did not load, and FLINT computes
# every call, so that the program's output is its own.
# Arguments: PROGRAM PLUGIN.
set -euo pipefail
program=$1 plugin=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
cp "$plugin" "$work/"
"$program" > "$work/flint.txt"
ZGPU_BACKEND=cpu LD_PRELOAD="$work/$(basename "$plugin")" "$program" > "$work/plugin.txt" 2> "$work/plugin.err"
cmp "$work/flint.txt" "$work/plugin.txt"
said=$(grep -c "zgpu plugin: cannot load zgpu (.*); every call goes to FLINT" "$work/plugin.err" || true)
[ "$said" = 1 ] || { echo "FAIL: the plugin said it $said times"; cat "$work/plugin.err"; exit 1; }
head -3 "$work/plugin.err"
echo "1 passed, 0 failed, 0 skipped"
