/*
 * test_profile.c - the chunked availability profile against a brute-force
 * one (an array of free processors per second) on random operations: bookings
 * and releases (some with a position hint, right or wrong), moves of a
 * booking to an earlier start (see slide() in profile.c), point lookups,
 * the fewest free over a stretch, earliest fits with and without a limit,
 * runs that end at a time and the fewest free over them (with a hint kept
 * from the last one, or a wrong one), and trimming.  Enough operations to
 * split chunks many times over (HSIM_PROFILE_CHUNK steps each).  And chains
 * of reservations that move up one after the other, each into the slot the
 * one before it left, over thousands of steps; and breakpoints that slide
 * across the boundary of two chunks.  And searches for windows far longer
 * than the steps.  And chunks packed again once their steps have mostly
 * gone, and a chunk's bounds after counts taken directly and given back
 * lazily.
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

/* 1 when the profile breaks one of its invariants, said on stderr. */
/* A random hint: chunk in [0, chunks), step in [shift, steps + shift).  The
   two draws are made in turn (an initializer list's order is unspecified,
   so compilers may differ). */
static hsim_ppos_t random_hint(gsl_rng *r, unsigned long chunks, unsigned long steps,
                               int32_t shift)
{
    uint32_t k = (uint32_t)gsl_rng_uniform_int(r, chunks);
    int32_t i = (int32_t)gsl_rng_uniform_int(r, steps) + shift;
    return (hsim_ppos_t){k, i};
}

static int broken(const hsim_profile_t *p)
{
    const char *why = hsim_profile_check(p);
    if (why)
        fprintf(stderr, "\nprofile invariant: %s\n", why);
    return why != NULL;
}

/* Both profiles, all processors free from time 0. */
static void start_both(hsim_profile_t *p, naive_t *n, int32_t capacity)
{
    n->capacity = capacity;
    for (int i = 0; i < HORIZON; i++)
        n->free[i] = capacity;
    CU_ASSERT_FATAL(hsim_profile_init(p, capacity, 0) == 0);
}

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

/* Adds delta over [from, to) to both profiles; hints as conservative
   backfilling passes them. */
static void add_both(hsim_profile_t *p, naive_t *n, int64_t from, int64_t to, int32_t delta,
                     hsim_ppos_t near, hsim_ppos_t where[2])
{
    CU_ASSERT_EQUAL(hsim_profile_add_near(p, S(from), S(to), delta, near, where), 0);
    for (int64_t t = from; t < to; t++)
        n->free[t] += delta;
}

/* Moves booking *b up to start t < b->from in both profiles, as
   conservative backfilling does: only the differences of the two slots
   change (the breakpoints slide).  near: a hint for t; *last (may be
   NULL): a hint for the give-back, then one for the step before its end.
   Returns where the give-back starts. */
static int64_t move_both(hsim_profile_t *p, naive_t *n, booking_t *b, int64_t t,
                         hsim_ppos_t near, hsim_ppos_t *last)
{
    int64_t dur = b->to - b->from;
    int64_t taken = t + dur < b->from ? t + dur : b->from;
    int64_t back = t + dur < b->from ? b->from : t + dur;
    hsim_ppos_t where[2];
    add_both(p, n, t, taken, -b->procs, near, where);
    add_both(p, n, back, b->to, b->procs, last ? *last : HSIM_PPOS_NONE, where);
    if (last)
        *last = (hsim_ppos_t){where[1].k, where[1].i - 1};
    *b = (booking_t){t, t + dur, b->procs};
    return back;
}

