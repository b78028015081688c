/*
 * test_policies.c - the schedulers driven by hand, without the engine.
 *
 * A tiny stand-in for the engine ("bench") holds a view built by hand: the
 * jobs, the waiting list, the running list sorted by estimated end.  The
 * decision callbacks log every decision and update the view the way the
 * engine does (a started job leaves waiting and joins running), and refuse
 * a decision that the engine would refuse (a job that is not waiting, or
 * that does not fit by hsim_view_free_now()).  Each scenario's expected
 * schedule was worked out by hand and is written beside it.
 */
#include "harness.h"

#include "policies/queue.h"
#include "policies/registry.h"

#include <string.h>

#define S HSIM_SECOND
#define MAXJ 32
#define MAXLOG 128

typedef struct decision {
    char kind;          /* 'S' start, 'R' reserve */
    int32_t job;
    hsim_time_t at;     /* start: now; reserve: the reserved time */
} decision_t;

typedef struct bench {
    hsim_vjob_t jobs[MAXJ];
    int32_t waiting[MAXJ];
    size_t n_waiting;
    hsim_running_t running[MAXJ];
    size_t n_running;
    hsim_view_t view;
    hsim_decide_t decide;
    const hsim_scheduler_t *sched;
    void *state;
    size_t n_jobs;
    hsim_time_t reserved[MAXJ];  /* pending reservation, -1 none */
    hsim_time_t started[MAXJ];   /* -1 until started */
    decision_t log[MAXLOG];
    size_t n_log;
    int refused;                 /* impossible decisions seen */
} bench_t;

static bench_t B; /* one at a time; zeroed by bench_init */

static void sync_view(bench_t *b)
{
    b->view.jobs = b->jobs;
    b->view.waiting = b->waiting;
    b->view.n_waiting = b->n_waiting;
    b->view.waiting_holes = 0;
    b->view.running = b->running;
    b->view.n_running = b->n_running;
    int32_t busy = 0;
    for (size_t i = 0; i < b->n_running; i++)
        busy += b->running[i].procs;
    b->view.running_procs = busy;
}

static int waiting_slot(const bench_t *b, int32_t job)
{
    for (size_t i = 0; i < b->n_waiting; i++)
        if (b->waiting[i] == job)
            return (int)i;
    return -1;
}

/* Moves job from waiting to running at view.now (as the engine does). */
static void run_job(bench_t *b, int32_t job)
{
    int slot = waiting_slot(b, job);
    HSIM_ASSERT(slot >= 0);
    memmove(&b->waiting[slot], &b->waiting[slot + 1],
            (b->n_waiting - (size_t)slot - 1) * sizeof *b->waiting);
    b->n_waiting--;
    hsim_time_t est_end = b->view.now + b->jobs[job].estimate;
    size_t at = 0; /* after every entry with est_end <= this one: start order */
    while (at < b->n_running && b->running[at].est_end <= est_end)
        at++;
    memmove(&b->running[at + 1], &b->running[at], (b->n_running - at) * sizeof *b->running);
    b->running[at] = (hsim_running_t){.job = job, .procs = b->jobs[job].procs,
                                      .start = b->view.now, .est_end = est_end};
    b->n_running++;
    b->started[job] = b->view.now;
    b->reserved[job] = -1;
    sync_view(b);
}

static int cb_start(void *ctx, int32_t job)
{
    bench_t *b = ctx;
    if (job < 0 || (size_t)job >= b->n_jobs || waiting_slot(b, job) < 0 ||
        b->jobs[job].procs > hsim_view_free_now(&b->view)) {
        fprintf(stderr, "\nrefused: start of job %d at %lld s\n", job,
                (long long)(b->view.now / S));
        b->refused++;
        return HSIM_EINPUT;
    }
    if (b->n_log < MAXLOG)
        b->log[b->n_log++] = (decision_t){'S', job, b->view.now};
    run_job(b, job);
    return 0;
}

