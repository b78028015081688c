/*
 * test_strategies.c - the orders with state and parameters (priority,
 * fairshare, multifactor), worked by hand and on crafted workloads:
 *  - each order on four hand-made jobs, with the expected order worked on
 *    paper (below);
 *  - aging ends starvation: a low-priority job behind a stream of
 *    high-priority ones never starts before the stream ends under pure
 *    priority, and starts early with aging;
 *  - fair share converges to the configured shares on two users who keep
 *    the machine full;
 *  - conservative backfilling follows a time-dependent order;
 *  - adaptive switches orders on a crafted load step, as its thresholds
 *    and hysteresis say, and logs each switch; promotes and demotes;
 *  - ga and sa never plan worse than their starting order, and the same
 *    seed gives the same order;
 *  - parameters: parsed against each descriptor, errors name the valid
 *    ones, and a [policy] section's mistakes come at their line.
 */
#include "sched_test.h"

#include "policies/queue.h"
#include "policies/registry.h"
#include "policies/search.h"
#include "sim/config.h"

#include <stdlib.h>
#include <string.h>

#define S HSIM_SECOND

/*
 * job  submit  estimate  procs  user  group  queue  partition
 *  0    100 s    1000 s     1     1      1      1      0
 *  1    200 s     100 s    16     2      1      3      1
 *  2   1000 s    3600 s     4     3      2      2      0
 *  3   1000 s     100 s    16     4      2      3      1
 */
static const hsim_vjob_t jobs[] = {
    {.submit = 100 * S, .estimate = 1000 * S, .requested = 1000 * S, .procs = 1, .user = 1,
     .group = 1, .queue = 1, .partition = 0},
    {.submit = 200 * S, .estimate = 100 * S, .requested = 100 * S, .procs = 16, .user = 2,
     .group = 1, .queue = 3, .partition = 1},
    {.submit = 1000 * S, .estimate = 3600 * S, .requested = 3600 * S, .procs = 4, .user = 3,
     .group = 2, .queue = 2, .partition = 0},
    {.submit = 1000 * S, .estimate = 100 * S, .requested = 100 * S, .procs = 16, .user = 4,
     .group = 2, .queue = 3, .partition = 1},
};

/* Reads "key = value" lines of text into set, as a [policy] section. */
static void set_params(hsim_param_set_t *set, const char *const *kv)
{
    memset(set, 0, sizeof *set);
    for (size_t i = 0; kv && kv[i]; i += 2) {
        char why[512];
        int rc = hsim_plugin_param(kv[i], kv[i + 1], 1, set, why, sizeof why);
        if (rc != 1)
            fprintf(stderr, "\n%s = %s: %s\n", kv[i], kv[i + 1], why);
        CU_ASSERT_EQUAL_FATAL(rc, 1);
    }
}

/* The four jobs under order name with parameters kv at now, against want;
   hook, when not NULL, runs on the state before the pass. */
