/*
 * test_engine.c - the event engine on small hand-built workloads, against
 * brute-force reference schedulers on random workloads, determinism of a
 * whole experiment, and allocation-failure injection.
 */
#include "harness.h"

#include "policies/registry.h"
#include "sim/experiment.h"

#include <dirent.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define S HSIM_SECOND

/* ---- helpers ---- */

static void add_job(hsim_workload_t *w, int64_t id, int64_t submit_s, int32_t procs,
                    int64_t run_s, int64_t est_s)
{
    hsim_job_t j = {.id = id, .line = id + 1, .submit = submit_s * S,
                    .runtime = run_s * S, .estimate = est_s * S, .procs = procs,
                    .user = (int32_t)(id % 3), .group = -1, .app = -1, .queue = -1,
                    .partition = -1, .after = -1};
    CU_ASSERT_EQUAL_FATAL(hsim_workload_add(w, &j), 0);
}

static hsim_run_config_t config(int32_t capacity, const char *sched, const char *order,
                                const char *bf_order, const char *pred)
{
    hsim_run_config_t c = {
        .capacity = capacity,
        .order = hsim_order_find(order),
        .backfill_order = bf_order ? hsim_order_find(bf_order) : NULL,
        .scheduler = hsim_scheduler_find(sched),
        .predictor = hsim_predictor_find(pred),
    };
    HSIM_ASSERT(c.order && c.scheduler && c.predictor);
    return c;
}

/* Runs w; every outcome must be filled in. */
static int run(const hsim_workload_t *w, const hsim_run_config_t *c, hsim_outcome_t *out,
               hsim_err_t *e)
{
    for (size_t i = 0; i < w->n_jobs; i++)
        out[i] = (hsim_outcome_t){.start = -7, .end = -7, .fate = 99};
    return hsim_engine_run(w, c, out, NULL, e);
}

/* Finds a job's index by id (the workload is sorted by submission). */
static size_t idx_of(const hsim_workload_t *w, int64_t id)
{
    for (size_t i = 0; i < w->n_jobs; i++)
        if (w->jobs[i].id == id)
            return i;
    HSIM_ASSERT(!"no such job");
    return 0;
}

typedef struct expect {
    int64_t id, start_s, end_s;
} expect_t;

static void check_schedule(const hsim_workload_t *w, const hsim_outcome_t *out,
                           const expect_t *want, size_t n, const char *what)
{
    int ok = 1;
    for (size_t k = 0; k < n; k++) {
        const hsim_outcome_t *o = &out[idx_of(w, want[k].id)];
        if (o->start != want[k].start_s * S || o->end != want[k].end_s * S) {
            fprintf(stderr, "\n%s: job %lld ran [%.6g, %.6g], expected [%lld, %lld]", what,
                    (long long)want[k].id, (double)o->start / S, (double)o->end / S,
                    (long long)want[k].start_s, (long long)want[k].end_s);
            ok = 0;
        }
    }
    if (!ok) {
        fprintf(stderr, "\n");
        CU_FAIL("schedule differs from the hand-worked one");
    }
}

static void check_invariants(const hsim_workload_t *w, const hsim_outcome_t *out,
                             int32_t cap, const char *what);

/* ---- small hand-worked cases ---- */

/*
 * 10 processors.  J0 6 procs run 100 est 100 at t=0; J1 6/50/100 at 10;
 * J2 4/30/40 at 20; J3 4/200/200 at 30.
 * FCFS: J0 [0,100].  J1 waits; J2 and J3 wait behind it.  t=100: J1 and J2
 *   start (6 + 4); t=130 J2 ends: J3 starts.
 *   J1 [100,150] J2 [100,130] J3 [130,330].
 * EASY: t=20 head J1, shadow 100, extra 4: J2 ends at 60 <= 100: starts
 *   [20,50].  t=30 nothing free.  t=50 J2 ends: 4 free, J3 uses the 4
 *   extra processors: [50,250].  t=100 J1 [100,150].
 * Conservative: J1 reserved at 100; J2 at 20 (fits before 100); J3
 *   (4, 200) at 60 (after J2's estimate).  t=50 J2 ends early: J3 moves to
 *   50.  Same starts as EASY.
 */
static void test_small_schedules(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add_job(&w, 0, 0, 6, 100, 100);
    add_job(&w, 1, 10, 6, 50, 100);
    add_job(&w, 2, 20, 4, 30, 40);
    add_job(&w, 3, 30, 4, 200, 200);
    hsim_workload_sort(&w);
    hsim_outcome_t out[4];
    hsim_err_t e = {{0}};

    hsim_run_config_t c = config(10, "none", "fcfs", NULL, "user");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    static const expect_t fcfs[] = {{0, 0, 100}, {1, 100, 150}, {2, 100, 130}, {3, 130, 330}};
    check_schedule(&w, out, fcfs, 4, "fcfs");

    static const expect_t bf[] = {{0, 0, 100}, {1, 100, 150}, {2, 20, 50}, {3, 50, 250}};
    c = config(10, "easy", "fcfs", NULL, "user");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    check_schedule(&w, out, bf, 4, "easy");
    c = config(10, "conservative", "fcfs", NULL, "user");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    check_schedule(&w, out, bf, 4, "conservative");
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(out[i].fate, HSIM_FATE_RAN);
    hsim_workload_free(&w);
}

/*
 * Where EASY and conservative differ.  10 processors, run = estimate:
 * J0 8 procs 100 s at 0; J1 4 procs 100 s at 1; J2 10 procs 100 s at 2;
 * J3 2 procs 300 s at 3.
 * EASY: t=3 the head J1 waits for 100 (shadow 100, extra 2 + 8 - 4 = 6);
 *   J3 (2 <= 6) starts [3,303].  t=100 J1 [100,200].  J2 needs all 10:
 *   shadow 303: J2 [303,403].
 * Conservative: J1 -> 100, J2 -> 200 (all 10 after J1), J3 (2, 300) does
 *   not fit before J2's reservation: -> 300.  J3 [300,600].
 * FCFS: same as conservative here.
 */
static void test_easy_vs_conservative(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add_job(&w, 0, 0, 8, 100, 100);
    add_job(&w, 1, 1, 4, 100, 100);
    add_job(&w, 2, 2, 10, 100, 100);
    add_job(&w, 3, 3, 2, 300, 300);
    hsim_workload_sort(&w);
    hsim_outcome_t out[4];
    hsim_err_t e = {{0}};
    hsim_run_config_t c = config(10, "easy", "fcfs", NULL, "user");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    static const expect_t easy[] = {{0, 0, 100}, {1, 100, 200}, {2, 303, 403}, {3, 3, 303}};
    check_schedule(&w, out, easy, 4, "easy");
    static const expect_t cons[] = {{0, 0, 100}, {1, 100, 200}, {2, 200, 300}, {3, 300, 600}};
    c = config(10, "conservative", "fcfs", NULL, "user");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    check_schedule(&w, out, cons, 4, "conservative");
    c = config(10, "none", "fcfs", NULL, "user");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    check_schedule(&w, out, cons, 4, "fcfs");
    hsim_workload_free(&w);
}

/*
 * A give-back that conservative holds back during a pass (book_move() in
 * backfill_conservative.c) must be made before a job that could use it is
 * looked at, even when it starts only one time unit (1 us) before that
 * job's reservation.  10 processors: A 4 procs run 50 est 100, B 6 procs
 * 150 s + 1 us, X 4 procs 100 s and J 4 procs 100 s, all submitted at 0;
 * K 4 procs 1 s at 60.  Below, 150+ is 150 s + 1 us.
 * A and B start at 0; X is reserved at 100 (A's estimated end), J at 150+
 * (B's end: before it, X and B leave none free).  t=50 A ends early: X
 *   moves to 50 and gives back [150, 200); J finds 4 free over
 *   [150, 150+) (B still runs, X has gone) and none before: J moves to
 *   150.  t=60 K: nothing free before 150+ (B, then B and J): K at 150+.
 *   Had J not seen the give-back, K would take [150, 151) and J stay at
 *   150+.  X [50,150], J [150,250], K [150+,151+].
 */