static int cb_reserve(void *ctx, int32_t job, hsim_time_t at)
{
    bench_t *b = ctx;
    if (job < 0 || (size_t)job >= b->n_jobs || waiting_slot(b, job) < 0 || at < b->view.now) {
        fprintf(stderr, "\nrefused: reservation of job %d at %lld s\n", job,
                (long long)(at / S));
        b->refused++;
        return HSIM_EINPUT;
    }
    if (b->n_log < MAXLOG)
        b->log[b->n_log++] = (decision_t){'R', job, at};
    b->reserved[job] = at;
    return 0;
}

static void bench_init(const char *sched, const char *order, const char *bf_order,
                       int32_t capacity)
{
    memset(&B, 0, sizeof B);
    B.sched = hsim_scheduler_find(sched);
    CU_ASSERT_PTR_NOT_NULL_FATAL(B.sched);
    B.view.capacity = capacity;
    B.decide = (hsim_decide_t){.ctx = &B, .start = cb_start, .reserve = cb_reserve};
    for (int i = 0; i < MAXJ; i++)
        B.reserved[i] = B.started[i] = -1;
    sync_view(&B);
    hsim_policy_params_t p = {
        .capacity = capacity,
        .n_jobs = MAXJ,
        .order = hsim_order_find(order),
        .backfill_order = bf_order ? hsim_order_find(bf_order) : NULL,
    };
    CU_ASSERT_PTR_NOT_NULL_FATAL(p.order);
    CU_ASSERT_EQUAL_FATAL(B.sched->create(&p, &B.state), 0);
}

static void bench_done(void)
{
    B.sched->destroy(B.state);
    B.state = NULL;
    CU_ASSERT_EQUAL(B.refused, 0);
}

/* Defines job index idx (indices must be given in submission order). */
static void job(int32_t idx, int64_t submit_s, int32_t procs, int64_t est_s)
{
    B.jobs[idx] = (hsim_vjob_t){.submit = submit_s * S, .estimate = est_s * S,
                                .requested = est_s * S, .procs = procs, .user = 1};
    if ((size_t)idx + 1 > B.n_jobs)
        B.n_jobs = (size_t)idx + 1;
}

/* The engine's submission: the job joins waiting, submitted(), schedule(). */
static void submit(int64_t now_s, int32_t idx)
{
    B.view.now = now_s * S;
    B.waiting[B.n_waiting++] = idx;
    sync_view(&B);
    if (B.sched->submitted)
        CU_ASSERT_EQUAL(B.sched->submitted(B.state, &B.view, idx, &B.decide), 0);
    CU_ASSERT_EQUAL(B.sched->schedule(B.state, &B.view, &B.decide), 0);
}

/* The engine's termination: the job leaves running, ended(), schedule(). */
static void end(int64_t now_s, int32_t idx)
{
    B.view.now = now_s * S;
    size_t i = 0;
    while (i < B.n_running && B.running[i].job != idx)
        i++;
    CU_ASSERT_FATAL(i < B.n_running);
    hsim_running_t r = B.running[i];
    CU_ASSERT_FATAL(r.est_end >= B.view.now);
    memmove(&B.running[i], &B.running[i + 1], (B.n_running - i - 1) * sizeof *B.running);
    B.n_running--;
    sync_view(&B);
    if (B.sched->ended)
        CU_ASSERT_EQUAL(B.sched->ended(B.state, &B.view, idx, r.start, r.est_end, &B.decide), 0);
    CU_ASSERT_EQUAL(B.sched->schedule(B.state, &B.view, &B.decide), 0);
}

/* The engine's start events: jobs whose reservation is now start. */
static void start_due(int64_t now_s)
{
    B.view.now = now_s * S;
    sync_view(&B);
    for (size_t k = 0; k < B.n_jobs; k++)
        if (B.reserved[k] == B.view.now && waiting_slot(&B, (int32_t)k) >= 0) {
            CU_ASSERT_FATAL(B.jobs[k].procs <= hsim_view_free_now(&B.view));
            run_job(&B, (int32_t)k);
        }
}

