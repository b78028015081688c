/*
 * test_core.c - the core that drivers share (sim/core.h): nothing in it
 * assumes the run's jobs are known in advance.
 *
 * - Every per-job table grows with the jobs: runs whose core starts with
 *   room for one job (jobs_hint = 1), so that every table, the policies'
 *   included, grows as jobs come, give the schedules and figures of runs
 *   that made room for all at once; on a pool and on random heterogeneous
 *   clusters, for every scheduler, several orders, predictors that revise
 *   and expire, failures and preemption.
 * - A second driver, written here on core.h alone with a clock of its own
 *   and jobs made as they arrive (no workload, no runtimes told to the
 *   core), gives the event engine's schedule.
 * - The core refuses what a driver must not ask.
 * - Users are numbered as they come (sim/idmap.h, which the predictors
 *   use too).
 */
#include "sched_test.h"

#include "policies/registry.h"
#include "sim/core.h"
#include "sim/failures.h"
#include "sim/idmap.h"

#include <stdlib.h>
#include <string.h>

#define S HSIM_SECOND

/* Runs w under c twice, the core's room made for every job or for one;
   fails the test unless the outcomes and the figures are the same.
   Returns the events that stop or revise jobs (failures, preemptions,
   expiries), for the caller to see that it tried some. */
static uint64_t same_when_growing(const hsim_workload_t *w, hsim_run_config_t c, const char *what,
                              unsigned long seed)
{
    hsim_outcome_t *a = hsim_calloc(w->n_jobs ? w->n_jobs : 1, sizeof *a);
    hsim_outcome_t *b = hsim_calloc(w->n_jobs ? w->n_jobs : 1, sizeof *b);
    hsim_run_stats_t sa, sb;
    hsim_err_t e = {{0}};
    c.jobs_hint = 0;
    int rca = hsim_engine_run(w, &c, a, &sa, &e);
    c.jobs_hint = 1;
    int rcb = hsim_engine_run(w, &c, b, &sb, &e);
    if (rca || rcb)
        fprintf(stderr, "\n%s seed %lu: rc %d and %d: %s\n", what, seed, rca, rcb, e.msg);
    CU_ASSERT_EQUAL(rca, 0);
    CU_ASSERT_EQUAL(rcb, 0);
    CU_ASSERT_EQUAL(hsim_test_compare_runs(w, a, b, what, seed), 0);
    CU_ASSERT_EQUAL(sa.events, sb.events);
    CU_ASSERT_EQUAL(sa.passes, sb.passes);
    CU_ASSERT_EQUAL(sa.expiries, sb.expiries);
    CU_ASSERT_EQUAL(sa.preemptions, sb.preemptions);
    CU_ASSERT_EQUAL(sa.failures, sb.failures);
    CU_ASSERT(sa.core_s == sb.core_s);
    for (size_t i = 0; sa.held && sb.held && i < w->n_jobs; i++)
        if (sa.held[i].cores != sb.held[i].cores || sa.held[i].gpu_milli != sb.held[i].gpu_milli) {
            CU_FAIL("what a job held differs");
            break;
        }
    uint64_t stops = sa.failures + sa.preemptions + sa.expiries;
    hsim_run_stats_free(&sa);
    hsim_run_stats_free(&sb);
    hsim_free(a);
    hsim_free(b);
    return stops;
}

/* On a pool: every scheduler under every order, with the user's
   estimates and with last2, which revises and expires. */
static void test_growing_on_a_pool(void)
{
    static const char *const preds[] = {"user", "last2"};
    unsigned long seeds = hsim_test_seeds(2);
    size_t runs = 0;
    uint64_t expiries = 0;
    for (unsigned long seed = 1; seed <= seeds; seed++) {
        hsim_workload_t w;
        hsim_test_random_workload(&w, seed, 300, 32, 1.3);
        for (size_t s = 0; hsim_schedulers[s]; s++)
            for (size_t o = 0; hsim_orders[o]; o++)
                for (size_t p = 0; p < sizeof preds / sizeof *preds; p++) {
                    const char *sched = hsim_schedulers[s]->name, *order = hsim_orders[o]->name;
                    hsim_run_config_t c = hsim_test_config(32, sched, order, NULL, preds[p]);
                    c.quantum = 600 * S;
                    const char *key;
                    if (hsim_policy_refusal(c.order, NULL, c.scheduler, c.predictor, &key))
                        continue;
                    char what[96];
                    snprintf(what, sizeof what, "%s/%s/%s", sched, order, preds[p]);
                    expiries += same_when_growing(&w, c, what, seed);
                    runs++;
                }
        hsim_workload_free(&w);
    }
    CU_ASSERT(runs >= 30 * seeds); /* the refusals left most of them */
    CU_ASSERT(expiries > 0);        /* last2 underpredicted some */
}

