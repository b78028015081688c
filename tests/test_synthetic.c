/*
 * test_synthetic.c - the synthetic workload generators and the writers.
 *
 * Distribution tests draw 20,000 jobs (50,000 where a heavy tail needs it)
 * from a fixed seed and compare sample statistics with values the test
 * computes itself from the published models, within tolerances of about four
 * standard errors (stated at each check), so they pass for almost every
 * seed, not only the one fixed here.  Then: same seed, same jobs (field by
 * field); another seed, other jobs; each bad parameter named in its error;
 * allocation failures; SWF write -> read -> clean (standard) gives the same
 * jobs; the CSV's header and rows.
 */
#include "harness.h"

#include "workloads/swf.h"
#include "workloads/synth_internal.h"
#include "workloads/synthetic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S HSIM_SECOND
#define N_DIST 20000

static double secs(hsim_time_t t) { return (double)t / S; }

/* Index of the first job whose fields differ, or -1 when all are equal. */
static long first_difference(const hsim_workload_t *a, const hsim_workload_t *b)
{
    if (a->n_jobs != b->n_jobs)
        return 0;
    for (size_t i = 0; i < a->n_jobs; i++) {
        const hsim_job_t *x = &a->jobs[i], *y = &b->jobs[i];
        if (x->id != y->id || x->line != y->line || x->submit != y->submit ||
            x->runtime != y->runtime || x->estimate != y->estimate ||
            x->procs != y->procs || x->user != y->user || x->group != y->group ||
            x->app != y->app || x->queue != y->queue || x->partition != y->partition ||
            x->after != y->after || x->think != y->think ||
            x->killed_at_estimate != y->killed_at_estimate || x->nodes != y->nodes ||
            x->cores_per_node != y->cores_per_node || x->mem_mb != y->mem_mb ||
            x->gpus != y->gpus || x->gpu_milli != y->gpu_milli ||
            x->gpu_models != y->gpu_models || x->fpgas != y->fpgas ||
            x->job_class != y->job_class)
            return (long)i;
    }
    return -1;
}

/* Jobs numbered 1..n in order, sorted by submission, times whole seconds. */
static void check_basic(const hsim_workload_t *w, size_t n)
{
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, n);
    CU_ASSERT_EQUAL(w->n_input, n);
    CU_ASSERT_EQUAL(w->n_rejected, 0);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        const hsim_job_t *j = &w->jobs[i];
        bad += j->id != (int64_t)i + 1 || j->line != j->id;
        bad += i > 0 && j->submit < w->jobs[i - 1].submit;
        bad += j->submit < 0 || j->submit % S || j->runtime % S || j->estimate % S;
        bad += j->runtime < S || j->estimate < j->runtime || j->procs < 1;
    }
    CU_ASSERT_EQUAL(bad, 0);
}

static int contains(const char *hay, const char *needle) { return strstr(hay, needle) != NULL; }

/* ------------------------------------------------------------- lublin */

/* P(X < x) for the two-stage uniform on [lo, med] (prob) and [med, hi]. */
static double tsu_cdf(double x, double lo, double med, double hi, double prob)
{
    double a = x <= lo ? 0 : x >= med ? 1 : (x - lo) / (med - lo);
    double b = x <= med ? 0 : x >= hi ? 1 : (x - med) / (hi - med);
    return prob * a + (1 - prob) * b;
}

static void test_lublin_sizes(void)
{
    hsim_lublin_params_t p;
    hsim_lublin_defaults(&p);
    p.n_jobs = N_DIST;
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_gen_lublin(&p, 11, &w, &e), 0);
    check_basic(&w, N_DIST);
    CU_ASSERT_EQUAL(w.header.max_procs, 128);
    CU_ASSERT_TRUE(contains(w.header.note, "hsim_gen_lublin") && contains(w.header.note, "seed 11"));

    size_t serial = 0, parallel = 0, pow2 = 0, big = 0;
    double ln_serial = 0, ln_big = 0;
    for (size_t i = 0; i < w.n_jobs; i++) {
        const hsim_job_t *j = &w.jobs[i];
        CU_ASSERT_TRUE(j->procs >= 1 && j->procs <= 128);
        CU_ASSERT_TRUE(secs(j->runtime) <= exp(12));
        double ln_rt = log(secs(j->runtime) + 0.5); /* undoes floor(exp(x)) */
        if (j->procs == 1) {
            serial++;
            ln_serial += ln_rt;
        } else {
            parallel++;
            pow2 += (j->procs & (j->procs - 1)) == 0;
        }
        if (j->procs >= 32) {
            big++;
            ln_big += ln_rt;
        }
    }
    /* serial share 0.2927 (SERIAL_PROB_BATCH); s.e. 0.0032 */
    double f_serial = (double)serial / N_DIST;
    CU_ASSERT_DOUBLE_EQUAL(f_serial, 0.2927, 0.015);
    /* power-of-two sizes among parallel jobs: the pow2 share (0.6686) plus
       the other parallel jobs (0.0387) whose round(2^x) lands on one; s.e.
       0.0017 */
    double lo = 1.2, hi = 7, med = 5, q = 0.875, hit = 0;
    for (int k = 1; k <= 7; k++)
        hit += tsu_cdf(log2(exp2(k) + 0.5), lo, med, hi, q) -
               tsu_cdf(log2(exp2(k) - 0.5), lo, med, hi, q);
    double expect = (0.6686 + (1 - 0.2927 - 0.6686) * hit) / (1 - 0.2927);
    CU_ASSERT_DOUBLE_EQUAL((double)pow2 / parallel, expect, 0.01);
    /* ln(runtime) of serial jobs: hyper-gamma mean p a1 b1 + (1-p) a2 b2 with
       p = 0.6986 - 0.003 (truncation at 12 moves it by < 0.01); sd 2.75 over
       about 5,850 jobs: s.e. 0.036 */
    double p1 = 0.6986 - 0.003;
    CU_ASSERT_DOUBLE_EQUAL(ln_serial / serial, p1 * 6.57 * 0.823 + (1 - p1) * 639.1 * 0.0156,
                           0.15);
    /* pa < 0: larger jobs run longer */
    CU_ASSERT_TRUE(big > 500 && ln_big / big > ln_serial / serial + 0.2);
    hsim_workload_free(&w);
}

