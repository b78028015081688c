/*
 * engine_faults.c - the engine's jobs that stop and wait: node failures
 * (failures.h), which stop the jobs of a node and hold it until its
 * repair, and dependencies (workloads/deps.h), which hold a job until its
 * parents end.  The event loop is engine.c's; see engine_run.h.
 */
#include "engine_run.h"

#include "../workloads/deps.h"

#include <string.h>

/* ---- node failures (failures.h) ----
   A down node is held whole in the ledger by no job: placement finds no
   room there, and the planner sees nothing of it free until it is up. */

/* The whole of node as one part of an allocation. */
static hsim_part_t whole_node(const run_t *r, int32_t node)
{
    const hsim_node_type_t *t = &r->cluster.types[r->cluster.nodes[node].type];
    return (hsim_part_t){.node = node, .cores = t->cores, .mem_mb = t->mem_mb,
                         .gpus = t->gpus, .gpu = -1, .fpgas = t->fpgas};
}

/* Does job's allocation use node? */
static int holds_node(const run_t *r, int32_t job, int32_t node)
{
    const hsim_alloc_t *a = &r->allocs[job];
    for (size_t i = 0; i < a->n; i++)
        if (a->parts[i].node == node)
            return 1;
    return 0;
}

/* Node fails now: the jobs on it stop and are submitted again (after the
   node is held, so that no decision puts them back on it); its repair is
   drawn.  0 or an error of a decision. */
int hsim__fail_node(run_t *r, int32_t node)
{
    if (r->down_since[node] >= 0)
        return 0;
    size_t n = 0;
    size_t i = r->ordered ? r->running_first : 0;
    for (; i < r->n_running; i++) {
        int32_t job = r->running[i].job;
        if (job >= 0 && holds_node(r, job, node))
            r->victims[n++] = job;
    }
    hsim_time_t *start = r->victim_start, *est = r->victim_est;
    for (size_t k = 0; k < n; k++) {
        int32_t job = r->victims[k];
        if (r->stats.starts[job] > HSIM_MAX_STOPS && !r->stopped) {
            /* (a policy that stops jobs, rr, may start one more often) */
            const hsim_job_t *j = &r->w->jobs[job];
            return hsim_errf(r->e, HSIM_EINPUT,
                             "job %lld was stopped by node failures %d times: its %d cores "
                             "for %lld s fail faster than it can run (expected a longer "
                             "mtbf, or on_failure = checkpoint)",
                             (long long)j->id, HSIM_MAX_STOPS, j->procs,
                             (long long)(hsim__reference_run(j) / HSIM_SECOND));
        }
        start[k] = r->out[job].start;
        est[k] = r->vjobs[job].estimate;
        hsim__stop_job(r, job,
                       r->fail->on_failure == HSIM_ON_FAILURE_CHECKPOINT ? HSIM_STOP_CHECKPOINT
                                                                          : HSIM_STOP_REQUEUE,
                       r->fail->restart_cost);
    }
    for (size_t w = 0; r->susp && w < r->n_waiting; w++)
        if (r->waiting[w] >= 0) /* suspended jobs with a part there */
            hsim__drop_hold(r, r->waiting[w], node);
    hsim_part_t part = whole_node(r, node);
    hsim_alloc_t hold = {.parts = &part, .n = 1};
    HSIM_ASSERT(hsim_part_fits(&r->cluster, &part));
    hsim_cluster_take(&r->cluster, &hold, r->now);
    if (r->planner)
        hsim_planner_sync(r->planner, &hold);
    r->down_since[node] = r->now;
    r->stats.failures++;
    int rc = 0;
    if (!r->fail->trace) {
        hsim_time_t up = r->now + hsim_failures_draw(r->fail, r->fail_rng, node,
                                                     r->fail_k[node]++);
        rc = hsim__push_event(r, up, HSIM_EV_REPAIR, node);
    }
    /* every stopped job waits before the policy hears of any: a policy
       that moves reservations when one ends (conservative) may move the
       others' */
    for (size_t k = 0; k < n && rc == 0; k++)
        rc = hsim__enqueue_job(r, r->victims[k]);
    for (size_t k = 0; k < n && rc == 0; k++) /* their orders' usage stops */
        rc = hsim__order_ended(r, r->victims[k], start[k]);
    const hsim_scheduler_t *s = r->cfg->scheduler;
    for (size_t k = 0; k < n && rc == 0 && s->ended; k++) {
        int32_t job = r->victims[k];
        hsim_time_t now_est = r->vjobs[job].estimate;
        r->vjobs[job].estimate = est[k]; /* what it was planned with */
        hsim__refresh_view(r);
        if (r->planner)
            hsim__settle_ending(r);
        rc = s->ended(r->sched_state, &r->view, job, start[k], start[k] + est[k], &r->decide);
        r->vjobs[job].estimate = now_est;
    }
    for (size_t k = 0; k < n && rc == 0; k++)
        rc = hsim__announce_job(r, r->victims[k]);
    return rc;
}

