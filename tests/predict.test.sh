#!/usr/bin/env bash
# predict.test.sh HSIM SHARED WORKDIR
# The trained predictors through the command: hsim train writes a model of
# each kind from the first half of KTH-SP2, hsim predict-eval scores every
# predictor on the second half (table and CSV), an experiment plans EASY
# with each model (estimate.model) and with one trained as it goes
# (estimate.retrain), twice with the same files; and what is refused.
# PART runs one part only (train, eval, replay or underweight; CTest runs each as a test
# of its own, so that none takes long under the sanitizers); without it,
# all of them.
set -uo pipefail
[[ $# -eq 3 || $# -eq 4 ]] || { echo "usage: predict.test.sh HSIM SHARED WORKDIR [PART]" >&2; exit 2; }
part=${4:-all}

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shared=$(cd "$2" && pwd) || { echo "predict: no shared folder $2" >&2; exit 2; }
source "$repo/tests/testlib.sh"
SHOW_ERRORS=1
test_setup predict "$1" "$3"
kth=$shared/traces/swf/KTH-SP2-1996-2.1-cln.swf.gz
in_part() { [[ $part == all || $part == "$1" ]]; }

for m in regression gbdt lstm; do
  in_part train || in_part replay || continue
  run train --trace "$kth" --model $m --until 0.5 --out kth.$m
  check "train $m: exits 0" test $rc -eq 0
  check "train $m: says what it trained on" has_err "$m trained on the first 14233 of 28467 jobs"
  check "train $m: writes its model" test -s kth.$m
done
if in_part train; then
check "the gbdt model is hsim's format" test "$(head -n 1 kth.gbdt)" == "hsim-gbdt 2"
# the same data and seed: the same model, byte for byte
run train --trace "$kth" --model gbdt --until 0.5 --out again.gbdt
check "train gbdt again: the same file" cmp -s kth.gbdt again.gbdt
run train --trace "$kth" --model forest --until 0.5 --out x
check "train an unknown model: exit 2" test $rc -eq 2 -a ! -e x
run train --trace "$kth" --model gbdt --until 1.5 --out x
check "train --until 1.5: exit 2" test $rc -eq 2
check "train --until 1.5: says so" has_err "--until: expected a fraction between 0 and 1, found '1.5'"
fi

if in_part eval; then
run predict-eval --trace "$kth" --from 0.5 --out eval.csv
check "predict-eval: exits 0" test $rc -eq 0
check "predict-eval: the CSV's header" \
  test "$(head -n 1 eval.csv)" == "predictor,jobs,accuracy,mae_s,median_ae_s,under_rate,r2_log,ns_per_prediction"
check "predict-eval: every predictor but the oracle, on the 14234 later jobs" \
  test "$(cut -d, -f1,2 eval.csv | tail -n +2 | tr '\n' ' ')" == \
       "user,14234 last2,14234 typical,14234 regression,14234 gbdt,14234 lstm,14234 "
# accuracies in (0, 1]; the user's requests never fall short
check "predict-eval: accuracies between 0 and 1" \
  awk -F, 'NR > 1 && !($3 > 0 && $3 <= 1) { bad = 1 } END { exit bad }' eval.csv
check "predict-eval: the requests are no under-estimates" grep -q '^user,14234,[0-9.]*,[0-9.]*,[0-9.]*,0.000000,' eval.csv
acc() { awk -F, -v p="$1" '$1 == p { print $3 }' eval.csv; }
check "predict-eval: gbdt is more accurate than the users' requests" \
  awk -v a="$(acc gbdt)" -v b="$(acc user)" 'BEGIN { exit !(a > b) }'
check "predict-eval: the table names them too" grep -qE '^gbdt +0\.[0-9]{3} ' out.txt
run predict-eval --trace "$kth"
check "predict-eval without --from: its usage" test $rc -eq 2 && has_err "usage: hsim predict-eval"
# --retrain: the trained models also train anew on the jobs finished so far
run predict-eval --trace "$kth" --from 0.5 --retrain 10000 --out retrain.csv
check "predict-eval --retrain 10000: exits 0" test $rc -eq 0
check "predict-eval --retrain 10000: every predictor but the oracle" \
  test "$(cut -d, -f1 retrain.csv | tail -n +2 | tr '\n' ' ')" == "$(cut -d, -f1 eval.csv | tail -n +2 | tr '\n' ' ')"
run predict-eval --trace "$kth" --from 0.5 --retrain 0
check "predict-eval --retrain 0: exit 2" test $rc -eq 2
check "predict-eval --retrain 0: says so" has_err "--retrain: expected a number of completions in 1..20000, found '0'"
run train --trace "$kth" --model gbdt --until 0.5 --out x --retrain 100
check "train --retrain: exit 2" test $rc -eq 2 -a ! -e x
check "train --retrain: says whose option it is" has_err "--retrain is not one of its options"
fi

if in_part replay; then

cat >kth.ini <<EOF
[experiment]
name = kth
output = out
[workload]
path = $kth
[cluster]
processors = 100
[policy easy]
backfill = easy
[policy easy-regression]
backfill = easy
estimate = regression
estimate.model = kth.regression
[policy easy-gbdt]
backfill = easy
estimate = gbdt
estimate.model = kth.gbdt
[policy easy-lstm]
backfill = easy
estimate = lstm
estimate.model = kth.lstm
[policy easy-gbdt-online]
backfill = easy
estimate = gbdt
estimate.retrain = 5000
EOF
run -q kth.ini
check "EASY with the models: exits 0" test $rc -eq 0
check "EASY with the models: every policy ran every job" \
  test "$(awk -F, 'NR > 1 { print $2 }' out/kth/summary.csv | sort -u)" == "28467"
# second half: average bounded slowdown of the jobs after the 14,233 trained on
bsld2() { awk -F, 'NR > 1 { n++; if (n > 14233) { s += $9; c++ } } END { printf "%.2f", s / c }' "out/kth/$1/jobs.csv"; }
check "EASY with gbdt: a lower bounded slowdown than with the requests, on the later half" \
  awk -v a="$(bsld2 easy-gbdt)" -v b="$(bsld2 easy)" 'BEGIN { exit !(a < b) }'
echo "     (later half: easy $(bsld2 easy), regression $(bsld2 easy-regression), gbdt $(bsld2 easy-gbdt), lstm $(bsld2 easy-lstm), gbdt online $(bsld2 easy-gbdt-online))"
check "EASY with predictions: jobs outlived them (expiries)" \
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "expiries") k = i; next } $1 == "easy-gbdt" && $k > 0 { ok = 1 } END { exit !ok }' out/kth/summary.csv
# again, the two gbdt policies alone: the same schedules
awk '/^\[policy easy-gbdt/ { on = 1 } /^\[policy/ && !/easy-gbdt/ { on = 0 } NR < 8 || on' kth.ini |
  sed 's/^name = kth$/name = kth-again/' >again.ini
