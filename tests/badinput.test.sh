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

test_finish
