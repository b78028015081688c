#!/usr/bin/env bash
# planner.test.sh HSIM SHARED WORKDIR [PART]
# The queue policies planning node by node, end to end, through the hsim
# command:
#  - each shared ElasticFlow trace on 128 nodes of one GPU (and 64 cores
#    that never bind) gives, job for job, the schedule of the same jobs
#    (written by hsim gen) on a pool of 128 processors, under FCFS, EASY,
#    EASY-SJBF, SJF with EASY, and conservative backfilling;
#  - on 16 nodes of 8 GPUs EASY protects the head: on every trace its
#    longest wait is no longer than FCFS's;
#  - partitions: jobs bound by SWF field 16 run only on the node types that
#    serve their partition; a partition no type serves is a rejection with
#    the reason;
#  - jobs.csv's resource columns for a hand-worked run.
# PART runs one part only: elasticflow-NN (NN from 01 to 05: trace NN on
# one-GPU nodes against the pool, under all policies but conservative),
# elasticflow-NN-conservative (the same under conservative backfilling),
# elasticflow-NN-head (trace NN on 16 nodes of 8 GPUs), or partitions
# (partitions and resource columns); CTest runs each part as a test of its
# own (tests/CMakeLists.txt), so that none takes long under the
# sanitizers.  Without PART, all of them.
# Every check prints one line; the script exits 1 if any failed.
set -uo pipefail
[[ $# -eq 3 || $# -eq 4 ]] || { echo "usage: planner.test.sh HSIM SHARED WORKDIR [PART]" >&2; exit 2; }
part=${4:-all}
all_policies="fcfs easy easy-sjbf sjf-easy conservative"
# equivalence: the policies whose schedules on one-GPU nodes are checked
# against the pool's; head: 1 to check each trace on 16 nodes of 8 GPUs
equivalence=$all_policies head=1
case $part in
  all) traces="01 02 03 04 05" ;;
  elasticflow-0[1-5])
    traces=${part#elasticflow-} equivalence="fcfs easy easy-sjbf sjf-easy" head=0 ;;
  elasticflow-0[1-5]-conservative)
    traces=${part#elasticflow-} traces=${traces%-conservative} equivalence=conservative head=0 ;;
  elasticflow-0[1-5]-head) traces=${part#elasticflow-} traces=${traces%-head} equivalence="" ;;
  partitions) traces="" ;;
  *) echo "planner.test.sh: unknown part '$part': expected elasticflow-NN," \
          "elasticflow-NN-conservative or elasticflow-NN-head (NN from 01 to 05), or" \
          "partitions" >&2
     exit 2 ;;
esac

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shared=$(cd "$2" && pwd) || { echo "planner: no shared folder $2" >&2; exit 2; }
source "$repo/tests/testlib.sh"
SHOW_ERRORS=1
test_setup planner "$1" "$3"

# policies NAME...: the [policy] sections of the named policies
policies() {
  local p
  for p in "$@"; do
    echo "[policy $p]"
    case $p in
      easy) echo "backfill = easy" ;;
      easy-sjbf) printf 'backfill = easy\nbackfill_order = sjf\n' ;;
      sjf-easy) printf 'queue = sjf\nbackfill = easy\n' ;;
      conservative) echo "backfill = conservative" ;;
    esac
  done
}

# same_starts A B: two jobs.csv files give every job the same start
same_starts() { cmp -s <(cut -d, -f1,3 "$1") <(cut -d, -f1,3 "$2"); }
# col FILE POLICY COLUMN: a summary.csv value, by policy and column name
col() {
  awk -F, -v p="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
                               $1 == p && k { print $k }' "$1"
}
not_more() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

# nodes_ini NAME TRACE COUNT GPUS POLICY...: an experiment on COUNT nodes
# of GPUS GPUs (and 64 cores that never bind) under the named policies
nodes_ini() {
  local name=$1 trace=$2 count=$3 gpus=$4
  shift 4
  cat <<EOF
[experiment]
name = $name
output = out
[workload]
format = elasticflow
path = $trace
[nodes gpu]
count = $count
cores = 64
gpus = $gpus
$(policies "$@")
EOF
}

for c in $traces; do
  trace=$shared/traces/gpu/elasticflow/cluster$c.csv.gz
  if [[ -n $equivalence ]]; then
    nodes_ini ef$c "$trace" 128 1 $equivalence >ef$c.ini
    run gen ef$c.ini ef$c.swf
    check "elasticflow $c: hsim gen writes it as SWF" test $rc -eq 0
    cat >pool$c.ini <<EOF