run -q again.ini
check "the same model, the same training: the same schedules" \
  bash -c 'cmp -s out/kth/easy-gbdt/jobs.csv out/kth-again/easy-gbdt/jobs.csv &&
           cmp -s out/kth/easy-gbdt-online/jobs.csv out/kth-again/easy-gbdt-online/jobs.csv'

fi

if in_part underweight; then
# estimate.under_weight: an under-estimate's error counts W times in
# training, so fewer jobs outlive their predictions (expiries)
cat >uw.ini <<EOF
[experiment]
name = uw
output = out
[workload]
path = $kth
[cluster]
processors = 100
[policy reg1]
backfill = easy
estimate = regression
estimate.retrain = 2000
[policy reg4]
backfill = easy
estimate = regression
estimate.retrain = 2000
estimate.under_weight = 4
[policy gbdt1]
backfill = easy
estimate = gbdt
estimate.retrain = 5000
[policy gbdt4]
backfill = easy
estimate = gbdt
estimate.retrain = 5000
estimate.under_weight = 4
EOF
run -q uw.ini
check "under_weight: runs" test $rc -eq 0
expiries() { awk -F, -v p="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "expiries") k = i; next } $1 == p { print $k }' out/uw/summary.csv; }
echo "     (expiries: regression $(expiries reg1) at weight 1, $(expiries reg4) at 4; gbdt $(expiries gbdt1), $(expiries gbdt4))"
check "under_weight 4: fewer expiries than 1 (regression)" test "$(expiries reg4)" -lt "$(expiries reg1)"
check "under_weight 4: fewer expiries than 1 (gbdt)" test "$(expiries gbdt4)" -lt "$(expiries gbdt1)"
fi

if in_part replay; then

# what is refused
printf '[workload]\npath = %s\n[cluster]\nprocessors = 100\n[policy p]\nestimate = user\nestimate.model = kth.gbdt\n' "$kth" >bad1.ini
run bad1.ini
check "estimate.model for a predictor without models: exit 2" test $rc -eq 2
check "estimate.model for a predictor without models: at its line" \
  has_err "bad1.ini:7: [policy p] estimate.model applies to trained predictors only"
printf '[workload]\npath = %s\n[cluster]\nprocessors = 100\n[policy p]\nbackfill = easy\nestimate = last2\nestimate.under_weight = 2\n' "$kth" >bad4.ini
run bad4.ini
check "estimate.under_weight for last2: at its line" \
  has_err "bad4.ini:8: [policy p] estimate.under_weight applies to trained predictors only"
printf '[workload]\npath = %s\n[cluster]\nprocessors = 100\n[policy p]\nbackfill = easy\nestimate = gbdt\nestimate.retrain = 100\nestimate.under_weight = 0.5\n' "$kth" >bad5.ini
run bad5.ini
check "estimate.under_weight below 1: exit 2 at its line" \
  has_err "bad5.ini:9: estimate.under_weight: expected a number in 1..1000"
printf '[workload]\npath = %s\n[cluster]\nprocessors = 100\n[policy p]\nbackfill = easy\nestimate = gbdt\n' "$kth" >bad2.ini
run bad2.ini
check "gbdt without a model or retraining: exit 2" test $rc -eq 2
check "gbdt without a model or retraining: says what to give, at the line" \
  has_err "bad2.ini:7: [policy p] estimate = gbdt needs a trained model (estimate.model = FILE"
printf '[workload]\npath = %s\n[cluster]\nprocessors = 100\n[policy p]\nbackfill = easy\nestimate = gbdt\nestimate.model = kth.lstm\n' "$kth" >bad3.ini
run bad3.ini
check "a model of another kind: exit 2" test $rc -eq 2
check "a model of another kind: names the INI line and the file" \
  has_err "bad3.ini:8: [policy p] estimate.model: ./kth.lstm:1: expected 'hsim-gbdt 2'"
fi

test_finish
