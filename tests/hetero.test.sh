#!/usr/bin/env bash
# hetero.test.sh HSIM SHARED WORKDIR
# Heterogeneous clusters end to end, through the hsim command: the Gavel
# heterogeneity experiment as shipped (its paths rewritten to SHARED and to
# this repository's topologies), small dl and mix experiments on clusters of
# several node types, hsim gen and the replay of what it writes, an SWF trace
# on nodes with GPU jobs and classes (run twice: byte-identical; then under
# conservative backfilling), and the Alibaba GPU-sharing trace on its own
# node list.  Every check prints one line; the script exits 1 if any failed.
set -uo pipefail
[[ $# -eq 3 ]] || { echo "usage: hetero.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shared=$(cd "$2" && pwd) || { echo "hetero: no shared folder $2" >&2; exit 2; }
source "$repo/tests/testlib.sh"
SHOW_ERRORS=1
test_setup hetero "$1" "$3"

# rows FILE: data rows of a CSV file (header excluded), 0 when it is missing
rows() { if [[ -f $1 ]]; then echo $(($(wc -l <"$1") - 1)); else echo 0; fi; }
# png_width FILE: a PNG's width in pixels (its IHDR, bytes 16 to 19)
png_width() { od -An -tu1 -j16 -N4 "$1" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }'; }
# col FILE POLICY COLUMN: a summary.csv value, by policy and column name
col() {
  awk -F, -v p="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
                               $1 == p && k { print $k }' "$1"
}
# every_job_accounted DIR N POLICY...: each policy's jobs.csv and the
# experiment's rejected.csv hold N distinct job ids between them
every_job_accounted() {
  local dir=$1 n=$2 p ok=0
  shift 2
  for p in "$@"; do
    local ids
    ids=$( (tail -n +2 "$dir/$p/jobs.csv"; tail -n +2 "$dir/rejected.csv") | cut -d, -f1 | sort -u | wc -l)
    local total=$(($(rows "$dir/$p/jobs.csv") + $(rows "$dir/rejected.csv")))
    if [[ $ids -ne $n || $total -ne $n ]]; then
      echo "    $p: $total rows, $ids distinct ids, expected $n"
      ok=1
    fi
  done
  return $ok
}
header_is() { [[ -f $1 && "$(head -n 1 "$1")" == "$2" ]]; }
less_than() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0 && a != "" && b != "") }'; }

# ---- the Gavel heterogeneity experiment, as shipped ----
ini=$repo/experiments/gavel-heterogeneity.ini
sed -e "s#\.\./\.\./shared/#$shared/#g" \
    -e "s#xml:\.\./traces/topologies/#xml:$repo/traces/topologies/#g" \
    -e "s#^output = .*#output = $work/out#" "$ini" >gavel.ini
check "gavel: the copy's paths were all rewritten" test "$(grep -c '\.\./' gavel.ini)" -eq 0
check "gavel: the trace is where the copy says" \
  test -f "$(sed -n 's/^path = *//p' gavel.ini | sed 's/ *;.*//')"
run gavel.ini
check "gavel: exits 0" test $rc -eq 0
g=out/gavel-heterogeneity
policies=(fcfs-first-fit fcfs-best-fit fcfs-round-robin fcfs-hetero)
check "gavel: summary.csv has the cluster columns" \
  grep -qE '^policy,.*,load_imbalance,util_cores,util_memory,util_fpgas,util_gpus,util_gpus_k80,util_gpus_p100,util_gpus_v100,expiries$' \
  "$g/summary.csv"
check "gavel: summary.csv has 4 policies" test "$(rows "$g/summary.csv")" -eq 4
check "gavel: summary.csv names them in file order" \
  test "$(tail -n +2 "$g/summary.csv" | cut -d, -f1 | tr '\n' ' ')" == "${policies[*]} "
check "gavel: classes.csv has its header" header_is "$g/classes.csv" "policy,class,jobs,avg_jct,avg_wait"
for p in "${policies[@]}"; do
  check "gavel: $p/nodes.csv has its header" header_is "$g/$p/nodes.csv" "node,type,busy_s,jobs"
  check "gavel: $p/nodes.csv has the 27 nodes" test "$(rows "$g/$p/nodes.csv")" -eq 27
  check "gavel: $p/jobs.csv has its header" grep -q '^job_id,submit,start,end,procs,wait,run,estimate,bsld' "$g/$p/jobs.csv"
  # every job of the class table: 2000 per policy (all Gavel jobs have a class)
  check "gavel: $p: classes.csv counts 2000 jobs" \
    test "$(awk -F, -v p="$p" '$1 == p { n += $(NF - 2) } END { print n + 0 }' "$g/classes.csv")" -eq 2000
  check "gavel: $p: nodes ran >= 2000 job parts" \
    test "$(awk -F, 'NR > 1 { n += $4 } END { print n + 0 }' "$g/$p/nodes.csv")" -ge 2000