/* Node is up again: its resources come back, its next failure is drawn,
   and the queue policy runs a pass. */
int hsim__repair_node(run_t *r, int32_t node)
{
    if (r->down_since[node] < 0)
        return 0;
    hsim_part_t part = whole_node(r, node);
    hsim_alloc_t hold = {.parts = &part, .n = 1};
    hsim_cluster_give(&r->cluster, &hold, r->now);
    /* the hold made the node busy, which a node down is not (it held
       nothing else: its jobs stopped) */
    r->cluster.nodes[node].busy -= r->now - r->down_since[node];
    if (r->planner)
        hsim_planner_sync(r->planner, &hold);
    hsim_time_t from = r->down_since[node] > r->fail_origin ? r->down_since[node]
                                                            : r->fail_origin;
    if (r->now > from)
        r->down_total[node] += r->now - from;
    r->down_since[node] = -1;
    int rc = 0;
    if (!r->fail->trace)
        rc = hsim__push_event(r, r->now + hsim_failures_draw(r->fail, r->fail_rng, node,
                                                       r->fail_k[node]++),
                        HSIM_EV_FAIL, node);
    if (rc == 0 && r->n_deferred)
        rc = hsim__retry_deferred(r);
    if (rc)
        return rc;
    hsim__refresh_view(r);
    if (r->planner)
        hsim__settle_ending(r);
    if ((rc = hsim__order_pass(r)))
        return rc;
    return hsim__schedule_pass(r);
}

/* The failure state of a run, and its first events: every outage of a
   trace, or each node's first failure drawn.  0 or HSIM_ENOMEM. */
int hsim__setup_failures(run_t *r)
{
    const hsim_failures_t *f = r->cfg->failures;
    size_t n = r->n_jobs ? r->n_jobs : 1, nodes = r->cluster.n_nodes;
    r->fail = f;
    r->fail_rng = gsl_rng_alloc(gsl_rng_mt19937);
    r->fail_k = hsim_calloc(nodes, sizeof *r->fail_k);
    r->down_since = hsim_malloc(nodes * sizeof *r->down_since);
    r->down_total = hsim_calloc(nodes, sizeof *r->down_total);
    r->victims = hsim_malloc(n * sizeof *r->victims);
    r->victim_start = hsim_malloc(n * sizeof *r->victim_start);
    r->victim_est = hsim_malloc(n * sizeof *r->victim_est);
    if (!r->fail_rng || !r->fail_k || !r->down_since || !r->down_total || !r->victims ||
        !r->victim_start || !r->victim_est || hsim__setup_stops(r))
        return HSIM_ENOMEM;
    for (size_t i = 0; i < nodes; i++)
        r->down_since[i] = -1;
    r->fail_origin = r->n_jobs ? r->w->jobs[0].submit : 0;
    int rc = 0;
    for (size_t k = 0; f->trace && k < f->n_trace && rc == 0; k++) {
        const hsim_outage_t *o = &f->trace[k];
        HSIM_ASSERT(o->node >= 0 && (size_t)o->node < nodes);
        rc = hsim__push_event(r, o->down, HSIM_EV_FAIL, o->node);
        if (rc == 0)
            rc = hsim__push_event(r, o->up, HSIM_EV_REPAIR, o->node);
    }
    for (size_t i = 0; !f->trace && i < nodes && rc == 0; i++)
        if (f->type < 0 || r->cluster.nodes[i].type == f->type)
            rc = hsim__push_event(r, r->fail_origin + hsim_failures_draw(f, r->fail_rng, (int32_t)i,
                                                                   r->fail_k[i]++),
                            HSIM_EV_FAIL, (int32_t)i);
    return rc;
}

