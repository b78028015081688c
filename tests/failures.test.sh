#!/usr/bin/env bash
# failures.test.sh HSIM SHARED WORKDIR
# Node failures from the command line: a failure trace on a small SWF
# trace gives the outcomes worked out by hand (jobs.csv's starts,lost_s,
# summary.csv's failure columns at the end), policies without failures
# keep their files byte for byte, drawn failures give the same files twice,
# and the INI's and the trace's mistakes are named at their line.
set -uo pipefail
[[ $# -eq 3 ]] || { echo "usage: failures.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$repo/tests/testlib.sh"
SHOW_ERRORS=1
test_setup failures "$1" "$3"

# two nodes; jobs 1 and 2 run 100 s from 0; job 3 (1 s) comes at 60;
# node 0 is down from 50 to 80 (see test_failures.c)
cat > t.swf <<'SWF'
; MaxProcs: 2
1 0 -1 100 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1
2 0 -1 100 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1
3 60 -1 1 1 -1 -1 1 1 -1 1 1 1 -1 -1 -1 -1 -1
SWF
printf 'node,down_at,up_at\n0,50,80\n' > down.csv
cat > f.ini <<'INI'
[experiment]
name = f
output = out
[workload]
path = t.swf
[nodes n]
count = 2
cores = 1
[failures one]
trace = down.csv
[policy plain]
[policy requeue]
failures = one
[policy ckpt]
backfill = easy
failures = one
on_failure = checkpoint
restart_cost = 10
INI
run -q f.ini
check "trace: runs" test $rc -eq 0
check "requeue: job 1 again at 80 until 180, 50 s lost" \
  grep -q '^1,0,80,180,1,80,100,100,.*,2,50$' out/f/requeue/jobs.csv
check "requeue: job 3 at 100" grep -q '^3,60,100,101,.*,1,0$' out/f/requeue/jobs.csv
check "checkpoint: job 1 again at 80 until 140, nothing lost" \
  grep -q '^1,0,80,140,1,80,60,100,.*,2,0$' out/f/ckpt/jobs.csv
check "jobs.csv: starts,lost_s last" grep -q ',nodes,starts,lost_s$' out/f/requeue/jobs.csv
check "requeue: attempts.csv, job 1's first run on node 0 until the failure at 50" \
  cmp <(printf 'job_id,start,end,nodes\n1,0,50,0\n') out/f/requeue/attempts.csv
check "jobs.csv: none without failures" grep -q ',nodes$' <(head -1 out/f/plain/jobs.csv)
check "summary: the failure columns last" \
  grep -q ',expiries,failures,jobs_hit,work_lost_core_h,availability$' out/f/summary.csv
check "summary: requeue's row" grep -q '^requeue,.*,1,1,0.014,0.916667$' out/f/summary.csv
check "summary: plain's row" grep -q '^plain,.*,0,0,0.000,1.000000$' out/f/summary.csv

# the plain policy alone: the same jobs.csv, no failure columns
sed '/^\[failures/,$d' f.ini > plain.ini
printf '[policy plain]\n' >> plain.ini
sed -i 's/name = f/name = plain/' plain.ini
run -q plain.ini
check "plain: byte-identical jobs.csv" cmp out/plain/plain/jobs.csv out/f/plain/jobs.csv
check "plain: no failure columns" grep -q ',expiries$' <(head -1 out/plain/summary.csv)

# drawn failures: the same files twice
cat > drawn.ini <<'INI'
[experiment]
name = drawn
output = out
seed = 7
[workload]
format = lublin
jobs = 300
[nodes n]
count = 32
cores = 1
[failures w]
mtbf = 200000
mttr = 500
distribution = weibull
weibull_shape = 0.6
[policy easy]
backfill = easy
failures = w
on_failure = checkpoint
INI
run -q drawn.ini
check "drawn: runs" test $rc -eq 0
check "drawn: some failures" awk -F, 'NR == 2 && $(NF-3) > 0 { ok = 1 } END { exit !ok }' \
  out/drawn/summary.csv
cp -r out/drawn first
run -q drawn.ini
check "drawn: the same files again" diff -r first out/drawn

# mistakes
bad() { # bad NAME EXPECTED: bad.ini fails with EXPECTED in its message
  run -q bad.ini
  check "$1: exit 2" test $rc -eq 2
  check "$1: says so" has_err "$2"
}
sed 's/^\[policy ckpt\]/[policy cons]/; s/^backfill = easy/backfill = conservative/' f.ini > bad.ini
bad "conservative" "failures with backfill = conservative: not supported yet"
sed 's/^failures = one/failures = two/' f.ini > bad.ini
bad "unknown model" "bad.ini:13: [policy requeue] failures = two: no [failures two] section"
sed 's/^trace = down.csv/trace = down.csv\nmtbf = 100/' f.ini > bad.ini
bad "trace and model" "gives both a trace and mtbf/mttr"
sed 's/^trace = down.csv/mtbf = 100/' f.ini > bad.ini
bad "no mttr" "bad.ini:9: [failures one] needs mtbf and mttr"
sed 's/^trace = down.csv/trace = down.csv\ndistribution = gamma/' f.ini > bad.ini
bad "bad distribution" "bad.ini:11: distribution 'gamma': expected exponential or weibull"
sed 's/^\[policy plain\]/[policy plain]\non_failure = checkpoint/' f.ini > bad.ini
bad "on_failure alone" "bad.ini:12: [policy plain] on_failure applies only with failures = NAME"
grep -v '^\[nodes\|^count\|^cores' f.ini > bad.ini
bad "no nodes" "needs a cluster of [nodes NAME] sections"
printf 'node,down_at,up_at\n0,50,80\n2,1,2\n' > down.csv
cp f.ini bad.ini
bad "trace: node out of range" "down.csv:3: field 1 (node): expected a node index in 0..1"

test_finish