done
n_gavel=$(zcat "$shared/traces/gpu/gavel-philly/11cb48.trace.gz" | grep -c .)
check "gavel: every job is in jobs.csv or rejected.csv" every_job_accounted "$g" "$n_gavel" "${policies[@]}"
ff=$(col "$g/summary.csv" fcfs-first-fit avg_turnaround)
het=$(col "$g/summary.csv" fcfs-hetero avg_turnaround)
echo "     (avg turnaround: first-fit $ff s, heterogeneity-aware $het s)"
check "gavel: heterogeneity-aware placement beats first-fit on turnaround" less_than "$het" "$ff"
# the table: util is the cores', and gpu_util every GPU's (util_gpus)
check "gavel: the table has a gpu_util column" grep -qE '^policy .* util gpu_util fairness$' out.txt
for p in "${policies[@]}"; do
  want=$(awk -v u="$(col "$g/summary.csv" "$p" util_gpus)" 'BEGIN { printf "%.1f%%", 100 * u }')
  check "gavel: $p: the table's gpu_util is util_gpus ($want)" \
    test "$(awk -v p="$p" '$1 == p { print $8 }' out.txt)" = "$want"
done
# the chart: a panel more for the GPUs (260 points each, 60 on the right)
check "gavel: the chart has five panels, the GPUs' among them" test "$(png_width "$g/summary.png")" -eq 1360
check "gavel: util_gpus_v100 is a fraction" \
  awk -v u="$(col "$g/summary.csv" fcfs-hetero util_gpus_v100)" 'BEGIN { exit !(u > 0 && u <= 1) }'
# its 4 policies on 3 threads (three at once, then one): the same files
cp -r "$g" gavel-1
run -q -j 3 gavel.ini
check "gavel: -j 3 writes the same files" diff -r gavel-1 "$g"

# ---- a small dl experiment ----
cat >dl.ini <<EOF
[experiment]
name = dl
output = $work/out
seed = 3

[workload]
format = dl
jobs = 200
load = 0.7
users = 4

[nodes k80]
count = 2
cores = 16
memory = 128G
gpus = 4
gpu_model = k80

[nodes v100]
count = 2
topology = xml:$repo/traces/topologies/gpu4-node.xml
gpu_model = v100

[class ResNet-50]
speed.v100 = 3
speed.k80 = 1

[class Transformer]
speed.v100 = 2.5

[policy ff]
backfill = easy
placement = first-fit

[policy het]
backfill = easy
placement = heterogeneity-aware
EOF
run dl.ini
check "dl: exits 0" test $rc -eq 0
check "dl: summary.csv has 2 policies" test "$(rows out/dl/summary.csv)" -eq 2
check "dl: summary.csv has util_gpus_k80 and util_gpus_v100" \
  grep -q 'util_gpus_k80,util_gpus_v100' out/dl/summary.csv
check "dl: every job is in jobs.csv or rejected.csv" every_job_accounted out/dl 200 ff het
check "dl: classes.csv has ResNet-50 rows" grep -q '^ff,ResNet-50,' out/dl/classes.csv
check "dl: nodes.csv has 4 nodes" test "$(rows out/dl/het/nodes.csv)" -eq 4
# the v100 nodes as the topology made them (2 x 20 cores, 384 GiB, 4 GPUs of
# 32 GiB), with the model named in the file
check "dl: cluster.csv has the node types as resolved" test "$(cat out/dl/cluster.csv)" == \
"type,count,cores,memory_mb,gpus,gpu_model,gpu_memory_mb,fpgas,fpga_model,speed,partition
k80,2,16,131072,4,k80,0,0,,1,
v100,2,40,393216,4,v100,32768,0,,1,"

# ---- a mix experiment on a 3-type cluster ----
# The cluster and policies, shared with the replay of the generated trace.
mix_cluster="
[nodes cpu]
count = 8
topology = xml:$repo/traces/topologies/cpu-node.xml

[nodes gpu]
count = 2
topology = xml:$repo/traces/topologies/gpu8-node.xml

[nodes fpga]
count = 2
topology = xml:$repo/traces/topologies/fpga-node.xml
speed = 1.2

[policy ff]
backfill = easy
placement = first-fit

