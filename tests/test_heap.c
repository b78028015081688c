/*
 * test_heap.c - the event heap against a sorted array, and the two stores
 * of reserved starts against a per-job array (differential tests).
 *
 * Random pushes and pops, with few distinct times and kinds so that most
 * events tie on (time, kind) and only seq tells them apart: every pop must
 * return exactly the least event of a brute-force model kept beside the heap.
 */
#include "harness.h"

#include "sim/heap.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

/* The model: an unsorted array; the least element is found by a scan. */
typedef struct model {
    hsim_event_t *ev;
    size_t n;
    size_t cap;
} model_t;

static int model_cmp(const void *a, const void *b)
{
    const hsim_event_t *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static void model_push(model_t *m, const hsim_event_t *e)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->ev = realloc(m->ev, m->cap * sizeof *m->ev);
    }
    m->ev[m->n++] = *e;
}

static hsim_event_t model_pop(model_t *m)
{
    size_t best = 0;
    for (size_t i = 1; i < m->n; i++)
        if (model_cmp(&m->ev[i], &m->ev[best]) < 0)
            best = i;
    hsim_event_t e = m->ev[best];
    m->ev[best] = m->ev[--m->n];
    return e;
}

static int same_event(const hsim_event_t *a, const hsim_event_t *b)
{
    return a->time == b->time && a->kind == b->kind && a->seq == b->seq && a->job == b->job;
}

static void test_less_order(void)
{
    hsim_event_t a = {.time = 5, .kind = HSIM_EV_END, .seq = 9};
    hsim_event_t b = {.time = 6, .kind = HSIM_EV_EXPIRY, .seq = 0};
    CU_ASSERT_TRUE(hsim_event_less(&a, &b));  /* time first */
    CU_ASSERT_FALSE(hsim_event_less(&b, &a));
    b.time = 5;
    CU_ASSERT_TRUE(hsim_event_less(&b, &a));  /* then kind */
    b.kind = HSIM_EV_END;
    b.seq = 10;
    CU_ASSERT_TRUE(hsim_event_less(&a, &b));  /* then seq */
    CU_ASSERT_FALSE(hsim_event_less(&a, &a)); /* strict */
    /* the kinds, first to last at one time (DESIGN.md) */
    CU_ASSERT_TRUE(HSIM_EV_EXPIRY < HSIM_EV_SUBMIT);
    CU_ASSERT_TRUE(HSIM_EV_SUBMIT < HSIM_EV_END);
    CU_ASSERT_TRUE(HSIM_EV_END < HSIM_EV_START);
}

static void test_empty(void)
{
    hsim_heap_t h;
    hsim_heap_init(&h);
    hsim_event_t e = {.time = 42, .seq = 7, .job = 3, .kind = 1};
    hsim_event_t out = e;
    CU_ASSERT_PTR_NULL(hsim_heap_peek(&h));
    CU_ASSERT_EQUAL(hsim_heap_pop(&h, &out), -1);
    CU_ASSERT_TRUE(same_event(&out, &e)); /* untouched */
    CU_ASSERT_EQUAL(hsim_heap_push(&h, &e), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hsim_heap_peek(&h));
    CU_ASSERT_EQUAL(hsim_heap_peek(&h)->seq, 7);
    CU_ASSERT_EQUAL(hsim_heap_pop(&h, &out), 0);
    CU_ASSERT_TRUE(same_event(&out, &e));
    CU_ASSERT_EQUAL(h.n, 0);
    CU_ASSERT_EQUAL(hsim_heap_pop(&h, &out), -1);
    hsim_heap_free(&h);
    CU_ASSERT_PTR_NULL(h.ev);
}