static void test_held_give_back(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add_job(&w, 1, 0, 4, 50, 100);   /* A */
    add_job(&w, 2, 0, 6, 150, 150);  /* B, made 1 us longer below */
    add_job(&w, 3, 0, 4, 100, 100);  /* X */
    add_job(&w, 4, 0, 4, 100, 100);  /* J */
    add_job(&w, 5, 60, 4, 1, 1);     /* K */
    hsim_workload_sort(&w);
    hsim_job_t *b = &w.jobs[idx_of(&w, 2)];
    b->runtime += 1;
    b->estimate += 1;
    hsim_outcome_t out[5];
    hsim_err_t e = {{0}};
    hsim_run_config_t c = config(10, "conservative", "fcfs", NULL, "user");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    static const hsim_time_t want[][2] = {
        {0, 50 * S}, {0, 150 * S + 1}, {50 * S, 150 * S}, {150 * S, 250 * S},
        {150 * S + 1, 151 * S + 1}};
    for (int64_t id = 1; id <= 5; id++) {
        const hsim_outcome_t *o = &out[idx_of(&w, id)];
        CU_ASSERT_EQUAL(o->start, want[id - 1][0]);
        CU_ASSERT_EQUAL(o->end, want[id - 1][1]);
    }
    hsim_workload_free(&w);
}

/*
 * A window that overlaps a give-back by 1 us (a search of random traces
 * found it; conservative's shape cache once resumed 1 us too late after a
 * give-back).  4 processors, FCFS; every job runs 1 s; at 0, in order:
 *   J1 3 procs, est 5: [0, 5).
 *   J2 2 procs, est 2.000001: reserved [5, 7.000001).
 *   J3 3 procs, est 2: reserved [7.000001, 9.000001).
 *   J4 2 procs, est 1: backfills into [5, 6), beside J2.
 *   J5 3 procs, est 2: reserved [9.000001, 11.000001).
 * At 1 J1 ends, giving back [1, 5); in queue order:
 *   J2 -> [1, 3.000001).
 *   J3: from 3.000001 it would reach into [5, 5.000001), where J4 still
 *     holds 2 processors: -> 6.
 *   J4 -> [1, 2), beside J2, giving back [5, 6).
 *   J5, of J3's shape: [3.000001, 5.000001) is free now, 1 us into J4's
 *     give-back: -> 3.000001.
 * At 2 J2 and J4 end: J3 -> 5.000001, and J5, taken out, starts at once,
 * [2, 3); at 3 J5 ends and J3 starts: J3 [3, 4).
 */
static void test_window_one_us_into_give_back(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    const int32_t procs[] = {3, 2, 3, 2, 3};
    const hsim_time_t est[] = {5 * S, 2 * S + 1, 2 * S, 1 * S, 2 * S};
    for (int i = 0; i < 5; i++) {
        add_job(&w, i + 1, 0, procs[i], 1, 1);
        w.jobs[i].estimate = est[i];
    }
    hsim_outcome_t out[5];
    hsim_err_t e = {{0}};
    hsim_run_config_t c = config(4, "conservative", "fcfs", NULL, "user");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    static const expect_t want[] = {{1, 0, 1}, {2, 1, 2}, {3, 3, 4}, {4, 1, 2}, {5, 2, 3}};
    check_schedule(&w, out, want, 5, "conservative");
    hsim_workload_free(&w);
}

/* J0 (10 procs, 100 s, estimate j0_est) at 0; J1 (10 procs, 500 s) and
   J2 (10 procs, 10 s) at 100; 10 processors, shortest first, under each
   backfilling: the schedule want. */
static void same_timestamp_case(int64_t j0_est, const expect_t *want)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add_job(&w, 0, 0, 10, 100, j0_est);
    add_job(&w, 1, 100, 10, 500, 500);
    add_job(&w, 2, 100, 10, 10, 10);
    hsim_workload_sort(&w);
    hsim_outcome_t out[3];
    hsim_err_t e = {{0}};
    const char *scheds[] = {"none", "easy", "conservative"};
    for (int k = 0; k < 3; k++) {
        hsim_run_config_t c = config(10, scheds[k], "sjf", NULL, "user");
        int rc = run(&w, &c, out, &e);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc)
            fprintf(stderr, "\n%s: %s\n", scheds[k], e.msg);
        else
            check_schedule(&w, out, want, 3, scheds[k]);
    }
    hsim_workload_free(&w);
}

/*
 * The same-timestamp rule (DESIGN.md): 10 processors, shortest-first queue.
 * J0 (10 procs, 100 s) at 0.  At t=100, J1 (10 procs, 500 s) is submitted,
 * then J2 (10 procs, 10 s), and J0's termination comes after both
 * submissions.  The pass after J1's submission already sees J0's processors
 * free (its estimate ends now) and starts J1; J2, shorter, must wait:
 * J1 [100,600], J2 [600,610].  (Batching the timestamp into one pass would
 * start J2 first.)
 *
 * Then the same jobs with J0's estimate 200 s: at t=100 neither submission
 * pass sees J0's processors free (its estimate ends later), so both wait,
 * and J0's termination, handled after them, starts the shorter J2:
 * J2 [100,110], J1 [110,610].  Handling J0's end before the submissions
 * would start J1 at 100.
 */
static void test_same_timestamp_rule(void)
{
    static const expect_t ends_now[] = {{0, 0, 100}, {1, 100, 600}, {2, 600, 610}};
    same_timestamp_case(100, ends_now);
    static const expect_t early[] = {{0, 0, 100}, {1, 110, 610}, {2, 100, 110}};
    same_timestamp_case(200, early);
}

/*
 * Killed at the estimate.  4 processors, FCFS.
 * J0 1 proc run 200 est 100: killed at 100.
 * J1 1 proc run 50 est 50, marked killed by cleaning: killed at 50.
 * J2 1 proc run 30 est 100: ran, [0,30].
 * J3 4 procs run 10 est 10 at t=1: waits for all three; J0's end at 100
 *   (its estimate, not its runtime) frees the last processor: [100,110].
 */
static void test_killed_at_estimate(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add_job(&w, 0, 0, 1, 200, 100);
    add_job(&w, 1, 0, 1, 50, 50);
    w.jobs[w.n_jobs - 1].killed_at_estimate = 1;
    add_job(&w, 2, 0, 1, 30, 100);
    add_job(&w, 3, 1, 4, 10, 10);
    hsim_workload_sort(&w);
    hsim_outcome_t out[4];
    hsim_err_t e = {{0}};
    const char *scheds[] = {"none", "easy", "conservative"};
    for (int k = 0; k < 3; k++) {
        hsim_run_config_t c = config(4, scheds[k], "fcfs", NULL, "user");
        CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
        static const expect_t want[] = {{0, 0, 100}, {1, 0, 50}, {2, 0, 30}, {3, 100, 110}};
        check_schedule(&w, out, want, 4, scheds[k]);
        CU_ASSERT_EQUAL(out[idx_of(&w, 0)].fate, HSIM_FATE_KILLED);
        CU_ASSERT_EQUAL(out[idx_of(&w, 1)].fate, HSIM_FATE_KILLED);
        CU_ASSERT_EQUAL(out[idx_of(&w, 2)].fate, HSIM_FATE_RAN);
        CU_ASSERT_EQUAL(out[idx_of(&w, 3)].fate, HSIM_FATE_RAN);
    }
    hsim_workload_free(&w);
}

/*
 * estimate = oracle plans with the actual runtime.  10 processors, EASY.
 * J0 6 procs run 50 est 100 at 0; J1 8 procs run 100 est 100 at 1;
 * J2 4 procs run 40 est 200 at 2.
 * user estimates: t=2 shadow 100, extra 2: J2 (4, ends 202) waits.
 *   t=50 J0 ends: J1 [50,150]; J2 does not fit beside it: [150,190].
 * oracle: t=2 shadow 50 (J0's runtime), J2 ends at 42 <= 50: [2,42];
 *   J1 [50,150].  Conservative with the oracle: J1 -> 50, J2 -> 2.
 */
static void test_oracle_estimates(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add_job(&w, 0, 0, 6, 50, 100);
    add_job(&w, 1, 1, 8, 100, 100);
    add_job(&w, 2, 2, 4, 40, 200);
    hsim_workload_sort(&w);
    hsim_outcome_t out[3];
    hsim_err_t e = {{0}};
    hsim_run_config_t c = config(10, "easy", "fcfs", NULL, "user");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    static const expect_t user[] = {{0, 0, 50}, {1, 50, 150}, {2, 150, 190}};
    check_schedule(&w, out, user, 3, "easy/user");
    static const expect_t oracle[] = {{0, 0, 50}, {1, 50, 150}, {2, 2, 42}};
    c = config(10, "easy", "fcfs", NULL, "oracle");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    check_schedule(&w, out, oracle, 3, "easy/oracle");
    c = config(10, "conservative", "fcfs", NULL, "oracle");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    check_schedule(&w, out, oracle, 3, "conservative/oracle");
    hsim_workload_free(&w);
}

/*
 * The oracle is exact below a second too (it was raised to 1 s, as a
 * guess is).  2 processors, EASY; times in tenths of a second.
 * J0 1 proc run 1.5 est 100 at 0; J1 2 procs run 5 est 100 at 0 (the head:
 * shadow 1.5, no extra processors); J2 1 proc run 0.6 est 10 at 0.9.
 * Oracle: J2 ends at 1.5 <= 1.5: backfills [0.9, 1.5]; J1 [1.5, 6.5].
 * Raised to 1 s it would end at 1.9 > 1.5 and wait for J1: [6.5, 7.1].
 */
