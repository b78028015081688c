/*
 * queue.h - a scheduler's waiting queue, kept in the order of an hsim_order.
 *
 * Jobs leave from anywhere (backfilling), so removal leaves a hole (-1)
 * that is skipped, and compacted away between passes once holes outnumber
 * jobs: slots do not move during a pass, and a pass costs what it scans.
 * Min-trees over the slots' processor counts and estimates find the next
 * job that can be backfilled in about O(log n), so backfilling does not walk
 * a long queue of jobs that cannot start (RICC's queue reaches 23,000).
 * Changes that move many entries (an insertion in SJF order, revised
 * estimates taken out and merged back) only note the range of slots they
 * touched; the trees catch up with it at their next search, once for all
 * the changes since the last one.
 * Appending (FCFS) is O(log n).  Inserting elsewhere (SJF) fills the hole
 * at its place when there is one, else moves the jobs up to the next hole
 * one slot on: O(log n + those jobs), never a compaction.
 */
#ifndef HSIM_QUEUE_H
#define HSIM_QUEUE_H

#include "policy.h"

typedef struct hsim_queue {
    int32_t *ids;        /* job indices in order; -1 = a hole */
    int32_t *procs;      /* processors of ids[i]; INT32_MAX for a hole */
    hsim_time_t *est;    /* planning estimate of ids[i]; max for a hole */
    size_t n;            /* slots used, holes included */
    size_t cap;          /* slots allocated in ids, procs and est */
    size_t holes;        /* -1 entries among ids[0..n) */
    size_t first;        /* no live entry before this slot */
    int32_t *tree;       /* min of procs over slot ranges; tree[1] = root,
                            leaves at tree[leaves + slot] */
    hsim_time_t *tree_est; /* min of est over the same ranges */
    size_t leaves;       /* power of two > n when the tree is fresh */
    size_t tree_cap;     /* leaves the tree's allocation holds */
    int tree_stale;      /* the tree must be rebuilt before use */
    size_t dirty_lo;     /* the leaves of slots [dirty_lo, dirty_hi) must */
    size_t dirty_hi;     /* be set again from the slots before use; lo >= hi
                            when none */
    int defer;           /* changes of single leaves only widen that range */
    uint64_t layout;     /* changes whenever live entries may have moved to
                            other slots: a caller's per-slot notes are void */
    const hsim_order_t *order;
    const void *order_state; /* the order's per-run state, or NULL */
    struct hsim_queue *mirror; /* NULL, or a queue of the same jobs in
                            another order (see hsim_queue_pair()) */
    int32_t *slot;       /* when tracks: each queued job's slot, by job
                            index, kept as entries move (-1 or a stale
                            slot for the others) */
    size_t slot_cap;     /* jobs slot[] holds */
    int tracks;          /* slot[] is kept: with a mirror, or once the
                            estimates of queued jobs have been revised */
    uint64_t revision;   /* the view's revision of the estimates in est */
    const int32_t *key2; /* NULL, or by job index a second size (a
                            cluster's whole GPUs), set while the queue is
                            empty: the queue then keeps it by slot... */
    int32_t *gpus;       /* ...here, with a min-tree of its own... */
    int32_t *tree_gpus;  /* ...over the same ranges as tree */
} hsim_queue_t;

/* What hsim_queue_find_backfill2() looks for. */
typedef struct hsim_queue_room {
    int32_t free_cores, free_gpus;   /* free now: a job asks no more */
    int32_t extra_cores, extra_gpus; /* and either no more than these... */
    hsim_time_t max_est;             /* ...or an estimate of at most this */
} hsim_queue_room_t;

/* An empty queue in order o, whose per-run state is state (NULL for an
   order without one); q borrows both. */
void hsim_queue_init(hsim_queue_t *q, const hsim_order_t *order, const void *state);
void hsim_queue_free(hsim_queue_t *q);
/* Inserts job at its place in the order.  0 or HSIM_ENOMEM. */
int hsim_queue_insert(hsim_queue_t *q, const hsim_vjob_t *jobs, int32_t job,
                      hsim_time_t now);
