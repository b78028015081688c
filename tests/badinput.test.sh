#!/usr/bin/env bash
# badinput.test.sh HSIM SHARED WORKDIR
# Inputs that once crashed, hung or misled hsim (issue 44): each must give
# a clear error naming the file (and line), with exit status 2, or for an
# output folder that cannot be made, exit status 1.  Every check prints one
# line; the script exits 1 if any failed.
set -uo pipefail

[[ $# -eq 3 ]] || { echo "usage: badinput.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/testlib.sh"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) # before test_setup's cd
test_setup badinput "$1" "$3"

head -n 40 "$repo/traces/quickstart.swf" >t.swf

# ---- an Alibaba node list with a header and no rows ----
# It made a cluster of no nodes: an assertion failed (exit 134), or, for
# lublin, an error that named the INI and not the list.
printf 'sn,cpu_milli,memory_mib,gpu,model\n' >empty-nodes.csv
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n' >pods.csv
for format in swf alibaba lublin; do
  case $format in
  swf) what='path = t.swf' ;;
  alibaba) what='path = pods.csv' ;;
  lublin) what='jobs = 10' ;;
  esac
  printf '[experiment]\noutput = out\n[workload]\nformat = %s\n%s\n[cluster]\nalibaba_nodes = empty-nodes.csv\n[policy a]\n' \
    "$format" "$what" >"empty-$format.ini"
  run -q "empty-$format.ini"
  check "format $format, an empty node list: exits 2" test $rc -eq 2
  check "format $format, an empty node list: names the list" has_err "empty-nodes.csv:1: no nodes"
done

# ---- issue 44, item 3 ----
good() { # good NAME TRACE [OUTPUT]: an SWF experiment on 64 processors
  printf '[experiment]\nname = %s\noutput = %s\n[workload]\npath = %s\n[cluster]\nprocessors = 64\n[policy a]\n' \
    "$1" "${3:-out}" "$2" >"$1.ini"
}

# a trace that is a named pipe no program writes: hsim waited for ever; it
# now waits 10 s for a writer, then says so (and a pipe that has one is
# read, as before: cli.test.sh)
mkfifo nobody.swf
good fifo nobody.swf
timeout 60 "$hsim" -q fifo.ini >out.txt 2>err.txt
rc=$?
check "a named pipe with no writer: no hang, exits 2" test $rc -eq 2
check "a named pipe with no writer: says so" \
  has_err "fifo.ini:5: cannot read trace './nobody.swf': a named pipe that no program writes"
good late late.swf
(sleep 2; cat t.swf >late.swf) &
mkfifo late.swf
timeout 60 "$hsim" -q late.ini >out.txt 2>err.txt
rc=$?
wait
check "a named pipe whose writer comes 2 s late: read, exits 0" test $rc -eq 0
check "a named pipe whose writer comes 2 s late: its results" test -s out/late/a/jobs.csv

# an output folder through a loop of symbolic links: "a file is in the
# way" it said; it is a loop
ln -s loop-b loop-a
ln -s loop-a loop-b
good loop1 t.swf loop-a
run -q loop1.ini
check "output through a link loop: exits 1" test $rc -eq 1
check "output through a link loop: says loop" has_err "loop-a: cannot create folder: a symbolic-link loop"
good loop2 t.swf loop-a/deeper
run -q loop2.ini
check "output under a link loop: exits 1" test $rc -eq 1
check "output under a link loop: says loop" has_err "cannot create folder: a symbolic-link loop"

# a negative local_memory in a topology: read as 17,592,186,044,415 MiB per node
sed '0,/local_memory="[0-9]*"/s//local_memory="-1"/' "$repo/traces/topologies/cpu-node.xml" >neg.xml
printf '[experiment]\noutput = out\n[workload]\npath = t.swf\n[nodes cpu]\ntopology = xml:neg.xml\n[policy a]\n' >neg.ini
run -q neg.ini
check "negative local_memory: exits 2" test $rc -eq 2
check "negative local_memory: names the file and line" \
  has_err "neg.xml':9: local_memory of NUMA node 0: expected a size in bytes, found a negative one (-1)"

# an ElasticFlow job_id given twice: the job ran twice without a word
printf 'job_id,submission_time,duration,num_gpu\na,0,10,1\nb,5,10,1\na,9,10,1\n' >twice.csv
printf '[experiment]\noutput = out\n[workload]\nformat = elasticflow\npath = twice.csv\n[nodes gpu]\ncores = 8\ngpus = 8\n[policy a]\n' >twice.ini
run -q twice.ini
check "an ElasticFlow job_id twice: exits 2" test $rc -eq 2
check "an ElasticFlow job_id twice: file and line" \
  has_err "twice.csv:4: field 1 (job_id): 'a' again (first at line 2)"

# ---- issue 44, item 6: Alea's extended SWF (MetaCentrum) ----
# 'expected 18 fields, found 21' at line 1; read by default now, refused
# with swf_extra = error, and lines of other extra fields read with ignore
alea=$repo/tests/data/alea-extended.swf
good alea "$alea"
run -q alea.ini
check "Alea's extended SWF: exits 0" test $rc -eq 0
check "Alea's extended SWF: every job ran" test "$(($(wc -l <out/alea/a/jobs.csv) - 1))" -eq 6
printf '[experiment]\nname = alea-error\noutput = out\n[workload]\npath = %s\nswf_extra = error\n[cluster]\nprocessors = 64\n[policy a]\n' \
  "$alea" >alea-error.ini
run -q alea-error.ini
check "swf_extra = error: exits 2" test $rc -eq 2
check "swf_extra = error: file and line" has_err "alea-extended.swf:11: expected 18 fields, found 21"
sed 's/ -1 -1$/ -1 -1 7 8/' t.swf >numbers.swf
good numbers numbers.swf
run -q numbers.ini
check "two numbers past field 18: exits 2" test $rc -eq 2
check "two numbers past field 18: says what was expected" \
  has_err "expected 18 fields, or 21 in Alea's extended SWF"
sed 's/^swf_extra = error$/swf_extra = ignore/; s#^path = .*#path = numbers.swf#; s/alea-error/numbers-ignored/' \
  alea-error.ini >ignore.ini
run -q ignore.ini
check "two numbers past field 18, swf_extra = ignore: exits 0" test $rc -eq 0

test_finish
