/*
 * queue.c - the ordered waiting queue with holes and a min-tree.  See
 * queue.h.
 */
#include "queue.h"

#include <stdlib.h>
#include <string.h>

/* job's second size, when the queue keeps one. */
static inline int32_t gpus_of(const hsim_queue_t *q, int32_t job)
{
    return q->key2 ? q->key2[job] : 0;
}

void hsim_queue_init(hsim_queue_t *q, const hsim_order_t *order, const void *state)
{
    memset(q, 0, sizeof *q);
    q->order = order;
    q->order_state = state;
    q->dirty_lo = SIZE_MAX;
}

void hsim_queue_free(hsim_queue_t *q)
{
    hsim_free(q->ids);
    hsim_free(q->procs);
    hsim_free(q->est);
    hsim_free(q->tree);
    hsim_free(q->tree_est);
    hsim_free(q->slot);
    hsim_free(q->gpus);
    hsim_free(q->tree_gpus);
    const int32_t *key2 = q->key2;
    hsim_queue_init(q, q->order, q->order_state);
    q->key2 = key2;
}

void hsim_queue_pair(hsim_queue_t *a, hsim_queue_t *b)
{
    a->mirror = b;
    b->mirror = a;
    a->tracks = b->tracks = 1;
}

/* When it tracks slots: notes the slots of the entries in [from, to). */
static void note_slots(hsim_queue_t *q, size_t from, size_t to)
{
    if (q->tracks)
        for (size_t i = from; i < to; i++)
            if (q->ids[i] >= 0)
                q->slot[q->ids[i]] = (int32_t)i;
}

/* Makes slot[] hold job indices below n, the new ones -1.  0 or
   HSIM_ENOMEM. */
static int slots_for(hsim_queue_t *q, size_t n)
{
    size_t old = q->slot_cap;
    if (hsim_grow(&q->slot, &q->slot_cap, n, sizeof *q->slot))
        return HSIM_ENOMEM;
    for (size_t i = old; i < q->slot_cap; i++)
        q->slot[i] = -1;
    return 0;
}

/* Starts tracking the slots of q's entries.  0 or HSIM_ENOMEM. */
static int track_slots(hsim_queue_t *q)
{
    if (q->tracks)
        return 0;
    size_t n = 0;
    for (size_t i = q->first; i < q->n; i++)
        if (q->ids[i] >= 0 && (size_t)q->ids[i] + 1 > n)
            n = (size_t)q->ids[i] + 1;
    if (slots_for(q, n))
        return HSIM_ENOMEM;
    q->tracks = 1;
    note_slots(q, q->first, q->n);
    return 0;
}

/* Notes that the entries of slots [lo, hi) changed: their leaves are set
   again before the tree's next use (tree_fresh()). */
static void tree_dirty(hsim_queue_t *q, size_t lo, size_t hi)
{
    if (lo >= hi)
        return;
    if (lo < q->dirty_lo)
        q->dirty_lo = lo;
    if (hi > q->dirty_hi)
        q->dirty_hi = hi;
}

/* Moves the live entries to slots base.. in order, a run of them at a time
   (one run when the holes are all before q->first); base <= q->first, and
   the slots before it stay holes.  O(n - base). */
static void pack(hsim_queue_t *q, size_t base)
{
    size_t k = base, moved = SIZE_MAX; /* the first slot whose entry changes */
    for (size_t i = q->first; i < q->n;) {
        size_t j = i;
        while (j < q->n && q->ids[j] >= 0)
            j++;
        if (k != i && moved == SIZE_MAX)
            moved = k;
        memmove(&q->ids[k], &q->ids[i], (j - i) * sizeof *q->ids);
        memmove(&q->procs[k], &q->procs[i], (j - i) * sizeof *q->procs);
        memmove(&q->est[k], &q->est[i], (j - i) * sizeof *q->est);
        if (q->gpus)
            memmove(&q->gpus[k], &q->gpus[i], (j - i) * sizeof *q->gpus);
        k += j - i;
        for (i = j; i < q->n && q->ids[i] < 0; i++)
            ;
    }
    if (k == base) /* no live entry: an empty queue */
        base = k = moved = 0;
    tree_dirty(q, moved < k ? moved : k, q->n); /* the slots after k empty */
    q->n = k;
    note_slots(q, base, k);
    q->holes = base;
    q->first = base;
    q->layout++;
}

/* Moves the live entries to slots 0.. in order.  O(n). */
static void compact(hsim_queue_t *q)
{
    pack(q, 0);
}

