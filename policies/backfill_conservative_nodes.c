/*
 * backfill_conservative_nodes.c - conservative backfilling on a cluster of
 * nodes: every job is booked, at its submission, at the earliest time at
 * which it fits node by node for its whole estimate beside the running
 * jobs and every booking already made (hsim_plan_earliest()); the nodes
 * the placement policy chose there are booked with it, and the job starts
 * on them when its time comes.  After each termination every waiting job,
 * in queue order, is offered an earlier window; it moves only to one that
 * starts before its booking, so no booking ever moves later, and with
 * exact estimates on nodes of speed 1 every job starts when it was first
 * booked or earlier.
 *
 * Assumption: a booking's nodes stay free for it.  They do: every other
 * booking and every backfilled start was planned around it, and running
 * jobs end by their estimated ends.  A start that still finds them taken
 * (a job that outlived its booking) is placed by the policy, or waits.
 *
 * Cost: a plan question per job at its submission and per waiting job at
 * each termination (see hsim_plan_earliest()); the plan's totals of cores
 * and GPUs pass over most windows without a look at the nodes.
 */
#include "backfill_nodes.h"

#include "queue.h"

#include "../sim/planner.h"

struct hsim_cons_nodes {
    hsim_plan_t *plan;
    hsim_queue_t queue;   /* waiting jobs booked in the future, queue order */
    hsim_booking_t found; /* the last answer of the plan */
    int changed;          /* the last pass moved a booking or laid one out
                             again: the jobs before it in the queue may
                             move now */
};

int hsim_cons_nodes_create(const hsim_policy_params_t *p, hsim_cons_nodes_t **out)
{
    hsim_cons_nodes_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    if (hsim_plan_create(p->planner, &s->plan)) {
        hsim_free(s);
        return HSIM_ENOMEM;
    }
    hsim_queue_init(&s->queue, p->order, p->order_state);
    *out = s;
    return 0;
}

void hsim_cons_nodes_destroy(hsim_cons_nodes_t *s)
{
    hsim_plan_destroy(s->plan);
    hsim_queue_free(&s->queue);
    hsim_booking_free(&s->found);
    hsim_free(s);
}

/* Books s->found for job and reserves its start there; the bookings the
   plan laid out again on other nodes to make room keep their times. */
static int book_found(hsim_cons_nodes_t *s, int32_t job, const hsim_decide_t *d)
{
    hsim_time_t at = s->found.at;
    int rc = hsim_plan_book(s->plan, job, &s->found);
    if (rc || (rc = d->reserve_on(d->ctx, job, at, &hsim_plan_booking(s->plan, job)->alloc)))
        return rc;
    const int32_t *moved;
    size_t n = hsim_plan_repinned(s->plan, &moved);
    if (n)
        s->changed = 1;
    for (size_t i = 0; i < n; i++) {
        const hsim_booking_t *b = hsim_plan_booking(s->plan, moved[i]);
        if ((rc = d->reserve_on(d->ctx, moved[i], b->at, &b->alloc)))
            return rc;
    }
    return 0;
}

int hsim_cons_nodes_submitted(hsim_cons_nodes_t *s, const hsim_view_t *v, int32_t job,
                              const hsim_decide_t *d)
{
    int rc = hsim_queue_insert(&s->queue, v->jobs, job, v->now);
    if (rc)
        return rc;
    rc = hsim_plan_earliest(s->plan, v, job, HSIM_TIME_MAX, &s->found);
    if (rc == HSIM_NOFIT) /* no layout of the policy's, even on an idle
                             cluster: the engine's fallback places it when
                             the cluster is idle */
        return d->reserve(d->ctx, job, v->now);
    if (rc)
        return rc;
    return book_found(s, job, d);
}

int hsim_cons_nodes_ended(hsim_cons_nodes_t *s, const hsim_view_t *v, int32_t job,
                          const hsim_decide_t *d)
{
    hsim_time_t now = v->now;
    const hsim_booking_t *mine = hsim_plan_booking(s->plan, job);
    int gave_back = mine && mine->end > now; /* it ended before its estimate */
    int rc = hsim_plan_ended(s->plan, job, now);
    if (rc)
        return rc;
    /* Nothing given back, and the last pass changed nothing: every job was
       looked at in the plan as it is, and none could move (with exact
       estimates, most terminations). */
    if (!gave_back && !s->changed)
        return 0;
    s->changed = 0;
    hsim_queue_t *q = &s->queue;
    hsim_queue_tidy(q);
    for (size_t i = q->first; i < q->n; i++) {
        int32_t w = q->ids[i];
        if (w < 0)
            continue;
        const hsim_booking_t *b = hsim_plan_booking(s->plan, w);
        if (!b || b->at <= now) {
            /* its start is due now or has passed: fixed */
            hsim_queue_remove_at(q, i);
            continue;
        }
        rc = hsim_plan_earliest(s->plan, v, w, b->at - 1, &s->found);
        if (rc == HSIM_NOFIT)
            continue; /* no earlier window: it keeps its booking */
        s->changed = 1;
        if (rc || (rc = book_found(s, w, d)))
            return rc;
    }
    return 0;
}
