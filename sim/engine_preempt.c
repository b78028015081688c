/*
 * engine_preempt.c - the engine's jobs that stop and come back: the stop of
 * a running job (by a node failure, engine_faults.c, or by a policy's
 * stop() decision), its resume, the scheduler's timer (wake()) and the
 * scheduling pass with the preemption pass before it (policies/preempt.h).
 *
 * A stopped job keeps its identity: it is back in the queue under its own
 * index, its pending termination and expiry go stale (end_seq, expiry_seq),
 * and what is left of it is its reference run less the work kept (done[])
 * plus the cost of its next start (cost[]).  A suspended job on a cluster
 * gives back its whole allocation and takes its memory again at once, as
 * a hold of memory alone in allocs[]; its whole allocation waits in susp[]
 * for its resume, on the same nodes.  The ledger thus counts a hold like a
 * job's parts, and the invariant check sees it among the waiting jobs.
 */
#include "engine_run.h"

#include "../policies/preempt.h"

#include <math.h>
#include <string.h>

/* The arrays of jobs that stop: allocated once for failures and
   preemption alike.  0 or HSIM_ENOMEM. */
int hsim__setup_stops(run_t *r)
{
    if (r->stops)
        return 0;
    size_t n = r->n_jobs ? r->n_jobs : 1;
    r->end_seq = hsim_malloc(n * sizeof *r->end_seq);
    r->expiry_seq = hsim_malloc(n * sizeof *r->expiry_seq);
    r->done = hsim_calloc(n, sizeof *r->done);
    r->cost = hsim_calloc(n, sizeof *r->cost);
    r->stats.starts = hsim_calloc(n, sizeof *r->stats.starts);
    r->stats.lost = hsim_calloc(n, sizeof *r->stats.lost);
    if (!r->end_seq || !r->expiry_seq || !r->done || !r->cost || !r->stats.starts ||
        !r->stats.lost)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < n; i++)
        r->end_seq[i] = r->expiry_seq[i] = -1;
    r->stops = 1;
    r->wake_last = -1;
    if (!r->cfg->preempt && !r->cfg->scheduler->stops_jobs)
        return 0;
    r->stats.ran = hsim_calloc(n, sizeof *r->stats.ran);
    r->stopped = hsim_malloc(n * sizeof *r->stopped);
    if (!r->stats.ran || !r->stopped)
        return HSIM_ENOMEM;
    if (r->has_cluster && !(r->susp = hsim_calloc(n, sizeof *r->susp)))
        return HSIM_ENOMEM;
    if (r->cfg->preempt) {
        hsim_preempt_t *p;
        if (hsim_preempt_create(r->n_jobs, &p))
            return HSIM_ENOMEM;
        r->preempt_state = p;
    }
    return 0;
}

void hsim__close_stops(run_t *r)
{
    for (size_t i = 0; r->susp && i < r->n_jobs; i++)
        hsim_alloc_free(&r->susp[i]);
    hsim_free(r->susp);
    hsim_free(r->stopped);
    hsim_preempt_destroy(r->preempt_state);
}

/* Suspends job's allocation on the cluster: all of it back to the ledger,
   then its memory taken again as a hold (allocs[]), the whole kept in
   susp[] for its resume.  The ledger's counts stay right, and a node
   keeps a suspended job's memory.  0 or HSIM_ENOMEM. */
static int suspend_on_nodes(run_t *r, int32_t job)
{
    hsim_alloc_t *a = &r->allocs[job], *s = &r->susp[job];
    hsim__count_use(r, job);
    hsim_cluster_give(&r->cluster, a, r->now);
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
        hsim_cluster_take(&r->cluster, a, r->now);
    else
        r->n_placed--;
    if (r->planner)
        hsim_planner_sync(r->planner, s);
    return 0;
}

/* Takes back a suspended job's whole allocation, on its nodes: its hold
   is given back first, and taken again when a part does not fit.  0,
   HSIM_NOFIT or HSIM_ENOMEM. */
