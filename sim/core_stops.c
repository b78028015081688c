/*
 * core_stops.c - the core's jobs that stop and come back: the stop of
 * a running job (by a node failure, core_faults.c, or by a policy's
 * stop() decision), its resume, the scheduler's timer (wake()) and the
 * scheduling pass with the preemption pass before it (policies/preempt.h).
 *
 * A stopped job keeps its identity: it is back in the queue under its own
 * index, the driver forgets its run (hsim_driver_t's stopped()), and what is left of it is its reference run less the work kept (done[])
 * plus the cost of its next start (cost[]).  A suspended job on a cluster
 * gives back its whole allocation and takes its memory again at once, as
 * a hold of memory alone in allocs[]; its whole allocation waits in susp[]
 * for its resume, on the same nodes.  The ledger thus counts a hold like a
 * job's parts, and the invariant check sees it among the waiting jobs.
 */
#include "core_run.h"

#include "../policies/preempt.h"

#include <math.h>
#include <string.h>

/* The arrays of jobs that stop: allocated once for failures and
   preemption alike.  0 or HSIM_ENOMEM. */
int hsim__setup_stops(hsim_core_t *c)
{
    if (c->stops)
        return 0;
    if (hsim__keep_table(c, &c->done, sizeof *c->done) ||
        hsim__keep_table(c, &c->cost, sizeof *c->cost) ||
        hsim__keep_table(c, &c->stats.starts, sizeof *c->stats.starts) ||
        hsim__keep_table(c, &c->stats.lost, sizeof *c->stats.lost))
        return HSIM_ENOMEM;
    c->stops = 1;
    if (!c->cfg->preempt && !c->cfg->scheduler->stops_jobs)
        return 0;
    if (hsim__keep_table(c, &c->stats.ran, sizeof *c->stats.ran) ||
        hsim__keep_table(c, &c->stopped, sizeof *c->stopped) ||
        (c->has_cluster && hsim__keep_table(c, &c->susp, sizeof *c->susp)))
        return HSIM_ENOMEM;
    if (c->cfg->preempt) {
        hsim_preempt_t *p;
        if (hsim_preempt_create(c->cap_jobs, &p))
            return HSIM_ENOMEM;
        c->preempt_state = p;
    }
    return 0;
}

/* What the stops hold beside their tables (which hsim_core_destroy()
   frees). */
void hsim__close_stops(hsim_core_t *c)
{
    for (size_t i = 0; c->susp && i < c->n_jobs; i++)
        hsim_alloc_free(&c->susp[i]);
    hsim_preempt_destroy(c->preempt_state);
    c->preempt_state = NULL;
}

/* Suspends job's allocation on the cluster: all of it back to the ledger,
   then its memory taken again as a hold (allocs[]), the whole kept in
   susp[] for its resume.  The ledger's counts stay right, and a node
   keeps a suspended job's memory.  0 or HSIM_ENOMEM. */
static int suspend_on_nodes(hsim_core_t *c, int32_t job)
{
    hsim_alloc_t *a = &c->allocs[job], *s = &c->susp[job];
    hsim__count_use(c, job);
    hsim_cluster_give(&c->cluster, a, c->now);
    s->n = 0;
    size_t k = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (hsim_alloc_add(s, &a->parts[i]))
            return HSIM_ENOMEM;
        if (a->parts[i].mem_mb > 0)
            a->parts[k++] = (hsim_part_t){.node = a->parts[i].node,
                                          .mem_mb = a->parts[i].mem_mb, .gpu = -1};
    }
    a->n = k;
    if (k)
        hsim_cluster_take(&c->cluster, a, c->now);
    else
        c->n_placed--;
    if (c->planner)
        hsim_planner_sync(c->planner, s);
    return 0;
}

/* Takes back a suspended job's whole allocation, on its nodes: its hold
   is given back first, and taken again when a part does not fit.  0,
   HSIM_NOFIT or HSIM_ENOMEM. */