/* The failure figures at the end of a run; a down node's time down is not
   busy time.  O(nodes). */
void hsim__close_failures(run_t *r)
{
    double down = 0;
    for (size_t i = 0; i < r->cluster.n_nodes; i++) {
        hsim_time_t d = r->down_total[i];
        if (r->down_since[i] >= 0) {
            hsim_time_t from = r->down_since[i] > r->fail_origin ? r->down_since[i]
                                                                 : r->fail_origin;
            if (r->now > from)
                d += r->now - from;
            if (r->stats.node_busy && r->now > r->down_since[i])
                r->stats.node_busy[i] -= r->now - r->down_since[i];
        }
        down += (double)d / HSIM_SECOND;
    }
    r->stats.down_node_s = down;
    double span = (double)(r->now - r->fail_origin) / HSIM_SECOND * (double)r->cluster.n_nodes;
    r->stats.availability = span > 0 ? 1 - down / span : 1;
}

/* Is ev a termination or expiry that a failure made hsim__stale_event? */
int hsim__stale_event(const run_t *r, const hsim_event_t *ev)
{
    if (ev->kind == HSIM_EV_END)
        return r->end_seq[ev->job] != ev->seq;
    if (ev->kind == HSIM_EV_EXPIRY)
        return r->expiry_seq[ev->job] != ev->seq;
    return 0;
}

/* Dependencies: each job's count of parents to wait for, and the
   earliest submission they allow so far.  0 or HSIM_ENOMEM. */
int hsim__setup_deps(run_t *r)
{
    const hsim_deps_t *d = r->w->deps;
    size_t n = r->n_jobs;
    HSIM_ASSERT(d->n_jobs == n);
    r->parents_left = hsim_malloc((n ? n : 1) * sizeof *r->parents_left);
    r->ready_at = hsim_malloc((n ? n : 1) * sizeof *r->ready_at);
    if (!r->parents_left || !r->ready_at)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        r->parents_left[i] = d->n_parents[i];
        /* an SWF predecessor alone sets the submission (think time after
           its end); other edges only hold the job past its own submit */
        r->ready_at[i] = d->feedback[i] ? 0 : r->w->jobs[i].submit;
    }
    return 0;
}

/* Job has ended: each child that waited for it alone is submitted think
   seconds later at the earliest (an event on the heap).  0 or
   HSIM_ENOMEM.  O(children). */
int hsim__release_children(run_t *r, int32_t job)
{
    const hsim_deps_t *d = r->w->deps;
    for (size_t k = d->child_first[job]; k < d->child_first[job + 1]; k++) {
        int32_t c = d->child[k];
        hsim_time_t at = r->now + d->think[k];
        if (at > r->ready_at[c])
            r->ready_at[c] = at;
        HSIM_ASSERT(r->parents_left[c] > 0);
        if (--r->parents_left[c] == 0) {
            if (r->ready_at[c] > HSIM_HORIZON)
                return hsim__past_horizon(r, c, "submission");
            int rc = hsim__push_event(r, r->ready_at[c], HSIM_EV_SUBMIT, c);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* A job whose parents have all ended is submitted now. */
int hsim__submit_dependent(run_t *r, int32_t job)
{
    r->out[job].submit_shift = r->now - r->w->jobs[job].submit;
    r->vjobs[job].submit = r->now;
    return hsim__submit_job(r, job);
}

