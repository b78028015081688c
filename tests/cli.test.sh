#!/usr/bin/env bash
# cli.test.sh HSIM SHARED WORKDIR
# The hsim command as users and scripts see it: options, exit status, error
# messages that name the file and line, and the files a run writes.  Every
# check prints one line; the script exits 1 if any failed.
set -uo pipefail

[[ $# -eq 3 ]] || { echo "usage: cli.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/testlib.sh"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) # before test_setup's cd
shared=$(cd "$2" && pwd) || { echo "cli: no shared folder $2" >&2; exit 2; }
test_setup cli "$1" "$3"

# ---- options ----
run --help
check "--help exits 0" test $rc -eq 0
check "--help mentions usage" grep -qi "usage" out.txt
run -h
check "-h exits 0" test $rc -eq 0
run --version
check "--version exits 0" test $rc -eq 0
check "--version prints a version" grep -qE "[0-9]+\.[0-9]+" out.txt
run
check "no arguments exits 2" test $rc -eq 2
check "no arguments prints usage on stderr" grep -qi "usage" err.txt
run --frobnicate x.ini
check "unknown option exits 2" test $rc -eq 2
check "unknown option is named" has_err "--frobnicate"
run nonexistent.ini
check "missing INI exits 2" test $rc -eq 2
check "missing INI is named" has_err "nonexistent.ini"
# long paths: the system's reason is never cut off the message; an INI
# whose path is too long for hsim is refused, not read with a cut folder
long=$(printf 'a%.0s' {1..300})
run "$long.ini"
check "an INI name of 300 characters exits 2" test $rc -eq 2
check "an INI name of 300 characters: the reason" has_err "$long.ini: cannot open: File name too long"
part=$(printf 'd%.0s' {1..180})
deep="$part/$part/$part/$part/$part"
mkdir -p "$deep"
printf '[workload]\npath = no-such.swf\n[cluster]\nprocessors = 8\n[policy a]\n' >"$deep/x.ini"
run -q "$deep/x.ini"
check "a missing trace, two paths of 900 characters: exits 2" test $rc -eq 2
check "a missing trace, two paths of 900 characters: the reason, whole" \
  has_err "$deep/x.ini:2: cannot open trace '$deep/no-such.swf': No such file or directory"
deep="$deep/$part/$part"
mkdir -p "$deep"
printf '[workload]\nformat = lublin\njobs = 10\n[cluster]\nprocessors = 8\n[policy a]\n' >"$deep/x.ini"
run -q "$deep/x.ini"
check "an INI path of 1,272 characters exits 2" test $rc -eq 2
check "an INI path of 1,272 characters: says so" has_err "/x.ini: a path of 1272 characters: expected at most 1023"
rm -rf "$part"
mkdir -p a-folder.ini
run a-folder.ini
check "a folder as INI exits 2" test $rc -eq 2
check "a folder as INI: cannot read it" has_err "a-folder.ini: cannot read: Is a directory"
run gen a-folder.ini x.swf
check "gen: a folder as INI exits 2" test $rc -eq 2
run gen nonexistent.ini x.swf
check "gen: missing INI exits 2" test $rc -eq 2

# ---- a small synthetic trace ----
# 16 processors.  Jobs 1-6 run; job 6 runs past its requested time (killed).
# The standard preset rejects 7 (runtime -1), 8 (runtime 0), 9 (no processor
# count), 10 (32 processors on 16), 11 (negative submit).
cat >small.swf <<'EOF'
; Computer: test machine
; MaxProcs: 16
; UnixStartTime: 0

1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1
2 10 -1 50 16 -1 -1 16 60 -1 1 2 1 1 1 1 -1 -1
3 20 -1 30 2 -1 -1 -1 40 -1 1 3 1 1 1 1 -1 -1
; a comment between jobs
4 20 -1 300 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1
5 25 -1 5 1 -1 -1 1 10 -1 1 2 1 1 1 1 -1 -1
6 30 -1 500 4 -1 -1 4 100 -1 0 3 1 1 1 1 -1 -1
7 40 -1 -1 4 -1 -1 4 100 -1 1 1 1 1 1 1 -1 -1
8 50 -1 0 4 -1 -1 4 100 -1 1 1 1 1 1 1 -1 -1
9 60 -1 10 -1 -1 -1 -1 100 -1 1 1 1 1 1 1 -1 -1
10 70 -1 10 32 -1 -1 32 100 -1 1 1 1 1 1 1 -1 -1
11 -5 -1 10 4 -1 -1 4 100 -1 1 1 1 1 1 1 -1 -1
EOF
n_input=$(grep -cvE '^[[:space:]]*(;|$)' small.swf)

cat >good.ini <<EOF
; a valid experiment
[experiment]
name = small
output = $work/out

[workload]
path = small.swf
clean = standard

[policy fcfs]
backfill = none

[policy easy]
backfill = easy

[policy cons]
backfill = conservative
EOF

run -q good.ini
check "good run exits 0" test $rc -eq 0
[[ $rc -eq 0 ]] || sed 's/^/    /' err.txt
check "-q prints nothing on stdout" test ! -s out.txt
res=$work/out/small
check "summary.csv written" test -f "$res/summary.csv"
check "rejected.csv written" test -f "$res/rejected.csv"
check "no .part file is left (files are written as .part, then renamed)" \
  test -z "$(find "$work/out" -name '*.part')"
check "summary.csv header" grep -q "^policy,jobs,avg_wait,avg_turnaround,avg_bsld,max_wait,utilization,makespan,throughput" "$res/summary.csv"
check "summary.csv ends with killed,rejected,expiries" grep -q ",fairness,killed,rejected,expiries$" "$res/summary.csv"
check "summary.csv: no prediction expires with requested times" \
  awk -F, 'NR > 1 && $NF != 0 { bad = 1 } END { exit bad }' "$res/summary.csv"
check "summary.csv has one row per policy, in file order" \
  test "$(tail -n +2 "$res/summary.csv" | cut -d, -f1 | tr '\n' ' ')" = "fcfs easy cons "
check "rejected.csv header" grep -q "^job_id,line,reason" "$res/rejected.csv"
n_rejected=$(($(wc -l <"$res/rejected.csv") - 1))
check "rejected.csv lists the 5 rejected jobs" test "$n_rejected" -eq 5
check "rejected.csv ids" test "$(tail -n +2 "$res/rejected.csv" | cut -d, -f1 | sort -n | tr '\n' ' ')" = "7 8 9 10 11 "
for policy in fcfs easy cons; do
  jobs=$res/$policy/jobs.csv
  if [[ ! -f $jobs ]]; then
    fail "$policy/jobs.csv written"
    continue
  fi
  pass "$policy/jobs.csv written"
  check "$policy/jobs.csv header" grep -q "^job_id,submit,start,end,procs,wait,run,estimate,bsld" "$jobs"
  n_jobs=$(($(wc -l <"$jobs") - 1))
  check "$policy: every input job is in jobs.csv or rejected.csv ($n_jobs + $n_rejected = $n_input)" \
    test $((n_jobs + n_rejected)) -eq "$n_input"
  check "$policy: no job is in both files, none is missing" \
    test "$( (tail -n +2 "$jobs"; tail -n +2 "$res/rejected.csv") | cut -d, -f1 | sort -n | tr '\n' ' ')" = "1 2 3 4 5 6 7 8 9 10 11 "
  check "$policy: wait = start - submit, run = end - start, start >= submit" \
    awk -F, 'NR > 1 && ($6 != $3 - $2 || $7 != $4 - $3 || $3 < $2) { bad = 1 } END { exit bad }' "$jobs"
  check "$policy: summary jobs = jobs.csv rows" \
    test "$(awk -F, -v p="$policy" '$1 == p { print $2 }' "$res/summary.csv")" = "$n_jobs"
  # job 6 ran 500 s against a request of 100 s: cut at 100
  check "$policy: job 6 killed at its requested time" \
    awk -F, 'NR > 1 && $1 == 6 { found = 1; if ($7 != 100) bad = 1 } END { exit !(found && !bad) }' "$jobs"
done
check "rejected.csv: each job with the line it is on in small.swf" \
  test "$(tail -n +2 "$res/rejected.csv" | cut -d, -f1,2 | sort -n | tr '\n' ' ')" = "7,12 8,13 9,14 10,15 11,16 "

# ---- every cell of a small run, worked out by hand ----
# 4 processors, FCFS.  J1 runs [0, 30); J2 waits for it and runs [30, 60);
# J3 and J4 start at 60, and J4, which asked for 10 s, is killed at 70.
#   wait 0, 20, 40, 35; turnaround 30, 50, 45, 45; bsld 1, 50/30, 4.5, 4.5
#   (J3: 45 / max(5, 10)).  Percentiles interpolate between order
#   statistics: the median wait of 0 20 35 40 is 27.5, its p95 35 + 0.85 x 5.
#   utilization 270 / (4 x 70); throughput 4 jobs in 70 s, 205.7143 an hour;
#   fairness over the users' average bsld (1.3333, 4.5, 4.5):
#   10.3333^2 / (3 x 42.2778) = 0.841875.
cat >exact.swf <<'EOF'
; MaxProcs: 4
1 0 -1 30 4 -1 -1 4 30 -1 1 1 1 1 1 1 -1 -1
2 10 -1 30 4 -1 -1 4 40 -1 1 1 1 1 1 1 -1 -1
3 20 -1 5 2 -1 -1 2 100 -1 1 2 1 1 1 1 -1 -1
4 25 -1 20 2 -1 -1 2 10 -1 0 3 1 1 1 1 -1 -1
EOF
printf '[experiment]\nname = exact\noutput = %s/out\n[workload]\npath = exact.swf\nclean = standard\n[policy fcfs]\n' \
  "$work" >exact.ini
run -q exact.ini
check "a run worked out by hand: exits 0" test $rc -eq 0
check "a run worked out by hand: every cell of jobs.csv" \
  test "$(tail -n +2 "$work/out/exact/fcfs/jobs.csv" | tr '\n' ' ')" = "\
1,0,0,30,4,0,30,30,1.0000,1,ran \
2,10,30,60,4,20,30,40,1.6667,1,ran \
3,20,60,65,2,40,5,100,4.5000,2,ran \
4,25,60,70,2,35,10,10,4.5000,3,killed "
check "a run worked out by hand: every cell of summary.csv" \
  test "$(tail -n +2 "$work/out/exact/summary.csv")" = "\
fcfs,4,23.750,42.500,2.9167,40.000,0.964286,70.000,205.7143,27.500,39.250,45.000,49.250,50.000,\
3.0833,4.5000,4.5000,0.841875,1,0,0"

run good.ini
check "without -q, a table on stdout" test -s out.txt
# two experiments: two tables, a blank line between them
sed 's/^name = small$/name = small-again/' good.ini >again.ini
run good.ini again.ini
check "two experiments: exits 0" test $rc -eq 0
check "two experiments: two tables, one blank line between" \
  test "$(grep -c '^policy ' out.txt) $(grep -c '^$' out.txt) $(grep -n '^$' out.txt | cut -d: -f1)" \
  = "2 1 $(($(grep -n '^small-again:' out.txt | cut -d: -f1) - 1))"
run good.ini
check "the table names each policy" has_out "cons"
check "a pool of processors: no gpu_util column" grep -qE '^policy .* util fairness$' out.txt
# a policy name longer than the first column: the columns still line up
# (every line of the table as long as the header)
sed -e 's/^\[policy easy\]$/[policy easy-with-a-name-of-33-chars]/' -e 's/^name = small$/name = long-names/' good.ini >long-names.ini
run long-names.ini
check "a long policy name: exits 0" test $rc -eq 0
check "a long policy name: its row is in the table" has_out "easy-with-a-name-of-33-chars "
check "a long policy name: the columns line up" \
  awk 'NR > 1 { if (!w) w = length($0); else if (length($0) != w) bad = 1 } END { exit bad || !w }' out.txt

# a file where a results folder must go: named, exit 1
mkdir -p "$work/blocked/small"
touch "$work/blocked/small/easy"
sed "s#^output = .*#output = $work/blocked#" good.ini >blocked.ini
run -q blocked.ini
check "a file in the way of a results folder exits 1" test $rc -eq 1
check "a file in the way of a results folder: named" \
  has_err "blocked.ini: $work/blocked/small/easy: cannot create folder: a file is in the way, not a folder"
# a run that failed does not stop the experiments after it
rm -rf "$work/out"
run -q blocked.ini good.ini
check "a failed run, then a good one: exits 1" test $rc -eq 1
check "a failed run, then a good one: that one ran" test -f "$work/out/small/summary.csv"

# a table that cannot be written (a full disk) is an error, not a silent
# loss; with -q nothing is written, so nothing fails
if [[ -w /dev/full ]]; then
  "$hsim" good.ini >/dev/full 2>err.txt
  rc=$?
  check "a table on a full disk exits 1" test $rc -eq 1
  check "a table on a full disk: says so" has_err "hsim: standard output: cannot write"
  "$hsim" --help >/dev/full 2>err.txt
  rc=$?
  check "--help on a full disk exits 1" test $rc -eq 1
  check "--help on a full disk: the system's reason" \
    has_err "hsim: standard output: cannot write: No space left on device"
  "$hsim" -q good.ini >/dev/full 2>err.txt
  rc=$?
  check "-q on a full disk exits 0" test $rc -eq 0
  # results files on a full disk: the first that fails is named, with the
  # system's reason, not the summary that found the disk full after it
  # (a file is written as <name>.<pid>.part, then renamed: link those of
  # the process to come to /dev/full; exec keeps the shell's pid)
  cp -r "$res" "$work/full-before"
  res=$res bash -c 'ln -sf /dev/full "$res/fcfs/jobs.csv.$$.part" &&
                    ln -sf /dev/full "$res/summary.csv.$$.part" &&
                    exec "$0" -q good.ini' "$hsim" >out.txt 2>err.txt
  rc=$?
  check "jobs.csv on a full disk exits 1" test $rc -eq 1
  check "jobs.csv on a full disk: named first, with the reason" \
    has_err "good.ini: $res/fcfs/jobs.csv: cannot write: No space left on device"
  check "jobs.csv on a full disk: the whole one of the last run is kept" \
    cmp "$res/fcfs/jobs.csv" "$work/full-before/fcfs/jobs.csv"
  check "jobs.csv on a full disk: no .part file is left" \
    test -z "$(find "$res" -name '*.part')"
  rm -rf "$res"
  mv "$work/full-before" "$res"
  run gen good.ini /dev/full
  check "gen: SWF on a full disk exits 1" test $rc -eq 1
  check "gen: SWF on a full disk, the reason" has_err "/dev/full: cannot write: No space left on device"
  run gen good.ini gen.swf /dev/full
  check "gen: CSV on a full disk exits 1" test $rc -eq 1
  check "gen: CSV on a full disk, the reason" has_err "/dev/full: cannot write: No space left on device"
  check "gen: a device is written in place, not renamed over" test -c /dev/full -a ! -e /dev/full.part
else
  echo "skip a full disk: no /dev/full"
fi

# the same experiment, run again: byte-identical
cp -r "$res" "$work/first"
run -q good.ini
check "a second run writes identical files" diff -r "$work/first" "$res"

# a reader that stops reading the table (hsim x.ini | head) does not stop
# hsim half-way: every file is written whole, and that is no error.  The
# reader closes its end and leaves a mark before hsim starts, so the first
# write of the table finds the pipe closed on every run.
rm -rf "$res" gone
{
  while [[ ! -e gone ]]; do sleep 0.01; done
  "$hsim" good.ini 2>err.txt
  echo $? >rc.txt
} | {
  exec 0<&-
  touch gone
}
check "a closed pipe for the table: exits 0" test "$(cat rc.txt)" = 0
# (not an empty err.txt: under LeakSanitizer, a run that draws the chart
# also prints the suppressions it used, for fontconfig)
check "a closed pipe for the table: no error" bash -c '! grep -v "^hsim: warning: good.ini: 5 of 11 jobs rejected" err.txt | grep -qE "hsim|good.ini|pipe"'
check "a closed pipe for the table: every file written whole" diff -r "$work/first" "$res"

# a closed standard output is not taken by the first results file opened
# (the table was written into summary.csv, exit 0): the table's write fails
# as on a closed descriptor, and the files are as before
rm -rf "$res"
"$hsim" good.ini >&- 2>err.txt
check "a closed stdout: exits 1" test $? -eq 1
check "a closed stdout: says so" has_err "standard output: cannot write"
check "a closed stdout: every file as before" diff -r "$work/first" "$res"

# past a file size limit a write fails like any other (the signal killed
# hsim without a word, and left its .part files)
printf '[experiment]\nname = fsize\noutput = %s/out\n[workload]\nformat = lublin\njobs = 3000\n[cluster]\nprocessors = 64\n[policy fcfs]\n' "$work" >fsize.ini
(ulimit -f 50; "$hsim" -q fsize.ini >out.txt 2>err.txt)
rc=$?
check "past ulimit -f: exits 1" test $rc -eq 1
check "past ulimit -f: says so" has_err "fsize/fcfs/jobs.csv: cannot write: File too large"
check "past ulimit -f: no .part file left" test -z "$(find "$work/out/fsize" -name '*.part')"

# a run stopped by a signal (Ctrl-C, kill, a closed terminal) removes the
# .part files it was writing; the files it finished stay.  60 policies of
# 50,000 jobs: the signal comes when the first policy's jobs.csv is whole,
# long before the last.  set -m: a background job of a script otherwise
# starts with SIGINT ignored.
{
  printf '[experiment]\nname = long\noutput = %s/stopped\n' "$work"
  printf '[workload]\nformat = lublin\njobs = 50000\n[cluster]\nprocessors = 128\n'
  for i in $(seq 60); do printf '[policy p%d]\nqueue = fcfs\nbackfill = easy\n' "$i"; done
} >long.ini
for how in "INT" "TERM" "HUP" "TERM -j 2"; do
  read -r sig threads <<<"$how"
  rm -rf "$work/stopped"
  set -m
  "$hsim" -q $threads long.ini 2>err.txt &
  pid=$!
  set +m
  while [[ ! -e $work/stopped/long/p1/jobs.csv ]] && kill -0 $pid 2>/dev/null; do sleep 0.01; done
  check "SIG$how: .part files while it runs" test -e "$work/stopped/long/summary.csv.$pid.part"
  kill -"$sig" $pid
  wait $pid 2>/dev/null
  rc=$?
  check "SIG$how: stopped by the signal" test $rc -eq $((128 + $(kill -l "$sig")))
  check "SIG$how: no .part file is left" test -z "$(find "$work/stopped" -name '*.part')"
  check "SIG$how: the finished jobs.csv stays" test -s "$work/stopped/long/p1/jobs.csv"
done

# replayed on threads: the same files and the same table (3 policies on 2
# threads: two at once, then the third; on 8: all at once)
run good.ini
cp out.txt table.txt
run -j 2 good.ini
check "-j 2 exits 0" test $rc -eq 0
check "-j 2 writes identical files" diff -r "$work/first" "$res"
check "-j 2 prints the same table" diff table.txt out.txt
run --threads 8 -q good.ini
check "--threads 8 writes identical files" diff -r "$work/first" "$res"
for bad in 0 65 two 2x; do
  run -j "$bad" good.ini
  check "-j $bad exits 2" test $rc -eq 2
  check "-j $bad: says what it expected" has_err "-j: expected a number of threads in 1..64, found '$bad'"
done
run -j
check "-j without a number exits 2" test $rc -eq 2
# the usual spellings of options (getopt_long): joined values, clustered
# letters, --name=value, options after the files, -- before a file
for spelling in "-j2 -q" "--threads=2 -q" "-qj 2" "-q --thr 2"; do
  # shellcheck disable=SC2086
  run $spelling good.ini
  check "'$spelling' exits 0" test $rc -eq 0
  check "'$spelling': quiet, same files" bash -c "test ! -s out.txt && diff -r '$work/first' '$res'"
done
run good.ini -q
check "an option after the file exits 0" test $rc -eq 0
check "an option after the file is taken" test ! -s out.txt
run -q -- good.ini
check "-- before the file exits 0" test $rc -eq 0
run -qx good.ini
check "an unknown letter in a cluster exits 2" test $rc -eq 2
check "an unknown letter in a cluster is named" has_err "unknown option '-x'"
run --quiet -xq good.ini
check "an unknown letter after a long option is named" has_err "unknown option '-x'"
run --quiet=yes good.ini
check "a value for --quiet exits 2" test $rc -eq 2
check "a value for --quiet: says so" has_err "option '--quiet' takes no value, found '--quiet=yes'"

# a run that fails half-way keeps the earlier run's whole summary.csv and
# classes.csv (it replaced them with files of its first policies only)
run -q good.ini
cp "$work/out/small/summary.csv" "$work/out/small/classes.csv" .
rm -r "$work/out/small/cons"
echo x > "$work/out/small/cons"
run -q good.ini
check "a run failing at its last policy exits 1" test $rc -eq 1
check "a failed run: summary.csv as before" cmp summary.csv "$work/out/small/summary.csv"
check "a failed run: classes.csv as before" cmp classes.csv "$work/out/small/classes.csv"
check "a failed run: no .part file is left" test -z "$(find "$work/out/small" -name '*.part')"
rm "$work/out/small/cons" summary.csv classes.csv
run -q good.ini

# a generator out of memory says so (it printed an empty reason); not
# under AddressSanitizer, which needs more address space than the limit
case "$(ldd "$hsim" 2>/dev/null)" in *libasan*) asan=1 ;; *) asan=0 ;; esac # no pipe
if ((asan == 0)); then                                  # into grep -q: pipefail
  printf '[workload]\nformat = lublin\njobs = 2147483647\n[cluster]\nprocessors = 64\n[policy p]\n' \
    > huge-gen.ini
  run_limited() { (ulimit -v 1000000; "$hsim" "$@") > out.txt 2> err.txt; rc=$?; }
  run_limited gen huge-gen.ini huge-gen.swf
  check "gen out of memory exits 1" test $rc -eq 1
  check "gen out of memory says so" has_err "hsim: huge-gen.ini: out of memory"
  rm -f huge-gen.swf huge-gen.swf.*.part
