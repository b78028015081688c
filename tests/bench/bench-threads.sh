#!/usr/bin/env bash
# bench-threads.sh [N...]: what -j buys, outside the test run.
# Replays RICC-2010 (447,794 jobs, 8,192 processors) under four policies in
# one experiment (fcfs, sjf, easy, easy with oracle estimates) with -j 1 and
# then with each N given (default 2), and prints the wall time and peak
# memory of each whole command, and whether its files are byte-identical to
# those of -j 1.
# Usage: tests/bench/bench-threads.sh [2 4]   (after scripts/setup.sh)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[[ -z ${HSIM:-} ]] || HSIM=$(absolute "$HSIM")
[[ -z ${HSIM_SHARED:-} ]] || HSIM_SHARED=$(absolute "$HSIM_SHARED")
cd "$(dirname "$0")/../.."
root=$(pwd)
shared=${HSIM_SHARED:-$(cd .. && pwd)/shared}
hsim=${HSIM:-$root/build/hsim}
widths=${*:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ini() { # output folder
  cat <<INI
[experiment]
name = ricc
output = $1
[workload]
path = $shared/traces/swf/RICC-2010-2.swf.gz
clean = pyss
[cluster]
processors = 8192
[policy fcfs]
[policy sjf]
queue = sjf
[policy easy]
backfill = easy
[policy easy-oracle]
backfill = easy
estimate = oracle
INI
}

run() { # threads
  ini "$work/out$1" >"$work/j$1.ini"
  local out
  out=$(timed "%e %M" "$hsim" -q -j "$1" "$work/j$1.ini")
  local same=reference
  if [[ $1 != 1 ]]; then
    if diff -r "$work/out1" "$work/out$1" >/dev/null; then same="identical to -j 1"; else same="DIFFERENT from -j 1"; fi
  fi
  awk -v j="$1" -v s="${out% *}" -v k="${out#* }" -v d="$same" 'BEGIN {
    printf "ricc, 4 policies  -j %-3s %7.2f s %8.1f MB peak   %s\n", j, s, k / 1024, d }'
}

run 1
for n in $widths; do run "$n"; done
