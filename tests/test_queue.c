/*
 * test_queue.c - the waiting queue (policies/queue.c) beside a brute-force
 * one: random insertions in FCFS and SJF order, removals from anywhere,
 * compactions, and backfill searches, alone and as a pair of queues that
 * hold the same jobs in two orders (EASY with a backfilling order).  After
 * every operation the live entries must be the reference's jobs in order,
 * and every count and slot note must agree with them.
 */
#include "harness.h"

#include "policies/queue.h"
#include "policies/registry.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#define MAX_JOBS 3000

static hsim_vjob_t jobs[MAX_JOBS];

/* The reference: the queued jobs, by job index. */
typedef struct ref {
    int queued[MAX_JOBS];
    int n;
} ref_t;

/* Checks q against the reference; 1 when it agrees, else 0 after saying
   what does not. */
static int agrees(const hsim_queue_t *q, const ref_t *r, const char *what)
{
    size_t live = 0, holes = 0;
    int32_t prev = -1;
    for (size_t i = 0; i < q->n; i++) {
        int32_t j = q->ids[i];
        if (j < 0) {
            holes++;
            if (q->procs[i] != INT32_MAX || q->est[i] != HSIM_TIME_MAX) {
                fprintf(stderr, "\n%s: hole %zu keeps a job's values\n", what, i);
                return 0;
            }
            continue;
        }
        if (i < q->first) {
            fprintf(stderr, "\n%s: job %d in slot %zu before first %zu\n", what, j, i, q->first);
            return 0;
        }
        if (!r->queued[j] || q->procs[i] != jobs[j].procs || q->est[i] != jobs[j].estimate) {
            fprintf(stderr, "\n%s: slot %zu holds job %d wrongly\n", what, i, j);
            return 0;
        }
        if (prev >= 0 && q->order->compare(NULL, jobs, prev, j, 0) >= 0) {
            fprintf(stderr, "\n%s: jobs %d and %d out of order\n", what, prev, j);
            return 0;
        }
        if (q->tracks && q->slot[j] != (int32_t)i) {
            fprintf(stderr, "\n%s: job %d noted at slot %d, is at %zu\n", what, j, q->slot[j], i);
            return 0;
        }
        prev = j;
        live++;
    }
    if (live != (size_t)r->n || holes != q->holes || hsim_queue_size(q) != live) {
        fprintf(stderr, "\n%s: %zu live and %zu holes, expected %d live; size %zu, holes %zu\n",
                what, live, holes, r->n, hsim_queue_size(q), q->holes);
        return 0;
    }
    return 1;
}

/* The first slot >= from whose job has at most free_now processors and
   either at most extra or an estimate of at most max_est; -1 if none. */
static long brute_backfill(const hsim_queue_t *q, size_t from, int32_t free_now,
                           int32_t extra, hsim_time_t max_est)
{
    for (size_t i = from; i < q->n; i++) {
        int32_t j = q->ids[i];
        if (j >= 0 && jobs[j].procs <= free_now &&
            (jobs[j].procs <= extra || jobs[j].estimate <= max_est))
            return (long)i;
    }
    return -1;
}

static int backfill_agrees(hsim_queue_t *q, const gsl_rng *g, const char *what)
{
    for (int t = 0; t < 4; t++) {
        size_t from = q->n ? gsl_rng_uniform_int(g, q->n + 1) : 0;
        int32_t free_now = 1 + (int32_t)gsl_rng_uniform_int(g, 64);
        int32_t extra = (int32_t)gsl_rng_uniform_int(g, (unsigned long)free_now + 1);
        hsim_time_t max_est = (hsim_time_t)gsl_rng_uniform_int(g, 12) * 100 * HSIM_SECOND;
        int rc;
        long got = hsim_queue_find_backfill(q, from, free_now, extra, max_est, &rc);
        long want = brute_backfill(q, from, free_now, extra, max_est);
        if (rc || got != want) {
            fprintf(stderr, "\n%s: backfill from %zu (%d free, %d extra, %lld s) gave %ld, "
                            "expected %ld\n", what, from, free_now, extra,
                    (long long)(max_est / HSIM_SECOND), got, want);
            return 0;
        }
    }
    return 1;
}

/* A random live slot of q, or -1 when it is empty. */
static long random_live(const hsim_queue_t *q, const gsl_rng *g)
{
    if (!hsim_queue_size(q))
        return -1;
    for (;;) {
        size_t i = q->first + gsl_rng_uniform_int(g, q->n - q->first);
        if (q->ids[i] >= 0)
            return (long)i;
    }
}

/* New estimates for a few random jobs, queued or not, in view v (a
   revision of the engine's). */
static void revise(hsim_view_t *v, int32_t *revised, const gsl_rng *g)
{
    size_t n = gsl_rng_uniform(g) < 0.2 ? 1 + gsl_rng_uniform_int(g, 400)
                                        : 1 + gsl_rng_uniform_int(g, 4);
    for (size_t k = 0; k < n; k++) {
        int32_t j = (int32_t)gsl_rng_uniform_int(g, MAX_JOBS);
        jobs[j].estimate = (1 + (hsim_time_t)gsl_rng_uniform_int(g, 12)) * 100 * HSIM_SECOND;
        revised[k] = j;
    }
    v->revision++;
    v->revised = revised;
    v->n_revised = n;
}