else
  echo "skip a generator out of memory: AddressSanitizer"
fi

# hsim gen with one file named twice: the CSV would replace the SWF
mkdir -p gen-twice
run gen good.ini gen-twice/x.swf ./gen-twice//x.swf
check "gen to one file twice exits 2" test $rc -eq 2
check "gen to one file twice: the reason" has_err "are one file: expected two"
check "gen to one file twice: nothing written" test -z "$(ls gen-twice)"

# hsim gen into a pipe: the SWF alone on stdout, its report on stderr, and
# /dev/stdout written through, never renamed over
stdout_was=$(ls -l /dev/stdout)
run gen good.ini /dev/stdout
check "gen to /dev/stdout: /dev/stdout left as it was" test "$(ls -l /dev/stdout)" = "$stdout_was"
check "gen to /dev/stdout exits 0" test $rc -eq 0
check "gen to /dev/stdout: SWF lines only" \
  awk '!/^;/ && NF != 18 { bad = 1 } END { exit bad || NR == 0 }' out.txt
check "gen to /dev/stdout: the report on stderr" has_err "jobs (5 rejected) -> /dev/stdout"
# into a regular file: written as .part, then renamed
run gen good.ini gen-file.swf
check "gen to a file: written, no .part left" test -s gen-file.swf -a ! -e gen-file.swf.part

