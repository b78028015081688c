/*
 * test_registry.c - every registered plug-in, found through the registries
 * (hsim_orders, hsim_schedulers, hsim_predictors, hsim_placements), never
 * by name: a new order, scheduler, predictor or placement is covered here
 * as soon as it is listed in its registry, without a line of this file
 * changing.
 *
 * Every scheduler is run with every queue order and every predictor (the
 * trained ones, which train models as they go, under the first order), and
 * with every backfilling order (for a scheduler that reads one) under the
 * first order and predictor: valid combinations only (as sim/config.c
 * accepts them).  Small random traces are replayed on a pool of processors
 * and on a small heterogeneous cluster (CPU nodes of two speeds, GPU nodes
 * of two models, FPGA nodes), under every placement and both spreads for
 * the first order and predictor, under first-fit for the others.  What
 * holds for all of them:
 *  - every job is accounted for: it ran (or was killed at its estimate),
 *    or, on the cluster, it was rejected before the run with a reason;
 *  - no job starts before its submission, and each runs for its runtime
 *    (at most its estimate) scaled by its allocation's speed;
 *  - capacity is never exceeded: processors on the pool, each resource in
 *    total at every instant on the cluster, and each node's cores, memory,
 *    GPUs and FPGAs at every scheduling call (a wrapper around the
 *    scheduler adds up what the running jobs hold, node by node);
 *  - two runs give identical results, job for job;
 *  - on the pool, a scheduler that has a reference (tests/ref/ref.h) gives
 *    the reference's schedule, job for job.
 * And the registries themselves: names unique and found by name, the
 * callbacks a plug-in must have, and each order a strict total order.
 */
#include "sched_test.h"

#include "policies/registry.h"
#include "ref/ref.h"
#include "sim/planner.h"
#include "sim/spec.h"

#include <stdlib.h>
#include <string.h>

#define S HSIM_SECOND

/* ---- the combinations ---- */

typedef struct combo {
    const hsim_scheduler_t *sched;
    const hsim_order_t *order;
    const hsim_order_t *bf_order; /* NULL: the queue order */
    const hsim_predictor_t *pred;
} combo_t;

/* Whether an experiment accepts the combination: sim/config.c refuses the
   others, with hsim_policy_refusal()'s reason. */
static int combo_valid(const combo_t *c)
{
    const char *key;
    return hsim_policy_refusal(c->order, c->bf_order, c->sched, c->pred, &key) == NULL;
}

static void combo_name(const combo_t *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s%s%s/%s", c->sched->name, c->order->name, c->bf_order ? "+" : "",
             c->bf_order ? c->bf_order->name : "", c->pred->name);
}

typedef void combo_fn(const combo_t *c, void *arg);

/* Calls fn for each valid combination of the registries' plug-ins: every
   scheduler with every queue order and every predictor (a trained one,
   which trains models as it goes, under the first order only), and with
   every backfilling order under the first order and predictor (the whole
   cross product grows as orders^2 x predictors); returns how many. */
static size_t each_combo(combo_fn *fn, void *arg)
{
    size_t n_orders = 0, n = 0;
    while (hsim_orders[n_orders])
        n_orders++;
    for (size_t s = 0; hsim_schedulers[s]; s++)
        for (size_t o = 0; hsim_orders[o]; o++)
            for (size_t b = 0; b <= n_orders; b++) /* b == n_orders: none */
                for (size_t p = 0; hsim_predictors[p]; p++) {
                    if (b < n_orders && (o > 0 || p > 0))
                        continue;
                    if (o > 0 && hsim_predictors[p]->uses_model)
                        continue; /* each trains models: under the first order only */
                    combo_t c = {hsim_schedulers[s], hsim_orders[o],
                                 b < n_orders ? hsim_orders[b] : NULL, hsim_predictors[p]};
                    if (combo_valid(&c)) {
                        fn(&c, arg);
                        n++;
                    }
                }
    return n;
}

static hsim_run_config_t combo_config(const combo_t *c, int32_t capacity)
{
    /* a trained predictor learns as it goes (it has no model file here) */
    return (hsim_run_config_t){.capacity = capacity, .order = c->order,
                               .backfill_order = c->bf_order, .scheduler = c->sched,
                               .predictor = c->pred,
                               .predictor_retrain = c->pred->uses_model ? 60 : 0};
}

/* ---- a scheduler that watches the one under test ---- */

/* The scheduler the watch wraps, and what it saw, during one run (the
   engine creates and destroys the watch's state). */
