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

#include <stdint.h>
#include <stdlib.h>

typedef struct user_runs {
    int32_t user;
    int32_t done;       /* finished jobs seen, capped at 2; 0 = empty slot */
    hsim_time_t last;   /* the latest runtime */
    hsim_time_t prev;   /* the one before it */
} user_runs_t;

/* Users by id, open addressing with linear probing; at most half full. */
typedef struct last2 {
    user_runs_t *slots;
    size_t cap;         /* a power of two */
    size_t n;
} last2_t;

static size_t slot_of(const last2_t *s, int32_t user)
{
    uint64_t h = (uint64_t)(uint32_t)user * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(h >> 32) & (s->cap - 1);
    while (s->slots[i].done && s->slots[i].user != user)
        i = (i + 1) & (s->cap - 1);
    return i;
}

static int last2_create(const hsim_predictor_ctx_t *ctx, void **state)
{
    (void)ctx;
    last2_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    s->cap = 64;
    s->slots = hsim_calloc(s->cap, sizeof *s->slots);
    if (!s->slots) {
        hsim_free(s);
        return HSIM_ENOMEM;
    }
    *state = s;
    return 0;
}

static void last2_destroy(void *state)
{
    last2_t *s = state;
    if (s)
        hsim_free(s->slots);
    hsim_free(s);
}

static hsim_time_t last2_predict(void *state, const hsim_job_t *job, hsim_time_t now)
{
    (void)now;
    const last2_t *s = state;
    const user_runs_t *u = &s->slots[slot_of(s, job->user)];
    if (u->done < 2)
        return job->estimate;
    hsim_time_t mean = (u->last + u->prev) / 2;
    mean -= mean % HSIM_SECOND; /* pyss: int((last + prev) / 2) in seconds */
    return mean < job->estimate ? mean : job->estimate;
}

/* Doubles the table.  0 or HSIM_ENOMEM (the table is unchanged then). */
static int grow(last2_t *s)
{
    last2_t bigger = {.cap = s->cap * 2, .n = s->n};
    bigger.slots = hsim_calloc(bigger.cap, sizeof *bigger.slots);
    if (!bigger.slots)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i].done)
            bigger.slots[slot_of(&bigger, s->slots[i].user)] = s->slots[i];
    hsim_free(s->slots);
    *s = bigger;
    return 0;
}

static int last2_learn(void *state, const hsim_job_t *job, hsim_time_t ran, hsim_time_t now)
{
    (void)now;
    last2_t *s = state;
    if (2 * (s->n + 1) > s->cap && grow(s))
        return HSIM_ENOMEM;
    user_runs_t *u = &s->slots[slot_of(s, job->user)];
    if (!u->done) {
        u->user = job->user;
        s->n++;
    }
    u->prev = u->last;
    u->last = ran;
    if (u->done < 2)
        u->done++;
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