[policy bf-spread]
backfill = easy
placement = best-fit
spread = spread

[policy rr]
backfill = none
placement = round-robin

[policy het]
backfill = easy
placement = heterogeneity-aware
"
cat >mix.ini <<EOF
[experiment]
name = mix
output = $work/out
seed = 5

[workload]
format = mix
jobs = 300
load = 0.6
users = 5
max_job_cores = 64

[class deep-learning]
speed.gpu = 2

[class big-data]
speed.fpga = none
$mix_cluster
EOF
run mix.ini
check "mix: exits 0" test $rc -eq 0
check "mix: GPU nodes, a gpu_util column" grep -q ' util gpu_util fairness$' out.txt
check "mix: summary.csv has 4 policies" test "$(rows out/mix/summary.csv)" -eq 4
check "mix: every job is in jobs.csv or rejected.csv" every_job_accounted out/mix 300 ff bf-spread het rr
for c in scientific deep-learning big-data; do
  check "mix: classes.csv has $c" grep -q "^het,$c," out/mix/classes.csv
done
# ---- an ElasticFlow trace, end to end ----
cat >ef.ini <<EOF
[experiment]
name = ef
output = out
[workload]
format = elasticflow
path = $shared/traces/gpu/elasticflow/cluster01.csv.gz
[nodes gpu]
count = 8
cores = 32
gpus = 8
[policy fcfs]
placement = first-fit
[policy easy]
backfill = easy
placement = best-fit
EOF
run ef.ini
check "elasticflow: exits 0" test $rc -eq 0
n_ef=$(($(zcat "$shared/traces/gpu/elasticflow/cluster01.csv.gz" | grep -c .) - 1))
check "elasticflow: every job is in jobs.csv or rejected.csv ($n_ef)" every_job_accounted out/ef "$n_ef" fcfs easy
# its first row: 64 GPUs for 2,429 s, submitted at 1,932,025 s
check "elasticflow: the first job as the trace gives it" \
  awk -F, '$1 == 1 { found = 1; if ($2 != 1932025 || $5 != 64 || $7 != 2429) bad = 1 } END { exit !(found && !bad) }' out/ef/fcfs/jobs.csv
check "elasticflow: EASY waits less than FCFS" \
  less_than "$(col out/ef/summary.csv easy avg_wait)" "$(col out/ef/summary.csv fcfs avg_wait)"

# nodes without GPUs: no gpu_util column
printf '[experiment]\nname = cpus\noutput = out\n[workload]\nformat = lublin\njobs = 50\n[nodes cpu]\ncount = 4\ncores = 16\n[policy ff]\nplacement = first-fit\n' >cpus.ini
run cpus.ini
check "cpu nodes: exits 0" test $rc -eq 0
check "cpu nodes: no gpu_util column" grep -qE '^policy .* util fairness$' out.txt
check "cpu nodes: the chart has four panels, no GPUs'" test "$(png_width out/cpus/summary.png)" -eq 1100
# a GPU model's name is free text: a comma in it is quoted in summary.csv's
# header as in cluster.csv (it split the column in two)
printf '[experiment]\nname = comma\noutput = out\n[workload]\nformat = dl\njobs = 20\n[nodes g]\ncount = 2\ncores = 16\ngpus = 8\ngpu_model = v1,00\n[policy ff]\nplacement = first-fit\n' >comma.ini
run -q comma.ini
check "a GPU model with a comma: exits 0" test $rc -eq 0
check "a GPU model with a comma: quoted in summary.csv's header" \
  grep -q ',util_gpus,"util_gpus_v1,00",expiries$' out/comma/summary.csv
check "a GPU model with a comma: quoted in cluster.csv" grep -q '^g,2,16,0,8,"v1,00",' out/comma/cluster.csv
# from a node list, the model is in the type's name: quoted in nodes.csv
printf 'sn,cpu_milli,memory_mib,gpu,model\nn0,96000,786432,8,"V1,00"\nn1,96000,786432,8,"V1,00"\n' >comma-nodes.csv
printf '[experiment]\nname = comma-list\noutput = out\n[workload]\nformat = dl\njobs = 20\n[cluster]\nalibaba_nodes = comma-nodes.csv\n[policy ff]\nplacement = first-fit\n' >comma-list.ini
run -q comma-list.ini
check "a node list's model with a comma: exits 0" test $rc -eq 0
check "a node list's model with a comma: nodes.csv quotes the type" \
  test "$(grep -c '^[01],"V1,00-8gpu-96c-768G",' out/comma-list/ff/nodes.csv)" -eq 2