static void expect(const char *name, const char *const *kv, hsim_time_t now,
                   const int32_t want[4])
{
    const hsim_order_t *o = hsim_order_find(name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    hsim_param_set_t set;
    set_params(&set, kv);
    hsim_order_ctx_t c = {.n_jobs = 4, .capacity = 32, .values = &set, .seed = 1};
    void *st = NULL;
    CU_ASSERT_EQUAL_FATAL(o->create(&c, &st), 0);
    int32_t waiting[4] = {0, 1, 2, 3}, ids[4] = {3, 2, 1, 0};
    hsim_view_t v = {.now = now, .capacity = 32, .jobs = jobs, .waiting = waiting,
                     .n_waiting = 4};
    CU_ASSERT_EQUAL(o->pass(st, &v), 0);
    CU_ASSERT_EQUAL(hsim_order_sort(ids, 4, jobs, o, st, now), 0);
    int same = 1;
    for (int i = 0; i < 4; i++)
        same &= ids[i] == want[i];
    if (!same)
        fprintf(stderr, "\n%s at %lld s: %d %d %d %d\n", name, (long long)(now / S), ids[0],
                ids[1], ids[2], ids[3]);
    CU_ASSERT_TRUE(same);
    o->destroy(st);
}

/*
 * priority, at now = 2000 s (waits 1900, 1800, 1000, 1000 s):
 *  defaults (static = queue number, 1 point an hour): 1 + 0.528,
 *    3 + 0.5, 2 + 0.278, 3 + 0.278 -> 1, 3, 2, 0;
 *  age_weight = 100: 1 + 52.8, 3 + 50, 2 + 27.8, 3 + 27.8 -> 0, 1, 3, 2;
 *  table 1:10, 2:5, no aging: 10, 0, 5, 0 -> 0, 2, 1, 3 (1 and 3 tie);
 *  by user, table 2:7, no aging: 0, 7, 0, 0 -> 1, 0, 2, 3;
 *  max_age = 0.1 h with age_weight 100: every wait is capped at 360 s,
 *    so 1 + 10, 3 + 10, 2 + 10, 3 + 10 -> 1, 3, 2, 0.
 */
static void test_priority_by_hand(void)
{
    expect("priority", NULL, 2000 * S, (const int32_t[]){1, 3, 2, 0});
    expect("priority", (const char *const[]){"priority.age_weight", "100", NULL}, 2000 * S,
           (const int32_t[]){0, 1, 3, 2});
    expect("priority",
           (const char *const[]){"priority.table", "1:10, 2:5", "priority.age_weight", "0",
                                 NULL},
           2000 * S, (const int32_t[]){0, 2, 1, 3});
    expect("priority",
           (const char *const[]){"priority.source", "user", "priority.table", "2:7",
                                 "priority.age_weight", "0", NULL},
           2000 * S, (const int32_t[]){1, 0, 2, 3});
    expect("priority",
           (const char *const[]){"priority.age_weight", "100", "priority.max_age", "0.1", NULL},
           2000 * S, (const int32_t[]){1, 3, 2, 0});
}

/*
 * multifactor on a 32-processor machine, no usage yet (every fair-share
 * factor 1, the same for all), at now = 2000 s:
 *  size only (PriorityWeightJobSize 1, favor small): 1 - (n - 1) / 32 =
 *    1, 0.53, 0.906, 0.53 -> 0, 2, 1, 3;
 *  size, not favoring small: n / 32 = 0.03, 0.5, 0.125, 0.5 -> 1, 3, 2, 0;
 *  age only, PriorityMaxAge 0.5 h = 1800 s: 1 (capped), 1 (1800 s),
 *    0.556, 0.556 -> 0, 1, 2, 3;
 *  QOS only, QOSFactors 3:4, 2:2 -> 1, 0.5 -> 1, 3, 2, 0;
 *  partition only, PartitionFactors 0:1 -> 0, 2, 1, 3.
 */
static void test_multifactor_by_hand(void)
{
    static const char *const none[] = {
        "multifactor.PriorityWeightAge", "0", "multifactor.PriorityWeightFairshare", "0",
        "multifactor.PriorityWeightJobSize", "0"};
    const char *kv[16];
    struct {
        const char *k1, *v1, *k2, *v2;
        int32_t want[4];
    } cases[] = {
        {"multifactor.PriorityWeightQOS", "0", NULL, NULL, {0, 1, 2, 3}},
        {"multifactor.PriorityWeightQOS", "1", "multifactor.QOSFactors", "3:4, 2:2",
         {1, 3, 2, 0}},
        {"multifactor.PriorityWeightPartition", "1", "multifactor.PartitionFactors", "0:1",
         {0, 2, 1, 3}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = 0;
        for (size_t i = 0; i < 6; i++)
            kv[n++] = none[i];
        kv[n++] = cases[c].k1;
        kv[n++] = cases[c].v1;
        if (cases[c].k2) {
            kv[n++] = cases[c].k2;
            kv[n++] = cases[c].v2;
        }
        kv[n] = NULL;
        expect("multifactor", kv, 2000 * S, cases[c].want);
    }
    expect("multifactor",
           (const char *const[]){"multifactor.PriorityWeightAge", "0",
                                 "multifactor.PriorityWeightFairshare", "0",
                                 "multifactor.PriorityWeightJobSize", "1", NULL},
           2000 * S, (const int32_t[]){0, 2, 1, 3});
    expect("multifactor",
           (const char *const[]){"multifactor.PriorityWeightAge", "0",
                                 "multifactor.PriorityWeightFairshare", "0",
                                 "multifactor.PriorityFavorSmall", "no", NULL},
           2000 * S, (const int32_t[]){1, 3, 2, 0});
    expect("multifactor",
           (const char *const[]){"multifactor.PriorityWeightJobSize", "0",
                                 "multifactor.PriorityWeightFairshare", "0",
                                 "multifactor.PriorityMaxAge", "0.5", NULL},
           2000 * S, (const int32_t[]){0, 1, 2, 3});
}

/* A job of the workload, all fields given. */
static void add(hsim_workload_t *w, int64_t id, int64_t submit_s, int32_t procs, int64_t run_s,
                int32_t user, int32_t queue)
{
    hsim_job_t j = {.id = id, .line = id + 1, .submit = submit_s * S, .runtime = run_s * S,
                    .estimate = run_s * S, .procs = procs, .user = user, .group = -1,
                    .app = -1, .queue = queue, .partition = -1, .after = -1};
    CU_ASSERT_EQUAL_FATAL(hsim_workload_add(w, &j), 0);
}

/* Runs w on cap processors under sched and order with parameters kv. */
static void run(const hsim_workload_t *w, int32_t cap, const char *sched, const char *order,
                const char *const *kv, hsim_outcome_t *out)
{
    hsim_param_set_t set;
    set_params(&set, kv);
    hsim_run_config_t c = hsim_test_config(cap, sched, order, NULL, "user");
    c.values = &set;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_test_run(w, &c, out, &e), 0);
    hsim_test_check_invariants(w, out, cap, order);
}

/*
 * One processor.  Job 0 (queue 1, 100 s) at 0, then a stream of 200
 * queue-5 jobs of 100 s, one every 50 s from 0 on: the queue grows, and
 * always holds a queue-5 job.  Job 1 (queue 1) comes at 10 s.  Under pure
 * priority it starts only after the whole stream; with 100 points an hour
 * it passes a queue-5 job submitted 144 s after it, which the first few
 * passes already hold.
 */
static void test_aging_ends_starvation(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 1, 0, 1, 100, 0, 1);
    add(&w, 2, 10, 1, 100, 0, 1);
    for (int i = 0; i < 200; i++)
        add(&w, 3 + i, 20 + 50 * i, 1, 100, 1, 5);
    hsim_workload_sort(&w);
    hsim_outcome_t *out = calloc(w.n_jobs, sizeof *out);
    size_t low = hsim_test_idx_of(&w, 2);
    hsim_time_t last_stream = 0;
    for (int sched = 0; sched < 3; sched++) {
        const char *name = sched == 0 ? "none" : sched == 1 ? "easy" : "conservative";
        run(&w, 1, name, "priority", (const char *const[]){"priority.age_weight", "0", NULL},
            out);
        for (size_t i = 0; i < w.n_jobs; i++)
            if (w.jobs[i].queue == 5 && out[i].start > last_stream)
                last_stream = out[i].start;
        CU_ASSERT_TRUE(out[low].start > last_stream); /* starved to the end */
        run(&w, 1, name, "priority", (const char *const[]){"priority.age_weight", "100", NULL},
            out);
        CU_ASSERT_TRUE(out[low].start <= 600 * S);
    }
    free(out);
    hsim_workload_free(&w);
}

