#!/usr/bin/env bash
# bench-cluster.sh [JOBS [PLACEMENT]]: placement at scale, outside the test run.
# 100,000 nodes of three types (60,000 CPU nodes of 32 cores, 30,000 nodes
# with 4 V100 GPUs, 10,000 nodes with an FPGA) and JOBS (default 1,000,000)
# synthetic jobs of the `mix` generator (scientific, deep-learning and
# big-data classes; the largest scientific job 256 cores) at load 0.9, under
# FCFS with PLACEMENT (default best-fit), and the backfilling named by the
# environment variable BACKFILL (default none).  Prints wall time, jobs per second and peak
# memory of the whole command (generation, simulation, CSV files).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[[ -z ${HSIM:-} ]] || HSIM=$(absolute "$HSIM")
cd "$(dirname "$0")/../.."
hsim=${HSIM:-$(pwd)/build/hsim}
jobs=${1:-1000000}
placement=${2:-best-fit}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/cluster.ini" <<INI
[experiment]
name = cluster-100k
output = $work/out
[workload]
format = mix
jobs = $jobs
load = 0.9
max_job_cores = 256
[nodes cpu]
count = 60000
cores = 32
memory = 256G
[nodes gpu]
count = 30000
cores = 32
memory = 384G
gpus = 4
gpu_model = V100
[nodes fpga]
count = 10000
cores = 24
memory = 192G
fpgas = 1
[policy $placement]
backfill = ${BACKFILL:-none}
placement = $placement
INI
out=$(timed "%e %M" "$hsim" -q "$work/cluster.ini")
secs=${out% *} kb=${out#* }
ran=$(($(wc -l < "$work/out/cluster-100k/$placement/jobs.csv") - 1))
awk -v p="$placement" -v j="$ran" -v s="$secs" -v k="$kb" 'BEGIN {
  printf "100,000 nodes, %s: %d jobs in %.2f s (%.0f jobs/s), %.1f MB peak\n", p, j, s, (s > 0 ? j / s : 0), k / 1024 }'