static void run_seed(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    naive_t n;
    hsim_profile_t p;
    start_both(&p, &n, 1 + (int32_t)gsl_rng_uniform_int(r, 64));
    booking_t *live = malloc(4000 * sizeof *live);
    size_t n_live = 0;
    int64_t now = 0;
    hsim_ppos_t hint = HSIM_PPOS_NONE; /* run_back() keeps it; now and then spoilt */
    int bad = 0;
    for (int op = 0; op < 4000 && !bad; op++) {
        if ((bad = broken(&p))) /* after the last operation */
            break;
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
            hsim_ppos_t near = random_hint(r, 50, 300, 0);
            if (h < 0.3 && want + dur > now + 1)
                (void)hsim_profile_run_back(&p, S(want + dur), 1, S(now), &hint, &near, NULL);
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
            /* move one up into the free run that ends at its start */
            size_t k = gsl_rng_uniform_int(r, n_live);
            booking_t b = live[k];
            if (b.from <= now + 1)
                continue;
            int64_t t = naive_run_back(&n, b.from, b.procs, now);
            hsim_time_t got = hsim_profile_run_back(&p, S(b.from), b.procs, S(now), &hint, NULL, NULL);
            bad |= got != S(t);
            if (t == b.from)
                continue;
            (void)move_both(&p, &n, &live[k], t, HSIM_PPOS_NONE, NULL);
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
            hsim_time_t got = hsim_profile_earliest_until(&p, S(t), procs, S(dur), S(limit),
                                                          gsl_rng_uniform(r) < 0.5 ? &hint : NULL);
            bad |= want <= limit ? got != S(want) : got <= S(limit) || got > S(want);
            if (gsl_rng_uniform(r) < 0.2)
                hint = random_hint(r, 50, 300, -1);
            if (t > now) { /* the run back to t, and the fewest free over it */
                int32_t fewest = -1, want_fewest = n.capacity;
                int64_t run = naive_run_back(&n, t, procs, now);
                bad |= hsim_profile_run_back(&p, S(t), procs, S(now), &hint, NULL, &fewest) !=
                       S(run);
                for (int64_t u2 = run; u2 < t; u2++)
                    want_fewest = naive_at(&n, u2) < want_fewest ? naive_at(&n, u2) : want_fewest;
                bad |= run < t && fewest != want_fewest;
            }
            int64_t len = 1 + (int64_t)gsl_rng_uniform_int(r, 300);
            int32_t least = n.capacity;
            for (int64_t u2 = t; u2 < t + len; u2++)
                least = naive_at(&n, u2) < least ? naive_at(&n, u2) : least;
            hsim_ppos_t near = random_hint(r, 50, 300, 0);
            bad |= hsim_profile_min(&p, S(t), S(t + len), near) != least;
        }
    }
    bad |= broken(&p);
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
    for (unsigned long seed = 1; seed <= hsim_test_seeds(40); seed++)
        run_seed(seed);
}

static void chain_seed(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    naive_t n;
    hsim_profile_t p;
    start_both(&p, &n, 3);
    hsim_ppos_t where[2];
    /* a background of one-processor bookings: thousands of steps */
    for (int64_t t = 0; t + 1 < HORIZON; t += 2)
        if (gsl_rng_uniform(r) < 0.6)
            add_both(&p, &n, t, t + 1, -1, HSIM_PPOS_NONE, where);
    /* a chain of two-processor reservations, each starting where the one
       before it ends; with the background, 2 are never free inside it */
    enum { MAXC = HORIZON / 2 };
    static booking_t chain[MAXC];
    size_t len = 0;
    int64_t t0 = 100 + (int64_t)gsl_rng_uniform_int(r, 50);
    for (int64_t t = t0; len < MAXC;) {
        int64_t dur = 2 + (int64_t)gsl_rng_uniform_int(r, 9);
        if (t + dur > HORIZON - 100)
            break;
        add_both(&p, &n, t, t + dur, -2, HSIM_PPOS_NONE, where);
        chain[len++] = (booking_t){t, t + dur, 2};
        t += dur;
    }
    CU_ASSERT(hsim_profile_steps(&p) > 10 * HSIM_PROFILE_CHUNK);
    /* the job before the chain ends a little early: 2 more processors
       over [t0 - early, t0), so the chain can move up */
    add_both(&p, &n, t0 - 5, t0, -2, HSIM_PPOS_NONE, where);
    int64_t early = 1 + (int64_t)gsl_rng_uniform_int(r, 3);
    add_both(&p, &n, t0 - early, t0, 2, HSIM_PPOS_NONE, where);
    int bad = 0;
    size_t moved = 0;
    hsim_ppos_t last = HSIM_PPOS_NONE; /* the step before the last give-back's end */
    for (size_t k = 0; k < len && !bad; k++) {
        booking_t b = chain[k];
        hsim_ppos_t before = HSIM_PPOS_NONE, start = HSIM_PPOS_NONE;
        int64_t t = naive_run_back(&n, b.from, b.procs, 0);
        hsim_time_t got = hsim_profile_run_back(&p, S(b.from), b.procs, 0, &before, &start, NULL);
        bad |= got != S(t);
        if (t == b.from)
            continue;
        int64_t back = move_both(&p, &n, &b, t, start, &last);
        moved++;
        bad |= broken(&p);
        for (int j = 0; j < 4; j++) { /* around the two changes */
            int64_t u = (j < 2 ? t : back) + j % 2 - 1;
            bad |= hsim_profile_free_at(&p, S(u)) != naive_at(&n, u);
        }
    }
    CU_ASSERT(moved > len / 2); /* the chain moved up, most of it */
    for (int64_t u = 0; u < HORIZON && !bad; u++)
        bad |= hsim_profile_free_at(&p, S(u)) != naive_at(&n, u);
    for (int j = 0; j < 200 && !bad; j++) { /* the chunks' bounds still hold */
        int64_t from = (int64_t)gsl_rng_uniform_int(r, HORIZON - 1);
        int32_t procs = 1 + (int32_t)gsl_rng_uniform_int(r, 3);
        int64_t dur = 1 + (int64_t)gsl_rng_uniform_int(r, 12);
        bad |= hsim_profile_earliest(&p, S(from), procs, S(dur)) !=
               S(naive_earliest(&n, from, procs, dur));
    }
    if (bad)
        fprintf(stderr, "\nchain moves differ from the brute force, seed %lu\n", seed);
    CU_ASSERT_FALSE(bad);
    hsim_profile_free(&p);
    gsl_rng_free(r);
}