/*
 * Four processors, two users who each submit 600 one-processor jobs of
 * 100 s at time 0, interleaved (FCFS would give each half).  With shares
 * 2:1 and a half-life of half an hour, user 0 gets two thirds of the
 * machine while both have jobs waiting (until about 22,500 s, when user 0
 * runs out): over the first 18,000 s the processor-seconds started are
 * about 2:1.
 */
static void test_fairshare_converges_to_shares(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    for (int i = 0; i < 1200; i++)
        add(&w, 1 + i, 0, 1, 100, i % 2, -1);
    hsim_workload_sort(&w);
    hsim_outcome_t *out = calloc(w.n_jobs, sizeof *out);
    const char *const kv[] = {"fairshare.user_shares", "0:2, 1:1", "fairshare.half_life", "0.5",
                              NULL};
    for (int sched = 0; sched < 3; sched++) {
        const char *name = sched == 0 ? "none" : sched == 1 ? "easy" : "conservative";
        run(&w, 4, name, "fairshare", kv, out);
        double used[2] = {0, 0};
        for (size_t i = 0; i < w.n_jobs; i++)
            if (out[i].start < 18000 * S)
                used[w.jobs[i].user] += (double)(out[i].end - out[i].start) / S;
        double ratio = used[0] / used[1];
        if (!(ratio > 1.85 && ratio < 2.15))
            fprintf(stderr, "\nfairshare under %s: ratio %.3f\n", name, ratio);
        CU_ASSERT_TRUE(ratio > 1.85 && ratio < 2.15);
    }
    /* fcfs on the same jobs: half each, so the test can tell */
    run(&w, 4, "easy", "fcfs", NULL, out);
    double used[2] = {0, 0};
    for (size_t i = 0; i < w.n_jobs; i++)
        if (out[i].start < 18000 * S)
            used[w.jobs[i].user] += (double)(out[i].end - out[i].start) / S;
    CU_ASSERT_TRUE(used[0] / used[1] < 1.05);
    free(out);
    hsim_workload_free(&w);
}

