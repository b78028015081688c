/*
 * test_schedulers.c - each scheduler against its brute-force reference
 * (tests/ref/ref.h) on random workloads, job for job: no backfilling
 * against the closed form of FCFS and against its reference, EASY (in
 * queue order, SJF, with an SJF backfilling order, with the oracle and
 * with last2's predictions), conservative (FCFS and SJF, the oracle, long
 * queues, arrays of jobs that wait for one another, times to the
 * microsecond), many jobs running at once, and every job given an
 * outcome.  Conservative runs with HSIM_CHECK set: its availability
 * profile checks its invariants after every change.
 *
 * The long soaks (long queues, microsecond chains) are suites of their
 * own, which CMake runs as separate tests in the slow tier.
 */
#include "sched_test.h"

#include "ref/ref.h"

#include <stdlib.h>
#include <string.h>

#define S HSIM_SECOND

static void test_fcfs_against_formula(void)
{
    for (unsigned long seed = 1; seed <= 8; seed++) {
        hsim_workload_t w;
        int32_t cap = seed % 2 ? 16 : 64;
        hsim_test_random_workload(&w, seed, 300, cap, 1.3);
        hsim_outcome_t *a = malloc(w.n_jobs * sizeof *a), *b = malloc(w.n_jobs * sizeof *b);
        hsim_err_t e = {{0}};
        hsim_run_config_t c = hsim_test_config(cap, "none", "fcfs", NULL, "user");
        CU_ASSERT_EQUAL_FATAL(hsim_test_run(&w, &c, a, &e), 0);
        hsim_test_check_invariants(&w, a, cap, "fcfs");
        hsim_ref_fcfs(&w, cap, b);
        CU_ASSERT_EQUAL(hsim_test_compare_runs(&w, a, b, "fcfs", seed), 0);
        free(a);
        free(b);
        hsim_workload_free(&w);
    }
}

/* hsim against a reference on workloads of n_jobs jobs that 'make' draws,
   offered load 'load' (0: 1.1 and 1.6 in turn), one per seed from first
   to last. */
static void differential_seeds(hsim_test_workload_fn *make, const char *sched,
                               const hsim_scheduler_t *ref, const char *order,
                               const char *bf_order, const char *pred, unsigned long first,
                               unsigned long last, size_t n_jobs, double load)
{
    for (unsigned long seed = first; seed <= last; seed++) {
        hsim_workload_t w;
        int32_t cap = seed % 3 == 0 ? 8 : seed % 3 == 1 ? 32 : 100;
        make(&w, 1000 + seed, n_jobs, cap, load > 0 ? load : seed % 2 ? 1.1 : 1.6);
        hsim_outcome_t *a = malloc(w.n_jobs * sizeof *a), *b = malloc(w.n_jobs * sizeof *b);
        hsim_err_t e = {{0}};
        hsim_run_config_t c = hsim_test_config(cap, sched, order, bf_order, pred);
        hsim_run_stats_t st = {0};
        for (size_t i = 0; i < w.n_jobs; i++)
            a[i] = (hsim_outcome_t){.start = -7, .end = -7, .fate = 99};
        setenv("HSIM_CHECK", "1", 1); /* conservative checks its profile as it goes */
        int rc = hsim_engine_run(&w, &c, a, &st, &e);
        unsetenv("HSIM_CHECK");
        if (rc)
            fprintf(stderr, "\n%s seed %lu: %s\n", sched, seed, e.msg);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        hsim_test_check_invariants(&w, a, cap, sched);
        /* the workload exercises the scheduler: a queue builds up, and
           some job starts before one submitted earlier */
        CU_ASSERT_TRUE(st.max_waiting >= 10);
        size_t overtaken = 0;
        for (size_t i = 1; i < w.n_jobs; i++)
            overtaken += a[i].start < a[i - 1].start;
        CU_ASSERT_TRUE(overtaken > 0);
        c.scheduler = ref;
        rc = hsim_test_run(&w, &c, b, &e);
        if (rc)
            fprintf(stderr, "\nreference seed %lu: %s\n", seed, e.msg);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        char what[64];
        snprintf(what, sizeof what, "%s/%s%s%s/%s", sched, order, bf_order ? "+" : "",
                 bf_order ? bf_order : "", pred);
        CU_ASSERT_EQUAL(hsim_test_compare_runs(&w, a, b, what, seed), 0);
        free(a);
        free(b);
        hsim_workload_free(&w);
    }
}

