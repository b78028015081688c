#!/usr/bin/env bash
# golden.test.sh HSIM SHARED WORKDIR
# Replays the golden experiments (tests/golden/*.ini) and
# experiments/easy-plus-plus.ini, and compares every policy's start times
# with the schedules pyss computed (SHARED/golden/<trace>.<policy>.csv.gz).
# The INI files read the traces in the shared folder beside the project,
# by paths relative to themselves; CI may put that folder elsewhere, so
# copies are written into WORKDIR with the path pointing into SHARED.
# Prints one line per comparison; exits 1 on any difference.
set -uo pipefail
[[ $# -eq 3 ]] || { echo "usage: golden.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }

hsim=$1 shared=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
abs() { (cd "$1" && pwd); }
[[ -x $hsim ]] || { echo "golden: $hsim is not an executable" >&2; exit 2; }
[[ -d $shared ]] || { echo "golden: shared folder $shared is missing" >&2; exit 2; }
shared=$(abs "$shared")
case $hsim in /*) ;; *) hsim=$(cd "$(dirname "$hsim")" && pwd)/$(basename "$hsim") ;; esac
rm -rf "$work"
mkdir -p "$work"
work=$(abs "$work")

# experiment INI (under tests/ or the project root), golden trace name,
# policies: the golden experiments, and an experiment users run whose
# comment says it gives pyss's schedules
runs=(
  "golden/kth-sp2.ini KTH-SP2 fcfs easy conservative easy-perfect easy-sjbf easy-plus-plus"
  "golden/hpc2n-excerpt.ini HPC2N-excerpt fcfs easy conservative"
  "../experiments/easy-plus-plus.ini KTH-SP2 easy easy-sjbf easy-plus-plus easy-perfect"
)

status=0
for run in "${runs[@]}"; do
  read -r src trace policies <<<"$run"
  src=$here/$src
  ini=$(basename "$src" .ini)
  dst=$work/$ini.ini
  # point the trace path into SHARED; keep everything else as it is
  sed -E "s#^([[:space:]]*path[[:space:]]*=[[:space:]]*).*/traces/(.*)\$#\\1$shared/traces/\\2#" \
    "$src" >"$dst"
  if ! grep -q "^path = $shared/traces/" "$dst"; then
    echo "FAIL $ini: could not redirect the trace path in $src"
    status=1
    continue
  fi
  name=$(sed -nE 's/^[[:space:]]*name[[:space:]]*=[[:space:]]*([^ ;]+).*/\1/p' "$dst" | head -1)
  name=${name:-$ini}
  if ! (cd "$work" && "$hsim" -q "$dst") >"$work/$ini.out" 2>"$work/$ini.err"; then
    echo "FAIL $ini: hsim exited with an error:"
    sed 's/^/    /' "$work/$ini.err"
    status=1
    continue
  fi
  if [[ -s $work/$ini.out ]]; then
    echo "FAIL $ini: hsim -q printed on stdout"
    status=1
  fi
  for policy in $policies; do
    golden=$shared/golden/$trace.$policy.csv.gz
    jobs=$work/results/$name/$policy/jobs.csv
    if [[ ! -f $golden ]]; then
      echo "FAIL $trace $policy: no golden file $golden"
      status=1
    elif [[ ! -f $jobs ]]; then
      echo "FAIL $trace $policy: hsim wrote no $jobs"
      status=1
    elif out=$(bash "$here/compare-golden.sh" "$golden" "$jobs" 2>&1); then
      echo "ok   $trace $policy: $(tail -1 <<<"$out")"
    else
      echo "FAIL $trace $policy:"
      sed 's/^/    /' <<<"$out"
      status=1
    fi
  done
done

# EASY++ plans on predictions that jobs outlive: summary.csv counts the
# expiries, and no other policy of the experiment has any
summary=$work/results/easy-plus-plus/summary.csv
expiries=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "expiries") k = i; next }
                   k { printf "%s=%s ", $1, $k }' "$summary" 2>/dev/null)
if [[ $expiries =~ ^easy=0\ easy-sjbf=0\ easy-plus-plus=[1-9][0-9]*\ easy-perfect=0\ $ ]]; then
  echo "ok   easy-plus-plus expiries: $expiries"
else
  echo "FAIL easy-plus-plus expiries: '$expiries' in $summary"
  status=1
fi
exit $status