/*
 * Conservative backfilling under a time-dependent order plans again at
 * every pass: one processor, job 1 runs [0, 100); job 2 (queue 1) comes at
 * 1 s, job 3 (queue 5) at 2 s, 100 s each.  In submission order job 2
 * would be reserved at 100; by priority job 3 takes that slot.
 */
static void test_conservative_follows_priority(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 1, 0, 1, 100, 0, 1);
    add(&w, 2, 1, 1, 100, 0, 1);
    add(&w, 3, 2, 1, 100, 1, 5);
    hsim_workload_sort(&w);
    hsim_outcome_t out[3];
    run(&w, 1, "conservative", "priority", NULL, out);
    hsim_test_check_schedule(&w, out,
                             (const hsim_test_expect_t[]){{1, 0, 100}, {3, 100, 200},
                                                          {2, 200, 300}},
                             3, "conservative+priority");
    run(&w, 1, "conservative", "fcfs", NULL, out);
    hsim_test_check_schedule(&w, out,
                             (const hsim_test_expect_t[]){{1, 0, 100}, {2, 100, 200},
                                                          {3, 200, 300}},
                             3, "conservative+fcfs");
    hsim_workload_free(&w);
}

/*
 * adaptive on a crafted load step, measured by queue length, thresholds 5
 * and (unused) higher, hysteresis 0.5: one processor; job 1 runs [0, 100);
 * jobs 2..7 (10 s each) come one a second from 10 s.  At 14 s the queue
 * holds 5 (jobs 2..6): up to sjf.  From 100 s one job starts every 10 s;
 * the pass at each termination sees 5, 4, 3 waiting (at 110, 120, 130 s)
 * and 2 at 140 s, below 5 x 0.5: back to fcfs.  The log says so, with the
 * utilization (1 at 14 s; 0 at 140 s, the job that ended having left)
 * and the backlog (50 s and 20 s of work on one processor).
 */
static void test_adaptive_switches_on_a_load_step(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 1, 0, 1, 100, 0, -1);
    for (int i = 0; i < 6; i++)
        add(&w, 2 + i, 10 + i, 1, 10, 1, -1);
    hsim_workload_sort(&w);
    const char *const kv[] = {"adaptive.orders", "fcfs,sjf", "adaptive.measure", "queue_len",
                              "adaptive.threshold1", "5", "adaptive.hysteresis", "0.5", NULL};
    hsim_param_set_t set;
    set_params(&set, kv);
    const char *want = "time,from,to,queue_len,utilization,backlog\n"
                       "14,fcfs,sjf,5,1.000000,50.000\n"
                       "140,sjf,fcfs,2,0.000000,20.000\n";
    for (int sched = 0; sched < 3; sched++) {
        const char *name = sched == 0 ? "none" : sched == 1 ? "easy" : "conservative";
        hsim_run_config_t c = hsim_test_config(1, name, "adaptive", NULL, "user");
        c.values = &set;
        hsim_outcome_t out[7];
        hsim_run_stats_t st;
        memset(&st, 0, sizeof st);
        hsim_err_t e = {{0}};
        CU_ASSERT_EQUAL_FATAL(hsim_engine_run(&w, &c, out, &st, &e), 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(st.order_report);
        if (strcmp(st.order_report, want))
            fprintf(stderr, "\nadaptive under %s:\n%s", name, st.order_report);
        CU_ASSERT_STRING_EQUAL(st.order_report, want);
        CU_ASSERT_EQUAL(st.order_report_len, strlen(want));
        hsim_free(st.order_report);
        hsim_free(st.node_busy);
        hsim_free(st.node_jobs);
        hsim_free(st.held);
        hsim_free(st.ranges);
    }
    hsim_workload_free(&w);
}