/* Arrivals per hour of the day, for a day that starts at start_hour. */
static void hourly(const hsim_workload_t *w, int start_hour, double per_hour[24])
{
    memset(per_hour, 0, 24 * sizeof *per_hour);
    for (size_t i = 0; i < w->n_jobs; i++)
        per_hour[(w->jobs[i].submit / S / 3600 + start_hour) % 24] += 1;
}

static double rate(const double per_hour[24], int from, int to)
{
    double n = 0;
    for (int h = from; h < to; h++)
        n += per_hour[h];
    return n / (to - from);
}

static void test_lublin_daily_cycle(void)
{
    hsim_lublin_params_t p;
    hsim_lublin_defaults(&p);
    p.n_jobs = N_DIST;
    hsim_err_t e = {{0}};
    double per_hour[24];
    for (int start = 0; start <= 12; start += 12) {
        p.start_hour = start;
        hsim_workload_t w;
        hsim_workload_init(&w);
        CU_ASSERT_EQUAL_FATAL(hsim_gen_lublin(&p, 5, &w, &e), 0);
        hourly(&w, start, per_hour);
        /* the profile peaks about 13:00 and bottoms about 5:00: the
           working day gets well over twice the night's rate */
        double day = rate(per_hour, 8, 18), night = rate(per_hour, 0, 6);
        if (!(day > 2 * night))
            fprintf(stderr, "\nstart %d: %.0f jobs/h 8-18, %.0f jobs/h 0-6\n", start, day, night);
        CU_ASSERT_TRUE(day > 2 * night);
        hsim_workload_free(&w);
    }
}

static void test_lublin_load(void)
{
    hsim_lublin_params_t p;
    hsim_lublin_defaults(&p);
    p.n_jobs = 50000;
    p.load = 0.7;
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_gen_lublin(&p, 3, &w, &e), 0);
    double work = 0;
    for (size_t i = 0; i < w.n_jobs; i++)
        work += w.jobs[i].procs * secs(w.jobs[i].runtime);
    /* processor-seconds over capacity x span; heavy tails (runtimes to 45 h,
       gaps to 5 days): sd 0.019 over 200 seeds at 50,000 jobs */
    double load = work / (128 * secs(w.jobs[w.n_jobs - 1].submit));
    CU_ASSERT_DOUBLE_EQUAL(load, 0.7, 0.08);
    hsim_workload_free(&w);

    /* a machine that is not a power of two: power-of-two sizes stop at 64 */
    hsim_lublin_defaults(&p);
    p.n_jobs = N_DIST;
    p.machine_procs = 100;
    hsim_workload_init(&w);
    CU_ASSERT_EQUAL_FATAL(hsim_gen_lublin(&p, 3, &w, &e), 0);
    int32_t largest = 0, largest_pow2 = 0;
    for (size_t i = 0; i < w.n_jobs; i++) {
        int32_t n = w.jobs[i].procs;
        largest = n > largest ? n : largest;
        if ((n & (n - 1)) == 0 && n > largest_pow2)
            largest_pow2 = n;
    }
    CU_ASSERT_TRUE(largest <= 100 && largest > 64);
    CU_ASSERT_EQUAL(largest_pow2, 64);
    hsim_workload_free(&w);
}

/* Differential: the closed-form E[size x runtime] that sets the load against
   the sample mean of the samplers themselves, on a power-of-two machine and
   on others (where the size rounding and the power-of-two cap matter). */