/* Checks the log from entry 'from' on against want (n entries, times in s). */
static void expect_log(size_t from, const decision_t *want, size_t n)
{
    int ok = B.n_log == from + n;
    for (size_t i = 0; ok && i < n; i++) {
        const decision_t *g = &B.log[from + i];
        ok = g->kind == want[i].kind && g->job == want[i].job && g->at == want[i].at * S;
    }
    if (!ok) {
        fprintf(stderr, "\ndecisions:");
        for (size_t i = from; i < B.n_log; i++)
            fprintf(stderr, " %c%d@%lld", B.log[i].kind, B.log[i].job,
                    (long long)(B.log[i].at / S));
        fprintf(stderr, "\nwanted:   ");
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, " %c%d@%lld", want[i].kind, want[i].job, (long long)want[i].at);
        fprintf(stderr, "\n");
        CU_FAIL("decisions differ from the hand-worked schedule");
    }
}

#define EXPECT(from, ...)                                                      \
    do {                                                                       \
        static const decision_t want_[] = {__VA_ARGS__};                       \
        expect_log((from), want_, sizeof want_ / sizeof want_[0]);             \
    } while (0)
#define EXPECT_NONE(from) expect_log((from), NULL, 0)

/* ---- the view ---- */

static void test_view_free_now(void)
{
    hsim_running_t run[3] = {
        {.job = 0, .procs = 6, .start = 0, .est_end = 100 * S},
        {.job = 1, .procs = 1, .start = 0, .est_end = 100 * S},
        {.job = 2, .procs = 2, .start = 0, .est_end = 150 * S},
    };
    hsim_view_t v = {.now = 99 * S, .capacity = 10, .running_procs = 9, .running = run,
                     .n_running = 3};
    CU_ASSERT_EQUAL(hsim_view_free_now(&v), 1);
    v.now = 100 * S; /* estimates ending now give their processors back */
    CU_ASSERT_EQUAL(hsim_view_free_now(&v), 8);
    v.now = 150 * S;
    CU_ASSERT_EQUAL(hsim_view_free_now(&v), 10);
    v.n_running = 0;
    v.running_procs = 0;
    CU_ASSERT_EQUAL(hsim_view_free_now(&v), 10);
}

/* ---- orders ---- */

static void test_orders(void)
{
    const hsim_order_t *fcfs = hsim_order_find("fcfs"), *sjf = hsim_order_find("sjf");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fcfs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sjf);
    CU_ASSERT_PTR_NULL(hsim_order_find("lifo"));
    hsim_vjob_t j[5] = {
        {.estimate = 50 * S, .procs = 1}, {.estimate = 10 * S, .procs = 1},
        {.estimate = 50 * S, .procs = 1}, {.estimate = 10 * S, .procs = 1},
        {.estimate = 5 * S, .procs = 1},
    };
    CU_ASSERT_TRUE(fcfs->compare(NULL, j, 0, 1, 0) < 0);
    CU_ASSERT_TRUE(fcfs->compare(NULL, j, 3, 1, 0) > 0);
    CU_ASSERT_TRUE(sjf->compare(NULL, j, 1, 0, 0) < 0);
    CU_ASSERT_TRUE(sjf->compare(NULL, j, 0, 2, 0) < 0); /* tie: index */
    CU_ASSERT_TRUE(sjf->compare(NULL, j, 2, 0, 0) > 0);
    CU_ASSERT_EQUAL(sjf->compare(NULL, j, 3, 3, 0), 0);
    int32_t ids[5] = {2, 0, 3, 4, 1};
    CU_ASSERT_EQUAL(hsim_order_sort(ids, 5, j, sjf, NULL, 0), 0);
    int32_t want[5] = {4, 1, 3, 0, 2};
    CU_ASSERT_EQUAL(memcmp(ids, want, sizeof want), 0);
    CU_ASSERT_EQUAL(hsim_order_sort(ids, 5, j, fcfs, NULL, 0), 0);
    for (int i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(ids[i], i);
}

/* ---- no backfilling ---- */

/*
 * FCFS blocks: 10 processors.
 *   t=0  J0 (6 procs, est 100) starts.            free 4
 *   t=0  J1 (6, 50) does not fit: waits.
 *   t=0  J2 (1, 10) would fit, but J1 is first: waits.
 *   t=100 J0 ends: J1 starts (free 4), then J2 (free 3).
 */
