/*
 * backfill_none.c - no backfilling: start jobs in queue order while the
 * first one fits; the first that does not fit blocks all behind it.
 */
#include "queue.h"

static int none_create(const hsim_policy_params_t *p, void **state)
{
    hsim_queue_t *q = hsim_malloc(sizeof *q);
    if (!q)
        return HSIM_ENOMEM;
    hsim_queue_init(q, p->order);
    *state = q;
    return 0;
}

static void none_destroy(void *state)
{
    hsim_queue_free(state);
    hsim_free(state);
}

static int none_submitted(void *state, const hsim_view_t *v, int32_t job,
                          const hsim_decide_t *d)
{
    (void)d;
    return hsim_queue_insert(state, v->jobs, job, v->now);
}

static int none_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    hsim_queue_t *q = state;
    hsim_queue_tidy(q);
    if (q->order->time_dependent) {
        int rc = hsim_queue_resort(q, v->jobs, v->now);
        if (rc)
            return rc;
    }
    int32_t free_now = hsim_view_free_now(v);
    while (hsim_queue_size(q)) {
        size_t i = q->first;
        int32_t job = q->ids[i];
        if (v->jobs[job].procs > free_now)
            break;
        int rc = d->start(d->ctx, job);
        if (rc == HSIM_NOFIT)
            break; /* the processors are free, but no node can hold it */
        if (rc)
            return rc;
        free_now -= v->jobs[job].procs;
        hsim_queue_remove_at(q, i);
    }
    return 0;
}

const hsim_scheduler_t hsim_sched_none = {
    .name = "none",
    .summary = "no backfilling: the first job that does not fit blocks the queue",
    .create = none_create,
    .destroy = none_destroy,
    .submitted = none_submitted,
    .schedule = none_schedule,
    .running_any_order = 1,
};
