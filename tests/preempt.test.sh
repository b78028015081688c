#!/usr/bin/env bash
# preempt.test.sh HSIM SHARED WORKDIR
# Preemption and round robin from the command line: a high-priority job on
# a full machine stops a lower one (suspend, requeue, checkpoint: jobs.csv's
# starts,lost_s,ran_s worked out by hand), round robin's turns on a small
# queue, rr with a long quantum against FCFS on KTH-SP2 (the start and end
# columns), policies without preemption keep their files byte for byte,
# and the INI's mistakes are named at their line.
set -uo pipefail
[[ $# -eq 3 ]] || { echo "usage: preempt.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$repo/tests/testlib.sh"
SHOW_ERRORS=1
test_setup preempt "$1" "$3"
shared=$2

# four processors; job 1 (1000 s, all four) at 0, job 2 (10 s) at 100:
# under SJF job 2 ranks first and stops job 1 (see test_preempt.c)
cat > t.swf <<'SWF'
; MaxProcs: 4
1 0 -1 1000 4 -1 -1 4 1000 -1 1 1 1 -1 -1 -1 -1 -1
2 100 -1 10 4 -1 -1 4 10 -1 1 2 1 -1 -1 -1 -1 -1
SWF
cat > p.ini <<'INI'
[experiment]
name = p
output = out
[workload]
path = t.swf
[policy plain]
queue = sjf
backfill = easy
[policy suspend]
queue = sjf
backfill = easy
preempt = suspend
switch_cost = 5
[policy requeue]
queue = sjf
backfill = easy
preempt = requeue
[policy late]
queue = sjf
backfill = easy
preempt = checkpoint
preempt_grace = 200
INI
run -q p.ini
check "preempt: runs" test $rc -eq 0
check "suspend: job 2 at 100" grep -q '^2,100,100,110,4,0,10,.*,1,0,10$' out/p/suspend/jobs.csv
check "suspend: job 1 resumes at 110 with its work and 5 s, ends 1015" \
  grep -q '^1,0,110,1015,4,110,905,1000,.*,ran,2,0,1005$' out/p/suspend/jobs.csv
check "requeue: job 1 again from zero at 110, 100 s lost" \
  grep -q '^1,0,110,1110,4,110,1000,1000,.*,ran,2,100,1100$' out/p/requeue/jobs.csv
check "grace: job 1 not stopped" grep -q '^2,100,1000,1010,' out/p/late/jobs.csv
check "jobs.csv: starts,lost_s,ran_s last" grep -q ',state,starts,lost_s,ran_s$' \
  out/p/suspend/jobs.csv
check "jobs.csv: none without preemption" grep -q ',state$' <(head -1 out/p/plain/jobs.csv)
check "suspend: attempts.csv, job 1's first run" \
  cmp <(printf 'job_id,start,end\n1,0,100\n') out/p/suspend/attempts.csv
check "attempts.csv: none without preemption" test ! -e out/p/plain/attempts.csv

# the plain policy alone: the same jobs.csv
printf '[experiment]\nname = plain\noutput = out\n[workload]\npath = t.swf\n' > plain.ini
printf '[policy plain]\nqueue = sjf\nbackfill = easy\n' >> plain.ini
run -q plain.ini
check "plain: byte-identical jobs.csv" cmp out/plain/plain/jobs.csv out/p/plain/jobs.csv

# round robin: three jobs of 300 s on one processor, quantum 100 s
cat > r.swf <<'SWF'
; MaxProcs: 1
1 0 -1 300 1 -1 -1 1 300 -1 1 1 1 -1 -1 -1 -1 -1
2 0 -1 300 1 -1 -1 1 300 -1 1 1 1 -1 -1 -1 -1 -1
3 0 -1 50 1 -1 -1 1 50 -1 1 1 1 -1 -1 -1 -1 -1
SWF
cat > r.ini <<'INI'
[experiment]
name = r
output = out
[workload]
path = r.swf
[policy rr]
backfill = rr
quantum = 100
INI
run -q r.ini
check "rr: runs" test $rc -eq 0
check "rr: job 3 within the first round" grep -q '^3,0,200,250,' out/r/rr/jobs.csv
check "rr: job 1 last at 450-550, three turns" grep -q '^1,0,450,550,.*,3,0,300$' out/r/rr/jobs.csv
check "rr: job 2 last at 550-650" grep -q '^2,0,550,650,.*,3,0,300$' out/r/rr/jobs.csv
check "rr: attempts.csv holds the turns cut short, in order" \
  cmp <(printf 'job_id,start,end\n1,0,100\n2,100,200\n1,250,350\n2,350,450\n') \
  out/r/rr/attempts.csv
# the time series counts a job running in each of its turns, waiting
# between them: one runs throughout, two wait until job 3 ends at 250
check "rr: timeseries, one running, two waiting, at 0, 120 and 240 s" \
  test "$(grep -E '^(0|120|240),' out/r/rr/timeseries.csv | cut -d, -f3,4 | sort -u)" = "2.000,1.000"
check "rr: timeseries, one waiting at 300 and 500 s, none at 600" \
  test "$(grep -E '^(300|500|600),' out/r/rr/timeseries.csv | cut -d, -f3,4 | tr '\n' ' ')" = \
  "1.000,1.000 1.000,1.000 0.000,1.000 "

# rr with a quantum longer than every job is FCFS, job for job, on KTH-SP2
kth=$shared/traces/swf/KTH-SP2-1996-2.1-cln.swf.gz
if [[ -f $kth ]]; then
  cat > kth.ini <<INI
[experiment]
name = kth
output = out
[workload]
path = $kth
clean = pyss
[cluster]
processors = 100
[policy fcfs]
[policy rr]
backfill = rr
quantum = 100000000
INI
  run -q kth.ini
  check "kth: runs" test $rc -eq 0
  check "kth: rr's start and end columns are FCFS's" \
    cmp <(cut -d, -f1-4 out/kth/fcfs/jobs.csv) <(cut -d, -f1-4 out/kth/rr/jobs.csv)
fi

# mistakes
bad() { # bad NAME EXPECTED: bad.ini fails with EXPECTED in its message
  run -q bad.ini
  check "$1: exit 2" test $rc -eq 2
  check "$1: says so" has_err "$2"
}
sed 's/^preempt = requeue/preempt = sometimes/' p.ini > bad.ini
bad "bad mode" "bad.ini:17: preempt 'sometimes': expected off, requeue, suspend or checkpoint"
sed 's/^backfill = rr/backfill = rr\nqueue = sjf/' r.ini > bad.ini
bad "rr and sjf" "bad.ini:8: [policy rr] queue = sjf does not go with backfill = rr: backfill = rr takes jobs in turn"
sed 's/^quantum = 100/quantum = 100\npreempt = suspend/' r.ini > bad.ini
bad "rr and preempt" "bad.ini:9: [policy rr] preempt with backfill = rr"
sed 's/^quantum = 100/quantum = 100\nswitch_cost = 100/' r.ini > bad.ini
bad "switch cost of a quantum" "bad.ini:9: [policy rr] switch_cost must be shorter"
sed 's/^preempt = requeue/preempt = requeue\nswitch_cost = 5/' p.ini > bad.ini
bad "switch cost with requeue" "bad.ini:18: [policy requeue] switch_cost applies only"
sed 's/^preempt = requeue/quantum = 50/' p.ini > bad.ini
bad "quantum without rr" "bad.ini:17: [policy requeue] quantum applies only with backfill = rr"
sed 's/^preempt = requeue/preempt_grace = 5/' p.ini > bad.ini
bad "grace alone" "bad.ini:17: [policy requeue] preempt_grace applies only"
sed 's/^backfill = easy/backfill = conservative/' p.ini > bad.ini
bad "conservative" "bad.ini:12: [policy suspend] preempt with a scheduler that keeps its plans"
sed 's/^quantum = 100/quantum = 0/' r.ini > bad.ini
bad "quantum 0" "bad.ini:8: quantum: expected seconds"

test_finish
