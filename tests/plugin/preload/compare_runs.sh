#!/usr/bin/env bash
# The plugin's end-to-end test: an unmodified FLINT or NTL program prints the same output
# without the plugin and with it, loaded by LD_PRELOAD in each mode (automatic, ZGPU_BACKEND=cpu
# through zgpu's front ends, ZGPU_BACKEND=gpu) and linked ahead of the library. With a GPU, the gpu mode
# must have run calls on it (the report at exit says how many).
# Arguments: PROGRAM PROGRAM_LINKED_AHEAD PLUGIN.
set -euo pipefail
program=$1 linked=$2 plugin=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# An ASan build's runtime must come first; the plugin loaded by LD_PRELOAD comes before it.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
"$program" > "$work/flint.txt"
status=0
compare() {
  local name=$1
  shift
  if ! "$@" > "$work/$name.txt" 2> "$work/$name.err"; then
    echo "FAIL $name: exit status $?"; cat "$work/$name.err"; status=1; return
  fi
  if cmp -s "$work/flint.txt" "$work/$name.txt"; then echo "same output: $name"
  else echo "FAIL $name: output differs"; diff "$work/flint.txt" "$work/$name.txt" | head -20 || true; status=1; fi
}
compare automatic env ZGPU_REPORT=1 LD_PRELOAD="$plugin" "$program"
compare forced-cpu env ZGPU_BACKEND=cpu ZGPU_REPORT=1 LD_PRELOAD="$plugin" "$program"
compare forced-gpu env ZGPU_BACKEND=gpu ZGPU_REPORT=1 LD_PRELOAD="$plugin" "$program"
compare linked-ahead env ZGPU_BACKEND=cpu ZGPU_REPORT=1 "$linked"
# Every function the plugin defines was called, and went through zgpu when forced.
sent=$(awk '/^zgpu plugin: / && $5 > 0 { n++ } END { print n + 0 }' "$work/forced-cpu.err")
echo "functions sent to zgpu with ZGPU_BACKEND=cpu: $sent"
[ "$sent" -ge "${ZGPU_PLUGIN_FUNCTIONS:?}" ] || { echo "FAIL: expected at least $ZGPU_PLUGIN_FUNCTIONS"; cat "$work/forced-cpu.err"; status=1; }
if nvidia-smi -L > /dev/null 2>&1; then
  on_gpu=$(awk '/^zgpu plugin: / { n += $6 } END { print n + 0 }' "$work/forced-gpu.err")
  echo "calls on the GPU with ZGPU_BACKEND=gpu: $on_gpu"
  [ "$on_gpu" -gt 0 ] || { echo "FAIL: none"; cat "$work/forced-gpu.err"; status=1; }
fi
exit $status