/*
 * adaptive's classes, by hand on the four jobs at now = 2000 s under sjf:
 * promote_after = 0.5 h promotes jobs 0 and 1 (waits 1900 s and 1800 s),
 * by submission; then 3 (100 s) before 2 (3600 s).  User 4 (job 3) has a
 * running job 9 that started at 500 s with a 1000 s estimate, past it at
 * 2000 s: with demote_overrun job 3 goes last.
 */
static void test_adaptive_classes(void)
{
    hsim_vjob_t js[10];
    memcpy(js, jobs, sizeof jobs);
    for (int i = 4; i < 10; i++)
        js[i] = (hsim_vjob_t){.submit = 0, .estimate = 1000 * S, .procs = 1, .user = 9};
    js[9].user = 4;
    const hsim_order_t *o = hsim_order_find("adaptive");
    hsim_param_set_t set;
    set_params(&set, (const char *const[]){"adaptive.orders", "sjf,fcfs",
                                           "adaptive.promote_after", "0.5", NULL});
    hsim_order_ctx_t c = {.n_jobs = 10, .capacity = 32, .values = &set, .seed = 1};
    void *st = NULL;
    CU_ASSERT_EQUAL_FATAL(o->create(&c, &st), 0);
    int32_t waiting[4] = {0, 1, 2, 3};
    hsim_running_t run9 = {.job = 9, .procs = 1, .start = 500 * S, .est_end = 1500 * S};
    hsim_view_t v = {.now = 500 * S, .capacity = 32, .jobs = js, .running = &run9,
                     .n_running = 1, .running_procs = 1};
    CU_ASSERT_EQUAL(o->started(st, &v, 9), 0);
    v.now = 2000 * S;
    v.waiting = waiting;
    v.n_waiting = 4;
    CU_ASSERT_EQUAL(o->pass(st, &v), 0);
    int32_t ids[4] = {3, 2, 1, 0};
    CU_ASSERT_EQUAL(hsim_order_sort(ids, 4, js, o, st, v.now), 0);
    CU_ASSERT_TRUE(ids[0] == 0 && ids[1] == 1 && ids[2] == 2 && ids[3] == 3);
    v.n_running = 0; /* no overrun now: 3 (100 s) before 2 */
    CU_ASSERT_EQUAL(o->pass(st, &v), 0);
    ids[0] = 3, ids[1] = 2, ids[2] = 1, ids[3] = 0;
    CU_ASSERT_EQUAL(hsim_order_sort(ids, 4, js, o, st, v.now), 0);
    CU_ASSERT_TRUE(ids[0] == 0 && ids[1] == 1 && ids[2] == 3 && ids[3] == 2);
    o->destroy(st);
}

/* The first k of order o's ranking of v's waiting jobs after a pass with
   parameters kv, into out; the state is kept in *st (destroyed by the
   caller). */
static void search_once(const char *name, const char *const *kv, const hsim_view_t *v,
                        int32_t *out, size_t n, void **st)
{
    const hsim_order_t *o = hsim_order_find(name);
    static hsim_param_set_t set; /* the state keeps no pointer into it */
    set_params(&set, kv);
    hsim_order_ctx_t c = {.n_jobs = n, .capacity = v->capacity, .values = &set, .seed = 7};
    CU_ASSERT_EQUAL_FATAL(o->create(&c, st), 0);
    CU_ASSERT_EQUAL_FATAL(o->pass(*st, v), 0);
    for (size_t i = 0; i < n; i++)
        out[i] = (int32_t)i;
    CU_ASSERT_EQUAL(hsim_order_sort(out, n, v->jobs, o, *st, v->now), 0);
}

/*
 * ga and sa on 40 random waiting jobs (1..8 of 16 processors, 1 to 60
 * minutes) beside 5 running ones, a window of 12, for each objective: the
 * order found plans no worse than the starting one (fcfs) by the search's
 * own cost; at least once strictly better; the jobs after the window keep
 * the base order; the same seed gives the same order.
 */
