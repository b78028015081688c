#!/usr/bin/env bash
# plot.test.sh HSIM SHARED WORKDIR
# Charts and report.html from the command line: [output] charts and
# formats, hsim plot redrawing a results folder byte for byte, two runs
# giving the same bytes (PDF and SVG too), a cluster's charts, and the
# errors of bad lists, bad folders and damaged CSV files.
set -uo pipefail

[[ $# -eq 3 ]] || { echo "usage: plot.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/testlib.sh"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shared=$(cd "$2" && pwd) || { echo "plot: no shared folder $2" >&2; exit 2; }
test_setup plot "$1" "$3"

cat > q.ini <<EOF
[experiment]
name = q
output = out
[workload]
path = $repo/traces/quickstart.swf
[cluster]
processors = 64
[output]
charts = all
formats = png, svg, pdf
[policy fcfs]
[policy easy]
backfill = easy
EOF

run q.ini
check "a run with [output] exits 0" test $rc -eq 0
for f in utilization queue cdf bars fairness easy/gantt fcfs/gantt; do
  for x in png svg pdf; do
    check "q: $f.$x written" test -s "out/q/$f.$x"
  done
done
check "q: summary.png as before" test -s out/q/summary.png
check "q: timeseries.csv per policy" test -s out/q/easy/timeseries.csv
check "q: a pool has no heatmap" test ! -e out/q/easy/heatmap.png
check "q: report.html" test -s out/q/report.html
check "q: run.csv names the trace's CRC-32" grep -qE '^trace_crc32,[0-9a-f]{8}$' out/q/run.csv
crc=$(gzip -c < "$repo/traces/quickstart.swf" | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')
check "q: the CRC-32 is the trace's (as gzip computes it)" grep -q "^trace_crc32,$crc$" out/q/run.csv
check "q: experiment.ini is the INI" cmp -s q.ini out/q/experiment.ini
check "q: the report embeds PNGs" grep -q 'src="data:image/png;base64,' out/q/report.html
check "q: the report holds the INI" grep -q 'formats = png, svg, pdf' out/q/report.html
rows=$(($(wc -l < out/q/easy/timeseries.csv) - 1))
check "q: at most 2000 bins ($rows)" test "$rows" -ge 100 -a "$rows" -le 2000

# the same run again: the same bytes, every file
cp -r out/q first
run q.ini
check "q: a second run exits 0" test $rc -eq 0
check "q: a second run writes the same bytes (PDF and SVG included)" diff -r first out/q

# hsim plot: the charts again from the CSV files alone
rm -f out/q/*.png out/q/*.svg out/q/*.pdf out/q/*/gantt.* out/q/*/timeseries.csv \
      out/q/report.html
cp first/summary.png out/q/summary.png
run plot out/q
check "hsim plot exits 0" test $rc -eq 0
check "hsim plot redraws every file byte for byte" diff -r first out/q
run plot --charts gantt --formats svg out/q
check "hsim plot --charts gantt --formats svg exits 0" test $rc -eq 0
check "hsim plot --formats svg: the report inlines SVG" grep -q '<svg' out/q/report.html
check "hsim plot --charts gantt: the report has no CDF" bash -c "! grep -q 'CDFs of wait' out/q/report.html"

# repeated runs: summary.csv with 95% confidence intervals (the columns
# that [experiment] repeat adds) gives the bars error bars
cp -r first ci
awk -F, -v OFS=, 'NR == 1 { print $0, "avg_wait_ci95", "avg_turnaround_ci95", "avg_bsld_ci95"; next }
                  { print $0, $3 / 10, $4 / 10, $5 / 10 }' first/summary.csv > ci/summary.csv
run plot --charts bars ci
check "hsim plot with CI columns exits 0" test $rc -eq 0
check "hsim plot with CI columns: the bars differ (error bars)" bash -c "! cmp -s first/bars.png ci/bars.png"

# a folder of repeats (seed-S/ folders hold the jobs): the bars alone
mkdir rep
cp ci/summary.csv first/run.csv rep/
mkdir rep/seed-1 && cp -r first/fcfs first/easy rep/seed-1/
run plot rep
check "hsim plot of a folder of repeats exits 0" test $rc -eq 0
check "a folder of repeats: the bars" test -s rep/bars.png
check "a folder of repeats: no chart of jobs" test ! -e rep/cdf.png -a ! -e rep/fcfs
check "a folder of repeats: the report says where the seeds are" grep -q 'seed-S/' rep/report.html

# errors
run plot
check "hsim plot with no folder exits 2" test $rc -eq 2
check "hsim plot with no folder: usage" has_err "usage: hsim plot"
run plot --charts pie out/q
check "hsim plot --charts pie exits 2" test $rc -eq 2
check "hsim plot --charts pie: the message" has_err "charts: expected a list of utilization"
run plot nowhere
check "hsim plot of a missing folder exits 2" test $rc -eq 2
check "hsim plot of a missing folder: named" has_err "nowhere"
cp -r first damaged
sed -i '3s/^\([0-9]*\),[0-9]*,/\1,soon,/' damaged/easy/jobs.csv
run plot damaged
check "hsim plot of a damaged jobs.csv exits 2" test $rc -eq 2
check "hsim plot of a damaged jobs.csv: file and line" has_err "damaged/easy/jobs.csv:3: submit: expected a number below 9e18, found 'soon'"
cp -r first huge
sed -i '2s/^\([0-9]*,[0-9]*,[0-9]*,\)[0-9]*,/\11e300,/' huge/easy/jobs.csv
run plot huge
check "hsim plot of a time of 1e300 exits 2" test $rc -eq 2
check "hsim plot of a time of 1e300: file and line" has_err "huge/easy/jobs.csv:2: end: expected a number below 9e18, found '1e300'"
cp -r first wide
sed -i '2s/^\([0-9]*,[0-9]*,[0-9]*,[0-9]*,\)[0-9]*,/\1999999,/' wide/easy/jobs.csv
run plot wide
check "hsim plot of a job wider than the machine: drawn, exits 0" test $rc -eq 0
sed -i 's/^processors,.*/processors,1e10/' wide/run.csv
run plot wide
check "hsim plot of a machine of 1e10 processors exits 2" test $rc -eq 2
check "hsim plot of a machine of 1e10 processors: the message" has_err "wide/run.csv: processors: expected a number from 1 to 2147483647"
sed 's/^formats = .*/formats = gif/' q.ini > bad.ini
run bad.ini
check "[output] formats = gif exits 2" test $rc -eq 2
check "[output] formats = gif: file and line" has_err "bad.ini:10: formats: expected a list of png, svg, pdf, found 'gif'"
sed 's/^charts = .*/charts = cdf, pie/' q.ini > bad2.ini
run bad2.ini
check "[output] charts = cdf, pie exits 2" test $rc -eq 2
check "[output] charts = cdf, pie: file and line" has_err "bad2.ini:9: charts: expected"
printf '[experiment]\nname = x\n[output]\ncolour = red\n' > bad3.ini
run bad3.ini
check "[output] colour exits 2" test $rc -eq 2
check "[output] colour: named" has_err "bad3.ini:4: unknown key 'colour' in [output]: expected charts or formats"

# a cluster: GPUs by model, the heatmap
gavel=$shared/traces/gpu/gavel-philly
cat > g.ini <<EOF
[experiment]
name = g
output = out
[workload]
format = gavel
path = $gavel/11cb48.trace.gz
throughputs = $gavel/throughputs.csv
max_jobs = 300
[nodes k80]
count = 3
gpus = 4
cores = 16
gpu_model = k80
[nodes v100]
count = 3
gpus = 4
cores = 16
gpu_model = v100
[output]
charts = utilization, heatmap, gantt
[policy first-fit]
[policy hetero]
placement = heterogeneity-aware
EOF
run g.ini
check "a GPU cluster run exits 0" test $rc -eq 0
check "g: the time series has the GPU models" \
  grep -q '^time,width,queue,running,util_cores,util_gpus,util_gpus_k80,util_gpus_v100' out/g/hetero/timeseries.csv
check "g: a heatmap per policy" test -s out/g/hetero/heatmap.png -a -s out/g/first-fit/heatmap.png
check "g: no chart that was not asked for" test ! -e out/g/cdf.png
test_finish