static void test_oracle_below_a_second(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add_job(&w, 0, 0, 1, 0, 100);
    add_job(&w, 1, 0, 2, 5, 100);
    add_job(&w, 2, 0, 1, 0, 10);
    w.jobs[0].runtime = 15 * S / 10;
    w.jobs[2].runtime = 6 * S / 10;
    w.jobs[2].submit = 9 * S / 10;
    hsim_workload_sort(&w);
    hsim_outcome_t out[3];
    hsim_err_t e = {{0}};
    hsim_run_config_t c = config(2, "easy", "fcfs", NULL, "oracle");
    CU_ASSERT_EQUAL_FATAL(run(&w, &c, out, &e), 0);
    const hsim_outcome_t *j2 = &out[idx_of(&w, 2)], *j1 = &out[idx_of(&w, 1)];
    CU_ASSERT_EQUAL(j2->start, 9 * S / 10);
    CU_ASSERT_EQUAL(j2->end, 15 * S / 10);
    CU_ASSERT_EQUAL(j1->start, 15 * S / 10);
    hsim_workload_free(&w);
}

/*
 * last2 below a second (the user is the job id mod 3).  2 processors, EASY.
 * User 1: J1 and J4 (1 proc, run 0.3 s, request 0.5 s) at 0: [0, 0.3]
 *   each.  The mean of their runtimes, 0.3 s, rounds down to 0, which is
 *   no prediction: user 1's next job is planned on its request.
 * User 2: J2 (1 proc, 10 s) at 1: [1, 11]; J5 (2 procs, 1 s) at 2: the
 *   head, shadow 11, no extra processors.
 * J7 (user 1, 1 proc, run 0.3 s, request 0.5 s) at 10.8 would end, by its
 *   request, at 11.3 > 11: it waits.  J5 [11, 12], J7 [12, 12.3], and no
 *   prediction expires.  (Planned on 0 s it would backfill at 10.8, delay
 *   J5 and outlive its prediction.)
 */
static void test_last2_below_a_second(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    const int64_t ids[] = {1, 4, 7};
    for (int i = 0; i < 3; i++) {
        add_job(&w, ids[i], 0, 1, 0, 0);
        w.jobs[i].runtime = 3 * S / 10;
        w.jobs[i].estimate = S / 2;
    }
    w.jobs[2].submit = 108 * S / 10;
    add_job(&w, 2, 1, 1, 10, 10);
    add_job(&w, 5, 2, 2, 1, 1);
    hsim_workload_sort(&w);
    hsim_outcome_t out[5];
    hsim_err_t e = {{0}};
    hsim_run_config_t c = config(2, "easy", "fcfs", NULL, "last2");
    hsim_run_stats_t st = {0};
    CU_ASSERT_EQUAL_FATAL(hsim_engine_run(&w, &c, out, &st, &e), 0);
    CU_ASSERT_EQUAL(out[idx_of(&w, 5)].start, 11 * S);
    CU_ASSERT_EQUAL(out[idx_of(&w, 7)].start, 12 * S);
    CU_ASSERT_EQUAL(out[idx_of(&w, 7)].end, 123 * S / 10);
    CU_ASSERT_EQUAL(st.expiries, 0);
    hsim_workload_free(&w);
}

/*
 * Predictions that change and that a job outlives (estimate = last2; the
 * user is the job id mod 3).  10 processors.
 * J0 and J3 (user 0, 1 proc, request 100) run 10 and 20 s from 0: user 0's
 *   next jobs are predicted (10 + 20) / 2 = 15 s.
 * J6 (user 0, 6 procs, runs 50) at 30: starts, planned to end at 45.  At
 *   45 its prediction expires: planned on its request, it ends by 130.
 * J9 (user 0, 10 procs, runs 5) at 31: predicted 15; waits.
 * J1 (user 1, no history: 30 s, 4 procs, runs 30) at 50.
 * EASY with predictions (EASY++): at 50 the head J9's shadow is 130 (45
 *   had the expiry not moved it, and J6's processors would count as free
 *   at 50): J1 ends by it and backfills [50,80].  At 80 J6 ends, user 0's
 *   last two are 50 and 20, J9 is predicted 35, and starts [80,85].
 * No backfilling, FCFS: J1 waits behind J9: J9 [80,85], J1 [85,115].
 * No backfilling, shortest prediction first: at 50 J9 (15) goes before J1
 *   (30) and blocks it; at 80 J9's new prediction, 35, puts J1 first:
 *   J1 [80,110], and J9 waits for its processors: [110,115].
 */
static void test_prediction_expiry(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add_job(&w, 0, 0, 1, 10, 100);
    add_job(&w, 3, 0, 1, 20, 100);
    add_job(&w, 6, 30, 6, 50, 100);
    add_job(&w, 9, 31, 10, 5, 100);
    add_job(&w, 1, 50, 4, 30, 30);
    hsim_workload_sort(&w);
    hsim_outcome_t out[5];
    hsim_err_t e = {{0}};
    static const expect_t easy[] = {{0, 0, 10}, {3, 0, 20}, {6, 30, 80}, {9, 80, 85},
                                    {1, 50, 80}};
    static const expect_t fcfs[] = {{6, 30, 80}, {9, 80, 85}, {1, 85, 115}};
    static const expect_t sjf[] = {{6, 30, 80}, {1, 80, 110}, {9, 110, 115}};
    struct {
        const char *sched, *order, *bf_order;
        const expect_t *want;
        size_t n;
    } cases[] = {{"easy", "fcfs", "sjf", easy, 5},
                 {"easy", "fcfs", NULL, easy, 5},
                 {"none", "fcfs", NULL, fcfs, 3},
                 {"none", "sjf", NULL, sjf, 3}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hsim_run_config_t c = config(10, cases[k].sched, cases[k].order, cases[k].bf_order,
                                     "last2");
        hsim_run_stats_t st = {0};
        int rc = hsim_engine_run(&w, &c, out, &st, &e);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc) {
            fprintf(stderr, "\n%s/%s: %s\n", cases[k].sched, cases[k].order, e.msg);
            continue;
        }
        check_schedule(&w, out, cases[k].want, cases[k].n, cases[k].sched);
        CU_ASSERT_EQUAL(st.expiries, 1); /* J6's */
        check_invariants(&w, out, 10, cases[k].sched);
    }
    hsim_workload_free(&w);
}

/* A job needing more than the machine: HSIM_EINPUT naming the job. */
static void test_job_too_wide(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add_job(&w, 0, 0, 4, 10, 10);
    add_job(&w, 77, 5, 11, 10, 10);
    hsim_workload_sort(&w);
    hsim_outcome_t out[2];
    hsim_err_t e = {{0}};
    hsim_run_config_t c = config(10, "easy", "fcfs", NULL, "user");
    CU_ASSERT_EQUAL(run(&w, &c, out, &e), HSIM_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "77"));
    hsim_workload_free(&w);
}

/* Jobs of the longest time a trace may give, one after another on one
   processor: 230 end before HSIM_HORIZON; with 240, the 231st (id 1230)
   would end past it, and every policy stops with an error naming a job
   instead of overflowing the clock: when that job starts, or, under
   conservative backfilling, which reserves every job on its submission,
   at the first reservation to start past the horizon (id 1231). */
static void test_horizon(void)
{
    const char *scheds[] = {"none", "easy", "conservative"};
    for (int n = 230; n <= 240; n += 10) {
        hsim_workload_t w;
        hsim_workload_init(&w);
        for (int i = 0; i < n; i++)
            add_job(&w, 1000 + i, 0, 1, HSIM_MAX_SECONDS, HSIM_MAX_SECONDS);
        hsim_workload_sort(&w);
        hsim_outcome_t *out = calloc((size_t)n, sizeof *out);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        for (int k = 0; k < 3; k++) {
            hsim_err_t e = {{0}};
            hsim_run_config_t c = config(1, scheds[k], "fcfs", NULL, "user");
            int rc = run(&w, &c, out, &e);
            if (n == 230) {
                CU_ASSERT_EQUAL(rc, 0);
                CU_ASSERT_EQUAL(out[229].end, 230 * HSIM_MAX_SECONDS * S);
            } else {
                CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
                const char *who = k == 2 ? "job 1231:" : "job 1230:";
                if (!strstr(e.msg, who))
                    fprintf(stderr, "\n%s: %s\n", scheds[k], e.msg);
                CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, who));
                CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "horizon"));
            }
        }
        free(out);
        hsim_workload_free(&w);
    }
}