/* Pushes n events in a scrambled order and pops them all: sorted output. */
static void test_push_all_pop_all(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 12345);
    enum { N = 5000 };
    hsim_event_t *ev = malloc(N * sizeof *ev);
    for (int i = 0; i < N; i++) { /* drawn in turn */
        hsim_time_t time = (hsim_time_t)gsl_rng_uniform_int(rng, 20) * HSIM_SECOND;
        int32_t kind = (int32_t)gsl_rng_uniform_int(rng, 4);
        int32_t job = (int32_t)gsl_rng_uniform_int(rng, 1000);
        ev[i] = (hsim_event_t){.time = time, .kind = kind, .seq = i, .job = job};
    }
    /* push in a random permutation so that seq is not push order */
    for (int i = N - 1; i > 0; i--) {
        int k = (int)gsl_rng_uniform_int(rng, (unsigned long)i + 1);
        hsim_event_t t = ev[i];
        ev[i] = ev[k];
        ev[k] = t;
    }
    hsim_heap_t h;
    hsim_heap_init(&h);
    for (int i = 0; i < N; i++)
        CU_ASSERT_EQUAL_FATAL(hsim_heap_push(&h, &ev[i]), 0);
    CU_ASSERT_EQUAL(h.n, N);
    qsort(ev, N, sizeof *ev, model_cmp);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        const hsim_event_t *top = hsim_heap_peek(&h);
        hsim_event_t peeked = top ? *top : (hsim_event_t){0}, out;
        if (!top || !same_event(&peeked, &ev[i]) || hsim_heap_pop(&h, &out) != 0 ||
            !same_event(&out, &ev[i])) {
            bad++;
            break;
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(h.n, 0);
    CU_ASSERT_PTR_NULL(hsim_heap_peek(&h));
    hsim_heap_free(&h);
    free(ev);
    gsl_rng_free(rng);
}

/*
 * Interleaved pushes and pops, heap beside the model, for several seeds and
 * mixes.  Times are drawn from a small range above the last popped time (as
 * in a simulation) or anywhere (a harder case); seq grows with each push.
 */
static void run_interleaved(unsigned long seed, unsigned times, double p_push,
                            int monotone, int steps)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    hsim_heap_t h;
    hsim_heap_init(&h);
    model_t m = {0};
    int64_t seq = 0;
    hsim_time_t clock = 0;
    int mismatches = 0, pops = 0;
    size_t max_n = 0;
    for (int step = 0; step < steps && !mismatches; step++) {
        if (m.n == 0 || gsl_rng_uniform(rng) < p_push) {
            hsim_time_t base = monotone ? clock : 0;
            /* drawn one by one: an initializer list's order is unspecified */
            hsim_time_t time = base + (hsim_time_t)gsl_rng_uniform_int(rng, times);
            int32_t kind = (int32_t)gsl_rng_uniform_int(rng, 4);
            int32_t job = (int32_t)gsl_rng_uniform_int(rng, 100);
            hsim_event_t e = {.time = time, .kind = kind, .seq = seq, .job = job};
            seq++;
            CU_ASSERT_EQUAL_FATAL(hsim_heap_push(&h, &e), 0);
            model_push(&m, &e);
            if (m.n > max_n)
                max_n = m.n;
        } else {
            hsim_event_t want = model_pop(&m), got;
            const hsim_event_t *top = hsim_heap_peek(&h);
            if (!top || !same_event(top, &want))
                mismatches++;
            if (hsim_heap_pop(&h, &got) != 0 || !same_event(&got, &want))
                mismatches++;
            clock = want.time;
            pops++;
        }
        if (h.n != m.n)
            mismatches++;
    }
    /* drain */
    while (m.n && !mismatches) {
        hsim_event_t want = model_pop(&m), got;
        if (hsim_heap_pop(&h, &got) != 0 || !same_event(&got, &want))
            mismatches++;
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT_TRUE(pops > 0);
    CU_ASSERT_TRUE(max_n > 10); /* the heap really held several levels */
    hsim_heap_free(&h);
    free(m.ev);
    gsl_rng_free(rng);
}

static void test_interleaved_many_ties(void)
{
    /* 3 times x 4 kinds: almost every comparison goes down to seq */
    for (unsigned long seed = 1; seed <= 20; seed++)
        run_interleaved(seed, 3, 0.55, 0, 4000);
}

static void test_interleaved_simulation_like(void)
{
    for (unsigned long seed = 100; seed <= 110; seed++)
        run_interleaved(seed, 50, 0.6, 1, 20000);
}

static void test_interleaved_wide_times(void)
{
    for (unsigned long seed = 200; seed <= 205; seed++)
        run_interleaved(seed, 1000000, 0.5, 0, 20000);
}

