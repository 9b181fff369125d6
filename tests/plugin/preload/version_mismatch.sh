#!/usr/bin/env bash
# The plugin built for one FLINT, loaded into a program of another: it says so once on stderr and
# passes every call to the process's FLINT, so that the program's output is its own.
# Arguments: PROGRAM (built against one FLINT) PLUGIN (built against another).
set -euo pipefail
program=$1 plugin=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
"$program" > "$work/flint.txt"
ZGPU_BACKEND=cpu LD_PRELOAD="$plugin" "$program" > "$work/plugin.txt" 2> "$work/plugin.err"
cmp "$work/flint.txt" "$work/plugin.txt"
said=$(grep -c "zgpu plugin: built for FLINT .*, but the process runs FLINT .*; every call goes to FLINT" "$work/plugin.err" || true)
[ "$said" = 1 ] || { echo "FAIL: the plugin said it $said times"; cat "$work/plugin.err"; exit 1; }
grep "zgpu plugin" "$work/plugin.err"
echo "1 passed, 0 failed, 0 skipped"