# ---- bad input: exit 2, and the message names file and line ----
cat >unknown-key.ini <<'EOF'
[workload]
path = small.swf
[policy a]
backfil = easy
EOF
run -q unknown-key.ini
check "unknown key exits 2" test $rc -eq 2
check "unknown key: 'FILE:LINE: unknown key' on stderr" has_err "unknown-key.ini:4: unknown key"

cat >unknown-backfill.ini <<'EOF'
[workload]
path = small.swf
[policy a]
backfill = aggressive
EOF
run -q unknown-backfill.ini
check "unknown backfill exits 2" test $rc -eq 2
check "unknown backfill: names the line" has_err "unknown-backfill.ini:4:"
check "unknown backfill: lists none, easy, conservative" has_err "none, easy, conservative"

cat >missing-trace.ini <<'EOF'
[experiment]
output = out
[workload]
path = no-such-trace.swf
[policy a]
EOF
run -q missing-trace.ini
check "missing trace exits 2" test $rc -eq 2
check "missing trace: the INI file and line" has_err "missing-trace.ini:4:"
check "missing trace: the trace and the reason" \
  has_err "missing-trace.ini:4: cannot open trace './no-such-trace.swf': No such file or directory"
check "missing trace, a relative path: where it starts" \
  has_err "No such file or directory (a relative path starts at the INI file's folder)"