/* On random heterogeneous clusters: planning on nodes (EASY,
   conservative), every placement, failures with requeue, preemption by
   suspension. */
static void test_growing_on_clusters(void)
{
    static const char *const placements[] = {"first-fit", "best-fit", "least-connections",
                                             "heterogeneity-aware", "round-robin"};
    unsigned long seeds = hsim_test_seeds(3);
    for (unsigned long seed = 1; seed <= seeds; seed++) {
        uint64_t x = 0x9E3779B97F4A7C15ULL * seed;
        hsim_node_type_t t[4];
        hsim_cluster_spec_t spec;
        hsim_workload_t w;
        int32_t cores = hsim_test_random_case(&x, t, &spec, &w, 200);
        for (size_t p = 0; p < sizeof placements / sizeof *placements; p++) {
            static const char *const scheds[] = {"easy", "conservative", "none"};
            for (size_t s = 0; s < 3; s++) {
                hsim_run_config_t c = hsim_test_config(cores, scheds[s], "fcfs", NULL, "user");
                c.cluster = &spec;
                c.placement = hsim_placement_find(placements[p]);
                CU_ASSERT_FATAL(c.placement != NULL);
                char what[96];
                snprintf(what, sizeof what, "%s on %s", scheds[s], placements[p]);
                same_when_growing(&w, c, what, seed);
            }
        }
        hsim_failures_t f = {.dist = HSIM_FAIL_EXPONENTIAL, .mtbf = 20000 * S,
                             .mttr = 2000 * S, .shape = 1, .seed = seed, .type = -1,
                             .on_failure = HSIM_ON_FAILURE_REQUEUE};
        hsim_run_config_t c = hsim_test_config(cores, "easy", "fcfs", NULL, "last2");
        c.cluster = &spec;
        c.placement = hsim_placement_find("first-fit");
        c.failures = &f;
        CU_ASSERT(same_when_growing(&w, c, "easy, last2, failures", seed) > 0);
        c = hsim_test_config(cores, "easy", "priority", NULL, "user");
        c.cluster = &spec;
        c.placement = hsim_placement_find("first-fit");
        c.preempt = HSIM_STOP_SUSPEND;
        CU_ASSERT(same_when_growing(&w, c, "easy, preempt = suspend", seed) > 0);
        hsim_workload_free(&w);
    }
}

/* ---- a second driver ---- */

/* A driver of the test's own: a clock of its own, jobs made as they
   arrive, their runs kept here (the core is told nothing of them). */
typedef struct live {
    hsim_core_t *core;
    hsim_time_t now;
    hsim_job_t *jobs[64];      /* made at arrival; index = the core's */
    hsim_time_t run[64];       /* how long each runs (this driver's secret) */
    hsim_time_t start[64], end[64]; /* what happened; end -1 while running */
    size_t n;
} live_t;

static int live_started(void *arg, int32_t job, double speed, hsim_time_t expiry)
{
    (void)speed;
    (void)expiry;
    live_t *l = arg;
    l->start[job] = l->now;
    l->end[job] = -1;
    return 0;
}

static void live_stopped(void *arg, int32_t job)
{
    (void)arg;
    (void)job;
    CU_FAIL("no job stops in this run");
}

static int live_timer(void *arg, hsim_time_t at)
{
    (void)arg;
    (void)at;
    CU_FAIL("no policy of this run asks for a timer");
    return 0;
}

/* The next running job to end (least end, then least index), -1 none. */
static int32_t next_end(const live_t *l, hsim_time_t *at)
{
    int32_t best = -1;
    for (size_t i = 0; i < l->n; i++)
        if (l->start[i] >= 0 && l->end[i] < 0 &&
            (best < 0 || l->start[i] + l->run[i] < *at)) {
            best = (int32_t)i;
            *at = l->start[i] + l->run[i];
        }
    return best;
}

/* The jobs: submitted at sub, procs, runtime run, requested est. */
static const struct {
    int64_t sub, procs, run, est;
} arrivals[] = {
    {0, 6, 100, 100}, {10, 6, 50, 100}, {20, 4, 30, 40}, {30, 4, 200, 200},
    {30, 2, 20, 300}, {40, 10, 60, 60},  {45, 1, 5, 10},  {300, 3, 40, 50},
};
#define N_ARRIVALS (sizeof arrivals / sizeof *arrivals)

/* Drives sched on 10 processors with the live driver: arrivals first at
   each time, then the ends due (by start order, as the engine's heap has
   them), then the reserved starts due. */