static void test_lublin_mean_work(void)
{
    static const int32_t machines[] = {128, 100, 37};
    hsim_lublin_model_t m;
    hsim_lublin_model_defaults(&m);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    for (size_t k = 0; k < 3; k++) {
        hsim__lublin_t s;
        hsim_err_t e = {{0}};
        CU_ASSERT_EQUAL_FATAL(hsim__lublin_prepare(&s, &m, machines[k], "machine_procs",
                                                   "lublin", "model.", &e), 0);
        gsl_rng_set(r, 1000 + k);
        const long n = 400000;
        double sum = 0, sum2 = 0;
        for (long i = 0; i < n; i++) {
            int32_t size = hsim__lublin_size(&s, r);
            double v = size * (double)hsim__lublin_runtime(&s, r, size);
            sum += v;
            sum2 += v * v;
        }
        double mean = sum / n, se = sqrt((sum2 / n - mean * mean) / n);
        double closed = hsim__lublin_mean_work(&s);
        if (fabs(mean - closed) > 4 * se)
            fprintf(stderr, "\nmachine %d: closed form %.1f, sample %.1f (s.e. %.1f)\n",
                    machines[k], closed, mean, se);
        CU_ASSERT_TRUE(fabs(mean - closed) <= 4 * se);
    }
    gsl_rng_free(r);
}

static void test_estimate_rules(void)
{
    static const int64_t popular[] = {
        60, 120, 300, 600, 900, 1200, 1800, 2700, 3600, 5400, 7200, 10800, 14400,
        18000, 21600, 28800, 36000, 43200, 57600, 64800, 86400, 129600, 172800, 259200,
    };
    hsim_lublin_params_t p;
    hsim_lublin_defaults(&p);
    p.n_jobs = 2000;
    p.estimate.factor = 1.5;
    hsim_err_t e = {{0}};
    for (int round = 0; round <= 1; round++) {
        p.estimate.round_up = round;
        hsim_workload_t w;
        hsim_workload_init(&w);
        CU_ASSERT_EQUAL_FATAL(hsim_gen_lublin(&p, 9, &w, &e), 0);
        int bad = 0;
        for (size_t i = 0; i < w.n_jobs; i++) {
            int64_t run = w.jobs[i].runtime / S, est = w.jobs[i].estimate / S;
            int64_t want = (int64_t)ceil(1.5 * (double)run);
            if (!round) {
                bad += est != want;
                continue;
            }
            int listed = est % 86400 == 0;
            for (size_t k = 0; k < sizeof popular / sizeof popular[0]; k++)
                listed |= est == popular[k];
            bad += !listed || est < want;
        }
        CU_ASSERT_EQUAL(bad, 0);
        hsim_workload_free(&w);
    }
    /* ceil(runtime x factor) of the decimal factor, not of its binary
       neighbour: 200 x 1.1 is 220.00000000000003 in doubles (221 was
       written); a fraction still rounds up */
    static const struct {
        double factor;
        int64_t run, est;
    } exact[] = {{1.1, 200, 220}, {1.1, 210, 231}, {1.1, 740, 814}, {1.1, 1, 2},
                 {1.5, 3, 5},     {1.37, 100, 137}, {2.3, 7, 17},   {1000, 86400, 86400000},
                 {1.000000001, 35, 36}, {1.000000001, 37667, 37668}, {1.1, 999999999, 1099999999}};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        CU_ASSERT_EQUAL(hsim__synth_estimate(&(hsim_estimate_rule_t){exact[i].factor, 0},
                                             exact[i].run),
                        exact[i].est);
}

/* ----------------------------------------------------------------- dl */

