/*
 * test_metrics.c - the radix sort against an insertion sort (stability
 * included), and the summary figures against a computation written out
 * the plain way: every double must be the same to the bit.
 */
#include "harness.h"

#include "sim/metrics.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Sorts n (key, val) pairs with the radix sort and with a stable insertion
   sort; counts the places where they differ. */
static int sort_mismatches(uint64_t *key, double *val, size_t n)
{
    uint64_t *rk = malloc((n + 1) * sizeof *rk), *tk = malloc((n + 1) * sizeof *tk);
    double *rv = malloc((n + 1) * sizeof *rv), *tv = malloc((n + 1) * sizeof *tv);
    memcpy(rk, key, n * sizeof *rk);
    memcpy(rv, val, n * sizeof *rv);
    for (size_t i = 1; i < n; i++) { /* stable: moves past greater keys only */
        uint64_t k = rk[i];
        double v = rv[i];
        size_t j = i;
        for (; j > 0 && rk[j - 1] > k; j--) {
            rk[j] = rk[j - 1];
            rv[j] = rv[j - 1];
        }
        rk[j] = k;
        rv[j] = v;
    }
    CU_ASSERT_EQUAL(hsim_radix_sort(key, val, n, tk, tv), 0);
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += key[i] != rk[i] || memcmp(&val[i], &rv[i], sizeof *val) != 0;
    free(rk);
    free(tk);
    free(rv);
    free(tv);
    return bad;
}

static void test_radix_sort(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 7);
    size_t sizes[] = {0, 1, 2, 17, 3000};
    /* key spreads: all bits, a few values (ties: the order of their vals
       must stay), high digits shared (passes skipped), one value */
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        for (int spread = 0; spread < 4; spread++) {
            size_t n = sizes[s];
            uint64_t *key = malloc((n + 1) * sizeof *key);
            double *val = malloc((n + 1) * sizeof *val);
            for (size_t i = 0; i < n; i++) {
                uint64_t r = (uint64_t)gsl_rng_get(rng) << 32; /* the draws in turn */
                r ^= gsl_rng_get(rng);
                key[i] = spread == 0   ? r
                         : spread == 1 ? r % 5 << 40
                         : spread == 2 ? 0xABCD000000000000ull | (r & 0xFFFFF)
                                       : 42;
                val[i] = (double)i; /* where it came from */
            }
            CU_ASSERT_EQUAL(sort_mismatches(key, val, n), 0);
            free(key);
            free(val);
        }
    }
    /* no vals: keys alone */
    uint64_t key[6] = {UINT64_MAX, 0, 1ull << 63, 5, 1ull << 11, 1ull << 11}, tk[6];
    CU_ASSERT_EQUAL(hsim_radix_sort(key, NULL, 6, tk, NULL), 0);
    uint64_t want[6] = {0, 5, 1ull << 11, 1ull << 11, 1ull << 63, UINT64_MAX};
    CU_ASSERT_EQUAL(memcmp(key, want, sizeof key), 0);
    gsl_rng_free(rng);
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void expect_dist(double *x, size_t n, const hsim_dist_t *d)
{
    qsort(x, n, sizeof *x, by_double);
    hsim_dist_t want = {
        .avg = gsl_stats_mean(x, 1, n),
        .median = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.5),
        .p95 = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.95),
        .max = x[n - 1],
    };
    CU_ASSERT_EQUAL(memcmp(&want, d, sizeof want), 0);
}

/* The figures of random outcomes (ties in every value, users unknown
   too, jobs that never started) against the definitions in metrics.h. */