static void test_chain_moves(void)
{
    for (unsigned long seed = 1; seed <= hsim_test_seeds(20); seed++)
        chain_seed(seed);
}

/* A breakpoint slides across the boundary of two chunks: an addition that
   makes the last step of a chunk partly equal to the first of the next,
   or to the step before it, inserts no step. */
static void test_slide_across_chunks(void)
{
    naive_t n;
    hsim_profile_t p;
    start_both(&p, &n, 4);
    /* 3 free over [3i, 3i + 1), 4 over [3i + 1, 3i + 3) */
    for (int64_t t = 0; t + 3 < HORIZON; t += 3)
        add_both(&p, &n, t, t + 1, -1, HSIM_PPOS_NONE, NULL);
    CU_ASSERT_FATAL(p.nc > 10);
    int slid_next = 0, slid_prev = 0;
    for (size_t k = 1; k < p.nc; k++) {
        const hsim_pchunk_t *c = p.c[k - 1];
        int64_t last = c->t[c->n - 1] / HSIM_SECOND, end = p.first[k] / HSIM_SECOND;
        if (end - last < 2 || c->n < 2)
            continue; /* the last step is [3i, 3i + 1), or alone */
        size_t steps = hsim_profile_steps(&p);
        if (k % 2) { /* [end - 1, end) becomes like the next chunk's first */
            add_both(&p, &n, end - 1, end, naive_at(&n, end) - naive_at(&n, end - 1),
                     HSIM_PPOS_NONE, NULL);
            CU_ASSERT_EQUAL(p.first[k], S(end - 1));
            slid_next++;
        } else { /* [last, last + 1) becomes like the step before it */
            add_both(&p, &n, last, last + 1, naive_at(&n, last - 1) - naive_at(&n, last),
                     HSIM_PPOS_NONE, NULL);
            slid_prev++;
        }
        CU_ASSERT_EQUAL(hsim_profile_steps(&p), steps);
        CU_ASSERT_FALSE(broken(&p));
    }
    CU_ASSERT(slid_next > 2 && slid_prev > 2);
    int bad = 0;
    for (int64_t u = 0; u < HORIZON; u++)
        bad |= hsim_profile_free_at(&p, S(u)) != naive_at(&n, u);
    for (int64_t from = 0; from < HORIZON - 20; from += 7)
        bad |= hsim_profile_earliest(&p, S(from), 4, S(2)) != S(naive_earliest(&n, from, 4, 2));
    CU_ASSERT_FALSE(bad);
    hsim_profile_free(&p);
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
    CU_ASSERT_EQUAL(hsim_profile_earliest_until(&p, 0, 4, S(3), S(100), NULL) > S(100), 1);
    CU_ASSERT_FALSE(broken(&p));
    hsim_profile_trim(&p, S(4500));
    CU_ASSERT_EQUAL(hsim_profile_free_at(&p, S(4500)), 4 - 1 - 1500 % 3);
    hsim_profile_free(&p);
}

