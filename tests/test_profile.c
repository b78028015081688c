/*
 * test_profile.c - the chunked availability profile against a brute-force
 * one (an array of free processors per second) on random operations: bookings
 * and releases (some with a position hint, right or wrong), moves of a
 * booking to an earlier start (see slide() in profile.c), point lookups,
 * the fewest free over a stretch, earliest fits with and without a limit,
 * runs that end at a time (with a hint kept from the last one, or a wrong
 * one), and trimming.  Enough operations to split chunks many times
 * over (HSIM_PROFILE_CHUNK steps each).
 */
#include "harness.h"

#include "policies/profile.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>

enum { HORIZON = 6000 }; /* seconds the brute force models; the tail is free */

typedef struct naive {
    int32_t free[HORIZON];
    int32_t capacity;
} naive_t;

static hsim_time_t S(int64_t s) { return s * HSIM_SECOND; }

static int32_t naive_at(const naive_t *n, int64_t s) { return s < HORIZON ? n->free[s] : n->capacity; }

static int64_t naive_earliest(const naive_t *n, int64_t from, int32_t procs, int64_t dur)
{
    for (int64_t t = from;; t++) {
        int ok = 1;
        for (int64_t u = t; u < t + dur && u < HORIZON && ok; u++)
            ok = n->free[u] >= procs;
        if (ok)
            return t;
    }
}

static int64_t naive_run_back(const naive_t *n, int64_t at, int32_t procs, int64_t now)
{
    if (naive_at(n, at - 1) < procs)
        return at;
    int64_t t = at - 1;
    while (t > now && naive_at(n, t - 1) >= procs)
        t--;
    return t;
}

typedef struct booking {
    int64_t from, to;
    int32_t procs;
} booking_t;

static void run_seed(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    naive_t n;
    n.capacity = 1 + (int32_t)gsl_rng_uniform_int(r, 64);
    for (int i = 0; i < HORIZON; i++)
        n.free[i] = n.capacity;
    hsim_profile_t p;
    CU_ASSERT_FATAL(hsim_profile_init(&p, n.capacity, 0) == 0);
    booking_t *live = malloc(4000 * sizeof *live);
    size_t n_live = 0;
    int64_t now = 0;
    hsim_ppos_t hint = HSIM_PPOS_NONE; /* run_back() keeps it; now and then spoilt */
    int bad = 0;
    for (int op = 0; op < 4000 && !bad; op++) {
        double u = gsl_rng_uniform(r);
        if (u < 0.45 && n_live < 4000) { /* book at the earliest fit */
            int32_t procs = 1 + (int32_t)gsl_rng_uniform_int(r, (unsigned long)n.capacity);
            int64_t dur = 1 + (int64_t)gsl_rng_uniform_int(r, 300);
            int64_t from = now + (int64_t)gsl_rng_uniform_int(r, 200);
            int64_t want = naive_earliest(&n, from, procs, dur);
            hsim_time_t got = hsim_profile_earliest(&p, S(from), procs, S(dur));
            if (got != S(want) || want + dur > HORIZON) {
                bad |= got != S(want);
                continue;
            }
            /* a hint: none, where a run back from the end starts, or junk */
            double h = gsl_rng_uniform(r);
            hsim_ppos_t near = {gsl_rng_uniform_int(r, 50), (int32_t)gsl_rng_uniform_int(r, 300)};
            if (h < 0.3 && want + dur > now + 1)
                (void)hsim_profile_run_back(&p, S(want + dur), 1, S(now), &hint, &near);
            CU_ASSERT_EQUAL(h < 0.6 ? hsim_profile_add_near(&p, S(want), S(want + dur), -procs, near, NULL)
                                    : hsim_profile_add(&p, S(want), S(want + dur), -procs),
                            0);
            for (int64_t t = want; t < want + dur; t++)
                n.free[t] -= procs;
            live[n_live++] = (booking_t){want, want + dur, procs};
        } else if (u < 0.65 && n_live) { /* give back the rest of one */
            size_t k = gsl_rng_uniform_int(r, n_live);
            booking_t b = live[k];
            live[k] = live[--n_live];
            int64_t from = b.from > now ? b.from : now;
            if (from < b.to) {
                CU_ASSERT_EQUAL(hsim_profile_add(&p, S(from), S(b.to), b.procs), 0);
                for (int64_t t = from; t < b.to; t++)
                    n.free[t] += b.procs;
            }
        } else if (u < 0.75 && n_live) {
            /* move one up into the free run that ends at its start, as
               conservative backfilling does: only the differences of
               the two slots change (the breakpoints slide) */
            size_t k = gsl_rng_uniform_int(r, n_live);
            booking_t b = live[k];
            if (b.from <= now + 1)
                continue;
            int64_t t = naive_run_back(&n, b.from, b.procs, now);
            hsim_time_t got = hsim_profile_run_back(&p, S(b.from), b.procs, S(now), &hint, NULL);
            bad |= got != S(t);
            if (t == b.from)
                continue;
            int64_t dur = b.to - b.from, taken = t + dur < b.from ? t + dur : b.from;
            int64_t back = t + dur < b.from ? b.from : t + dur;
            CU_ASSERT_EQUAL(hsim_profile_add(&p, S(t), S(taken), -b.procs), 0);
            CU_ASSERT_EQUAL(hsim_profile_add(&p, S(back), S(b.to), b.procs), 0);
            for (int64_t u2 = t; u2 < taken; u2++)
                n.free[u2] -= b.procs;
            for (int64_t u2 = back; u2 < b.to; u2++)
                n.free[u2] += b.procs;
            live[k] = (booking_t){t, t + dur, b.procs};
        } else if (u < 0.80) { /* time passes */
            now += (int64_t)gsl_rng_uniform_int(r, 20);
            hsim_profile_trim(&p, S(now));
            size_t k = 0;
            for (size_t i = 0; i < n_live; i++)
                if (live[i].to > now)
                    live[k++] = live[i];
            n_live = k;
        } else { /* queries */
            int64_t t = now + (int64_t)gsl_rng_uniform_int(r, HORIZON - now > 1 ? (unsigned long)(HORIZON - now - 1) : 1);
            bad |= hsim_profile_free_at(&p, S(t)) != naive_at(&n, t);
            int32_t procs = 1 + (int32_t)gsl_rng_uniform_int(r, (unsigned long)n.capacity);
            int64_t dur = 1 + (int64_t)gsl_rng_uniform_int(r, 200);
            int64_t limit = t + (int64_t)gsl_rng_uniform_int(r, 400);
            int64_t want = naive_earliest(&n, t, procs, dur);
            hsim_time_t got = hsim_profile_earliest_until(&p, S(t), procs, S(dur), S(limit));
            bad |= want <= limit ? got != S(want) : got <= S(limit) || got > S(want);
            if (gsl_rng_uniform(r) < 0.2)
                hint = (hsim_ppos_t){gsl_rng_uniform_int(r, 50), (int32_t)gsl_rng_uniform_int(r, 300) - 1};
            if (t > now)
                bad |= hsim_profile_run_back(&p, S(t), procs, S(now), &hint, NULL) !=
                       S(naive_run_back(&n, t, procs, now));
            int64_t len = 1 + (int64_t)gsl_rng_uniform_int(r, 300);
            int32_t least = n.capacity;
            for (int64_t u2 = t; u2 < t + len; u2++)
                least = naive_at(&n, u2) < least ? naive_at(&n, u2) : least;
            hsim_ppos_t near = {gsl_rng_uniform_int(r, 50), (int32_t)gsl_rng_uniform_int(r, 300)};
            bad |= hsim_profile_min(&p, S(t), S(t + len), near) != least;
        }
    }
    if (bad)
        fprintf(stderr, "\nprofile differs from the brute force, seed %lu\n", seed);
    CU_ASSERT_FALSE(bad);
    CU_ASSERT(hsim_profile_steps(&p) >= 1);
    free(live);
    hsim_profile_free(&p);
    gsl_rng_free(r);
}