int hsim__resume_job(hsim_core_t *c, int32_t job)
{
    hsim_alloc_t *a = &c->allocs[job], *s = &c->susp[job];
    int held = a->n > 0;
    if (held)
        hsim_cluster_give(&c->cluster, a, c->now);
    size_t i;
    for (i = 0; i < s->n; i++) {
        hsim_alloc_t one = {.parts = &s->parts[i], .n = 1};
        if (!hsim_part_fits(&c->cluster, &s->parts[i]))
            break;
        hsim_cluster_take(&c->cluster, &one, c->now);
    }
    if (i < s->n) { /* undo */
        while (i-- > 0) {
            hsim_alloc_t one = {.parts = &s->parts[i], .n = 1};
            hsim_cluster_give(&c->cluster, &one, c->now);
        }
        if (held)
            hsim_cluster_take(&c->cluster, a, c->now);
        return HSIM_NOFIT;
    }
    a->n = 0;
    for (i = 0; i < s->n; i++)
        if (hsim_alloc_add(a, &s->parts[i]))
            return HSIM_ENOMEM;
    s->n = 0;
    if (held)
        c->n_placed--; /* hsim__placed() counts it again */
    return hsim__placed(c, job);
}

/* A node fails under a suspended job's nodes (node -1: any node): its
   hold is given back, and the job may resume anywhere, its work kept (its
   state was saved when it was suspended).  Nothing when it has no part on
   node. */
void hsim__drop_hold(hsim_core_t *c, int32_t job, int32_t node)
{
    hsim_alloc_t *a = &c->allocs[job], *s = &c->susp[job];
    int on_node = 0;
    for (size_t k = 0; k < s->n; k++)
        on_node |= node < 0 || s->parts[k].node == node;
    if (!on_node)
        return;
    if (a->n) {
        hsim_cluster_give(&c->cluster, a, c->now);
        if (c->planner)
            hsim_planner_sync(c->planner, a);
        c->n_placed--;
        a->n = 0;
    }
    s->n = 0;
}

/* Stops running job job now: the work of this attempt is kept (less the
   cost it was paying first) unless mode is requeue, the next start costs
   next_cost more; it leaves the running set and the ledger (a suspended
   job's memory stays), its pending events go stale.  Its state is then
   JOB_FUTURE, until it is enqueued again. */
int hsim__stop_job(hsim_core_t *c, int32_t job, int mode, hsim_time_t next_cost)
{
    hsim_run_stats_t *st = &c->stats;
    if (hsim_grow(&st->attempts, &st->cap_attempts, st->n_attempts + 1, sizeof *st->attempts))
        return HSIM_ENOMEM;
    st->attempts[st->n_attempts++] = (hsim_attempt_t){
        .job = job, .start = c->start[job], .end = c->now,
        .ranges = c->has_cluster ? st->held[job].ranges : -1};
    hsim_time_t elapsed = c->now - c->start[job], kept = 0;
    double speed = c->speed[job];
    if (mode != HSIM_STOP_REQUEUE) {
        /* reference work done in this attempt, its restart cost first */
        hsim_time_t work = (hsim_time_t)floor((double)elapsed * speed) - c->cost[job];
        hsim_time_t run = c->drv.work ? c->drv.work(c->drv.arg, job) : -1;
        if (work > 0) {
            if (run >= 0 && c->done[job] + work >= run)
                work = run - c->done[job] - 1; /* it had not ended */
            c->done[job] += work;
            kept = (hsim_time_t)ceil((double)work / speed);
        }
        c->cost[job] = next_cost;
    } else {
        c->done[job] = c->cost[job] = 0;
    }
    if (kept > elapsed)
        kept = elapsed;
    c->stats.lost[job] += elapsed - kept;
    c->stats.lost_core_s += (double)(elapsed - kept) / HSIM_SECOND * c->vjobs[job].procs;
    if (c->stats.ran)
        c->stats.ran[job] += elapsed;
    if (c->stats.starts[job] == 1)
        c->stats.jobs_hit++;
    hsim__leave_running(c, job);
    if (mode == HSIM_STOP_SUSPEND && c->susp && c->allocs[job].n) {
        if (suspend_on_nodes(c, job))
            c->susp[job].n = 0; /* out of memory: it resumes anywhere */
    } else if (c->has_cluster) {
        hsim__release_job(c, job);
    }
    c->drv.stopped(c->drv.arg, job);
    c->state[job] = JOB_FUTURE; /* until enqueued again */
    return 0;
}