/*
 * steps random operations on a queue in order 'a' (and, with b, a second
 * queue in that order paired with it), among them revisions of estimates
 * (hsim_queue_refresh(), now and then after a revision it did not see).  remove_head: how often removals
 * take the first job rather than any (SJF starts from its head, EASY
 * backfills from anywhere).
 */
static void random_run(unsigned long seed, const char *a, const char *b, double remove_head)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, seed);
    for (int j = 0; j < MAX_JOBS; j++) {
        int32_t procs = 1 + (int32_t)gsl_rng_uniform_int(g, 64); /* drawn in turn */
        hsim_time_t est = (1 + (hsim_time_t)gsl_rng_uniform_int(g, 12)) * 100 * HSIM_SECOND;
        jobs[j] = (hsim_vjob_t){.submit = j, .procs = procs, .estimate = est, .user = -1};
    }
    for (int j = 0; j < MAX_JOBS; j++)
        jobs[j].requested = jobs[j].estimate;
    hsim_queue_t qa, qb;
    hsim_queue_init(&qa, hsim_order_find(a), NULL);
    hsim_queue_init(&qb, b ? hsim_order_find(b) : NULL, NULL);
    if (b)
        hsim_queue_pair(&qa, &qb);
    static ref_t r;
    memset(&r, 0, sizeof r);
    static int32_t revised[400];
    hsim_view_t v = {.jobs = jobs};
    int next = 0, ok = 1;
    for (int step = 0; step < 6000 && ok; step++) {
        double u = gsl_rng_uniform(g);
        uint64_t layout = qa.layout;
        if (u < 0.5 && next < MAX_JOBS) {
            int job = next++;
            int32_t last = -1;
            for (size_t i = qa.first; i < qa.n; i++)
                last = qa.ids[i] >= 0 ? qa.ids[i] : last;
            int append = last < 0 || qa.order->compare(NULL, jobs, last, job, 0) < 0;
            CU_ASSERT_EQUAL_FATAL(hsim_queue_insert(&qa, jobs, job, 0), 0);
            if (b)
                CU_ASSERT_EQUAL_FATAL(hsim_queue_insert(&qb, jobs, job, 0), 0);
            r.queued[job] = 1;
            r.n++;
            /* notes by slot are void unless the job went to the end */
            ok &= append || qa.layout != layout;
        } else if (u < 0.53) {
            revise(&v, revised, g);
            if (gsl_rng_uniform(g) < 0.1)
                revise(&v, revised, g); /* the queues miss the first */
            CU_ASSERT_EQUAL_FATAL(hsim_queue_refresh(&qa, &v), 0);
            if (b)
                CU_ASSERT_EQUAL_FATAL(hsim_queue_refresh(&qb, &v), 0);
        } else if (u < 0.95) {
            hsim_queue_t *q = b && gsl_rng_uniform(g) < 0.5 ? &qb : &qa;
            long i = gsl_rng_uniform(g) < remove_head && hsim_queue_size(q) ? (long)q->first
                                                                           : random_live(q, g);
            if (i >= 0) {
                r.queued[q->ids[i]] = 0;
                r.n--;
                hsim_queue_remove_at(q, (size_t)i);
            }
        } else {
            hsim_queue_tidy(gsl_rng_uniform(g) < 0.5 || !b ? &qa : &qb);
        }
        ok = ok && agrees(&qa, &r, a) && (!b || agrees(&qb, &r, b));
        /* not after every step: the trees catch up with several changes
           at their next search */
        if (gsl_rng_uniform(g) < 0.25)
            ok = ok && backfill_agrees(&qa, g, a) && (!b || backfill_agrees(&qb, g, b));
    }
    CU_ASSERT_TRUE(ok);
    hsim_queue_free(&qa);
    hsim_queue_free(&qb);
    gsl_rng_free(g);
}

static void test_fcfs_queue(void)
{
    for (unsigned long seed = 1; seed <= hsim_test_seeds(3); seed++)
        random_run(seed, "fcfs", NULL, 0.5);
}

/* SJF inserts everywhere; removals from the head leave holes only before
   its first job, those from anywhere leave them among its jobs. */
static void test_sjf_queue(void)
{
    for (unsigned long seed = 1; seed <= hsim_test_seeds(3); seed++) {
        random_run(seed, "sjf", NULL, 1.0);
        random_run(seed, "sjf", NULL, 0.3);
    }
}

/* EASY with an SJF backfilling order: a FCFS queue paired with an SJF one,
   removals through either. */
static void test_paired_queues(void)
{
    for (unsigned long seed = 1; seed <= hsim_test_seeds(3); seed++) {
        random_run(seed, "fcfs", "sjf", 0.5);
        random_run(seed, "sjf", "fcfs", 0.2);
    }
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("queue-against-reference");
    HSIM_TEST(s, test_fcfs_queue);
    HSIM_TEST(s, test_sjf_queue);
    HSIM_TEST(s, test_paired_queues);
}