static void tree_pull(hsim_queue_t *q, size_t k)
{
    int32_t a = q->tree[2 * k], b = q->tree[2 * k + 1];
    q->tree[k] = a < b ? a : b;
    hsim_time_t x = q->tree_est[2 * k], y = q->tree_est[2 * k + 1];
    q->tree_est[k] = x < y ? x : y;
    if (q->tree_gpus) {
        int32_t g = q->tree_gpus[2 * k], h = q->tree_gpus[2 * k + 1];
        q->tree_gpus[k] = g < h ? g : h;
    }
}

/* Leaf k of the trees from slot i (an empty one past n). */
static void leaf_from_slot(hsim_queue_t *q, size_t k, size_t i)
{
    q->tree[k] = i < q->n ? q->procs[i] : INT32_MAX;
    q->tree_est[k] = i < q->n ? q->est[i] : HSIM_TIME_MAX;
    if (q->tree_gpus)
        q->tree_gpus[k] = i < q->n ? q->gpus[i] : INT32_MAX;
}

/* Sets leaf i and its ancestors.  O(log leaves). */
static void tree_set(hsim_queue_t *q, size_t i, int32_t procs, hsim_time_t est)
{
    if (q->tree_stale)
        return; /* rebuilt before the next use */
    if (i >= q->leaves) {
        q->tree_stale = 1; /* outgrown */
        return;
    }
    if (q->defer) {
        tree_dirty(q, i, i + 1);
        return;
    }
    size_t k = q->leaves + i;
    q->tree[k] = procs;
    q->tree_est[k] = est;
    if (q->tree_gpus) /* the callers set the slot first */
        q->tree_gpus[k] = q->gpus[i];
    for (k /= 2; k >= 1; k /= 2)
        tree_pull(q, k);
}

/* Sets leaves [lo, hi) of a tree that is not stale from the slots (those
   from n on empty) and their ancestors.  O(hi - lo + log leaves). */
static void tree_set_range(hsim_queue_t *q, size_t lo, size_t hi)
{
    if (hi > q->leaves) {
        q->tree_stale = 1; /* outgrown */
        return;
    }
    for (size_t i = lo; i < hi; i++)
        leaf_from_slot(q, q->leaves + i, i);
    for (size_t a = (q->leaves + lo) / 2, b = (q->leaves + hi - 1) / 2; a >= 1;
         a /= 2, b /= 2)
        for (size_t k = a; k <= b; k++)
            tree_pull(q, k);
}

/* Sizes the tree to the queue as it is now (twice its slots, so appends
   do not soon outgrow it): an emptied queue gets a small tree again. */
static int tree_rebuild(hsim_queue_t *q)
{
    size_t leaves = 64;
    while (leaves < 2 * q->n)
        leaves *= 2;
    if (leaves > q->tree_cap) {
        int32_t *t = hsim_realloc(q->tree, 2 * leaves * sizeof *t);
        if (!t)
            return HSIM_ENOMEM;
        q->tree = t;
        hsim_time_t *te = hsim_realloc(q->tree_est, 2 * leaves * sizeof *te);
        if (!te)
            return HSIM_ENOMEM;
        q->tree_est = te;
        if (q->key2) {
            int32_t *tg = hsim_realloc(q->tree_gpus, 2 * leaves * sizeof *tg);
            if (!tg)
                return HSIM_ENOMEM;
            q->tree_gpus = tg;
        }
        q->tree_cap = leaves;
    }
    q->leaves = leaves;
    for (size_t i = 0; i < leaves; i++)
        leaf_from_slot(q, leaves + i, i);
    for (size_t k = leaves - 1; k >= 1; k--)
        tree_pull(q, k);
    q->tree_stale = 0;
    q->dirty_lo = SIZE_MAX;
    q->dirty_hi = 0;
    return 0;
}

/* Makes the tree true to the slots before a search: rebuilt when stale,
   else the leaves of the slots that changed set again.  0 or
   HSIM_ENOMEM. */
static int tree_fresh(hsim_queue_t *q)
{
    if (!q->tree_stale && q->dirty_lo < q->dirty_hi) {
        tree_set_range(q, q->dirty_lo, q->dirty_hi);
        q->dirty_lo = SIZE_MAX;
        q->dirty_hi = 0;
    }
    return q->tree_stale ? tree_rebuild(q) : 0;
}