/* The same for seeds 1 to 'seeds' (times HSIM_TEST_SEEDS: hsim_test_seeds()). */
static void differential_with(hsim_test_workload_fn *make, const char *sched,
                              const hsim_scheduler_t *ref, const char *order,
                              const char *bf_order, const char *pred, unsigned long seeds,
                              size_t n_jobs, double load)
{
    differential_seeds(make, sched, ref, order, bf_order, pred, 1, hsim_test_seeds(seeds),
                       n_jobs, load);
}

static void differential_sized(const char *sched, const hsim_scheduler_t *ref,
                               const char *order, const char *bf_order, const char *pred,
                               unsigned long seeds, size_t n_jobs, double load)
{
    differential_with(hsim_test_random_workload, sched, ref, order, bf_order, pred, seeds,
                      n_jobs, load);
}

static void differential(const char *sched, const hsim_scheduler_t *ref, const char *order,
                         const char *bf_order, const char *pred, unsigned long seeds)
{
    differential_sized(sched, ref, order, bf_order, pred, seeds, 400, 0);
}

static void test_easy_against_reference(void)
{
    differential("easy", &hsim_ref_easy, "fcfs", NULL, "user", 12);
}

static void test_easy_sjf_against_reference(void)
{
    differential("easy", &hsim_ref_easy, "sjf", NULL, "user", 6);
}

static void test_easy_sjbf_against_reference(void)
{
    differential("easy", &hsim_ref_easy, "fcfs", "sjf", "user", 6);
}

static void test_easy_oracle_against_reference(void)
{
    differential("easy", &hsim_ref_easy, "fcfs", NULL, "oracle", 6);
}

/* Predictions that change as users' jobs end, and expire (EASY++ and its
   variants): the schedulers keep copies of the waiting jobs' estimates
   that must follow; the references read them afresh at every pass, and
   keep the running jobs in est_end order where 'none' does not. */
static void test_last2_against_reference(void)
{
    differential("easy", &hsim_ref_easy, "fcfs", "sjf", "last2", 8);
    differential("easy", &hsim_ref_easy, "fcfs", NULL, "last2", 4);
    differential("easy", &hsim_ref_easy, "sjf", NULL, "last2", 4);
    differential("none", &hsim_ref_none, "sjf", NULL, "last2", 4);
}

static void test_conservative_against_reference(void)
{
    differential("conservative", &hsim_ref_conservative, "fcfs", NULL, "user", 12);
}

static void test_conservative_sjf_against_reference(void)
{
    differential("conservative", &hsim_ref_conservative, "sjf", NULL, "user", 6);
}

static void test_conservative_oracle_against_reference(void)
{
    differential("conservative", &hsim_ref_conservative, "fcfs", NULL, "oracle", 4);
}

/* Longer queues (150 to 270 jobs wait at the most): a termination sets
   off long chains of moves, as on the big traces, and a mistake in what a
   pass keeps between its moves can show up here that the 400-job
   workloads miss.  (Suites of their own: see the file's comment.) */
static void test_conservative_long_queues_fcfs(void)
{
    differential_sized("conservative", &hsim_ref_conservative, "fcfs", NULL, "user", 4, 1000,
                       1.6);
}

static void test_conservative_long_queues_sjf(void)
{
    differential_sized("conservative", &hsim_ref_conservative, "sjf", NULL, "user", 4, 1000,
                       1.6);
}

/* Arrays of jobs that wait for one another: after an early end, chains of
   them move up one place each, jobs of one array at one start move
   together (batch_t in backfill_conservative.c), and runs of jobs that
   cannot move are passed over. */
static void test_conservative_chains(void)
{
    differential_with(hsim_test_chain_workload, "conservative", &hsim_ref_conservative, "fcfs",
                      NULL, "user", 6, 400, 1.6);
}

/* The same with times to the microsecond (hsim_test_chain_workload_us()):
   60 seeds (times HSIM_TEST_SEEDS), in four quarters, each a suite of its
   own. */
static void microsecond_chains(unsigned long quarter)
{
    unsigned long all = hsim_test_seeds(60);
    differential_seeds(hsim_test_chain_workload_us, "conservative", &hsim_ref_conservative,
                       "fcfs", NULL, "user", all * quarter / 4 + 1, all * (quarter + 1) / 4,
                       400, 1.6);
}

static void test_microsecond_chains_1(void) { microsecond_chains(0); }
static void test_microsecond_chains_2(void) { microsecond_chains(1); }
static void test_microsecond_chains_3(void) { microsecond_chains(2); }
static void test_microsecond_chains_4(void) { microsecond_chains(3); }

/* Random workloads to the microsecond, under conservative, EASY-SJBF and
   EASY with last2's predictions. */