static void test_dl_distributions(void)
{
    hsim_dl_params_t p;
    hsim_dl_defaults(&p);
    p.n_jobs = N_DIST;
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_gen_dl(&p, 21, &w, &e), 0);
    check_basic(&w, N_DIST);
    CU_ASSERT_EQUAL(w.header.max_procs, 64);

    size_t by_gpus[9] = {0}, n_long = 0, by_class[HSIM_MAX_CLASSES] = {0};
    double log_short = 0, log_long = 0, sum_gap = 0, sum_gap2 = 0, gpu_s = 0;
    int bad = 0;
    for (size_t i = 0; i < w.n_jobs; i++) {
        const hsim_job_t *j = &w.jobs[i];
        bad += j->gpus < 1 || j->gpus > 8 || j->procs != j->gpus || j->gpu_milli != 1000;
        bad += j->estimate != j->runtime || j->job_class < 0 || j->job_class >= 7;
        if (bad)
            continue;
        by_gpus[j->gpus]++;
        by_class[j->job_class]++;
        double d = secs(j->runtime);
        gpu_s += d * j->gpus;
        if (d >= 60000) { /* 60 x 10^3 s splits the two branches */
            n_long++;
            log_long += log10(d / 60);
        } else {
            log_short += log10(d / 60);
        }
        double gap = secs(j->submit - (i ? w.jobs[i - 1].submit : 0));
        sum_gap += gap;
        sum_gap2 += gap * gap;
    }
    CU_ASSERT_EQUAL_FATAL(bad, 0);
    /* GPU counts: s.e. at most 0.0032 */
    CU_ASSERT_DOUBLE_EQUAL(by_gpus[1] / (double)N_DIST, 0.70, 0.02);
    CU_ASSERT_DOUBLE_EQUAL(by_gpus[2] / (double)N_DIST, 0.10, 0.02);
    CU_ASSERT_DOUBLE_EQUAL(by_gpus[4] / (double)N_DIST, 0.15, 0.02);
    CU_ASSERT_DOUBLE_EQUAL(by_gpus[8] / (double)N_DIST, 0.05, 0.02);
    CU_ASSERT_EQUAL(by_gpus[3] + by_gpus[5] + by_gpus[6] + by_gpus[7], 0);
    /* long jobs 0.2 (s.e. 0.0028); log10(minutes) uniform on [1.5, 3] and
       [3, 4]: means 2.25 and 3.5, s.e. 0.004 and 0.005 */
    CU_ASSERT_DOUBLE_EQUAL(n_long / (double)N_DIST, 0.2, 0.02);
    CU_ASSERT_DOUBLE_EQUAL(log_short / (N_DIST - n_long), 2.25, 0.05);
    CU_ASSERT_DOUBLE_EQUAL(log_long / n_long, 3.5, 0.05);
    /* Poisson arrivals at lambda = load x G / (E[gpus] E[duration]) */
    double mean_d = 60 * (0.8 * (pow(10, 3) - pow(10, 1.5)) / (1.5 * log(10)) +
                          0.2 * (pow(10, 4) - pow(10, 3)) / log(10));
    double inv_lambda = 1.9 * mean_d / (0.8 * 64);
    double mean_gap = sum_gap / N_DIST;
    double cv = sqrt(sum_gap2 / N_DIST - mean_gap * mean_gap) / mean_gap;
    CU_ASSERT_DOUBLE_EQUAL(mean_gap / inv_lambda, 1, 0.03); /* s.e. 0.007 */
    CU_ASSERT_DOUBLE_EQUAL(cv, 1, 0.05);                    /* s.e. about 0.01 */
    /* offered GPU load (s.e. about 2%) */
    CU_ASSERT_DOUBLE_EQUAL(gpu_s / (64 * secs(w.jobs[w.n_jobs - 1].submit)), 0.8, 0.08);
    /* Gavel's seven job types, uniformly (s.e. 0.0025) */
    CU_ASSERT_EQUAL(w.n_classes, 7);
    CU_ASSERT_STRING_EQUAL(w.classes[0], "ResNet-18");
    CU_ASSERT_STRING_EQUAL(w.classes[6], "CycleGAN");
    for (int k = 0; k < 7; k++)
        CU_ASSERT_DOUBLE_EQUAL(by_class[k] / (double)N_DIST, 1 / 7.0, 0.02);
    hsim_workload_free(&w);
}

static void test_dl_custom(void)
{
    static const char *const names[] = {"bert", "gpt"};
    hsim_dl_params_t p;
    hsim_dl_defaults(&p);
    p.n_jobs = 1000;
    p.classes = names;
    p.n_classes = 2;
    p.n_users = 10;
    p.model.cpus_per_gpu = 4;
    p.model.n_sizes = 2;
    p.model.gpu_sizes[0] = 1;
    p.model.gpu_sizes[1] = 2;
    p.model.gpu_probs[0] = p.model.gpu_probs[1] = 0.5;
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_gen_dl(&p, 2, &w, &e), 0);
    CU_ASSERT_EQUAL(w.n_classes, 2);
    CU_ASSERT_STRING_EQUAL(w.classes[1], "gpt");
    CU_ASSERT_EQUAL(w.header.max_procs, 256);
    int bad = 0;
    for (size_t i = 0; i < w.n_jobs; i++) {
        const hsim_job_t *j = &w.jobs[i];
        bad += j->procs != 4 * j->gpus || j->gpus > 2 || j->user < 1 || j->user > 10;
    }
    CU_ASSERT_EQUAL(bad, 0);
    hsim_workload_free(&w);
}

/* ---------------------------------------------------------------- mix */

