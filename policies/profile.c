/*
 * profile.c - the availability profile in chunks.  See profile.h.
 *
 * A step is addressed by (chunk k, index i); its free count is
 * c[k]->free[i] + c[k]->lazy.  Chunks do not merge as steps go: a chunk
 * only empties by trimming, and equal neighbours across a chunk boundary
 * stay two steps, which costs a little room and nothing in correctness;
 * when the chunks have become sparse, all the steps are packed again
 * (repack()).  Lookups start from a hint: a caller's (hsim_ppos_t, which
 * counts chunks from the first one ever, so trimming does not move it), or
 * else the chunk of the previous lookup.  A right hint, or one a step
 * short, is answered without a search; others gallop from it.
 */
#include "profile.h"

#include <string.h>

typedef struct pos {
    size_t k;   /* index in c[] */
    int32_t i;  /* step in the chunk */
} pos_t;

static hsim_ppos_t hint_of(const hsim_profile_t *p, pos_t q)
{
    return (hsim_ppos_t){(uint32_t)(q.k + p->base), q.i};
}

static int32_t value(const hsim_profile_t *p, size_t k, int32_t i)
{
    return p->c[k]->free[i] + p->c[k]->lazy;
}

static void chunk_bounds(hsim_pchunk_t *c)
{
    int32_t lo = c->free[0], hi = c->free[0];
    for (int32_t i = 1; i < c->n; i++) {
        lo = c->free[i] < lo ? c->free[i] : lo;
        hi = c->free[i] > hi ? c->free[i] : hi;
    }
    c->min = lo;
    c->max = hi;
}

int hsim_profile_init(hsim_profile_t *p, int32_t capacity, hsim_time_t origin)
{
    memset(p, 0, sizeof *p);
    p->capacity = capacity;
    p->capc = 8;
    p->c = hsim_malloc(p->capc * sizeof *p->c);
    p->first = hsim_malloc(p->capc * sizeof *p->first);
    hsim_pchunk_t *c = hsim_malloc(sizeof *c);
    if (!p->c || !p->first || !c) {
        hsim_free(c);
        hsim_free(p->c);
        hsim_free(p->first);
        p->c = NULL;
        p->first = NULL;
        return HSIM_ENOMEM;
    }
    c->n = 1;
    c->lazy = 0;
    c->t[0] = origin;
    c->free[0] = c->max = c->min = capacity;
    p->c[0] = c;
    p->first[0] = origin;
    p->nc = 1;
    p->steps = 1;
    return 0;
}

void hsim_profile_free(hsim_profile_t *p)
{
    for (size_t k = 0; k < p->nc; k++)
        hsim_free(p->c[k]);
    hsim_free(p->c);
    hsim_free(p->first);
    p->c = NULL;
    p->first = NULL;
    p->nc = p->capc = 0;
}

/* The chunk holding time t: the last k with c[k]->t[0] <= t (0 if none),
   galloping from *finger, which it updates. */
