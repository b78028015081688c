#!/usr/bin/env bash
# replay.sh BIN_DIR SHARED WORK: prepares the folder WORK for the fuzz
# targets in BIN_DIR, then runs every input under tests/fuzz/regress/TARGET/
# once through fuzz_TARGET (no fuzzing).  These inputs once crashed a target
# or failed one of its checks; they must all pass now.  Exit status 1 when
# one fails, after trying them all.  Writes only under WORK.
#
# WORK mirrors a checkout beside ../shared, so that INI files read by
# fuzz_ini (which runs in WORK/main/experiments) find ../traces and
# ../../shared as the ones in experiments/ do, and "t.swf" (the first 40
# lines of traces/quickstart.swf) as the regression inputs do.
set -euo pipefail
shopt -s nullglob # a target without regression inputs yet
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
bin=$(cd "$1" && pwd)
shared=$2
work=$3

mkdir -p "$work/main/experiments" "$work/tmp"
work=$(cd "$work" && pwd)
ln -sfn "$shared" "$work/shared"
ln -sfn "$source_dir/traces" "$work/main/traces"
head -n 40 "$source_dir/traces/quickstart.swf" > "$work/main/experiments/t.swf"

# Temporary files of the targets, and the leak of hwloc's that is not hsim's.
export TMPDIR=$work/tmp
export LSAN_OPTIONS="suppressions='$here/lsan.supp'" # quoted: options split at blanks
export UBSAN_OPTIONS=print_stacktrace=1

failed=0
for target in swf ini gpu topology nodes csv deps failures model; do
  for input in "$here/regress/$target"/*; do
    if (cd "$work/main/experiments" &&
        "$bin/fuzz_$target" -artifact_prefix="$work/tmp/" "$input") > "$work/replay.log" 2>&1; then
      echo "pass  fuzz_$target ${input#"$source_dir"/}"
    else
      echo "FAIL  fuzz_$target ${input#"$source_dir"/}"
      tail -n 30 "$work/replay.log"
      failed=1
    fi
  done
done
exit "$failed"
