/*
 * test_planner.c - the queue policies planning node by node (sim/planner.h)
 * against what they must be.
 *
 * Equivalence: on nodes of one unit each (one GPU with cores to spare, or
 * one core), with nothing else binding, EASY (in queue order and with an
 * SJF backfilling order, under FCFS and SJF queues) and conservative
 * backfilling give, job for job, the schedule of the same jobs on a pool of
 * as many processors, whatever the placement policy.
 *
 * Guarantees, on random heterogeneous clusters (CPU nodes, GPU nodes of two
 * models, FPGA nodes; memory that binds; model constraints), with exact
 * estimates on nodes of speed 1: every job starts; EASY never starts the
 * head later than the reservation the planner gives it (asked after every
 * pass, by a wrapper around the scheduler); conservative never starts a
 * job later than the first reservation it made for it (recorded from its
 * decisions).
 */
#include "sched_test.h"

#include "policies/registry.h"
#include "sim/engine.h"
#include "sim/planner.h"

#include <stdlib.h>
#include <string.h>

#define S HSIM_SECOND

static int run(const hsim_workload_t *w, int32_t capacity, const hsim_cluster_spec_t *spec,
               const char *queue, const char *backfill, const char *bf_order,
               const char *placement, const hsim_scheduler_t *sched, hsim_outcome_t *out)
{
    hsim_run_config_t c = {
        .capacity = capacity,
        .order = hsim_order_find(queue),
        .backfill_order = bf_order ? hsim_order_find(bf_order) : NULL,
        .scheduler = sched ? sched : hsim_scheduler_find(backfill),
        .predictor = hsim_predictor_find("user"),
        .cluster = spec,
        .placement = spec ? hsim_placement_find(placement) : NULL,
        .spread = HSIM_PACK,
    };
    HSIM_ASSERT(c.order && c.scheduler && c.predictor && (!spec || c.placement));
    hsim_err_t e;
    memset(&e, 0, sizeof e);
    int rc = hsim_engine_run(w, &c, out, NULL, &e);
    if (rc)
        fprintf(stderr, "\nengine (%s/%s): rc %d: %s\n", backfill, placement, rc, e.msg);
    return rc;
}

/* A random workload of n jobs of 1..size units: arrivals in bursts, so
   that queues form, estimates from exact to ten times the runtime. */
static void random_jobs(hsim_workload_t *w, uint64_t *x, size_t n, int32_t size, int gpu)
{
    hsim_time_t t = 0;
    for (size_t i = 0; i < n; i++) {
        hsim_job_t j;
        hsim_job_init(&j);
        j.id = (int64_t)i + 1;
        j.line = j.id;
        t += hsim_test_between(x, 0, 3) == 0 ? hsim_test_between(x, 0, 400) * S
                                             : hsim_test_between(x, 0, 20) * S;
        j.submit = t;
        int32_t units = hsim_test_between(x, 0, 3) == 0
                            ? (int32_t)hsim_test_between(x, 1, size)
                            : (int32_t)hsim_test_between(x, 1, size / 4 + 1);
        j.procs = units;
        if (gpu) {
            j.gpus = units;
            j.gpu_milli = 1000;
        }
        j.runtime = hsim_test_between(x, 1, 900) * S;
        j.estimate = hsim_test_between(x, 0, 2) == 0 ? j.runtime
                                                     : j.runtime * hsim_test_between(x, 1, 10);
        j.user = (int32_t)hsim_test_between(x, 0, 5);
        HSIM_ASSERT(hsim_workload_add(w, &j) == 0);
    }
}

static int same_starts(const hsim_workload_t *w, const hsim_outcome_t *a,
                       const hsim_outcome_t *b, const char *what)
{
    for (size_t i = 0; i < w->n_jobs; i++)
        if (a[i].start != b[i].start || a[i].end != b[i].end) {
            fprintf(stderr, "\n%s: job %lld starts at %lld us on the pool, %lld on the nodes\n",
                    what, (long long)w->jobs[i].id, (long long)a[i].start,
                    (long long)b[i].start);
            return 0;
        }
    return 1;
}

typedef struct policy_case {
    const char *queue, *backfill, *bf_order;
} policy_case_t;

static const policy_case_t cases[] = {
    {"fcfs", "easy", NULL},        {"fcfs", "easy", "sjf"}, {"sjf", "easy", NULL},
    {"fcfs", "conservative", NULL}, {"sjf", "conservative", NULL},
    {"fcfs", "none", NULL},
};
static const char *const placements[] = {"first-fit", "best-fit", "round-robin",
                                         "least-connections"};

/* Nodes of one unit each against the pool: gpu = 1, one GPU (and 4 cores)
   per node; gpu = 0, one core per node. */
