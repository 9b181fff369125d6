#!/usr/bin/env bash
# A program that ends while the plugin's GPU start may still run (exit_during_start.c, after
# pauses from 0 to 1 s) exits with status 0, prints what it prints without the plugin, and
# nothing on stderr. Without a GPU the start never runs and this checks the plain exit.
# Arguments: PROGRAM PLUGIN.
set -uo pipefail
program=$1 plugin=$2
# An ASan build's runtime must come first; the plugin loaded by LD_PRELOAD comes before it.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
expected=$("$program") || { echo "FAIL: the program alone failed"; exit 1; }
status=0
for pause in 0 50000 100000 200000 300000 400000 600000 1000000; do
  err=$(mktemp)
  out=$(LD_PRELOAD="$plugin" timeout 60 "$program" "$pause" 2> "$err")
  rc=$?
  if [ "$rc" -ne 0 ] || [ "$out" != "$expected" ] || [ -s "$err" ]; then
    echo "FAIL after a pause of $pause us: exit status $rc, output '$out' (expected '$expected')"; cat "$err"; status=1
  else
    echo "exit after a pause of $pause us: ok"
  fi
  rm -f "$err"
done
exit $status