/* Makes room for n slots.  0 or HSIM_ENOMEM. */
static int room_for(hsim_queue_t *q, size_t n)
{
    size_t cap = q->cap;
    if (hsim_grow(&q->ids, &cap, n, sizeof *q->ids))
        return HSIM_ENOMEM;
    cap = q->cap;
    if (hsim_grow(&q->procs, &cap, n, sizeof *q->procs))
        return HSIM_ENOMEM;
    cap = q->cap;
    if (hsim_grow(&q->est, &cap, n, sizeof *q->est))
        return HSIM_ENOMEM;
    if (q->key2) {
        cap = q->cap;
        if (hsim_grow(&q->gpus, &cap, n, sizeof *q->gpus))
            return HSIM_ENOMEM;
    }
    q->cap = cap;
    return 0;
}

int hsim_queue_insert(hsim_queue_t *q, const hsim_vjob_t *jobs, int32_t job,
                      hsim_time_t now)
{
    if (room_for(q, q->n + 1))
        return HSIM_ENOMEM;
    if (q->tracks && slots_for(q, (size_t)job + 1))
        return HSIM_ENOMEM;
    /* Appending is the common case (FCFS): compare with the last live job. */
    long last = (long)q->n - 1;
    while (last >= (long)q->first && q->ids[last] < 0)
        last--;
    if (last < (long)q->first || q->order->compare(q->order_state, jobs, q->ids[last], job, now) < 0) {
        q->ids[q->n] = job;
        q->procs[q->n] = jobs[job].procs;
        q->est[q->n] = jobs[job].estimate;
        if (q->gpus)
            q->gpus[q->n] = gpus_of(q, job);
        tree_set(q, q->n, jobs[job].procs, jobs[job].estimate);
        note_slots(q, q->n, q->n + 1);
        q->n++;
        return 0;
    }
    /* Elsewhere: the first slot whose live job comes after it, holes
       passed over, then a hole to fill at or beside it. */
    q->layout++;
    size_t lo = q->first, hi = q->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2, m = mid;
        while (m < hi && q->ids[m] < 0)
            m++;
        if (m == hi)
            hi = mid; /* [mid, hi) holds only holes */
        else if (q->order->compare(q->order_state, jobs, q->ids[m], job, now) < 0)
            lo = m + 1;
        else
            hi = m;
    }
    size_t at, end; /* the job goes to slot at; slots [at, end) change */
    if (lo > 0 && q->ids[lo - 1] < 0) {
        at = lo - 1; /* the hole just before: nothing moves */
        end = lo;
        q->holes--;
        if (at < q->first)
            q->first = at;
    } else {
        size_t h = lo; /* the next hole, or the end: what lies before it
                          moves one slot on */
        while (h < q->n && q->ids[h] >= 0)
            h++;
        if (h < q->n)
            q->holes--;
        else
            q->n++;
        memmove(&q->ids[lo + 1], &q->ids[lo], (h - lo) * sizeof *q->ids);
        memmove(&q->procs[lo + 1], &q->procs[lo], (h - lo) * sizeof *q->procs);
        memmove(&q->est[lo + 1], &q->est[lo], (h - lo) * sizeof *q->est);
        if (q->gpus)
            memmove(&q->gpus[lo + 1], &q->gpus[lo], (h - lo) * sizeof *q->gpus);
        at = lo;
        end = h + 1;
    }
    q->ids[at] = job;
    q->procs[at] = jobs[job].procs;
    q->est[at] = jobs[job].estimate;
    if (q->gpus)
        q->gpus[at] = gpus_of(q, job);
    note_slots(q, at, end);
    tree_dirty(q, at, end);
    return 0;
}

/* hsim_queue_remove_at() in this queue only. */
static void remove_here(hsim_queue_t *q, size_t i)
{
    HSIM_ASSERT(i < q->n && q->ids[i] >= 0);
    q->ids[i] = -1;
    q->procs[i] = INT32_MAX;
    q->est[i] = HSIM_TIME_MAX;
    if (q->gpus)
        q->gpus[i] = INT32_MAX;
    tree_set(q, i, INT32_MAX, HSIM_TIME_MAX);
    q->holes++;
    if (i == q->first)
        while (q->first < q->n && q->ids[q->first] < 0)
            q->first++;
    if (q->first == q->n) {
        q->n = q->first = q->holes = 0;
        q->tree_stale = 1;
        q->layout++;
    }
}

void hsim_queue_remove_at(hsim_queue_t *q, size_t i)
{
    HSIM_ASSERT(i < q->n);
    int32_t job = q->ids[i];
    remove_here(q, i);
    if (q->mirror) {
        size_t k = (size_t)q->mirror->slot[job];
        HSIM_ASSERT(k < q->mirror->n && q->mirror->ids[k] == job);
        remove_here(q->mirror, k);
    }
}

