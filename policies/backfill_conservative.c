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
 * Cost: a placement is O(breakpoints).  A termination visits the whole
 * queue; a job is only scanned for an earlier fit when the profile has
 * enough free processors for it somewhere before its reservation (a binary
 * search in the profile's running maximum), and the scan starts there.  A
 * job that cannot move is left in place without touching the profile.
 */
#include "profile.h"
#include "queue.h"

/* A stretch of time where processors were given back: [from, to). */
typedef struct span {
    hsim_time_t from, to;
} span_t;

typedef struct cons {
    hsim_profile_t profile;   /* running jobs and reservations */
    hsim_queue_t queue;       /* jobs whose reserved start is in the future */
    hsim_time_t *at;          /* reserved start, by job index */
    int ready;                /* profile initialised */
    span_t *moved;            /* slots vacated by the last compression */
    size_t n_moved, cap_moved;
    span_t *moving;           /* slots vacated by this compression */
    size_t n_moving, cap_moving;
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
    hsim_free(s->moved);
    hsim_free(s->moving);
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
 * if the job's own reservation were gone, from 'now' (any time before which
 * it cannot start) up to at; returns the earliest such time, or at when
 * there is none.  O(breakpoints before at + estimate).
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

/* Most processors free anywhere in [from, to) from now on; 0 if empty. */
static int32_t max_free_from(const hsim_profile_t *p, hsim_time_t now, hsim_time_t from,
                             hsim_time_t to)
{
    if (from < now)
        from = now;
    return from < to ? hsim_profile_max_free(p, from, to) : 0;
}

/*
 * The compression pass.  Which jobs can move?  A job was at its earliest
 * fit when it was last placed or looked at; since then its candidate
 * windows only lost processors, except where processors were given back:
 * this termination's unused estimate, and the slots vacated by jobs that
 * moved in this pass or after it in the last one.  A window that became
 * feasible holds such a point, with at least the job's processors free
 * there now.  So bound = the most processors free now in any of those
 * stretches is an upper bound for what can move, and the queue's min-tree
 * skips every wider job without looking at it.  bound only grows during
 * the pass (each move gives back a slot), so it stays an upper bound.
 */
static int cons_ended(void *state, const hsim_view_t *v, int32_t job,
                      hsim_time_t start, hsim_time_t est_end, const hsim_decide_t *d)
{
    (void)start;
    cons_t *s = state;
    hsim_profile_t *p = &s->profile;
    hsim_time_t now = v->now;
    int rc = 0;
    hsim_profile_trim(p, now);
    int32_t bound = 0;
    if (est_end > now) {
        if ((rc = hsim_profile_add(p, now, est_end, v->jobs[job].procs)))
            return rc;
        bound = max_free_from(p, now, now, est_end);
    }
    for (size_t k = 0; k < s->n_moved; k++) {
        int32_t f = max_free_from(p, now, s->moved[k].from, s->moved[k].to);
        if (f > bound)
            bound = f;
    }
    s->n_moving = 0;
    hsim_queue_t *q = &s->queue;
    hsim_queue_tidy(q);
    long i = bound ? hsim_queue_find_backfill(q, q->first, bound, bound, 0, &rc) : -1;
    while (i >= 0) {
        int32_t w = q->ids[i];
        const hsim_vjob_t *j = &v->jobs[w];
        hsim_time_t at = s->at[w];
        if (at <= now) {
            /* its start is due now or has happened: fixed */
            hsim_queue_remove_at(q, (size_t)i);
        } else {
            hsim_time_t t = earlier_fit(p, now, at, j->procs, j->estimate);
            if (t < at) {
                if ((rc = hsim_profile_add(p, at, at + j->estimate, j->procs)) ||
                    (rc = hsim_profile_add(p, t, t + j->estimate, -j->procs)) ||
                    (rc = hsim_grow(&s->moving, &s->cap_moving, s->n_moving + 1,
                                    sizeof *s->moving)))
                    return rc;
                s->moving[s->n_moving++] = (span_t){at, at + j->estimate};
                int32_t f = max_free_from(p, now, at, at + j->estimate);
                if (f > bound)
                    bound = f;
                s->at[w] = t;
                if ((rc = d->reserve(d->ctx, w, t)))
                    return rc;
            }
        }
        i = hsim_queue_find_backfill(q, (size_t)i + 1, bound, bound, 0, &rc);
    }
    if (rc)
        return rc;
    /* this pass's vacated slots are looked at again by the next one */
    span_t *tmp = s->moved;
    size_t cap = s->cap_moved;
    s->moved = s->moving;
    s->cap_moved = s->cap_moving;
    s->n_moved = s->n_moving;
    s->moving = tmp;
    s->cap_moving = cap;
    s->n_moving = 0;
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
