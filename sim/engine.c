/*
 * engine.c - the event driver: replays a workload on the core (core.h)
 * with a simulated clock.
 *
 * The driver owns what only a replay knows: the clock, the trace's
 * runtimes (so each job's end and whether it outlives its prediction),
 * the draws of node failures, and the dependencies that hold a job until
 * its parents end.  The core owns the rest, and hears of each event.
 *
 * Submissions are not pushed onto the heap: the workload is already sorted
 * by (submit, line), which is the order of submission events, so the loop
 * merges that array with the heap of created events and with the core's
 * reserved starts.  A job is added to the core when the loop reaches its
 * submission (or, waiting for parents, its dependent submission), so the
 * core never holds a job before it exists; as jobs are added in the
 * workload's order, a job's index in the core is its position there.  A job the
 * core stops (a failure, a policy) makes its pending termination and
 * expiry stale: each job remembers the sequence of its live ones.
 */
#include "core.h"

#include "failures.h"
#include "heap.h"
#include "planner.h"
#include "../workloads/deps.h"

#include <gsl/gsl_rng.h>
#include <string.h>

typedef struct run {
    const hsim_workload_t *w;
    const hsim_run_config_t *cfg;
    hsim_outcome_t *out;
    hsim_err_t *e;
    hsim_core_t *core;
    hsim_heap_t heap;          /* terminations, expiries, dependent
                                  submissions, failures, repairs, wakes */
    int64_t seq;               /* next event's sequence number */
    hsim_time_t now;
    size_t next_add;           /* the next job of w to add to the core */
    uint64_t events;           /* events handled */
    /* With stops (failures or preemption): */
    int64_t *end_seq;          /* by position: sequence of its live
                                  termination event (older ones are stale),
                                  -1 none */
    int64_t *expiry_seq;       /* likewise for its expiry */
    /* With failures: */
    const hsim_failures_t *fail;
    gsl_rng *fail_rng;         /* scratch of hsim_failures_draw() */
    uint64_t *fail_k;          /* by node: draws made */
    /* With dependencies (w->deps != NULL): */
    int32_t *parents_left;     /* by position: parents not ended yet */
    hsim_time_t *ready_at;     /* by position: the earliest submission its
                                  ended parents allow */
} run_t;

static int push_event(run_t *r, hsim_time_t t, int kind, int32_t job)
{
    hsim_event_t ev = {.time = t, .seq = r->seq++, .job = job, .kind = kind};
    return hsim_heap_push(&r->heap, &ev);
}

static int past_horizon(run_t *r, int32_t p, const char *what)
{
    return hsim_past_horizon(r->e, r->w->jobs[p].id, what);
}

/* ---- what the driver does for the core (hsim_driver_t) ---- */

/* A job started: its end from its runtime, and its expiry when it will
   outlive its prediction. */
static int drv_started(void *arg, int32_t job, double speed, hsim_time_t expiry)
{
    run_t *r = arg;
    const hsim_job_t *j = &r->w->jobs[job];
    hsim_outcome_t *o = &r->out[job];
    o->start = r->now;
    o->speed = (float)speed;
    const hsim_alloc_t *a = hsim_core_alloc(r->core, job);
    if (a) {
        o->node = a->parts[0].node;
        o->nodes = (int32_t)a->n;
    }
    hsim_time_t run = hsim_job_reference_run(j);
    o->fate = j->killed_at_estimate || run < j->runtime ? HSIM_FATE_KILLED : HSIM_FATE_RAN;
    run = hsim_time_scaled(hsim_core_work_left(r->core, job, run), speed);
    o->end = r->now + run;
    if (o->end > HSIM_HORIZON)
        return past_horizon(r, job, "end");
    if (expiry >= 0 && o->end > expiry) { /* it will outlive its prediction */
        int rc = push_event(r, expiry, HSIM_EV_EXPIRY, job);
        if (rc)
            return rc;
        if (r->expiry_seq)
            r->expiry_seq[job] = r->seq - 1;
    }
    if (r->end_seq)
        r->end_seq[job] = r->seq;
    return push_event(r, o->end, HSIM_EV_END, job);
}

static void drv_stopped(void *arg, int32_t job)
{
    run_t *r = arg;
    r->end_seq[job] = r->expiry_seq[job] = -1;
}

static int drv_finished(void *arg, int32_t job)
{
    run_t *r = arg;
    return r->out[job].end <= r->now;
}