/* An empty workload runs and does nothing. */
static void test_empty_workload(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_outcome_t out[1];
    hsim_err_t e = {{0}};
    const char *scheds[] = {"none", "easy", "conservative"};
    for (int k = 0; k < 3; k++) {
        hsim_run_config_t c = config(10, scheds[k], "fcfs", NULL, "user");
        hsim_run_stats_t st;
        CU_ASSERT_EQUAL(hsim_engine_run(&w, &c, out, &st, &e), 0);
    }
    hsim_workload_free(&w);
}

/* ---- policies that misbehave: the engine refuses their decisions ---- */

static int bad_create(const hsim_policy_params_t *p, void **state)
{
    (void)p;
    *state = NULL;
    return 0;
}
static void bad_destroy(void *state) { (void)state; }

/* Starts every job at its submission, whether it fits or not. */
static int greedy_submitted(void *state, const hsim_view_t *v, int32_t job,
                            const hsim_decide_t *d)
{
    (void)state;
    (void)v;
    return d->start(d->ctx, job);
}
static int nothing(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    (void)state;
    (void)v;
    (void)d;
    return 0;
}
static const hsim_scheduler_t greedy = {
    .name = "greedy", .create = bad_create, .destroy = bad_destroy,
    .submitted = greedy_submitted, .schedule = nothing,
};

/* Reserves every job in the past. */
static int past_submitted(void *state, const hsim_view_t *v, int32_t job,
                          const hsim_decide_t *d)
{
    (void)state;
    return d->reserve(d->ctx, job, v->now - S);
}
static const hsim_scheduler_t past = {
    .name = "past", .create = bad_create, .destroy = bad_destroy,
    .submitted = past_submitted, .schedule = nothing,
};

/* Never starts anything. */
static const hsim_scheduler_t lazy = {
    .name = "lazy", .create = bad_create, .destroy = bad_destroy, .schedule = nothing,
};

/* Starts the same job twice. */
static int twice_submitted(void *state, const hsim_view_t *v, int32_t job,
                           const hsim_decide_t *d)
{
    (void)state;
    (void)v;
    int rc = d->start(d->ctx, job);
    return rc ? rc : d->start(d->ctx, job);
}
static const hsim_scheduler_t twice = {
    .name = "twice", .create = bad_create, .destroy = bad_destroy,
    .submitted = twice_submitted, .schedule = nothing,
};

/* Starts each job, then reserves it. */
static int reserve_started_submitted(void *state, const hsim_view_t *v, int32_t job,
                                     const hsim_decide_t *d)
{
    (void)state;
    int rc = d->start(d->ctx, job);
    return rc ? rc : d->reserve(d->ctx, job, v->now + S);
}
static const hsim_scheduler_t reserve_started = {
    .name = "reserve-started", .create = bad_create, .destroy = bad_destroy,
    .submitted = reserve_started_submitted, .schedule = nothing,
};