static void test_summary_bits(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    size_t n = 4000;
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_outcome_t *out = calloc(n, sizeof *out);
    size_t killed = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t procs = 1 + (int32_t)gsl_rng_uniform_int(rng, 64); /* drawn in turn */
        int32_t user = (int32_t)gsl_rng_uniform_int(rng, 40) - 1;
        hsim_job_t j = {.id = (int64_t)i + 1, .line = (int64_t)i + 1, .submit = hsim_seconds((int64_t)i * 7),
                        .procs = procs, .user = user};
        j.estimate = j.runtime = hsim_seconds(1 + (int64_t)gsl_rng_uniform_int(rng, 50));
        CU_ASSERT_EQUAL_FATAL(hsim_workload_add(&w, &j), 0);
        int ran = gsl_rng_uniform(rng) < 0.9;
        hsim_time_t wait = hsim_seconds((int64_t)gsl_rng_uniform_int(rng, 30));
        out[i] = (hsim_outcome_t){.start = ran ? j.submit + wait : -1,
                                  .end = ran ? j.submit + wait + j.runtime : -1,
                                  .fate = !ran ? HSIM_FATE_PENDING
                                          : i % 10 == 3 ? HSIM_FATE_KILLED
                                                        : HSIM_FATE_RAN,
                                  .node = -1};
        killed += out[i].fate == HSIM_FATE_KILLED;
    }
    hsim_summary_t s;
    CU_ASSERT_EQUAL_FATAL(hsim_metrics_compute(&w, out, 64, &s), 0);

    double *wait = malloc(n * sizeof *wait), *tat = malloc(n * sizeof *tat);
    double *bsld = malloc(n * sizeof *bsld);
    double sum_by_user[40] = {0}, count_by_user[40] = {0};
    size_t k = 0;
    for (size_t i = 0; i < w.n_jobs; i++) {
        const hsim_job_t *j = &w.jobs[i];
        if (out[i].start < 0)
            continue;
        wait[k] = (double)(out[i].start - j->submit) / HSIM_SECOND;
        tat[k] = (double)(out[i].end - j->submit) / HSIM_SECOND;
        bsld[k] = hsim_bsld(j->submit, out[i].start, out[i].end);
        sum_by_user[j->user + 1] += bsld[k]; /* in job order, as documented */
        count_by_user[j->user + 1]++;
        k++;
    }
    CU_ASSERT_EQUAL(s.jobs, k);
    CU_ASSERT_EQUAL(s.killed, killed);
    CU_ASSERT_TRUE(k > n / 2 && k < n);
    double sum = 0, sum2 = 0, users = 0;
    for (int u = 0; u < 40; u++) { /* users in increasing id order */
        if (!count_by_user[u])
            continue;
        double avg = sum_by_user[u] / count_by_user[u];
        sum += avg;
        sum2 += avg * avg;
        users++;
    }
    double fairness = sum * sum / (users * sum2);
    CU_ASSERT_EQUAL(memcmp(&fairness, &s.fairness, sizeof fairness), 0);
    CU_ASSERT_TRUE(s.fairness > 0 && s.fairness < 1);
    expect_dist(wait, k, &s.wait);
    expect_dist(tat, k, &s.turnaround);
    expect_dist(bsld, k, &s.bsld);
    CU_ASSERT_TRUE(s.wait.median > 0 && s.wait.max > s.wait.median);
    free(wait);
    free(tat);
    free(bsld);
    free(out);
    hsim_workload_free(&w);
    gsl_rng_free(rng);
}

/*
 * Four jobs on 4 processors, every figure worked out by hand from the
 * definitions in docs/outputs.md (τ = 10 s), so that a definition that
 * changes fails here (test_summary_bits checks the arithmetic against
 * hsim_bsld() itself).  Times in seconds:
 *   J1 user 1, 2 procs: submit 0,  start 0,   end 100  wait 0,  tat 100, bsld 1
 *   J2 user 1, 4 procs: submit 10, start 100, end 102  wait 90, tat 92,
 *      run 2 < τ: bsld 92 / 10 = 9.2
 *   J3 user 2, 1 proc:  submit 20, start 20,  end 25   wait 0,  tat 5,
 *      5 / 10 = 0.5, bounded below: bsld 1
 *   J4 user 2, 1 proc, killed: submit 30, start 100, end 300  wait 70,
 *      tat 270, bsld 270 / 200 = 1.35
 * Percentiles interpolate between order statistics at (n - 1) p: the
 * median at 1.5, the 95th at 2.85.  Makespan 300 - 0; utilization
 * (100 x 2 + 2 x 4 + 5 + 200) / (4 x 300); throughput 4 / 300 s = 48/h;
 * fairness over the users' average bsld 5.1 and 1.175:
 * 6.275^2 / (2 (5.1^2 + 1.175^2)).
 */
static void test_by_hand(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    const struct {
        int64_t submit, start, end;
        int32_t procs, user, fate;
    } x[] = {{0, 0, 100, 2, 1, HSIM_FATE_RAN},
             {10, 100, 102, 4, 1, HSIM_FATE_RAN},
             {20, 20, 25, 1, 2, HSIM_FATE_RAN},
             {30, 100, 300, 1, 2, HSIM_FATE_KILLED}};
    hsim_outcome_t out[4];
    for (int i = 0; i < 4; i++) {
        hsim_job_t j = {.id = i + 1, .line = i + 1, .submit = hsim_seconds(x[i].submit),
                        .procs = x[i].procs, .user = x[i].user,
                        .runtime = hsim_seconds(x[i].end - x[i].start),
                        .estimate = hsim_seconds(300)};
        CU_ASSERT_EQUAL_FATAL(hsim_workload_add(&w, &j), 0);
        out[i] = (hsim_outcome_t){.start = hsim_seconds(x[i].start),
                                  .end = hsim_seconds(x[i].end), .fate = x[i].fate,
                                  .node = -1};
    }
    hsim_summary_t s;
    CU_ASSERT_EQUAL_FATAL(hsim_metrics_compute(&w, out, 4, &s), 0);
    const double eps = 1e-9;
    CU_ASSERT_EQUAL(s.jobs, 4);
    CU_ASSERT_EQUAL(s.killed, 1);
    CU_ASSERT_DOUBLE_EQUAL(s.wait.avg, 40, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.wait.median, 35, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.wait.p95, 87, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.wait.max, 90, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.turnaround.avg, 116.75, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.turnaround.median, 96, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.turnaround.p95, 244.5, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.turnaround.max, 270, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.bsld.avg, 3.1375, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.bsld.median, 1.175, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.bsld.p95, 8.0225, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.bsld.max, 9.2, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.makespan, 300, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.utilization, 413.0 / 1200.0, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.throughput, 48, eps);
    CU_ASSERT_DOUBLE_EQUAL(s.fairness, 6.275 * 6.275 / (2 * (5.1 * 5.1 + 1.175 * 1.175)), eps);
    CU_ASSERT_DOUBLE_EQUAL(s.fairness, 0.718779235596121, 1e-12);
    /* job 1 (2 processors) also ran [0, 100) on an attempt a stop cut
       short, job 4 [50, 60): the utilization counts those runs too, and
       nothing else changes */
    hsim_attempt_t a[2] = {{.job = 0, .start = 0, .end = hsim_seconds(100), .ranges = -1},
                           {.job = 3, .start = hsim_seconds(50), .end = hsim_seconds(60),
                            .ranges = -1}};
    hsim_summary_t t;
    CU_ASSERT_EQUAL_FATAL(hsim_metrics_compute_runs(&w, out, a, 2, 4, &t), 0);
    CU_ASSERT_DOUBLE_EQUAL(t.utilization, (413.0 + 200 + 10) / 1200.0, eps);
    CU_ASSERT_DOUBLE_EQUAL(t.wait.avg, s.wait.avg, 0);
    CU_ASSERT_DOUBLE_EQUAL(t.makespan, s.makespan, 0);
    hsim_workload_free(&w);
}