static void test_microseconds_against_reference(void)
{
    differential_with(hsim_test_random_workload_us, "conservative", &hsim_ref_conservative,
                      "sjf", NULL, "user", 6, 400, 0);
    differential_with(hsim_test_random_workload_us, "easy", &hsim_ref_easy, "fcfs", "sjf",
                      "user", 6, 400, 0);
    differential_with(hsim_test_random_workload_us, "easy", &hsim_ref_easy, "fcfs", NULL,
                      "last2", 4, 400, 0);
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
        hsim_test_random_workload(&w, 500 + seed, 3000, 4, 1.3 * 128); /* 1.3 on 512 */
        hsim_outcome_t *a = malloc(w.n_jobs * sizeof *a), *b = malloc(w.n_jobs * sizeof *b);
        for (int k = 0; k < 2; k++) {
            hsim_err_t e = {{0}};
            hsim_run_config_t c = hsim_test_config(512, "easy", "fcfs", bf_orders[k], "user");
            CU_ASSERT_EQUAL_FATAL(hsim_engine_run(&w, &c, a, NULL, &e), 0);
            hsim_test_check_invariants(&w, a, 512, "easy");
            c.scheduler = &hsim_ref_easy;
            CU_ASSERT_EQUAL_FATAL(hsim_test_run(&w, &c, b, &e), 0);
            const char *what = k ? "easy/fcfs+sjf, 512" : "easy/fcfs, 512";
            CU_ASSERT_EQUAL(hsim_test_compare_runs(&w, a, b, what, seed), 0);
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
        hsim_test_random_workload(&w, 77 + seed, 500, 48, 2.0);
        hsim_outcome_t *a = malloc(w.n_jobs * sizeof *a);
        for (int s = 0; s < 3; s++)
            for (int o = 0; o < 2; o++) {
                hsim_err_t e = {{0}};
                hsim_run_config_t c = hsim_test_config(48, scheds[s], orders[o], NULL, "user");
                hsim_run_stats_t st = {0};
                for (size_t i = 0; i < w.n_jobs; i++)
                    a[i] = (hsim_outcome_t){.start = -7, .end = -7, .fate = 99};
                int rc = hsim_engine_run(&w, &c, a, &st, &e);
                if (rc)
                    fprintf(stderr, "\n%s/%s: %s\n", scheds[s], orders[o], e.msg);
                CU_ASSERT_EQUAL(rc, 0);
                if (rc)
                    continue;
                hsim_test_check_invariants(&w, a, 48, scheds[s]);
                /* one submission and one termination per job at least */
                CU_ASSERT_TRUE(st.events >= 2 * w.n_jobs);
                CU_ASSERT_TRUE(st.passes >= 2 * w.n_jobs);
                CU_ASSERT_TRUE(st.max_waiting >= 1);
            }
        free(a);
        hsim_workload_free(&w);
    }
}

void hsim_test_register(void)
{
    CU_pSuite d = hsim_test_suite("differential");
    HSIM_TEST(d, test_fcfs_against_formula);
    HSIM_TEST(d, test_easy_against_reference);
    HSIM_TEST(d, test_easy_sjf_against_reference);
    HSIM_TEST(d, test_easy_sjbf_against_reference);
    HSIM_TEST(d, test_easy_oracle_against_reference);
    HSIM_TEST(d, test_last2_against_reference);
    HSIM_TEST(d, test_conservative_against_reference);
    HSIM_TEST(d, test_conservative_sjf_against_reference);
    HSIM_TEST(d, test_conservative_oracle_against_reference);
    HSIM_TEST(d, test_conservative_chains);
    HSIM_TEST(d, test_microseconds_against_reference);
    HSIM_TEST(d, test_easy_many_running);
    HSIM_TEST(d, test_every_job_has_an_outcome);
    /* the long soaks: each suite a CTest test of its own, in the slow tier */
    CU_pSuite q = hsim_test_suite("long-queues-fcfs");
    HSIM_TEST(q, test_conservative_long_queues_fcfs);
    q = hsim_test_suite("long-queues-sjf");
    HSIM_TEST(q, test_conservative_long_queues_sjf);
    CU_pSuite u = hsim_test_suite("microsecond-chains-1");
    HSIM_TEST(u, test_microsecond_chains_1);
    u = hsim_test_suite("microsecond-chains-2");
    HSIM_TEST(u, test_microsecond_chains_2);
    u = hsim_test_suite("microsecond-chains-3");
    HSIM_TEST(u, test_microsecond_chains_3);
    u = hsim_test_suite("microsecond-chains-4");
    HSIM_TEST(u, test_microsecond_chains_4);
}