sed "s#^path = .*#path = $work/no-such-trace.swf#" missing-trace.ini >missing-abs.ini
run -q missing-abs.ini
check "missing trace, an absolute path: no word of folders" \
  test "$(cat err.txt)" = "hsim: missing-abs.ini:4: cannot open trace '$work/no-such-trace.swf': No such file or directory"
mkdir -p a-folder.swf
sed 's/no-such-trace.swf/a-folder.swf/' missing-trace.ini >folder-trace.ini
run -q folder-trace.ini
check "a folder as trace exits 2" test $rc -eq 2
check "a folder as trace: the INI line and the reason" \
  has_err "folder-trace.ini:4: cannot read trace './a-folder.swf': Is a directory"
# another input file that is missing: named with the experiment's INI
cat >missing-throughputs.ini <<'EOF'
[workload]
format = gavel
path = no-such-trace.csv
throughputs = no-such-throughputs.csv
[nodes v100]
count = 1
cores = 8
gpus = 4
gpu_model = v100
[policy a]
EOF
run -q missing-throughputs.ini
check "missing throughputs exits 2" test $rc -eq 2
check "missing throughputs: the INI's line, the file and the reason" \
  has_err "missing-throughputs.ini:4: cannot open throughputs './no-such-throughputs.csv': No such file or directory"

