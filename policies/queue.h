/*
 * queue.h - a scheduler's waiting queue, kept in the order of an hsim_order.
 *
 * Jobs leave from anywhere (backfilling), so removal leaves a hole (-1) that
 * is skipped and compacted away once holes outnumber jobs: a pass that stops
 * early then costs only what it scanned.  Insertion is a binary search and a
 * memmove, O(n).  Orders that change with time are re-sorted by
 * hsim_queue_resort() before a pass.
 */
#ifndef HSIM_QUEUE_H
#define HSIM_QUEUE_H

#include "policy.h"

typedef struct hsim_queue {
    int32_t *ids;        /* job indices in order; -1 = a hole */
    size_t n;            /* slots used, holes included */
    size_t cap;
    size_t holes;        /* -1 entries among ids[0..n) */
    size_t first;        /* no live entry before this slot */
    const hsim_order_t *order;
} hsim_queue_t;

void hsim_queue_init(hsim_queue_t *q, const hsim_order_t *order);
void hsim_queue_free(hsim_queue_t *q);
/* Inserts job at its place in the order.  0 or HSIM_ENOMEM. */
int hsim_queue_insert(hsim_queue_t *q, const hsim_vjob_t *jobs, int32_t job,
                      hsim_time_t now);
/* Removes the entry at slot i (which must be live), leaving a hole: slots
   of the other entries do not move, so a pass can remove as it scans. */
void hsim_queue_remove_at(hsim_queue_t *q, size_t i);
/* Compacts when holes outnumber jobs; call between passes.  O(n) then,
   so O(1) amortised per removal. */
void hsim_queue_tidy(hsim_queue_t *q);
/* Live jobs. */
static inline size_t hsim_queue_size(const hsim_queue_t *q) { return q->n - q->holes; }
/* Compacts and sorts by the order at time now.  0 or HSIM_ENOMEM.
   O(n log n). */
int hsim_queue_resort(hsim_queue_t *q, const hsim_vjob_t *jobs, hsim_time_t now);
/* Sorts ids[0..n) by order at time now (stable).  0 or HSIM_ENOMEM. */
int hsim_order_sort(int32_t *ids, size_t n, const hsim_vjob_t *jobs,
                    const hsim_order_t *order, hsim_time_t now);
/* Copies the live jobs, in order, into out (room for hsim_queue_size()). */
void hsim_queue_copy(const hsim_queue_t *q, int32_t *out);

#endif