static void equivalence(int gpu)
{
    unsigned long seeds = hsim_test_seeds(12);
    for (unsigned long seed = 1; seed <= seeds; seed++) {
        uint64_t x = 0x9E3779B97F4A7C15ULL * seed;
        int32_t size = (int32_t)hsim_test_between(&x, 4, 24);
        hsim_workload_t w;
        hsim_workload_init(&w);
        random_jobs(&w, &x, 300, size, gpu);
        hsim_node_type_t t = hsim_test_node_type("unit", size, gpu ? 4 : 1, 0, gpu, "g", 0);
        hsim_cluster_spec_t spec = {.types = &t, .n_types = 1};
        hsim_outcome_t *pool = hsim_calloc(w.n_jobs, sizeof *pool);
        hsim_outcome_t *nodes = hsim_calloc(w.n_jobs, sizeof *nodes);
        for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
            const policy_case_t *pc = &cases[k];
            CU_ASSERT_EQUAL_FATAL(
                run(&w, size, NULL, pc->queue, pc->backfill, pc->bf_order, NULL, NULL, pool), 0);
            const char *pl = placements[(seed + k) % (sizeof placements / sizeof *placements)];
            CU_ASSERT_EQUAL_FATAL(run(&w, size * (gpu ? 4 : 1), &spec, pc->queue, pc->backfill,
                                      pc->bf_order, pl, NULL, nodes),
                                  0);
            char what[160];
            snprintf(what, sizeof what, "seed %lu, %s nodes, %s/%s/%s, %s", seed,
                     gpu ? "GPU" : "core", pc->queue, pc->backfill,
                     pc->bf_order ? pc->bf_order : "-", pl);
            CU_ASSERT(same_starts(&w, pool, nodes, what));
        }
        hsim_free(pool);
        hsim_free(nodes);
        hsim_workload_free(&w);
    }
}

static void test_equivalence_gpu_nodes(void) { equivalence(1); }
static void test_equivalence_core_nodes(void) { equivalence(0); }

/* ---- guarantees, through a scheduler that watches the real one ---- */

typedef struct watch {
    const hsim_scheduler_t *inner;
    void *state;
    const hsim_decide_t *real;  /* the engine's decisions, during a call */
    hsim_decide_t mine;         /* what the inner scheduler is given */
    hsim_time_t *first;         /* by job: its first reservation, -1 */
    hsim_time_t *head_by;       /* by job: the earliest reservation the
                                   planner gave it as the head, -1 */
    hsim_booking_t b;
    size_t n_jobs;
} watch_t;

static int w_start(void *ctx, int32_t job)
{
    watch_t *s = ctx;
    return s->real->start(s->real->ctx, job);
}

static int w_reserve(void *ctx, int32_t job, hsim_time_t at)
{
    watch_t *s = ctx;
    if (s->first[job] < 0)
        s->first[job] = at;
    return s->real->reserve(s->real->ctx, job, at);
}

static int w_start_on(void *ctx, int32_t job, const hsim_alloc_t *a)
{
    watch_t *s = ctx;
    return s->real->start_on(s->real->ctx, job, a);
}

static int w_reserve_on(void *ctx, int32_t job, hsim_time_t at, const hsim_alloc_t *a)
{
    watch_t *s = ctx;
    if (s->first[job] < 0)
        s->first[job] = at;
    return s->real->reserve_on(s->real->ctx, job, at, a);
}

static int watch_create(const hsim_scheduler_t *inner, const hsim_policy_params_t *p,
                        void **state)
{
    watch_t *s = hsim_calloc(1, sizeof *s);
    HSIM_ASSERT(s);
    s->inner = inner;
    s->n_jobs = p->n_jobs;
    s->first = hsim_malloc(p->n_jobs * sizeof *s->first);
    s->head_by = hsim_malloc(p->n_jobs * sizeof *s->head_by);
    for (size_t i = 0; i < p->n_jobs; i++)
        s->first[i] = s->head_by[i] = -1;
    s->mine = (hsim_decide_t){.ctx = s, .start = w_start, .reserve = w_reserve,
                              .start_on = w_start_on, .reserve_on = w_reserve_on};
    *state = s;
    return inner->create(p, &s->state);
}

/* Where the watch keeps what it saw, for the test to read after the run
   (the engine destroys the state). */
static hsim_time_t *seen_first, *seen_head;

static void watch_destroy(void *state)
{
    watch_t *s = state;
    s->inner->destroy(s->state);
    memcpy(seen_first, s->first, s->n_jobs * sizeof *s->first);
    memcpy(seen_head, s->head_by, s->n_jobs * sizeof *s->head_by);
    hsim_free(s->first);
    hsim_free(s->head_by);
    hsim_booking_free(&s->b);
    hsim_free(s);
}

