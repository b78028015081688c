/*
 * predict_cli.h - the trained predictors offline:
 *
 *   hsim train --trace T --model regression|gbdt|lstm --until FRACTION
 *              --out FILE [--format swf|elasticflow|alibaba|csv]
 *              [--clean standard|pyss] [--under-weight W]
 *     trains a model on the time-ordered first FRACTION of T's jobs (each
 *     job seen with its user's history as of its submission, jobs running
 *     from submission to end: a trace's own waits are not kept) and writes
 *     it for estimate.model;
 *   hsim predict-eval --trace T --from FRACTION [--out FILE.csv] ...
 *     trains each model on the jobs before FRACTION and scores every
 *     predictor but the oracle on the jobs after it: mean accuracy
 *     min(p, a) / max(p, a), mean and median absolute error, the share of
 *     under-estimates, R^2 of log(1 + runtime) and the time per prediction.
 *
 * Exit status as hsim's: 0, 1 (a failure), 2 (bad usage or input).
 */
#ifndef HSIM_PREDICT_CLI_H
#define HSIM_PREDICT_CLI_H

/* argv[1] is "train" / "predict-eval". */
int hsim_train_main(int argc, char **argv);
int hsim_predict_eval_main(int argc, char **argv);

#endif
