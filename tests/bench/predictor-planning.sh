#!/usr/bin/env bash
# predictor-planning.sh: what each runtime predictor makes of EASY on
# KTH-SP2 and RICC-2010, as docs/predictors.md reports it, outside the
# test run.  For each trace it trains gbdt, lstm and regression on the
# first half by submission (`hsim train --until 0.5`), replays the whole
# trace under EASY with each predictor (gbdt and typical also with SJF
# backfilling, EASY++'s order; KTH-SP2 cleaned as pyss cleans it, on its
# 100 processors; RICC-2010 as hsim cleans by default, on its 8,192) and
# prints the average bounded slowdown (10 s) of the second half of
# jobs.csv by submission, and how far it is from EASY with requests.
# Usage: tests/bench/predictor-planning.sh   (after scripts/setup.sh; a few
# minutes, most of it the RICC-2010 replays)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[[ -z ${HSIM:-} ]] || HSIM=$(absolute "$HSIM")
[[ -z ${HSIM_SHARED:-} ]] || HSIM_SHARED=$(absolute "$HSIM_SHARED")
cd "$(dirname "$0")/../.."
shared=${HSIM_SHARED:-$(cd .. && pwd)/shared}
hsim=${HSIM:-$(pwd)/build/hsim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

policies="easy easy-plus-plus easy-last2 easy-typical easy-typical-sjbf easy-regression
          easy-gbdt easy-gbdt-sjbf easy-lstm easy-oracle"

# policy NAME ESTIMATE [sjf]: one [policy] section
policy() {
  printf '[policy %s]\nbackfill = easy\nestimate = %s\n' "$1" "$2"
  [[ ${3:-} != sjf ]] || printf 'backfill_order = sjf\n'
  case $2 in regression | gbdt | lstm) printf 'estimate.model = %s\n' "$work/$trace.$2" ;; esac
}

# second_half_bsld JOBS_CSV: the mean bsld of the later half of the jobs
# by (submission, job id)
second_half_bsld() {
  awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
           {print $c["submit"] "," $c["job_id"] "," $c["bsld"]}' "$1" |
    sort -t, -k1,1g -k2,2n |
    awk -F, '{b[NR] = $3} END {for (i = int(NR / 2) + 1; i <= NR; i++) s += b[i];
              printf "%.2f\n", s / (NR - int(NR / 2))}'
}

printf '%-10s %-18s %9s %8s\n' trace policy bsld vs_easy
for trace in KTH-SP2 RICC-2010; do
  case $trace in
    KTH-SP2) file=$shared/traces/swf/KTH-SP2-1996-2.1-cln.swf.gz clean='clean = pyss' ;;
    RICC-2010) file=$shared/traces/swf/RICC-2010-2.swf.gz clean='' ;;
  esac
  for m in gbdt lstm regression; do
    "$hsim" train --trace "$file" --model $m --until 0.5 --out "$work/$trace.$m" 2>/dev/null
  done
  {
    printf '[experiment]\nname = %s\noutput = %s\n[output]\ncharts = none\n' "$trace" "$work/res"
    printf '[workload]\npath = %s\n%s\n' "$file" "$clean"
    policy easy user
    policy easy-plus-plus last2 sjf
    policy easy-last2 last2
    policy easy-typical typical
    policy easy-typical-sjbf typical sjf
    policy easy-regression regression
    policy easy-gbdt gbdt
    policy easy-gbdt-sjbf gbdt sjf
    policy easy-lstm lstm
    policy easy-oracle oracle
  } >"$work/$trace.ini"
  "$hsim" -q "$work/$trace.ini" >/dev/null
  base=$(second_half_bsld "$work/res/$trace/easy/jobs.csv")
  for p in $policies; do
    b=$(second_half_bsld "$work/res/$trace/$p/jobs.csv")
    printf '%-10s %-18s %9s %+7.0f%%\n' "$trace" "$p" "$b" "$(awk -v b="$b" -v a="$base" 'BEGIN {print 100 * (b - a) / a}')"
  done
done
