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
    hsim_queue_init(q, p->order, p->order_state);
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
    int32_t free_now;
    return hsim_queue_start_head(q, v, d, &free_now);
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
