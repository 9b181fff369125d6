#!/usr/bin/env bash
# FLINT's algorithms as an unmodified program (bench/flint_algorithms.c), or NTL's
# (bench/ntl_algorithms.cpp, with PLUGIN_BENCH=ntl_algorithms), run without and then with its
# plugin (LD_PRELOAD of libzgpu_flint.so or libzgpu_ntl.so) in one run, on the same rows and threads; then a table of the two times and
# the speed-up, and whether the checksums agree. The plugin's report (ZGPU_REPORT=1) follows each
# row, from a third run: the report times every call and counts it in counters that all threads
# share, which the timed run should not pay.
# Arguments: BUILD_DIR [threads] [row names...].
set -euo pipefail
# FLINT's threads allocate on their stacks; where the stack has no limit, threads get only 2 MiB.
ulimit -s 8192 2>/dev/null || true
build=$(cd "${1:?usage: bench/flint_plugin.sh BUILD_DIR [threads] [rows...]}" && pwd)
shift
bench=${PLUGIN_BENCH:-flint_algorithms}
program=$build/bench/$bench
plugin=$build/libzgpu_flint.so
[ "$bench" = ntl_algorithms ] && plugin=$build/libzgpu_ntl.so
out=$(mktemp -d)
threads=${1:-0}
shift $(( $# > 0 ? 1 : 0 ))
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=($(sed -n 's/^ *{"\([A-Za-z_]*\)", \(setup\|\[\]\).*/\1/p' "$(dirname "$0")/$bench".c*))
for row in "${rows[@]}"; do
  "$program" "$threads" "$row" 2>&1 | tail -1 >> "$out/without.txt"
  LD_PRELOAD=$plugin "$program" "$threads" "$row" | tail -1 >> "$out/with.txt"
  ZGPU_REPORT=1 LD_PRELOAD=$plugin "$program" "$threads" "$row" 2> "$out/report.txt" > /dev/null
  echo "without: $(tail -1 "$out/without.txt")"
  echo "with:    $(tail -1 "$out/with.txt")"
  sed 's/^/    /' "$out/report.txt"
done
"$program" "$threads" none | head -1
echo
echo "| row | without the plugin s (first, second) | with the plugin s (first, second) | speed-up (second) | same result |"
echo "|---|---:|---:|---:|---|"
paste "$out/without.txt" "$out/with.txt" | awk '{
  printf "| %s | %.4f, %.4f | %.4f, %.4f | %.2f | %s |\n", $1, $2, $3, $6, $7, $3 / $7, ($4 == $8 ? "yes" : "NO")
}'
rm -rf "$out"