static void test_fcfs_blocks(void)
{
    bench_init("none", "fcfs", NULL, 10);
    job(0, 0, 6, 100);
    job(1, 0, 6, 50);
    job(2, 0, 1, 10);
    submit(0, 0);
    submit(0, 1);
    submit(0, 2);
    EXPECT(0, {'S', 0, 0});
    end(100, 0);
    EXPECT(1, {'S', 1, 100}, {'S', 2, 100});
    CU_ASSERT_EQUAL(B.n_waiting, 0);
    bench_done();
}

/*
 * The same-timestamp rule without backfilling: J0 (6, est 100) runs; at
 * t=100, before J0's termination is handled, J1 (6) is submitted and sees
 * J0's processors free (its estimate ends now).
 */
static void test_fcfs_estimate_ending_now_is_free(void)
{
    bench_init("none", "fcfs", NULL, 10);
    job(0, 0, 6, 100);
    job(1, 100, 6, 10);
    submit(0, 0);
    submit(99, 1);  /* at 99 it does not fit */
    EXPECT(0, {'S', 0, 0});
    bench_done();

    bench_init("none", "fcfs", NULL, 10);
    job(0, 0, 6, 100);
    job(1, 100, 6, 10);
    submit(0, 0);
    submit(100, 1);
    EXPECT(0, {'S', 0, 0}, {'S', 1, 100});
    bench_done();
}

/*
 * SJF without backfilling, 5 processors, every job takes all 5.
 *   t=0   J0 (est 100) starts.
 *   t=10..50 J1 (300), J2 (100), J3 (200), J4 (100), J5 (100) wait.
 *   Queue by estimate, ties by index: J2, J4, J5, J3, J1.
 *   t=100 J0 ends -> J2;  t=200 J2 ends -> J4;  t=300 -> J5;
 *   t=400 J5 ends -> J3 (est 200);  t=600 J3 ends -> J1.
 */
static void test_sjf_order_and_ties(void)
{
    bench_init("none", "sjf", NULL, 5);
    job(0, 0, 5, 100);
    job(1, 10, 5, 300);
    job(2, 20, 5, 100);
    job(3, 30, 5, 200);
    job(4, 40, 5, 100);
    job(5, 50, 5, 100);
    submit(0, 0);
    for (int i = 1; i <= 5; i++)
        submit(10 * i, i);
    EXPECT(0, {'S', 0, 0});
    end(100, 0);
    end(200, 2);
    end(300, 4);
    end(400, 5);
    end(600, 3);
    EXPECT(1, {'S', 2, 100}, {'S', 4, 200}, {'S', 5, 300}, {'S', 3, 400}, {'S', 1, 600});
    bench_done();
}

/* ---- EASY ---- */

/*
 * EASY, 10 processors.  J0 (6, est 100) runs from 0: 4 free.
 * At t=10, in this order:
 *   J1 (8, 50): the head; does not fit.  Shadow = 100 (J0's estimated end,
 *       when 4 + 6 = 10 >= 8 are free); extra = 10 - 8 = 2.
 *   J2 (4, 150): fits now (4 free) but ends at 160 > 100 and 4 > extra 2:
 *       it would delay the head.  Waits.
 *   J3 (2, 500): ends at 510 > 100 but 2 <= extra 2: backfills, and
 *       consumes the extra processors (extra 0, free 2).
 *   J4 (1, 500): 1 fits now, ends after the shadow, extra is 0: waits.
 *   J5 (2, 90): ends at 10 + 90 = 100, exactly the shadow time: backfills
 *       (free 0).
 * t=60: J5 ends early: 2 free; head still does not fit; J2 (4) does not fit;
 *       J4 would end after the shadow with extra 0: nothing starts.
 * t=100: J0 ends: 8 free: J1 starts; nothing is free after it.
 */
static void test_easy_backfill_rules(void)
{
    bench_init("easy", "fcfs", NULL, 10);
    job(0, 0, 6, 100);
    job(1, 10, 8, 50);
    job(2, 10, 4, 150);
    job(3, 10, 2, 500);
    job(4, 10, 1, 500);
    job(5, 10, 2, 90);
    submit(0, 0);
    EXPECT(0, {'S', 0, 0});
    submit(10, 1);
    submit(10, 2);
    EXPECT_NONE(1);
    submit(10, 3);
    EXPECT(1, {'S', 3, 10});
    submit(10, 4);
    EXPECT_NONE(2);
    submit(10, 5);
    EXPECT(2, {'S', 5, 10});
    end(60, 5);
    EXPECT_NONE(3);
    end(100, 0);
    EXPECT(3, {'S', 1, 100});
    CU_ASSERT_EQUAL(B.n_waiting, 2); /* J2 and J4 */
    bench_done();
}