check "mix: nodes.csv has the 12 nodes" test "$(rows out/mix/het/nodes.csv)" -eq 12

# ---- hsim gen, and the replay of what it writes ----
run gen mix.ini gen-mix.swf gen-mix.csv
check "gen mix: exits 0" test $rc -eq 0
check "gen mix: writes the SWF file" test -s gen-mix.swf
check "gen mix: the CSV has its header" \
  header_is gen-mix.csv "job_id,submit,runtime,estimate,procs,gpus,gpu_milli,mem_mb,fpgas,class,user,gpu_models,group,app,queue,partition,nodes,cores_per_node,after,think,killed,trace_id"
check "gen mix: the CSV has the 300 jobs" test "$(rows gen-mix.csv)" -eq 300
check "gen mix: the SWF file has 300 job lines" test "$(grep -cvE '^[[:space:]]*(;|$)' gen-mix.swf)" -eq 300
check "gen mix: the CSV has GPU jobs" awk -F, 'NR > 1 && $6 > 0 { found = 1 } END { exit !found }' gen-mix.csv
cat >replay-mix.ini <<EOF
[experiment]
name = replay-mix
output = $work/out

[workload]
format = swf
path = gen-mix.swf
$mix_cluster
EOF
run replay-mix.ini
check "replay mix: exits 0" test $rc -eq 0
check "replay mix: the same 300 jobs" every_job_accounted out/replay-mix 300 ff bf-spread het rr
check "replay mix: none rejected" test "$(rows out/replay-mix/rejected.csv)" -eq 0

cat >lublin.ini <<EOF
[experiment]
name = lublin
output = $work/out
seed = 11
[workload]
format = lublin
jobs = 400
load = 0.7
[cluster]
processors = 128
[policy easy]
backfill = easy
EOF
run gen lublin.ini gen-lublin.swf.gz gen-lublin.csv
check "gen lublin: exits 0" test $rc -eq 0
check "gen lublin: writes a gzip file" bash -c "zcat gen-lublin.swf.gz >/dev/null"
check "gen lublin: the CSV has the 400 jobs" test "$(rows gen-lublin.csv)" -eq 400
cat >replay-lublin.ini <<EOF
[experiment]
name = replay-lublin
output = $work/out
[workload]
format = swf
path = gen-lublin.swf.gz
[policy easy]
backfill = easy
EOF
run replay-lublin.ini
check "replay lublin: exits 0 (machine size from the header)" test $rc -eq 0
check "replay lublin: the same 400 jobs" every_job_accounted out/replay-lublin 400 easy
check "replay lublin: none rejected" test "$(rows out/replay-lublin/rejected.csv)" -eq 0
check "replay lublin: the same runtimes" \
  test "$(tail -n +2 gen-lublin.csv | cut -d, -f1,3 | sort)" == \
       "$(tail -n +2 out/replay-lublin/easy/jobs.csv | cut -d, -f1,7 | sort)"

# ---- an SWF trace on nodes: GPU jobs and classes, run twice ----
swf_ini() { # swf_ini NAME OUTPUT
  cat <<EOF
[experiment]
name = $1
output = $2
seed = 9

[workload]
format = swf
path = $shared/traces/swf/HPC2N-excerpt-3170.swf.gz
gpu_share = 0.2
class_by = queue

[nodes cpu]
count = 100
cores = 2

[nodes gpu]
count = 20
cores = 2
gpus = 2
gpu_model = v100
speed = 1.5

[policy easy-bf]
backfill = easy
placement = best-fit

[policy fcfs-het]
backfill = none
placement = heterogeneity-aware
EOF
}
swf_ini hpc2n "$work/run1" >hpc2n.ini
run hpc2n.ini
check "swf on nodes: exits 0" test $rc -eq 0
cp hpc2n.ini hpc2n-again.ini
sed -i "s#^output = .*#output = $work/run2#" hpc2n-again.ini
run hpc2n-again.ini
check "swf on nodes: exits 0 again" test $rc -eq 0
check "swf on nodes: every file written" test -f run1/hpc2n/summary.csv -a -f run1/hpc2n/easy-bf/jobs.csv \
  -a -f run1/hpc2n/fcfs-het/nodes.csv -a -f run1/hpc2n/classes.csv
# (but for the INI, whose output line differs, as experiment.ini and in
# report.html)
check "swf on nodes: two runs are byte-identical" diff -r -x experiment.ini -x report.html \
  run1/hpc2n run2/hpc2n
