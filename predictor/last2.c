/*
 * last2.c - 'last2': the mean of the user's last two runtimes (Tsafrir,
 * Etsion and Feitelson 2007, "Backfilling using system-generated
 * predictions rather than user runtime estimates"; the predictor of
 * EASY++), as pyss computes it.
 *
 * A job's prediction is its requested time until its user has two
 * finished jobs; from then on, min(requested time, the mean of the user's
 * last two runtimes rounded down to a whole second).  A user's runtimes
 * change at each termination, so the prediction of a job still waiting
 * changes with them (revises), and a job may outlive its prediction
 * (underpredicts: the engine then raises it to the requested time).  The
 * unknown user (-1) is one more user, as in pyss.
 */
#include "predictor.h"

#include "../sim/idmap.h"

#include <stdint.h>
#include <stdlib.h>

typedef struct user_runs {
    int32_t done;       /* finished jobs seen, capped at 2 */
    hsim_time_t last;   /* the latest runtime */
    hsim_time_t prev;   /* the one before it */
} user_runs_t;

/* Users numbered as their first job ends, their runs by number. */
typedef struct last2 {
    hsim_idmap_t users;
    user_runs_t *runs;  /* [users.n], room for cap */
    size_t cap;
} last2_t;

static int last2_create(const hsim_predictor_ctx_t *ctx, void **state)
{
    (void)ctx;
    last2_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    *state = s;
    return 0;
}

static void last2_destroy(void *state)
{
    last2_t *s = state;
    if (!s)
        return;
    hsim_idmap_free(&s->users);
    hsim_free(s->runs);
    hsim_free(s);
}

static hsim_time_t last2_predict(void *state, const hsim_job_t *job, hsim_time_t now)
{
    (void)now;
    const last2_t *s = state;
    int32_t u = hsim_idmap_find(&s->users, job->user);
    if (u < 0 || s->runs[u].done < 2)
        return job->estimate;
    hsim_time_t mean = (s->runs[u].last + s->runs[u].prev) / 2;
    mean -= mean % HSIM_SECOND; /* pyss: int((last + prev) / 2) in seconds */
    return mean < job->estimate ? mean : job->estimate;
}

static int last2_learn(void *state, const hsim_job_t *job, hsim_time_t ran, hsim_time_t now)
{
    (void)now;
    last2_t *s = state;
    int32_t u;
    size_t known = s->users.n;
    /* room first: a user numbered has its runs */
    if (hsim_grow(&s->runs, &s->cap, known + 1, sizeof *s->runs) ||
        hsim_idmap_number(&s->users, job->user, &u))
        return HSIM_ENOMEM;
    user_runs_t *r = &s->runs[u];
    if ((size_t)u == known) /* a new user */
        *r = (user_runs_t){0};
    r->prev = r->last;
    r->last = ran;
    if (r->done < 2)
        r->done++;
    return 0;
}

const hsim_predictor_t hsim_predictor_last2 = {
    .name = "last2",
    .summary = "the mean of the user's last two runtimes, at most the requested time "
               "(EASY++'s predictor)",
    .create = last2_create,
    .destroy = last2_destroy,
    .predict = last2_predict,
    .learn = last2_learn,
    .revises = 1,
    .underpredicts = 1,
};