cat >malformed.swf <<'EOF'
; MaxProcs: 16
1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1
2 10 -1 50 16 -1 -1 16 60 -1 1 2 1 1 1
3 20 -1 30 2 -1 -1 -1 40 -1 1 3 1 1 1 1 -1 -1
EOF
cat >malformed.ini <<EOF
[experiment]
output = $work/out
[workload]
path = malformed.swf
[policy a]
EOF
run -q malformed.ini
check "malformed trace exits 2" test $rc -eq 2
check "malformed trace: the trace path and line" has_err "malformed.swf:3:"
check "malformed trace: what was expected" has_err "expected 18 fields"

cat >syntax.ini <<'EOF'
[workload]
path = small.swf
this line is not ini
[policy a]
EOF
run -q syntax.ini
check "syntax error exits 2" test $rc -eq 2
check "syntax error: the line" has_err "syntax.ini:3:"

# every INI is read before any experiment runs: a mistake in a later file
# stops the lot at once, each bad file's mistake printed
rm -rf "$work/out"
run -q good.ini unknown-key.ini syntax.ini
check "good then bad INIs exit 2" test $rc -eq 2
check "good then bad INIs: nothing ran" test ! -e "$work/out/small"
check "good then bad INIs: the first bad one named" has_err "unknown-key.ini:4:"
check "good then bad INIs: the second bad one named" has_err "syntax.ini:3:"
# so is an input file that cannot be opened: a mistyped path, a folder
run -q good.ini missing-trace.ini folder-trace.ini missing-throughputs.ini
check "good then missing inputs exit 2" test $rc -eq 2
check "good then missing inputs: nothing ran" test ! -e "$work/out/small"
check "good then missing inputs: the missing trace named" \
  has_err "missing-trace.ini:4: cannot open trace './no-such-trace.swf': No such file or directory"
