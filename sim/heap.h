/*
 * heap.h - the event heap: a binary min-heap ordered by (time, kind, seq).
 *
 * seq is the order in which events were created, so events of one kind at
 * one time come out in creation order: the run is deterministic whatever the
 * heap's internal layout.  Push and pop are O(log n); peek is O(1).
 */
#ifndef HSIM_HEAP_H
#define HSIM_HEAP_H

#include "common.h"

/* Event kinds, first to last at one time (DESIGN.md). */
typedef enum hsim_event_kind {
    HSIM_EV_EXPIRY = 0,  /* a running job reached its prediction */
    HSIM_EV_SUBMIT = 1,  /* a job arrives */
    HSIM_EV_END = 2,     /* a job terminates */
    HSIM_EV_START = 3,   /* a reserved start time comes */
    HSIM_EV_REPAIR = 4,  /* a failed node is up again (job = the node) */
    HSIM_EV_FAIL = 5,    /* a node fails (job = the node) */
    HSIM_EV_WAKE = 6,    /* a scheduler's timer (decide->wake(); job -1) */
} hsim_event_kind_t;

typedef struct hsim_event {
    hsim_time_t time;   /* when it happens */
    int64_t seq;        /* creation order, unique */
    int32_t job;        /* job index */
    int32_t kind;       /* hsim_event_kind_t */
} hsim_event_t;

typedef struct hsim_heap {
    hsim_event_t *ev;   /* ev[0] is the least */
    size_t n;
    size_t cap;
} hsim_heap_t;

/* a < b in (time, kind, seq) order. */
static inline int hsim_event_less(const hsim_event_t *a, const hsim_event_t *b)
{
    if (a->time != b->time)
        return a->time < b->time;
    if (a->kind != b->kind)
        return a->kind < b->kind;
    return a->seq < b->seq;
}

void hsim_heap_init(hsim_heap_t *h);
void hsim_heap_free(hsim_heap_t *h);
/* 0 or HSIM_ENOMEM.  O(log n). */
int hsim_heap_push(hsim_heap_t *h, const hsim_event_t *e);
/* Removes the least event into *out; 0, or -1 when empty.  O(log n). */
int hsim_heap_pop(hsim_heap_t *h, hsim_event_t *out);
/* The least event, or NULL when empty.  O(1). */
static inline const hsim_event_t *hsim_heap_peek(const hsim_heap_t *h)
{
    return h->n ? &h->ev[0] : NULL;
}

/*
 * An indexed heap of pending reserved starts: at most one entry per job,
 * ordered like events.  Setting a job's reservation again replaces its
 * entry in place (conservative backfilling moves reservations millions of
 * times on big traces; a plain heap would fill with stale entries).
 * Set, remove and pop are O(log n); peek is O(1).
 */
typedef struct hsim_rheap {
    hsim_event_t *ev;   /* ev[0] is the least */
    size_t n;
    int32_t *pos;       /* slot of each job's entry, -1 when none */
    size_t n_jobs;      /* jobs indexable: 0..n_jobs-1 */
} hsim_rheap_t;

/* Room for n_jobs jobs.  0 or HSIM_ENOMEM; free with hsim_rheap_free. */
int hsim_rheap_init(hsim_rheap_t *h, size_t n_jobs);
/* Room for n_jobs jobs (more than it had: else nothing).  0 or HSIM_ENOMEM
   (then it holds what it held, with the room it had). */
int hsim_rheap_grow(hsim_rheap_t *h, size_t n_jobs);
void hsim_rheap_free(hsim_rheap_t *h);
/* hsim_rheap_set() when the entry may have to move. */
void hsim_rheap_place(hsim_rheap_t *h, const hsim_event_t *e);
/* Overwrites entry x, its job's already, with e: field by field, so that
   no wide load waits for the caller's narrow stores to *e. */
static inline void hsim_event_renew(hsim_event_t *x, const hsim_event_t *e)
{
    x->time = e->time;
    x->seq = e->seq;
    x->kind = e->kind;
}

/* Inserts e, or replaces the entry of job e->job.  Inline for the common
   case of conservative backfilling, a reservation made a little earlier
   that still comes after its parent's: the entry changes in place (nearly
   every call on a long trace). */
static inline void hsim_rheap_set(hsim_rheap_t *h, const hsim_event_t *e)
{
    HSIM_ASSERT(e->job >= 0 && (size_t)e->job < h->n_jobs);
    int32_t at = h->pos[e->job];
    if (at >= 0 && hsim_event_less(e, &h->ev[at]) &&
        (at == 0 || !hsim_event_less(e, &h->ev[(at - 1) / 2]))) {
        hsim_event_renew(&h->ev[at], e);
        return;
    }
    hsim_rheap_place(h, e);
}
/* Removes job's entry, if it has one. */
void hsim_rheap_remove(hsim_rheap_t *h, int32_t job);
static inline const hsim_event_t *hsim_rheap_peek(const hsim_rheap_t *h)
{
    return h->n ? &h->ev[0] : NULL;
}

/*
 * Pending reserved starts, as an indexed heap of the near ones and a pool,
 * in no order, of the far ones: every pooled entry is at or after
 * 'horizon'.  Conservative backfilling moves reservations tens of millions
 * of times on a long trace, most of them of jobs far back in the queue
 * (docs/performance.md has RICC-2010's counts): a pooled entry
 * changes in place, with one store, where the heap would compare it with
 * its parent (two loads from anywhere in the heap).  When the heap runs dry
 * of entries before the horizon, the horizon moves on so that the next few
 * dozen pooled entries come into the heap (a selection over the pool,
 * O(pool)).  What comes out is the same as from one heap: the least entry
 * in (time, kind, seq) order.
 */
typedef struct hsim_reserved {
    hsim_rheap_t near;     /* the entries before horizon, and some after */
    hsim_event_t *far;     /* the others, each at or after horizon */
    size_t n_far;
    int32_t *far_at;       /* slot in far of each job's entry, -1 when none */
    long *times;           /* scratch for the selection, one per pooled entry */
    hsim_time_t horizon;
} hsim_reserved_t;

/* Room for n_jobs jobs.  0 or HSIM_ENOMEM; free with hsim_reserved_free. */
int hsim_reserved_init(hsim_reserved_t *r, size_t n_jobs);
/* Room for n_jobs jobs, as hsim_rheap_grow(). */
int hsim_reserved_grow(hsim_reserved_t *r, size_t n_jobs);
void hsim_reserved_free(hsim_reserved_t *r);
/* hsim_reserved_set() when the entry is not a pooled one that stays so. */
void hsim_reserved_place(hsim_reserved_t *r, const hsim_event_t *e);
/* Inserts e, or replaces the entry of job e->job. */
static inline void hsim_reserved_set(hsim_reserved_t *r, const hsim_event_t *e)
{
    HSIM_ASSERT(e->job >= 0 && (size_t)e->job < r->near.n_jobs);
    int32_t k = r->far_at[e->job];
    if (k >= 0 && e->time >= r->horizon) {
        hsim_event_renew(&r->far[k], e);
        return;
    }
    hsim_reserved_place(r, e);
}
/* Removes job's entry, if it has one. */
void hsim_reserved_remove(hsim_reserved_t *r, int32_t job);
/* Entries held. */
static inline size_t hsim_reserved_size(const hsim_reserved_t *r)
{
    return r->near.n + r->n_far;
}
/* The least entry, or NULL when empty.  O(1) amortised over the entries
   that come out (the horizon may move on). */
const hsim_event_t *hsim_reserved_peek(hsim_reserved_t *r);

#endif
