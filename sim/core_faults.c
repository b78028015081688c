/*
 * core_faults.c - node failures in the ledger (failures.h): a failure
 * stops the jobs of a node and holds it until its repair.  When nodes
 * fail is the driver's to say (the event engine draws it, or reads an
 * outage trace); see core_run.h.
 */
#include "core_run.h"

#include <string.h>

/* ---- node failures (failures.h) ----
   A down node is held whole in the ledger by no job: placement finds no
   room there, and the planner sees nothing of it free until it is up. */

/* The whole of node as one part of an allocation. */
static hsim_part_t whole_node(const hsim_core_t *c, int32_t node)
{
    const hsim_node_type_t *t = &c->cluster.types[c->cluster.nodes[node].type];
    return (hsim_part_t){.node = node, .cores = t->cores, .mem_mb = t->mem_mb,
                         .gpus = t->gpus, .gpu = -1, .fpgas = t->fpgas};
}

/* Does job's allocation use node? */
static int holds_node(const hsim_core_t *c, int32_t job, int32_t node)
{
    const hsim_alloc_t *a = &c->allocs[job];
    for (size_t i = 0; i < a->n; i++)
        if (a->parts[i].node == node)
            return 1;
    return 0;
}

/* Node fails now: the jobs on it stop and are submitted again (after the
   node is held, so that no decision puts them back on it); its repair is
   drawn.  0 or an error of a decision. */
int hsim_core_node_down(const hsim_core_t *c, int32_t node)
{
    return c->down_since && c->down_since[node] >= 0;
}

/* The error for a node the driver names that the run has not. */
static int bad_node(hsim_core_t *c, int32_t node)
{
    if (c->down_since && node >= 0 && (size_t)node < c->cluster.n_nodes)
        return 0;
    return hsim_errf(c->e, HSIM_EINPUT, "driver error: failure or repair of node %d, which "
                     "is not a node of a run with failures", node);
}

int hsim_core_fail_node(hsim_core_t *c, int32_t node)
{
    int rc = bad_node(c, node);
    if (rc || c->down_since[node] >= 0)
        return rc;
    hsim__refresh_view(c);
    size_t n = 0;
    size_t i = c->ordered ? c->running_first : 0;
    for (; i < c->n_running; i++) {
        int32_t job = c->running[i].job;
        if (job >= 0 && holds_node(c, job, node))
            c->victims[n++] = job;
    }
    hsim_time_t *start = c->victim_start, *est = c->victim_est;
    for (size_t k = 0; k < n; k++) {
        int32_t job = c->victims[k];
        if (c->stats.starts[job] > HSIM_MAX_STOPS && !c->stopped) {
            /* (a policy that stops jobs, rr, may start one more often) */
            const hsim_job_t *j = c->job[job];
            hsim_time_t run = c->drv.work ? c->drv.work(c->drv.arg, job) : -1;
            return hsim_errf(c->e, HSIM_EINPUT,
                             "job %lld was stopped by node failures %d times: its %d cores "
                             "for %lld s fail faster than it can run (expected a longer "
                             "mtbf, or on_failure = checkpoint)",
                             (long long)j->id, HSIM_MAX_STOPS, j->procs,
                             (long long)((run >= 0 ? run : j->estimate) / HSIM_SECOND));
        }
        start[k] = c->start[job];
        est[k] = c->vjobs[job].estimate;
        int mode = c->fail->on_failure == HSIM_ON_FAILURE_CHECKPOINT ? HSIM_STOP_CHECKPOINT
                                                                      : HSIM_STOP_REQUEUE;
        if ((rc = hsim__stop_job(c, job, mode, c->fail->restart_cost)))
            return rc;
    }
    for (size_t w = 0; c->susp && w < c->n_waiting; w++)
        if (c->waiting[w] >= 0) /* suspended jobs with a part there */
            hsim__drop_hold(c, c->waiting[w], node);
    hsim_part_t part = whole_node(c, node);
    hsim_alloc_t hold = {.parts = &part, .n = 1};
    HSIM_ASSERT(hsim_part_fits(&c->cluster, &part));
    hsim_cluster_take(&c->cluster, &hold, c->now);
    if (c->planner)
        hsim_planner_sync(c->planner, &hold);
    c->down_since[node] = c->now;
    c->stats.failures++;
    /* every stopped job waits before the policy hears of any: a policy
       that moves reservations when one ends (conservative) may move the
       others' */
    for (size_t k = 0; k < n && rc == 0; k++)
        rc = hsim__enqueue_job(c, c->victims[k]);
    for (size_t k = 0; k < n && rc == 0; k++) /* their orders' usage stops */
        rc = hsim__order_ended(c, c->victims[k], start[k]);
    const hsim_scheduler_t *s = c->cfg->scheduler;
    for (size_t k = 0; k < n && rc == 0 && s->ended; k++) {
        int32_t job = c->victims[k];
        hsim_time_t now_est = c->vjobs[job].estimate;
        c->vjobs[job].estimate = est[k]; /* what it was planned with */
        hsim__refresh_view(c);
        if (c->planner)
            hsim__settle_ending(c);
        rc = s->ended(c->sched_state, &c->view, job, start[k], start[k] + est[k], &c->decide);
        c->vjobs[job].estimate = now_est;
    }
    for (size_t k = 0; k < n && rc == 0; k++)
        rc = hsim__announce_job(c, c->victims[k]);
    return rc;
}

