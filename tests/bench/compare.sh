#!/usr/bin/env bash
# compare.sh HSIM_A HSIM_B [RUNS] [BACKFILL] [MAX_JOBS]: is B faster than A,
# and does it give the same schedule?  Replays RICC-2010 (8,192 processors,
# clean = pyss) under the backfilling discipline (default conservative) with
# each binary in turn, RUNS times each (default 5), and prints the least
# and the median CPU time (user + system) of each.  The least is the figure
# to compare on a shared machine: other work only ever adds to a run's
# time.  Fails when the two jobs.csv files differ.
# Usage: tests/bench/compare.sh /tmp/hsim-before build/hsim 5 conservative 200000
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
source "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || { sed -n '2,9p' "$self" | sed 's/^# \{0,1\}//' >&2; exit 2; }
a=$(absolute "$1") b=$(absolute "$2") runs=${3:-5} bf=${4:-conservative} max=${5:-0}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "compare: RUNS must be a positive integer, found '$runs'" >&2; exit 2; }
[[ -z ${HSIM_SHARED:-} ]] || HSIM_SHARED=$(absolute "$HSIM_SHARED")
cd "$(dirname "$0")/../.."
shared=${HSIM_SHARED:-$(cd .. && pwd)/shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for side in a b; do
  cat > "$work/$side.ini" <<INI
[experiment]
name = $side
output = $work/out
[workload]
path = $shared/traces/swf/RICC-2010-2.swf.gz
clean = pyss
max_jobs = $max
[cluster]
processors = 8192
[policy $bf]
backfill = $bf
INI
done

cpu() { # binary ini: CPU seconds of one run
  local t
  t=$(timed "%U %S" "$1" -q "$2") || return
  awk '{ print $1 + $2 }' <<<"$t"
}

ta=() tb=()
for _ in $(seq "$runs"); do
  t=$(cpu "$a" "$work/a.ini") # a plain assignment: a failed run stops the script
  ta+=("$t")
  t=$(cpu "$b" "$work/b.ini")
  tb+=("$t")
done
summary() { # name times...: least and median
  local name=$1
  shift
  printf "%s\n" "$@" | sort -g | awk -v n="$name" '{ x[NR] = $1 }
    END { printf "%-40s least %7.2f s   median %7.2f s   (%d runs)\n", n, x[1], x[int((NR + 1) / 2)], NR }'
}
summary "A $a" "${ta[@]}"
summary "B $b" "${tb[@]}"
if cmp -s "$work/out/a/$bf/jobs.csv" "$work/out/b/$bf/jobs.csv"; then
  echo "schedules: identical ($(($(wc -l < "$work/out/a/$bf/jobs.csv") - 1)) jobs)"
else
  echo "schedules: DIFFERENT (jobs.csv of A and B differ)"
  exit 1
fi