void hsim_queue_tidy(hsim_queue_t *q)
{
    if (q->holes > 32 && q->holes > q->n / 2)
        compact(q);
}

/* Could the tree node k hold a job that backfills?  Necessary, not
   sufficient: the two minima may come from different jobs. */
static int node_may(const hsim_queue_t *q, size_t k, int32_t free_now, int32_t extra,
                    hsim_time_t max_est)
{
    int32_t p = q->tree[k];
    return p <= free_now && (p <= extra || q->tree_est[k] <= max_est);
}

static long search(const hsim_queue_t *q, size_t k, size_t lo, size_t hi, size_t from,
                   int32_t free_now, int32_t extra, hsim_time_t max_est)
{
    if (hi <= from || !node_may(q, k, free_now, extra, max_est))
        return -1;
    if (k >= q->leaves)
        return (long)lo; /* a leaf: the test is exact */
    size_t mid = lo + (hi - lo) / 2;
    long r = search(q, 2 * k, lo, mid, from, free_now, extra, max_est);
    if (r < 0)
        r = search(q, 2 * k + 1, mid, hi, from, free_now, extra, max_est);
    return r;
}

long hsim_queue_find_backfill(hsim_queue_t *q, size_t from, int32_t free_now,
                              int32_t extra, hsim_time_t max_est, int *rc)
{
    *rc = 0;
    if (from >= q->n)
        return -1;
    if ((*rc = tree_fresh(q)))
        return -1;
    long slot = search(q, 1, 0, q->leaves, from, free_now, extra, max_est);
    return slot >= 0 && (size_t)slot < q->n ? slot : -1;
}

/* node_may() in two sizes, for hsim_queue_find_backfill2(). */
static int node_may2(const hsim_queue_t *q, size_t k, const hsim_queue_room_t *r)
{
    int32_t p = q->tree[k], g = q->tree_gpus[k];
    return p <= r->free_cores && g <= r->free_gpus &&
           ((p <= r->extra_cores && g <= r->extra_gpus) || q->tree_est[k] <= r->max_est);
}

static long search2(const hsim_queue_t *q, size_t k, size_t lo, size_t hi, size_t from,
                    const hsim_queue_room_t *r)
{
    if (hi <= from || !node_may2(q, k, r))
        return -1;
    if (k >= q->leaves)
        return (long)lo;
    size_t mid = lo + (hi - lo) / 2;
    long x = search2(q, 2 * k, lo, mid, from, r);
    if (x < 0)
        x = search2(q, 2 * k + 1, mid, hi, from, r);
    return x;
}

long hsim_queue_find_backfill2(hsim_queue_t *q, size_t from, const hsim_queue_room_t *room,
                               int *rc)
{
    *rc = 0;
    HSIM_ASSERT(q->key2);
    if (from >= q->n)
        return -1;
    if ((*rc = tree_fresh(q)))
        return -1;
    long slot = search2(q, 1, 0, q->leaves, from, room);
    return slot >= 0 && (size_t)slot < q->n ? slot : -1;
}

/* qsort has no context argument, so a stable merge sort of its own. */
static void merge_sort(int32_t *a, int32_t *tmp, size_t n, const hsim_vjob_t *jobs,
                       const hsim_order_t *o, const void *st, hsim_time_t now)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    merge_sort(a, tmp, h, jobs, o, st, now);
    merge_sort(a + h, tmp, n - h, jobs, o, st, now);
    if (o->compare(st, jobs, a[h - 1], a[h], now) < 0)
        return; /* in order already: a sorted input takes n - 1 comparisons */
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = o->compare(st, jobs, a[j], a[i], now) < 0 ? a[j++] : a[i++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

int hsim_order_sort(int32_t *ids, size_t n, const hsim_vjob_t *jobs,
                    const hsim_order_t *order, const void *state, hsim_time_t now)
{
    if (n < 2)
        return 0;
    int32_t *tmp = hsim_malloc(n * sizeof *tmp);
    if (!tmp)
        return HSIM_ENOMEM;
    merge_sort(ids, tmp, n, jobs, order, state, now);
    hsim_free(tmp);
    return 0;
}

int hsim_waiting_sorted(const hsim_view_t *v, const hsim_order_t *o, const void *st,
                        int32_t **ids, size_t *cap, size_t *n)
{
    if (hsim_grow(ids, cap, v->n_waiting + 1, sizeof **ids))
        return HSIM_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < v->n_waiting; i++)
        if (v->waiting[i] >= 0)
            (*ids)[k++] = v->waiting[i];
    *n = k;
    return hsim_order_sort(*ids, k, v->jobs, o, st, v->now);
}

