#!/usr/bin/env bash
# run.sh [SECONDS_PER_TARGET]: fuzzes hsim's input readers with libFuzzer.
# HSIM_FUZZ_TARGETS (default "swf ini gpu topology nodes csv deps failures
# model") picks the targets to fuzz; every regression input is replayed
# whatever it says.
#
# Builds fuzz_swf, fuzz_ini, fuzz_gpu, fuzz_topology, fuzz_nodes, fuzz_csv,
# fuzz_deps, fuzz_failures and fuzz_model with
# clang, libFuzzer, ASan and UBSan (and HSIM_INVARIANTS) in build-fuzz/
# (-DHSIM_FUZZ=ON), replays tests/fuzz/regress/ through
# them (these inputs once failed and must pass), then fuzzes each target
# for SECONDS_PER_TARGET seconds (default 60), one after the other, with
# -timeout=5 -rss_limit_mb=2048.  Exit status 1, with the reproducer's path
# and the log's, when a regression input fails or fuzzing finds a crash, a
# failed check, a leak, a timeout or an out-of-memory; 0 otherwise.
# To run one input again: cd build-fuzz/fuzz/main/experiments &&
# LSAN_OPTIONS=suppressions=../../../../tests/fuzz/lsan.supp
# ../../../tests/fuzz/fuzz_TARGET INPUT
#
# Seeds are made in build-fuzz/fuzz/seeds from the traces of ../shared (set
# HSIM_SHARED to put it elsewhere): the first 60 lines of each SWF trace
# and of traces/quickstart.swf; the first 50 lines of each GPU trace file
# behind the two bytes that pick its reader (see fuzz_gpu.c); the first 50
# lines of each Alibaba node list behind the byte that picks the workload
# (see fuzz_nodes.c).  INI seeds are read in place: experiments/,
# tests/golden/, tests/fuzz/seeds/ini/; topology seeds too:
# traces/topologies/ and tests/fuzz/seeds/topology/; csv, deps, failures
# and model seeds are tests/fuzz/seeds/TARGET/ (written by hand, behind
# the byte that picks the options or the loader: see fuzz_TARGET.c).
# What fuzzing adds is kept in build-fuzz/fuzz/corpus/TARGET for the next
# run; crashes go to build-fuzz/fuzz/crashes/TARGET, logs to
# build-fuzz/fuzz/logs.  Nothing is written outside build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
source_dir=$(pwd)
here=$source_dir/tests/fuzz
shared=${HSIM_SHARED:-$(cd .. && pwd)/shared}
build=$source_dir/build-fuzz
bin=$build/tests/fuzz
work=$build/fuzz

CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHSIM_FUZZ=ON \
  -DHSIM_SHARED="$shared" > /dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_swf fuzz_ini fuzz_gpu fuzz_topology \
  fuzz_nodes fuzz_csv fuzz_deps fuzz_failures fuzz_model

echo "== replaying tests/fuzz/regress"
bash "$here/replay.sh" "$bin" "$shared" "$work"

# The first n lines of a file, plain or gzip.
head_of() {
  { zcat -f -- "$1" || true; } | head -n "$2"
}

# GPU seeds: byte 0 picks the reader (fuzz_gpu.c), byte 1 = 0: no options.
gpu_seed() {
  local reader=$1 file=$2
  { printf "\\$(printf %03o "$reader")\\000"; head_of "$file" 50; } \
    > "$work/seeds/gpu/$(basename "$file" .gz)"
}

rm -rf "$work/seeds"
mkdir -p "$work/seeds/swf" "$work/seeds/gpu" "$work/seeds/nodes" "$work/logs"
for trace in "$shared"/traces/swf/*.swf.gz traces/quickstart.swf; do
  head_of "$trace" 60 > "$work/seeds/swf/$(basename "$trace" .gz)"
done
# gzip streams too, whole and cut, for the file reader's inflate
head_of traces/quickstart.swf 20 | gzip -1 > "$work/seeds/swf/quickstart-20.swf.gz"
head -c 300 "$work/seeds/swf/quickstart-20.swf.gz" > "$work/seeds/swf/quickstart-cut.swf.gz"
gpu=$shared/traces/gpu
for f in "$gpu"/gavel-philly/*.trace.gz; do gpu_seed 0 "$f"; done
for f in "$gpu"/elasticflow/*.csv.gz; do gpu_seed 1 "$f"; done
for f in "$gpu"/alibaba-2023/openb_pod_list_*; do gpu_seed 2 "$f"; done
for f in "$gpu"/alibaba-2023/openb_node_list_*; do gpu_seed 3 "$f"; done
gpu_seed 4 "$gpu/gavel-philly/throughputs.csv"
# node list seeds: byte 0 picks the workload (fuzz_nodes.c)
for f in "$gpu"/alibaba-2023/openb_node_list_*; do
  for workload in 0 1 2; do
    { printf "\\$(printf %03o "$workload")"; head_of "$f" 50; } \
      > "$work/seeds/nodes/$workload-$(basename "$f" .gz)"
  done
done

# As in replay.sh: temporary files in build-fuzz, hwloc's own leak ignored.
export TMPDIR=$work/tmp
export LSAN_OPTIONS="suppressions='$here/lsan.supp'" # quoted: options split at blanks
export UBSAN_OPTIONS=print_stacktrace=1

failed=0
targets=" ${HSIM_FUZZ_TARGETS:-swf ini gpu topology nodes csv deps failures model} "
# fuzz TARGET SEED_FOLDER...: fuzzes one target from its corpus and seeds.
fuzz() {
  local target=$1
  shift
  [[ $targets == *" $target "* ]] || return 0
  local corpus=$work/corpus/$target crashes=$work/crashes/$target
  local log=$work/logs/$target.log
  mkdir -p "$corpus" "$crashes"
  echo "== fuzz_$target for ${seconds} s (log: ${log#"$source_dir"/})"
  if (cd "$work/main/experiments" &&
      "$bin/fuzz_$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
        -dict="$here/$target.dict" -artifact_prefix="$crashes/" -print_final_stats=1 \
        "$corpus" "$@") > "$log" 2>&1; then
    local runs
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz_$target: no failure in $runs runs"
  else
    local reproducer
    reproducer=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
    echo "fuzz_$target: FAILED; reproducer: ${reproducer:-none written}; log: $log"
    grep -m 3 -E 'ERROR|FUZZ CHECK FAILED|runtime error' "$log" || tail -n 20 "$log"
    failed=1
  fi
}

fuzz swf "$work/seeds/swf" "$here/regress/swf"
fuzz ini "$source_dir/experiments" "$source_dir/tests/golden" "$here/seeds/ini" "$here/regress/ini"
fuzz gpu "$work/seeds/gpu" "$here/regress/gpu"
fuzz topology "$source_dir/traces/topologies" "$here/seeds/topology" "$here/regress/topology"
fuzz nodes "$work/seeds/nodes" "$here/regress/nodes"
for target in csv deps failures model; do
  fuzz "$target" "$here/seeds/$target" "$here/regress/$target"
done
exit "$failed"
