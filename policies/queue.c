/*
 * queue.c - the ordered waiting queue with holes.  See queue.h.
 */
#include "queue.h"

#include <stdlib.h>
#include <string.h>

void hsim_queue_init(hsim_queue_t *q, const hsim_order_t *order)
{
    memset(q, 0, sizeof *q);
    q->order = order;
}

void hsim_queue_free(hsim_queue_t *q)
{
    hsim_free(q->ids);
    hsim_queue_init(q, q->order);
}

static void compact(hsim_queue_t *q)
{
    size_t k = 0;
    for (size_t i = q->first; i < q->n; i++)
        if (q->ids[i] >= 0)
            q->ids[k++] = q->ids[i];
    q->n = k;
    q->holes = 0;
    q->first = 0;
}

int hsim_queue_insert(hsim_queue_t *q, const hsim_vjob_t *jobs, int32_t job,
                      hsim_time_t now)
{
    if (q->holes)
        compact(q); /* binary search needs a hole-free array */
    if (hsim_grow(&q->ids, &q->cap, q->n + 1, sizeof *q->ids))
        return HSIM_ENOMEM;
    size_t lo = 0, hi = q->n;
    /* Appending is the common case (FCFS): test the end first. */
    if (hi == 0 || q->order->compare(jobs, q->ids[hi - 1], job, now) < 0) {
        lo = hi;
    } else {
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (q->order->compare(jobs, q->ids[mid], job, now) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    memmove(&q->ids[lo + 1], &q->ids[lo], (q->n - lo) * sizeof *q->ids);
    q->ids[lo] = job;
    q->n++;
    return 0;
}

void hsim_queue_remove_at(hsim_queue_t *q, size_t i)
{
    HSIM_ASSERT(i < q->n && q->ids[i] >= 0);
    q->ids[i] = -1;
    q->holes++;
    if (i == q->first)
        while (q->first < q->n && q->ids[q->first] < 0)
            q->first++;
    if (q->first == q->n)
        q->n = q->first = q->holes = 0;
}

void hsim_queue_tidy(hsim_queue_t *q)
{
    if (q->holes > 32 && q->holes > q->n / 2)
        compact(q);
}

/* qsort has no context argument, so a stable merge sort of its own. */
static void merge_sort(int32_t *a, int32_t *tmp, size_t n, const hsim_vjob_t *jobs,
                       const hsim_order_t *o, hsim_time_t now)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    merge_sort(a, tmp, h, jobs, o, now);
    merge_sort(a + h, tmp, n - h, jobs, o, now);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = o->compare(jobs, a[j], a[i], now) < 0 ? a[j++] : a[i++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

int hsim_order_sort(int32_t *ids, size_t n, const hsim_vjob_t *jobs,
                    const hsim_order_t *order, hsim_time_t now)
{
    if (n < 2)
        return 0;
    int32_t *tmp = hsim_malloc(n * sizeof *tmp);
    if (!tmp)
        return HSIM_ENOMEM;
    merge_sort(ids, tmp, n, jobs, order, now);
    hsim_free(tmp);
    return 0;
}

int hsim_queue_resort(hsim_queue_t *q, const hsim_vjob_t *jobs, hsim_time_t now)
{
    compact(q);
    return hsim_order_sort(q->ids, q->n, jobs, q->order, now);
}

void hsim_queue_copy(const hsim_queue_t *q, int32_t *out)
{
    size_t k = 0;
    for (size_t i = q->first; i < q->n; i++)
        if (q->ids[i] >= 0)
            out[k++] = q->ids[i];
}