n_hpc2n=$(zcat "$shared/traces/swf/HPC2N-excerpt-3170.swf.gz" | grep -cvE '^[[:space:]]*(;|$)')
check "swf on nodes: every job is in jobs.csv or rejected.csv" \
  every_job_accounted run1/hpc2n "$n_hpc2n" easy-bf fcfs-het
check "swf on nodes: GPU jobs no node can hold are rejected, with the reason" \
  grep -q 'no node type can hold it: [0-9]* cores, 1 GPU"$' run1/hpc2n/rejected.csv
check "swf on nodes: classes named by queue" grep -q '^easy-bf,queue' run1/hpc2n/classes.csv
check "swf on nodes: the GPUs were used" \
  awk -v u="$(col run1/hpc2n/summary.csv easy-bf util_gpus_v100)" 'BEGIN { exit !(u > 0) }'

# ---- no job can run: an error, with the reason ----
# One job, turned into a 4-GPU job on a cluster of 2 GPUs: rejected, and
# nothing is left to run (it exited 0 with empty figures).
printf '; MaxProcs: 8\n2 0 -1 100 2 -1 -1 2 200 -1 1 1 1 6 -1 -1 -1 -1\n' >none-ran.swf
cat >none-ran.ini <<EOF
[experiment]
output = $work/out
[workload]
path = none-ran.swf
class_by = app
gpu_share = 1
gpus_per_job = 4
[nodes n]
count = 2
cores = 4
gpus = 1
[policy p]
EOF
run none-ran.ini
check "none can run: exits 2" test $rc -eq 2
check "none can run: says why" \
  has_err "none-ran.ini: no job left to run: all 1 rejected; the most common reason (1 jobs): no node type can hold it: 4 cores, 4 GPUs"
# A class none of whose jobs ran has no averages, not 0: a second job, of
# another application, runs (no GPU jobs drawn this time)
printf '; MaxProcs: 8\n2 0 -1 100 2 -1 -1 2 200 -1 1 1 1 6 -1 -1 -1 -1\n3 0 -1 100 8 -1 -1 8 200 -1 1 1 1 7 -1 -1 -1 -1\n' >one-ran.swf
cat >one-ran.ini <<EOF
[experiment]
name = one-ran
output = $work/out
[workload]
path = one-ran.swf
class_by = app
[nodes n]
count = 2
cores = 4
[class app6]
speed.n = none
[policy p]
EOF
run one-ran.ini
check "one ran: exits 0" test $rc -eq 0
check "one ran: the job of app7 ran" grep -q '^p,app7,1,' out/one-ran/classes.csv
check "one ran: app6, whose job could not, has no averages" grep -qx 'p,app6,0,,' out/one-ran/classes.csv

# ---- conservative backfilling on nodes ----
# The same trace and cluster under conservative backfilling: GPU jobs whose
# reservation the cluster cannot place are deferred, start later than
# reserved, and many end before their estimate.
swf_ini hpc2n-cons "$work/run3" | sed -e 's/^backfill = none/backfill = conservative/' \
  -e 's/^backfill = easy/backfill = conservative/' >hpc2n-cons.ini
check "conservative on nodes: the INI asks for it" test "$(grep -c '^backfill = conservative' hpc2n-cons.ini)" -eq 2
run hpc2n-cons.ini
check "conservative on nodes: exits 0" test $rc -eq 0
check "conservative on nodes: every job is in jobs.csv or rejected.csv" \
  every_job_accounted run3/hpc2n-cons "$n_hpc2n" easy-bf fcfs-het

# ---- the Alibaba GPU-sharing trace on its node list ----
cat >alibaba.ini <<EOF
[experiment]
name = alibaba
output = $work/out

[workload]
format = alibaba
path = $shared/traces/gpu/alibaba-2023/openb_pod_list_default.csv.gz

[cluster]
alibaba_nodes = $shared/traces/gpu/alibaba-2023/openb_node_list_all_node.csv

[policy ff]
backfill = easy
placement = first-fit

[policy bf]
backfill = easy
placement = best-fit
EOF
run alibaba.ini
check "alibaba: exits 0" test $rc -eq 0
check "alibaba: 897 pods rejected" test "$(rows out/alibaba/rejected.csv)" -eq 897
check "alibaba: the table says 897 rejected" grep -q '(897 rejected)' out.txt
check "alibaba: nodes.csv has the 1523 nodes" test "$(rows out/alibaba/ff/nodes.csv)" -eq 1523
check "alibaba: cluster.csv counts the 1523 nodes" \
  test "$(awk -F, 'NR > 1 { n += $2 } END { print n + 0 }' out/alibaba/cluster.csv)" -eq 1523