check "good then missing inputs: the folder named" \
  has_err "folder-trace.ini:4: cannot read trace './a-folder.swf': Is a directory"
check "good then missing inputs: the missing throughputs named" \
  has_err "missing-throughputs.ini:4: cannot open throughputs './no-such-throughputs.csv'"
printf '[workload]\nformat = alibaba\npath = small.swf\n[cluster]\nalibaba_nodes = no-nodes.csv\n[policy a]\n' >no-nodes.ini
run -q no-nodes.ini
check "a missing Alibaba node list exits 2" test $rc -eq 2
check "a missing Alibaba node list: the INI's line, the file and the reason" \
  has_err "no-nodes.ini:5: cannot open node list './no-nodes.csv': No such file or directory"
# a named pipe is not opened to check it (its writer would see a reader
# come and go): it is read once, by the run
mkfifo fifo.swf
sed -e 's#^path = .*#path = fifo.swf#' -e 's/^name = small$/name = fifo/' good.ini >fifo.ini
cat small.swf >fifo.swf &
run -q fifo.ini
check "a trace through a named pipe: exits 0" test $rc -eq 0
check "a trace through a named pipe: its results" test -f "$work/out/fifo/summary.csv"
wait
# a mistake found only when an experiment loads its trace: what ran before
# it was written
sed 's/^name = small$/name = small-after/' good.ini >good-after.ini
run -q good.ini malformed.ini good-after.ini
check "good then bad trace exits 2" test $rc -eq 2
check "good then bad trace: the good one ran" test -f "$work/out/small/summary.csv"
check "good then bad trace: the trace named" has_err "malformed.swf:3:"
check "good then bad trace: hsim stopped there" test ! -e "$work/out/small-after"
# two experiments that would write one results folder: the second would
# overwrite the first's results, so nothing runs
rm -rf "$work/out"
cp good.ini copy-of-good.ini
run -q good.ini copy-of-good.ini
check "two INIs, one results folder: exits 2" test $rc -eq 2
check "two INIs, one results folder: says so" \
  has_err "copy-of-good.ini: its results would go to $work/out/small, as those of good.ini do: set another [experiment] name or output"
