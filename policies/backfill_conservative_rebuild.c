/*
 * backfill_conservative_rebuild.c - conservative backfilling under a queue
 * order that changes with time (aging, fair share, wfp3, ...): at every
 * pass the whole plan is made again.  The waiting jobs are sorted by the
 * order as it stands now, and each in turn is given the earliest window in
 * which it fits for its whole estimate beside the running jobs (until
 * their estimated ends) and the windows given before it; a job whose
 * window starts now starts.
 *
 * What it keeps of conservative backfilling: every waiting job holds a
 * reservation, and no job is started ahead of one that the order ranks
 * higher if that would delay the higher one's reservation as planned in
 * the same pass.  What it gives up: the guarantee that a reservation
 * never moves later.  A job that the order ranks higher (it has waited
 * longer, or its user used less) may take a window that a lower one held
 * at the last pass.  With a time-dependent order that is the point: the
 * order decides who goes first, and a fixed plan would ignore it.
 *
 * Cost: per pass, a sort of the waiting jobs and one window search per
 * job: O(W log W + W x steps) on a pool, W plan questions on a cluster of
 * nodes.  Far more than conservative's own passes; meant for traces of
 * moderate queues (KTH-SP2's reach a few hundred jobs).
 */
#include "backfill_nodes.h"
#include "profile.h"
#include "queue.h"

struct hsim_cons_rebuild {
    hsim_policy_params_t params;    /* the scheduler's, copied */
    hsim_profile_t profile;         /* on a pool: running jobs and windows */
    int profile_ready;
    hsim_cons_nodes_t *nodes;       /* on a cluster: this pass's plan */
    int32_t *ids;                   /* the waiting jobs, sorted */
    size_t cap;
};

int hsim_cons_rebuild_create(const hsim_policy_params_t *p, hsim_cons_rebuild_t **out)
{
    hsim_cons_rebuild_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    s->params = *p;
    *out = s;
    return 0;
}

void hsim_cons_rebuild_destroy(hsim_cons_rebuild_t *s)
{
    if (s->profile_ready)
        hsim_profile_free(&s->profile);
    if (s->nodes)
        hsim_cons_nodes_destroy(s->nodes);
    hsim_free(s->ids);
    hsim_free(s);
}

/* On a pool: a profile of the running jobs, then a window for each job. */
static int pass_pool(hsim_cons_rebuild_t *s, const hsim_view_t *v, size_t n,
                     const hsim_decide_t *d)
{
    if (s->profile_ready)
        hsim_profile_free(&s->profile);
    s->profile_ready = 0;
    if (hsim_profile_init(&s->profile, v->capacity, v->now))
        return HSIM_ENOMEM;
    s->profile_ready = 1;
    for (size_t i = 0; i < v->n_running; i++) {
        const hsim_running_t *r = &v->running[i];
        if (r->job >= 0 && r->est_end > v->now &&
            hsim_profile_add(&s->profile, v->now, r->est_end, -r->procs))
            return HSIM_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        const hsim_vjob_t *j = &v->jobs[s->ids[i]];
        hsim_time_t t = hsim_profile_earliest(&s->profile, v->now, j->procs, j->estimate);
        int rc = hsim_profile_add(&s->profile, t, t + j->estimate, -j->procs);
        if (rc || (rc = d->reserve(d->ctx, s->ids[i], t)))
            return rc;
    }
    return 0;
}

/* On a cluster of nodes: a new plan, each job booked in turn. */
static int pass_nodes(hsim_cons_rebuild_t *s, const hsim_view_t *v, size_t n,
                      const hsim_decide_t *d)
{
    if (s->nodes)
        hsim_cons_nodes_destroy(s->nodes);
    s->nodes = NULL;
    int rc = hsim_cons_nodes_create(&s->params, &s->nodes);
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = hsim_cons_nodes_submitted(s->nodes, v, s->ids[i], d);
    return rc;
}

int hsim_cons_rebuild_pass(hsim_cons_rebuild_t *s, const hsim_view_t *v,
                           const hsim_decide_t *d)
{
    size_t n;
    int rc = hsim_waiting_sorted(v, s->params.order, s->params.order_state, &s->ids, &s->cap,
                                 &n);
    if (rc)
        return rc;
    return s->params.planner ? pass_nodes(s, v, n, d) : pass_pool(s, v, n, d);
}
