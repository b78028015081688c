#!/usr/bin/env bash
# compare-golden.sh GOLDEN.csv.gz JOBS.csv
# Compares every job's start time in hsim's jobs.csv with a golden schedule
# (columns job_id,submit,start,end,procs).  Prints the first differences and
# a count; exits 1 on any difference or on a job missing from either side.
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: compare-golden.sh GOLDEN.csv.gz JOBS.csv" >&2; exit 2; }
golden=$1 jobs=$2
# unpacked first: a failure inside <(zcat) would go unseen, and an empty
# golden side made hsim's jobs the golden ones
plain=$(mktemp)
trap 'rm -f "$plain"' EXIT
zcat -- "$golden" >"$plain" || { echo "compare-golden: cannot read $golden" >&2; exit 2; }
[[ -s $jobs ]] || { echo "compare-golden: cannot read $jobs" >&2; exit 2; }
awk -F, '
  FNR == 1 { next }
  NR == FNR { start[$1] = $3; n_golden++; next }
  {
    n_hsim++
    if (!($1 in start)) { missing++; if (shown++ < 5) print "job " $1 ": not in the golden file"; next }
    if (start[$1] != $3) { diff++; if (shown++ < 5) print "job " $1 ": start " $3 ", golden " start[$1] }
    delete start[$1]
  }
  END {
    for (j in start) { missing++; if (shown++ < 5) print "job " j ": in the golden file, not in hsim" }
    printf "%d golden jobs, %d hsim jobs, %d different starts, %d missing\n", n_golden, n_hsim, diff, missing
    exit (diff || missing) ? 1 : 0
  }' "$plain" "$jobs"