/* naive_earliest() in one pass: the start of the first run of seconds with
   procs free that lasts dur (long windows make the nested loops slow). */
static int64_t naive_earliest_run(const naive_t *n, int64_t from, int32_t procs, int64_t dur)
{
    int64_t start = from;
    for (int64_t t = from; t < HORIZON; t++) {
        if (n->free[t] < procs)
            start = t + 1;
        else if (t + 1 - start >= dur)
            return start;
    }
    return start < HORIZON ? start : HORIZON; /* the tail is all free */
}

/*
 * Windows far longer than the steps: the search checks each window from
 * its end and jumps past the last step in it with too few free, passing
 * over chunks free enough all through.  Stretches of dense small bookings
 * (steps every few seconds), of one big booking, and free ones of several
 * chunks' length; searches from anywhere, with limits or none, and runs of
 * searches that resume where the last one stopped with the hint it left,
 * as the shape cache of conservative backfilling makes them.
 */
static void long_windows_seed(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    naive_t n;
    hsim_profile_t p;
    start_both(&p, &n, 8);
    for (int64_t t = 0; t < HORIZON - 10;) {
        double u = gsl_rng_uniform(r);
        int64_t len = 200 + (int64_t)gsl_rng_uniform_int(r, 600);
        if (t + len > HORIZON - 10)
            len = HORIZON - 10 - t;
        if (u < 0.6) { /* dense: a booking every few seconds */
            for (int64_t b = t; b + 1 < t + len; b += 1 + (int64_t)gsl_rng_uniform_int(r, 4)) {
                int64_t d = 1 + (int64_t)gsl_rng_uniform_int(r, 3);
                int32_t procs = 1 + (int32_t)gsl_rng_uniform_int(r, 6);
                if (b + d > t + len)
                    d = t + len - b;
                if (naive_at(&n, b) >= procs)
                    add_both(&p, &n, b, b + d, -procs, HSIM_PPOS_NONE, NULL);
            }
        } else if (u < 0.8) { /* one big booking */
            add_both(&p, &n, t, t + len, -(1 + (int32_t)gsl_rng_uniform_int(r, 8)),
                     HSIM_PPOS_NONE, NULL);
        } /* else free */
        t += len;
    }
    CU_ASSERT(p.nc > 5);
    int bad = broken(&p);
    for (int q = 0; q < 300 && !bad; q++) {
        int64_t from = (int64_t)gsl_rng_uniform_int(r, HORIZON - 1);
        int32_t procs = 1 + (int32_t)gsl_rng_uniform_int(r, 8);
        int64_t dur = 1 + (int64_t)gsl_rng_uniform_int(r, 1500);
        int64_t want = naive_earliest_run(&n, from, procs, dur);
        hsim_ppos_t hint = HSIM_PPOS_NONE;
        if (q % 3 == 1)
            hint = random_hint(r, 80, 130, -1);
        /* limits that grow, each search from where the last one stopped */
        int64_t limit = from, at = from;
        while (!bad) {
            limit += (int64_t)gsl_rng_uniform_int(r, 800);
            hsim_time_t got = hsim_profile_earliest_until(&p, S(at), procs, S(dur), S(limit),
                                                          q % 3 ? &hint : NULL);
            if (want <= limit) {
                bad |= got != S(want);
                break;
            }
            bad |= got <= S(limit) || got > S(want) || got < S(at);
            at = got / HSIM_SECOND;
        }
        bad |= hsim_profile_earliest(&p, S(from), procs, S(dur)) != S(want);
    }
    if (bad)
        fprintf(stderr, "\nlong windows differ from the brute force, seed %lu\n", seed);
    CU_ASSERT_FALSE(bad);
    hsim_profile_free(&p);
    gsl_rng_free(r);
}

static void test_long_windows(void)
{
    for (unsigned long seed = 1; seed <= hsim_test_seeds(20); seed++)
        long_windows_seed(seed);
}

/* 1 when the two profiles differ at some second, in a window search or in
   a run back (from the hint *hint, which it updates). */