/* Each policy's mistake is refused with a message that says what it was. */
static void test_impossible_decisions(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add_job(&w, 0, 0, 6, 100, 100);
    add_job(&w, 1, 10, 6, 100, 100);
    hsim_workload_sort(&w);
    hsim_outcome_t out[2];
    hsim_err_t e = {{0}};
    hsim_run_config_t c = config(10, "none", "fcfs", NULL, "user");
    static const struct {
        const hsim_scheduler_t *policy;
        const char *message;
    } bad[] = {
        {&greedy, "policy error: job 1 needs 6 processors, 4 are free at 10 s"},
        {&past, "policy error: reservation in the past for job 0"},
        {&lazy, "policy error: 2 jobs still wait after the last event (job 0 first)"},
        {&twice, "policy error: job index 0 is not waiting"},
        {&reserve_started, "policy error: reservation for job index 0, which is not waiting"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        c.scheduler = bad[k].policy;
        memset(&e, 0, sizeof e);
        int rc = run(&w, &c, out, &e);
        CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
        if (rc != HSIM_EINPUT || strcmp(e.msg, bad[k].message)) {
            fprintf(stderr, "\nscheduler '%s': rc %d, '%s'; wanted '%s'\n",
                    bad[k].policy->name, rc, e.msg, bad[k].message);
            CU_FAIL("refusal");
        }
    }
    hsim_workload_free(&w);
}

/* ---- reference schedulers, brute force, for differential tests ---- */

/* The live waiting jobs of v, sorted by order (insertion sort). */
static size_t waiting_sorted(const hsim_view_t *v, const hsim_order_t *o, int32_t *ids)
{
    size_t n = 0;
    for (size_t i = 0; i < v->n_waiting; i++) {
        int32_t j = v->waiting[i];
        if (j < 0)
            continue;
        size_t k = n++;
        while (k > 0 && o->compare(v->jobs, j, ids[k - 1], v->now) < 0) {
            ids[k] = ids[k - 1];
            k--;
        }
        ids[k] = j;
    }
    return n;
}

typedef struct ref {
    const hsim_order_t *order, *bf_order;
    int32_t capacity;
    size_t n_jobs;
    hsim_time_t *at;   /* conservative: reservation, -1 none */
    int32_t *ids, *ids2;
} ref_t;

static int ref_create(const hsim_policy_params_t *p, void **state)
{
    ref_t *r = calloc(1, sizeof *r);
    r->order = p->order;
    r->bf_order = p->backfill_order;
    r->capacity = p->capacity;
    r->n_jobs = p->n_jobs;
    r->at = malloc((p->n_jobs + 1) * sizeof *r->at);
    r->ids = malloc((p->n_jobs + 1) * sizeof *r->ids);
    r->ids2 = malloc((p->n_jobs + 1) * sizeof *r->ids2);
    for (size_t i = 0; i < p->n_jobs; i++)
        r->at[i] = -1;
    *state = r;
    return 0;
}

static void ref_destroy(void *state)
{
    ref_t *r = state;
    free(r->at);
    free(r->ids);
    free(r->ids2);
    free(r);
}

/* Shadow time and extra processors for a head of need processors, from
   scratch: walks the running jobs' estimated ends. */
static void ref_shadow(const hsim_view_t *v, int32_t need, hsim_time_t *shadow,
                       int32_t *extra)
{
    int32_t avail = hsim_view_free_now(v);
    for (size_t i = 0; i < v->n_running; i++) {
        hsim_time_t t = v->running[i].est_end;
        if (t <= v->now)
            continue;
        avail += v->running[i].procs;
        if (i + 1 < v->n_running && v->running[i + 1].est_end == t)
            continue;
        if (avail >= need) {
            *shadow = t;
            *extra = avail - need;
            return;
        }
    }
    *shadow = HSIM_TIME_MAX;
    *extra = 0;
}

static int ref_easy_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    ref_t *r = state;
    size_t n = waiting_sorted(v, r->order, r->ids);
    size_t h = 0;
    while (h < n && v->jobs[r->ids[h]].procs <= hsim_view_free_now(v)) {
        int rc = d->start(d->ctx, r->ids[h++]);
        if (rc)
            return rc;
    }
    if (h + 1 >= n)
        return 0;
    int32_t head = r->ids[h];
    /* candidates: the rest, in backfilling order */
    size_t m = 0;
    for (size_t k = h + 1; k < n; k++)
        r->ids2[m++] = r->ids[k];
    if (r->bf_order) /* stable: ties keep queue order */
        for (size_t k = 1; k < m; k++) {
            int32_t j = r->ids2[k];
            size_t q = k;
            while (q > 0 && r->bf_order->compare(v->jobs, j, r->ids2[q - 1], v->now) < 0) {
                r->ids2[q] = r->ids2[q - 1];
                q--;
            }
            r->ids2[q] = j;
        }
    for (size_t k = 0; k < m; k++) {
        hsim_time_t shadow;
        int32_t extra;
        ref_shadow(v, v->jobs[head].procs, &shadow, &extra); /* recomputed */
        const hsim_vjob_t *j = &v->jobs[r->ids2[k]];
        if (j->procs > hsim_view_free_now(v))
            continue;
        if (v->now + j->estimate <= shadow || j->procs <= extra) {
            int rc = d->start(d->ctx, r->ids2[k]);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* No backfilling: the jobs in queue order while they fit. */
static int ref_none_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    ref_t *r = state;
    size_t n = waiting_sorted(v, r->order, r->ids);
    for (size_t h = 0; h < n && v->jobs[r->ids[h]].procs <= hsim_view_free_now(v); h++) {
        int rc = d->start(d->ctx, r->ids[h]);
        if (rc)
            return rc;
    }
    return 0;
}

static const hsim_scheduler_t ref_none = {
    .name = "ref-none", .create = ref_create, .destroy = ref_destroy,
    .schedule = ref_none_schedule,
};

static const hsim_scheduler_t ref_easy = {
    .name = "ref-easy", .create = ref_create, .destroy = ref_destroy,
    .schedule = ref_easy_schedule,
};

/*
 * Conservative, brute force: for each placement the usage profile is
 * rebuilt from the running jobs (until their estimated end) and every other
 * reservation, and the earliest fit is found by trying each step start in
 * turn and checking every step the job would cover.  O(steps^2).
 */
typedef struct ref_ev {
    hsim_time_t t;
    int32_t d;
} ref_ev_t;

static int ref_ev_cmp(const void *a, const void *b)
{
    const ref_ev_t *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

static hsim_time_t ref_earliest(const ref_t *r, const hsim_view_t *v, int32_t job)
{
    size_t cap_ev = 2 * (v->n_running + v->n_waiting) + 2, n = 0;
    ref_ev_t *ev = malloc(cap_ev * sizeof *ev);
    hsim_time_t *st = malloc(cap_ev * sizeof *st);
    int32_t *used = malloc(cap_ev * sizeof *used);
    for (size_t i = 0; i < v->n_running; i++)
        if (v->running[i].est_end > v->now) {
            ev[n++] = (ref_ev_t){v->now, v->running[i].procs};
            ev[n++] = (ref_ev_t){v->running[i].est_end, -v->running[i].procs};
        }
    for (size_t i = 0; i < v->n_waiting; i++) {
        int32_t k = v->waiting[i];
        if (k < 0 || k == job || r->at[k] < 0)
            continue;
        HSIM_ASSERT(r->at[k] >= v->now);
        ev[n++] = (ref_ev_t){r->at[k], v->jobs[k].procs};
        ev[n++] = (ref_ev_t){r->at[k] + v->jobs[k].estimate, -v->jobs[k].procs};
    }
    qsort(ev, n, sizeof *ev, ref_ev_cmp);
    /* steps: st[s] starts a step of usage used[s]; the last one lasts */
    size_t ns = 0;
    int32_t u = 0;
    st[ns] = v->now;
    used[ns++] = 0;
    for (size_t i = 0; i < n;) {
        hsim_time_t t = ev[i].t;
        while (i < n && ev[i].t == t)
            u += ev[i++].d;
        if (t == st[ns - 1])
            used[ns - 1] = u;
        else {
            st[ns] = t;
            used[ns++] = u;
        }
    }
    HSIM_ASSERT(u == 0);
    const hsim_vjob_t *j = &v->jobs[job];
    hsim_time_t best = HSIM_TIME_MAX;
    for (size_t c = 0; c < ns && best == HSIM_TIME_MAX; c++) {
        int ok = 1;
        for (size_t s2 = c; s2 < ns && st[s2] < st[c] + j->estimate; s2++)
            if (used[s2] + j->procs > r->capacity)
                ok = 0;
        if (ok)
            best = st[c];
    }
    free(ev);
    free(st);
    free(used);
    HSIM_ASSERT(best != HSIM_TIME_MAX);
    return best;
}

static int ref_cons_submitted(void *state, const hsim_view_t *v, int32_t job,
                              const hsim_decide_t *d)
{
    ref_t *r = state;
    hsim_time_t t = ref_earliest(r, v, job);
    r->at[job] = t;
    return d->reserve(d->ctx, job, t);
}

static int ref_cons_ended(void *state, const hsim_view_t *v, int32_t job, hsim_time_t start,
                          hsim_time_t est_end, const hsim_decide_t *d)
{
    (void)job;
    (void)start;
    (void)est_end;
    ref_t *r = state;
    size_t n = waiting_sorted(v, r->order, r->ids);
    for (size_t k = 0; k < n; k++) {
        int32_t w = r->ids[k];
        if (r->at[w] <= v->now)
            continue; /* due now: fixed */
        hsim_time_t t = ref_earliest(r, v, w);
        HSIM_ASSERT(t <= r->at[w]);
        if (t < r->at[w]) {
            r->at[w] = t;
            int rc = d->reserve(d->ctx, w, t);
            if (rc)
                return rc;
        }
    }
    return 0;
}

static const hsim_scheduler_t ref_cons = {
    .name = "ref-conservative", .create = ref_create, .destroy = ref_destroy,
    .submitted = ref_cons_submitted, .ended = ref_cons_ended, .schedule = nothing,
};

/* Starts a random workload of n jobs: w emptied, *gap room for the gap
   before each submission (see space_submits()), and the generator for
   the seed. */
static gsl_rng *begin_workload(hsim_workload_t *w, unsigned long seed, size_t n, double **gap)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    hsim_workload_init(w);
    *gap = malloc(n * sizeof **gap);
    return rng;
}

/* Sets the submit times of w's jobs from their gaps (gap[i] before job i,
   in any unit), scaled so that the offered load, work over capacity times
   span, is about 'load'; frees gap and sorts w. */
static void space_submits(hsim_workload_t *w, double *gap, double work, int32_t cap,
                          double load)
{
    double sum_gap = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        sum_gap += gap[i];
    double scale = work / ((double)cap * load) / (sum_gap > 0 ? sum_gap : 1);
    double t = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        t += gap[i] * scale;
        w->jobs[i].submit = (hsim_time_t)t * S;
    }
    free(gap);
    hsim_workload_sort(w);
}

/*
 * A random workload: bursts of equal submit times, job arrays (runs of jobs
 * of one shape submitted together), many estimates that are equal or end
 * together, runtimes early, exact or past the estimate.
 * Submit times are whole seconds, spread so that the offered load (work
 * over capacity times span) is about 'load': above 1 the queue grows.
 */
static void random_workload(hsim_workload_t *w, unsigned long seed, size_t n, int32_t cap,
                            double load)
{
    double *gap, work = 0;
    gsl_rng *rng = begin_workload(w, seed, n, &gap);
    int32_t procs = 1;
    int64_t est = 1;
    for (size_t i = 0; i < n; i++) {
        int array = i > 0 && gsl_rng_uniform(rng) < 0.3; /* same shape as the last */
        gap[i] = array || gsl_rng_uniform(rng) < 0.3 ? 0 : gsl_ran_exponential(rng, 1.0);
        if (!array) {
            procs = gsl_rng_uniform(rng) < 0.5
                        ? (int32_t)(1 + gsl_rng_uniform_int(rng, 4))
                        : (int32_t)(1 + gsl_rng_uniform_int(rng, (unsigned long)cap));
            if (procs > cap)
                procs = cap;
            static const int64_t round_est[] = {60, 300, 600, 1800, 3600};
            est = gsl_rng_uniform(rng) < 0.5 ? round_est[gsl_rng_uniform_int(rng, 5)]
                                             : (int64_t)(1 + gsl_rng_uniform_int(rng, 2000));
        }
        double u = gsl_rng_uniform(rng);
        int64_t runtime = u < 0.3   ? est
                          : u < 0.9 ? (int64_t)(1 + gsl_rng_uniform_int(rng, (unsigned long)est))
                                    : est + 1 + (int64_t)gsl_rng_uniform_int(rng, 100);
        work += (double)procs * (double)(runtime < est ? runtime : est);
        add_job(w, (int64_t)i + 1, 0, procs, runtime, est);
    }
    space_submits(w, gap, work, cap, load);
    gsl_rng_free(rng);
}

/* Arrays of 3 to 30 jobs of one shape, short estimates (20 to 200 s),
   most ending early, submitted a burst at a time, one job in five a
   processor wider or a second longer than the rest: the jobs of an array
   wait for one another's processors, so an early end moves chains of them
   up, each into the start the one before it left, and the runs of jobs
   that conservative passes over (run_note_t in backfill_conservative.c)
   mix shapes. */
static void chain_workload(hsim_workload_t *w, unsigned long seed, size_t n, int32_t cap,
                           double load)
{
    double *gap, work = 0;
    gsl_rng *rng = begin_workload(w, seed, n, &gap);
    int32_t procs = 1;
    int64_t est = 1;
    size_t left = 0; /* jobs still to come in this array */
    for (size_t i = 0; i < n; i++) {
        gap[i] = 0;
        if (left == 0) {
            left = 3 + gsl_rng_uniform_int(rng, 28);
            gap[i] = gsl_ran_exponential(rng, 1.0);
            int32_t widths[] = {1, 2, cap / 4, cap / 2};
            procs = widths[gsl_rng_uniform_int(rng, 4)];
            procs = procs < 1 ? 1 : procs;
            est = 20 + (int64_t)gsl_rng_uniform_int(rng, 181);
        }
        left--;
        /* now and then one a little wider or longer than the rest */
        double v = gsl_rng_uniform(rng);
        int32_t p = v < 0.1 && procs < cap ? procs + 1 : procs;
        int64_t e = v >= 0.1 && v < 0.2 ? est + 1 : est;
        double u = gsl_rng_uniform(rng);
        int64_t runtime = u < 0.3   ? e
                          : u < 0.4 ? 1 + (int64_t)gsl_rng_uniform_int(rng, 5)
                                    : 1 + (int64_t)gsl_rng_uniform_int(rng, (unsigned long)e);
        work += (double)p * (double)runtime;
        add_job(w, (int64_t)i + 1, 0, p, runtime, e);
    }
    space_submits(w, gap, work, cap, load);
    gsl_rng_free(rng);
}

/* Moves every submit time, estimate and runtime of w by 0 to span - 1 us, then
   sorts w again: the schedulers compare times to the microsecond, and the
   workloads above, in whole seconds, never put two ends or starts 1 us
   apart (a bound of conservative's shape cache was once off by one there,
   and only such times showed it). */
static void jitter_us(hsim_workload_t *w, unsigned long seed, unsigned long span)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed ^ 0x5eedu);
    for (size_t i = 0; i < w->n_jobs; i++) {
        hsim_job_t *j = &w->jobs[i];
        j->submit += (hsim_time_t)gsl_rng_uniform_int(rng, span);
        j->estimate += (hsim_time_t)gsl_rng_uniform_int(rng, span);
        j->runtime += (hsim_time_t)gsl_rng_uniform_int(rng, span);
    }
    hsim_workload_sort(w);
    gsl_rng_free(rng);
}