/* A heap grown, emptied and grown again keeps working. */
static void test_reuse_after_empty(void)
{
    hsim_heap_t h;
    hsim_heap_init(&h);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 100; i++) {
            hsim_event_t e = {.time = (100 - i) % 7, .kind = i % 4, .seq = round * 1000 + i};
            CU_ASSERT_EQUAL(hsim_heap_push(&h, &e), 0);
        }
        hsim_event_t prev, cur;
        CU_ASSERT_EQUAL(hsim_heap_pop(&h, &prev), 0);
        int sorted = 1, n = 1;
        while (hsim_heap_pop(&h, &cur) == 0) {
            if (!hsim_event_less(&prev, &cur))
                sorted = 0;
            prev = cur;
            n++;
        }
        CU_ASSERT_TRUE(sorted);
        CU_ASSERT_EQUAL(n, 100);
    }
    hsim_heap_free(&h);
}

/* A failed allocation leaves the heap as it was. */
static void test_push_enomem(void)
{
    hsim_heap_t h;
    hsim_heap_init(&h);
    hsim_event_t e = {.time = 1, .kind = 0, .seq = 0};
    hsim_alloc_fail_after(1);
    CU_ASSERT_EQUAL(hsim_heap_push(&h, &e), HSIM_ENOMEM);
    hsim_alloc_fail_after(0);
    CU_ASSERT_EQUAL(h.n, 0);
    for (int i = 0; i < 16; i++) { /* fills the first allocation exactly */
        e.seq = i;
        e.time = 16 - i;
        CU_ASSERT_EQUAL(hsim_heap_push(&h, &e), 0);
    }
    hsim_alloc_fail_after(1); /* the 17th push must grow the array */
    e.seq = 99;
    e.time = 0;
    CU_ASSERT_EQUAL(hsim_heap_push(&h, &e), HSIM_ENOMEM);
    hsim_alloc_fail_after(0);
    CU_ASSERT_EQUAL(h.n, 16);
    hsim_event_t out;
    CU_ASSERT_EQUAL(hsim_heap_pop(&h, &out), 0);
    CU_ASSERT_EQUAL(out.seq, 15); /* time 1, not the failed push's time 0 */
    hsim_heap_free(&h);
}

/* The two stores of reserved starts behind one face: the indexed heap, and
   the heap with a pool of far entries. */
typedef struct starts {
    int pooled;
    hsim_rheap_t heap;
    hsim_reserved_t res;
    size_t most_pooled; /* the pool's size at its largest */
} starts_t;

static int starts_init(starts_t *s, int pooled, size_t n_jobs)
{
    s->pooled = pooled;
    s->most_pooled = 0;
    return pooled ? hsim_reserved_init(&s->res, n_jobs) : hsim_rheap_init(&s->heap, n_jobs);
}

static void starts_free(starts_t *s)
{
    if (s->pooled)
        hsim_reserved_free(&s->res);
    else
        hsim_rheap_free(&s->heap);
}

static void starts_set(starts_t *s, const hsim_event_t *e)
{
    if (s->pooled) {
        hsim_reserved_set(&s->res, e);
        if (s->res.n_far > s->most_pooled)
            s->most_pooled = s->res.n_far;
    } else {
        hsim_rheap_set(&s->heap, e);
    }
}

static void starts_remove(starts_t *s, int32_t job)
{
    if (s->pooled)
        hsim_reserved_remove(&s->res, job);
    else
        hsim_rheap_remove(&s->heap, job);
}

static const hsim_event_t *starts_peek(starts_t *s)
{
    return s->pooled ? hsim_reserved_peek(&s->res) : hsim_rheap_peek(&s->heap);
}

static size_t starts_size(const starts_t *s)
{
    return s->pooled ? hsim_reserved_size(&s->res) : s->heap.n;
}

/*
 * A store of reserved starts (one entry per job, replaced in place) against
 * a model: an array of each job's pending event, or none.  Random sets (new
 * or replacing, earlier or later), removals (present or not), and pops
 * (peek, then remove the job).
 */