/*
 * A job that ends before the shadow backfills even when it needs more than
 * the extra processors, and does not use them up.  10 processors.
 *   t=0  J0 (6, est 100) starts: 4 free.
 *   t=10 J1 (8, 50): head; shadow 100, extra 2.
 *   t=10 J2 (4, 80): ends at 90 < 100: backfills though 4 > extra 2.
 *   ... then nothing is free.
 * Second bench: J2 (1, 20) ends at 30 < 100: backfills (free 3), extra stays
 *   2, so J3 (2, 500) still backfills on the extra processors.
 */
static void test_easy_ends_before_shadow(void)
{
    bench_init("easy", "fcfs", NULL, 10);
    job(0, 0, 6, 100);
    job(1, 10, 8, 50);
    job(2, 10, 4, 80);
    submit(0, 0);
    submit(10, 1);
    submit(10, 2);
    EXPECT(0, {'S', 0, 0}, {'S', 2, 10});
    bench_done();

    bench_init("easy", "fcfs", NULL, 10);
    job(0, 0, 6, 100);
    job(1, 10, 8, 50);
    job(2, 10, 1, 20);
    job(3, 10, 2, 500);
    submit(0, 0);
    submit(10, 1);
    submit(10, 2);
    submit(10, 3);
    EXPECT(0, {'S', 0, 0}, {'S', 2, 10}, {'S', 3, 10});
    bench_done();
}

/*
 * Several candidates in one pass (after a termination), in queue order.
 * 10 processors.  t=0: J0 (6, 100) and J1 (4, 60) start: 0 free.
 * t=10: J2 (8, 50) head, J3 (1, 500), J4 (2, 500), J5 (1, 40) wait.
 * t=40: J1 ends: 4 free; shadow 100 (4 + 6 = 10 >= 8), extra 2.
 *   J3 (1 <= extra): starts, extra 1, free 3.
 *   J4 (2 > extra 1, ends 540 > 100): waits.
 *   J5 (ends at 80 <= 100): starts, free 2.
 */
static void test_easy_pass_after_termination(void)
{
    bench_init("easy", "fcfs", NULL, 10);
    job(0, 0, 6, 100);
    job(1, 0, 4, 60);
    job(2, 10, 8, 50);
    job(3, 10, 1, 500);
    job(4, 10, 2, 500);
    job(5, 10, 1, 40);
    submit(0, 0);
    submit(0, 1);
    for (int i = 2; i <= 5; i++)
        submit(10, i);
    EXPECT(0, {'S', 0, 0}, {'S', 1, 0});
    end(40, 1);
    EXPECT(2, {'S', 3, 40}, {'S', 5, 40});
    bench_done();
}

/*
 * The same-timestamp rule with EASY: J0 (6, est 100) runs; J1 (8, 50) waits
 * from t=10.  At t=100, before J0's termination, J2 (2, 10) is submitted:
 * the pass sees J0's processors free, starts the head J1 (8), then J2 (2).
 */
static void test_easy_estimate_ending_now(void)
{
    bench_init("easy", "fcfs", NULL, 10);
    job(0, 0, 6, 100);
    job(1, 10, 8, 50);
    job(2, 100, 2, 10);
    submit(0, 0);
    submit(10, 1);
    submit(100, 2);
    EXPECT(0, {'S', 0, 0}, {'S', 1, 100}, {'S', 2, 100});
    bench_done();
}

/*
 * Backfilling order: queue order (fcfs) or shortest first (sjf).
 * 10 processors.  t=0: J0 (6, 100), J1 (4, 60) start.
 * t=10: J2 (8, 50) head; J3 (4, 60) and J4 (4, 30) wait.
 * t=40: J1 ends: 4 free, shadow 100, extra 2.  Both J3 (ends 100) and J4
 *   (ends 70) end by the shadow but only one fits:
 *   fcfs backfilling takes J3; sjf backfilling takes J4.
 */
