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
