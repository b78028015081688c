#!/usr/bin/env bash
# bench.sh [POLICIES]: speed and memory of whole replays, outside the test run.
# Prints, for each trace and policy, the wall time of the whole command
# (reading the gzip trace, simulating, writing the CSV files and the chart),
# jobs per second and peak resident memory.  KTH-SP2 (28,476 jobs, 100
# processors) and RICC-2010 (447,794 jobs, 8,192 processors) under the given
# backfilling disciplines (default: none easy conservative), then RICC at
# 10%, 50% and 100% of its jobs to show how the cost grows, then RICC under
# shortest-first orders (sjf; EASY-SJBF; EASY++, which is EASY-SJBF with
# the last2 predictions; conservative with sjf, with user and with oracle
# estimates).  BENCH_RUNS=N runs each case N times and
# prints the least wall time (and the most memory) of them: on a shared
# machine other work only ever adds to a run's time (default 1).
# Usage: tests/bench/bench.sh [none easy conservative]   (after scripts/setup.sh)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[[ -z ${HSIM:-} ]] || HSIM=$(absolute "$HSIM")
[[ -z ${HSIM_SHARED:-} ]] || HSIM_SHARED=$(absolute "$HSIM_SHARED")
cd "$(dirname "$0")/../.."
root=$(pwd)
shared=${HSIM_SHARED:-$(cd .. && pwd)/shared}
hsim=${HSIM:-$root/build/hsim}
policies=${*:-none easy conservative}
runs=${BENCH_RUNS:-1}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench: BENCH_RUNS must be a positive integer" >&2; exit 2; }
for bf in $policies; do
  case $bf in none | easy | conservative) ;;
  *) echo "bench: unknown backfilling '$bf': expected none, easy or conservative" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # name trace procs max_jobs backfill [more policy keys, one per line]
  local name=$1 trace=$2 procs=$3 max=$4 bf=$5 more=${6:-}
  cat > "$work/$name.ini" <<INI
[experiment]
name = $name
output = $work/out
[workload]
path = $trace
clean = pyss
max_jobs = $max
[cluster]
processors = $procs
[policy $bf]
backfill = $bf
$more
INI
  local out secs='' kb=0
  for ((r = 0; r < runs; r++)); do
    out=$(timed "%e %M" "$hsim" -q "$work/$name.ini")
    secs=$(awk -v a="$secs" -v b="${out% *}" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
    kb=$(( ${out#* } > kb ? ${out#* } : kb ))
  done
  local jobs
  jobs=$(($(wc -l < "$work/out/$name/$bf/jobs.csv") - 1))
  awk -v n="$name" -v b="$bf" -v j="$jobs" -v s="$secs" -v k="$kb" 'BEGIN {
    printf "%-16s %-13s %8d jobs %8.2f s %12.0f jobs/s %8.1f MB peak\n", n, b, j, s, (s > 0 ? j / s : 0), k / 1024 }'
}

kth=$shared/traces/swf/KTH-SP2-1996-2.1-cln.swf.gz
ricc=$shared/traces/swf/RICC-2010-2.swf.gz
for bf in $policies; do run kth-sp2 "$kth" 100 0 "$bf"; done
for bf in $policies; do run ricc-2010 "$ricc" 8192 0 "$bf"; done
for bf in $policies; do
  for pct in 10 50 100; do
    run "ricc-${pct}pct" "$ricc" 8192 $((447794 * pct / 100)) "$bf"
  done
done
run ricc-sjf "$ricc" 8192 0 none "queue = sjf"
run ricc-sjbf "$ricc" 8192 0 easy "backfill_order = sjf"
run ricc-easy-pp "$ricc" 8192 0 easy "backfill_order = sjf
estimate = last2"
run ricc-sjf "$ricc" 8192 0 conservative "queue = sjf"
run ricc-sjf-oracle "$ricc" 8192 0 conservative "queue = sjf
estimate = oracle"