n_pods=$(($(zcat "$shared/traces/gpu/alibaba-2023/openb_pod_list_default.csv.gz" | grep -c .) - 1))
check "alibaba: every pod is in jobs.csv or rejected.csv" every_job_accounted out/alibaba "$n_pods" ff bf
cp -r out/alibaba alibaba-1
run -q -j 2 alibaba.ini
check "alibaba: -j 2 writes the same files" diff -r alibaba-1 out/alibaba
# hsim gen's CSV keeps each pod's GPU models (gpu_spec, e.g. V100M16|V100M32;
# in the order the trace first names them), which SWF cannot hold: job N is
# the trace's Nth pod
spec=$shared/traces/gpu/alibaba-2023/openb_pod_list_gpuspec33.csv.gz
sed "s#^path = .*#path = $spec#" alibaba.ini >alibaba-spec.ini
run gen alibaba-spec.ini gen-ali.swf gen-ali.csv
check "alibaba gen: exits 0" test $rc -eq 0
check "alibaba gen: MaxProcs is the node list's cores" grep -qx '; MaxProcs: 125514' gen-ali.swf
# and a dl workload's: the cluster's 128 cores (it wrote its GPUs, 64)
printf '[workload]\nformat = dl\njobs = 100\n[nodes g]\ncount = 16\ncores = 8\ngpus = 4\n[policy f]\n' >gen-dl.ini
run gen gen-dl.ini gen-dl.swf
check "dl gen: MaxProcs is the cluster's cores" grep -qx '; MaxProcs: 128' gen-dl.swf
# a generated workload's computer is hsim's; a GPU trace's is not known
check "dl gen: the computer is hsim's" grep -qx '; Computer: hsim synthetic cluster' gen-dl.swf
check "alibaba gen: no computer named" bash -c '! grep -q "^; Computer" gen-ali.swf'
check "alibaba gen: the CSV has gpu_models, then the SWF fields" \
  header_is gen-ali.csv "job_id,submit,runtime,estimate,procs,gpus,gpu_milli,mem_mb,fpgas,class,user,gpu_models,group,app,queue,partition,nodes,cores_per_node,after,think,killed,trace_id"
check "alibaba gen: each job's gpu_models is its pod's gpu_spec" \
  awk -F, 'function same(a, b,   x, y, i, j, k, l, in_a, in_b) { # one set of names
             k = split(a, x, "|"); l = split(b, y, "|") # (a pod may name one twice)
             for (i = 1; i <= k; i++) in_a[x[i]] = 1
             for (j = 1; j <= l; j++) in_b[y[j]] = 1
             for (i = 1; i <= k; i++) if (!(x[i] in in_b)) return 0
             for (j = 1; j <= l; j++) if (!(y[j] in in_a)) return 0
             return 1 }
           NR == FNR { if (FNR > 1) want[FNR - 1] = $6; next }
           FNR > 1 { n++; if (!same($12, want[$1])) bad++; if ($12 != "") named++ }
           END { exit !(n > 0 && named > 0 && !bad) }' <(zcat "$spec") gen-ali.csv

# ---- a class name that needs quoting in CSV ----
printf 'job_type,scale_factor,k80_steps_per_s,p100_steps_per_s,v100_steps_per_s\n"Net ""q"", b",1,1,2,4\n' >tp.csv
printf 'Net "q", b\tcmd\tsteps\t0\t400\t0\t1\nNet "q", b\tcmd\tsteps\t0\t800\t5\t1\n' >q.trace
cat >quoted.ini <<'EOF'
[experiment]
output = out
[workload]
format = gavel
path = q.trace
throughputs = tp.csv
[nodes v100]
cores = 4
gpus = 2
gpu_model = v100
[policy p]
placement = first-fit
EOF
run quoted.ini
check "quoted class: exits 0" test $rc -eq 0
check "quoted class: classes.csv quotes the name and doubles its quotes" \
  grep -qxF 'p,"Net ""q"", b@1",2,150.000,0.000' out/quoted/classes.csv

# ---- every format on every kind of machine it accepts ----
# 300 jobs of each format on a pool of processors (where a format takes
# one), on [nodes] sections and on Alibaba's node list, under FCFS, EASY
# with an SJF queue and conservative backfilling: each run ends, and
# accounts for every job.  (The generators once failed on a node list.)
t=$shared/traces
declare -A wl=(
  [swf]="format = swf\npath = $t/swf/KTH-SP2-1996-2.1-cln.swf.gz"
  [gavel]="format = gavel\npath = $t/gpu/gavel-philly/11cb48.trace.gz\nthroughputs = $t/gpu/gavel-philly/throughputs.csv"
  [elasticflow]="format = elasticflow\npath = $t/gpu/elasticflow/cluster01.csv.gz"
  [alibaba]="format = alibaba\npath = $t/gpu/alibaba-2023/openb_pod_list_default.csv.gz"
  [lublin]="format = lublin" [dl]="format = dl" [mix]="format = mix")
