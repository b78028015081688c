/*
 * test_leakage.c - no predictor can read the future.  For every registered
 * predictor but the clairvoyant one: replay a random trace under EASY and
 * record every prediction; then lengthen the runtimes of the jobs that had
 * not finished by a time T and replay again: every prediction made before T
 * must be the same.  A predictor that read a job's runtime before it ended
 * would answer differently; a control predictor that does (declared
 * reads_runtime, as 'oracle') shows that the check finds it.
 */
#include "harness.h"

#include "policies/registry.h"
#include "predictor/predictor.h"
#include "sim/engine.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#define S HSIM_SECOND
#define JOBS 400

/* ---- a predictor that records what the one under test answers ---- */

typedef struct said {
    int64_t id;
    hsim_time_t now, answer;
} said_t;

static const hsim_predictor_t *inner;
static said_t log_[JOBS * 64];
static size_t n_log;

static int spy_create(const hsim_predictor_ctx_t *ctx, void **state)
{
    return inner->create(ctx, state);
}
static void spy_destroy(void *state) { inner->destroy(state); }
static hsim_time_t spy_predict(void *state, const hsim_job_t *job, hsim_time_t now)
{
    hsim_time_t p = inner->predict(state, job, now);
    if (n_log < sizeof log_ / sizeof log_[0])
        log_[n_log++] = (said_t){job->id, now, p};
    return p;
}
static int spy_started(void *state, const hsim_job_t *job, hsim_time_t now)
{
    return inner->started ? inner->started(state, job, now) : 0;
}
static int spy_learn(void *state, const hsim_job_t *job, hsim_time_t ran, hsim_time_t now)
{
    return inner->learn ? inner->learn(state, job, ran, now) : 0;
}

static hsim_predictor_t spy;

static void spy_on(const hsim_predictor_t *p, int reads_runtime)
{
    inner = p;
    spy = *p;
    spy.create = spy_create;
    spy.destroy = spy_destroy;
    spy.predict = spy_predict;
    spy.started = spy_started;
    spy.learn = spy_learn;
    spy.reads_runtime = reads_runtime;
}

/* ---- the trace ---- */

/* JOBS jobs of 12 users on 64 processors, busy enough that jobs wait. */
static void make_trace(hsim_workload_t *w, unsigned long seed)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    hsim_workload_init(w);
    hsim_time_t t = 0;
    for (int i = 0; i < JOBS; i++) {
        hsim_job_t j;
        hsim_job_init(&j);
        j.id = i + 1;
        j.line = i + 1;
        t += (hsim_time_t)(gsl_rng_uniform(rng) * 120) * S;
        j.submit = t;
        j.user = (int32_t)gsl_rng_uniform_int(rng, 12);
        j.group = j.user % 3;
        j.app = (int32_t)gsl_rng_uniform_int(rng, 5);
        j.queue = j.app % 2;
        j.procs = 1 + (int32_t)gsl_rng_uniform_int(rng, 32);
        /* each user's jobs run about alike: a predictor has something to learn */
        double base = 60.0 * (1 + j.user % 5);
        j.runtime = (hsim_time_t)(base * (0.5 + gsl_rng_uniform(rng))) * S + S;
        j.estimate = j.runtime * (1 + (hsim_time_t)gsl_rng_uniform_int(rng, 4));
        HSIM_ASSERT(hsim_workload_add(w, &j) == 0);
    }
    gsl_rng_free(rng);
}

static int replay(const hsim_workload_t *w, hsim_outcome_t *out)
{
    hsim_run_config_t c = {.capacity = 64, .order = hsim_order_find("fcfs"),
                           .scheduler = hsim_scheduler_find("easy"), .predictor = &spy,
                           .predictor_retrain = 100};
    hsim_err_t e = {{0}};
    n_log = 0;
    int rc = hsim_engine_run(w, &c, out, NULL, &e);
    if (rc)
        fprintf(stderr, "\n%s\n", e.msg);
    return rc;
}

/* The predictions made before T in both logs, in order: equal?  (The
   logs are in the order the engine asked, which before T is the same.) */
static int same_before(const said_t *a, size_t na, const said_t *b, size_t nb, hsim_time_t T)
{
    size_t i = 0, k = 0;
    for (;;) {
        while (i < na && a[i].now >= T)
            i++;
        while (k < nb && b[k].now >= T)
            k++;
        if (i == na || k == nb)
            return i == na && k == nb;
        if (a[i].id != b[k].id || a[i].now != b[k].now || a[i].answer != b[k].answer)
            return 0;
        i++, k++;
    }
}

/* 1 when a replay with the unfinished jobs' runtimes lengthened changes no
   prediction made before T, for three times T. */
static int blind_to_the_future(const hsim_predictor_t *p, int reads_runtime, unsigned long seed)
{
    spy_on(p, reads_runtime);
    hsim_workload_t w;
    make_trace(&w, seed);
    hsim_outcome_t *out = calloc(JOBS, sizeof *out);
    said_t *first = malloc(sizeof log_);
    int blind = 1;
    HSIM_ASSERT(out && first);
    if (replay(&w, out)) {
        CU_FAIL("the replay failed");
        blind = 0;
    }
    size_t n_first = n_log;
    memcpy(first, log_, n_log * sizeof *log_);
    hsim_time_t last_end = 0;
    for (int i = 0; i < JOBS; i++)
        if (out[i].end > last_end)
            last_end = out[i].end;
    for (int q = 1; q <= 3 && blind; q++) {
        hsim_time_t T = last_end / 4 * q;
        hsim_workload_t w2;
        make_trace(&w2, seed);
        size_t changed = 0;
        for (size_t i = 0; i < w2.n_jobs; i++) {
            hsim_job_t *j = &w2.jobs[i];
            if (out[i].end > T) { /* not finished by T: a longer future (the
                                     request, known at submission, stays) */
                j->runtime = j->runtime * 3 / 2;
                changed++;
            }
        }
        hsim_outcome_t *out2 = calloc(JOBS, sizeof *out2);
        HSIM_ASSERT(out2 && changed > 0);
        if (replay(&w2, out2))
            CU_FAIL("the second replay failed");
        blind = same_before(first, n_first, log_, n_log, T);
        free(out2);
        hsim_workload_free(&w2);
    }
    free(first);
    free(out);
    hsim_workload_free(&w);
    return blind;
}

static void test_no_predictor_reads_the_future(void)
{
    size_t tried = 0;
    for (size_t i = 0; hsim_predictors[i]; i++) {
        const hsim_predictor_t *p = hsim_predictors[i];
        if (p->reads_runtime)
            continue; /* the oracle: clairvoyant by definition */
        for (unsigned long seed = 1; seed <= hsim_test_seeds(2); seed++) {
            int blind = blind_to_the_future(p, 0, seed);
            if (!blind)
                fprintf(stderr, "\n%s read the future (seed %lu)\n", p->name, seed);
            CU_ASSERT_TRUE(blind);
        }
        tried++;
    }
    CU_ASSERT(tried >= 2);
}

/* The control: a predictor that is handed the runtime (the oracle) is
   caught: the check can fail. */
static void test_the_check_catches_a_leak(void)
{
    CU_ASSERT_FALSE(blind_to_the_future(hsim_predictor_find("oracle"), 1, 1));
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("leakage");
    HSIM_TEST(s, test_no_predictor_reads_the_future);
    HSIM_TEST(s, test_the_check_catches_a_leak);
}
