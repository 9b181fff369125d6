#!/usr/bin/env bash
# A plugin that cannot use zgpu in a program: with every call sent to zgpu (ZGPU_BACKEND=cpu), it
# says MESSAGE (a regular expression) once on stderr and passes every call to the program's
# FLINT, so that the program's output is its own.
# Arguments: PROGRAM PLUGIN MESSAGE.
set -euo pipefail
program=$1 plugin=$2 message=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
"$program" > "$work/flint.txt"
ZGPU_BACKEND=cpu LD_PRELOAD="$plugin" "$program" > "$work/plugin.txt" 2> "$work/plugin.err"
cmp "$work/flint.txt" "$work/plugin.txt"
said=$(grep -c "$message" "$work/plugin.err" || true)
[ "$said" = 1 ] || { echo "FAIL: the plugin said it $said times"; cat "$work/plugin.err"; exit 1; }
head -3 "$work/plugin.err"
echo "1 passed, 0 failed, 0 skipped"
