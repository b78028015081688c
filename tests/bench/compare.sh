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
cd "$(dirname "$0")/../.."
shared=${HSIM_SHARED:-$(cd .. && pwd)/shared}
[ $# -ge 2 ] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
a=$1 b=$2 runs=${3:-5} bf=${4:-conservative} max=${5:-0}
command -v /usr/bin/time >/dev/null || { echo "compare: needs GNU time (apt-get install time)"; exit 2; }
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
  { /usr/bin/time -f "%U %S" "$1" -q "$2" >/dev/null; } 2>&1 | tail -1 | awk '{ print $1 + $2 }'
}

ta=() tb=()
for _ in $(seq "$runs"); do
  ta+=("$(cpu "$a" "$work/a.ini")")
  tb+=("$(cpu "$b" "$work/b.ini")")
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