static void test_search_orders(void)
{
    enum { N = 45, W = 40 };
    hsim_vjob_t js[N];
    uint64_t x = 0x2545F4914F6CDD1DULL;
    for (int i = 0; i < N; i++)
        js[i] = (hsim_vjob_t){.submit = hsim_test_between(&x, 0, 600) * S,
                              .estimate = hsim_test_between(&x, 60, 3600) * S,
                              .procs = (int32_t)hsim_test_between(&x, 1, 8), .user = i % 4};
    int32_t waiting[W];
    for (int i = 0; i < W; i++)
        waiting[i] = i;
    hsim_running_t run[5];
    int32_t busy = 0;
    for (int i = 0; i < 5; i++) {
        run[i] = (hsim_running_t){.job = W + i, .procs = 2, .start = 0,
                                  .est_end = (700 + 300 * i) * S};
        busy += 2;
    }
    hsim_view_t v = {.now = 600 * S, .capacity = 16, .running_procs = busy, .jobs = js,
                     .waiting = waiting, .n_waiting = W, .running = run, .n_running = 5};
    static const char *const objectives[] = {"bsld", "wait", "makespan"};
    int better = 0;
    for (int o = 0; o < 2; o++) {
        const char *name = o ? "sa" : "ga";
        for (int k = 0; k < 3; k++) {
            char wkey[32], okey[32];
            snprintf(wkey, sizeof wkey, "%s.window", name);
            snprintf(okey, sizeof okey, "%s.objective", name);
            const char *const kv[] = {wkey, "12", okey, objectives[k], NULL};
            int32_t got[W], again[W];
            void *st, *st2;
            search_once(name, kv, &v, got, W, &st);
            search_once(name, kv, &v, again, W, &st2);
            CU_ASSERT_EQUAL(memcmp(got, again, sizeof got), 0); /* same seed */
            hsim_search_plan_t *plan = &((hsim_search_t *)st)->plan;
            int32_t start[12];
            for (int i = 0; i < 12; i++)
                start[i] = waiting[i]; /* fcfs: submission order */
            double c0 = hsim_search_cost(plan, start, 12), c1 = hsim_search_cost(plan, got, 12);
            CU_ASSERT_TRUE(c1 <= c0);
            better += c1 < c0;
            for (int i = 12; i < W; i++) /* after the window: fcfs */
                CU_ASSERT_EQUAL(got[i], i);
            hsim_order_find(name)->destroy(st);
            hsim_order_find(name)->destroy(st2);
        }
    }
    CU_ASSERT_TRUE(better >= 4);
}

/* Parameters are checked against the descriptor: unknown names, values
   out of range, malformed tables, twice the same key. */
static void test_parameters_checked(void)
{
    hsim_param_set_t set;
    memset(&set, 0, sizeof set);
    char why[512];
    CU_ASSERT_EQUAL(hsim_plugin_param("queue", "x", 1, &set, why, sizeof why), 0);
    CU_ASSERT_EQUAL(hsim_plugin_param("nosuch.x", "1", 1, &set, why, sizeof why), 0);
    CU_ASSERT_EQUAL(hsim_plugin_param("priority.age_weigth", "1", 1, &set, why, sizeof why),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "age_weight"));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "max_age"));
    CU_ASSERT_EQUAL(hsim_plugin_param("priority.age_weight", "-1", 1, &set, why, sizeof why),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "0..1e+09"));
    CU_ASSERT_EQUAL(hsim_plugin_param("priority.source", "qos", 1, &set, why, sizeof why), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "queue|user|group"));
    CU_ASSERT_EQUAL(hsim_plugin_param("priority.table", "1:2, 3", 1, &set, why, sizeof why), -1);
    CU_ASSERT_EQUAL(hsim_plugin_param("priority.table", "1:2, 1:3", 1, &set, why, sizeof why),
                    -1);
    CU_ASSERT_EQUAL(hsim_plugin_param("fairshare.user_shares", "1:0", 1, &set, why, sizeof why),
                    -1);
    CU_ASSERT_EQUAL(set.n, 0);
    CU_ASSERT_EQUAL(hsim_plugin_param("priority.age_weight", "2.5", 7, &set, why, sizeof why), 1);
    CU_ASSERT_EQUAL(hsim_plugin_param("priority.age_weight", "3", 8, &set, why, sizeof why), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "twice"));
    CU_ASSERT_DOUBLE_EQUAL(hsim_param_num(&set, "priority", hsim_order_find("priority")->params,
                                          "age_weight"), 2.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hsim_param_num(NULL, "priority", hsim_order_find("priority")->params,
                                          "age_weight"), 1, 1e-12);
}

