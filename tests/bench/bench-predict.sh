#!/usr/bin/env bash
# bench-predict.sh: what the trained predictors cost on RICC-2010, outside
# the test run.  Prints, over BENCH_RUNS runs (default 3), the median of:
#   train_s   `hsim train --model gbdt --until 0.5` on RICC-2010 (223,892
#             jobs): the seconds it reports for the training itself;
#   ns/pred   the time per prediction of each predictor that
#             `hsim predict-eval --from 0.5` reports for the second half:
#             the same history upkeep, features and model walk that a
#             replay calls for each submitted job.
# Usage: tests/bench/bench-predict.sh   (after scripts/setup.sh)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[[ -z ${HSIM:-} ]] || HSIM=$(absolute "$HSIM")
[[ -z ${HSIM_SHARED:-} ]] || HSIM_SHARED=$(absolute "$HSIM_SHARED")
cd "$(dirname "$0")/../.."
shared=${HSIM_SHARED:-$(cd .. && pwd)/shared}
hsim=${HSIM:-$(pwd)/build/hsim}
runs=${BENCH_RUNS:-3}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench: BENCH_RUNS must be a positive integer" >&2; exit 2; }
trace=$shared/traces/swf/RICC-2010-2.swf.gz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

for ((i = 0; i < runs; i++)); do
  # "... gbdt trained on the first N of M jobs in S s -> FILE"
  "$hsim" train --trace "$trace" --model gbdt --until 0.5 --out "$work/m" 2>&1 |
    sed -n 's/.* in \([0-9.]*\) s -> .*/\1/p' >>"$work/train"
  "$hsim" predict-eval --trace "$trace" --from 0.5 2>/dev/null |
    awk 'NF == 7 && $1 != "predictor" {print $1, $7}' >>"$work/pred"
done
printf '%-12s %10s   (median of %d runs, RICC-2010)\n' what value "$runs"
printf '%-12s %10s\n' train_gbdt_s "$(median <"$work/train")"
for p in $(awk '{print $1}' "$work/pred" | awk '!seen[$0]++'); do
  printf '%-12s %10s\n' "ns/$p" "$(awk -v p="$p" '$1 == p {print $2}' "$work/pred" | median)"
done