int hsim_queue_resort(hsim_queue_t *q, const hsim_vjob_t *jobs, hsim_time_t now)
{
    compact(q);
    int rc = hsim_order_sort(q->ids, q->n, jobs, q->order, q->order_state, now);
    for (size_t i = 0; i < q->n; i++) {
        q->procs[i] = jobs[q->ids[i]].procs;
        q->est[i] = jobs[q->ids[i]].estimate;
        if (q->gpus)
            q->gpus[i] = gpus_of(q, q->ids[i]);
    }
    note_slots(q, 0, q->n);
    q->tree_stale = 1;
    return rc;
}

/* Puts back the k jobs that hsim_queue_refresh() took out (the rest are
   in order), in[0..k): compacts the rest, sorts in[], and merges it in
   from the end.  0 or HSIM_ENOMEM.  O(n + k log k). */
static int merge_back(hsim_queue_t *q, const hsim_view_t *v, int32_t *in, size_t k)
{
    int32_t *tmp = hsim_malloc(k * sizeof *tmp);
    if (!tmp || room_for(q, q->n + k)) {
        hsim_free(tmp);
        return HSIM_ENOMEM;
    }
    merge_sort(in, tmp, k, v->jobs, q->order, q->order_state, v->now);
    pack(q, q->first); /* the holes before the first job stay */
    size_t i = q->n, j = k, w = q->n + k;
    while (j > 0) { /* the larger of the two lasts goes last */
        int32_t job;
        if (i > q->first && q->order->compare(q->order_state, v->jobs, q->ids[i - 1], in[j - 1], v->now) > 0) {
            job = q->ids[--i];
        } else {
            job = in[--j];
        }
        q->ids[--w] = job;
        q->procs[w] = v->jobs[job].procs;
        q->est[w] = v->jobs[job].estimate;
        if (q->gpus)
            q->gpus[w] = gpus_of(q, job);
    }
    /* pack() noted the slots before w; those from w on are new */
    tree_dirty(q, w, q->n + k);
    q->n += k;
    note_slots(q, w, q->n);
    hsim_free(tmp);
    return 0;
}

int hsim_queue_refresh(hsim_queue_t *q, const hsim_view_t *v)
{
    uint64_t seen = q->revision;
    q->revision = v->revision;
    if (q->order->time_dependent || seen + 1 < v->revision)
        return hsim_queue_resort(q, v->jobs, v->now);
    if (seen == v->revision || q->n == 0)
        return 0;
    int rc = track_slots(q);
    if (rc)
        return rc;
    /* Under an order that ignores estimates every job keeps its slot and
       takes its new estimate there.  Under others the revised jobs come
       out, and the rest stay in order, then go back in at their places. */
    int32_t *taken = NULL;
    size_t k = 0;
    if (!q->order->ignores_estimates &&
        !(taken = hsim_malloc((v->n_revised ? v->n_revised : 1) * sizeof *taken)))
        return HSIM_ENOMEM;
    /* Many leaves change, or all those after the first job taken out: they
       are set again at the tree's next use, once each. */
    q->defer = taken || 16 * v->n_revised > q->n;
    for (size_t r = 0; r < v->n_revised; r++) {
        int32_t job = v->revised[r];
        size_t i = (size_t)job < q->slot_cap ? (size_t)q->slot[job] : SIZE_MAX;
        if (i >= q->n || q->ids[i] != job)
            continue; /* not in this queue */
        if (taken) {
            remove_here(q, i);
            taken[k++] = job;
        } else {
            q->est[i] = v->jobs[job].estimate;
            tree_set(q, i, q->procs[i], q->est[i]);
        }
    }
    if (k)
        rc = merge_back(q, v, taken, k);
    q->defer = 0;
    hsim_free(taken);
    return rc;
}

int hsim_queue_start_head(hsim_queue_t *q, const hsim_view_t *v, const hsim_decide_t *d,
                          int32_t *free_now)
{
    hsim_queue_tidy(q);
    int rc = hsim_queue_refresh(q, v);
    if (rc)
        return rc;
    *free_now = hsim_view_free_now(v);
    while (hsim_queue_size(q)) {
        size_t i = q->first;
        int32_t job = q->ids[i];
        if (v->jobs[job].procs > *free_now)
            break;
        rc = d->start(d->ctx, job);
        if (rc == HSIM_NOFIT)
            break; /* the processors are free, but no node can hold it */
        if (rc)
            return rc;
        *free_now -= v->jobs[job].procs;
        hsim_queue_remove_at(q, i);
    }
    return 0;
}
