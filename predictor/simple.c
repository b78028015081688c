/*
 * simple.c - the two reference predictors: 'user' (the requested time, what
 * production schedulers plan with) and 'oracle' (the actual runtime: the
 * clairvoyant upper bound of the EASY-perfect experiments).
 */
#include "predictor.h"

#include <stddef.h>
#include <string.h>

static int no_state(const hsim_predictor_ctx_t *ctx, void **state)
{
    (void)ctx;
    *state = NULL;
    return 0;
}

static void no_destroy(void *state) { (void)state; }

static hsim_time_t user_predict(void *state, const hsim_job_t *job, hsim_time_t now)
{
    (void)state;
    (void)now;
    return job->estimate;
}

static hsim_time_t oracle_predict(void *state, const hsim_job_t *job, hsim_time_t now)
{
    (void)state;
    (void)now;
    return job->runtime;
}

const hsim_predictor_t hsim_predictor_user = {
    .name = "user",
    .summary = "the user's requested time",
    .create = no_state,
    .destroy = no_destroy,
    .predict = user_predict,
};

const hsim_predictor_t hsim_predictor_oracle = {
    .name = "oracle",
    .summary = "the actual runtime (clairvoyant; for upper bounds only)",
    .create = no_state,
    .destroy = no_destroy,
    .predict = oracle_predict,
    .reads_runtime = 1,
};