declare -A machine=(
  [pool]="[cluster]\nprocessors = 128"
  [nodes]="[nodes cpu]\ncount = 4\ncores = 32\nmemory = 128G\n[nodes gpu]\ncount = 4\ncores = 32\ngpus = 8\ngpu_model = v100\nmemory = 256G"
  [node-list]="[cluster]\nalibaba_nodes = $t/gpu/alibaba-2023/openb_node_list_gpu_node.csv")
policies='[policy fcfs]\n[policy easy-sjf]\nqueue = sjf\nbackfill = easy\n[policy cons]\nbackfill = conservative\n'
for f in swf gavel elasticflow alibaba lublin dl mix; do
  for m in pool nodes node-list; do
    [[ $m == pool && $f != swf && $f != lublin ]] && continue # needs nodes
    n=every-$f-$m
    case $f in lublin | dl | mix) size="jobs = 300" ;; *) size="max_jobs = 300" ;; esac
    printf "[experiment]\nname = $n\noutput = out\n[workload]\n${wl[$f]}\n$size\n${machine[$m]}\n$policies" >"$n.ini"
    run -q "$n.ini"
    check "every format: $f on $m: exits 0" test $rc -eq 0
    check "every format: $f on $m: all 300 jobs accounted for under each policy" \
      every_job_accounted "out/$n" 300 fcfs easy-sjf cons
  done
done

# A layout a placement's node order cannot find on the idle cluster: 3
# cores and 2 MiB (units of 1, 1 and 0 MiB) on a node of 1 core and 1 MiB
# and one of 2 cores and 1 MiB.  Best-fit and worst-fit try the 2-core node
# first, which takes one unit only, and the job waited for ever ("policy
# error: 1 jobs still wait", exit 1); on the idle cluster it takes
# first-fit's packed layout, the one that let it pass the rejection check.
cat >order-pods.csv <<'EOF'
name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,pod_phase,creation_time,deletion_time,scheduled_time
p1,3000,2,0,0,,Succeeded,0,100,0
p2,1000,1,0,0,,Succeeded,0,50,0
EOF
printf '[experiment]\nname = order\noutput = out\n[workload]\nformat = alibaba\npath = order-pods.csv\n[nodes a]\ncores = 1\nmemory = 1\n[nodes b]\ncores = 2\nmemory = 1\n[policy ff]\n[policy bf]\nplacement = best-fit\n[policy wf]\nplacement = worst-fit\n[policy wf-spread]\nplacement = worst-fit\nspread = spread\n' >order.ini
run -q order.ini
check "a layout only first-fit finds: exits 0" test $rc -eq 0
for p in ff bf wf wf-spread; do
  check "a layout only first-fit finds: both jobs run under $p" \
    awk -F, 'NR > 1 && $11 == "ran" { n++ } END { exit n != 2 }' "out/order/$p/jobs.csv"
done

# The cluster's memory in all passes 2^63 MiB (10,000 nodes of 10^15): one
# pod holding one node's memory for the whole run uses 1/10,000 of it
# (util_memory was negative: the total wrapped)
cat >big-mem-pods.csv <<'EOF'
name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,pod_phase,creation_time,deletion_time,scheduled_time
p1,1000,1000000000000000,0,0,,Succeeded,0,100,0
EOF
printf '[experiment]\nname = big-mem\noutput = out\n[workload]\nformat = alibaba\npath = big-mem-pods.csv\n[nodes a]\ncount = 10000\ncores = 1\nmemory = 1000000000000000\n[policy ff]\n' >big-mem.ini
run -q big-mem.ini
check "memory past 2^63 MiB in all: exits 0" test $rc -eq 0
check "memory past 2^63 MiB in all: util_memory is 0.0001" \
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "util_memory") c = i }
           NR == 2 { exit !($c == "0.000100") }' out/big-mem/summary.csv

