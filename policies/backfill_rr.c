/*
 * backfill_rr.c - time-slice round robin as gang scheduling (Ousterhout
 * 1982, in the simple form of Feitelson and Jette's "Improved utilization
 * and responsiveness with gang scheduling", 1997): the jobs waiting for
 * their turn form a ring; each pass starts jobs from its front while they
 * fit (none is passed over, so no job waits for ever); a running job that
 * has had its quantum since its last start is suspended, and goes to the
 * back of the ring, when some job waits for its turn.
 *
 * So every waiting job is served within one round: ahead of it in the ring
 * are only jobs that each run for one quantum at most before they give
 * their place back.  A job that outlives its quantum while nobody waits
 * goes on running (no switch for nothing).  With a quantum longer than
 * every job nothing is ever suspended, and the schedule is FCFS's without
 * backfilling, job for job.
 *
 * The engine keeps a suspended job's memory on its nodes and resumes it
 * there (gang scheduling), adding the policy's switch_cost to what is left
 * of it at each resume.  The scheduler asks for a pass at the earliest end
 * of a running job's quantum (wake()) while jobs wait.  Cost per pass:
 * O(running log running + started).
 */
#include "policy.h"

#include <stdlib.h>

typedef struct rr {
    int32_t *ring;         /* [cap] circular: the jobs waiting for their
                              turn, in turn order, from first on */
    size_t cap, first, n;  /* n_jobs (a job is there once at most), the
                              front's slot, jobs there */
    int32_t *expired;      /* [cap] scratch: the jobs a pass suspends */
    hsim_time_t quantum;   /* > 0 */
} rr_t;

static int rr_create(const hsim_policy_params_t *p, void **state)
{
    rr_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    s->cap = p->n_jobs ? p->n_jobs : 1;
    s->ring = hsim_malloc(s->cap * sizeof *s->ring);
    s->expired = hsim_malloc(s->cap * sizeof *s->expired);
    s->quantum = p->quantum > 0 ? p->quantum : 600 * HSIM_SECOND;
    if (!s->ring || !s->expired) {
        hsim_free(s->ring);
        hsim_free(s->expired);
        hsim_free(s);
        return HSIM_ENOMEM;
    }
    *state = s;
    return 0;
}

static void rr_destroy(void *state)
{
    rr_t *s = state;
    hsim_free(s->ring);
    hsim_free(s->expired);
    hsim_free(s);
}

/* Room for n_jobs: the ring laid out again from slot 0. */
static int rr_grow(void *state, size_t n_jobs)
{
    rr_t *s = state;
    if (n_jobs <= s->cap)
        return 0;
    int32_t *ring = hsim_malloc(n_jobs * sizeof *ring);
    int32_t *expired = hsim_realloc(s->expired, n_jobs * sizeof *expired);
    if (expired)
        s->expired = expired;
    if (!ring || !expired) {
        hsim_free(ring);
        return HSIM_ENOMEM;
    }
    for (size_t k = 0; k < s->n; k++)
        ring[k] = s->ring[(s->first + k) % s->cap];
    hsim_free(s->ring);
    s->ring = ring;
    s->first = 0;
    s->cap = n_jobs;
    return 0;
}

static void push_back(rr_t *s, int32_t job)
{
    HSIM_ASSERT(s->n < s->cap);
    s->ring[(s->first + s->n++) % s->cap] = job;
}

static int rr_submitted(void *state, const hsim_view_t *v, int32_t job, const hsim_decide_t *d)
{
    (void)v;
    (void)d;
    push_back(state, job);
    return 0;
}

static int by_index(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* Suspends the running jobs whose quantum is over (by job index, so the
   ring takes them in submission order), each to the back of the ring. */
static int suspend_expired(rr_t *s, const hsim_view_t *v, const hsim_decide_t *d)
{
    size_t m = 0;
    for (size_t i = 0; i < v->n_running; i++) {
        const hsim_running_t *e = &v->running[i];
        if (e->job >= 0 && e->est_end > v->now && v->now - e->start >= s->quantum)
            s->expired[m++] = e->job;
    }
    qsort(s->expired, m, sizeof *s->expired, by_index);
    for (size_t k = 0; k < m; k++) {
        int rc = d->stop(d->ctx, s->expired[k], HSIM_STOP_SUSPEND);
        if (rc)
            return rc;
        push_back(s, s->expired[k]);
    }
    return 0;
}

/* Starts jobs from the front of the ring while they fit. */
static int start_front(rr_t *s, const hsim_view_t *v, const hsim_decide_t *d)
{
    while (s->n > 0) {
        int32_t job = s->ring[s->first];
        if (!v->cluster && v->jobs[job].procs > hsim_view_free_now(v))
            return 0;
        int rc = d->start(d->ctx, job);
        if (rc == HSIM_NOFIT)
            return 0;
        if (rc)
            return rc;
        s->first = (s->first + 1) % s->cap;
        s->n--;
    }
    return 0;
}

static int rr_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    rr_t *s = state;
    int rc = s->n ? suspend_expired(s, v, d) : 0;
    if (rc == 0)
        rc = start_front(s, v, d);
    if (rc || s->n == 0)
        return rc;
    hsim_time_t next = -1; /* the earliest end of a quantum */
    for (size_t i = 0; i < v->n_running; i++) {
        const hsim_running_t *e = &v->running[i];
        if (e->job >= 0 && e->est_end > v->now && (next < 0 || e->start + s->quantum < next))
            next = e->start + s->quantum;
    }
    return next > v->now ? d->wake(d->ctx, next) : 0;
}

const hsim_scheduler_t hsim_sched_rr = {
    .name = "rr",
    .summary = "round robin, gang scheduled: jobs take turns of one quantum, suspended "
               "between them",
    .create = rr_create,
    .destroy = rr_destroy,
    .grow = rr_grow,
    .submitted = rr_submitted,
    .schedule = rr_schedule,
    .running_any_order = 1,
    .stops_jobs = 1,
};