static void random_workload_us(hsim_workload_t *w, unsigned long seed, size_t n, int32_t cap,
                               double load)
{
    random_workload(w, seed, n, cap, load);
    jitter_us(w, seed, 3);
}

static void chain_workload_us(hsim_workload_t *w, unsigned long seed, size_t n, int32_t cap,
                              double load)
{
    chain_workload(w, seed, n, cap, load);
    jitter_us(w, seed, 2);
}

/* A processor-count change at a time, for the capacity sweep. */
typedef struct sweep_ev {
    hsim_time_t t;
    int32_t d;
} sweep_ev_t;

static int sweep_cmp(const void *a, const void *b)
{
    const sweep_ev_t *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->d > y->d) - (x->d < y->d); /* ends (negative) first */
}

/* Invariants of any valid schedule: every job started after its
   submission, ran min(runtime, estimate) with the right fate, and the
   machine was never over-full. */
static void check_invariants(const hsim_workload_t *w, const hsim_outcome_t *out,
                             int32_t cap, const char *what)
{
    size_t n = w->n_jobs;
    int bad = 0;
    sweep_ev_t *ev = malloc(2 * n * sizeof *ev);
    for (size_t i = 0; i < n; i++) {
        const hsim_job_t *j = &w->jobs[i];
        const hsim_outcome_t *o = &out[i];
        hsim_time_t ran = j->runtime < j->estimate ? j->runtime : j->estimate;
        int killed = j->runtime > j->estimate || j->killed_at_estimate;
        if (o->start < j->submit || o->end != o->start + ran ||
            o->fate != (killed ? HSIM_FATE_KILLED : HSIM_FATE_RAN)) {
            if (bad++ < 3)
                fprintf(stderr, "\n%s: job %lld: submit %lld start %lld end %lld fate %d\n",
                        what, (long long)j->id, (long long)j->submit, (long long)o->start,
                        (long long)o->end, o->fate);
        }
        ev[2 * i] = (sweep_ev_t){o->start, j->procs};
        ev[2 * i + 1] = (sweep_ev_t){o->end, -j->procs};
    }
    qsort(ev, 2 * n, sizeof *ev, sweep_cmp);
    int32_t used = 0, peak = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        used += ev[i].d;
        if (used > peak)
            peak = used;
    }
    free(ev);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_TRUE(peak <= cap);
    CU_ASSERT_EQUAL(used, 0);
}

static int compare_runs(const hsim_workload_t *w, const hsim_outcome_t *a,
                        const hsim_outcome_t *b, const char *what, unsigned long seed)
{
    int diffs = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        if (a[i].start != b[i].start || a[i].end != b[i].end || a[i].fate != b[i].fate) {
            if (diffs++ < 3)
                fprintf(stderr, "\n%s seed %lu: job %lld (index %zu) starts at %.6g, "
                                "the reference at %.6g",
                        what, seed, (long long)w->jobs[i].id, i, (double)a[i].start / S,
                        (double)b[i].start / S);
        }
    if (diffs)
        fprintf(stderr, "\n%s seed %lu: %d jobs differ\n", what, seed, diffs);
    return diffs;
}

/* FCFS without backfilling has a closed form: job i starts at the first
   time >= max(submit, previous start) when its processors are free. */
static void fcfs_formula(const hsim_workload_t *w, int32_t cap, hsim_outcome_t *out)
{
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        hsim_time_t lo = j->submit;
        if (i && out[i - 1].start > lo)
            lo = out[i - 1].start;
        hsim_time_t best = HSIM_TIME_MAX;
        for (size_t c = 0; c <= i; c++) {
            hsim_time_t t = c == i ? lo : out[c].end;
            if (t < lo || t >= best)
                continue;
            int32_t used = 0;
            for (size_t k = 0; k < i; k++)
                if (out[k].start <= t && t < out[k].end)
                    used += w->jobs[k].procs;
            if (used + j->procs <= cap)
                best = t;
        }
        hsim_time_t ran = j->runtime < j->estimate ? j->runtime : j->estimate;
        out[i].start = best;
        out[i].end = best + ran;
        out[i].fate = j->runtime > j->estimate ? HSIM_FATE_KILLED : HSIM_FATE_RAN;
    }
}

static void test_fcfs_against_formula(void)
{
    for (unsigned long seed = 1; seed <= 8; seed++) {
        hsim_workload_t w;
        int32_t cap = seed % 2 ? 16 : 64;
        random_workload(&w, seed, 300, cap, 1.3);
        hsim_outcome_t *a = malloc(w.n_jobs * sizeof *a), *b = malloc(w.n_jobs * sizeof *b);
        hsim_err_t e = {{0}};
        hsim_run_config_t c = config(cap, "none", "fcfs", NULL, "user");
        CU_ASSERT_EQUAL_FATAL(run(&w, &c, a, &e), 0);
        check_invariants(&w, a, cap, "fcfs");
        fcfs_formula(&w, cap, b);
        CU_ASSERT_EQUAL(compare_runs(&w, a, b, "fcfs", seed), 0);
        free(a);
        free(b);
        hsim_workload_free(&w);
    }
}

typedef void workload_fn(hsim_workload_t *w, unsigned long seed, size_t n, int32_t cap,
                         double load);

/* hsim against a reference on workloads of n_jobs jobs that 'make' draws,
   offered load 'load' (0: 1.1 and 1.6 in turn), one per seed (times
   HSIM_TEST_SEEDS: hsim_test_seeds()). */

static void differential_with(workload_fn *make, const char *sched,
                              const hsim_scheduler_t *ref, const char *order,
                              const char *bf_order, const char *pred, unsigned long seeds,
                              size_t n_jobs, double load)
{
    seeds = hsim_test_seeds(seeds);
    for (unsigned long seed = 1; seed <= seeds; seed++) {
        hsim_workload_t w;
        int32_t cap = seed % 3 == 0 ? 8 : seed % 3 == 1 ? 32 : 100;
        make(&w, 1000 + seed, n_jobs, cap, load > 0 ? load : seed % 2 ? 1.1 : 1.6);
        hsim_outcome_t *a = malloc(w.n_jobs * sizeof *a), *b = malloc(w.n_jobs * sizeof *b);
        hsim_err_t e = {{0}};
        hsim_run_config_t c = config(cap, sched, order, bf_order, pred);
        hsim_run_stats_t st = {0};
        for (size_t i = 0; i < w.n_jobs; i++)
            a[i] = (hsim_outcome_t){.start = -7, .end = -7, .fate = 99};
        setenv("HSIM_CHECK", "1", 1); /* conservative checks its profile as it goes */
        int rc = hsim_engine_run(&w, &c, a, &st, &e);
        unsetenv("HSIM_CHECK");
        if (rc)
            fprintf(stderr, "\n%s seed %lu: %s\n", sched, seed, e.msg);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        check_invariants(&w, a, cap, sched);
        /* the workload exercises the scheduler: a queue builds up, and
           some job starts before one submitted earlier */
        CU_ASSERT_TRUE(st.max_waiting >= 10);
        size_t overtaken = 0;
        for (size_t i = 1; i < w.n_jobs; i++)
            overtaken += a[i].start < a[i - 1].start;
        CU_ASSERT_TRUE(overtaken > 0);
        c.scheduler = ref;
        rc = run(&w, &c, b, &e);
        if (rc)
            fprintf(stderr, "\nreference seed %lu: %s\n", seed, e.msg);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        char what[64];
        snprintf(what, sizeof what, "%s/%s%s%s/%s", sched, order, bf_order ? "+" : "",
                 bf_order ? bf_order : "", pred);
        CU_ASSERT_EQUAL(compare_runs(&w, a, b, what, seed), 0);
        free(a);
        free(b);
        hsim_workload_free(&w);
    }
}