static const hsim_scheduler_t *watched;
static size_t watch_checks, watch_over, watch_ledger;

typedef struct watch {
    void *inner;
    int64_t *cores, *mem, *milli, *fpgas; /* per node, what running jobs hold */
    size_t n_nodes;
} watch_t;

static int watch_create(const hsim_policy_params_t *p, void **state)
{
    watch_t *w = calloc(1, sizeof *w);
    HSIM_ASSERT(w);
    *state = w;
    return watched->create(p, &w->inner);
}

static void watch_destroy(void *state)
{
    watch_t *w = state;
    watched->destroy(w->inner);
    free(w->cores);
    free(w->mem);
    free(w->milli);
    free(w->fpgas);
    free(w);
}

/* Adds up what the running jobs hold: on the pool their processors, on a
   cluster their parts, node by node, against each node's size and the
   ledger's free room.  O(running jobs' parts + nodes). */
static void watch_check(watch_t *w, const hsim_view_t *v)
{
    watch_checks++;
    /* a job whose estimate ends now has ended, though its termination may
       not be handled yet: a job started now may have its processors (and
       a job never outlives its estimate when a pass runs: an expiry comes
       before every other event of its time) */
    int32_t procs = 0, live = 0;
    for (size_t i = 0; i < v->n_running; i++)
        if (v->running[i].job >= 0) {
            procs += v->running[i].procs;
            live += v->running[i].est_end > v->now ? v->running[i].procs : 0;
        }
    if (procs != v->running_procs)
        watch_ledger++;
    if (live > v->capacity)
        watch_over++;
    const hsim_cluster_t *c = v->cluster;
    if (!c)
        return;
    if (!w->cores) {
        w->n_nodes = c->n_nodes;
        w->cores = malloc(c->n_nodes * sizeof *w->cores);
        w->mem = malloc(c->n_nodes * sizeof *w->mem);
        w->milli = malloc(c->n_nodes * sizeof *w->milli);
        w->fpgas = malloc(c->n_nodes * sizeof *w->fpgas);
        HSIM_ASSERT(w->cores && w->mem && w->milli && w->fpgas);
    }
    size_t n = w->n_nodes;
    memset(w->cores, 0, n * sizeof *w->cores);
    memset(w->mem, 0, n * sizeof *w->mem);
    memset(w->milli, 0, n * sizeof *w->milli);
    memset(w->fpgas, 0, n * sizeof *w->fpgas);
    for (size_t i = 0; i < v->n_running; i++) {
        int32_t job = v->running[i].job;
        if (job < 0)
            continue;
        const hsim_alloc_t *a = &v->allocs[job];
        for (size_t k = 0; k < a->n; k++) {
            const hsim_part_t *p = &a->parts[k];
            HSIM_ASSERT(p->node >= 0 && (size_t)p->node < n);
            w->cores[p->node] += p->cores;
            w->mem[p->node] += p->mem_mb;
            w->milli[p->node] += 1000 * (int64_t)p->gpus + p->gpu_milli;
            w->fpgas[p->node] += p->fpgas;
        }
    }
    for (size_t i = 0; i < v->n_waiting; i++) { /* suspended jobs keep memory */
        const hsim_alloc_t *a = v->waiting[i] >= 0 ? &v->allocs[v->waiting[i]] : NULL;
        for (size_t k = 0; a && k < a->n; k++)
            w->mem[a->parts[k].node] += a->parts[k].mem_mb;
    }
    for (size_t k = 0; k < n; k++) {
        const hsim_node_t *node = &c->nodes[k];
        const hsim_node_type_t *t = &c->types[node->type];
        if (w->cores[k] > t->cores || w->mem[k] > t->mem_mb ||
            w->milli[k] > 1000 * (int64_t)t->gpus || w->fpgas[k] > t->fpgas)
            watch_over++;
        if (node->free_cores != t->cores - w->cores[k] ||
            node->free_mem != t->mem_mb - w->mem[k] ||
            node->free_fpgas != t->fpgas - w->fpgas[k])
            watch_ledger++;
    }
}

static int watch_submitted(void *state, const hsim_view_t *v, int32_t job,
                           const hsim_decide_t *d)
{
    watch_t *w = state;
    watch_check(w, v);
    int rc = watched->submitted(w->inner, v, job, d);
    watch_check(w, v);
    return rc;
}

static int watch_ended(void *state, const hsim_view_t *v, int32_t job, hsim_time_t start,
                       hsim_time_t est_end, const hsim_decide_t *d)
{
    watch_t *w = state;
    watch_check(w, v);
    int rc = watched->ended(w->inner, v, job, start, est_end, d);
    watch_check(w, v);
    return rc;
}

