/*
 * test_trained.c - the trained predictors' parts: the features of a job
 * from its user's history (worked by hand), the gradient-boosted trees
 * (they learn a known function, save and load to the same answers, are
 * the same for the same seed, refuse a corrupt file at its line), the
 * regression (exact on a linear target; an asymmetric cost makes fewer
 * under-estimates), and the predictors built on them (no answer of their
 * own before a model; one after retraining; no model and no retraining
 * is an error).
 */
#include "harness.h"

#include "predictor/gbdt.h"
#include "predictor/predictor.h"
#include "predictor/trained.h"
#include "workloads/workload.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S HSIM_SECOND

static hsim_job_t job_of(int64_t id, int32_t user, int64_t submit_s, int64_t est_s, int32_t procs)
{
    hsim_job_t j;
    hsim_job_init(&j);
    j.id = id;
    j.user = user;
    j.submit = submit_s * S;
    j.estimate = est_s * S;
    j.procs = procs;
    return j;
}

/* ---- features ---- */

static void test_features_by_hand(void)
{
    hsim_history_t *h;
    /* a trace that starts at 1970-01-05 00:00 UTC (a Monday), TimeZone +1 h */
    CU_ASSERT_EQUAL_FATAL(hsim_history_create(4 * 86400, 3600, &h), 0);
    hsim_job_t a = job_of(1, 7, 0, 100, 4), b = job_of(2, 7, 10, 200, 4),
               c = job_of(3, 7, 7200, 100, 4);
    double x[HSIM_FEATURES];
    hsim_history_features(h, &c, x);
    CU_ASSERT_DOUBLE_EQUAL(x[0], log1p(100), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(x[1], log1p(4), 1e-12);
    CU_ASSERT_EQUAL(x[3], 7);
    CU_ASSERT_DOUBLE_EQUAL(x[9], 3.0, 1e-12);  /* 02:00 UTC is 03:00 local */
    CU_ASSERT_DOUBLE_EQUAL(x[10], 1.0, 1e-12); /* Monday */
    CU_ASSERT_EQUAL(x[11], -1);                /* no history yet */
    CU_ASSERT_EQUAL(x[16], 0);
    CU_ASSERT_EQUAL(x[18], x[0]);              /* the baseline: the request */
    CU_ASSERT_EQUAL(x[21], -1);
    CU_ASSERT_EQUAL(hsim_history_started(h, &a), 0);
    CU_ASSERT_EQUAL(hsim_history_started(h, &b), 0);
    hsim_history_features(h, &c, x);
    CU_ASSERT_EQUAL(x[16], 2); /* two running */
    CU_ASSERT_DOUBLE_EQUAL(x[20], log1p(7190), 1e-12); /* since b's submission */
    CU_ASSERT_EQUAL(hsim_history_finished(h, &a, 50 * S), 0);
    CU_ASSERT_EQUAL(hsim_history_finished(h, &b, 150 * S), 0);
    hsim_history_features(h, &c, x);
    CU_ASSERT_EQUAL(x[16], 0);
    CU_ASSERT_DOUBLE_EQUAL(x[11], log1p(150), 1e-12); /* the last, b */
    CU_ASSERT_DOUBLE_EQUAL(x[12], log1p(50), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(x[13], (log1p(150) + log1p(50)) / 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(x[14], 0.75, 1e-12);       /* 150 of 200 */
    CU_ASSERT_DOUBLE_EQUAL(x[15], (0.5 + 0.75) / 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(x[17], log1p(2), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(x[18], (log1p(150) + log1p(50)) / 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(x[19], log1p(150) - log1p(50), 1e-12);
    CU_ASSERT_EQUAL(x[21], 0); /* b asked 200 s, c 100 s */
    /* another user sees none of it */
    hsim_job_t d = job_of(4, 8, 7200, 100, 4);
    hsim_history_features(h, &d, x);
    CU_ASSERT_EQUAL(x[11], -1);
    CU_ASSERT_EQUAL(x[16], 0);
    /* the sequence: padding, then a and b, then c itself */
    double q[HSIM_SEQ_STEPS * HSIM_SEQ_IN];
    hsim_history_sequence(h, &c, q);
    CU_ASSERT_EQUAL(q[0], 0);
    const double *sa = q + (HSIM_SEQ_STEPS - 3) * HSIM_SEQ_IN;
    const double *sb = q + (HSIM_SEQ_STEPS - 2) * HSIM_SEQ_IN;
    const double *sc = q + (HSIM_SEQ_STEPS - 1) * HSIM_SEQ_IN;
    CU_ASSERT_EQUAL(sa[0], 1);
    CU_ASSERT_DOUBLE_EQUAL(sa[1], log1p(50), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(sb[1], log1p(150), 1e-12);
    /* its runtime is what is asked: the step carries the baseline, the
       typical runtime of the user's jobs that asked 100 s (a alone) */
    CU_ASSERT_DOUBLE_EQUAL(sc[1], log1p(50), 1e-12);
    hsim_history_features(h, &c, x);
    CU_ASSERT_DOUBLE_EQUAL(sc[1], x[HSIM_BASELINE], 1e-12);
    CU_ASSERT_EQUAL(sc[7], 1);
    hsim_history_free(h);
}

/* Feature 22, the baseline: the most typical of the user's runtimes of
   jobs that asked for the same time (the one closest to the others by
   min/max, the k-th most recent weighing 0.7^k + 0.05), worked by hand. */
static void test_typical_runtime(void)
{
    hsim_history_t *h;
    CU_ASSERT_EQUAL_FATAL(hsim_history_create(0, 0, &h), 0);
    double x[HSIM_FEATURES];
    hsim_job_t j = job_of(1, 3, 0, 100, 1);
    hsim_history_features(h, &j, x);
    CU_ASSERT_EQUAL(x[22], x[0]); /* no history: the request */
    /* asked 100 s: ran 10, 12, 50; asked 200 s: ran 150 (the last) */
    const int runs[] = {10, 12, 50, 150}, asks[] = {100, 100, 100, 200};
    for (int i = 0; i < 4; i++) {
        hsim_job_t p = job_of(2 + i, 3, 0, asks[i], 1);
        CU_ASSERT_EQUAL(hsim_history_finished(h, &p, runs[i] * S), 0);
    }
    /* among 50, 12, 10 (weights 1.05, 0.75, 0.54): 12 agrees best (1.05 x
       12/50 + 0.75 + 0.54 x 10/12 = 1.452 against 1.338 for 50 and 1.375
       for 10), not the last (50) nor the mean */
    hsim_history_features(h, &j, x);
    CU_ASSERT_DOUBLE_EQUAL(x[22], log1p(12), 1e-12);
    /* asked 300 s, which no job did: among all four, the last, 150 (1.05 +
       0.75 x 50/150 + 0.54 x 12/150 + 0.393 x 10/150 = 1.369 against 1.309
       for 50 and 1.131 for 12) */
    hsim_job_t k = job_of(6, 3, 0, 300, 1);
    hsim_history_features(h, &k, x);
    CU_ASSERT_DOUBLE_EQUAL(x[22], log1p(150), 1e-12);
    /* never above the request: asked 11 s, the typical is 12 */
    hsim_job_t small = job_of(7, 3, 0, 11, 1);
    hsim_history_features(h, &small, x);
    CU_ASSERT_DOUBLE_EQUAL(x[22], log1p(11), 1e-12);
    hsim_history_free(h);
}

/* The user's last jobs lead feature 22 unless a long history agrees on
   another runtime: 10 runs of 50 s then 3 of 10 s (asked 100 s) answer 10
   s (2.34 x 1 + 1.61 x 0.2 against 1.61 + 2.34 x 0.2), 40 runs of 50 s
   then the same 3 answer 50 s (3.14 + 2.34 x 0.2 against 2.34 + 3.14 x
   0.2). */
static void test_typical_recency(void)
{
    for (int older = 10; older <= 40; older += 30) {
        hsim_history_t *h;
        CU_ASSERT_EQUAL_FATAL(hsim_history_create(0, 0, &h), 0);
        for (int i = 0; i < older + 3; i++) {
            hsim_job_t p = job_of(1 + i, 3, 0, 100, 1);
            CU_ASSERT_EQUAL(hsim_history_finished(h, &p, (i < older ? 50 : 10) * S), 0);
        }
        double x[HSIM_FEATURES];
        hsim_job_t asked = job_of(100, 3, 0, 100, 1);
        hsim_history_features(h, &asked, x);
        CU_ASSERT_DOUBLE_EQUAL(x[22], log1p(older == 10 ? 10 : 50), 1e-12);
        hsim_history_free(h);
    }
}

/* Feature 22 against the definition computed the long way (every
   runtime's weighted sum of min/max ratios to the last HSIM_TYPICAL_K):
   1,000 runtimes of one user's jobs asking one time, drawn from a few
   values and some random ones, the answer checked after each. */
static void test_typical_brute_force(void)
{
    enum { RUNS = 1000 };
    static double ran[RUNS];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    hsim_history_t *h;
    CU_ASSERT_EQUAL_FATAL(hsim_history_create(0, 0, &h), 0);
    hsim_job_t asked = job_of(0, 5, 0, 100000, 1);
    int bad = 0;
    for (int i = 0; i < RUNS; i++) {
        static const double common[] = {0, 30, 600, 3000};
        ran[i] = gsl_rng_uniform(r) < 0.5 ? common[gsl_rng_uniform_int(r, 4)]
                                          : floor(1 + gsl_rng_uniform(r) * 5000);
        hsim_job_t p = job_of(1 + i, 5, 0, 100000, 1);
        CU_ASSERT_EQUAL(hsim_history_finished(h, &p, (hsim_time_t)ran[i] * S), 0);
        double x[HSIM_FEATURES];
        hsim_history_features(h, &asked, x);
        int first = i + 1 > HSIM_TYPICAL_K ? i + 1 - HSIM_TYPICAL_K : 0;
        double best = -1, got = -1;
        for (int c = first; c <= i; c++) {
            double sum = 0;
            for (int k = first; k <= i; k++) {
                double lo = fmin(ran[c], ran[k]), hi = fmax(ran[c], ran[k]);
                sum += (pow(HSIM_TYPICAL_RECENCY, i - k) + HSIM_TYPICAL_FLOOR) *
                       (hi > 0 ? lo / hi : 1);
            }
            best = fmax(best, sum);
            if (fabs(log1p(ran[c]) - x[22]) < 1e-12)
                got = fmax(got, sum);
        }
        bad += !(got >= best - 1e-9); /* the answer is one of the runtimes, a best one */
    }
    CU_ASSERT_EQUAL(bad, 0);
    gsl_rng_free(r);
    hsim_history_free(h);
}

/* ---- gradient-boosted trees ---- */

#define N 3000
#define NF 4

static void synthetic(double *X, double *y, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    for (size_t i = 0; i < N; i++) {
        double *x = X + i * NF;
        for (size_t k = 0; k < NF; k++)
            x[k] = gsl_rng_uniform(r) * 10;
        y[i] = (x[0] < 5 ? 2 : 7) + 0.5 * x[1] + (x[2] > 8 ? 3 : 0); /* x[3]: noise input */
    }
    gsl_rng_free(r);
}

static double rmse(const hsim_gbdt_t *m, const double *X, const double *y)
{
    double s = 0;
    for (size_t i = 0; i < N; i++) {
        double d = hsim_gbdt_eval(m, X + i * NF) - y[i];
        s += d * d;
    }
    return sqrt(s / N);
}

static void test_gbdt_learns(void)
{
    double *X = malloc(N * NF * sizeof *X), *y = malloc(N * sizeof *y);
    double *Xt = malloc(N * NF * sizeof *Xt), *yt = malloc(N * sizeof *yt);
    synthetic(X, y, 1);
    synthetic(Xt, yt, 2);
    hsim_gbdt_params_t p = hsim_gbdt_defaults();
    hsim_gbdt_t *m = NULL, *again = NULL;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_gbdt_train(X, y, N, NF, &p, &m, &e), 0);
    double spread = 0, mean = 0;
    for (size_t i = 0; i < N; i++)
        mean += yt[i] / N;
    for (size_t i = 0; i < N; i++)
        spread += (yt[i] - mean) * (yt[i] - mean) / N;
    double err = rmse(m, Xt, yt);
    CU_ASSERT(err < 0.1 * sqrt(spread)); /* held-out samples */
    /* the same seed: the same trees */
    CU_ASSERT_EQUAL_FATAL(hsim_gbdt_train(X, y, N, NF, &p, &again, &e), 0);
    int same = 1;
    for (size_t i = 0; i < N; i++)
        same &= hsim_gbdt_eval(m, Xt + i * NF) == hsim_gbdt_eval(again, Xt + i * NF);
    CU_ASSERT_TRUE(same);
    hsim_gbdt_free(again);
    /* saved and loaded: the same answers, to the bit */
    char *dir = hsim_test_tmpdir("gbdt"), path[512];
    snprintf(path, sizeof path, "%s/m.gbdt", dir);
    CU_ASSERT_EQUAL_FATAL(hsim_gbdt_save(m, path, &e), 0);
    CU_ASSERT_EQUAL_FATAL(hsim_gbdt_load(path, &again, &e), 0);
    same = 1;
    for (size_t i = 0; i < N; i++)
        same &= hsim_gbdt_eval(m, Xt + i * NF) == hsim_gbdt_eval(again, Xt + i * NF);
    CU_ASSERT_TRUE(same);
    hsim_gbdt_free(again);
    /* Welsch's loss: on a target that is one value for 80% of the samples
       and far off for the rest, the trees answer the common value where
       squared error answers near the mean (the answers start from 0: the
       loss is for residuals, near 0) */
    for (size_t i = 0; i < N; i++)
        y[i] = i % 5 ? 0.3 : 10.0;
    hsim_gbdt_t *sq = NULL, *rb = NULL;
    p.robust = 0;
    CU_ASSERT_EQUAL_FATAL(hsim_gbdt_train(X, y, N, NF, &p, &sq, &e), 0);
    p.robust = 0.5;
    CU_ASSERT_EQUAL_FATAL(hsim_gbdt_train(X, y, N, NF, &p, &rb, &e), 0);
    double avg_rb = 0, avg_sq = 0; /* over held-out inputs: nothing to tell them apart */
    for (size_t i = 0; i < N; i++) {
        avg_rb += hsim_gbdt_eval(rb, Xt + i * NF) / N;
        avg_sq += hsim_gbdt_eval(sq, Xt + i * NF) / N;
    }
    CU_ASSERT(fabs(avg_rb - 0.3) < 0.2);
    CU_ASSERT(fabs(avg_sq - (0.8 * 0.3 + 0.2 * 10)) < 0.3);
    /* and weighing an under-estimate 5 times: fewer answers below a noisy
       target */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 9);
    for (size_t i = 0; i < N; i++)
        y[i] = gsl_ran_gaussian_ziggurat(r, 0.3);
    gsl_rng_free(r);
    size_t under[2] = {0, 0};
    for (int w = 0; w < 2; w++) {
        hsim_gbdt_t *m5 = NULL;
        p.robust = 0.5;
        p.under_weight = w ? 5 : 1;
        CU_ASSERT_EQUAL_FATAL(hsim_gbdt_train(X, y, N, NF, &p, &m5, &e), 0);
        for (size_t i = 0; i < N; i++)
            under[w] += hsim_gbdt_eval(m5, X + i * NF) < y[i];
        hsim_gbdt_free(m5);
    }
    if (!(under[1] < under[0] * 3 / 4))
        fprintf(stderr, "\nunder-estimates: %zu at weight 1, %zu at weight 5\n", under[0], under[1]);
    CU_ASSERT(under[1] < under[0] * 3 / 4);
    hsim_gbdt_free(sq);
    hsim_gbdt_free(rb);
    hsim_gbdt_free(m);
    unlink(path);
    rmdir(dir);
    free(dir);
    free(X), free(y), free(Xt), free(yt);
}

static void expect_bad_model(const char *dir, const char *text, const char *line_msg)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bad.gbdt", dir);
    hsim_test_write_file(path, text);
    hsim_gbdt_t *m = NULL;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_gbdt_load(path, &m, &e), HSIM_EINPUT);
    CU_ASSERT_PTR_NULL(m);
    if (!strstr(e.msg, line_msg))
        fprintf(stderr, "\ngot: %s\nwanted: %s\n", e.msg, line_msg);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, line_msg));
    unlink(path);
}

static void test_gbdt_bad_files(void)
{
    char *dir = hsim_test_tmpdir("gbdt-bad");
    expect_bad_model(dir, "hsim-regression 2\n", "bad.gbdt:1: expected 'hsim-gbdt 2'");
    expect_bad_model(dir, "hsim-gbdt 2\nfeatures 0\n", "bad.gbdt:2: expected 'features N'");
    expect_bad_model(dir, "hsim-gbdt 2\nfeatures 2\nbase nan\n", "bad.gbdt:3:");
    expect_bad_model(dir, "hsim-gbdt 2\nfeatures 2\nbase 1\ntrees 1\nnodes 3\n0\nS 0 1 1 2 2\nL 1\n",
                     "bad.gbdt:9: expected a node"); /* cut short */
    /* a child before its parent: a loop */
    expect_bad_model(dir, "hsim-gbdt 2\nfeatures 2\nbase 1\ntrees 1\nnodes 3\n0\nS 0 1 1 2 2\nS 1 1 1 0 0\nL 1\n",
                     "bad.gbdt:8: expected a node");
    expect_bad_model(dir, "hsim-gbdt 2\nfeatures 2\nbase 1\ntrees 1\nnodes 1\n0\nS 5 1 0 0 0\n",
                     "bad.gbdt:7:"); /* feature 5 of 2 */
    /* 100 million nodes in 60 bytes: refused before 2.4 GB are allocated
       (tests/fuzz/regress/model/gbdt-60-bytes-for-2.4-GB.txt) */
    expect_bad_model(dir, "hsim-gbdt 2\nfeatures 1\nbase 0\ntrees 0\nnodes 100000000\n",
                     "bad.gbdt:6: expected 0 tree roots and 100000000 nodes, found a file of");
    hsim_gbdt_t *m = NULL;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_gbdt_load("/nonexistent/m.gbdt", &m, &e), HSIM_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/nonexistent/m.gbdt: cannot open"));
    rmdir(dir);
    free(dir);
}

/* ---- regression ---- */

static void test_regression(void)
{
    const hsim_model_kind_t *k = hsim_model_kind_find("regression");
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    enum { M = 2000 };
    double *X = calloc(M * HSIM_FEATURES, sizeof *X), *y = malloc(M * sizeof *y);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3);
    for (size_t i = 0; i < M; i++) {
        double *x = X + i * HSIM_FEATURES;
        x[0] = gsl_rng_uniform(r) * 10;
        x[1] = gsl_rng_uniform(r) * 5;
        x[11] = gsl_rng_uniform(r) * 8;
        y[i] = 1 + 0.5 * x[0] - 0.3 * x[1] + 0.7 * x[11];
    }
    void *m = NULL;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(k->train(X, y, M, 1, 1, &m, &e), 0);
    double worst = 0;
    for (size_t i = 0; i < M; i++) {
        double d = fabs(k->eval(m, X + i * HSIM_FEATURES) - y[i]);
        worst = d > worst ? d : worst;
    }
    CU_ASSERT(worst < 0.01); /* a linear target, fitted with a small ridge */
    k->free(m);
    /* noise: weighing under-estimates 5 times makes fewer of them */
    for (size_t i = 0; i < M; i++)
        y[i] += gsl_ran_gaussian_ziggurat(r, 1.0);
    size_t under[2] = {0, 0};
    for (int w = 0; w < 2; w++) {
        CU_ASSERT_EQUAL_FATAL(k->train(X, y, M, w ? 5 : 1, 1, &m, &e), 0);
        for (size_t i = 0; i < M; i++)
            under[w] += k->eval(m, X + i * HSIM_FEATURES) < y[i];
        k->free(m);
    }
    CU_ASSERT(under[0] > M / 3 && under[0] < 2 * M / 3);
    /* (weight 5: an expectile near 0.83, some 0.6 sigma up: about 27%) */
    if (!(under[1] < under[0] * 7 / 10))
        fprintf(stderr, "\nunder-estimates: %zu at weight 1, %zu at weight 5\n", under[0], under[1]);
    CU_ASSERT(under[1] < under[0] * 7 / 10);
    gsl_rng_free(r);
    free(X);
    free(y);
}