[experiment]
name = pool$c
output = out
[workload]
path = ef$c.swf
[cluster]
processors = 128
$(policies $equivalence)
EOF
    run -q pool$c.ini
    check "elasticflow $c: the pool of 128 processors runs" test $rc -eq 0
    run -q ef$c.ini
    check "elasticflow $c: 128 nodes of one GPU run" test $rc -eq 0
    for p in $equivalence; do
      check "elasticflow $c, $p: every start as on the pool" \
        same_starts out/pool$c/$p/jobs.csv out/ef$c/$p/jobs.csv
    done
  fi
  ((head)) || continue
  # 16 nodes of 8 GPUs: EASY's reservation protects the head
  nodes_ini big$c "$trace" 16 8 $all_policies >big$c.ini
  run -q big$c.ini
  check "elasticflow $c on 16 x 8 GPUs: runs" test $rc -eq 0
  check "elasticflow $c on 16 x 8 GPUs: EASY's longest wait is no longer than FCFS's" \
    not_more "$(col out/big$c/summary.csv easy max_wait)" "$(col out/big$c/summary.csv fcfs max_wait)"
  check "elasticflow $c on 16 x 8 GPUs: conservative's longest wait is no longer than FCFS's" \
    not_more "$(col out/big$c/summary.csv conservative max_wait)" \
    "$(col out/big$c/summary.csv fcfs max_wait)"
done

if [[ $part != all && $part != partitions ]]; then
  test_finish
  exit 0
fi

# ---- partitions ----
# Jobs 1-2 in partition 1, 3-4 in partition 2, 5 in partition 3 (no node
# type serves it), 6 in none.  Type a (nodes 0-1) serves 1, type b (nodes
# 2-3) serves 2 and 4.
cat >parts.swf <<'EOF'
; MaxProcs: 16
1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 1 1 1 -1 -1
2 0 -1 100 4 -1 -1 4 100 -1 1 1 1 1 1 1 -1 -1
3 0 -1 100 4 -1 -1 4 100 -1 1 1 1 1 1 2 -1 -1
4 0 -1 100 8 -1 -1 8 100 -1 1 1 1 1 1 2 -1 -1
5 0 -1 100 4 -1 -1 4 100 -1 1 1 1 1 1 3 -1 -1
6 0 -1 100 4 -1 -1 4 100 -1 1 1 1 1 1 -1 -1 -1
EOF
cat >parts.ini <<'EOF'
[experiment]
name = parts
output = out
[workload]
path = parts.swf
[nodes a]
count = 2
cores = 4
partition = 1
[nodes b]
count = 2
cores = 4
partition = 2, 4
[policy easy]
backfill = easy
[policy conservative]
backfill = conservative
EOF
run -q parts.ini
check "partitions: runs" test $rc -eq 0
check "partitions: a partition no type serves is rejected, with the reason" \
  grep -q '^5,6,its partition 3 has no nodes' out/parts/rejected.csv
for p in easy conservative; do
  # job_id,...,nodes (the 16th column)
  check "partitions, $p: partition 1 on type a's nodes only" \
    awk -F, '($1 == 1 || $1 == 2) && $16 !~ /^[01]$/ { bad = 1 } END { exit bad }' out/parts/$p/jobs.csv
  check "partitions, $p: partition 2 on type b's nodes only" \
    awk -F, '($1 == 3 && $16 !~ /^[23]$/) || ($1 == 4 && $16 != "2-3") { bad = 1 } END { exit bad }' \
    out/parts/$p/jobs.csv
  # type b is full with jobs 3 and 4 (12 cores of 8): job 4 waits for job 3
  check "partitions, $p: job 4 waits for job 3 on type b although type a has room" \
    awk -F, '$1 == 4 && $3 == 100 { ok = 1 } END { exit !ok }' out/parts/$p/jobs.csv
  check "partitions, $p: job 6, bound to nothing, runs" \
    awk -F, '$1 == 6 && $3 >= 0 { ok = 1 } END { exit !ok }' out/parts/$p/jobs.csv
done
check "partitions: a list that mixes numbers and names is refused at its line" \
  bash -c "sed 's/^partition = 2, 4/partition = 2, gpu/' parts.ini >bad-parts.ini && \
    ! '$hsim' -q bad-parts.ini 2>err.txt && grep -q 'bad-parts.ini:13: partition' err.txt"

# ---- jobs.csv's resource columns ----
# Pod 1: 6 cores and 3 GiB over nodes of 4 cores and 8 GiB, packed
# first-fit: 4 cores on node 0, 2 on node 1.  Pod 2: half a GPU and 2
# cores: node 2, the GPU node.
cat >res.csv <<'EOF'
name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,pod_phase,creation_time,deletion_time,scheduled_time
p1,6000,3072,0,0,,Succeeded,0,10,0
p2,2000,1024,1,500,,Succeeded,0,10,0
EOF
cat >res.ini <<'EOF'
[experiment]
name = res
output = out
[workload]
format = alibaba
path = res.csv
[nodes cpu]
count = 2
cores = 4
memory = 8G
[nodes gpu]
count = 1
cores = 4
memory = 8G
gpus = 2
[policy easy]
backfill = easy
EOF
run -q res.ini
check "resources: runs" test $rc -eq 0
check "resources: jobs.csv names the columns" \
  grep -qx 'job_id,submit,start,end,procs,wait,run,estimate,bsld,user,state,cores,mem_mb,gpus,fpgas,nodes,trace_id' \
  out/res/easy/jobs.csv
check "resources: a job over two nodes" grep -q '^1,0,0,10,6,.*,ran,6,3072,0,0,0-1,p1$' out/res/easy/jobs.csv
check "resources: a share of a GPU" grep -q '^2,0,0,10,2,.*,ran,2,1024,0.5,0,2,p2$' out/res/easy/jobs.csv

test_finish