/* Node is up again: its resources come back, its next failure is drawn,
   and the queue policy runs a pass. */
int hsim_core_repair_node(hsim_core_t *c, int32_t node)
{
    int rc = bad_node(c, node);
    if (rc || c->down_since[node] < 0)
        return rc;
    hsim__refresh_view(c);
    hsim_part_t part = whole_node(c, node);
    hsim_alloc_t hold = {.parts = &part, .n = 1};
    hsim_cluster_give(&c->cluster, &hold, c->now);
    /* the hold made the node busy, which a node down is not (it held
       nothing else: its jobs stopped) */
    c->cluster.nodes[node].busy -= c->now - c->down_since[node];
    if (c->planner)
        hsim_planner_sync(c->planner, &hold);
    hsim_time_t from = c->down_since[node] > c->fail_origin ? c->down_since[node]
                                                            : c->fail_origin;
    if (c->now > from)
        c->down_total[node] += c->now - from;
    c->down_since[node] = -1;
    if (c->n_deferred)
        rc = hsim__retry_deferred(c);
    if (rc)
        return rc;
    hsim__refresh_view(c);
    if (c->planner)
        hsim__settle_ending(c);
    if ((rc = hsim__order_pass(c)))
        return rc;
    return hsim__schedule_pass(c);
}

/* The failure state of a run.  0 or HSIM_ENOMEM. */
int hsim__setup_failures(hsim_core_t *c)
{
    size_t nodes = c->cluster.n_nodes;
    c->fail = c->cfg->failures;
    c->down_since = hsim_malloc(nodes * sizeof *c->down_since);
    c->down_total = hsim_calloc(nodes, sizeof *c->down_total);
    if (!c->down_since || !c->down_total ||
        hsim__keep_table(c, &c->victims, sizeof *c->victims) ||
        hsim__keep_table(c, &c->victim_start, sizeof *c->victim_start) ||
        hsim__keep_table(c, &c->victim_est, sizeof *c->victim_est) || hsim__setup_stops(c))
        return HSIM_ENOMEM;
    for (size_t i = 0; i < nodes; i++)
        c->down_since[i] = -1;
    return 0;
}

/* The failure figures at the end of a run; a down node's time down is not
   busy time.  O(nodes). */
void hsim__close_failures(hsim_core_t *c)
{
    double down = 0;
    for (size_t i = 0; i < c->cluster.n_nodes; i++) {
        hsim_time_t d = c->down_total[i];
        if (c->down_since[i] >= 0) {
            hsim_time_t from = c->down_since[i] > c->fail_origin ? c->down_since[i]
                                                                 : c->fail_origin;
            if (c->now > from)
                d += c->now - from;
            if (c->stats.node_busy && c->now > c->down_since[i])
                c->stats.node_busy[i] -= c->now - c->down_since[i];
        }
        down += (double)d / HSIM_SECOND;
    }
    c->stats.down_node_s = down;
    double span = (double)(c->now - c->fail_origin) / HSIM_SECOND * (double)c->cluster.n_nodes;
    c->stats.availability = span > 0 ? 1 - down / span : 1;
}