int hsim__resume_job(run_t *r, int32_t job)
{
    hsim_alloc_t *a = &r->allocs[job], *s = &r->susp[job];
    int held = a->n > 0;
    if (held)
        hsim_cluster_give(&r->cluster, a, r->now);
    size_t i;
    for (i = 0; i < s->n; i++) {
        hsim_alloc_t one = {.parts = &s->parts[i], .n = 1};
        if (!hsim_part_fits(&r->cluster, &s->parts[i]))
            break;
        hsim_cluster_take(&r->cluster, &one, r->now);
    }
    if (i < s->n) { /* undo */
        while (i-- > 0) {
            hsim_alloc_t one = {.parts = &s->parts[i], .n = 1};
            hsim_cluster_give(&r->cluster, &one, r->now);
        }
        if (held)
            hsim_cluster_take(&r->cluster, a, r->now);
        return HSIM_NOFIT;
    }
    a->n = 0;
    for (i = 0; i < s->n; i++)
        if (hsim_alloc_add(a, &s->parts[i]))
            return HSIM_ENOMEM;
    s->n = 0;
    if (held)
        r->n_placed--; /* hsim__placed() counts it again */
    return hsim__placed(r, job);
}

/* A node fails under a suspended job's nodes (node -1: any node): its
   hold is given back, and the job may resume anywhere, its work kept (its
   state was saved when it was suspended).  Nothing when it has no part on
   node. */
void hsim__drop_hold(run_t *r, int32_t job, int32_t node)
{
    hsim_alloc_t *a = &r->allocs[job], *s = &r->susp[job];
    int on_node = 0;
    for (size_t k = 0; k < s->n; k++)
        on_node |= node < 0 || s->parts[k].node == node;
    if (!on_node)
        return;
    if (a->n) {
        hsim_cluster_give(&r->cluster, a, r->now);
        if (r->planner)
            hsim_planner_sync(r->planner, a);
        r->n_placed--;
        a->n = 0;
    }
    s->n = 0;
}

/* Stops running job job now: the work of this attempt is kept (less the
   cost it was paying first) unless mode is requeue, the next start costs
   next_cost more; it leaves the running set and the ledger (a suspended
   job's memory stays), its pending events go stale.  Its state is then
   JOB_FUTURE, until it is enqueued again. */
void hsim__stop_job(run_t *r, int32_t job, int mode, hsim_time_t next_cost)
{
    const hsim_outcome_t *o = &r->out[job];
    hsim_time_t elapsed = r->now - o->start, kept = 0;
    if (mode != HSIM_STOP_REQUEUE) {
        /* reference work done in this attempt, its restart cost first */
        hsim_time_t work = (hsim_time_t)floor((double)elapsed * o->speed) - r->cost[job];
        hsim_time_t run = hsim__reference_run(&r->w->jobs[job]);
        if (work > 0) {
            if (r->done[job] + work >= run)
                work = run - r->done[job] - 1; /* it had not ended */
            r->done[job] += work;
            kept = (hsim_time_t)ceil((double)work / o->speed);
        }
        r->cost[job] = next_cost;
    } else {
        r->done[job] = r->cost[job] = 0;
    }
    if (kept > elapsed)
        kept = elapsed;
    r->stats.lost[job] += elapsed - kept;
    r->stats.lost_core_s += (double)(elapsed - kept) / HSIM_SECOND * r->vjobs[job].procs;
    if (r->stats.ran)
        r->stats.ran[job] += elapsed;
    if (r->stats.starts[job] == 1)
        r->stats.jobs_hit++;
    hsim__leave_running(r, job);
    if (mode == HSIM_STOP_SUSPEND && r->susp && r->allocs[job].n) {
        if (suspend_on_nodes(r, job))
            r->susp[job].n = 0; /* out of memory: it resumes anywhere */
    } else if (r->has_cluster) {
        hsim__release_job(r, job);
    }
    r->end_seq[job] = r->expiry_seq[job] = -1;
    r->state[job] = JOB_FUTURE; /* until enqueued again */
}

