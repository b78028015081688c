/*
 * heap.c - binary min-heap of events.  See heap.h.
 */
#include "heap.h"

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

int hsim_rheap_init(hsim_rheap_t *h, size_t n_jobs)
{
    h->n = 0;
    h->n_jobs = n_jobs;
    h->ev = hsim_malloc(n_jobs * sizeof *h->ev);
    h->pos = hsim_malloc(n_jobs * sizeof *h->pos);
    if (!h->ev || !h->pos) {
        hsim_rheap_free(h);
        return HSIM_ENOMEM;
    }
    for (size_t i = 0; i < n_jobs; i++)
        h->pos[i] = -1;
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