static size_t chunk_from(hsim_profile_t *p, hsim_time_t t, size_t *finger)
{
    size_t f = *finger < p->nc ? *finger : p->nc - 1;
    size_t lo, hi, step = 1;
    const hsim_time_t *first = p->first;
    if (first[f] <= t) {
        lo = f;
        hi = f + 1;
        while (hi < p->nc && first[hi] <= t) {
            lo = hi;
            hi = lo + step;
            step *= 2;
        }
        if (hi > p->nc)
            hi = p->nc;
    } else {
        hi = f;
        lo = f >= 1 ? f - 1 : 0;
        while (lo > 0 && first[lo] > t) {
            hi = lo;
            lo = lo >= step ? lo - step : 0;
            step *= 2;
        }
    }
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (first[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    *finger = lo;
    return lo;
}


/* The last i < n with t[i] <= x, given t[0] <= x: a binary search whose
   steps are conditional moves, not branches (which the processor cannot
   predict here: half of them go each way). */
static int32_t last_at_or_before(const hsim_time_t *t, int32_t n, hsim_time_t x)
{
    const hsim_time_t *base = t;
    while (n > 1) {
        int32_t half = n / 2;
        base = base[half] <= x ? base + half : base;
        n -= half;
    }
    return (int32_t)(base - t);
}

/* The last i < n with t[i] <= x, given t[from] <= x: gallops up from
   'from', so a step a few places on is found in a few comparisons. */
static int32_t last_from(const hsim_time_t *t, int32_t n, int32_t from, hsim_time_t x)
{
    int32_t lo = from, step = 1;
    while (lo + step < n && t[lo + step] <= x) {
        lo += step;
        step *= 2;
    }
    int32_t hi = lo + step < n ? lo + step : n;
    return lo + last_at_or_before(t + lo, hi - lo, x);
}

/* The last i with t[i] <= x, given t[0] <= x < t[from]: gallops down
   from 'from'. */
static int32_t last_below(const hsim_time_t *t, int32_t from, hsim_time_t x)
{
    int32_t hi = from, step = 1;
    while (hi - step > 0 && t[hi - step] > x) {
        hi -= step;
        step *= 2;
    }
    int32_t lo = hi - step > 0 ? hi - step : 0;
    return lo + last_at_or_before(t + lo, hi - lo, x);
}

/* locate_from() when the hint is not the step or the one before it. */
static pos_t locate_search(hsim_profile_t *p, hsim_time_t t, hsim_ppos_t *hint, size_t near)
{
    size_t k = chunk_from(p, t, &near);
    const hsim_pchunk_t *c = p->c[k];
    int32_t i, h = hint->i;
    if (c->t[0] > t)
        i = 0; /* before the first step: only at the start of the profile */
    else if ((uint32_t)(k + p->base) != hint->k || h < 0 || h >= c->n)
        i = last_at_or_before(c->t, c->n, t);
    else if (c->t[h] <= t)
        i = last_from(c->t, c->n, h, t);
    else
        i = last_below(c->t, h, t);
    pos_t q = {k, i};
    *hint = hint_of(p, q);
    return q;
}

/* The step holding t, from the hint *hint, which it updates.  Most hints
   name the step or the one before it: that case is inline and answered
   after two comparisons, the search is not. */
static inline pos_t locate_from(hsim_profile_t *p, hsim_time_t t, hsim_ppos_t *hint)
{
    int32_t rel = (int32_t)(hint->k - (uint32_t)p->base); /* < 0: trimmed */
    size_t near = rel < 0 ? 0 : (size_t)rel;
    if (near < p->nc) {
        const hsim_pchunk_t *c = p->c[near];
        int32_t h = hint->i;
        if (h >= 0 && h < c->n && c->t[h] <= t) {
            h += h + 1 < c->n && c->t[h + 1] <= t;
            hsim_time_t end = h + 1 < c->n ? c->t[h + 1]
                              : near + 1 < p->nc ? p->first[near + 1] : HSIM_TIME_MAX;
            if (t < end) {
                pos_t q = {near, h};
                *hint = hint_of(p, q);
                return q;
            }
        }
    }
    return locate_search(p, t, hint, near);
}

static pos_t locate(hsim_profile_t *p, hsim_time_t t)
{
    p->finger.i = INT32_MAX; /* the chunk only: these lookups jump about */
    return locate_from(p, t, &p->finger);
}

/* Moves the upper half of full chunk k into a new chunk after it. */
static int split_chunk(hsim_profile_t *p, size_t k)
{
    if (p->nc == p->capc) {
        size_t cap = p->capc;
        if (hsim_grow(&p->c, &cap, p->nc + 1, sizeof *p->c))
            return HSIM_ENOMEM;
        cap = p->capc;
        if (hsim_grow(&p->first, &cap, p->nc + 1, sizeof *p->first))
            return HSIM_ENOMEM;
        p->capc = cap;
    }
    hsim_pchunk_t *d = hsim_malloc(sizeof *d);
    if (!d)
        return HSIM_ENOMEM;
    hsim_pchunk_t *c = p->c[k];
    int32_t h = c->n / 2;
    d->n = c->n - h;
    d->lazy = c->lazy;
    memcpy(d->t, c->t + h, (size_t)d->n * sizeof *d->t);
    memcpy(d->free, c->free + h, (size_t)d->n * sizeof *d->free);
    c->n = h;
    chunk_bounds(c);
    chunk_bounds(d);
    memmove(&p->c[k + 2], &p->c[k + 1], (p->nc - k - 1) * sizeof *p->c);
    memmove(&p->first[k + 2], &p->first[k + 1], (p->nc - k - 1) * sizeof *p->first);
    p->c[k + 1] = d;
    p->first[k + 1] = d->t[0];
    p->nc++;
    return 0;
}

/* Makes a breakpoint at t (t >= the first one) in step q, the step holding
   t; *at gets its position.  Returns 2 when a chunk was split (other
   positions changed), else 0; or HSIM_ENOMEM (negative). */
static int split_in(hsim_profile_t *p, pos_t q, hsim_time_t t, pos_t *at)
{
    hsim_pchunk_t *c = p->c[q.k];
    *at = q;
    if (c->t[q.i] == t)
        return 0;
    int split = 0;
    if (c->n == HSIM_PROFILE_CHUNK) {
        int rc = split_chunk(p, q.k);
        if (rc)
            return rc;
        split = 2;
        q = locate(p, t);
        c = p->c[q.k];
    }
    int32_t j = q.i + 1;
    memmove(&c->t[j + 1], &c->t[j], (size_t)(c->n - j) * sizeof *c->t);
    memmove(&c->free[j + 1], &c->free[j], (size_t)(c->n - j) * sizeof *c->free);
    c->t[j] = t;
    c->free[j] = c->free[q.i];
    c->n++;
    p->steps++;
    *at = (pos_t){q.k, j};
    return split;
}

/* The same, looking for t from *hint (which it updates). */
static int split_at(hsim_profile_t *p, hsim_time_t t, hsim_ppos_t *hint, pos_t *at)
{
    return split_in(p, locate_from(p, t, hint), t, at);
}

/* Removes step q when it equals the step before it in its chunk. */
static void merge_at(hsim_profile_t *p, pos_t q)
{
    hsim_pchunk_t *c = p->c[q.k];
    if (q.i < 1 || q.i >= c->n || c->free[q.i] != c->free[q.i - 1])
        return;
    memmove(&c->t[q.i], &c->t[q.i + 1], (size_t)(c->n - q.i - 1) * sizeof *c->t);
    memmove(&c->free[q.i], &c->free[q.i + 1], (size_t)(c->n - q.i - 1) * sizeof *c->free);
    c->n--; /* the equal step before it stays: max and min are unchanged */
    p->steps--;
}

/* Keeps chunk c's bounds after delta was added to some of its counts, lo
   and hi the least and largest of them after the change (fewer processors
   leave the upper bound true, more the lower one), and checks that they
   stay within 0..capacity. */
static void keep_bounds(hsim_pchunk_t *c, int32_t lo, int32_t hi, int32_t delta,
                        int32_t capacity)
{
    HSIM_ASSERT(lo + c->lazy >= 0 && hi + c->lazy <= capacity);
    if (delta > 0) {
        if (hi > c->max)
            c->max = hi;
    } else if (lo < c->min) {
        c->min = lo;
    }
}

/* Adds delta to steps [from, to) of chunk c and keeps its bounds.  The
   loop has no exits, so the compiler can vectorise it. */
static void add_steps(hsim_pchunk_t *c, int32_t from, int32_t to, int32_t delta,
                      int32_t capacity)
{
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (int32_t i = from; i < to; i++) {
        int32_t v = c->free[i] + delta;
        c->free[i] = v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (from < to)
        keep_bounds(c, lo, hi, delta, capacity);
}

int hsim_profile_add(hsim_profile_t *p, hsim_time_t from, hsim_time_t to, int32_t delta)
{
    return hsim_profile_add_near(p, from, to, delta, HSIM_PPOS_NONE, NULL);
}

/*
 * An addition over [from, to) inside step q that makes that stretch equal
 * to the step before it (from is q's start; that step in q's chunk) or
 * after it (to is q's end; that step in the same chunk or the first of
 * the next) only slides the breakpoint between them: q now starts at to,
 * or the next step at from.  No step is inserted or removed and each
 * chunk's counts stay the same set, so its bounds hold.  This is how a
 * chain of reservations moves up in conservative backfilling, each into
 * the slot its predecessor left.  Returns 1 when done so, with *a and *b
 * the steps holding from and to.
 */
static int slide(hsim_profile_t *p, pos_t q, hsim_time_t from, hsim_time_t to, int32_t delta,
                 pos_t *a, pos_t *b)
{
    hsim_pchunk_t *c = p->c[q.k];
    int32_t i = q.i;
    pos_t next = {q.k, i + 1}; /* the step after q, and where it starts */
    if (i + 1 == c->n) {
        if (q.k + 1 == p->nc)
            return 0; /* q is the last step, every processor free */
        next = (pos_t){q.k + 1, 0};
    }
    hsim_time_t end = next.i ? c->t[next.i] : p->first[next.k];
    if (to > end || c->t[i] > from)
        return 0; /* not inside q */
    int32_t v = c->free[i] + delta;
    if (c->t[i] == from && i > 0 && to < end && c->free[i - 1] == v) {
        c->t[i] = to;
        *a = (pos_t){q.k, i - 1};
        *b = q;
        return 1;
    }
    if (to == end && c->t[i] < from && value(p, next.k, next.i) == v + c->lazy) {
        p->c[next.k]->t[next.i] = from;
        if (next.i == 0)
            p->first[next.k] = from;
        *a = next;
        *b = next.i + 1 < p->c[next.k]->n ? (pos_t){next.k, next.i + 1} : next;
        return 1;
    }
    return 0;
}

/*
 * An addition over [from, to) where from is the start of step q, which
 * becomes equal to the step before it, and to falls inside a later step m
 * of the same chunk: the breakpoint at from goes and one at to comes.  The
 * steps between shift down one place as they change, instead of a merge
 * and a split that each move the rest of the chunk.  (This is how a move
 * takes a run of free processors that spans several steps.)  Returns 1
 * when done so, with *a and *b the steps holding from and to.
 */
static int shift_down(hsim_profile_t *p, pos_t q, hsim_time_t from, hsim_time_t to,
                      int32_t delta, pos_t *a, pos_t *b)
{
    hsim_pchunk_t *c = p->c[q.k];
    int32_t i = q.i, n = c->n;
    if (i == 0 || c->t[i] != from || c->free[i - 1] != c->free[i] + delta)
        return 0;
    int32_t m = i;
    while (m + 1 < n && c->t[m + 1] < to)
        m++;
    if (m + 1 < n ? to == c->t[m + 1] : q.k + 1 == p->nc || to >= p->first[q.k + 1])
        return 0; /* to is a breakpoint already, or past the chunk */
    /* the changed counts: steps i..m plus delta (step i's now equals the
       one before it) */
    int32_t last = c->free[m], lo = c->free[i] + delta, hi = lo;
    for (int32_t j = i; j < m; j++) {
        int32_t v = c->free[j + 1] + delta;
        c->t[j] = c->t[j + 1];
        c->free[j] = v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    c->t[m] = to;
    c->free[m] = last;
    keep_bounds(c, lo, hi, delta, p->capacity);
    *a = (pos_t){q.k, i - 1};
    *b = (pos_t){q.k, m};
    return 1;
}

int hsim_profile_add_near(hsim_profile_t *p, hsim_time_t from, hsim_time_t to, int32_t delta,
                          hsim_ppos_t near, hsim_ppos_t where[2])
{
    HSIM_ASSERT(from < to && from >= p->first[0]);
    if (near.k == UINT32_MAX) {
        near = p->finger;
        near.i = INT32_MAX; /* the chunk only: adds jump about */
    }
    pos_t a, b, q = locate_from(p, from, &near);
    if (slide(p, q, from, to, delta, &a, &b) || shift_down(p, q, from, to, delta, &a, &b)) {
        p->finger = hint_of(p, a);
        if (where) {
            where[0] = hint_of(p, a);
            where[1] = hint_of(p, b);
        }
        return 0;
    }
    int rc = split_in(p, q, from, &a);
    if (rc < 0)
        return rc;
    hsim_ppos_t after = hint_of(p, a); /* to lies a little after from */
    if ((rc = split_at(p, to, &after, &b)) < 0)
        return rc;
    if (rc == 2) /* a chunk was split: from may have moved */
        a = locate(p, from);
    p->finger = hint_of(p, a);
    HSIM_ASSERT(p->c[a.k]->t[a.i] == from && p->c[b.k]->t[b.i] == to);
    if (a.k == b.k) {
        add_steps(p->c[a.k], a.i, b.i, delta, p->capacity);
    } else {
        add_steps(p->c[a.k], a.i, p->c[a.k]->n, delta, p->capacity);
        for (size_t k = a.k + 1; k < b.k; k++) {
            hsim_pchunk_t *c = p->c[k];
            c->lazy += delta;
            if (c->max + c->lazy > p->capacity)
                chunk_bounds(c); /* max is a bound: make it exact */
            HSIM_ASSERT(c->max + c->lazy <= p->capacity);
        }
        add_steps(p->c[b.k], 0, b.i, delta, p->capacity);
    }
    if (where) {
        where[0] = hint_of(p, a);
        where[1] = hint_of(p, b);
    }
    merge_at(p, b); /* b first: removing it does not move a */
    merge_at(p, a);
    return 0;
}

int32_t hsim_profile_free_at(hsim_profile_t *p, hsim_time_t t)
{
    pos_t q = locate(p, t);
    return value(p, q.k, q.i);
}

int32_t hsim_profile_min(hsim_profile_t *p, hsim_time_t from, hsim_time_t to,
                         hsim_ppos_t near)
{
    pos_t q = locate_from(p, from, &near);
    int32_t least = INT32_MAX;
    size_t k = q.k;
    int32_t i = q.i;
    while (p->c[k]->t[i] < to) { /* the first step holds from < to */
        int32_t v = value(p, k, i);
        least = v < least ? v : least;
        if (++i == p->c[k]->n) {
            if (++k == p->nc)
                break;
            i = 0;
        }
    }
    return least;
}

/* The end of step (k, i). */
static hsim_time_t step_end(const hsim_profile_t *p, size_t k, int32_t i)
{
    const hsim_pchunk_t *c = p->c[k];
    return i + 1 < c->n ? c->t[i + 1] : k + 1 < p->nc ? p->first[k + 1] : HSIM_TIME_MAX;
}

/*
 * A window [cand, cand + dur) is checked from its end down: the last step
 * in it with too few processors free rules out every start up to that
 * step's end, so the next candidate starts there, and the steps between it
 * and the old window's end, just seen free enough, are not looked at again.
 * A long window jumps over the full steps in it instead of walking them.
 */
hsim_time_t hsim_profile_earliest_until(hsim_profile_t *p, hsim_time_t from, int32_t procs,
                                        hsim_time_t dur, hsim_time_t limit, hsim_ppos_t *near)
{
    HSIM_ASSERT(procs <= p->capacity && dur > 0); /* dur 0 would not end */
    hsim_time_t cand = from;
    hsim_time_t seen = from; /* [cand, seen) is free enough where seen > cand */
    hsim_ppos_t none = HSIM_PPOS_NONE;
    hsim_ppos_t *hint = near ? near : &none;
    while (cand <= limit) {
        hsim_time_t end = dur < HSIM_TIME_MAX - cand ? cand + dur : HSIM_TIME_MAX;
        hsim_time_t low = seen > cand ? seen : cand; /* look at [low, end) */
        pos_t q = locate_from(p, end - 1, hint); /* each end is later */
        size_t k = q.k;
        int32_t i = q.i;
        for (;; k--, i = p->c[k]->n - 1) { /* chunk k from step i down */
            hsim_pchunk_t *c = p->c[k];
            if (c->min + c->lazy >= procs) { /* free enough all through */
                if (c->t[0] <= low)
                    return cand;
                continue;
            }
            while (c->free[i] + c->lazy >= procs && c->t[i] > low && i > 0)
                i--;
            if (c->free[i] + c->lazy < procs)
                break;
            if (c->t[i] <= low)
                return cand;
        }
        seen = end;
        cand = step_end(p, k, i);
    }
    return cand;
}

hsim_time_t hsim_profile_earliest(hsim_profile_t *p, hsim_time_t from, int32_t procs,
                                  hsim_time_t dur)
{
    return hsim_profile_earliest_until(p, from, procs, dur, HSIM_TIME_MAX, NULL);
}

hsim_time_t hsim_profile_run_back(hsim_profile_t *p, hsim_time_t at, int32_t procs,
                                  hsim_time_t now, hsim_ppos_t *before, hsim_ppos_t *start,
                                  int32_t *least)
{
    pos_t q = locate_from(p, at - 1, before);
    int32_t fewest = value(p, q.k, q.i);
    if (fewest < procs)
        return at;
    size_t k = q.k;
    int32_t i = q.i;
    hsim_time_t t;
    for (;;) {
        t = p->c[k]->t[i];
        if (t <= now) {
            t = now;
            break;
        }
        if (i == 0 && k == 0)
            break;
        size_t pk = i > 0 ? k : k - 1;
        int32_t pi = i > 0 ? i - 1 : p->c[pk]->n - 1;
        int32_t v = value(p, pk, pi);
        if (v < procs)
            break;
        fewest = v < fewest ? v : fewest;
        k = pk;
        i = pi;
    }
    if (start)
        *start = hint_of(p, (pos_t){k, i});
    if (least)
        *least = fewest;
    return t;
}

/*
 * Chunks never merge as steps go, so a profile whose steps come and go in
 * place ends up with many chunks holding a few steps each, and every
 * lookup gallops over them (docs/performance.md has RICC-2010's counts).  So when the chunks hold fewer than
 * REPACK_BELOW steps on average, the steps are packed again, REPACK_FILL
 * to a chunk, which leaves room to grow before a chunk splits.  O(steps),
 * rare (after each, steps must come and go for a long while before the
 * chunks are sparse again).  Every hint made before it becomes a wrong
 * one, which only costs a search.
 */
#define REPACK_FILL 48
#define REPACK_BELOW 24
#define REPACK_MIN_CHUNKS 8

static void repack(hsim_profile_t *p)
{
    size_t old = p->nc, m = (p->steps + REPACK_FILL - 1) / REPACK_FILL;
    hsim_pchunk_t **fresh = hsim_calloc(m, sizeof *fresh);
    for (size_t j = 0; fresh && j < m; j++) {
        if (!(fresh[j] = hsim_malloc(sizeof *fresh[j]))) {
            while (j--)
                hsim_free(fresh[j]);
            hsim_free(fresh);
            fresh = NULL;
        }
    }
    if (!fresh)
        return; /* no memory: the chunks stay as they are, which is only slower */
    size_t d = 0;
    fresh[0]->n = 0;
    int32_t last = -1;
    for (size_t k = 0; k < old; k++) {
        hsim_pchunk_t *c = p->c[k];
        for (int32_t i = 0; i < c->n; i++) {
            int32_t v = c->free[i] + c->lazy;
            if (v == last)
                continue; /* equal steps that two chunks held: one now */
            if (fresh[d]->n == REPACK_FILL)
                fresh[++d]->n = 0;
            hsim_pchunk_t *e = fresh[d];
            e->t[e->n] = c->t[i];
            e->free[e->n++] = v;
            last = v;
        }
        hsim_free(c);
    }
    p->steps = 0;
    for (size_t j = 0; j < m; j++) {
        if (j > d) {
            hsim_free(fresh[j]); /* not needed after those merges */
            continue;
        }
        fresh[j]->lazy = 0;
        chunk_bounds(fresh[j]);
        p->c[j] = fresh[j];
        p->first[j] = fresh[j]->t[0];
        p->steps += (size_t)fresh[j]->n;
    }
    hsim_free(fresh);
    p->nc = d + 1;
    p->base += old; /* hints name chunks never used again: wrong ones */
    p->finger = (hsim_ppos_t){(uint32_t)p->base, 0};
}

void hsim_profile_trim(hsim_profile_t *p, hsim_time_t now)
{
    pos_t q = locate(p, now);
    for (size_t k = 0; k < q.k; k++) {
        p->steps -= (size_t)p->c[k]->n;
        hsim_free(p->c[k]);
    }
    if (q.k) {
        memmove(p->c, p->c + q.k, (p->nc - q.k) * sizeof *p->c);
        memmove(p->first, p->first + q.k, (p->nc - q.k) * sizeof *p->first);
        p->nc -= q.k;
        p->base += q.k;
    }
    hsim_pchunk_t *c = p->c[0];
    if (q.i > 0) {
        memmove(c->t, c->t + q.i, (size_t)(c->n - q.i) * sizeof *c->t);
        memmove(c->free, c->free + q.i, (size_t)(c->n - q.i) * sizeof *c->free);
        c->n -= q.i;
        p->steps -= (size_t)q.i;
        chunk_bounds(c);
        p->first[0] = c->t[0];
    }
    p->finger = (hsim_ppos_t){p->base, 0};
    if (p->nc >= REPACK_MIN_CHUNKS && p->steps < p->nc * REPACK_BELOW)
        repack(p);
}

size_t hsim_profile_steps(const hsim_profile_t *p)
{
    return p->steps; /* hsim_profile_check() counts them over the chunks */
}

const char *hsim_profile_check(const hsim_profile_t *p)
{
    if (p->nc < 1 || p->nc > p->capc)
        return "chunk count out of range";
    size_t n_steps = 0;
    for (size_t k = 0; k < p->nc; k++) {
        const hsim_pchunk_t *c = p->c[k];
        if (c->n < 1 || c->n > HSIM_PROFILE_CHUNK)
            return "a chunk's step count is out of range";
        if (p->first[k] != c->t[0])
            return "first[] differs from a chunk's first step";
        if (k > 0 && p->c[k - 1]->t[p->c[k - 1]->n - 1] >= c->t[0])
            return "steps out of order across chunks";
        int32_t most = c->free[0];
        for (int32_t i = 0; i < c->n; i++) {
            if (i > 0 && c->t[i - 1] >= c->t[i])
                return "steps out of order in a chunk";
            if (i > 0 && c->free[i - 1] == c->free[i])
                return "two equal steps side by side in a chunk";
            if (c->free[i] + c->lazy < 0 || c->free[i] + c->lazy > p->capacity)
                return "a free count is out of 0..capacity";
            if (c->free[i] < c->min)
                return "a chunk's lower bound is above one of its steps";
            most = c->free[i] > most ? c->free[i] : most;
        }
        if (c->max < most)
            return "a chunk's max is below its largest step";
        n_steps += (size_t)c->n;
    }
    if (n_steps != p->steps)
        return "the step count is wrong";
    const hsim_pchunk_t *last = p->c[p->nc - 1];
    if (last->free[last->n - 1] + last->lazy != p->capacity)
        return "the last step does not have every processor free";
    return NULL;
}