/* Model kind k refuses the file at path holding text, with a message
   that starts "path:line: " and holds needle. */
static void expect_kind_refuses(const hsim_model_kind_t *k, const char *path, const char *text,
                                int line, const char *needle)
{
    hsim_test_write_file(path, text);
    void *m = NULL;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(k->load(path, &m, &e), HSIM_EINPUT);
    CU_ASSERT_PTR_NULL(m);
    char at[600];
    snprintf(at, sizeof at, "%s:%d: ", path, line);
    CU_ASSERT(hsim_test_message_ok(e.msg, at, needle, NULL, NULL));
}

/* Finite numbers that make an answer infinite are refused: a spread of
   1e-300 (tests/fuzz/regress/model/regression-tiny-spread.txt), a
   coefficient of 1e300. */
static void test_regression_bad_files(void)
{
    const hsim_model_kind_t *k = hsim_model_kind_find("regression");
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    char *dir = hsim_test_tmpdir("regression-bad");
    char path[512], text[2048];
    snprintf(path, sizeof path, "%s/bad.model", dir);
    static const char *const rows[] = {"0 1e-300 1", "0 1 1e300", "1e101 1 1", "0 -1 1"};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        size_t len = (size_t)snprintf(text, sizeof text, "hsim-regression 2\ncolumns 18\n");
        for (int c = 0; c < 18; c++)
            len += (size_t)snprintf(text + len, sizeof text - len, "%s\n",
                                    c == 3 ? rows[r] : "0 1 0.5");
        expect_kind_refuses(k, path, text, 6, "a spread of 0 or from 1e-100");
    }
    /* a spread of 0 (a constant column) and values at the limits load */
    size_t len = (size_t)snprintf(text, sizeof text, "hsim-regression 2\ncolumns 18\n");
    for (int c = 0; c < 18; c++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s\n",
                                c % 2 ? "1e100 0 -1e100" : "-1e100 1e-100 1e100");
    hsim_test_write_file(path, text);
    void *m = NULL;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(k->load(path, &m, &e), 0);
    double x[HSIM_FEATURES];
    for (int i = 0; i < HSIM_FEATURES; i++)
        x[i] = 1e9;
    CU_ASSERT(isfinite(k->eval(m, x)));
    k->free(m);
    unlink(path);
    rmdir(dir);
    free(dir);
}