check "two INIs, one results folder: nothing ran" test ! -e "$work/out/small"
sed "s#^output = .*#output = $work/out//#" good.ini >slash.ini
run -q good.ini slash.ini
check "one results folder, output with a trailing slash: exits 2" test $rc -eq 2
run -q good.ini good.ini
check "one INI twice: exits 2" test $rc -eq 2
# other spellings of one folder: relative, with '.' and '//', through a
# link, and below a folder that does not exist yet
# and through links that point at a folder not made yet (one relative to
# a subfolder)
mkdir -p "$work/spell/real" "$work/spell/sub"
ln -s real "$work/spell/link"
ln -s later "$work/spell/dangling"
ln -s ../later2 "$work/spell/sub/rel"
cd "$work/spell"
for pair in "real|./real" "real|$work/spell/real" "real|link" "real|.//real/." \
  "real/new|real/./new" "$work/spell/gone/new|gone//new" "link/new|$work/spell/real/new" \
  "new|gone/../new" "real/new|link/x/../new" "later|dangling" "dangling/x|later/x" \
  "later2|sub/rel"; do
  a=${pair%%|*} b=${pair#*|} # split at '|': $work may hold a blank
  sed -e "s#^output = .*#output = $a#" -e "s#^path = .*#path = $work/small.swf#" ../good.ini >a.ini
  sed -e "s#^output = .*#output = $b#" -e "s#^path = .*#path = $work/small.swf#" ../good.ini >b.ini
  run -q a.ini b.ini
  check "one results folder, output = $a and $b: exits 2" test $rc -eq 2
  check "one results folder, output = $a and $b: says so" has_err "b.ini: its results would go to $b/small, as those of a.ini do"
  check "one results folder, output = $a and $b: nothing ran" \
    test ! -e real/small -a ! -e real/new -a ! -e gone -a ! -e new -a ! -e later -a ! -e later2
done
sed -i "s#^output = .*#output = real/new#" a.ini
sed -i "s#^output = .*#output = real/../new#" b.ini
run -q a.ini b.ini
check "two results folders, real/new and real/../new: both run" test $rc -eq 0 -a -d real/new/small -a -d new/small
cd "$work"

# an INI read through a pipe: checked, then run, from one reading
sed -e "s#^path = .*#path = $work/small.swf#" -e 's/^name = small$/name = piped/' good.ini >piped.txt
run -q <(cat piped.txt)
check "an INI through a pipe exits 0" test $rc -eq 0
[[ $rc -eq 0 ]] || sed 's/^/    /' err.txt
check "an INI through a pipe: its results" test -f "$work/out/piped/summary.csv"
# not an INI file: a NUL byte (a binary file), or megabytes (a trace)
printf '[workload]\npath = a\0b.swf\n' >nul.ini
run nul.ini
check "a NUL byte in an INI exits 2" test $rc -eq 2
check "a NUL byte in an INI: its line" has_err "nul.ini:2: a NUL byte: expected a text file"
yes '; a comment line' | head -c 5000000 >huge.ini
run huge.ini
check "an INI of 5 MB exits 2" test $rc -eq 2
check "an INI of 5 MB: says so" has_err "huge.ini: more than 4194304 bytes: expected an INI file (not a trace, say)"
rm -f huge.ini

# a trace without MaxProcs or MaxNodes, and no [cluster] processors
cat >noheader.swf <<'EOF'
1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1
EOF
cat >noheader.ini <<EOF
[experiment]
output = $work/out
[workload]
path = noheader.swf
[policy a]
EOF
run -q noheader.ini
check "no machine size exits 2" test $rc -eq 2
check "no machine size: says to set processors" has_err "processors"
# hsim gen gives such a trace the machine of [cluster] processors
printf '[cluster]\nprocessors = 12\n' >>noheader.ini
run gen noheader.ini noheader-out.swf
check "gen, no MaxProcs header: exits 0" test $rc -eq 0
check "gen, no MaxProcs header: the INI's processors become it" grep -q '^; MaxProcs: 12$' noheader-out.swf
# and a trace's own header gives way to [cluster] processors, with its
# MaxNodes, which named the trace's machine (a replay of the file would
# otherwise run on 100 processors)
printf '; MaxProcs: 100\n; MaxNodes: 100\n' | cat - noheader.swf >header100.swf
sed 's/noheader.swf/header100.swf/' noheader.ini >header100.ini
run gen header100.ini header100-out.swf
check "gen, [cluster] processors over MaxProcs: exits 0" test $rc -eq 0
check "gen, [cluster] processors over MaxProcs: the INI's processors" \
  grep -q '^; MaxProcs: 12$' header100-out.swf
check "gen, [cluster] processors over MaxProcs: no MaxNodes" \
  bash -c "! grep -q \"^; MaxNodes\" header100-out.swf"
run gen noheader.ini
check "gen without OUT exits 2" test $rc -eq 2
check "gen without OUT: its usage" has_err "usage: hsim gen FILE.ini OUT.swf[.gz] [OUT.csv]"
run gen noheader.ini a.swf b.csv c.csv
check "gen with a fourth file exits 2" test $rc -eq 2
# gen never writes over its inputs (it replaced them, exit 0), and takes no
# options (-q became the CSV's name)
cp noheader.ini noheader-keep.ini
cp noheader.swf noheader-keep.swf
ln -sf noheader.swf noheader-link.swf
for outs in "noheader.ini" "a.swf noheader.ini" "./noheader.swf" "noheader-link.swf"; do
  cp noheader-keep.ini noheader.ini # each case on a whole INI, whatever the last did
  cp noheader-keep.swf noheader.swf
  run gen noheader.ini $outs
  check "gen onto its input ($outs) exits 2" test $rc -eq 2
done
check "gen onto its input: says which" has_err "noheader-link.swf is the trace of noheader.ini"
check "gen onto its input: the INI is whole" cmp -s noheader.ini noheader-keep.ini
check "gen onto its input: the trace is whole" cmp -s noheader.swf noheader-keep.swf
# a topology file is an input too
cp "$repo/traces/topologies/gpu4-node.xml" topo.xml
cp topo.xml topo-keep.xml
printf '[workload]\nformat = dl\njobs = 20\n[nodes g]\ncount = 4\ntopology = xml:topo.xml\n[policy f]\n' >topo.ini
run gen topo.ini topo.xml
check "gen onto a topology exits 2" test $rc -eq 2
check "gen onto a topology: says which" has_err "topo.xml is the topology of [nodes g] in topo.ini"
check "gen onto a topology: the file is whole" cmp -s topo.xml topo-keep.xml
# a closed standard output is no place for the trace (it went nowhere, exit 0)
cp topo-keep.xml topo.xml
"$hsim" gen topo.ini /dev/stdout >&- 2>err.txt
check "gen to a closed stdout fails" test $? -ne 0
check "gen to a closed stdout: says so" has_err "/dev/stdout: cannot open for writing"
cp noheader-keep.ini noheader.ini
run gen noheader.ini a.swf -q
check "gen with an option exits 2" test $rc -eq 2
check "gen with an option: names it" has_err "unknown option '-q': gen takes none"
check "gen with an option: no file named after it" test ! -e ./-q

# fractional times stay exact from the trace to jobs.csv
cat >frac.swf <<'EOF'
; MaxProcs: 4
1 0.25 -1 1.5 4 -1 -1 4 2 -1 1 1 1 1 1 1 -1 -1
2 0.5 -1 10 4 -1 -1 4 20.125 -1 1 1 1 1 1 1 -1 -1
EOF
cat >frac.ini <<EOF
[experiment]
output = $work/out
[workload]
path = frac.swf
[policy a]
backfill = easy
EOF
run -q frac.ini
check "fractional trace exits 0" test $rc -eq 0
# job 1 runs [0.25, 1.75]; job 2 waits for it: [1.75, 11.75], estimate 20.125
check "fractional times in jobs.csv" \
  awk -F, '$1 == 1 && $2 == "0.25" && $3 == "0.25" && $4 == "1.75" { a = 1 }
           $1 == 2 && $2 == "0.5" && $3 == "1.75" && $4 == "11.75" && $8 == "20.125" { b = 1 }
           END { exit !(a && b) }' "$work/out/frac/a/jobs.csv"

# a binary trace: its bytes are quoted in the message, control characters
# (an escape sequence) as '?'
printf '1 \033[31mred 2\n' >escape.swf
printf '[workload]\npath = escape.swf\n[cluster]\nprocessors = 4\n[policy p]\n' >escape.ini
run -q escape.ini
check "escape sequence in a trace exits 2" test $rc -eq 2
check "escape sequence: shown as '?'" has_err "field 2 (submit time): expected a decimal number (digits, a sign, a point; no exponent), found '?[31mred'"
check "escape sequence: no control character in the message" \
  test "$(tr -d '\n' <err.txt | tr -d '[:print:]' | wc -c)" -eq 0
# bytes that are not UTF-8 as '?' (a stray continuation byte, a lead byte
# no character starts with, a sequence cut short); UTF-8 kept
printf '1 \x80\xff\xe2\x82x\xc3\xa9\xe2\x82\xac 2\n' >binary.swf
sed 's/escape.swf/binary.swf/' escape.ini >binary.ini
run -q binary.ini
check "bytes not UTF-8 in a trace exit 2" test $rc -eq 2
check "bytes not UTF-8: shown as '?', UTF-8 kept" \
  has_err $'field 2 (submit time): expected a decimal number (digits, a sign, a point; no exponent), found \'????x\xc3\xa9\xe2\x82\xac\''

# a trace with no job: nothing to measure, an error (it wrote every file,
# the figures empty, and exited 0)
printf '; MaxProcs: 4\n' >empty.swf
cat >empty.ini <<EOF
[experiment]
output = $work/out
[workload]
path = empty.swf
[policy a]
backfill = conservative
EOF
run empty.ini
check "empty trace exits 2" test $rc -eq 2
check "empty trace: says so" has_err "empty.ini: no job to run: the workload is empty"
check "empty trace: writes no results" test ! -e "$work/out/empty"

# results that cannot be written: a run failure, exit 1
cat >unwritable.ini <<'EOF'
[experiment]
output = /dev/null/cannot
[workload]
path = small.swf
[policy a]
EOF
run -q unwritable.ini
check "unwritable output exits 1" test $rc -eq 1
check "unwritable output: the folder is named" has_err "/dev/null"
check "unwritable output: the experiment is named" has_err "hsim: unwritable.ini: /dev/null"

# a node so slow that a job would end past hsim's horizon: a run failure
# naming the job, never a wrapped clock (it once ran every job in 1 us)
cat >slow.ini <<'EOF'
[experiment]
output = out
[workload]
path = small.swf
[nodes n]
cores = 64
speed = 1e-12
[policy a]
EOF
run -q slow.ini
check "a node too slow exits 1" test $rc -eq 1
check "a node too slow: the horizon is named" has_err "horizon"

# the reference's example INI (docs/config.md, "A whole experiment") runs
# as written, its trace path and output moved here and its job count cut
# for time (tests/docs.test.sh runs every example as it stands)
awk '/^## A whole experiment/ { in_section = 1 }
     in_section && /^```$/ && block { exit }
     block { print }
     in_section && /^```ini$/ { block = 1 }' "$repo/docs/config.md" |
  sed -e "s#^path = [^;]*#path = $shared/traces/swf/KTH-SP2-1996-2.1-cln.swf.gz #" \
      -e "s#^output = [^;]*#output = $work/readme #" -e "s#^max_jobs = [0-9]* #max_jobs = 2000 #" >readme.ini
check "docs/config.md's example INI: found" grep -q '^\[policy easy\]' readme.ini
run readme.ini
check "docs/config.md's example INI: exits 0" test $rc -eq 0
[[ $rc -eq 0 ]] || sed 's/^/    /' err.txt
check "docs/config.md's example INI: its results" test "$(cut -d, -f1,2 "$work/readme/kth-easy/summary.csv" | tail -1)" = "easy,2000"

# ---- runs that would mean little: a warning; nothing to run: an error ----
# NASA-iPSC has no requested times: pyss's cleaning makes every job 1 s
printf '[experiment]\nname = nasa\noutput = %s/out\n[workload]\npath = %s/traces/swf/NASA-iPSC-1993-3.1-cln.swf.gz\nclean = pyss\n[policy easy]\nbackfill = easy\n' "$work" "$shared" >nasa.ini
run -q nasa.ini
check "pyss on NASA: exits 0" test $rc -eq 0
check "pyss on NASA: warns that cleaning rewrote nearly every job" \
  has_err "hsim: warning: nasa.ini: cleaning (clean = pyss) rewrote 18207 of 18239 jobs (99.8%); the most common reason (18034 jobs): no requested time (field 9)"
sed 's/^clean = pyss$/clean = standard/' nasa.ini >nasa-std.ini
run -q nasa-std.ini
check "standard on NASA: no warning" bash -c "! grep -q warning err.txt"
# every job rejected by cleaning: an error naming the main reason
# (reasons that differ only in their numbers count as one)
printf '; MaxProcs: 4\n1 0 -1 -1 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n2 5 -1 -1 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n3 9 -1 10 9 -1 -1 9 100 -1 1 1 1 1 1 1 -1 -1\n4 9 -1 10 8 -1 -1 8 100 -1 1 1 1 1 1 1 -1 -1\n5 9 -1 10 16 -1 -1 16 100 -1 1 1 1 1 1 1 -1 -1\n' >all-bad.swf
printf '[workload]\npath = all-bad.swf\nclean = standard\n[policy p]\n' >all-bad.ini
run all-bad.ini
check "every job rejected: exit 2" test $rc -eq 2
check "every job rejected: the main reason and its count" \
  has_err "all-bad.ini: no job left to run: all 5 rejected; the most common reason (3 jobs): asks for 9 processors, the machine has 4"

# hsim help policies prints each plug-in's parameters with default and range
run help policies
check "help policies: a parameter with its default" has_out "priority.age_weight = 1  [0..1e+09]"
check "help policies: a choice" has_out "ga.objective = bsld  [bsld|wait|makespan]"

# a time-dependent order under conservative backfilling: the plan is made
# again at every pass (policies/backfill_conservative_rebuild.c)
printf '[workload]\npath = %s/traces/swf/KTH-SP2-1996-2.1-cln.swf.gz\nmax_jobs = 3000\n[cluster]\nprocessors = 100\n[policy p]\nqueue = wfp3\nbackfill = conservative\n' "$shared" >wfp3-cons.ini
run wfp3-cons.ini
check "wfp3 under conservative: runs" test $rc -eq 0

test_finish