static int differ(hsim_profile_t *p, const naive_t *n, hsim_ppos_t *hint)
{
    int bad = broken(p);
    for (int64_t t = 0; t < HORIZON; t++)
        bad |= hsim_profile_free_at(p, S(t)) != naive_at(n, t);
    for (int64_t from = 0; from < HORIZON - 100; from += 97) {
        for (int32_t procs = 1; procs <= n->capacity; procs++) {
            bad |= hsim_profile_earliest(p, S(from), procs, S(3)) != S(naive_earliest(n, from, procs, 3));
            bad |= hsim_profile_run_back(p, S(from + 50), procs, S(from), hint, NULL, NULL) !=
                   S(naive_run_back(n, from + 50, procs, from));
        }
    }
    return bad;
}

/* Both profiles on 4 processors with one taken every 3 s, 1,900 times:
   nearly 4,000 steps over dozens of chunks. */
static void start_spaced(hsim_profile_t *p, naive_t *n)
{
    start_both(p, n, 4);
    for (int64_t i = 0; i < 1900; i++)
        add_both(p, n, 3 * i, 3 * i + 1, -1, HSIM_PPOS_NONE, NULL);
}

/* Chunks whose steps have mostly gone are packed again at a trim: the
   same steps after it (counts kept lazily folded in, equal neighbours that
   two chunks held made one), fewer chunks, hints made before it still
   good for any lookup, and later changes split the new chunks as usual. */
static void test_repack(void)
{
    naive_t n;
    hsim_profile_t p;
    start_spaced(&p, &n);
    add_both(&p, &n, 2, HORIZON - 2, -1, HSIM_PPOS_NONE, NULL); /* lazy in every chunk it spans whole */
    size_t dense = p.nc;
    CU_ASSERT(dense >= 40);
    hsim_ppos_t hint = HSIM_PPOS_NONE;
    CU_ASSERT_EQUAL(hsim_profile_run_back(&p, S(5000), 3, 0, &hint, NULL, NULL), S(4999));
    for (int64_t i = 0; i < 1900; i++)
        if (i % 10)
            add_both(&p, &n, 3 * i, 3 * i + 1, 1, HSIM_PPOS_NONE, NULL);
    CU_ASSERT_EQUAL(p.nc, dense); /* steps went, chunks stayed */
    hsim_profile_trim(&p, 0);
    CU_ASSERT(p.nc < dense / 4);
    CU_ASSERT_FALSE(differ(&p, &n, &hint));
    for (int64_t i = 0; i < 1900; i += 2) /* many new steps: splits */
        add_both(&p, &n, 3 * i + 1, 3 * i + 2, -2, HSIM_PPOS_NONE, NULL);
    CU_ASSERT(p.nc > 10);
    CU_ASSERT_FALSE(differ(&p, &n, &hint));
    hsim_profile_free(&p);
}

/* A chunk's largest count is a bound, lowered only when needed: a chunk
   whose every step loses a processor and that then gets it back lazily,
   with the others between two chunks, must not read as over capacity. */
static void test_lazy_after_take(void)
{
    naive_t n;
    hsim_profile_t p;
    start_spaced(&p, &n);
    CU_ASSERT_FATAL(p.nc >= 4);
    size_t nc = p.nc;
    for (size_t k = 1; k + 1 < nc; k++) /* each chunk's steps, directly */
        add_both(&p, &n, p.first[k] / HSIM_SECOND, p.first[k + 1] / HSIM_SECOND, -1,
                 HSIM_PPOS_NONE, NULL);
    int64_t from = p.first[1] / HSIM_SECOND, to = p.first[nc - 1] / HSIM_SECOND;
    add_both(&p, &n, from, to, 1, HSIM_PPOS_NONE, NULL); /* lazily between */
    hsim_ppos_t hint = HSIM_PPOS_NONE;
    CU_ASSERT_FALSE(differ(&p, &n, &hint));
    hsim_profile_free(&p);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("profile");
    HSIM_TEST(s, test_against_brute_force);
    HSIM_TEST(s, test_chain_moves);
    HSIM_TEST(s, test_slide_across_chunks);
    HSIM_TEST(s, test_many_chunks);
    HSIM_TEST(s, test_long_windows);
    HSIM_TEST(s, test_repack);
    HSIM_TEST(s, test_lazy_after_take);
}