static void test_mix(void)
{
    hsim_mix_params_t p;
    hsim_mix_defaults(&p);
    p.n_jobs = N_DIST;
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_gen_mix(&p, 8, &w, &e), 0);
    check_basic(&w, N_DIST);
    CU_ASSERT_EQUAL(w.n_classes, 3);
    CU_ASSERT_STRING_EQUAL(w.classes[0], "scientific");
    CU_ASSERT_STRING_EQUAL(w.classes[1], "deep-learning");
    CU_ASSERT_STRING_EQUAL(w.classes[2], "big-data");
    CU_ASSERT_EQUAL(w.header.max_procs, 1024);

    size_t n[3] = {0}, sci_serial = 0;
    double core_s = 0, gpu_s = 0;
    int bad = 0;
    for (size_t i = 0; i < w.n_jobs; i++) {
        const hsim_job_t *j = &w.jobs[i];
        core_s += j->procs * secs(j->runtime);
        gpu_s += j->gpus * secs(j->runtime);
        switch (j->job_class) {
        case 0:
            bad += j->gpus != 0 || j->mem_mb != 0 || j->procs > 1024;
            sci_serial += j->procs == 1;
            break;
        case 1:
            bad += j->gpus < 1 || j->gpus > 8 || j->procs != j->gpus || j->gpu_milli != 1000;
            bad += j->estimate != j->runtime;
            break;
        case 2:
            bad += j->gpus != 0 || j->procs < 8 || j->procs > 64 || j->procs % 8;
            bad += j->mem_mb != (int64_t)j->procs * 8192;
            break;
        default:
            bad++;
            continue;
        }
        n[j->job_class]++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    /* shares (s.e. at most 0.0035) */
    CU_ASSERT_DOUBLE_EQUAL(n[0] / (double)N_DIST, 0.5, 0.02);
    CU_ASSERT_DOUBLE_EQUAL(n[1] / (double)N_DIST, 0.3, 0.02);
    CU_ASSERT_DOUBLE_EQUAL(n[2] / (double)N_DIST, 0.2, 0.02);
    /* scientific jobs keep the Lublin serial share (s.e. 0.0045) */
    CU_ASSERT_DOUBLE_EQUAL(sci_serial / (double)n[0], 0.2927, 0.02);
    /* the cores are the busier resource by default: their load is the
       target (about 4% relative s.e.), the GPUs' lower */
    double span = secs(w.jobs[w.n_jobs - 1].submit);
    CU_ASSERT_DOUBLE_EQUAL(core_s / (1024 * span), 0.8, 0.08);
    CU_ASSERT_TRUE(gpu_s / (64 * span) < 0.7);
    hsim_workload_free(&w);

    /* deep learning only: the GPUs set the rate */
    p.share[0] = p.share[2] = 0;
    p.share[1] = 1;
    hsim_workload_init(&w);
    CU_ASSERT_EQUAL_FATAL(hsim_gen_mix(&p, 8, &w, &e), 0);
    gpu_s = 0;
    for (size_t i = 0; i < w.n_jobs; i++)
        gpu_s += w.jobs[i].gpus * secs(w.jobs[i].runtime);
    CU_ASSERT_DOUBLE_EQUAL(gpu_s / (64 * secs(w.jobs[w.n_jobs - 1].submit)), 0.8, 0.08);
    hsim_workload_free(&w);
}

/* ------------------------------------------------------ determinism */

typedef int (*gen_fn)(uint64_t seed, size_t n, hsim_workload_t *w, hsim_err_t *e);

static int gen_lublin(uint64_t seed, size_t n, hsim_workload_t *w, hsim_err_t *e)
{
    hsim_lublin_params_t p;
    hsim_lublin_defaults(&p);
    p.n_jobs = n;
    p.n_users = 50;
    p.load = 0.9;
    p.estimate.factor = 1.37;
    p.estimate.round_up = 1;
    return hsim_gen_lublin(&p, seed, w, e);
}

static int gen_dl(uint64_t seed, size_t n, hsim_workload_t *w, hsim_err_t *e)
{
    hsim_dl_params_t p;
    hsim_dl_defaults(&p);
    p.n_jobs = n;
    p.n_users = 20;
    return hsim_gen_dl(&p, seed, w, e);
}

static int gen_mix(uint64_t seed, size_t n, hsim_workload_t *w, hsim_err_t *e)
{
    hsim_mix_params_t p;
    hsim_mix_defaults(&p);
    p.n_jobs = n;
    p.n_users = 30;
    p.estimate.factor = 2;
    return hsim_gen_mix(&p, seed, w, e);
}

static const struct {
    const char *name;
    gen_fn gen;
} generators[] = {{"lublin", gen_lublin}, {"dl", gen_dl}, {"mix", gen_mix}};

static void test_same_seed_same_jobs(void)
{
    for (size_t g = 0; g < 3; g++) {
        hsim_workload_t a, b, c;
        hsim_workload_init(&a);
        hsim_workload_init(&b);
        hsim_workload_init(&c);
        hsim_err_t e = {{0}};
        CU_ASSERT_EQUAL_FATAL(generators[g].gen(UINT64_C(0x123456789abcdef), 5000, &a, &e), 0);
        CU_ASSERT_EQUAL_FATAL(generators[g].gen(UINT64_C(0x123456789abcdef), 5000, &b, &e), 0);
        /* differs in the upper half only: must still be another stream */
        CU_ASSERT_EQUAL_FATAL(generators[g].gen(UINT64_C(0x123456799abcdef), 5000, &c, &e), 0);
        long same = first_difference(&a, &b);
        if (same != -1)
            fprintf(stderr, "\n%s: same seed, job %ld differs\n", generators[g].name, same);
        CU_ASSERT_EQUAL(same, -1);
        CU_ASSERT_STRING_EQUAL(a.header.note, b.header.note);
        CU_ASSERT_EQUAL(a.n_classes, b.n_classes);
        CU_ASSERT_NOT_EQUAL(first_difference(&a, &c), -1);
        /* and not merely shifted: most submit times, sizes and runtimes differ */
        size_t differ = 0;
        for (size_t i = 0; i < a.n_jobs; i++)
            differ += a.jobs[i].runtime != c.jobs[i].runtime;
        CU_ASSERT_TRUE(differ > a.n_jobs / 2);
        hsim_workload_free(&a);
        hsim_workload_free(&b);
        hsim_workload_free(&c);
    }
}