static int watch_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    watch_t *w = state;
    watch_check(w, v);
    int rc = watched->schedule(w->inner, v, d);
    watch_check(w, v);
    return rc;
}

/* The watch around s: s's flags, which the engine reads, and its
   callbacks, each checked before and after. */
static hsim_scheduler_t watch_of(const hsim_scheduler_t *s)
{
    hsim_scheduler_t w = *s;
    w.create = watch_create;
    w.destroy = watch_destroy;
    w.submitted = s->submitted ? watch_submitted : NULL;
    w.ended = s->ended ? watch_ended : NULL;
    w.schedule = watch_schedule;
    return w;
}

/* Runs w under c through the watch of c->scheduler: 0 or the engine's
   error (printed). */
static int watched_run(const hsim_workload_t *w, const hsim_run_config_t *c,
                       hsim_outcome_t *out, hsim_run_stats_t *st, const char *what)
{
    hsim_scheduler_t wrap = watch_of(c->scheduler);
    hsim_run_config_t wc = *c;
    wc.scheduler = &wrap;
    watched = c->scheduler;
    watch_checks = watch_over = watch_ledger = 0;
    hsim_err_t e;
    memset(&e, 0, sizeof e);
    int rc = hsim_engine_run(w, &wc, out, st, &e);
    watched = NULL;
    if (rc)
        fprintf(stderr, "\n%s: rc %d: %s\n", what, rc, e.msg);
    if (watch_over || watch_ledger)
        fprintf(stderr, "\n%s: %zu of %zu checks found a node or the pool over-full, %zu "
                        "found the ledger disagreeing with the allocations\n",
                what, watch_over, watch_checks, watch_ledger);
    CU_ASSERT_TRUE(watch_checks > 0);
    CU_ASSERT_EQUAL(watch_over, 0);
    CU_ASSERT_EQUAL(watch_ledger, 0);
    return rc;
}


/* A scheduler that stops jobs (stops_jobs): a job's start and end are
   those of its last run, so the checks of a whole run do not apply; every
   job ended once, ran or killed, after its submission, having run at
   least its reference run in all (the invariant check, in the sanitizer
   build, watches capacity at every event).  Returns how many did not. */
static size_t badly_stopped(const hsim_workload_t *w, const hsim_outcome_t *out,
                            const hsim_run_stats_t *st)
{
    size_t bad = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        hsim_time_t ref = j->runtime < j->estimate ? j->runtime : j->estimate;
        int killed = j->runtime > j->estimate || j->killed_at_estimate;
        bad += out[i].start < j->submit || out[i].end <= out[i].start || !st->ran ||
               (out[i].speed == 1 && st->ran[i] < ref) ||
               out[i].fate != (killed ? HSIM_FATE_KILLED : HSIM_FATE_RAN);
    }
    return bad;
}

/* ---- on a pool of processors ---- */

#define POOL_SEEDS 2
#define POOL_JOBS 150

typedef struct pool_case {
    hsim_workload_t w[POOL_SEEDS];
    int32_t cap[POOL_SEEDS];
    int referenced[64]; /* by index in hsim_schedulers: checked against its
                           reference */
} pool_case_t;