/* hsim_decide_t's stop(): the job is back in waiting[] at once. */
int hsim__decide_stop(void *ctx, int32_t job, int mode)
{
    hsim_core_t *c = ctx;
    if (job < 0 || (size_t)job >= c->n_jobs || c->state[job] != JOB_RUNNING || !c->stopped)
        return hsim_errf(c->e, HSIM_EINPUT, "policy error: stop of job index %d, which is not "
                         "running (or the policy may not stop jobs)", job);
    if (mode < HSIM_STOP_REQUEUE || mode > HSIM_STOP_CHECKPOINT)
        return hsim_errf(c->e, HSIM_EINPUT, "policy error: stop of job %lld in mode %d",
                         (long long)c->job[job]->id, mode);
    hsim_time_t start = c->start[job];
    int rc = hsim__stop_job(c, job, mode, mode == HSIM_STOP_REQUEUE ? 0 : c->cfg->switch_cost);
    if (rc)
        return rc;
    c->stats.preemptions++;
    c->stopped[c->n_stopped++] = job;
    rc = hsim__enqueue_job(c, job);
    hsim__refresh_view(c);
    /* its order's usage (fair share) stops with it, as at an end */
    return rc ? rc : hsim__order_ended(c, job, start);
}

/* hsim_decide_t's wake(): a pass at time at; one event per distinct time
   asked in a row. */
int hsim__decide_wake(void *ctx, hsim_time_t at)
{
    hsim_core_t *c = ctx;
    if (at < c->now)
        return hsim_errf(c->e, HSIM_EINPUT, "policy error: wake in the past (%lld us, now %lld)",
                         (long long)at, (long long)c->now);
    if (at > HSIM_HORIZON)
        return hsim_errf(c->e, HSIM_EINPUT, "policy error: wake past hsim's horizon");
    if (at == c->wake_last)
        return 0;
    c->wake_last = at;
    return c->drv.timer(c->drv.arg, at);
}

/* One scheduling pass: the preemption pass first (preempt = ...), the
   scheduler told of the jobs it stopped, then the scheduler's pass.  Jobs
   the scheduler stops itself are not announced: it knows them. */
int hsim__schedule_pass(hsim_core_t *c)
{
    const hsim_scheduler_t *s = c->cfg->scheduler;
    int rc;
    c->n_stopped = 0;
    if (c->preempt_state) {
        rc = hsim_preempt_pass(c->preempt_state, c->cfg->order, c->order_state,
                               c->cfg->preempt, c->cfg->preempt_grace, &c->view, &c->decide);
        for (size_t k = 0; k < c->n_stopped && rc == 0 && s->submitted; k++) {
            hsim__refresh_view(c);
            rc = s->submitted(c->sched_state, &c->view, c->stopped[k], &c->decide);
        }
        c->n_stopped = 0;
        if (rc)
            return rc;
        hsim__refresh_view(c);
    }
    c->stats.passes++;
    rc = s->schedule(c->sched_state, &c->view, &c->decide);
    c->n_stopped = 0;
    if (rc == 0 && c->susp && c->running_procs == 0 && c->n_placed > 0) {
        /* Nothing runs, yet suspended jobs keep memory: their holds may be
           all that stops the queue (a head that needs that memory, the
           jobs that keep it waiting behind it).  They give it back, to
           resume anywhere, and the scheduler runs again. */
        for (size_t i = 0; i < c->n_waiting; i++)
            if (c->waiting[i] >= 0)
                hsim__drop_hold(c, c->waiting[i], -1);
        hsim__refresh_view(c);
        rc = s->schedule(c->sched_state, &c->view, &c->decide);
        c->n_stopped = 0;
    }
    return rc;
}