static void test_easy_backfill_order(void)
{
    for (int sjbf = 0; sjbf <= 1; sjbf++) {
        bench_init("easy", "fcfs", sjbf ? "sjf" : NULL, 10);
        job(0, 0, 6, 100);
        job(1, 0, 4, 60);
        job(2, 10, 8, 50);
        job(3, 10, 4, 60);
        job(4, 10, 4, 30);
        submit(0, 0);
        submit(0, 1);
        submit(10, 2);
        submit(10, 3);
        submit(10, 4);
        EXPECT(0, {'S', 0, 0}, {'S', 1, 0});
        end(40, 1);
        if (sjbf)
            EXPECT(2, {'S', 4, 40});
        else
            EXPECT(2, {'S', 3, 40});
        bench_done();
    }
}

/*
 * The head starts as soon as it fits, and jobs behind it in queue order
 * while they fit, before any backfilling.  10 processors.
 * t=0: J0 (10, 100) starts.  t=5: J1 (3, 10), J2 (3, 10), J3 (5, 10),
 * J4 (2, 10) wait (nothing free).  t=50: J0 ends early: J1, J2 start (6),
 * J3 (5 > 4 free) is the new head; shadow = 60 (J1 and J2 end: 4 + 6 >= 5),
 * extra = 10 - 5 = 5; J4 (2, ends 60 <= 60) backfills.
 */
static void test_easy_head_first(void)
{
    bench_init("easy", "fcfs", NULL, 10);
    job(0, 0, 10, 100);
    job(1, 5, 3, 10);
    job(2, 5, 3, 10);
    job(3, 5, 5, 10);
    job(4, 5, 2, 10);
    submit(0, 0);
    for (int i = 1; i <= 4; i++)
        submit(5, i);
    end(50, 0);
    EXPECT(0, {'S', 0, 0}, {'S', 1, 50}, {'S', 2, 50}, {'S', 4, 50});
    bench_done();
}

/* ---- conservative ---- */

/*
 * Conservative backfilling, 10 processors, every job submitted at t=0 in
 * index order.  Reservations by the profile of running jobs and earlier
 * reservations (free processors per interval in brackets):
 *   J0 (10, 100) -> 0      [0,100) 0 free
 *   J1 (5, 100)  -> 100    [100,200) 5
 *   J2 (10, 100) -> 200    [200,300) 0
 *   J3 (5, 50)   -> 100    a hole beside J1, before the earlier J2:
 *                           [100,150) 0, [150,200) 5
 *   J4 (5, 150)  -> 300    the hole [150,200) is too short; [300,450) 5
 *   J5 (5, 50)   -> 150    fills the hole [150,200)
 * t=50: J0 ends early (estimate 100): [50,100) is released (10 free) and
 * each waiting job, in submission order, is placed again at its earliest
 * fit, never later:
 *   J1 (5, 100): [50,150) fits (J3 holds 5 of [100,150))      -> 50
 *   J2 (10, 100): no 10 free before 200                        -> stays 200
 *   J3 (5, 50): [50,100) has 5 free next to J1                 -> 50
 *   J4 (5, 150): [100,200) has 5 but [200,300) is J2's          -> stays 300
 *   J5 (5, 50): its own [150,200) released, [100,150) has 5    -> 100
 * t=60: J1 ends early (estimate to 150): [60,150) 5 more free:
 *   J2 (10, 100): [150,250) all free once its own slot is out  -> 150
 *   J4 (5, 150): [250,400) after J2's new slot                  -> 250
 *   J5 (5, 50): [60,110) has 5 free (J3 holds the other 5)      -> 60
 */
