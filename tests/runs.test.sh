#!/usr/bin/env bash
# runs.test.sh HSIM SHARED WORKDIR [PART]
# Runs people wait for (issue 42): -j over several experiments gives the
# files and the table of -j 1; [experiment] repeat = R writes each seed's
# results and their means with 95% confidence intervals (checked by hand,
# with awk, from the seeds' rows), and R = 1 changes nothing; --shard i/n
# then hsim merge writes what one run writes, byte for byte; the progress
# line shows on a terminal only.  PART (jobs, repeat, shard, progress)
# runs one part; none runs them all.  Every check prints one line; the
# script exits 1 if any failed.
set -uo pipefail

[[ $# -ge 3 ]] || { echo "usage: runs.test.sh HSIM SHARED WORKDIR [PART]" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/testlib.sh"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) # before test_setup's cd
part=${4:-all}
test_setup "runs${4:+.$4}" "$1" "$3"

# Three experiments: a trace (five policies), a generator run under three
# seeds, a cluster of nodes whose failures draw from the seed.
cat >trace.ini <<EOF
[experiment]
name = trace
[workload]
path = $repo/traces/quickstart.swf
[cluster]
processors = 64
[policy fcfs]
[policy sjf]
queue = sjf
[policy easy]
backfill = easy
[policy cons]
backfill = conservative
[policy oracle]
backfill = easy
estimate = oracle
EOF
cat >seeds.ini <<EOF
[experiment]
name = seeds
seed = 5
repeat = 3
[workload]
format = lublin
jobs = 400
users = 8
[cluster]
processors = 64
[policy fcfs]
[policy easy]
backfill = easy
EOF
cat >nodes.ini <<EOF
[experiment]
name = nodes
seed = 3
[workload]
format = dl
jobs = 150
[nodes v100]
count = 4
cores = 16
gpus = 4
gpu_model = v100
[failures flaky]
mtbf = 400000
mttr = 600
[policy first-fit]
[policy easy]
backfill = easy
failures = flaky
on_failure = checkpoint
EOF
all="trace.ini seeds.ini nodes.ini"

# run_in DIR ARGS...: hsim in DIR (results go to DIR/results), its table
# in DIR.out
run_in() {
  local d=$1
  shift
  mkdir -p "$d"
  (cd "$d" && "$hsim" "$@" >"../$d.out" 2>"../$d.err")
  rc=$?
}

if [[ $part == all || $part == jobs ]]; then
  run_in j1 -j 1 ../trace.ini ../seeds.ini ../nodes.ini
  check "-j 1 over three experiments exits 0" test $rc -eq 0
  run_in j2 -j 2 ../trace.ini ../seeds.ini ../nodes.ini
  check "-j 2 over three experiments exits 0" test $rc -eq 0
  run_in j5 --threads=5 ../trace.ini ../seeds.ini ../nodes.ini
  check "-j 5 exits 0" test $rc -eq 0
  check "-j 2: the results folders are those of -j 1" diff -r j1 j2
  check "-j 5: the results folders are those of -j 1" diff -r j1 j5
  check "-j 2: the table is that of -j 1, in the same order" cmp j1.out j2.out
  check "-j 5: the table is that of -j 1" cmp j1.out j5.out
  check "the tables name the three experiments in order" \
    test "$(grep -oE '^(trace|seeds|nodes):' j1.out | tr -d '\n')" = "trace:seeds:nodes:"
  # bad input met when the second experiment loads stops the run there,
  # whatever -j: the third is not touched
  printf '; a bad line\n1 0 10 abc\n' >bad.swf
  printf '[experiment]\nname = bad\n[workload]\npath = bad.swf\n[cluster]\nprocessors = 4\n[policy a]\n' \
    >bad.ini
  run_in b1 -j 1 ../trace.ini ../bad.ini ../seeds.ini
  check "a bad trace second of three, -j 1: exit 2" test $rc -eq 2
  run_in b2 -j 2 ../trace.ini ../bad.ini ../seeds.ini
  check "a bad trace second of three, -j 2: exit 2" test $rc -eq 2
  check "a bad trace, -j 2: the files of -j 1, the third experiment untouched" \
    test -d b2/results/trace -a ! -e b2/results/seeds -a ! -e b1/results/seeds
  check "a bad trace, -j 2: the same folders as -j 1" diff -r b1 b2
  check "a bad trace, -j 2: the same table as -j 1" cmp b1.out b2.out
  check "a bad trace: the message names the trace's line" grep -q 'bad.swf:2' b2.err
  # each experiment alone, one after the other: the same files
  for f in $all; do run_in alone -j 2 "../$f"; done
  check "three runs of one experiment each write the same files" diff -r j1 alone
fi

if [[ $part == all || $part == repeat ]]; then
  run_in r -j 2 ../seeds.ini
  check "repeat = 3 exits 0" test $rc -eq 0
  check "repeat = 3: a folder per seed, seed-5 to seed-7" \
    test -d r/results/seeds/seed-5 -a -d r/results/seeds/seed-6 -a -d r/results/seeds/seed-7
  check "repeat = 3: no seed-8" test ! -e r/results/seeds/seed-8
  # a seed's folder is what a run of that seed alone writes
  sed -e 's/^seed = 5/seed = 6/' -e '/^repeat/d' seeds.ini >one.ini
  run_in s6 ../one.ini
  check "seed-6 holds what a run with seed = 6 writes (its INI aside)" \
    diff -r -x experiment.ini -x report.html r/results/seeds/seed-6 s6/results/seeds
  check "the means' folder has its bars (with error bars) and report" \
    test -s r/results/seeds/bars.png -a -s r/results/seeds/report.html
  sum=r/results/seeds/summary.csv
  check "the means' summary keeps the columns, then repeats and the _ci95 columns" \
    test "$(head -1 "$sum" | cut -d, -f1-22)" = \
    "$(head -1 r/results/seeds/seed-5/summary.csv),repeats"
  check "the means' summary has avg_wait_ci95" grep -q ',avg_wait_ci95,' "$sum"
  # the mean and the 95% interval of avg_wait (column 3) and utilization
  # (column 7), by hand: t(0.975, 2) = 4.302652729911275
  for col in 3 7; do
    for pol in fcfs easy; do
      want=$(for s in 5 6 7; do grep "^$pol," "r/results/seeds/seed-$s/summary.csv"; done |
        awk -F, -v c=$col '{v[NR] = $c; m += $c} END {m /= NR; for (i = 1; i <= NR; i++)
          ss += (v[i] - m)^2; printf "%.6f %.6f\n", m, 4.302652729911275 * sqrt(ss / (NR - 1)) / sqrt(NR)}')
      ncol=$(head -1 "$sum" | tr , '\n' | grep -c .)
      base=$(head -1 r/results/seeds/seed-5/summary.csv | tr , '\n' | grep -c .)
      got=$(grep "^$pol," "$sum" | awk -F, -v c=$col -v b=$base '{print $c, $(b + c)}')
      check "repeat: the mean and the 95% CI of column $col for $pol ($got; by hand $want)" \
        awk -v a="$got" -v b="$want" 'BEGIN {split(a, x, " "); split(b, y, " ");
          d1 = x[1] - y[1]; d2 = x[2] - y[2]; exit !(d1 < 0.0011 && d1 > -0.0011 &&
          d2 < 0.0011 && d2 > -0.0011)}'
    done
  done
  check "repeat: the repeats column says 3" \
    test "$(awk -F, -v b="$base" 'NR > 1 {print $(b + 1)}' "$sum" | sort -u)" = 3
  check "repeat: the table shows the means and their intervals" grep -q '(95% CI)' r.out
  check "repeat: the table says which seeds" grep -q 'means of 3 seeds, 5 to 7' r.out
  # repeat = 1 changes nothing
  sed -e 's/^repeat = 3/repeat = 1/' seeds.ini >r1.ini
  sed -e '/^repeat = 3/d' seeds.ini >r0.ini
  run_in r1 ../r1.ini
  run_in r0 ../r0.ini
  check "repeat = 1 and no repeat: summary.csv" test -s r1/results/seeds/summary.csv
  check "repeat = 1 writes what no repeat writes (its INI aside)" \
    diff -r -x experiment.ini -x report.html r0 r1
  check "repeat = 1: no seed folder" test ! -e r1/results/seeds/seed-5
  # mistakes
  printf '[experiment]\nrepeat = 3\n[workload]\npath = %s\n[cluster]\nprocessors = 64\n[policy a]\n' \
    "$repo/traces/quickstart.swf" >fixed.ini
  run fixed.ini
  check "repeat with nothing drawn from the seed: exit 2" test $rc -eq 2
  check "repeat with nothing drawn from the seed: named at its line" \
    has_err "fixed.ini:2: repeat = 3 would run one schedule 3 times"
  sed -e 's/^repeat = 3/repeat = 0/' seeds.ini >zero.ini
  run zero.ini
  check "repeat = 0: exit 2 at its line" has_err "zero.ini:4: repeat: expected a number of seeds"
  sed -e 's/^\[policy easy\]/[policy seed-2]/' seeds.ini >clash.ini
  run clash.ini
  check "a policy named seed-2 with repeat: exit 2" test $rc -eq 2
  check "a policy named seed-2 with repeat: named" has_err "policy name 'seed-2'"
fi

if [[ $part == all || $part == shard ]]; then
  run_in whole -j 2 ../trace.ini ../seeds.ini ../nodes.ini
  check "the whole run exits 0" test $rc -eq 0
  for n in 2 3; do
    for i in $(seq 1 $n); do
      run_in "sh$n" --shard "$i/$n" ../trace.ini ../seeds.ini ../nodes.ini
      check "--shard $i/$n exits 0" test $rc -eq 0
    done
    check "--shard i/$n: each shard in its folder" test -d "sh$n/results/shard-$n-of-$n/trace"
    run merge "m$n" $(for i in $(seq 1 $n); do echo "sh$n/results/shard-$i-of-$n"; done)
    check "merge of $n shards exits 0" test $rc -eq 0
    check "merge of $n shards: what the whole run wrote, byte for byte" diff -r whole/results "m$n"
  done
  # triples split between shards: shard 1 of 3 ran trace's triples 0 and 3
  check "shard 1/3 ran every third triple"     test "$(ls -d sh3/results/shard-1-of-3/trace/*/ | xargs -n1 basename | tr '\n' ' ')" = "cons fcfs "
  run merge bad sh3/results/shard-1-of-3 sh3/results/shard-2-of-3
  check "merge without a shard: exit 2" test $rc -eq 2
  check "merge without a shard: says what is missing" has_err "no shard holds policy"
  run merge bad sh3/results/shard-1-of-3 sh3/results/shard-1-of-3 sh3/results/shard-2-of-3
  check "merge with a shard twice: exit 2" test $rc -eq 2
  check "merge with a shard twice: says so" has_err "is given twice"
  printf 'hsim-shard 1\nshard 1 2\nexperiment x\nseed 1\nrepeat 1\npolicy a\nrun 0 0 99 0 0 0 0 0 0 0\nshort\n' >cut.txt
  mkdir -p cut/x && mv cut.txt cut/x/shard.txt
  run merge bad cut
  check "merge of a cut-off manifest: exit 2 at its line" has_err "cut/x/shard.txt:7: a text shorter"
  run merge bad
  check "merge without shards: usage, exit 2" test $rc -eq 2
  run --shard 3/2 trace.ini
  check "--shard 3/2: exit 2" test $rc -eq 2
  check "--shard 3/2: says what is expected" has_err "--shard: expected I/N"
fi

if [[ $part == all || $part == progress ]]; then
  run_in p ../trace.ini ../seeds.ini
  check "under a pipe: exits 0" test $rc -eq 0
  # (LeakSanitizer may report its suppressions there: look for the line)
  no_line() { ! grep -qE $'/s|\e\\[K' "$1"; }
  check "under a pipe: no progress line on standard error" no_line p.err
  mkdir -p tty
  (cd tty && script -qec "$hsim -j 2 ../trace.ini ../seeds.ini" /dev/null >../tty.out 2>&1)
  check "on a terminal: exits 0" test $? -eq 0
  check "on a terminal: a progress line with jobs, rate and time left" \
    grep -qE 'trace/[a-z]+ [0-9.]+[kM]?/[0-9.]+[kM]? jobs [0-9.]+[kM]?/s' tty.out
  check "on a terminal: the line is erased before the table" grep -q $'\r\e\[K' tty.out
  check "on a terminal: the results are those of a pipe" diff -r p tty
  (cd tty && script -qec "$hsim -q ../trace.ini" /dev/null >../quiet.out 2>&1)
  check "-q on a terminal: no progress line" no_line quiet.out
fi

test_finish