# more cores than the policies count (2^31 - 1) is an error at the [nodes]
# section that passes it, found before any experiment runs (a cluster of
# 3e9 cores ran as one of 2^31 - 1: jobs waited, and utilization was wrong)
printf '1 0 0 100 1500000000 -1 -1 1500000000 100 -1 1 1 1 1 1 1 -1 -1\n' >huge.swf
printf '[experiment]\nname = huge\noutput = out\n[workload]\npath = huge.swf\n[nodes a]\ncount = 30000\ncores = 100000\n[policy ff]\n' >huge.ini
rm -rf out/order
run -q order.ini huge.ini
check "3e9 cores: exits 2" test $rc -eq 2
check "3e9 cores: says so, at the [nodes] section" \
  has_err "huge.ini:6: [nodes a] takes the cluster to 3000000000 cores and 0 GPUs: expected at most 2147483647 of each"
check "3e9 cores: found before anything runs" test ! -e out/order/summary.csv

# ---- a GPU model named by its topology ----
# gpu4-node.xml's GPUs are "Tesla V100-SXM2-32GB": with no gpu_model, a
# Gavel trace's v100 jobs run there (the word V100), and none is rejected
# (every job was, with "0 jobs" and exit 0)
cat >gavel-topo.ini <<EOF
[experiment]
name = gavel-topo
output = out
[workload]
format = gavel
path = $shared/traces/gpu/gavel-philly/0e4a51.trace.gz
throughputs = $shared/traces/gpu/gavel-philly/throughputs.csv
max_jobs = 200
[nodes v100]
count = 4
topology = xml:$repo/traces/topologies/gpu4-node.xml
[policy ff]
placement = first-fit
EOF
run -q gavel-topo.ini
check "a topology's GPU model: exits 0" test $rc -eq 0
check "a topology's GPU model: no job rejected" test "$(rows out/gavel-topo/rejected.csv)" -eq 0
check "a topology's GPU model: the 200 jobs ran" test "$(rows out/gavel-topo/ff/jobs.csv)" -eq 200
check "a topology's GPU model: cluster.csv keeps hwloc's name" \
  grep -q '^v100,4,40,393216,4,Tesla V100-SXM2-32GB,' out/gavel-topo/cluster.csv
check "a topology's GPU model: no warning" bash -c "! grep -q warning err.txt"
# an FPGA topology names its board
printf '[experiment]\nname = fpga\noutput = out\n[workload]\nformat = lublin\njobs = 20\n[nodes f]\ncount = 2\ntopology = xml:%s/traces/topologies/fpga-node.xml\n[policy p]\n' "$repo" >fpga.ini
run -q fpga.ini
check "an FPGA topology: its model in cluster.csv" grep -q '^f,2,24,196608,0,,0,1,Alveo U250,' out/fpga/cluster.csv

# ---- hsim describe: what a run would see, without running it ----
rm -rf out/gavel-topo
run describe gavel-topo.ini
check "describe: exits 0" test $rc -eq 0
check "describe: runs nothing" test ! -e out/gavel-topo
check "describe: the jobs" has_out "jobs: 200 to run, 0 rejected, of 200 in the input"
check "describe: the classes, with counts" grep -qE '^ +[0-9]+  ResNet-50 \(batch size 32\)@1$' out.txt
check "describe: the GPU models and the node models that serve them" \
  has_out "v100 -> Tesla V100-SXM2-32GB"
check "describe: a model no node has" grep -qE '^ +[0-9]+  k80 -> no node type has it$' out.txt
check "describe: the node types" grep -qE '^  v100 +4 +40 +393216 +4 Tesla V100-SXM2-32GB ' out.txt
check "describe: the offered load" grep -qE '^offered load .*: cores [0-9.]+%, GPUs [0-9.]+%$' out.txt
# the reasons for rejections, counted (HPC2N's jobs turned into 1-GPU jobs
# on nodes of 2 cores: those of more than 2 cores cannot run)
run describe hpc2n.ini
check "describe hpc2n: exits 0" test $rc -eq 0
check "describe hpc2n: rejections by reason, as many as rejected.csv has" \
  test "$(awk '/^  rejected, by reason/ { on = 1; next } on && /^ +[0-9]+  / { n += $1; next } { on = 0 } END { print n + 0 }' out.txt)" \
       -eq "$(rows run1/hpc2n/rejected.csv)"
check "describe hpc2n: the users" grep -qE '^users: [0-9]+ \(the most jobs: user [0-9]+, [0-9]+\)$' out.txt
check "describe hpc2n: classes by queue" grep -qE '^ +[0-9]+  queue-unknown$' out.txt
# bad input: the loader's error, exit 2
run describe none.ini
check "describe a missing INI: exit 2" test $rc -eq 2
run describe
check "describe without a file: exit 2 and its usage" test $rc -eq 2 -a "$(cat err.txt)" == "usage: hsim describe FILE.ini..."

test_finish