static void pool_combo(const combo_t *k, void *arg)
{
    pool_case_t *pc = arg;
    char what[128];
    combo_name(k, what, sizeof what);
    for (int s = 0; s < POOL_SEEDS; s++) {
        const hsim_workload_t *w = &pc->w[s];
        hsim_run_config_t c = combo_config(k, pc->cap[s]);
        hsim_outcome_t *a = malloc(w->n_jobs * sizeof *a), *b = malloc(w->n_jobs * sizeof *b);
        HSIM_ASSERT(a && b);
        for (size_t i = 0; i < w->n_jobs; i++)
            a[i] = (hsim_outcome_t){.start = -7, .end = -7, .fate = 99};
        hsim_run_stats_t sa = {0}, sb = {0};
        int rc = watched_run(w, &c, a, &sa, what);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc == 0) {
            /* every job ran, from its submission on, within capacity */
            if (k->sched->stops_jobs) {
                CU_ASSERT_EQUAL(badly_stopped(w, a, &sa), 0);
            } else {
                hsim_test_check_invariants(w, a, pc->cap[s], what);
            }
            /* the same again (and the watch changed nothing) */
            hsim_err_t e;
            memset(&e, 0, sizeof e);
            CU_ASSERT_EQUAL_FATAL(hsim_test_run(w, &c, b, &e), 0);
            CU_ASSERT_EQUAL(hsim_test_compare_runs(w, a, b, what, (unsigned long)s), 0);
            CU_ASSERT_EQUAL(memcmp(a, b, w->n_jobs * sizeof *a), 0);
            hsim_err_t e2;
            memset(&e2, 0, sizeof e2);
            CU_ASSERT_EQUAL(hsim_engine_run(w, &c, b, &sb, &e2), 0);
            CU_ASSERT_EQUAL(sa.events, sb.events);
            CU_ASSERT_EQUAL(sa.passes, sb.passes);
            CU_ASSERT_EQUAL(sa.expiries, sb.expiries);
            CU_ASSERT_EQUAL(sa.max_waiting, sb.max_waiting);
            /* the reference's schedule, where there is one */
            const hsim_scheduler_t *ref = hsim_ref_for(k->sched);
            if (ref) {
                c.scheduler = ref;
                CU_ASSERT_EQUAL_FATAL(hsim_test_run(w, &c, b, &e), 0);
                char rw[160];
                snprintf(rw, sizeof rw, "%s against %s", what, ref->name);
                CU_ASSERT_EQUAL(hsim_test_compare_runs(w, a, b, rw, (unsigned long)s), 0);
                for (size_t r = 0; r < 64 && hsim_schedulers[r]; r++)
                    pc->referenced[r] |= hsim_schedulers[r] == k->sched;
            }
        }
        hsim_run_stats_free(&sa);
        hsim_run_stats_free(&sb);
        free(a);
        free(b);
    }
}

static void test_every_combination_on_a_pool(void)
{
    pool_case_t pc;
    memset(&pc, 0, sizeof pc);
    for (int s = 0; s < POOL_SEEDS; s++) {
        pc.cap[s] = s % 2 ? 32 : 8;
        hsim_test_random_workload(&pc.w[s], 4300 + (unsigned long)s, POOL_JOBS, pc.cap[s],
                                  s % 2 ? 1.6 : 1.1);
    }
    size_t n = each_combo(pool_combo, &pc);
    CU_ASSERT_TRUE(n >= 1);
    /* each scheduler that has a reference was checked against it */
    for (size_t s = 0; s < 64 && hsim_schedulers[s]; s++)
        CU_ASSERT_EQUAL(pc.referenced[s], hsim_ref_for(hsim_schedulers[s]) != NULL);
    for (int s = 0; s < POOL_SEEDS; s++)
        hsim_workload_free(&pc.w[s]);
}

/* ---- on a small heterogeneous cluster ---- */

#define CLUSTER_JOBS 80
#define IMPOSSIBLE 2 /* jobs that ask for a GPU model the cluster lacks */

typedef struct cluster_case {
    hsim_spec_t spec;
    double speeds[HSIM_MAX_NODE_TYPES];  /* one class, all defaults */
    hsim_workload_t w;
    int64_t total_cores, total_mem, total_milli, total_fpgas;
    int32_t cores;
    size_t runs;
} cluster_case_t;

/* A job's allocation held more than the cluster has, in total, at some
   instant?  A sweep over the starts and ends of every job, per resource. */
typedef struct use_ev {
    hsim_time_t t;
    int64_t d[4]; /* cores, MiB, GPU thousandths, FPGAs */
} use_ev_t;

static int use_cmp(const void *a, const void *b)
{
    const use_ev_t *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->d[0] > y->d[0]) - (x->d[0] < y->d[0]); /* ends (negative) first */
}

static int over_total(const cluster_case_t *cc, const hsim_outcome_t *out,
                      const hsim_held_t *held)
{
    size_t n = cc->w.n_jobs;
    use_ev_t *ev = malloc((2 * n + 1) * sizeof *ev);
    HSIM_ASSERT(ev);
    for (size_t i = 0; i < n; i++) {
        const hsim_held_t *h = &held[i];
        int64_t d[4] = {h->cores, h->mem_mb, h->gpu_milli, h->fpgas};
        ev[2 * i].t = out[i].start;
        ev[2 * i + 1].t = out[i].end;
        for (int r = 0; r < 4; r++) {
            ev[2 * i].d[r] = d[r];
            ev[2 * i + 1].d[r] = -d[r];
        }
    }
    qsort(ev, 2 * n, sizeof *ev, use_cmp);
    int64_t used[4] = {0}, cap[4] = {cc->total_cores, cc->total_mem, cc->total_milli,
                                     cc->total_fpgas};
    int over = 0;
    for (size_t i = 0; i < 2 * n; i++)
        for (int r = 0; r < 4; r++) {
            used[r] += ev[i].d[r];
            over |= used[r] > cap[r];
        }
    free(ev);
    return over;
}