/* Makes a and b, empty queues, hold the same jobs in their two orders: a
   job inserted in one must be inserted in the other, and a job removed from
   one leaves the other as well (each keeps its jobs' slots for that, O(1)
   per removal and O(entries moved) per insertion).  Each keeps the other's
   address: neither may be moved or copied while paired. */
void hsim_queue_pair(hsim_queue_t *a, hsim_queue_t *b);
/* Removes the entry at slot i (which must be live), leaving a hole: slots
   of the other entries do not move, so a pass can remove as it scans. */
void hsim_queue_remove_at(hsim_queue_t *q, size_t i);
/* Compacts when holes outnumber jobs; call between passes.  O(n) then,
   so O(1) amortised per removal. */
void hsim_queue_tidy(hsim_queue_t *q);
/* Live jobs. */
static inline size_t hsim_queue_size(const hsim_queue_t *q) { return q->n - q->holes; }
/*
 * The first slot >= from whose job could be backfilled: at most free_now
 * processors, and either at most extra processors or an estimate of at most
 * max_est.  -1 when there is none; *rc is 0 or HSIM_ENOMEM.  O(log n) plus
 * the subtrees whose two minima pass the test without one job that does.
 * Estimates are those the jobs had when inserted (see hsim_queue_resort).
 */
long hsim_queue_find_backfill(hsim_queue_t *q, size_t from, int32_t free_now,
                              int32_t extra, hsim_time_t max_est, int *rc);
/* hsim_queue_find_backfill() in two sizes, for a queue with key2: the
   first slot >= from whose job asks for at most free_cores processors and
   free_gpus of the second size, and either at most extra_cores and
   extra_gpus or an estimate of at most max_est.  A necessary test for a
   cluster of nodes; O(log n) plus the subtrees it cannot rule out. */
long hsim_queue_find_backfill2(hsim_queue_t *q, size_t from, const hsim_queue_room_t *room,
                               int *rc);
/* Compacts and sorts by the order at time now.  0 or HSIM_ENOMEM.
   O(n log n). */
int hsim_queue_resort(hsim_queue_t *q, const hsim_vjob_t *jobs, hsim_time_t now);
/* Re-sorts when the order changes with time.  Else takes the new
   estimates of the jobs the engine revised since the queue last looked
   (v->revised), each job put back at its place in the order: O(revised x
   log n) under an order that ignores estimates, O(n + revised x log
   revised) under others (a re-sort when it missed a revision: call it at
   every pass).  0 or HSIM_ENOMEM. */
int hsim_queue_refresh(hsim_queue_t *q, const hsim_view_t *v);
/* Sorts ids[0..n) by order (with its state) at time now (stable).  0 or
   HSIM_ENOMEM. */
int hsim_order_sort(int32_t *ids, size_t n, const hsim_vjob_t *jobs,
                    const hsim_order_t *order, const void *state, hsim_time_t now);
/* The live waiting jobs of v into *ids (grown as needed, *cap entries),
   sorted by order o with state st at v->now; how many into *n.  0 or
   HSIM_ENOMEM.  O(W log W). */
int hsim_waiting_sorted(const hsim_view_t *v, const hsim_order_t *o, const void *st,
                        int32_t **ids, size_t *cap, size_t *n);
/*
 * The start of every pass: tidies the queue, refreshes it
 * (hsim_queue_refresh()), then starts jobs from its head while they fit in
 * the processors free now; *free_now gets those left free after them.  The
 * first that does not fit, or
 * that the cluster cannot place (HSIM_NOFIT), stays at the head.  0 or a
 * negative code from a decision.  O(started x log n), plus the re-sort.
 */
int hsim_queue_start_head(hsim_queue_t *q, const hsim_view_t *v, const hsim_decide_t *d,
                          int32_t *free_now);

#endif