static void differential_sized(const char *sched, const hsim_scheduler_t *ref,
                               const char *order, const char *bf_order, const char *pred,
                               unsigned long seeds, size_t n_jobs, double load)
{
    differential_with(random_workload, sched, ref, order, bf_order, pred, seeds, n_jobs,
                      load);
}

static void differential(const char *sched, const hsim_scheduler_t *ref, const char *order,
                         const char *bf_order, const char *pred, unsigned long seeds)
{
    differential_sized(sched, ref, order, bf_order, pred, seeds, 400, 0);
}

static void test_easy_against_reference(void)
{
    differential("easy", &ref_easy, "fcfs", NULL, "user", 12);
}

static void test_easy_sjf_against_reference(void)
{
    differential("easy", &ref_easy, "sjf", NULL, "user", 6);
}

static void test_easy_sjbf_against_reference(void)
{
    differential("easy", &ref_easy, "fcfs", "sjf", "user", 6);
}

static void test_easy_oracle_against_reference(void)
{
    differential("easy", &ref_easy, "fcfs", NULL, "oracle", 6);
}

/* Predictions that change as users' jobs end, and expire (EASY++ and its
   variants): the schedulers keep copies of the waiting jobs' estimates
   that must follow; the references read them afresh at every pass, and
   keep the running jobs in est_end order where 'none' does not. */
static void test_last2_against_reference(void)
{
    differential("easy", &ref_easy, "fcfs", "sjf", "last2", 8);
    differential("easy", &ref_easy, "fcfs", NULL, "last2", 4);
    differential("easy", &ref_easy, "sjf", NULL, "last2", 4);
    differential("none", &ref_none, "sjf", NULL, "last2", 4);
}

static void test_conservative_against_reference(void)
{
    differential("conservative", &ref_cons, "fcfs", NULL, "user", 12);
}

static void test_conservative_sjf_against_reference(void)
{
    differential("conservative", &ref_cons, "sjf", NULL, "user", 6);
}

static void test_conservative_oracle_against_reference(void)
{
    differential("conservative", &ref_cons, "fcfs", NULL, "oracle", 4);
}

/* Longer queues (150 to 270 jobs wait at the most): a termination sets
   off long chains of moves, as on the big traces, and a mistake in what a
   pass keeps between its moves can show up here that the 400-job
   workloads miss. */
static void test_conservative_long_queues(void)
{
    differential_sized("conservative", &ref_cons, "fcfs", NULL, "user", 4, 1000, 1.6);
    differential_sized("conservative", &ref_cons, "sjf", NULL, "user", 4, 1000, 1.6);
}

/* Arrays of jobs that wait for one another: after an early end, chains of
   them move up one place each, jobs of one array at one start move
   together (batch_t in backfill_conservative.c), and runs of jobs that
   cannot move are passed over. */
static void test_conservative_chains(void)
{
    differential_with(chain_workload, "conservative", &ref_cons, "fcfs", NULL, "user", 6,
                      400, 1.6);
}

/* The same with times to the microsecond (jitter_us()). */
static void test_microseconds_against_reference(void)
{
    differential_with(chain_workload_us, "conservative", &ref_cons, "fcfs", NULL, "user", 60,
                      400, 1.6);
    differential_with(random_workload_us, "conservative", &ref_cons, "sjf", NULL, "user", 6,
                      400, 0);
    differential_with(random_workload_us, "easy", &ref_easy, "fcfs", "sjf", "user", 6, 400, 0);
    differential_with(random_workload_us, "easy", &ref_easy, "fcfs", NULL, "last2", 4, 400, 0);
}

/* Many narrow jobs (1-4 processors) on 512 processors at a load of 1.3:
   hundreds run at once, so the engine's running set, which EASY reads in
   order of estimated end, fills with holes where jobs ended early, and
   starting jobs fill them from above and below. */
static void test_easy_many_running(void)
{
    const char *bf_orders[] = {NULL, "sjf"};
    for (unsigned long seed = 1; seed <= 3; seed++) {
        hsim_workload_t w;
        random_workload(&w, 500 + seed, 3000, 4, 1.3 * 128); /* 1.3 on 512 */
        hsim_outcome_t *a = malloc(w.n_jobs * sizeof *a), *b = malloc(w.n_jobs * sizeof *b);
        for (int k = 0; k < 2; k++) {
            hsim_err_t e = {{0}};
            hsim_run_config_t c = config(512, "easy", "fcfs", bf_orders[k], "user");
            CU_ASSERT_EQUAL_FATAL(hsim_engine_run(&w, &c, a, NULL, &e), 0);
            check_invariants(&w, a, 512, "easy");
            c.scheduler = &ref_easy;
            CU_ASSERT_EQUAL_FATAL(run(&w, &c, b, &e), 0);
            CU_ASSERT_EQUAL(compare_runs(&w, a, b, k ? "easy/fcfs+sjf, 512" : "easy/fcfs, 512",
                                         seed), 0);
        }
        free(a);
        free(b);
        hsim_workload_free(&w);
    }
}

/* Every scheduler gives every job an outcome, on random workloads. */
static void test_every_job_has_an_outcome(void)
{
    const char *scheds[] = {"none", "easy", "conservative"};
    const char *orders[] = {"fcfs", "sjf"};
    for (unsigned long seed = 1; seed <= 3; seed++) {
        hsim_workload_t w;
        random_workload(&w, 77 + seed, 500, 48, 2.0);
        hsim_outcome_t *a = malloc(w.n_jobs * sizeof *a);
        for (int s = 0; s < 3; s++)
            for (int o = 0; o < 2; o++) {
                hsim_err_t e = {{0}};
                hsim_run_config_t c = config(48, scheds[s], orders[o], NULL, "user");
                hsim_run_stats_t st = {0};
                for (size_t i = 0; i < w.n_jobs; i++)
                    a[i] = (hsim_outcome_t){.start = -7, .end = -7, .fate = 99};
                int rc = hsim_engine_run(&w, &c, a, &st, &e);
                if (rc)
                    fprintf(stderr, "\n%s/%s: %s\n", scheds[s], orders[o], e.msg);
                CU_ASSERT_EQUAL(rc, 0);
                if (rc)
                    continue;
                check_invariants(&w, a, 48, scheds[s]);
                /* one submission and one termination per job at least */
                CU_ASSERT_TRUE(st.events >= 2 * w.n_jobs);
                CU_ASSERT_TRUE(st.passes >= 2 * w.n_jobs);
                CU_ASSERT_TRUE(st.max_waiting >= 1);
            }
        free(a);
        hsim_workload_free(&w);
    }
}

/* ---- determinism of a whole experiment ---- */

static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        if (ca != cb)
            same = 0;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

static long count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long n = 0;
    int c;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

/* Two runs of an experiment with five policies on HPC2N, the second with
   its policies replayed three at a time on threads: the same files. */