static void test_against_brute_force(void)
{
    for (unsigned long seed = 1; seed <= 40; seed++)
        run_seed(seed);
}

static void test_many_chunks(void)
{
    /* 2,000 bookings of one processor at distinct times: far more steps than
       one chunk holds; every lookup must still land on the right step */
    hsim_profile_t p;
    CU_ASSERT_FATAL(hsim_profile_init(&p, 4, 0) == 0);
    for (int64_t i = 0; i < 2000; i++)
        CU_ASSERT_EQUAL(hsim_profile_add(&p, S(3 * i), S(3 * i + 1), -1 - (int32_t)(i % 3)), 0);
    CU_ASSERT(hsim_profile_steps(&p) > 3 * HSIM_PROFILE_CHUNK);
    int bad = 0;
    for (int64_t i = 0; i < 2000; i++) {
        bad |= hsim_profile_free_at(&p, S(3 * i)) != 4 - 1 - (int32_t)(i % 3);
        bad |= hsim_profile_free_at(&p, S(3 * i + 1)) != 4;
        bad |= hsim_profile_free_at(&p, S(3 * i + 2)) != 4;
    }
    CU_ASSERT_FALSE(bad);
    /* 3 processors for 2 s fit at once (3 free at 0, 4 at 1); 4 for 3 s
       only after the last booking, [5997, 5998), since every gap between
       bookings is 2 s long */
    CU_ASSERT_EQUAL(hsim_profile_earliest(&p, 0, 3, S(2)), 0);
    CU_ASSERT_EQUAL(hsim_profile_earliest(&p, S(3), 3, S(2)), S(4)); /* 2 free at 3 */
    CU_ASSERT_EQUAL(hsim_profile_earliest(&p, 0, 4, S(3)), S(5998));
    CU_ASSERT_EQUAL(hsim_profile_earliest_until(&p, 0, 4, S(3), S(100)) > S(100), 1);
    hsim_profile_trim(&p, S(4500));
    CU_ASSERT_EQUAL(hsim_profile_free_at(&p, S(4500)), 4 - 1 - 1500 % 3);
    hsim_profile_free(&p);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("profile");
    HSIM_TEST(s, test_against_brute_force);
    HSIM_TEST(s, test_many_chunks);
}