/* Every job ran from its submission on, for its runtime (at most its
   estimate) at its allocation's speed, with the right fate and holding
   something; returns how many did not. */
static size_t badly_run(const hsim_workload_t *w, const hsim_outcome_t *out,
                        const hsim_held_t *held, const char *what)
{
    size_t bad = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        const hsim_outcome_t *o = &out[i];
        hsim_time_t ran = j->runtime < j->estimate ? j->runtime : j->estimate;
        int killed = j->runtime > j->estimate || j->killed_at_estimate;
        if (o->start < j->submit || o->speed <= 0 ||
            o->end != o->start + hsim_time_scaled(ran, (double)o->speed) ||
            o->fate != (killed ? HSIM_FATE_KILLED : HSIM_FATE_RAN) || held[i].cores < 1 ||
            o->nodes < 1) {
            if (bad++ < 3)
                fprintf(stderr, "\n%s: job %lld: submit %lld start %lld end %lld speed %g "
                                "fate %d\n",
                        what, (long long)j->id, (long long)j->submit, (long long)o->start,
                        (long long)o->end, (double)o->speed, o->fate);
        }
    }
    return bad;
}

/* Whether cluster_combo() tries every placement and spread on k. */
static int every_placement(const combo_t *k)
{
    return k->order == hsim_orders[0] && k->pred == hsim_predictors[0];
}

static void count_full(const combo_t *k, void *arg)
{
    *(size_t *)arg += (size_t)every_placement(k);
}

static void cluster_combo(const combo_t *k, void *arg)
{
    cluster_case_t *cc = arg;
    const hsim_workload_t *w = &cc->w;
    /* every placement and spread under the first queue order and
       predictor; the other orders and predictors under first-fit, packed
       (the placements are the same code whatever the order) */
    int all = every_placement(k);
    for (size_t p = 0; hsim_placements[p] && (all || p == 0); p++)
        for (int spread = 0; spread < (all ? 2 : 1); spread++) {
            char what[192], name[128];
            combo_name(k, name, sizeof name);
            snprintf(what, sizeof what, "%s on nodes, %s, %s", name, hsim_placements[p]->name,
                     spread ? "spread" : "pack");
            hsim_run_config_t c = combo_config(k, cc->cores);
            c.cluster = &cc->spec.spec;
            c.placement = hsim_placements[p];
            c.spread = spread ? HSIM_SPREAD : HSIM_PACK;
            hsim_outcome_t *a = malloc(w->n_jobs * sizeof *a), *b = malloc(w->n_jobs * sizeof *b);
            HSIM_ASSERT(a && b);
            hsim_run_stats_t sa = {0}, sb = {0};
            int rc = watched_run(w, &c, a, &sa, what);
            CU_ASSERT_EQUAL(rc, 0);
            if (rc == 0) {
                if (k->sched->stops_jobs) {
                    CU_ASSERT_EQUAL(badly_stopped(w, a, &sa), 0);
                } else {
                    CU_ASSERT_EQUAL(badly_run(w, a, sa.held, what), 0);
                }
                /* (the last runs of a scheduler that stops jobs are not
                   all it held) */
                int over = !k->sched->stops_jobs && over_total(cc, a, sa.held);
                if (over)
                    fprintf(stderr, "\n%s: the jobs held more than the cluster has\n", what);
                CU_ASSERT_FALSE(over);
                /* the same again (and the watch changed nothing) */
                hsim_err_t e;
                memset(&e, 0, sizeof e);
                CU_ASSERT_EQUAL_FATAL(hsim_engine_run(w, &c, b, &sb, &e), 0);
                CU_ASSERT_EQUAL(hsim_test_compare_runs(w, a, b, what, 0), 0);
                CU_ASSERT_EQUAL(memcmp(a, b, w->n_jobs * sizeof *a), 0);
                CU_ASSERT_EQUAL(memcmp(sa.held, sb.held, w->n_jobs * sizeof *sa.held), 0);
                CU_ASSERT_EQUAL(sa.n_ranges, sb.n_ranges);
                if (sa.n_ranges == sb.n_ranges && sa.n_ranges)
                    CU_ASSERT_EQUAL(memcmp(sa.ranges, sb.ranges, sa.n_ranges), 0);
                CU_ASSERT_EQUAL(sa.events, sb.events);
                CU_ASSERT_EQUAL(sa.passes, sb.passes);
                cc->runs++;
            }
            hsim_run_stats_free(&sa);
            hsim_run_stats_free(&sb);
            free(a);
            free(b);
        }
}