/* No job ran (one submitted, none started): no figure is defined, every
   one is NaN, the counts are 0; the cluster figures over such a makespan
   are NaN too. */
static void test_no_job_ran(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_job_t j = {.id = 1, .line = 1, .submit = hsim_seconds(5), .procs = 4, .user = 1,
                    .estimate = hsim_seconds(10), .runtime = hsim_seconds(10)};
    CU_ASSERT_EQUAL_FATAL(hsim_workload_add(&w, &j), 0);
    hsim_outcome_t out = {.start = -1, .end = -1, .fate = HSIM_FATE_PENDING, .node = -1};
    hsim_summary_t s;
    CU_ASSERT_EQUAL_FATAL(hsim_metrics_compute(&w, &out, 64, &s), 0);
    CU_ASSERT_EQUAL(s.jobs, 0);
    CU_ASSERT_EQUAL(s.killed, 0);
    const double figures[] = {s.wait.avg, s.wait.median, s.wait.p95, s.wait.max,
                              s.turnaround.avg, s.turnaround.max, s.bsld.avg, s.bsld.p95,
                              s.utilization, s.makespan, s.throughput, s.fairness};
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        CU_ASSERT(isnan(figures[i]));
    hsim_run_stats_t st = {0};
    hsim_cluster_t c = {0};
    hsim_cluster_metrics_t m;
    hsim_cluster_metrics_compute(&st, &c, s.makespan, &m);
    CU_ASSERT(isnan(m.util_cores) && isnan(m.util_all_gpus) && isnan(m.load_imbalance));
    CU_ASSERT(isnan(m.util_gpus[0]));
    hsim_workload_free(&w);
}

/* Every job ran for 0 s and all were submitted at once: the makespan is
   0, and the rates over it (utilization, throughput) are not defined, as
   the cluster figures over it are not; the times are. */
static void test_zero_makespan(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_outcome_t out[2];
    for (int i = 0; i < 2; i++) {
        hsim_job_t j = {.id = i + 1, .line = i + 1, .submit = hsim_seconds(7), .procs = 2,
                        .user = 1, .estimate = hsim_seconds(10), .runtime = 0};
        CU_ASSERT_EQUAL_FATAL(hsim_workload_add(&w, &j), 0);
        out[i] = (hsim_outcome_t){.start = hsim_seconds(7), .end = hsim_seconds(7),
                                  .fate = HSIM_FATE_RAN, .node = -1};
    }
    hsim_summary_t s;
    CU_ASSERT_EQUAL_FATAL(hsim_metrics_compute(&w, out, 64, &s), 0);
    CU_ASSERT_EQUAL(s.jobs, 2);
    CU_ASSERT_DOUBLE_EQUAL(s.makespan, 0, 1e-12);
    CU_ASSERT(isnan(s.utilization));
    CU_ASSERT(isnan(s.throughput));
    CU_ASSERT_DOUBLE_EQUAL(s.wait.avg, 0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.bsld.max, 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.fairness, 1, 1e-12);
    hsim_run_stats_t st = {0};
    hsim_cluster_t c = {0};
    hsim_cluster_metrics_t m;
    hsim_cluster_metrics_compute(&st, &c, s.makespan, &m);
    CU_ASSERT(isnan(m.util_cores) && isnan(m.load_imbalance));
    hsim_workload_free(&w);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("metrics");
    HSIM_TEST(s, test_radix_sort);
    HSIM_TEST(s, test_summary_bits);
    HSIM_TEST(s, test_by_hand);
    HSIM_TEST(s, test_no_job_ran);
    HSIM_TEST(s, test_zero_makespan);
}
