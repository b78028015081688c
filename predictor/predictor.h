/*
 * predictor.h - runtime predictors behind one interface.
 *
 * A predictor estimates a job's runtime from its features and learns only
 * from jobs that have finished: the core hands predict() a copy of the
 * job whose runtime is hidden (0, and not marked killed), so no predictor
 * can read the future; only a predictor that declares reads_runtime
 * ('oracle', which exists to measure upper bounds) gets the job whole.
 * learn() gets a job that has finished, with what it ran.  Answers are
 * clamped by the core to the requested time at most, and those of a
 * predictor that underpredicts to 1 s at least (when the request is that
 * long): 'oracle' plans a 0.6 s job as 0.6 s.
 */
#ifndef HSIM_PREDICTOR_H
#define HSIM_PREDICTOR_H

#include "../sim/job.h"

/* What a predictor's run knows when it starts. */
typedef struct hsim_predictor_ctx {
    size_t n_jobs;          /* jobs in the run */
    int64_t unix_start;     /* the trace's UnixStartTime, HSIM_HEADER_ABSENT
                               (INT64_MIN) when unknown: submit hours and
                               weekdays are then counted from time 0 */
    int64_t time_zone;      /* its TimeZone in seconds, or HSIM_HEADER_ABSENT */
    const char *model;      /* estimate.model: a trained model's file, "" none */
    size_t retrain;         /* estimate.retrain: train again every this many
                               completions, on finished jobs only; 0 never */
    double under_weight;    /* estimate.under_weight: how many times an
                               under-estimate's error counts in training
                               (>= 1; 0 is taken as 1) */
    hsim_err_t *e;          /* for a model file that cannot be read */
} hsim_predictor_ctx_t;

typedef struct hsim_predictor {
    const char *name;
    const char *summary;
    /* Per-run state; NULL state is allowed.  0, HSIM_EINPUT (a model file:
       ctx->e says why) or HSIM_ENOMEM. */
    int (*create)(const hsim_predictor_ctx_t *ctx, void **state);
    void (*destroy)(void *state);
    /* Runtime estimate for job at time now (job->runtime is 0 unless the
       predictor reads_runtime). */
    hsim_time_t (*predict)(void *state, const hsim_job_t *job, hsim_time_t now);
    /* job started at now.  0 or HSIM_ENOMEM.  May be NULL. */
    int (*started)(void *state, const hsim_job_t *job, hsim_time_t now);
    /* job finished at now after running for 'ran' (on a reference node).
       0 or HSIM_ENOMEM.  May be NULL. */
    int (*learn)(void *state, const hsim_job_t *job, hsim_time_t ran, hsim_time_t now);
    int reads_runtime; /* 1: predict() sees the actual runtime (oracle) */
    int uses_model;   /* 1: reads estimate.model and estimate.retrain */
    int revises;      /* 1: after learn() of a job, its answers for the
                         waiting jobs of that job's user may change (and no
                         others'), so the core asks again for those (0:
                         each job is asked once, at its submission) */
    int underpredicts; /* 1: its answer can be below the actual runtime; a
                          running job that outlives it gets the requested
                          time instead (a prediction expiry event) */
} hsim_predictor_t;

/* The registry: NULL-terminated, in the order the help lists them. */
extern const hsim_predictor_t *const hsim_predictors[];
const hsim_predictor_t *hsim_predictor_find(const char *name);

#endif