static void test_every_combination_on_nodes(void)
{
    static cluster_case_t cc; /* large */
    memset(&cc, 0, sizeof cc);
    uint64_t x = 0x243F6A8885A308D3ULL;
    hsim_node_type_t *t = cc.spec.types;
    size_t nt = hsim_test_random_cluster(&x, t);
    /* CPU nodes twice as fast: durations scaled */
    t[nt] = hsim_test_node_type("fast", 2, 8, 16384, 0, "", 0);
    t[nt].speed = 2.0;
    nt++;
    cc.spec.spec = (hsim_cluster_spec_t){.types = t, .n_types = nt, .class_speed = cc.speeds,
                                         .n_classes = 1};
    cc.spec.class_speed = cc.speeds; /* not hsim_spec_free()'s: never called */
    for (size_t k = 0; k < nt; k++) {
        cc.total_cores += (int64_t)t[k].count * t[k].cores;
        cc.total_mem += (int64_t)t[k].count * t[k].mem_mb;
        cc.total_milli += 1000 * (int64_t)t[k].count * t[k].gpus;
        cc.total_fpgas += (int64_t)t[k].count * t[k].fpgas;
    }
    cc.cores = (int32_t)cc.total_cores;

    hsim_workload_t *w = &cc.w;
    hsim_workload_init(w);
    hsim_test_random_mixed_jobs(w, &x, CLUSTER_JOBS, t);
    /* estimates from exact to four times the runtime; some jobs outrun
       theirs and are killed */
    for (size_t i = 0; i < w->n_jobs; i++) {
        hsim_job_t *j = &w->jobs[i];
        if (i % 3 == 1)
            j->estimate = j->runtime * hsim_test_between(&x, 2, 4);
        else if (i % 7 == 2)
            j->runtime = j->estimate + hsim_test_between(&x, 1, 60) * S;
    }
    /* and jobs no node can hold: rejected before the run, with a reason */
    int absent = hsim_workload_model(w, "absent");
    HSIM_ASSERT(absent >= 0);
    for (int i = 0; i < IMPOSSIBLE; i++) {
        hsim_job_t j = w->jobs[(size_t)i * 11];
        j.id = 1000 + i;
        j.line = j.id;
        j.gpus = 1;
        j.gpu_milli = 1000;
        j.gpu_models = 1u << absent;
        HSIM_ASSERT(hsim_workload_add(w, &j) == 0);
    }
    hsim_workload_sort(w);
    size_t before = w->n_jobs;
    CU_ASSERT_EQUAL_FATAL(hsim_spec_reject_impossible(&cc.spec, w), 0);
    CU_ASSERT_EQUAL(w->n_rejected, IMPOSSIBLE);
    CU_ASSERT_EQUAL(w->n_jobs + w->n_rejected, before);
    for (size_t i = 0; i < w->n_rejected; i++) {
        CU_ASSERT_TRUE(w->rejected[i].id >= 1000);
        CU_ASSERT_TRUE(strlen(w->rejected[i].reason) > 0);
    }

    size_t n = each_combo(cluster_combo, &cc), full = 0;
    each_combo(count_full, &full);
    size_t placements = 0;
    while (hsim_placements[placements])
        placements++;
    CU_ASSERT_TRUE(full >= 1);
    CU_ASSERT_EQUAL(cc.runs, full * placements * 2 + (n - full));
    hsim_workload_free(w);
}

/* ---- nodes of one core each: the pool's schedule ---- */

/* DESIGN.md: on nodes of one unit each, with nothing else binding, every
   schedule equals the pool's of as many processors, job for job.  So on
   such a cluster every combination, under every placement and spread,
   has a reference: its own schedule on the pool. */
#define UNIT_NODES 24
#define UNIT_JOBS 150

typedef struct unit_case {
    hsim_workload_t w;
    hsim_node_type_t type;
    hsim_cluster_spec_t spec;
    size_t runs;
} unit_case_t;

