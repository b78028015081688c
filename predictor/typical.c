/*
 * typical.c - 'typical': the user's typical runtime for the same request,
 * the baseline the trained models learn corrections to (feature 22 of
 * features.h), with no model.
 *
 * The answer is the runtime closest to the others (by min/max ratio) among
 * the user's last runtimes of jobs that asked for the same time, the more
 * recent weighing more; the requested time for a user with no finished
 * job.  It learns only from jobs that have finished, like the models, and
 * as they do it answers once for each job, at its submission.  Cost:
 * O(HSIM_TYPICAL_K) a completion, O(1) a prediction.
 */
#include "features.h"
#include "predictor.h"

static int typical_create(const hsim_predictor_ctx_t *ctx, void **state)
{
    hsim_history_t *h;
    int rc = hsim_history_create(ctx->unix_start, ctx->time_zone, &h);
    if (rc == 0)
        *state = h;
    return rc;
}

static void typical_destroy(void *state) { hsim_history_free(state); }

static hsim_time_t typical_predict(void *state, const hsim_job_t *job, hsim_time_t now)
{
    (void)now;
    double x[HSIM_FEATURES];
    hsim_history_features(state, job, x);
    return hsim_runtime_from_target(x[HSIM_BASELINE]);
}

static int typical_started(void *state, const hsim_job_t *job, hsim_time_t now)
{
    (void)now;
    return hsim_history_started(state, job);
}

static int typical_learn(void *state, const hsim_job_t *job, hsim_time_t ran, hsim_time_t now)
{
    (void)now;
    return hsim_history_finished(state, job, ran);
}

const hsim_predictor_t hsim_predictor_typical = {
    .name = "typical",
    .summary = "the user's typical runtime for the same requested time (the trained "
               "models' baseline), no model",
    .create = typical_create,
    .destroy = typical_destroy,
    .predict = typical_predict,
    .started = typical_started,
    .learn = typical_learn,
    .underpredicts = 1,
};