static void test_conservative(void)
{
    bench_init("conservative", "fcfs", NULL, 10);
    job(0, 0, 10, 100);
    job(1, 0, 5, 100);
    job(2, 0, 10, 100);
    job(3, 0, 5, 50);
    job(4, 0, 5, 150);
    job(5, 0, 5, 50);
    for (int i = 0; i <= 5; i++)
        submit(0, i);
    EXPECT(0, {'R', 0, 0}, {'R', 1, 100}, {'R', 2, 200}, {'R', 3, 100}, {'R', 4, 300},
           {'R', 5, 150});
    start_due(0);
    CU_ASSERT_EQUAL(B.started[0], 0);
    hsim_time_t before[MAXJ];
    memcpy(before, B.reserved, sizeof before);

    end(50, 0);
    EXPECT(6, {'R', 1, 50}, {'R', 3, 50}, {'R', 5, 100});
    for (int i = 1; i <= 5; i++)
        CU_ASSERT_TRUE(B.reserved[i] <= before[i]); /* never later */
    start_due(50);
    CU_ASSERT_EQUAL(B.started[1], 50 * S);
    CU_ASSERT_EQUAL(B.started[3], 50 * S);
    memcpy(before, B.reserved, sizeof before);

    end(60, 1);
    EXPECT(9, {'R', 2, 150}, {'R', 4, 250}, {'R', 5, 60});
    for (int i = 2; i <= 5; i++)
        if (B.started[i] < 0)
            CU_ASSERT_TRUE(B.reserved[i] <= before[i]);
    start_due(60);
    CU_ASSERT_EQUAL(B.started[5], 60 * S);
    bench_done();
}

/*
 * A job that ends exactly at its estimate frees nothing new: no
 * reservation moves.  Same jobs as above, J0 ends at t=100.
 */
static void test_conservative_on_time_end_moves_nothing(void)
{
    bench_init("conservative", "fcfs", NULL, 10);
    job(0, 0, 10, 100);
    job(1, 0, 5, 100);
    job(2, 0, 10, 100);
    job(3, 0, 5, 50);
    for (int i = 0; i <= 3; i++)
        submit(0, i);
    start_due(0);
    size_t n = B.n_log;
    end(100, 0);
    EXPECT_NONE(n);
    start_due(100);
    CU_ASSERT_EQUAL(B.started[1], 100 * S);
    CU_ASSERT_EQUAL(B.started[3], 100 * S);
    CU_ASSERT_EQUAL(B.started[2], -1);
    bench_done();
}

/*
 * Conservative placement at later submissions: the profile starts from the
 * running jobs' estimated ends, not from capacity.  10 processors.
 *   t=0  J0 (4, 100) -> 0.
 *   t=10 J1 (8, 20): 6 free now, 10 from 100 -> 100.
 *   t=20 J2 (6, 80): [20,100) has 6 free -> 20 (starts now).
 *   t=30 J3 (6, 80): [30,100) has 0 free after J2; at 100 J1 takes 8
 *        until 120, so 2 free; from 120: 10 - J2? (J2 ends 100) -> 120.
 */
static void test_conservative_later_submissions(void)
{
    bench_init("conservative", "fcfs", NULL, 10);
    job(0, 0, 4, 100);
    job(1, 10, 8, 20);
    job(2, 20, 6, 80);
    job(3, 30, 6, 80);
    submit(0, 0);
    start_due(0);
    submit(10, 1);
    submit(20, 2);
    start_due(20);
    submit(30, 3);
    EXPECT(0, {'R', 0, 0}, {'R', 1, 100}, {'R', 2, 20}, {'R', 3, 120});
    bench_done();
}

void hsim_test_register(void)
{
    CU_pSuite v = hsim_test_suite("view-and-orders");
    HSIM_TEST(v, test_view_free_now);
    HSIM_TEST(v, test_orders);
    CU_pSuite n = hsim_test_suite("no-backfill");
    HSIM_TEST(n, test_fcfs_blocks);
    HSIM_TEST(n, test_fcfs_estimate_ending_now_is_free);
    HSIM_TEST(n, test_sjf_order_and_ties);
    CU_pSuite e = hsim_test_suite("easy");
    HSIM_TEST(e, test_easy_backfill_rules);
    HSIM_TEST(e, test_easy_ends_before_shadow);
    HSIM_TEST(e, test_easy_pass_after_termination);
    HSIM_TEST(e, test_easy_estimate_ending_now);
    HSIM_TEST(e, test_easy_backfill_order);
    HSIM_TEST(e, test_easy_head_first);
    CU_pSuite c = hsim_test_suite("conservative");
    HSIM_TEST(c, test_conservative);
    HSIM_TEST(c, test_conservative_on_time_end_moves_nothing);
    HSIM_TEST(c, test_conservative_later_submissions);
}
