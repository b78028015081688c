#!/usr/bin/env bash
# deps.test.sh HSIM SHARED WORKDIR
# Dependencies and workflows from the command line: a generated workload of
# random DAGs runs under FCFS, EASY and conservative and writes
# workflows.csv (one row per workflow and policy, makespan >= critical
# path); the same experiment twice gives the same files; a dependencies file
# beside an SWF trace holds children back (jobs.csv's submit) and a
# rejected parent rejects its child; a cycle and a missing job are errors
# that name the file and line; an experiment without dependencies writes
# no workflows.csv; the INI's mistakes are named at their line.
set -uo pipefail
[[ $# -eq 3 ]] || { echo "usage: deps.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$repo/tests/testlib.sh"
SHOW_ERRORS=1
test_setup deps "$1" "$3"

cat > dag.ini <<'INI'
[experiment]
name = dag
output = out
seed = 3
[workload]
format = lublin
jobs = 400
workflow = dag
workflow_width = 3
workflow_depth = 4
[cluster]
processors = 64
[policy fcfs]
[policy easy]
backfill = easy
[policy cons]
backfill = conservative
INI
run -q dag.ini
check "dag: runs" test $rc -eq 0
check "dag: workflows.csv" test -f out/dag/workflows.csv
check "dag: one row per workflow and policy" \
  awk -F, 'NR > 1 { n[$1]++ } END { exit !(n["fcfs"] > 10 && n["fcfs"] == n["easy"] && n["easy"] == n["cons"]) }' \
  out/dag/workflows.csv
check "dag: makespan >= critical path" \
  awk -F, 'NR > 1 && $7 + 0 < $8 + 0 { bad++ } END { exit bad > 0 }' out/dag/workflows.csv
cp -r out/dag first
run -q dag.ini
check "dag: the same files again" diff -r first out/dag

# an SWF trace of 4 jobs with a file of edges
cat > t.swf <<'SWF'
; MaxProcs: 8
1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 -1 -1 -1 -1
2 10 -1 50 4 -1 -1 4 50 -1 1 1 1 -1 -1 -1 -1 -1
3 20 -1 30 16 -1 -1 16 30 -1 1 1 1 -1 -1 -1 -1 -1
4 30 -1 30 2 -1 -1 2 30 -1 1 1 1 -1 -1 -1 -1 -1
5 40 -1 30 2 -1 -1 2 30 -1 1 1 1 -1 -1 -1 -1 -1
SWF
printf 'job,depends_on\n2,1\n5,3\n' > edges.csv
cat > edges.ini <<'INI'
[experiment]
name = edges
output = out
[workload]
path = t.swf
dependencies = edges.csv
[cluster]
processors = 8
[policy fcfs]
INI
run -q edges.ini
check "edges: runs" test $rc -eq 0
check "edges: job 2 submitted when job 1 ends" grep -q '^2,100,100,150,' out/edges/fcfs/jobs.csv
check "edges: job 5 rejected with its parent" grep -q '^5,.*its parent 3 was rejected' out/edges/rejected.csv
check "edges: jobs 1, 2, 4 ran" test "$(tail -n +2 out/edges/fcfs/jobs.csv | wc -l)" -eq 3

printf 'job,depends_on\n2,1\n1,4\n4,2\n' > cycle.csv
sed 's/edges.csv/cycle.csv/' edges.ini > cycle.ini
run -q cycle.ini
check "cycle: exit 2" test $rc -eq 2
check "cycle: names its jobs and lines" has_err "job 1 waits for job 4 (./cycle.csv:3)"

printf 'job,depends_on\n2,1\n2,77\n' > missing.csv
sed 's/edges.csv/missing.csv/' edges.ini > missing.ini
run -q missing.ini
check "missing: exit 2" test $rc -eq 2
check "missing: names the job and line" has_err "missing.csv:3: job 2 depends on job 77"

sed 's/edges.csv/nowhere.csv/' edges.ini > nowhere.ini
run -q nowhere.ini
check "no such file: exit 2" test $rc -eq 2
check "no such file: named at its INI line" has_err "nowhere.ini:6: cannot open dependencies"

grep -v dependencies edges.ini > plain.ini
sed -i 's/name = edges/name = plain/' plain.ini
run -q plain.ini
check "plain: no workflows.csv" test ! -e out/plain/workflows.csv

sed 's/workflow = dag/workflow = tree/' dag.ini > bad.ini
run -q bad.ini
check "bad shape: named at its line" has_err "bad.ini:8: workflow 'tree'"
sed 's/workflow_depth = 4/workflow_depth = 0/' dag.ini > bad.ini
run -q bad.ini
check "bad depth: named at its line" has_err "bad.ini:10: workflow_depth"
sed 's/path = t.swf/path = t.swf\nworkflow = chain/' edges.ini > bad.ini
run -q bad.ini
check "workflow on a trace: refused" has_err "workflow does not apply to format swf"

test_finish
