/*
 * backfill_conservative.c - conservative backfilling (Mu'alem and Feitelson
 * 2001; pyss semantics).
 *
 * At its submission a job is placed at the earliest time at which it fits
 * for its whole estimate in the profile of running jobs and of all earlier
 * reservations; it starts when that time comes (a start event, even when
 * the time is now).  After each termination the job's unused estimate is
 * released and every waiting job, in queue order, is taken out and placed
 * again at its earliest fit: never later than before, so no reservation is
 * ever delayed.
 *
 * Cost: a placement is O(breakpoints); a termination re-places the whole
 * queue, O(queue x breakpoints).  A job that cannot move is left in place
 * without touching the profile.
 */
#include "profile.h"
#include "queue.h"

typedef struct cons {
    hsim_profile_t profile;   /* running jobs and reservations */
    hsim_queue_t queue;       /* jobs whose reserved start is in the future */
    hsim_time_t *at;          /* reserved start, by job index */
    int ready;                /* profile initialised */
} cons_t;

static int cons_create(const hsim_policy_params_t *p, void **state)
{
    cons_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    s->at = hsim_calloc(p->n_jobs, sizeof *s->at);
    if (!s->at || hsim_profile_init(&s->profile, p->capacity, 0)) {
        hsim_free(s->at);
        hsim_free(s);
        return HSIM_ENOMEM;
    }
    hsim_queue_init(&s->queue, p->order);
    *state = s;
    return 0;
}

static void cons_destroy(void *state)
{
    cons_t *s = state;
    hsim_profile_free(&s->profile);
    hsim_queue_free(&s->queue);
    hsim_free(s->at);
    hsim_free(s);
}

static int place(cons_t *s, const hsim_view_t *v, int32_t job, const hsim_decide_t *d)
{
    const hsim_vjob_t *j = &v->jobs[job];
    hsim_time_t t = hsim_profile_earliest(&s->profile, v->now, j->procs, j->estimate);
    int rc = hsim_profile_add(&s->profile, t, t + j->estimate, -j->procs);
    if (rc)
        return rc;
    s->at[job] = t;
    return d->reserve(d->ctx, job, t);
}

static int cons_submitted(void *state, const hsim_view_t *v, int32_t job,
                          const hsim_decide_t *d)
{
    cons_t *s = state;
    if (!s->ready) {
        /* the profile starts at the first submission: times may be < 0 */
        hsim_profile_free(&s->profile);
        if (hsim_profile_init(&s->profile, v->capacity, v->now))
            return HSIM_ENOMEM;
        s->ready = 1;
    }
    hsim_profile_trim(&s->profile, v->now);
    int rc = hsim_queue_insert(&s->queue, v->jobs, job, v->now);
    if (rc)
        return rc;
    return place(s, v, job, d);
}

/*
 * Can job (reserved at 'at') start earlier than at?  Scans the profile as
 * if the job's own reservation were gone, from now up to at; returns the
 * earliest such time, or at when there is none.  O(breakpoints before
 * at + estimate).
 */
static hsim_time_t earlier_fit(const hsim_profile_t *p, hsim_time_t now, hsim_time_t at,
                               int32_t procs, hsim_time_t dur)
{
    hsim_time_t own_end = at + dur;
    size_t lo = 0, hi = p->n; /* the step holding now */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->t[mid] <= now)
            lo = mid;
        else
            hi = mid;
    }
    size_t i = lo;
    hsim_time_t pos = now, cand = now;
    /* Walk segments cut at the breakpoints and at the job's own bounds
       (merging may have removed the breakpoints there). */
    while (cand < at) {
        hsim_time_t step_end = i + 1 < p->n ? p->t[i + 1] : HSIM_TIME_MAX;
        hsim_time_t seg_end = step_end;
        if (pos < at && at < seg_end)
            seg_end = at;
        else if (pos < own_end && own_end < seg_end)
            seg_end = own_end;
        int32_t f = p->free[i];
        if (pos >= at && pos < own_end)
            f += procs; /* the job's own reservation, taken out */
        if (f < procs)
            cand = seg_end;
        else if (seg_end == HSIM_TIME_MAX || cand + dur <= seg_end)
            return cand;
        pos = seg_end;
        if (pos >= step_end)
            i++;
    }
    return at;
}

static int cons_ended(void *state, const hsim_view_t *v, int32_t job,
                      hsim_time_t start, hsim_time_t est_end, const hsim_decide_t *d)
{
    (void)start;
    cons_t *s = state;
    int rc;
    hsim_profile_trim(&s->profile, v->now);
    if (est_end > v->now) {
        rc = hsim_profile_add(&s->profile, v->now, est_end, v->jobs[job].procs);
        if (rc)
            return rc;
    }
    hsim_queue_t *q = &s->queue;
    hsim_queue_tidy(q);
    for (size_t i = q->first; i < q->n; i++) {
        int32_t w = q->ids[i];
        if (w < 0)
            continue;
        if (s->at[w] <= v->now) {
            /* its start is due now or has happened: fixed */
            hsim_queue_remove_at(q, i);
            continue;
        }
        const hsim_vjob_t *j = &v->jobs[w];
        hsim_time_t t = earlier_fit(&s->profile, v->now, s->at[w], j->procs, j->estimate);
        if (t == s->at[w])
            continue;
        HSIM_ASSERT(t < s->at[w]);
        rc = hsim_profile_add(&s->profile, s->at[w], s->at[w] + j->estimate, j->procs);
        if (rc == 0)
            rc = hsim_profile_add(&s->profile, t, t + j->estimate, -j->procs);
        if (rc)
            return rc;
        s->at[w] = t;
        rc = d->reserve(d->ctx, w, t);
        if (rc)
            return rc;
    }
    return 0;
}

static int cons_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    (void)state;
    (void)v;
    (void)d;
    return 0; /* every decision is a reservation made on submission or end */
}

const hsim_scheduler_t hsim_sched_conservative = {
    .name = "conservative",
    .summary = "conservative backfilling: every job gets a reservation that never moves later",
    .create = cons_create,
    .destroy = cons_destroy,
    .submitted = cons_submitted,
    .ended = cons_ended,
    .schedule = cons_schedule,
};