static hsim_time_t drv_work(void *arg, int32_t job)
{
    run_t *r = arg;
    return hsim_job_reference_run(&r->w->jobs[job]);
}

static int drv_timer(void *arg, hsim_time_t at)
{
    return push_event(arg, at, HSIM_EV_WAKE, -1);
}

/* Job has ended: each child that waited for it alone is submitted think
   seconds later at the earliest (an event on the heap).  0 or
   HSIM_ENOMEM.  O(children). */
static int drv_ended(void *arg, int32_t job)
{
    run_t *r = arg;
    if (!r->parents_left)
        return 0;
    const hsim_deps_t *d = r->w->deps;
    for (size_t k = d->child_first[job]; k < d->child_first[job + 1]; k++) {
        int32_t ch = d->child[k];
        hsim_time_t at = r->now + d->think[k];
        if (at > r->ready_at[ch])
            r->ready_at[ch] = at;
        HSIM_ASSERT(r->parents_left[ch] > 0);
        if (--r->parents_left[ch] == 0) {
            if (r->ready_at[ch] > HSIM_HORIZON)
                return past_horizon(r, ch, "submission");
            int rc = push_event(r, r->ready_at[ch], HSIM_EV_SUBMIT, ch);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* ---- setting up ---- */

/* Dependencies: each job's count of parents to wait for, and the
   earliest submission they allow so far.  0 or HSIM_ENOMEM. */
static int setup_deps(run_t *r)
{
    const hsim_deps_t *d = r->w->deps;
    size_t n = r->w->n_jobs;
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

/* The failures' first events: every outage of a trace, or each node's
   first failure drawn.  0 or HSIM_ENOMEM. */
static int setup_failures(run_t *r, hsim_time_t origin)
{
    const hsim_failures_t *f = r->fail = r->cfg->failures;
    const hsim_cluster_t *cl = hsim_core_cluster(r->core);
    size_t nodes = cl->n_nodes;
    r->fail_rng = gsl_rng_alloc(gsl_rng_mt19937);
    r->fail_k = hsim_calloc(nodes ? nodes : 1, sizeof *r->fail_k);
    if (!r->fail_rng || !r->fail_k)
        return HSIM_ENOMEM;
    int rc = 0;
    for (size_t k = 0; f->trace && k < f->n_trace && rc == 0; k++) {
        const hsim_outage_t *o = &f->trace[k];
        HSIM_ASSERT(o->node >= 0 && (size_t)o->node < nodes);
        rc = push_event(r, o->down, HSIM_EV_FAIL, o->node);
        if (rc == 0)
            rc = push_event(r, o->up, HSIM_EV_REPAIR, o->node);
    }
    for (size_t i = 0; !f->trace && i < nodes && rc == 0; i++)
        if (f->type < 0 || cl->nodes[i].type == f->type)
            rc = push_event(r, origin + hsim_failures_draw(f, r->fail_rng, (int32_t)i,
                                                          r->fail_k[i]++),
                            HSIM_EV_FAIL, (int32_t)i);
    return rc;
}

static int setup(run_t *r)
{
    const hsim_workload_t *w = r->w;
    size_t n = w->n_jobs;
    for (size_t i = 0; i < n; i++) {
        r->out[i] = (hsim_outcome_t){.start = -1, .end = -1, .fate = HSIM_FATE_PENDING,
                                     .node = -1, .speed = 1.0f};
    }
    if (r->cfg->failures || r->cfg->preempt || r->cfg->scheduler->stops_jobs) {
        r->end_seq = hsim_malloc((n ? n : 1) * sizeof *r->end_seq);
        r->expiry_seq = hsim_malloc((n ? n : 1) * sizeof *r->expiry_seq);
        if (!r->end_seq || !r->expiry_seq)
            return HSIM_ENOMEM;
        for (size_t i = 0; i < n; i++)
            r->end_seq[i] = r->expiry_seq[i] = -1;
    }
    if (w->deps && setup_deps(r))
        return HSIM_ENOMEM;
    hsim_time_t origin = n ? w->jobs[0].submit : 0;
    hsim_driver_t drv = {.arg = r, .started = drv_started, .stopped = drv_stopped,
                         .ended = drv_ended, .finished = drv_finished, .work = drv_work,
                         .timer = drv_timer};
    hsim_core_setup_t su = {.cfg = r->cfg, .driver = &drv, .models = w->models,
                            .n_models = w->n_models, .unix_start = w->header.unix_start_time,
                            .time_zone = w->header.time_zone, .origin = origin,
                            .jobs_hint = r->cfg->jobs_hint ? r->cfg->jobs_hint : n,
                            .e = r->e};
    int rc = hsim_core_create(&su, &r->core);
    if (rc == 0 && r->cfg->failures)
        rc = setup_failures(r, origin);
    return rc;
}

/* ---- the loop ---- */

/* Adds the jobs of the workload up to position p (included) to the
   core, in order: a job exists for the core from its turn on. */
static int add_through(run_t *r, size_t p)
{
    for (; r->next_add <= p && r->next_add < r->w->n_jobs; r->next_add++) {
        int32_t job;
        int rc = hsim_core_add(r->core, &r->w->jobs[r->next_add], &job);
        if (rc)
            return rc;
        HSIM_ASSERT((size_t)job == r->next_add);
    }
    return 0;
}

/* A job whose parents have all ended is submitted now. */
static int submit_dependent(run_t *r, int32_t p)
{
    int rc = add_through(r, (size_t)p);
    if (rc)
        return rc;
    r->out[p].submit_shift = r->now - r->w->jobs[p].submit;
    return hsim_core_submit(r->core, p);
}

/* Is ev a termination or expiry that a stop made stale? */
static int stale_event(const run_t *r, const hsim_event_t *ev)
{
    if (!r->end_seq)
        return 0;
    if (ev->kind == HSIM_EV_END)
        return r->end_seq[ev->job] != ev->seq;
    if (ev->kind == HSIM_EV_EXPIRY)
        return r->expiry_seq[ev->job] != ev->seq;
    return 0;
}

/* A failure or a repair of node: the core is told, and the next one of
   the other kind drawn (a trace has them all on the heap already). */
static int node_event(run_t *r, const hsim_event_t *ev)
{
    int fails = ev->kind == HSIM_EV_FAIL;
    if (hsim_core_node_down(r->core, ev->job) == fails)
        return 0; /* down already, or up already */
    int rc = fails ? hsim_core_fail_node(r->core, ev->job)
                   : hsim_core_repair_node(r->core, ev->job);
    if (rc || r->fail->trace)
        return rc;
    hsim_time_t next = r->now + hsim_failures_draw(r->fail, r->fail_rng, ev->job,
                                                   r->fail_k[ev->job]++);
    return push_event(r, next, fails ? HSIM_EV_REPAIR : HSIM_EV_FAIL, ev->job);
}

static int handle(run_t *r, const hsim_event_t *ev)
{
    hsim_core_t *c = r->core;
    switch (ev->kind) {
    case HSIM_EV_EXPIRY:
        return hsim_core_expire(c, ev->job);
    case HSIM_EV_SUBMIT:
        return submit_dependent(r, ev->job);
    case HSIM_EV_FAIL:
    case HSIM_EV_REPAIR:
        return node_event(r, ev);
    case HSIM_EV_WAKE:
        return hsim_core_wake(c);
    default:
        return hsim_core_end(c, ev->job, hsim_job_reference_run(&r->w->jobs[ev->job]));
    }
}

/* Where an event comes from: the loop merges three sources. */
enum event_source {
    FROM_SUBMISSIONS, /* the workload's jobs, sorted by (submit, line) */
    FROM_HEAP,        /* created events */
    FROM_RESERVED,    /* the core's reserved starts */
};

/* The next event of the three sources.  Returns 0 when there is none. */
static int next_event(run_t *r, size_t next_submit, hsim_event_t *ev, enum event_source *source)
{
    const hsim_event_t *best = NULL;
    hsim_event_t sub;
    if (next_submit < r->w->n_jobs) { /* (never a job that waits for parents) */
        sub = (hsim_event_t){.time = r->w->jobs[next_submit].submit, .seq = -1,
                             .job = (int32_t)next_submit, .kind = HSIM_EV_SUBMIT};
        best = &sub;
        *source = FROM_SUBMISSIONS;
    }
    const hsim_event_t *h = hsim_heap_peek(&r->heap);
    if (h && (!best || hsim_event_less(h, best))) {
        best = h;
        *source = FROM_HEAP;
    }
    const hsim_event_t *s = hsim_core_next_start(r->core);
    if (s && (!best || hsim_event_less(s, best))) {
        best = s;
        *source = FROM_RESERVED;
    }
    if (!best)
        return 0;
    *ev = *best;
    return 1;
}

#ifdef HSIM_INVARIANTS
/* The whole state checked after an event (invariants.h): a broken
   invariant is a programming error, which aborts with what broke.
   O(waiting + running + nodes) per event: built in with
   -DHSIM_INVARIANTS=ON only.  The core's indices are the positions of
   the workload while jobs are added in order. */
static void check_invariants(run_t *r, const hsim_event_t *ev)
{
    hsim_err_t e = {{0}};
    if (hsim_core_check(r->core, r->w->jobs, r->out, &e) == 0)
        return;
    fprintf(stderr, "hsim: internal error: an invariant broke after the event of kind %d "
            "at %lld us: %s\n", ev->kind, (long long)ev->time, e.msg);
    abort();
}
#endif

static int loop(run_t *r)
{
    size_t next_submit = 0;
    hsim_event_t ev;
    enum event_source source;
    for (;;) {
        if (r->fail && hsim_core_ended(r->core) == r->w->n_jobs)
            break; /* failures go on for ever: the run ends with its jobs */
        if (r->parents_left) /* those are submitted when their parents end */
            while (next_submit < r->w->n_jobs && r->w->deps->n_parents[next_submit] > 0)
                next_submit++;
        if (!next_event(r, next_submit, &ev, &source))
            break;
        int rc = 0;
        if (source == FROM_HEAP) {
            hsim_heap_pop(&r->heap, &ev);
            if (stale_event(r, &ev))
                continue;
        }
        r->events++;
        r->now = ev.time;
        if ((rc = hsim_core_set_now(r->core, r->now)))
            return rc;
        if (r->cfg->progress && r->events % r->cfg->progress_every == 0)
            r->cfg->progress(r->cfg->progress_arg, hsim_core_ended(r->core));
        if (source == FROM_SUBMISSIONS) {
            next_submit++;
            rc = add_through(r, (size_t)ev.job);
            if (rc == 0)
                rc = hsim_core_submit(r->core, (int32_t)ev.job);
        } else if (source == FROM_HEAP) {
            rc = handle(r, &ev);
        } else {
            rc = hsim_core_start_reserved(r->core);
        }
        if (rc)
            return rc;
#ifdef HSIM_INVARIANTS
        check_invariants(r, &ev);
#endif
    }
    int32_t first;
    size_t waiting = hsim_core_waiting(r->core, &first);
    if (waiting)
        return hsim_errf(r->e, HSIM_EINPUT,
                         "policy error: %zu jobs still wait after the last event (job %lld first)",
                         waiting, (long long)r->w->jobs[first].id);
    return 0;
}

int hsim_engine_run(const hsim_workload_t *w, const hsim_run_config_t *cfg,
                    hsim_outcome_t *out, hsim_run_stats_t *stats, hsim_err_t *e)
{
    run_t r;
    memset(&r, 0, sizeof r);
    r.w = w;
    r.cfg = cfg;
    r.out = out;
    r.e = e;
    hsim_heap_init(&r.heap);
    int rc = setup(&r);
    if (rc == 0)
        rc = loop(&r);
    if (r.core)
        hsim_core_stats(r.core)->events = r.events;
    hsim_run_stats_t st = {0};
    int trc = hsim_core_destroy(r.core, rc == 0, &st);
    if (rc == 0)
        rc = trc;
    if (stats)
        *stats = st;
    else
        hsim_run_stats_free(&st);
    hsim_heap_free(&r.heap);
    hsim_free(r.end_seq);
    hsim_free(r.expiry_seq);
    if (r.fail_rng)
        gsl_rng_free(r.fail_rng);
    hsim_free(r.fail_k);
    hsim_free(r.parents_left);
    hsim_free(r.ready_at);
    return rc;
}

void hsim_run_stats_free(hsim_run_stats_t *st)
{
    hsim_free(st->node_busy);
    hsim_free(st->node_jobs);
    hsim_free(st->held);
    hsim_free(st->ranges);
    hsim_free(st->starts);
    hsim_free(st->lost);
    hsim_free(st->ran);
    hsim_free(st->attempts);
    hsim_free(st->order_report);
    memset(st, 0, sizeof *st);
}

void hsim_engine_request(const hsim_workload_t *w, const hsim_job_t *j,
                         const uint32_t *model_map, hsim_request_t *q)
{
    hsim_core_request(j, w->n_models, model_map, q);
}

void hsim_engine_model_map(const hsim_workload_t *w, const hsim_cluster_t *c,
                           uint32_t *model_map)
{
    hsim_core_model_map(w->models, w->n_models, c, model_map);
}