static void drive_live(const char *sched, live_t *l)
{
    hsim_run_config_t c = hsim_test_config(10, sched, "fcfs", NULL, "user");
    hsim_driver_t d = {.arg = l, .started = live_started, .stopped = live_stopped,
                       .timer = live_timer};
    hsim_err_t e = {{0}};
    hsim_core_setup_t su = {.cfg = &c, .driver = &d, .unix_start = HSIM_HEADER_ABSENT,
                            .time_zone = HSIM_HEADER_ABSENT, .jobs_hint = 1, .e = &e};
    memset(l, 0, sizeof *l);
    CU_ASSERT_EQUAL_FATAL(hsim_core_create(&su, &l->core), 0);
    size_t next = 0;
    for (;;) {
        hsim_time_t t = HSIM_TIME_MAX, end_at = HSIM_TIME_MAX;
        if (next < N_ARRIVALS)
            t = arrivals[next].sub * S;
        int32_t ending = next_end(l, &end_at);
        const hsim_event_t *r = hsim_core_next_start(l->core);
        if (ending >= 0 && end_at < t)
            t = end_at;
        if (r && r->time < t)
            t = r->time;
        if (t == HSIM_TIME_MAX)
            break;
        l->now = t;
        CU_ASSERT_EQUAL_FATAL(hsim_core_set_now(l->core, t), 0);
        if (next < N_ARRIVALS && arrivals[next].sub * S == t) {
            hsim_job_t *j = hsim_malloc(sizeof *j);
            hsim_job_init(j);
            j->id = (int64_t)next + 1;
            j->submit = t;
            j->procs = (int32_t)arrivals[next].procs;
            j->estimate = arrivals[next].est * S;
            j->user = (int32_t)(next % 3);
            l->jobs[l->n] = j;
            l->run[l->n] = arrivals[next].run * S;
            l->start[l->n] = -1;
            int32_t job;
            CU_ASSERT_EQUAL_FATAL(hsim_core_add(l->core, j, &job), 0);
            CU_ASSERT_EQUAL(job, (int32_t)l->n);
            l->n++;
            next++;
            CU_ASSERT_EQUAL_FATAL(hsim_core_submit(l->core, job), 0);
        } else if (ending >= 0 && end_at == t) {
            l->end[ending] = t;
            CU_ASSERT_EQUAL_FATAL(hsim_core_end(l->core, ending, l->run[ending]), 0);
        } else {
            CU_ASSERT_EQUAL_FATAL(hsim_core_start_reserved(l->core), 0);
        }
    }
    int32_t first;
    CU_ASSERT_EQUAL(hsim_core_waiting(l->core, &first), 0);
    CU_ASSERT_EQUAL(hsim_core_jobs(l->core), N_ARRIVALS);
    CU_ASSERT_EQUAL(hsim_core_ended(l->core), N_ARRIVALS);
    CU_ASSERT_EQUAL(hsim_core_destroy(l->core, 1, NULL), 0);
}

/* The live driver's schedule is the event engine's, for each scheduler. */
static void test_second_driver(void)
{
    static const char *const scheds[] = {"none", "easy", "conservative"};
    hsim_workload_t w;
    hsim_workload_init(&w);
    for (size_t i = 0; i < N_ARRIVALS; i++)
        hsim_test_add_job(&w, (int64_t)i + 1, arrivals[i].sub, (int32_t)arrivals[i].procs,
                          arrivals[i].run, arrivals[i].est);
    hsim_workload_sort(&w);
    for (size_t s = 0; s < sizeof scheds / sizeof *scheds; s++) {
        hsim_outcome_t out[N_ARRIVALS];
        hsim_err_t e = {{0}};
        hsim_run_config_t c = hsim_test_config(10, scheds[s], "fcfs", NULL, "user");
        CU_ASSERT_EQUAL_FATAL(hsim_test_run(&w, &c, out, &e), 0);
        live_t l;
        drive_live(scheds[s], &l);
        for (size_t i = 0; i < N_ARRIVALS; i++) {
            size_t k = hsim_test_idx_of(&w, l.jobs[i]->id);
            if (out[k].start != l.start[i] || out[k].end != l.end[i])
                fprintf(stderr, "\n%s: job %zu live [%lld, %lld], engine [%lld, %lld]\n",
                        scheds[s], i + 1, (long long)(l.start[i] / S),
                        (long long)(l.end[i] / S), (long long)(out[k].start / S),
                        (long long)(out[k].end / S));
            CU_ASSERT_EQUAL(out[k].start, l.start[i]);
            CU_ASSERT_EQUAL(out[k].end, l.end[i]);
            hsim_free(l.jobs[i]);
        }
    }
    hsim_workload_free(&w);
}

