/*
 * profile.c - the availability profile.  See profile.h.
 */
#include "profile.h"

#include <string.h>

int hsim_profile_init(hsim_profile_t *p, int32_t capacity, hsim_time_t origin)
{
    memset(p, 0, sizeof *p);
    p->capacity = capacity;
    p->cap = 64;
    p->t = hsim_malloc(p->cap * sizeof *p->t);
    p->free = hsim_malloc(p->cap * sizeof *p->free);
    if (!p->t || !p->free) {
        hsim_profile_free(p);
        return HSIM_ENOMEM;
    }
    p->t[0] = origin;
    p->free[0] = capacity;
    p->n = 1;
    return 0;
}

void hsim_profile_free(hsim_profile_t *p)
{
    hsim_free(p->t);
    hsim_free(p->free);
    p->t = NULL;
    p->free = NULL;
    p->n = p->cap = 0;
}

/* The last i in [lo, hi) with t[i] <= t, given t[lo] <= t (or lo = 0). */
static size_t search(const hsim_profile_t *p, hsim_time_t t, size_t lo, size_t hi)
{
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->t[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Index of the step holding time t: the last i with t[i] <= t. */
static size_t step_of(const hsim_profile_t *p, hsim_time_t t)
{
    return search(p, t, 0, p->n);
}

static int reserve_room(hsim_profile_t *p, size_t extra)
{
    if (p->n + extra <= p->cap)
        return 0;
    size_t cap = p->cap;
    if (hsim_grow(&p->t, &cap, p->n + extra, sizeof *p->t))
        return HSIM_ENOMEM;
    cap = p->cap;
    if (hsim_grow(&p->free, &cap, p->n + extra, sizeof *p->free))
        return HSIM_ENOMEM;
    p->cap = cap;
    return 0;
}

/* Makes a breakpoint at t (t >= t[0]) and returns its index. */
static size_t split_at(hsim_profile_t *p, hsim_time_t t)
{
    size_t i = step_of(p, t);
    if (p->t[i] == t)
        return i;
    memmove(&p->t[i + 2], &p->t[i + 1], (p->n - i - 1) * sizeof *p->t);
    memmove(&p->free[i + 2], &p->free[i + 1], (p->n - i - 1) * sizeof *p->free);
    p->t[i + 1] = t;
    p->free[i + 1] = p->free[i];
    p->n++;
    return i + 1;
}

/* Removes breakpoint i when its step equals the one before it. */
static int merge_at(hsim_profile_t *p, size_t i)
{
    if (i == 0 || i >= p->n || p->free[i] != p->free[i - 1])
        return 0;
    memmove(&p->t[i], &p->t[i + 1], (p->n - i - 1) * sizeof *p->t);
    memmove(&p->free[i], &p->free[i + 1], (p->n - i - 1) * sizeof *p->free);
    p->n--;
    return 1;
}

int hsim_profile_add(hsim_profile_t *p, hsim_time_t from, hsim_time_t to, int32_t delta)
{
    HSIM_ASSERT(from < to && from >= p->t[0]);
    if (reserve_room(p, 2))
        return HSIM_ENOMEM;
    size_t a = split_at(p, from);
    size_t b = split_at(p, to);
    for (size_t i = a; i < b; i++) {
        p->free[i] += delta;
        HSIM_ASSERT(p->free[i] >= 0 && p->free[i] <= p->capacity);
    }
    /* steps strictly inside kept their differences; only the ends can merge */
    merge_at(p, b);
    merge_at(p, a);
    return 0;
}

size_t hsim_profile_step_near(const hsim_profile_t *p, hsim_time_t t, size_t *finger)
{
    size_t f = *finger < p->n ? *finger : p->n - 1;
    size_t lo, hi; /* the answer is in [lo, hi): t[lo] <= t, t[hi] > t or hi = n */
    if (p->t[f] <= t) {
        size_t step = 1;
        lo = f;
        hi = f + 1;
        while (hi < p->n && p->t[hi] <= t) {
            lo = hi;
            hi = lo + step;
            step *= 2;
        }
        if (hi > p->n)
            hi = p->n;
    } else {
        size_t step = 1;
        hi = f;
        lo = f >= 1 ? f - 1 : 0;
        while (lo > 0 && p->t[lo] > t) {
            hi = lo;
            lo = lo >= step ? lo - step : 0;
            step *= 2;
        }
    }
    *finger = search(p, t, lo, hi);
    return *finger;
}

int32_t hsim_profile_free_at(const hsim_profile_t *p, hsim_time_t t)
{
    return p->free[step_of(p, t)];
}

hsim_time_t hsim_profile_earliest_until(const hsim_profile_t *p, hsim_time_t from,
                                        int32_t procs, hsim_time_t dur, hsim_time_t limit)
{
    HSIM_ASSERT(procs <= p->capacity);
    size_t i = step_of(p, from);
    hsim_time_t cand = from;
    for (; i < p->n && cand <= limit; i++) {
        if (p->free[i] < procs) {
            cand = i + 1 < p->n ? p->t[i + 1] : cand;
            continue;
        }
        if (i + 1 == p->n || cand + dur <= p->t[i + 1])
            return cand;
    }
    return cand; /* > limit, or the last step, where all are free */
}

hsim_time_t hsim_profile_earliest(const hsim_profile_t *p, hsim_time_t from,
                                  int32_t procs, hsim_time_t dur)
{
    return hsim_profile_earliest_until(p, from, procs, dur, HSIM_TIME_MAX);
}

void hsim_profile_trim(hsim_profile_t *p, hsim_time_t now)
{
    size_t i = step_of(p, now);
    if (i == 0)
        return;
    memmove(p->t, p->t + i, (p->n - i) * sizeof *p->t);
    memmove(p->free, p->free + i, (p->n - i) * sizeof *p->free);
    p->n -= i;
}
