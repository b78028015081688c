/*
 * heap.c - binary min-heap of events.  See heap.h.
 */
#include "heap.h"

#include <gsl/gsl_statistics_long.h>

_Static_assert(sizeof(long) == sizeof(hsim_time_t), "times are selected as longs");

void hsim_heap_init(hsim_heap_t *h)
{
    h->ev = NULL;
    h->n = h->cap = 0;
}

void hsim_heap_free(hsim_heap_t *h)
{
    hsim_free(h->ev);
    hsim_heap_init(h);
}

int hsim_heap_push(hsim_heap_t *h, const hsim_event_t *e)
{
    if (hsim_grow(&h->ev, &h->cap, h->n + 1, sizeof *h->ev))
        return HSIM_ENOMEM;
    size_t i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!hsim_event_less(e, &h->ev[parent]))
            break;
        h->ev[i] = h->ev[parent];
        i = parent;
    }
    h->ev[i] = *e;
    return 0;
}

int hsim_heap_pop(hsim_heap_t *h, hsim_event_t *out)
{
    if (!h->n)
        return -1;
    *out = h->ev[0];
    hsim_event_t last = h->ev[--h->n];
    size_t i = 0, n = h->n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && hsim_event_less(&h->ev[c + 1], &h->ev[c]))
            c++;
        if (!hsim_event_less(&h->ev[c], &last))
            break;
        h->ev[i] = h->ev[c];
        i = c;
    }
    if (n)
        h->ev[i] = last;
    return 0;
}

/* Room in *slot (a job index of n entries) for n_jobs, the new ones -1.
   0 or HSIM_ENOMEM (then it is as it was). */
static int grow_job_index(int32_t **slot, size_t n, size_t n_jobs)
{
    int32_t *more = hsim_realloc(*slot, n_jobs * sizeof *more);
    if (!more)
        return HSIM_ENOMEM;
    for (size_t i = n; i < n_jobs; i++)
        more[i] = -1;
    *slot = more;
    return 0;
}

/* A slot by job for n_jobs jobs, each -1 (no entry); NULL when out of
   memory. */
static int32_t *new_job_index(size_t n_jobs)
{
    int32_t *slot = NULL;
    return grow_job_index(&slot, 0, n_jobs) ? NULL : slot;
}

int hsim_rheap_init(hsim_rheap_t *h, size_t n_jobs)
{
    h->n = 0;
    h->n_jobs = n_jobs;
    h->ev = hsim_malloc(n_jobs * sizeof *h->ev);
    h->pos = new_job_index(n_jobs);
    if (!h->ev || !h->pos) {
        hsim_rheap_free(h);
        return HSIM_ENOMEM;
    }
    return 0;
}

void hsim_rheap_free(hsim_rheap_t *h)
{
    hsim_free(h->ev);
    hsim_free(h->pos);
    h->ev = NULL;
    h->pos = NULL;
    h->n = h->n_jobs = 0;
}

static void put(hsim_rheap_t *h, size_t i, const hsim_event_t *e)
{
    h->ev[i] = *e;
    h->pos[e->job] = (int32_t)i;
}

static void sift_up(hsim_rheap_t *h, size_t i, hsim_event_t e)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!hsim_event_less(&e, &h->ev[parent]))
            break;
        put(h, i, &h->ev[parent]);
        i = parent;
    }
    put(h, i, &e);
}

static void sift_down(hsim_rheap_t *h, size_t i, hsim_event_t e)
{
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && hsim_event_less(&h->ev[c + 1], &h->ev[c]))
            c++;
        if (!hsim_event_less(&h->ev[c], &e))
            break;
        put(h, i, &h->ev[c]);
        i = c;
    }
    put(h, i, &e);
}

void hsim_rheap_place(hsim_rheap_t *h, const hsim_event_t *e)
{
    int32_t at = h->pos[e->job];
    if (at < 0) {
        sift_up(h, h->n++, *e);
    } else if (hsim_event_less(e, &h->ev[at])) {
        sift_up(h, (size_t)at, *e);
    } else {
        sift_down(h, (size_t)at, *e);
    }
}

void hsim_rheap_remove(hsim_rheap_t *h, int32_t job)
{
    int32_t at = h->pos[job];
    if (at < 0)
        return;
    h->pos[job] = -1;
    hsim_event_t last = h->ev[--h->n];
    if ((size_t)at == h->n)
        return;
    if (hsim_event_less(&last, &h->ev[at]))
        sift_up(h, (size_t)at, last);
    else
        sift_down(h, (size_t)at, last);
}

