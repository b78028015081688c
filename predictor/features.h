/*
 * features.h - what the trained predictors know of a job when it is
 * submitted: its own request and the history of its user, as of now.
 *
 * An hsim_history_t follows a replay (or a trace read in time order for
 * training): started() and finished() as jobs start and end, and answers
 * the features of a job about to be predicted.  It sees a job's runtime
 * only when the job has finished, so features built from it cannot leak
 * the future.  Per user it keeps the last HSIM_HISTORY_K finished jobs
 * and the number running now, and per user and requested time the last
 * HSIM_TYPICAL_K runtimes, sorted, with their typical runtime.
 *
 * Features (HSIM_FEATURES doubles, in this order; logs are natural logs
 * of 1 + x seconds or units):
 *   0 log requested time        1 log processors          2 log GPUs
 *   3 user                      4 group                   5 application
 *   6 queue                     7 partition               8 job class
 *   9 hour of day (0-24)       10 weekday (0-7)          11 user's last runtime (log)
 *  12 user's runtime before it 13 mean log runtime of the user's last K
 *  14 user's last runtime / its request                  15 mean of that ratio over the last K
 *  16 user's jobs running now  17 log of the user's finished jobs
 *  18 the mean of 11 and 12 (as last2 predicts), else 11, else the
 *     request (0)
 *  19 |11 - 12|: how far the user's last two runtimes disagree (-1)
 *  20 log of the time since the user's last job started (-1: none yet)
 *  21 1 when the job asks for what the user's last finished job asked
 *     (processors and time), 0 when not, -1 without history
 *  22 the baseline the models learn what to add to: the log of the
 *     user's typical runtime for the job's requested time: among the
 *     user's last HSIM_TYPICAL_K runtimes of jobs that asked the same
 *     time (the last HSIM_HISTORY_K of any when none did), the one
 *     closest to the others by min/max ratio (the accuracy below), each
 *     counting HSIM_TYPICAL_RECENCY^k + HSIM_TYPICAL_FLOOR for the k-th
 *     most recent (k = 0 the last): the last few jobs lead unless a long
 *     history agrees on another runtime; at most the request; the request
 *     without history
 * Ids (3-8) are numbers, -1 when unknown: trees split on them, linear
 * models leave them out.  A user with no finished job has -1 in 11-15.
 *
 * The LSTM's sequence (HSIM_SEQ_IN doubles per step, HSIM_SEQ_STEPS
 * steps): the user's last HSIM_SEQ_STEPS - 1 finished jobs, oldest first,
 * then the job asked about, each step
 *   0 present (1) or padding (0)   1 log runtime (for the job asked about:
 *                                    feature 22, the baseline)
 *   2 log requested time          3 log processors     4 runtime / request
 *   5 hour of day / 24            6 weekday / 7        7 the job asked about (1)
 */
#ifndef HSIM_FEATURES_H
#define HSIM_FEATURES_H

#include "../sim/job.h"

#define HSIM_FEATURES 23
#define HSIM_BASELINE 22 /* the feature the models' answers add to */
#define HSIM_HISTORY_K 8
#define HSIM_TYPICAL_K 384        /* runtimes kept per user and request */
#define HSIM_TYPICAL_RECENCY 0.7  /* the weights of feature 22's runtimes */
#define HSIM_TYPICAL_FLOOR 0.05
#define HSIM_SEQ_STEPS 6
#define HSIM_SEQ_IN 8

typedef struct hsim_history hsim_history_t;

/* unix_start, time_zone: the trace header's (HSIM_HEADER_ABSENT when not
   given): hours and weekdays are local times then.  0 or HSIM_ENOMEM. */
int hsim_history_create(int64_t unix_start, int64_t time_zone, hsim_history_t **out);
void hsim_history_free(hsim_history_t *h);

/* A job of its user started / finished (after 'ran' on a reference node).
   0 or HSIM_ENOMEM. */
int hsim_history_started(hsim_history_t *h, const hsim_job_t *j);
int hsim_history_finished(hsim_history_t *h, const hsim_job_t *j, hsim_time_t ran);

/* The features of job j (its runtime is not read) into x[HSIM_FEATURES]. */
void hsim_history_features(const hsim_history_t *h, const hsim_job_t *j, double *x);
/* Its sequence into x[HSIM_SEQ_STEPS * HSIM_SEQ_IN]. */
void hsim_history_sequence(const hsim_history_t *h, const hsim_job_t *j, double *x);

/* The target the models learn: log(1 + runtime in seconds), and back. */
double hsim_runtime_target(hsim_time_t run);
hsim_time_t hsim_runtime_from_target(double y);

/* Walks w's first n jobs (sorted by submission) in time order without a
   scheduler, each job running from its submission for its runtime: before
   job i's submission, ended(ctx, k) for each job k that ended by then (in
   order of their ends), then submitted(ctx, i).  0, HSIM_ENOMEM or a
   callback's nonzero return, which stops the walk. */
struct hsim_workload;
int hsim_jobs_walk(const struct hsim_workload *w, size_t n, int (*ended)(void *ctx, size_t i),
                   int (*submitted)(void *ctx, size_t i), void *ctx);

/* Replays a workload's jobs in time order without a scheduler (each job
   starts at its submission and ends after its runtime), calling
   sample(ctx, i, h) for job i just before it is submitted, with the
   history of the jobs that ended by then.  Jobs [0, n) of w, which is
   sorted by submission.  This is how predictors are trained and evaluated
   offline: the waits of a real schedule are unknown.  0, HSIM_ENOMEM or
   what sample() returns (nonzero stops). */
int hsim_history_walk(const struct hsim_workload *w, size_t n,
                      int (*sample)(void *ctx, size_t i, const hsim_history_t *h), void *ctx);

#endif
