/*
 * test_predictor.c - the predictors of predictor/: 'user' and 'oracle'
 * answer from the job alone; 'last2' from its user's last two runtimes,
 * against a brute-force record of every user's history.
 */
#include "harness.h"

#include "predictor/predictor.h"
#include "workloads/workload.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>

#define S HSIM_SECOND

static hsim_job_t job_of(int32_t user, int64_t est_s, int64_t run_s)
{
    return (hsim_job_t){.id = 1, .user = user, .estimate = est_s * S, .runtime = run_s * S,
                        .procs = 1, .group = -1, .app = -1, .queue = -1, .partition = -1,
                        .after = -1};
}

static void test_user_and_oracle(void)
{
    hsim_job_t j = job_of(4, 100, 30);
    const hsim_predictor_t *u = hsim_predictor_find("user");
    const hsim_predictor_t *o = hsim_predictor_find("oracle");
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_EQUAL(u->predict(NULL, &j, 0), 100 * S);
    CU_ASSERT_EQUAL(o->predict(NULL, &j, 0), 30 * S);
    CU_ASSERT_FALSE(u->revises || u->underpredicts || o->revises || o->underpredicts);
    CU_ASSERT_PTR_NULL(hsim_predictor_find("transformer"));
}

/* The rule worked by hand: the requested time until two jobs of the user
   ended, then the mean of the last two rounded down to a second, at most
   the requested time; other users keep their own history. */
static void test_last2_by_hand(void)
{
    const hsim_predictor_t *p = hsim_predictor_find("last2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_TRUE(p->revises && p->underpredicts);
    void *st = NULL;
    CU_ASSERT_EQUAL_FATAL(p->create(&(hsim_predictor_ctx_t){.n_jobs = 10}, &st), 0);
    hsim_job_t a = job_of(7, 100, 0), other = job_of(-1, 100, 0);
    CU_ASSERT_EQUAL(p->predict(st, &a, 0), 100 * S);
    CU_ASSERT_EQUAL(p->learn(st, &a, 10 * S, 10 * S), 0);
    CU_ASSERT_EQUAL(p->predict(st, &a, 10 * S), 100 * S); /* one runtime only */
    CU_ASSERT_EQUAL(p->learn(st, &a, 13 * S, 20 * S), 0);
    CU_ASSERT_EQUAL(p->predict(st, &a, 20 * S), 11 * S);  /* (10 + 13) / 2 = 11.5 */
    CU_ASSERT_EQUAL(p->predict(st, &other, 20 * S), 100 * S);
    hsim_job_t short_req = job_of(7, 5, 0);
    CU_ASSERT_EQUAL(p->predict(st, &short_req, 20 * S), 5 * S); /* capped */
    CU_ASSERT_EQUAL(p->learn(st, &a, 1000 * S + S / 2, 30 * S), 0);
    CU_ASSERT_EQUAL(p->predict(st, &a, 30 * S), 100 * S);   /* mean 506.75 > 100 */
    hsim_job_t big = job_of(7, 10000, 0);
    CU_ASSERT_EQUAL(p->predict(st, &big, 30 * S), 506 * S);
    /* the unknown user is one more user */
    CU_ASSERT_EQUAL(p->learn(st, &other, 2 * S, 40 * S), 0);
    CU_ASSERT_EQUAL(p->learn(st, &other, 4 * S, 40 * S), 0);
    CU_ASSERT_EQUAL(p->predict(st, &other, 40 * S), 3 * S);
    CU_ASSERT_EQUAL(p->predict(st, &big, 40 * S), 506 * S);
    p->destroy(st);
}

/* typical: the request without history; then, among the user's runtimes
   of jobs that asked the same time, the one closest to the others by
   min/max, the more recent weighing more (100, 500, 110: 110), at most the
   request; nothing learnt from a
   job that has not finished. */
static void test_typical_by_hand(void)
{
    const hsim_predictor_t *p = hsim_predictor_find("typical");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_TRUE(!p->revises && p->underpredicts && !p->reads_runtime);
    void *st = NULL;
    CU_ASSERT_EQUAL_FATAL(p->create(&(hsim_predictor_ctx_t){.unix_start = HSIM_HEADER_ABSENT,
                                                            .time_zone = HSIM_HEADER_ABSENT},
                                    &st), 0);
    hsim_job_t a = job_of(7, 1000, 0);
    CU_ASSERT_EQUAL(p->predict(st, &a, 0), 1000 * S);
    static const int64_t runs[] = {100, 500, 110};
    for (int k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(p->started(st, &a, k * 1000 * S), 0);
        /* the request; 100; of 100 and 500, as close to each other, the
           more recent, which weighs more */
        static const int64_t want[] = {1000, 100, 500};
        CU_ASSERT_EQUAL(p->predict(st, &a, k * 1000 * S), want[k] * S);
        CU_ASSERT_EQUAL(p->learn(st, &a, runs[k] * S, (k * 1000 + runs[k]) * S), 0);
    }
    CU_ASSERT_EQUAL(p->predict(st, &a, 5000 * S), 110 * S);
    hsim_job_t capped = a;
    capped.estimate = 50 * S; /* another request: the user's last runs, capped */
    CU_ASSERT(p->predict(st, &capped, 5000 * S) <= 50 * S);
    hsim_job_t other = job_of(8, 1000, 0);
    CU_ASSERT_EQUAL(p->predict(st, &other, 5000 * S), 1000 * S);
    p->destroy(st);
}

/* Many users (the table grows many times over), random runtimes, against
   a record of each user's last two. */
static void test_last2_many_users(void)
{
    enum { USERS = 5000, STEPS = 60000 };
    const hsim_predictor_t *p = hsim_predictor_find("last2");
    void *st = NULL;
    CU_ASSERT_EQUAL_FATAL(p->create(&(hsim_predictor_ctx_t){.n_jobs = STEPS}, &st), 0);
    hsim_time_t *last = calloc(USERS, sizeof *last), *prev = calloc(USERS, sizeof *prev);
    int *done = calloc(USERS, sizeof *done);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 7);
    int bad = 0;
    for (int k = 0; k < STEPS; k++) {
        /* user ids spread over the int32 range, some negative */
        int u = (int)gsl_rng_uniform_int(rng, USERS);
        int32_t id = (int32_t)((uint32_t)u * 2654435761u);
        hsim_job_t j = job_of(id, 1 + (int64_t)gsl_rng_uniform_int(rng, 5000), 0);
        hsim_time_t want = j.estimate;
        if (done[u] >= 2) {
            hsim_time_t mean = (last[u] + prev[u]) / 2 / S * S;
            want = mean < j.estimate ? mean : j.estimate;
        }
        if (p->predict(st, &j, 0) != want && bad++ < 3)
            fprintf(stderr, "\nuser %d: predicted %lld, expected %lld\n", (int)id,
                    (long long)p->predict(st, &j, 0), (long long)want);
        if (gsl_rng_uniform(rng) < 0.5) {
            hsim_time_t ran = 1 + (hsim_time_t)gsl_rng_uniform_int(rng, 4000 * S);
            CU_ASSERT_EQUAL_FATAL(p->learn(st, &j, ran, 0), 0);
            prev[u] = last[u];
            last[u] = ran;
            done[u]++;
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    gsl_rng_free(rng);
    free(last);
    free(prev);
    free(done);
    p->destroy(st);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("predictors");
    HSIM_TEST(s, test_user_and_oracle);
    HSIM_TEST(s, test_last2_by_hand);
    HSIM_TEST(s, test_last2_many_users);
    HSIM_TEST(s, test_typical_by_hand);
}