static size_t run_starts(int pooled, unsigned long seed, size_t n_jobs, unsigned times, int steps)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    starts_t h;
    CU_ASSERT_EQUAL_FATAL(starts_init(&h, pooled, n_jobs), 0);
    hsim_event_t *model = malloc(n_jobs * sizeof *model);
    char *has = calloc(n_jobs, 1);
    size_t live = 0;
    int64_t seq = 0;
    int mismatches = 0, replaced = 0;
    for (int step = 0; step < steps && !mismatches; step++) {
        double u = gsl_rng_uniform(rng);
        int32_t job = (int32_t)gsl_rng_uniform_int(rng, n_jobs);
        if (u < 0.5) {
            hsim_time_t time = (hsim_time_t)gsl_rng_uniform_int(rng, times);
            hsim_event_t e = {.time = time, .kind = HSIM_EV_START, .seq = seq, .job = job};
            seq++;
            replaced += has[job];
            live += !has[job];
            has[job] = 1;
            model[job] = e;
            starts_set(&h, &e);
        } else if (u < 0.7) {
            live -= has[job];
            has[job] = 0;
            starts_remove(&h, job);
        } else {
            const hsim_event_t *top = starts_peek(&h);
            size_t best = n_jobs;
            for (size_t k = 0; k < n_jobs; k++)
                if (has[k] && (best == n_jobs || model_cmp(&model[k], &model[best]) < 0))
                    best = k;
            if (best == n_jobs) {
                if (top)
                    mismatches++;
            } else {
                if (!top || !same_event(top, &model[best]))
                    mismatches++;
                else {
                    starts_remove(&h, top->job);
                    has[best] = 0;
                    live--;
                }
            }
        }
        if (starts_size(&h) != live)
            mismatches++;
    }
    /* drain in order */
    while (live && !mismatches) {
        size_t best = n_jobs;
        for (size_t k = 0; k < n_jobs; k++)
            if (has[k] && (best == n_jobs || model_cmp(&model[k], &model[best]) < 0))
                best = k;
        const hsim_event_t *top = starts_peek(&h);
        if (!top || !same_event(top, &model[best]))
            mismatches++;
        else
            starts_remove(&h, top->job);
        has[best] = 0;
        live--;
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT_TRUE(replaced > 0);
    CU_ASSERT_PTR_NULL(starts_peek(&h));
    starts_free(&h);
    free(model);
    free(has);
    gsl_rng_free(rng);
    return h.most_pooled;
}

static void test_rheap_against_model(void)
{
    for (unsigned long seed = 1; seed <= 10; seed++)
        run_starts(0, seed, 50, 5, 5000);      /* many ties on time */
    for (unsigned long seed = 11; seed <= 13; seed++)
        run_starts(0, seed, 2000, 100000, 20000);
}

static void test_reserved_against_model(void)
{
    for (unsigned long seed = 1; seed <= 10; seed++)
        run_starts(1, seed, 500, 5, 5000);     /* many ties on time */
    for (unsigned long seed = 11; seed <= 13; seed++) /* the pool is used */
        CU_ASSERT_TRUE(run_starts(1, seed, 2000, 100000, 20000) > 50);
}

/*
 * The pooled store as conservative backfilling uses it: time goes forward,
 * the least entry comes out when its time comes, and the others move a
 * little earlier, over and over, while new ones come in far ahead.  Each
 * entry must come out at its last time, in (time, seq) order.
 */
