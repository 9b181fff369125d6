#!/usr/bin/env bash
# The libraries a program loads with the plugin by LD_PRELOAD are those it loads without it, and
# the plugin. Arguments: PROGRAM PLUGIN. Exits 77 (skipped) in a build with the sanitizers, whose
# runtimes the plugin loads (UBSan's brings the C++ runtime).
set -euo pipefail
program=$1 plugin=$2
if [ -n "${ZGPU_SANITIZED:-}" ]; then
  echo "skipped: built with the sanitizers"
  exit 77
fi
loaded() { env "$@" LD_TRACE_LOADED_OBJECTS=1 "$program" | awk '{ print $1 }' | sort; }
without=$(loaded)
with=$(loaded LD_PRELOAD="$plugin")
added=$(comm -13 <(echo "$without") <(echo "$with"))
echo "loaded with the plugin, not without:"
echo "$added"
if [ "$added" != "$plugin" ]; then
  echo "FAIL: the plugin should be the only library added"
  exit 1
fi
echo "1 passed, 0 failed, 0 skipped"