/* A model file of version 1 (before feature 22 changed meaning), or of a
   version to come, is refused at its first line, with what to do. */
static void test_model_versions(void)
{
    char *dir = hsim_test_tmpdir("model-versions");
    char path[512];
    snprintf(path, sizeof path, "%s/old.model", dir);
    static const struct {
        const char *kind, *text;
    } old[] = {{"gbdt", "hsim-gbdt 1\nfeatures 23\nbase 0\ntrees 0\nnodes 0\n"},
               {"gbdt", "hsim-gbdt 3\n"},
               {"regression", "hsim-regression 1\ncolumns 18\n"},
               {"lstm", "hsim-lstm 1\nn_in 8\nhidden 16\nsteps 6\n"}};
    for (size_t i = 0; i < sizeof old / sizeof old[0]; i++) {
        const hsim_model_kind_t *k = hsim_model_kind_find(old[i].kind);
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        expect_kind_refuses(k, path, old[i].text, 1, "train it again");
    }
    unlink(path);
    rmdir(dir);
    free(dir);
}

/* ---- the predictors ---- */

static void test_predictors_train_as_they_go(void)
{
    for (int g = 0; g < 2; g++) {
        const hsim_predictor_t *p = hsim_predictor_find(g ? "gbdt" : "regression");
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT_TRUE(p->uses_model && !p->revises && p->underpredicts && !p->reads_runtime);
        hsim_err_t e = {{0}};
        void *st = NULL;
        /* neither a model nor training: an error that says what to give */
        hsim_predictor_ctx_t none = {.n_jobs = 10, .unix_start = HSIM_HEADER_ABSENT,
                                     .time_zone = HSIM_HEADER_ABSENT, .model = "", .e = &e};
        CU_ASSERT_EQUAL(p->create(&none, &st), HSIM_EINPUT);
        CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "estimate.model = FILE"));
        hsim_predictor_ctx_t ctx = none;
        ctx.retrain = 40;
        CU_ASSERT_EQUAL_FATAL(p->create(&ctx, &st), 0);
        /* user u's jobs run 100 * (u + 1) s and ask for 10,000 s */
        int before = 1, after = 1;
        for (int i = 0; i < 120; i++) {
            hsim_job_t j = job_of(i + 1, i % 4, i * 10, 10000, 1 + i % 4);
            hsim_time_t guess = p->predict(st, &j, j.submit);
            if (i < 40)
                before &= guess == j.estimate; /* nothing learnt yet */
            else if (i >= 60)
                after &= fabs((double)guess / S - 100.0 * (i % 4 + 1)) < 0.2 * 100 * (i % 4 + 1);
            CU_ASSERT_EQUAL(p->started(st, &j, j.submit), 0);
            CU_ASSERT_EQUAL(p->learn(st, &j, (hsim_time_t)(100 * (i % 4 + 1)) * S, j.submit), 0);
        }
        CU_ASSERT_TRUE(before);
        CU_ASSERT_TRUE(after);
        p->destroy(st);
    }
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("trained");
    HSIM_TEST(s, test_features_by_hand);
    HSIM_TEST(s, test_typical_runtime);
    HSIM_TEST(s, test_typical_recency);
    HSIM_TEST(s, test_typical_brute_force);
    HSIM_TEST(s, test_gbdt_learns);
    HSIM_TEST(s, test_gbdt_bad_files);
    HSIM_TEST(s, test_regression);
    HSIM_TEST(s, test_regression_bad_files);
    HSIM_TEST(s, test_model_versions);
    HSIM_TEST(s, test_predictors_train_as_they_go);
}