/* What a driver must not ask is refused with HSIM_EINPUT, the core
   unchanged. */
static void test_driver_errors(void)
{
    hsim_run_config_t c = hsim_test_config(4, "easy", "fcfs", NULL, "user");
    live_t l;
    memset(&l, 0, sizeof l);
    hsim_driver_t d = {.arg = &l, .started = live_started, .stopped = live_stopped,
                       .timer = live_timer};
    hsim_err_t e = {{0}};
    hsim_core_setup_t su = {.cfg = &c, .driver = &d, .unix_start = HSIM_HEADER_ABSENT,
                            .time_zone = HSIM_HEADER_ABSENT, .e = &e};
    hsim_core_t *core;
    CU_ASSERT_EQUAL_FATAL(hsim_core_create(&su, &core), 0);
    hsim_job_t big, small;
    hsim_job_init(&big);
    big.id = 1;
    big.procs = 5;
    big.estimate = 10 * S;
    small = big;
    small.id = 2;
    small.procs = 4;
    int32_t job;
    CU_ASSERT_EQUAL(hsim_core_add(core, &big, &job), HSIM_EINPUT); /* 5 > 4 processors */
    CU_ASSERT(hsim_test_message_ok(e.msg, "job 1", "5 processors", NULL, NULL));
    CU_ASSERT_EQUAL(hsim_core_jobs(core), 0);
    CU_ASSERT_EQUAL_FATAL(hsim_core_add(core, &small, &job), 0);
    CU_ASSERT_EQUAL(hsim_core_end(core, job, S), HSIM_EINPUT); /* not running */
    CU_ASSERT(hsim_test_message_ok(e.msg, "driver error", NULL, NULL, NULL));
    CU_ASSERT_EQUAL(hsim_core_expire(core, job), HSIM_EINPUT);
    CU_ASSERT_EQUAL(hsim_core_end(core, 7, S), HSIM_EINPUT); /* no such job */
    CU_ASSERT_EQUAL(hsim_core_fail_node(core, 0), HSIM_EINPUT); /* a pool */
    CU_ASSERT_EQUAL(hsim_core_submit(core, job), 0);
    CU_ASSERT_EQUAL(l.start[0], 0); /* it started at once */
    CU_ASSERT_EQUAL(hsim_core_submit(core, job), HSIM_EINPUT); /* twice */
    CU_ASSERT_EQUAL(hsim_core_set_now(core, 10 * S), 0);
    CU_ASSERT_EQUAL(hsim_core_set_now(core, 5 * S), HSIM_EINPUT); /* back in time */
    CU_ASSERT(hsim_test_message_ok(e.msg, "driver error: the time went from", NULL, NULL,
                                   NULL));
    CU_ASSERT_EQUAL(hsim_core_end(core, job, 10 * S), 0);
    CU_ASSERT_EQUAL(hsim_core_end(core, job, 10 * S), HSIM_EINPUT); /* ended */
    CU_ASSERT_EQUAL(hsim_core_ended(core), 1);
    CU_ASSERT_EQUAL(hsim_core_destroy(core, 1, NULL), 0);
}

/* Ids numbered 0, 1, 2... as they first come, the same number again
   after; none for an id not seen (nor in an empty map); through many
   doublings, ids spread over the whole int32 range, negatives and 0
   included. */
static void test_idmap(void)
{
    hsim_idmap_t m = {0};
    CU_ASSERT_EQUAL(hsim_idmap_find(&m, 7), -1);
    enum { IDS = 5000 };
    int bad = 0;
    for (int32_t i = 0; i < IDS; i++) {
        int32_t id = (int32_t)((uint32_t)i * 2654435761u - (uint32_t)(i % 2)), num = -2;
        CU_ASSERT_EQUAL_FATAL(hsim_idmap_number(&m, id, &num), 0);
        bad += num != i;
        CU_ASSERT_EQUAL_FATAL(hsim_idmap_number(&m, id, &num), 0); /* again */
        bad += num != i;
    }
    for (int32_t i = 0; i < IDS; i++)
        bad += hsim_idmap_find(&m, (int32_t)((uint32_t)i * 2654435761u - (uint32_t)(i % 2))) != i;
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(m.n, IDS);
    CU_ASSERT_EQUAL(hsim_idmap_find(&m, 3), -1); /* 3 = 0 x ... + 3: never given */
    hsim_idmap_free(&m);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("core");
    HSIM_TEST(s, test_growing_on_a_pool);
    HSIM_TEST(s, test_growing_on_clusters);
    HSIM_TEST(s, test_second_driver);
    HSIM_TEST(s, test_driver_errors);
    HSIM_TEST(s, test_idmap);
}