static void test_reserved_moves_up(void)
{
    enum { JOBS = 3000 };
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 7);
    hsim_reserved_t r;
    CU_ASSERT_EQUAL_FATAL(hsim_reserved_init(&r, JOBS), 0);
    hsim_event_t *last = calloc(JOBS, sizeof *last);
    char *has = calloc(JOBS, 1);
    int64_t seq = 0;
    hsim_time_t now = 0;
    int32_t next = 0;
    int bad = 0, out = 0;
    hsim_event_t prev = {.time = -1};
    while (out < JOBS && !bad) {
        if (next < JOBS && gsl_rng_uniform(rng) < 0.5) { /* a new job, far ahead */
            hsim_time_t time = now + 1000 + (hsim_time_t)gsl_rng_uniform_int(rng, 5000);
            hsim_event_t e = {.time = time, .kind = HSIM_EV_START, .seq = seq, .job = next};
            seq++;
            last[next] = e;
            has[next++] = 1;
            hsim_reserved_set(&r, &e);
        }
        for (int m = 0; m < 20; m++) { /* moves up, never before now */
            int32_t j = (int32_t)gsl_rng_uniform_int(rng, JOBS);
            if (!has[j] || last[j].time == now)
                continue;
            hsim_time_t by = 1 + (hsim_time_t)gsl_rng_uniform_int(rng, 50);
            hsim_event_t e = last[j];
            e.time = e.time - by < now ? now : e.time - by;
            e.seq = seq++;
            last[j] = e;
            hsim_reserved_set(&r, &e);
        }
        const hsim_event_t *top = hsim_reserved_peek(&r);
        if (!top)
            continue;
        /* nothing left before it, and it is its job's last */
        if (!same_event(top, &last[top->job]) || model_cmp(top, &prev) < 0)
            bad++;
        for (int32_t j = 0; j < JOBS; j++)
            if (has[j] && model_cmp(&last[j], top) < 0)
                bad++;
        prev = *top;
        now = top->time;
        has[top->job] = 0;
        hsim_reserved_remove(&r, top->job);
        out++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(out, JOBS);
    CU_ASSERT_PTR_NULL(hsim_reserved_peek(&r));
    hsim_reserved_free(&r);
    free(last);
    free(has);
    gsl_rng_free(rng);
}

/* A replaced reservation leaves no trace of its old time. */
static void test_rheap_replace(void)
{
    hsim_rheap_t h;
    CU_ASSERT_EQUAL_FATAL(hsim_rheap_init(&h, 4), 0);
    hsim_event_t a = {.time = 100, .kind = HSIM_EV_START, .seq = 0, .job = 0};
    hsim_event_t b = {.time = 50, .kind = HSIM_EV_START, .seq = 1, .job = 1};
    hsim_rheap_set(&h, &a);
    hsim_rheap_set(&h, &b);
    CU_ASSERT_EQUAL(hsim_rheap_peek(&h)->job, 1);
    a.time = 10; /* job 0 moves earlier */
    a.seq = 2;
    hsim_rheap_set(&h, &a);
    CU_ASSERT_EQUAL(h.n, 2);
    CU_ASSERT_EQUAL(hsim_rheap_peek(&h)->job, 0);
    CU_ASSERT_EQUAL(hsim_rheap_peek(&h)->time, 10);
    b.time = 5; /* and job 1 earlier still */
    b.seq = 3;
    hsim_rheap_set(&h, &b);
    CU_ASSERT_EQUAL(hsim_rheap_peek(&h)->job, 1);
    hsim_rheap_remove(&h, 1);
    hsim_rheap_remove(&h, 1); /* absent: no effect */
    hsim_rheap_remove(&h, 3);
    CU_ASSERT_EQUAL(h.n, 1);
    CU_ASSERT_EQUAL(hsim_rheap_peek(&h)->job, 0);
    a.time = 1000; /* later */
    a.seq = 4;
    hsim_rheap_set(&h, &a);
    CU_ASSERT_EQUAL(h.n, 1);
    CU_ASSERT_EQUAL(hsim_rheap_peek(&h)->time, 1000);
    hsim_rheap_remove(&h, 0);
    CU_ASSERT_PTR_NULL(hsim_rheap_peek(&h));
    hsim_rheap_free(&h);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("heap");
    HSIM_TEST(s, test_less_order);
    HSIM_TEST(s, test_empty);
    HSIM_TEST(s, test_push_all_pop_all);
    HSIM_TEST(s, test_interleaved_many_ties);
    HSIM_TEST(s, test_interleaved_simulation_like);
    HSIM_TEST(s, test_interleaved_wide_times);
    HSIM_TEST(s, test_reuse_after_empty);
    HSIM_TEST(s, test_push_enomem);
    CU_pSuite r = hsim_test_suite("reservation-heap");
    HSIM_TEST(r, test_rheap_against_model);
    HSIM_TEST(r, test_reserved_against_model);
    HSIM_TEST(r, test_reserved_moves_up);
    HSIM_TEST(r, test_rheap_replace);
}
