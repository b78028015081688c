#!/usr/bin/env bash
# lock.test.sh HSIM SHARED WORKDIR
# One writer per results folder (issue 44): two hsim processes that write
# one <output>/<name> at once (one INI run twice, or two INIs that name the
# same folder) used the same <file>.part names and no lock, and lost or
# mixed their results.  Now the second finds the folder's lock taken: it
# exits 1 with a message naming the folder and the process that holds it,
# and the first one's files are whole.  Every check prints one line; the
# script exits 1 if any failed.
set -uo pipefail

[[ $# -eq 3 ]] || { echo "usage: lock.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/testlib.sh"
test_setup lock "$1" "$3"

# about 0.2 s of work, so that two runs started together overlap
experiment() { # experiment NAME
  printf '[experiment]\nname = %s\noutput = out\n[workload]\nformat = lublin\njobs = 20000\n' "$1"
  printf '[cluster]\nprocessors = 128\n[policy easy]\nbackfill = easy\n[policy fcfs]\n'
}
experiment race >race.ini
cp race.ini copy.ini # another INI file, the same folder
run -q race.ini
check "a first run exits 0" test $rc -eq 0
cp -r out/race reference
check "no lock file is left behind" test ! -e out/race/.hsim.lock

# ---- the lock held by another process (flock(1)), deterministic ----
# The holder writes its process id into the lock file, as hsim does.
rm -f held
flock out/race/.hsim.lock -c 'echo $$ >out/race/.hsim.lock; touch held; exec sleep 60' &
flocker=$!
for _ in $(seq 500); do [[ -e held ]] && break; sleep 0.01; done
holder=$(cat out/race/.hsim.lock)
run -q race.ini
check "a held lock: exits 1" test $rc -eq 1
check "a held lock: names the folder and the holder" \
  has_err "race.ini: out/race: results folder in use: process $holder holds its lock (.hsim.lock)"
check "a held lock: the results of the first run are whole" diff -r -x .hsim.lock reference out/race
# a lock file without a process id (another tool's) still stops hsim
kill "$holder" 2>/dev/null
wait $flocker 2>/dev/null
: >out/race/.hsim.lock
flock out/race/.hsim.lock -c 'echo $$ >holder2; touch held2; exec sleep 60' &
flocker=$!
for _ in $(seq 500); do [[ -e held2 ]] && break; sleep 0.01; done
run -q copy.ini
check "a held lock, no pid in it: exits 1" test $rc -eq 1
check "a held lock, no pid in it: another process" \
  has_err "out/race: results folder in use: another process holds its lock"
kill "$(cat holder2)" 2>/dev/null
wait $flocker 2>/dev/null
# the lock let go: a run goes ahead, and removes .part files that a run
# which crashed left (their process ids are not its own)
printf 'cut' >out/race/summary.csv.999999.part
printf 'cut' >out/race/easy/jobs.csv.999999.part
run -q race.ini
check "the lock let go: exits 0" test $rc -eq 0
check "the lock let go: whole results, no .part files left" diff -r reference out/race

# ---- two runs at once, many times ----
rounds=40 conflicts=0 bad=0
for round in $(seq $rounds); do
  rm -rf out/race
  second=race.ini
  ((round % 2)) && second=copy.ini
  "$hsim" -q race.ini >a.out 2>a.err &
  a=$!
  "$hsim" -q "$second" >b.out 2>b.err &
  b=$!
  wait $a
  rca=$?
  wait $b
  rcb=$?
  if [[ $rca -eq 0 && $rcb -eq 0 ]]; then
    : # one after the other: both whole
  elif [[ $rca -eq 0 && $rcb -eq 1 ]] && grep -q "out/race: results folder in use: process" b.err; then
    conflicts=$((conflicts + 1))
  elif [[ $rca -eq 1 && $rcb -eq 0 ]] && grep -q "out/race: results folder in use: process" a.err; then
    conflicts=$((conflicts + 1))
  else
    echo "    round $round: exit $rca and $rcb: $(cat a.err b.err)"
    bad=$((bad + 1))
  fi
  if ! diff -r reference out/race >/dev/null; then
    echo "    round $round: the results differ from a run alone"
    bad=$((bad + 1))
  fi
done
echo "    $rounds rounds, $conflicts in which the runs overlapped"
check "two runs at once, $rounds rounds: one whole, the other refused" test $bad -eq 0
check "two runs at once: they overlapped at least once" test $conflicts -ge 1

test_finish