/* In an INI file: the mistakes at their lines. */
static void expect_ini_error(const char *text, int line, const char *needle)
{
    static hsim_config_t c;
    hsim_err_t e;
    memset(&e, 0, sizeof e);
    CU_ASSERT_EQUAL(hsim_config_parse_string(text, "exp/x.ini", &c, &e), HSIM_EINPUT);
    char at[32];
    snprintf(at, sizeof at, "exp/x.ini:%d:", line);
    if (strncmp(e.msg, at, strlen(at)) || !strstr(e.msg, needle))
        fprintf(stderr, "\nexpected %s ... %s, got: %s\n", at, needle, e.msg);
    CU_ASSERT_EQUAL(strncmp(e.msg, at, strlen(at)), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, needle));
}

static void test_parameters_in_ini(void)
{
    expect_ini_error("[workload]\npath = t.swf\n[policy a]\nqueue = priority\n"
                     "priority.age_weigth = 1\n", 5, "expected one of source, table");
    expect_ini_error("[workload]\npath = t.swf\n[policy a]\nqueue = priority\n"
                     "priority.age_weight = x\n", 5, "age_weight: expected a number");
    expect_ini_error("[workload]\npath = t.swf\n[policy a]\nqueue = fcfs\n"
                     "fairshare.half_life = 2\n", 5, "fairshare.half_life applies to fairshare");
    expect_ini_error("[workload]\npath = t.swf\n[policy a]\nqueue = adaptive\n"
                     "adaptive.orders = fcfs, nosuch\n", 5, "'nosuch' is not a queue order");
    expect_ini_error("[workload]\npath = t.swf\n[policy a]\nqueue = adaptive\n"
                     "adaptive.orders = fcfs, fairshare\n", 5, "without state of its own");
    expect_ini_error("[workload]\npath = t.swf\n[policy a]\nqueue = adaptive\n"
                     "adaptive.orders = fcfs\n", 5, "expected 2 to 4 order names");
    expect_ini_error("[workload]\npath = t.swf\n[policy a]\nqueue = ga\n"
                     "ga.window = 1\n", 5, "window: expected an integer in 2..256");
    /* a parameter of the backfilling order is read */
    static hsim_config_t c2;
    hsim_err_t e2;
    memset(&e2, 0, sizeof e2);
    CU_ASSERT_EQUAL(hsim_config_parse_string("[workload]\npath = t.swf\n[policy a]\n"
                                             "queue = adaptive\nbackfill = easy\n"
                                             "backfill_order = priority\n"
                                             "priority.age_weight = 3\n",
                                             "exp/x.ini", &c2, &e2), 0);
    static hsim_config_t c;
    hsim_err_t e;
    memset(&e, 0, sizeof e);
    CU_ASSERT_EQUAL(hsim_config_parse_string("[workload]\npath = t.swf\n[policy a]\n"
                                             "queue = fairshare\nbackfill = conservative\n"
                                             "fairshare.half_life = 2\n",
                                             "exp/x.ini", &c, &e), 0);
    CU_ASSERT_EQUAL(c.policies[0].values.n, 1);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("strategies");
    HSIM_TEST(s, test_priority_by_hand);
    HSIM_TEST(s, test_multifactor_by_hand);
    HSIM_TEST(s, test_aging_ends_starvation);
    HSIM_TEST(s, test_fairshare_converges_to_shares);
    HSIM_TEST(s, test_conservative_follows_priority);
    HSIM_TEST(s, test_adaptive_switches_on_a_load_step);
    HSIM_TEST(s, test_adaptive_classes);
    HSIM_TEST(s, test_search_orders);
    HSIM_TEST(s, test_parameters_checked);
    HSIM_TEST(s, test_parameters_in_ini);
}