/* Pooled entries a move of the horizon brings into the heap, at least:
   a selection costs O(pool), so one in 16 of them keeps it O(1) for each
   that comes out. */
#define RESERVED_BATCH 64
#define RESERVED_SHARE 16

int hsim_rheap_grow(hsim_rheap_t *h, size_t n_jobs)
{
    if (n_jobs <= h->n_jobs)
        return 0;
    hsim_event_t *ev = hsim_realloc(h->ev, n_jobs * sizeof *ev);
    if (!ev)
        return HSIM_ENOMEM;
    h->ev = ev;
    if (grow_job_index(&h->pos, h->n_jobs, n_jobs))
        return HSIM_ENOMEM;
    h->n_jobs = n_jobs;
    return 0;
}

int hsim_reserved_grow(hsim_reserved_t *r, size_t n_jobs)
{
    size_t n = r->near.n_jobs;
    if (n_jobs <= n)
        return 0;
    hsim_event_t *far = hsim_realloc(r->far, n_jobs * sizeof *far);
    if (far)
        r->far = far;
    long *times = far ? hsim_realloc(r->times, n_jobs * sizeof *times) : NULL;
    if (times)
        r->times = times;
    if (!times || grow_job_index(&r->far_at, n, n_jobs))
        return HSIM_ENOMEM;
    return hsim_rheap_grow(&r->near, n_jobs);
}

int hsim_reserved_init(hsim_reserved_t *r, size_t n_jobs)
{
    r->n_far = 0;
    r->horizon = -HSIM_TIME_MAX; /* every entry pooled until the first peek */
    r->far = hsim_malloc(n_jobs * sizeof *r->far);
    r->far_at = new_job_index(n_jobs);
    r->times = hsim_malloc(n_jobs * sizeof *r->times);
    if (hsim_rheap_init(&r->near, n_jobs) || !r->far || !r->far_at || !r->times) {
        hsim_reserved_free(r);
        return HSIM_ENOMEM;
    }
    return 0;
}

void hsim_reserved_free(hsim_reserved_t *r)
{
    hsim_rheap_free(&r->near);
    hsim_free(r->far);
    hsim_free(r->far_at);
    hsim_free(r->times);
    r->far = NULL;
    r->far_at = NULL;
    r->times = NULL;
    r->n_far = 0;
}

/* Takes the pooled entry in slot k out of the pool. */
static void unpool(hsim_reserved_t *r, int32_t k)
{
    r->far_at[r->far[k].job] = -1;
    hsim_event_t last = r->far[--r->n_far];
    if ((size_t)k < r->n_far) {
        r->far[k] = last;
        r->far_at[last.job] = k;
    }
}

void hsim_reserved_place(hsim_reserved_t *r, const hsim_event_t *e)
{
    int32_t k = r->far_at[e->job];
    if (k >= 0) {
        unpool(r, k); /* it comes before the horizon now */
    } else if (r->near.pos[e->job] < 0 && e->time >= r->horizon) {
        r->far_at[e->job] = (int32_t)r->n_far;
        r->far[r->n_far++] = *e;
        return;
    }
    hsim_rheap_set(&r->near, e);
}

void hsim_reserved_remove(hsim_reserved_t *r, int32_t job)
{
    int32_t k = r->far_at[job];
    if (k >= 0)
        unpool(r, k);
    else
        hsim_rheap_remove(&r->near, job);
}

/* Moves the horizon past the next pooled entries and brings every pooled
   entry before it into the heap, whose least is then before it too. */
static void move_horizon(hsim_reserved_t *r)
{
    size_t want = r->n_far / RESERVED_SHARE;
    if (want < RESERVED_BATCH)
        want = RESERVED_BATCH;
    if (want > r->n_far)
        want = r->n_far;
    for (size_t i = 0; i < r->n_far; i++)
        r->times[i] = r->far[i].time;
    hsim_time_t h = gsl_stats_long_select(r->times, 1, r->n_far, want - 1) + 1;
    r->horizon = h;
    for (size_t i = r->n_far; i-- > 0;) {
        if (r->far[i].time < h) {
            hsim_event_t e = r->far[i];
            unpool(r, (int32_t)i);
            hsim_rheap_set(&r->near, &e);
        }
    }
}

const hsim_event_t *hsim_reserved_peek(hsim_reserved_t *r)
{
    const hsim_event_t *top = hsim_rheap_peek(&r->near);
    if (r->n_far && (!top || top->time >= r->horizon)) {
        move_horizon(r);
        top = hsim_rheap_peek(&r->near);
    }
    return top;
}
