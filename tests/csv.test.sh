#!/usr/bin/env bash
# csv.test.sh HSIM SHARED WORKDIR
# format = csv reads what hsim gen writes: a workload saved by hsim gen and
# replayed from its CSV runs to the same schedules, job for job, under
# every policy (jobs.csv byte-identical, the summary's figures equal), for
# a generated heterogeneous mix (classes, GPUs, memory), an SWF
# trace on nodes (classes by queue, GPU jobs drawn), the Alibaba pods
# (fractional GPUs, GPU models, pod names), an ElasticFlow trace (its job
# ids) and an SWF trace on a pool cleaned as pyss cleans it (jobs killed at
# their requested time).  Then the reader's errors.
set -uo pipefail
[[ $# -eq 3 ]] || { echo "usage: csv.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shared=$(cd "$2" && pwd) || { echo "csv: no shared folder $2" >&2; exit 2; }
source "$repo/tests/testlib.sh"
SHOW_ERRORS=1
test_setup csv "$1" "$3"
topo=$repo/traces/topologies

# summary.csv without its rejected column (the CSV holds only the jobs that
# loaded: a trace's rejections stay with the trace)
figures() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rejected") k = i }
           { out = ""; for (i = 1; i <= NF; i++) if (i != k) out = out "," $i; print out }' "$1"
}

# round_trip NAME POLICY...: NAME.ini runs; hsim gen saves its workload;
# the same INI with format = csv reads it back and runs it again
round_trip() {
  local name=$1 p ok=0
  shift
  run -q "$name.ini"
  check "$name: the original runs" test $rc -eq 0
  run gen "$name.ini" "$name.swf" "$name.csv"
  check "$name: hsim gen saves it" test $rc -eq 0
  # the workload section becomes format = csv; the rest stays as it was
  awk -v csv="$name.csv" '
    /^\[/ { in_wl = ($0 == "[workload]"); print
            if (in_wl) { print "format = csv"; print "path = " csv }
            next }
    in_wl && /^[a-z_]+ *=/ { next }
    { print }' "$name.ini" | sed "s#^name = .*#name = $name-csv#" >"$name-csv.ini"
  run -q "$name-csv.ini"
  check "$name: the saved workload runs" test $rc -eq 0
  for p in "$@"; do
    cmp -s "out/$name/$p/jobs.csv" "out/$name-csv/$p/jobs.csv" || { echo "    $p: jobs.csv differs"; ok=1; }
  done
  check "$name: every job starts and ends as it did, under $*" test $ok -eq 0
  check "$name: the summary's figures are the same" \
    test -s "out/$name/summary.csv" -a \
      "$(figures "out/$name/summary.csv")" == "$(figures "out/$name-csv/summary.csv")"
}

policies='
[policy ff]
backfill = easy
placement = first-fit
[policy cons]
backfill = conservative
placement = best-fit
[policy het]
placement = heterogeneity-aware
'

cat >mix.ini <<EOF
[experiment]
name = mix
output = out
seed = 5
[workload]
format = mix
jobs = 300
load = 0.7
users = 5
max_job_cores = 64
[nodes cpu]
count = 6
topology = xml:$topo/cpu-node.xml
[nodes gpu]
count = 2
topology = xml:$topo/gpu8-node.xml
[nodes fpga]
count = 2
topology = xml:$topo/fpga-node.xml
speed = 1.2
[class deep-learning]
speed.gpu = 2
[class big-data]
speed.fpga = none
$policies
EOF
round_trip mix ff cons het
check "mix: the CSV holds GPU and memory requests and classes" \
  awk -F, 'NR > 1 { g += $6 > 0; m += $8 > 0; c += $10 != "" } END { exit !(g && m && c) }' mix.csv

cat >swf-nodes.ini <<EOF
[experiment]
name = swf-nodes
output = out
seed = 9
[workload]
format = swf
path = $shared/traces/swf/HPC2N-excerpt-3170.swf.gz
gpu_share = 0.2
class_by = queue
[nodes cpu]
count = 100
cores = 2
[nodes gpu]
count = 20
cores = 2
gpus = 2
gpu_model = v100
speed = 1.5
[class queue-unknown]
speed.gpu = 1.3
$policies
EOF
round_trip swf-nodes ff cons het

cat >alibaba.ini <<EOF
[experiment]
name = alibaba
output = out
[workload]
format = alibaba
path = $shared/traces/gpu/alibaba-2023/openb_pod_list_gpuspec33.csv.gz
[cluster]
alibaba_nodes = $shared/traces/gpu/alibaba-2023/openb_node_list_all_node.csv
[policy ff]
backfill = easy
placement = first-fit
[policy bf]
placement = best-fit
EOF
round_trip alibaba ff bf
check "alibaba: jobs.csv ends with the pod's name" \
  awk -F, 'NR == 1 { exit !($NF == "trace_id") }' out/alibaba-csv/ff/jobs.csv
check "alibaba: job 1 is openb-pod-0000" grep -q '^1,.*,openb-pod-0000$' out/alibaba-csv/ff/jobs.csv

cat >ef.ini <<EOF
[experiment]
name = ef
output = out
[workload]
format = elasticflow
path = $shared/traces/gpu/elasticflow/cluster01.csv.gz
[nodes gpu]
count = 16
cores = 64
gpus = 8
$policies
EOF
round_trip ef ff cons
check "elasticflow: jobs.csv keeps the trace's job ids" \
  grep -q '^1,1932025,.*,965d744f-0445-c1a8-12af-97e4c536c66e$' out/ef/ff/jobs.csv

cat >kth.ini <<EOF
[experiment]
name = kth
output = out
[workload]
format = swf
path = $shared/traces/swf/KTH-SP2-1996-2.1-cln.swf.gz
clean = pyss
[cluster]
processors = 100
[policy easy]
backfill = easy
[policy cons]
backfill = conservative
EOF
round_trip kth easy cons
check "kth: some jobs were killed at their requested time, in both" \
  test "$(grep -c ',killed$' out/kth-csv/easy/jobs.csv)" -gt 0

# ---- what the reader refuses ----
bad() { # bad NAME CSV-TEXT EXPECTED
  printf '%b' "$2" >bad.csv
  printf '[workload]\nformat = csv\npath = bad.csv\n[cluster]\nprocessors = 8\n[policy p]\n' >bad.ini
  run bad.ini
  check "$1: exit 2" test $rc -eq 2
  check "$1: says '$3'" has_err "$3"
}
bad "no runtime column" 'job_id,submit,procs\n1,0,1\n' "bad.csv:1: expected a header with column 'runtime'"
bad "a runtime of 0" 'job_id,submit,runtime,procs\n1,0,0,1\n' 'bad.csv:2: field 3 (runtime): expected seconds > 0'
bad "a job number twice" 'job_id,submit,runtime,procs\n1,0,5,1\n2,0,5,1\n1,3,5,1\n' \
  'bad.csv:4: job_id 1 was given on line 2 already'
bad "GPU shares without GPUs" 'job_id,submit,runtime,procs,gpus,gpu_milli\n1,0,5,1,0,500\n' \
  'bad.csv:2: field 6 (gpu_milli): expected 0 for a job without GPUs'
bad "no processors" 'job_id,submit,runtime,procs\n1,0,5,0\n' 'bad.csv:2: field 4 (procs): expected an integer >= 1'
bad "an empty file" '' 'bad.csv:1: expected a header'
# and a minimal file of another tool's: the four required columns
printf 'job_id,submit,runtime,procs\n1,0,10,4\n2,1,5,8\n' >mini.csv
printf '[experiment]\nname = mini\noutput = out\n[workload]\nformat = csv\npath = mini.csv\n[cluster]\nprocessors = 8\n[policy p]\n' >mini.ini
run -q mini.ini
check "four columns: runs" test $rc -eq 0
check "four columns: job 2 waits for job 1" grep -q '^2,1,10,15,8,9,5,5,' out/mini/p/jobs.csv

test_finish