/* hsim_decide_t's stop(): the job is back in waiting[] at once. */
int hsim__decide_stop(void *ctx, int32_t job, int mode)
{
    run_t *r = ctx;
    if (job < 0 || (size_t)job >= r->n_jobs || r->state[job] != JOB_RUNNING || !r->stopped)
        return hsim_errf(r->e, HSIM_EINPUT, "policy error: stop of job index %d, which is not "
                         "running (or the policy may not stop jobs)", job);
    if (mode < HSIM_STOP_REQUEUE || mode > HSIM_STOP_CHECKPOINT)
        return hsim_errf(r->e, HSIM_EINPUT, "policy error: stop of job %lld in mode %d",
                         (long long)r->w->jobs[job].id, mode);
    hsim_time_t start = r->out[job].start;
    hsim__stop_job(r, job, mode, mode == HSIM_STOP_REQUEUE ? 0 : r->cfg->switch_cost);
    r->stats.preemptions++;
    r->stopped[r->n_stopped++] = job;
    int rc = hsim__enqueue_job(r, job);
    hsim__refresh_view(r);
    /* its order's usage (fair share) stops with it, as at an end */
    return rc ? rc : hsim__order_ended(r, job, start);
}

/* hsim_decide_t's wake(): a pass at time at; one event per distinct time
   asked in a row. */
int hsim__decide_wake(void *ctx, hsim_time_t at)
{
    run_t *r = ctx;
    if (at < r->now)
        return hsim_errf(r->e, HSIM_EINPUT, "policy error: wake in the past (%lld us, now %lld)",
                         (long long)at, (long long)r->now);
    if (at > HSIM_HORIZON)
        return hsim_errf(r->e, HSIM_EINPUT, "policy error: wake past hsim's horizon");
    if (at == r->wake_last)
        return 0;
    r->wake_last = at;
    return hsim__push_event(r, at, HSIM_EV_WAKE, -1);
}

/* One scheduling pass: the preemption pass first (preempt = ...), the
   scheduler told of the jobs it stopped, then the scheduler's pass.  Jobs
   the scheduler stops itself are not announced: it knows them. */
int hsim__schedule_pass(run_t *r)
{
    const hsim_scheduler_t *s = r->cfg->scheduler;
    int rc;
    r->n_stopped = 0;
    if (r->preempt_state) {
        rc = hsim_preempt_pass(r->preempt_state, r->cfg->order, r->order_state,
                               r->cfg->preempt, r->cfg->preempt_grace, &r->view, &r->decide);
        for (size_t k = 0; k < r->n_stopped && rc == 0 && s->submitted; k++) {
            hsim__refresh_view(r);
            rc = s->submitted(r->sched_state, &r->view, r->stopped[k], &r->decide);
        }
        r->n_stopped = 0;
        if (rc)
            return rc;
        hsim__refresh_view(r);
    }
    r->stats.passes++;
    rc = s->schedule(r->sched_state, &r->view, &r->decide);
    r->n_stopped = 0;
    if (rc == 0 && r->susp && r->running_procs == 0 && r->n_placed > 0) {
        /* Nothing runs, yet suspended jobs keep memory: their holds may be
           all that stops the queue (a head that needs that memory, the
           jobs that keep it waiting behind it).  They give it back, to
           resume anywhere, and the scheduler runs again. */
        for (size_t i = 0; i < r->n_waiting; i++)
            if (r->waiting[i] >= 0)
                hsim__drop_hold(r, r->waiting[i], -1);
        hsim__refresh_view(r);
        rc = s->schedule(r->sched_state, &r->view, &r->decide);
        r->n_stopped = 0;
    }
    return rc;
}