static int watch_submitted(void *state, const hsim_view_t *v, int32_t job,
                           const hsim_decide_t *d)
{
    watch_t *s = state;
    s->real = d;
    return s->inner->submitted ? s->inner->submitted(s->state, v, job, &s->mine) : 0;
}

static int watch_ended(void *state, const hsim_view_t *v, int32_t job, hsim_time_t start,
                       hsim_time_t est_end, const hsim_decide_t *d)
{
    watch_t *s = state;
    s->real = d;
    return s->inner->ended ? s->inner->ended(s->state, v, job, start, est_end, &s->mine) : 0;
}

/* After each pass: the head (FCFS: the first job waiting) and the
   reservation the planner gives it now. */
static int watch_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    watch_t *s = state;
    s->real = d;
    int rc = s->inner->schedule(s->state, v, &s->mine);
    if (rc)
        return rc;
    for (size_t i = 0; i < v->n_waiting; i++) {
        int32_t head = v->waiting[i];
        if (head < 0)
            continue;
        rc = hsim_planner_shadow(v->planner, v, head, NULL, &s->b);
        if (rc == 0 && (s->head_by[head] < 0 || s->b.at < s->head_by[head]))
            s->head_by[head] = s->b.at;
        return rc == HSIM_NOFIT ? 0 : rc;
    }
    return 0;
}

static int watch_easy_create(const hsim_policy_params_t *p, void **state)
{
    return watch_create(hsim_scheduler_find("easy"), p, state);
}

static int watch_cons_create(const hsim_policy_params_t *p, void **state)
{
    return watch_create(hsim_scheduler_find("conservative"), p, state);
}

static const hsim_scheduler_t watch_easy = {
    .name = "watch-easy", .create = watch_easy_create, .destroy = watch_destroy,
    .submitted = watch_submitted, .ended = watch_ended, .schedule = watch_schedule,
    .plans_on_nodes = 1,
};
static const hsim_scheduler_t watch_cons = {
    .name = "watch-conservative", .create = watch_cons_create, .destroy = watch_destroy,
    .submitted = watch_submitted, .ended = watch_ended, .schedule = watch_schedule,
    .running_any_order = 1, .fixed_estimates = 1, .plans_on_nodes = 1,
};

static void guarantees(const hsim_scheduler_t *sched, int head_only)
{
    unsigned long seeds = hsim_test_seeds(20);
    for (unsigned long seed = 1; seed <= seeds; seed++) {
        uint64_t x = 0xD1B54A32D192ED03ULL * seed;
        hsim_node_type_t t[4];
        hsim_cluster_spec_t spec;
        hsim_workload_t w;
        int32_t cores = hsim_test_random_case(&x, t, &spec, &w, 250);
        hsim_outcome_t *out = hsim_calloc(w.n_jobs, sizeof *out);
        seen_first = hsim_malloc(w.n_jobs * sizeof *seen_first);
        seen_head = hsim_malloc(w.n_jobs * sizeof *seen_head);
        const char *pl = placements[seed % (sizeof placements / sizeof *placements)];
        CU_ASSERT_EQUAL(run(&w, cores, &spec, "fcfs", sched->name, NULL, pl, sched, out), 0);
        size_t late = 0, never = 0, reserved = 0;
        for (size_t i = 0; i < w.n_jobs; i++) {
            hsim_time_t promise = head_only ? seen_head[i] : seen_first[i];
            if (out[i].start < 0)
                never++;
            if (promise >= 0) {
                reserved++;
                if (out[i].start > promise) {
                    if (!late)
                        fprintf(stderr, "\nseed %lu (%s): job %lld started at %lld us, "
                                        "reserved at %lld\n",
                                seed, pl, (long long)w.jobs[i].id, (long long)out[i].start,
                                (long long)promise);
                    late++;
                }
            }
        }
        CU_ASSERT_EQUAL(never, 0);
        CU_ASSERT_EQUAL(late, 0);
        CU_ASSERT(reserved > 0); /* the check checked something */
        hsim_free(seen_first);
        hsim_free(seen_head);
        hsim_free(out);
        hsim_workload_free(&w);
    }
}

static void test_easy_head_never_late(void) { guarantees(&watch_easy, 1); }
static void test_conservative_never_late(void) { guarantees(&watch_cons, 0); }

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("planner");
    HSIM_TEST(s, test_equivalence_gpu_nodes);
    HSIM_TEST(s, test_equivalence_core_nodes);
    HSIM_TEST(s, test_easy_head_never_late);
    HSIM_TEST(s, test_conservative_never_late);
}