/* ------------------------------------------------------------ errors */

/* Expects HSIM_EINPUT, the parameter's name and "expected ... found" in
   the message, and an empty workload. */
static void expect_bad(int rc, const hsim_err_t *e, const hsim_workload_t *w,
                       const char *param)
{
    CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
    int ok = contains(e->msg, param) && contains(e->msg, "expected") &&
             contains(e->msg, "found");
    if (!ok)
        fprintf(stderr, "\nmessage '%s' should name '%s', expected and found\n", e->msg, param);
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_EQUAL(w->n_jobs, 0);
    CU_ASSERT_PTR_NULL(w->jobs);
}

static void test_lublin_errors(void)
{
    static const struct {
        const char *param;
        int field;
        double value;
    } cases[] = {
        {"'n_jobs'", 0, 0},          {"'machine_procs'", 1, 2},
        {"'load'", 2, -1},           {"'load'", 2, NAN},
        {"'start_hour'", 3, 24},     {"'model.serial_prob'", 4, 1.5},
        {"'model.pow2_prob'", 5, 0.8}, {"'model.b1'", 6, 1.0},
        {"'estimate.factor'", 7, 0.5}, {"'model.runtime_ln_max'", 8, 0.5},
        {"'model.b_arr'", 9, 0},     {"'n_users'", 10, -3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hsim_lublin_params_t p;
        hsim_lublin_defaults(&p);
        double v = cases[i].value;
        switch (cases[i].field) {
        case 0: p.n_jobs = (size_t)v; break;
        case 1: p.machine_procs = (int32_t)v; break;
        case 2: p.load = v; break;
        case 3: p.start_hour = (int32_t)v; break;
        case 4: p.model.serial_prob = v; break;
        case 5: p.model.pow2_prob = v; break;
        case 6: p.model.b1 = v; break;
        case 7: p.estimate.factor = v; break;
        case 8: p.model.runtime_ln_max = v; break;
        case 9: p.model.b_arr = v; break;
        default: p.n_users = (int32_t)v; break;
        }
        hsim_workload_t w;
        hsim_workload_init(&w);
        hsim_err_t e = {{0}};
        expect_bad(hsim_gen_lublin(&p, 1, &w, &e), &e, &w, cases[i].param);
    }
    /* too many jobs: the message gives the count asked for */
    hsim_lublin_params_t p;
    hsim_lublin_defaults(&p);
    p.n_jobs = (size_t)INT32_MAX + 1;
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_err_t e = {{0}};
    expect_bad(hsim_gen_lublin(&p, 1, &w, &e), &e, &w, "found 2147483648");
}

static void test_dl_mix_errors(void)
{
    static const char *const bad_names[] = {"ok", ""};
    hsim_err_t e = {{0}};
    hsim_workload_t w;
    for (int c = 0; c < 6; c++) {
        hsim_dl_params_t p;
        hsim_dl_defaults(&p);
        const char *param;
        switch (c) {
        case 0: p.cluster_gpus = 4; param = "'model.gpu_sizes[3]'"; break;
        case 1: p.model.gpu_probs[0] = 0.6; param = "'model.gpu_probs'"; break;
        case 2: p.load = 0; param = "'load'"; break;
        case 3: p.classes = bad_names; p.n_classes = 2; param = "'classes[1]'"; break;
        case 4: p.model.n_sizes = 0; param = "'model.n_sizes'"; break;
        default: p.model.short_hi = 1; param = "'model.short_hi'"; break;
        }
        hsim_workload_init(&w);
        expect_bad(hsim_gen_dl(&p, 1, &w, &e), &e, &w, param);
        CU_ASSERT_EQUAL(w.n_classes, 0);
    }
    /* arrivals that would run past 10^10 s, which the trace readers take:
       8 GPUs at load 0.001 take a job every 1.4e7 s */
    hsim_dl_params_t slow;
    hsim_dl_defaults(&slow);
    slow.cluster_gpus = 8;
    slow.load = 0.001;
    slow.n_jobs = 100000;
    hsim_workload_init(&w);
    expect_bad(hsim_gen_dl(&slow, 1, &w, &e), &e, &w, "jobs and load");
    for (int c = 0; c < 5; c++) {
        hsim_mix_params_t p;
        hsim_mix_defaults(&p);
        const char *param;
        switch (c) {
        case 0: p.share[2] = 0.1; param = "'share'"; break;
        case 1: p.share[1] = -0.1; p.share[0] = 0.7; param = "'share[1] (deep-learning)'"; break;
        case 2: p.cluster_cpus = 32; param = "'bigdata.cores_max'"; break;
        case 3: p.cluster_gpus = 0; param = "'cluster_gpus'"; break;
        default: p.scientific.u_prob = 2; param = "'scientific.u_prob'"; break;
        }
        hsim_workload_init(&w);
        expect_bad(hsim_gen_mix(&p, 1, &w, &e), &e, &w, param);
    }
}

static void test_out_of_memory(void)
{
    for (size_t g = 0; g < 3; g++) {
        hsim_workload_t w;
        hsim_workload_init(&w);
        hsim_err_t e = {{0}};
        hsim_alloc_fail_after(1);
        CU_ASSERT_EQUAL(generators[g].gen(1, 100, &w, &e), HSIM_ENOMEM);
        hsim_alloc_fail_after(0);
        CU_ASSERT_EQUAL(w.n_jobs, 0);
        CU_ASSERT_PTR_NULL(w.jobs);
    }
}

/* ------------------------------------------------------------ writers */

static char *path_in(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* Writes w to path, reads it back and cleans it (standard preset, machine
   from the header); the jobs must match on every field SWF carries
   (killed_at_estimate is not one: a job cut at its estimate reads back as
   one that ended exactly at it). */
static void round_trip(const hsim_workload_t *w, const char *path)
{
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_swf_write(path, w, &e), 0);
    hsim_swf_trace_t t;
    int rc = hsim_swf_read(path, 0, &t, &e);
    if (rc)
        fprintf(stderr, "\n%s\n", e.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(t.header.max_jobs, (int64_t)w->n_jobs);
    CU_ASSERT_EQUAL(t.header.max_records, (int64_t)w->n_jobs);
    CU_ASSERT_EQUAL(t.header.max_procs, w->header.max_procs);
    CU_ASSERT_EQUAL(t.header.max_nodes, w->header.max_nodes);
    CU_ASSERT_EQUAL(t.header.unix_start_time, w->header.unix_start_time);
    CU_ASSERT_EQUAL(t.header.time_zone, w->header.time_zone);
    CU_ASSERT_STRING_EQUAL(t.header.time_zone_string, w->header.time_zone_string);
    CU_ASSERT_EQUAL(t.n_records, w->n_jobs);
    for (size_t i = 0; i < t.n_records; i++)
        if (t.records[i].wait != -S || t.records[i].alloc_procs != t.records[i].req_procs) {
            CU_FAIL("wait must be -1 and fields 5 and 8 equal");
            break;
        }
    hsim_workload_t back;
    hsim_workload_init(&back);
    CU_ASSERT_EQUAL(hsim_swf_clean(&t, HSIM_CLEAN_STANDARD, (int32_t)t.header.max_procs,
                                   &back), 0);
    hsim_swf_trace_free(&t);
    CU_ASSERT_EQUAL_FATAL(back.n_jobs, w->n_jobs);
    CU_ASSERT_EQUAL(back.n_rejected, 0);
    long bad = -1;
    for (size_t i = 0; i < w->n_jobs && bad < 0; i++) {
        const hsim_job_t *x = &w->jobs[i], *y = &back.jobs[i];
        if (x->id != y->id || x->submit != y->submit || x->runtime != y->runtime ||
            x->estimate != y->estimate || x->procs != y->procs || x->user != y->user ||
            x->group != y->group || x->app != y->app || x->queue != y->queue ||
            x->partition != y->partition || x->after != y->after || x->think != y->think)
            bad = (long)i;
    }
    if (bad >= 0)
        fprintf(stderr, "\n%s: job %ld differs after the round trip\n", path, bad);
    CU_ASSERT_EQUAL(bad, -1);
    hsim_workload_free(&back);
}

static void test_swf_round_trip(void)
{
    char *dir = hsim_test_tmpdir("synth");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    static const char *const files[] = {"lublin.swf", "dl.swf.gz", "mix.swf"};
    for (size_t g = 0; g < 3; g++) {
        hsim_workload_t w;
        hsim_workload_init(&w);
        hsim_err_t e = {{0}};
        CU_ASSERT_EQUAL_FATAL(generators[g].gen(77, 3000, &w, &e), 0);
        char *path = path_in(dir, files[g]);
        round_trip(&w, path);
        if (g == 0) { /* the header's Note line names generator and seed */
            FILE *f = fopen(path, "r");
            char line[512];
            int noted = 0;
            while (f && fgets(line, sizeof line, f) && line[0] == ';')
                noted |= contains(line, "; Note: generated by hsim_gen_lublin") &&
                         contains(line, "seed 77");
            if (f)
                fclose(f);
            CU_ASSERT_TRUE(noted);
        }
        unlink(path);
        free(path);
        hsim_workload_free(&w);
    }

    /* fractional times, dependencies and a job cut at its estimate; the
       header of a machine west of Greenwich (NASA-iPSC's: a negative time
       zone, which the writer once dropped) */
    hsim_workload_t w;
    hsim_workload_init(&w);
    w.header.max_procs = 16;
    w.header.max_nodes = 128;
    w.header.unix_start_time = 749458803;
    w.header.time_zone = -28800;
    snprintf(w.header.time_zone_string, sizeof w.header.time_zone_string, "US/Pacific");
    hsim_job_t j;
    hsim_job_init(&j);
    j.id = j.line = 1;
    j.submit = 12 * S + S / 2;
    j.runtime = 3 * S + 250000;
    j.estimate = 10 * S;
    j.procs = 4;
    j.user = 3;
    j.group = 2;
    j.app = 9;
    j.queue = 1;
    j.partition = 0;
    hsim_workload_add(&w, &j);
    j.id = j.line = 2;
    j.submit = 20 * S;
    j.runtime = j.estimate = 5 * S;
    j.killed_at_estimate = 1;
    j.after = 1;
    j.think = 7 * S;
    j.mem_mb = 1000;
    hsim_workload_add(&w, &j);
    j.id = j.line = 3; /* a think time with no preceding job comes back too */
    j.after = -1;
    j.think = 4 * S;
    hsim_workload_add(&w, &j);
    j.id = j.line = 4; /* an unknown think time after a preceding job stays unknown
                          (it came back as 0), and a known 0 stays 0 */
    j.after = 1;
    j.think = -1;
    hsim_workload_add(&w, &j);
    j.id = j.line = 5;
    j.think = 0;
    hsim_workload_add(&w, &j);
    char *path = path_in(dir, "hand.swf");
    round_trip(&w, path);
    unlink(path);
    free(path);
    hsim_workload_free(&w);

    hsim_err_t e = {{0}};
    hsim_workload_init(&w);
    CU_ASSERT_EQUAL(hsim_swf_write("/nonexistent-hsim-dir/x.swf", &w, &e), HSIM_EIO);
    CU_ASSERT_TRUE(contains(e.msg, "/nonexistent-hsim-dir/x.swf"));
    rmdir(dir);
    free(dir);
}

static void test_csv_write(void)
{
    static const char *const names[] = {"a,\"b\"", "plain"};
    char *dir = hsim_test_tmpdir("synthcsv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    hsim_dl_params_t p;
    hsim_dl_defaults(&p);
    p.n_jobs = 50;
    p.classes = names;
    p.n_classes = 2;
    p.n_users = 4;
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_gen_dl(&p, 4, &w, &e), 0);
    char *path = path_in(dir, "jobs.csv");
    CU_ASSERT_EQUAL_FATAL(hsim_csv_write_jobs(path, &w, &e), 0);
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[512];
    CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
    CU_ASSERT_STRING_EQUAL(line, "job_id,submit,runtime,estimate,procs,gpus,gpu_milli,"
                                 "mem_mb,fpgas,class,user,gpu_models,group,app,queue,"
                                 "partition,nodes,cores_per_node,after,think,killed,"
                                 "trace_id\n");
    size_t rows = 0;
    int bad = 0;
    while (fgets(line, sizeof line, f)) {
        const hsim_job_t *j = &w.jobs[rows];
        char want[512];
        const char *cls = j->job_class == 0 ? "\"a,\"\"b\"\"\"" : "plain";
        snprintf(want, sizeof want,
                 "%lld,%lld,%lld,%lld,%d,%d,1000,0,0,%s,%d,,-1,-1,-1,-1,%d,%d,-1,-1,0,\n",
                 (long long)j->id, (long long)(j->submit / S), (long long)(j->runtime / S),
                 (long long)(j->estimate / S), j->procs, j->gpus, cls, j->user, j->nodes,
                 j->cores_per_node);
        bad += strcmp(line, want) != 0;
        rows++;
    }
    fclose(f);
    CU_ASSERT_EQUAL(rows, w.n_jobs);
    CU_ASSERT_EQUAL(bad, 0);
    unlink(path);
    free(path);
    hsim_workload_free(&w);
    rmdir(dir);
    free(dir);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("synth_lublin");
    HSIM_TEST(s, test_lublin_sizes);
    HSIM_TEST(s, test_lublin_daily_cycle);
    HSIM_TEST(s, test_lublin_load);
    HSIM_TEST(s, test_lublin_mean_work);
    HSIM_TEST(s, test_estimate_rules);
    s = hsim_test_suite("synth_dl");
    HSIM_TEST(s, test_dl_distributions);
    HSIM_TEST(s, test_dl_custom);
    s = hsim_test_suite("synth_mix");
    HSIM_TEST(s, test_mix);
    s = hsim_test_suite("synth_common");
    HSIM_TEST(s, test_same_seed_same_jobs);
    HSIM_TEST(s, test_lublin_errors);
    HSIM_TEST(s, test_dl_mix_errors);
    HSIM_TEST(s, test_out_of_memory);
    s = hsim_test_suite("synth_write");
    HSIM_TEST(s, test_swf_round_trip);
    HSIM_TEST(s, test_csv_write);
}
