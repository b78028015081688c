#!/usr/bin/env bash
# bench-planner.sh: the queue policies planning node by node, at scale,
# outside the test run.  Four cases, each run BENCH_RUNS times (default 3),
# printing the median wall time and the largest peak memory of the whole
# command (generation, simulation, CSV files):
#   mix-100k   100,000 nodes of 32 cores, 1,000,000 jobs of the `mix`
#              generator (scientific 0.8, bigdata 0.2) at load 1.1 with
#              max_job_cores = 1024, EASY with first-fit;
#   lublin-10k 10,000 nodes of 32 cores, 100,000 `lublin` jobs sized for
#              the whole machine (up to 320,000 cores), EASY with first-fit;
#   dl-10k     10,000 nodes of 8 GPUs, 1,000,000 `dl` jobs at load 1.1,
#              EASY with heterogeneity-aware placement;
#   ricc-pool  RICC-2010 on its pool of 8,192 processors, EASY.
# With HSIM_BASE set to another build's hsim (the previous commit's, say),
# each case runs under it too, in turn, and the ratio new / base is printed:
# on a shared machine only a baseline measured in the same run means much.
# BENCH_CASES picks cases by name (default: all four).
# Usage: tests/bench/bench-planner.sh   (after scripts/setup.sh)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[[ -z ${HSIM:-} ]] || HSIM=$(absolute "$HSIM")
[[ -z ${HSIM_BASE:-} ]] || HSIM_BASE=$(absolute "$HSIM_BASE")
[[ -z ${HSIM_SHARED:-} ]] || HSIM_SHARED=$(absolute "$HSIM_SHARED")
cd "$(dirname "$0")/../.."
shared=${HSIM_SHARED:-$(cd .. && pwd)/shared}
hsim=${HSIM:-$(pwd)/build/hsim}
base=${HSIM_BASE:-}
runs=${BENCH_RUNS:-3}
cases=${BENCH_CASES:-mix-100k lublin-10k dl-10k ricc-pool}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench: BENCH_RUNS must be a positive integer" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ini() { # ini NAME: the experiment of case NAME
  local name=$1
  printf '[experiment]\nname = %s\noutput = %s/out\n[workload]\n' "$name" "$work"
  case $name in
  mix-100k)
    printf 'format = mix\njobs = 1000000\nload = 1.1\nmax_job_cores = 1024\n'
    printf 'scientific = 0.8\ndl = 0\nbigdata = 0.2\n'
    printf '[nodes cpu]\ncount = 100000\ncores = 32\n'
    printf '[policy easy]\nbackfill = easy\nplacement = first-fit\n' ;;
  lublin-10k)
    printf 'format = lublin\njobs = 100000\n[nodes cpu]\ncount = 10000\ncores = 32\n'
    printf '[policy easy]\nbackfill = easy\nplacement = first-fit\n' ;;
  dl-10k)
    printf 'format = dl\njobs = 1000000\nload = 1.1\n'
    printf '[nodes gpu]\ncount = 10000\ncores = 64\ngpus = 8\ngpu_model = V100\n'
    printf '[policy easy]\nbackfill = easy\nplacement = heterogeneity-aware\n' ;;
  ricc-pool)
    printf 'path = %s/traces/swf/RICC-2010-2.swf.gz\nclean = pyss\n' "$shared"
    printf '[cluster]\nprocessors = 8192\n[policy easy]\nbackfill = easy\n' ;;
  *) echo "bench: unknown case '$name'" >&2; exit 2 ;;
  esac
}

# measure HSIM INI: "median_seconds peak_kb" over $runs runs
measure() {
  local bin=$1 file=$2 secs=() kb=0 out
  for ((i = 0; i < runs; i++)); do
    out=$(timed "%e %M" "$bin" -q "$file")
    secs+=("${out% *}")
    ((${out#* } > kb)) && kb=${out#* }
  done
  printf '%s\n' "${secs[@]}" | sort -g | awk -v kb="$kb" '{ v[NR] = $1 }
    END { printf "%s %d\n", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), kb }'
}

printf '%-11s %10s %9s' case seconds MB
[[ -n $base ]] && printf ' %10s %9s %6s' base_s base_MB ratio
printf '   (median of %d runs)\n' "$runs"
for name in $cases; do
  ini "$name" >"$work/$name.ini"
  new=$(measure "$hsim" "$work/$name.ini")
  printf '%-11s %10.2f %9.0f' "$name" "${new% *}" "$(( ${new#* } / 1024 ))"
  if [[ -n $base ]]; then
    old=$(measure "$base" "$work/$name.ini")
    awk -v a="${new% *}" -v b="${old% *}" -v k="${old#* }" \
      'BEGIN { printf " %10.2f %9.0f %6.2f", b, k / 1024, (b > 0 ? a / b : 0) }'
  fi
  printf '\n'
done