static void unit_combo(const combo_t *k, void *arg)
{
    unit_case_t *uc = arg;
    const hsim_workload_t *w = &uc->w;
    char name[128];
    combo_name(k, name, sizeof name);
    hsim_outcome_t *pool = malloc(w->n_jobs * sizeof *pool);
    hsim_outcome_t *nodes = malloc(w->n_jobs * sizeof *nodes);
    HSIM_ASSERT(pool && nodes);
    hsim_run_config_t c = combo_config(k, UNIT_NODES);
    hsim_err_t e;
    memset(&e, 0, sizeof e);
    int rc = hsim_engine_run(w, &c, pool, NULL, &e);
    if (rc)
        fprintf(stderr, "\n%s on the pool: %s\n", name, e.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    for (size_t p = 0; hsim_placements[p]; p++)
        for (int spread = 0; spread < 2; spread++) {
            char what[192];
            snprintf(what, sizeof what, "%s on %d one-core nodes, %s, %s, against the pool",
                     name, UNIT_NODES, hsim_placements[p]->name, spread ? "spread" : "pack");
            c.cluster = &uc->spec;
            c.placement = hsim_placements[p];
            c.spread = spread ? HSIM_SPREAD : HSIM_PACK;
            memset(&e, 0, sizeof e);
            rc = hsim_engine_run(w, &c, nodes, NULL, &e);
            if (rc)
                fprintf(stderr, "\n%s: %s\n", what, e.msg);
            CU_ASSERT_EQUAL(rc, 0);
            if (rc == 0) {
                /* (not a scheduler that stops jobs: a suspended job
                   resumes on its own nodes, which the pool knows nothing
                   of) */
                if (!k->sched->stops_jobs) {
                    CU_ASSERT_EQUAL(hsim_test_compare_runs(w, nodes, pool, what, 0), 0);
                }
                uc->runs++;
            }
        }
    free(pool);
    free(nodes);
}

static void test_every_combination_on_unit_nodes(void)
{
    static unit_case_t uc; /* large */
    memset(&uc, 0, sizeof uc);
    uc.type = hsim_test_node_type("unit", UNIT_NODES, 1, 0, 0, "", 0);
    uc.spec = (hsim_cluster_spec_t){.types = &uc.type, .n_types = 1};
    hsim_test_random_workload(&uc.w, 4400, UNIT_JOBS, UNIT_NODES, 1.4);
    size_t n = each_combo(unit_combo, &uc);
    size_t placements = 0;
    while (hsim_placements[placements])
        placements++;
    CU_ASSERT_EQUAL(uc.runs, n * placements * 2);
    hsim_workload_free(&uc.w);
}

/* ---- the registries themselves ---- */

/* Names unique, non-empty and found by name; the callbacks each kind must
   have. */
static void test_registries_well_formed(void)
{
    for (size_t i = 0; hsim_orders[i]; i++) {
        const hsim_order_t *o = hsim_orders[i];
        CU_ASSERT_TRUE(o->name && o->name[0]);
        CU_ASSERT_PTR_EQUAL(hsim_order_find(o->name), o);
        CU_ASSERT_PTR_NOT_NULL(o->compare);
        CU_ASSERT_TRUE(!o->create == !o->destroy); /* state made and freed */
        CU_ASSERT_TRUE(!o->report == !o->report_name);
        CU_ASSERT_TRUE(!(o->pass || o->started || o->ended || o->report) || o->create);
        /* every parameter's default within its range */
        for (size_t k = 0; o->params && o->params[k].name; k++) {
            const hsim_param_def_t *d = &o->params[k];
            CU_ASSERT_TRUE(d->help && d->help[0]);
            if (d->type == HSIM_PARAM_REAL || d->type == HSIM_PARAM_INT)
                CU_ASSERT_TRUE(d->def >= d->min && d->def <= d->max);
            if (d->type == HSIM_PARAM_CHOICE || d->type == HSIM_PARAM_ORDERS)
                CU_ASSERT_PTR_NOT_NULL(d->choices);
        }
    }
    for (size_t i = 0; hsim_schedulers[i]; i++) {
        const hsim_scheduler_t *s = hsim_schedulers[i];
        CU_ASSERT_TRUE(s->name && s->name[0]);
        CU_ASSERT_PTR_EQUAL(hsim_scheduler_find(s->name), s);
        CU_ASSERT_TRUE(s->create && s->destroy && s->schedule);
    }
    for (size_t i = 0; hsim_predictors[i]; i++) {
        const hsim_predictor_t *p = hsim_predictors[i];
        CU_ASSERT_TRUE(p->name && p->name[0]);
        CU_ASSERT_PTR_EQUAL(hsim_predictor_find(p->name), p);
        CU_ASSERT_TRUE(p->create && p->destroy && p->predict);
    }
    for (size_t i = 0; hsim_placements[i]; i++) {
        const hsim_placement_t *p = hsim_placements[i];
        CU_ASSERT_TRUE(p->name && p->name[0]);
        CU_ASSERT_PTR_EQUAL(hsim_placement_find(p->name), p);
        CU_ASSERT_TRUE(p->create && p->destroy && p->place);
    }
    CU_ASSERT_PTR_NULL(hsim_order_find("no-such-order"));
    CU_ASSERT_PTR_NULL(hsim_scheduler_find("no-such-scheduler"));
    CU_ASSERT_PTR_NULL(hsim_predictor_find("no-such-predictor"));
    CU_ASSERT_PTR_NULL(hsim_placement_find("no-such-placement"));
}

static int sign(int v) { return (v > 0) - (v < 0); }

/* Order o's state for jobs[0..n) all waiting at now on 8 processors, with
   its pass() run: NULL for an order without state. */
static void *order_open(const hsim_order_t *o, const hsim_vjob_t *jobs, int32_t *waiting,
                        size_t n, hsim_time_t now)
{
    void *st = NULL;
    hsim_order_ctx_t c = {.n_jobs = n, .capacity = 8, .seed = 1};
    if (o->create)
        CU_ASSERT_EQUAL_FATAL(o->create(&c, &st), 0);
    for (size_t i = 0; i < n; i++)
        waiting[i] = (int32_t)i;
    hsim_view_t v = {.now = now, .capacity = 8, .jobs = jobs, .waiting = waiting,
                     .n_waiting = n};
    if (o->pass)
        CU_ASSERT_EQUAL(o->pass(st, &v), 0);
    return st;
}

/* Each order is a strict total order on jobs with many ties (policy.h):
   a job is equal only to itself, compare(a, b) is -compare(b, a), and a
   list sorted by it is in order for every pair (transitivity), now and
   later (an order may depend on the time). */
static void test_orders_are_total(void)
{
    enum { N = 60 };
    hsim_vjob_t jobs[N];
    uint64_t x = 0x13198A2E03707344ULL;
    for (int32_t i = 0; i < N; i++)
        jobs[i] = (hsim_vjob_t){.submit = hsim_test_between(&x, 0, 5) * S,
                                .estimate = hsim_test_between(&x, 1, 4) * 60 * S,
                                .requested = 300 * S,
                                .procs = (int32_t)hsim_test_between(&x, 1, 3),
                                .user = (int32_t)hsim_test_between(&x, -1, 2),
                                .group = (int32_t)hsim_test_between(&x, -1, 1),
                                .queue = (int32_t)hsim_test_between(&x, -1, 2),
                                .partition = (int32_t)hsim_test_between(&x, -1, 1)};
    for (size_t i = 0; hsim_orders[i]; i++) {
        const hsim_order_t *o = hsim_orders[i];
        for (int later = 0; later < 2; later++) {
            hsim_time_t now = later ? 100000 * S : 5 * S;
            size_t bad = 0;
            int32_t sorted[N], waiting[N];
            void *st = order_open(o, jobs, waiting, N, now);
            for (int32_t a = 0; a < N; a++) {
                for (int32_t b = 0; b < N; b++) {
                    int ab = sign(o->compare(st, jobs, a, b, now));
                    int ba = sign(o->compare(st, jobs, b, a, now));
                    bad += a == b ? ab != 0 : ab == 0 || ab != -ba;
                }
                int32_t k = a; /* insertion sort */
                while (k > 0 && o->compare(st, jobs, a, sorted[k - 1], now) < 0) {
                    sorted[k] = sorted[k - 1];
                    k--;
                }
                sorted[k] = a;
            }
            for (int32_t p = 0; p < N; p++)
                for (int32_t q = p + 1; q < N; q++)
                    bad += o->compare(st, jobs, sorted[p], sorted[q], now) >= 0;
            if (st)
                o->destroy(st);
            if (bad)
                fprintf(stderr, "\norder %s: %zu pairs out of order\n", o->name, bad);
            CU_ASSERT_EQUAL(bad, 0);
        }
    }
}

void hsim_test_register(void)
{
    CU_pSuite r = hsim_test_suite("registry");
    HSIM_TEST(r, test_registries_well_formed);
    HSIM_TEST(r, test_orders_are_total);
    HSIM_TEST(r, test_every_combination_on_a_pool);
    HSIM_TEST(r, test_every_combination_on_nodes);
    HSIM_TEST(r, test_every_combination_on_unit_nodes);
}