static void test_experiment_deterministic(void)
{
    static const char trace[] = HSIM_SHARED_DIR "/traces/swf/HPC2N-excerpt-3170.swf.gz";
    struct stat st;
    if (stat(trace, &st)) {
        fprintf(stderr, "\n%s is missing\n", trace);
        CU_FAIL("shared trace missing");
        return;
    }
    char *dir = hsim_test_tmpdir("determinism");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    static const char *const policies[] = {"fcfs", "easy", "cons", "sjbf", "perfect"};
    static hsim_config_t cfg; /* large */
    for (int k = 0; k < 2; k++) {
        char text[4096], ini[600];
        snprintf(ini, sizeof ini, "%s/det.ini", dir);
        snprintf(text, sizeof text,
                 "[experiment]\nname = det\noutput = %s/out%d\n"
                 "[workload]\npath = %s\nclean = pyss\n"
                 "[cluster]\nprocessors = 240\n"
                 "[policy fcfs]\n"
                 "[policy easy]\nbackfill = easy\n"
                 "[policy cons]\nbackfill = conservative\n"
                 "[policy sjbf]\nbackfill = easy\nbackfill_order = sjf\n"
                 "[policy perfect]\nbackfill = easy\nestimate = oracle\n",
                 dir, k, trace);
        hsim_err_t e = {{0}};
        CU_ASSERT_EQUAL_FATAL(hsim_config_parse_string(text, ini, &cfg, &e), 0);
        /* the second run replays its policies three at a time on threads */
        hsim_experiment_options_t o = {.quiet = 1, .threads = k ? 3 : 1};
        int rc = hsim_experiment_run(&cfg, &o, &e);
        if (rc)
            fprintf(stderr, "\n%s\n", e.msg);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
    }
    char a[800], b[800];
    const char *top[] = {"summary.csv", "rejected.csv"};
    for (int i = 0; i < 2; i++) {
        snprintf(a, sizeof a, "%s/out0/det/%s", dir, top[i]);
        snprintf(b, sizeof b, "%s/out1/det/%s", dir, top[i]);
        CU_ASSERT_TRUE(same_file(a, b));
        if (i == 0)
            CU_ASSERT_EQUAL(count_lines(a), 6); /* header + 5 policies */
    }
    for (int i = 0; i < 5; i++) {
        snprintf(a, sizeof a, "%s/out0/det/%s/jobs.csv", dir, policies[i]);
        snprintf(b, sizeof b, "%s/out1/det/%s/jobs.csv", dir, policies[i]);
        CU_ASSERT_EQUAL(count_lines(a), 3171);
        if (!same_file(a, b)) {
            fprintf(stderr, "\n%s and %s differ\n", a, b);
            CU_FAIL("two runs of one experiment differ");
        }
        remove(a);
        remove(b);
        for (int k = 0; k < 2; k++) {
            snprintf(a, sizeof a, "%s/out%d/det/%s", dir, k, policies[i]);
            rmdir(a);
        }
    }
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 2; i++) {
            snprintf(a, sizeof a, "%s/out%d/det/%s", dir, k, top[i]);
            remove(a);
        }
        snprintf(a, sizeof a, "%s/out%d/det", dir, k);
        rmdir(a);
        snprintf(a, sizeof a, "%s/out%d", dir, k);
        rmdir(a);
    }
    rmdir(dir);
    free(dir);
}

/* ---- allocation failures ---- */

static void inject(const char *sched, const char *bf_order, const char *pred)
{
    hsim_workload_t w;
    random_workload(&w, 4242, 60, 16, 1.5);
    hsim_outcome_t good[60], out[60];
    hsim_err_t e = {{0}};
    hsim_run_config_t c = config(16, sched, "fcfs", bf_order, pred);
    CU_ASSERT_EQUAL_FATAL(hsim_engine_run(&w, &c, good, NULL, &e), 0);
    int ok = 0, enomem = 0, other = 0, leaks = 0;
    for (long n = 1; n <= 5000 && !ok; n++) {
        long live = hsim_alloc_live();
        hsim_alloc_fail_after(n);
        int rc = hsim_engine_run(&w, &c, out, NULL, &e);
        hsim_alloc_fail_after(0);
        if (hsim_alloc_live() != live) {
            if (leaks++ < 3)
                fprintf(stderr, "\n%s: failing allocation %ld leaks %ld block(s)\n", sched, n,
                        hsim_alloc_live() - live);
        }
        if (rc == 0) {
            ok = 1;
            int same = 1;
            for (size_t i = 0; i < w.n_jobs; i++)
                same &= good[i].start == out[i].start && good[i].end == out[i].end &&
                        good[i].fate == out[i].fate;
            CU_ASSERT_TRUE(same);
            CU_ASSERT_TRUE(n > 5);
        } else if (rc == HSIM_ENOMEM) {
            enomem++;
        } else {
            if (other++ < 3)
                fprintf(stderr, "\n%s: failing allocation %ld gave %d: %s\n", sched, n, rc,
                        e.msg);
        }
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_TRUE(enomem >= 5); /* the run does allocate, and reports it */
    CU_ASSERT_EQUAL(other, 0);
    CU_ASSERT_EQUAL(leaks, 0);
    hsim_workload_free(&w);
}

/* Removes path and all below it. */
static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *ent;
        while ((ent = readdir(d))) {
            if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
                continue;
            char sub[1024];
            snprintf(sub, sizeof sub, "%s/%s", path, ent->d_name);
            remove_tree(sub);
        }
        closedir(d);
        rmdir(path);
    } else {
        remove(path);
    }
}

/* An experiment on a cluster of nodes, its three policies on three threads,
   whose n-th allocation fails, for n = 1, 2, ... until it runs through:
   each failure is reported as out of memory and leaks nothing, whichever
   thread it hits. */
static void test_enomem_threads(void)
{
    char *dir = hsim_test_tmpdir("enomem-threads");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    static hsim_config_t cfg; /* large */
    char text[1024], ini[600];
    snprintf(ini, sizeof ini, "%s/t.ini", dir);
    snprintf(text, sizeof text,
             "[experiment]\nname = t\noutput = %s/out\nseed = 7\n"
             "[workload]\nformat = lublin\njobs = 40\nload = 0.9\n"
             "[nodes n]\ncount = 8\ncores = 8\n"
             "[policy a]\n[policy b]\nbackfill = easy\n[policy c]\nbackfill = conservative\n",
             dir);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_config_parse_string(text, ini, &cfg, &e), 0);
    hsim_experiment_options_t o = {.quiet = 1, .threads = 3};
    int ok = 0, enomem = 0, other = 0, leaks = 0;
    for (long n = 1; n <= 20000 && !ok; n++) {
        long live = hsim_alloc_live();
        hsim_alloc_fail_after(n);
        int rc = hsim_experiment_run(&cfg, &o, &e);
        hsim_alloc_fail_after(0);
        leaks += hsim_alloc_live() != live;
        if (rc == 0)
            ok = 1;
        else if (rc == HSIM_ENOMEM)
            enomem++;
        else if (other++ < 3)
            fprintf(stderr, "\nfailing allocation %ld gave %d: %s\n", n, rc, e.msg);
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_TRUE(enomem >= 10);
    CU_ASSERT_EQUAL(other, 0);
    CU_ASSERT_EQUAL(leaks, 0);
    remove_tree(dir);
    free(dir);
}

static void test_enomem_none(void) { inject("none", NULL, "user"); }
static void test_enomem_easy(void) { inject("easy", NULL, "user"); }
static void test_enomem_easy_sjbf(void) { inject("easy", "sjf", "user"); }
static void test_enomem_easy_plus_plus(void) { inject("easy", "sjf", "last2"); }
static void test_enomem_conservative(void) { inject("conservative", NULL, "user"); }

void hsim_test_register(void)
{
    CU_pSuite h = hsim_test_suite("engine-hand-worked");
    HSIM_TEST(h, test_small_schedules);
    HSIM_TEST(h, test_easy_vs_conservative);
    HSIM_TEST(h, test_held_give_back);
    HSIM_TEST(h, test_same_timestamp_rule);
    HSIM_TEST(h, test_window_one_us_into_give_back);
    HSIM_TEST(h, test_last2_below_a_second);
    HSIM_TEST(h, test_killed_at_estimate);
    HSIM_TEST(h, test_oracle_estimates);
    HSIM_TEST(h, test_prediction_expiry);
    HSIM_TEST(h, test_job_too_wide);
    HSIM_TEST(h, test_horizon);
    HSIM_TEST(h, test_oracle_below_a_second);
    HSIM_TEST(h, test_empty_workload);
    HSIM_TEST(h, test_impossible_decisions);
    CU_pSuite d = hsim_test_suite("engine-differential");
    HSIM_TEST(d, test_fcfs_against_formula);
    HSIM_TEST(d, test_easy_against_reference);
    HSIM_TEST(d, test_easy_sjf_against_reference);
    HSIM_TEST(d, test_easy_sjbf_against_reference);
    HSIM_TEST(d, test_easy_oracle_against_reference);
    HSIM_TEST(d, test_last2_against_reference);
    HSIM_TEST(d, test_conservative_against_reference);
    HSIM_TEST(d, test_conservative_sjf_against_reference);
    HSIM_TEST(d, test_conservative_oracle_against_reference);
    HSIM_TEST(d, test_conservative_long_queues);
    HSIM_TEST(d, test_conservative_chains);
    HSIM_TEST(d, test_microseconds_against_reference);
    HSIM_TEST(d, test_easy_many_running);
    HSIM_TEST(d, test_every_job_has_an_outcome);
    CU_pSuite x = hsim_test_suite("experiment");
    HSIM_TEST(x, test_experiment_deterministic);
    CU_pSuite m = hsim_test_suite("allocation-failures");
    HSIM_TEST(m, test_enomem_none);
    HSIM_TEST(m, test_enomem_easy);
    HSIM_TEST(m, test_enomem_easy_sjbf);
    HSIM_TEST(m, test_enomem_easy_plus_plus);
    HSIM_TEST(m, test_enomem_conservative);
    HSIM_TEST(m, test_enomem_threads);
}
