/*
 * place_least_conn.c - least-connections: the fitting node that runs the
 * fewest jobs (hsim_node_t.jobs), ties to the lowest node index.
 *
 * Nodes are taken in the order of their key (jobs, index).  Each node
 * type's trees keep, for every subtree, the most free resources of its
 * nodes and the fewest and most jobs on any of them, so a search passes
 * over subtrees where nothing fits, nothing can beat the best key found so
 * far, or every key lies at or below the last one taken.  For a job that
 * asks for whole GPUs the fewest jobs are those of the nodes with that
 * many GPUs free: a GPU node that one job fills has the fewest jobs of
 * all and fits nothing, and with the count of every node, a search for a
 * GPU went through a large part of the tree.  Not a scan of the nodes: a
 * search visits O(log nodes) tree nodes per node it returns, more when
 * jobs are spread one unit per node (docs/performance.md has the counts).
 *
 * A job that needs several nodes takes them in key order: each later call
 * returns the next node in that order that fits both the ask of the
 * walk's second call and its own (so the walk sees what a list of the
 * nodes fitting the second ask, sorted once by key, would give).  Job
 * counts do not change during a walk, so one search finds the next few
 * nodes in key order that fit the second ask (the least keys above the
 * last one found, kept in a heap of the best so far, whose largest bounds
 * the search as the best key does for one), and the later calls take
 * them in turn: a job spread one unit per node over 64 nodes made 64
 * searches, each for the key after the last, and a subtree holding keys
 * on both sides of it could not be passed over (docs/performance.md
 * measures what the batches saved).
 *
 * Assumption: the number of jobs is a fair proxy for load, as the count
 * of open connections is for a web server; it ignores job sizes.
 */
#include "place_common.h"

#include <stdlib.h>

#define BATCH 64 /* nodes in key order that one search finds for the later
                    calls of a walk */

/* One walk of hsim_place_request(). */
typedef struct lc_walk {
    uint8_t types[HSIM_MAX_NODE_TYPES];
    size_t n_types;
    int calls;          /* calls since the walk started */
    hsim_ask_t second;  /* the ask of the second call */
    /* From the second call on: the nodes that fit the second ask, in key
       order, after the last node returned (after the last one of the batch
       before): as many as the search asked for when 'full', else all there
       are; the calls take them from pos on.  A search asks for 2 at first,
       then twice as many each time, up to BATCH: most walks take few
       nodes. */
    int32_t batch[BATCH];
    int n_batch, pos, full, ask_for;
    int64_t last;       /* the key of the last node returned (-1: none) */
} lc_walk_t;

/* One search: the nodes with the least keys above 'after' (up to cap of
   them) that fit asks a and b and are not in the allocation (NULL: no
   allocation to look at).  Subtrees whose keys all lie at or below 'after'
   (the nodes a walk has passed) are passed over too. */
typedef struct search {
    const hsim_cluster_t *c;
    const hsim_type_index_t *x;     /* the node type searched */
    const int32_t *min_jobs;        /* its min-tree of the job counts of the
                                       nodes with the GPUs asked for free
                                       (with no GPUs: of all nodes) */
    int32_t cores, gpus, fpgas;     /* what a subtree must have, at least */
    int64_t mem;
    const hsim_ask_t *a, *b;
    const hsim_alloc_t *alloc;
    int64_t after;
    int64_t keys[BATCH];            /* the least keys so far, a max-heap */
    int n, cap;
} search_t;

static int64_t key_of(const hsim_cluster_t *c, int32_t n)
{
    return (int64_t)c->nodes[n].jobs << 32 | n;
}

static int in_alloc(const hsim_alloc_t *a, int32_t n)
{
    for (size_t i = 0; a && i < a->n; i++)
        if (a->parts[i].node == n)
            return 1;
    return 0;
}

/* A key must lie below this to be kept. */
static int64_t bound(const search_t *s)
{
    return s->n == s->cap ? s->keys[0] : INT64_MAX;
}

/* Keeps key, < bound(s), in the heap of the least ones. */
static void keep(search_t *s, int64_t key)
{
    size_t i;
    if (s->n < s->cap) { /* up from a new leaf */
        for (i = (size_t)s->n++; i > 0 && s->keys[(i - 1) / 2] < key; i = (i - 1) / 2)
            s->keys[i] = s->keys[(i - 1) / 2];
    } else { /* down from the root, in place of the largest */
        for (i = 0;;) {
            size_t c = 2 * i + 1;
            if (c >= (size_t)s->n)
                break;
            if (c + 1 < (size_t)s->n && s->keys[c + 1] > s->keys[c])
                c++;
            if (s->keys[c] <= key)
                break;
            s->keys[i] = s->keys[c];
            i = c;
        }
    }
    s->keys[i] = key;
}

/* Searches the subtree k, which covers the type's nodes [lo, hi). */
static void descend(search_t *s, size_t k, size_t lo, size_t hi)
{
    const hsim_type_index_t *x = s->x;
    if (lo >= (size_t)x->count)
        return;
    /* the keys of its nodes that may fit lie in [(fewest jobs of those with
       the GPUs free, first index), (most jobs, last index)] */
    if (((int64_t)s->min_jobs[k] << 32 | (x->first + (int64_t)lo)) >= bound(s) ||
        ((int64_t)x->max_jobs[k] << 32 | (x->first + (int64_t)hi - 1)) <= s->after)
        return;
    if (x->max_cores[k] < s->cores || x->max_mem[k] < s->mem || x->max_gpus[k] < s->gpus ||
        x->max_fpgas[k] < s->fpgas)
        return;
    if (k >= x->leaves) {
        int32_t n = x->first + (int32_t)lo;
        int64_t key = key_of(s->c, n);
        if (key > s->after && key < bound(s) && hsim_place_fits(s->c, n, s->a) &&
            (s->b == s->a || hsim_place_fits(s->c, n, s->b)) && !in_alloc(s->alloc, n))
            keep(s, key);
        return;
    }
    size_t mid = lo + (hi - lo) / 2;
    descend(s, 2 * k, lo, mid);
    descend(s, 2 * k + 1, mid, hi);
}

/* The largest of two needs, for pruning. */
static int64_t larger(int64_t u, int64_t v)
{
    return u > v ? u : v;
}

static int by_key(const void *u, const void *v)
{
    int64_t a = *(const int64_t *)u, b = *(const int64_t *)v;
    return (a > b) - (a < b);
}

/* The search of search_t, up to cap <= BATCH nodes into out[], in key
   order.  Returns how many. */
static int least_keys(const lc_walk_t *w, const hsim_cluster_t *c, const hsim_ask_t *a,
                      const hsim_ask_t *b, const hsim_alloc_t *alloc, int64_t after,
                      int cap, int32_t *out)
{
    search_t s = {.c = c, .a = a, .b = b, .alloc = alloc, .after = after, .n = 0, .cap = cap,
                  .cores = (int32_t)larger(a->cores, b->cores),
                  .gpus = (int32_t)larger(hsim_place_whole_gpus(a), hsim_place_whole_gpus(b)),
                  .fpgas = (int32_t)larger(a->fpgas, b->fpgas)};
    for (size_t i = 0; i < w->n_types; i++) {
        size_t t = w->types[i];
        s.x = &c->idx[t];
        s.mem = c->types[t].mem_mb > 0 ? larger(a->mem_mb, b->mem_mb) : 0;
        s.min_jobs = s.x->min_jobs;
        for (int l = 0; l < HSIM_GPU_LEVELS && s.x->min_jobs_gpus[l] && 1 << l <= s.gpus; l++)
            s.min_jobs = s.x->min_jobs_gpus[l];
        descend(&s, 1, 0, s.x->leaves);
    }
    qsort(s.keys, (size_t)s.n, sizeof *s.keys, by_key);
    for (int i = 0; i < s.n; i++)
        out[i] = (int32_t)(s.keys[i] & 0xffffffff);
    return s.n;
}

/* A later call of a walk: the next node after the last one returned, in
   key order, that fits the second ask and this one and is not in the
   allocation; -1 if none. */
static int32_t next_in_order(lc_walk_t *w, const hsim_cluster_t *c, const hsim_ask_t *ask,
                             const hsim_alloc_t *a)
{
    for (;;) {
        while (w->pos < w->n_batch) {
            int32_t n = w->batch[w->pos++];
            HSIM_ASSERT(key_of(c, n) > w->last); /* the batch starts after it */
            if (hsim_place_fits(c, n, ask) && !in_alloc(a, n)) {
                w->last = key_of(c, n);
                return n;
            }
        }
        if (!w->full)
            break; /* no node after them fits the second ask */
        int64_t from = w->n_batch ? key_of(c, w->batch[w->n_batch - 1]) : w->last;
        w->n_batch = least_keys(w, c, &w->second, &w->second, NULL, from, w->ask_for, w->batch);
        w->pos = 0;
        w->full = w->n_batch == w->ask_for;
        w->ask_for = w->ask_for < BATCH / 2 ? 2 * w->ask_for : BATCH;
    }
    /* none: a call with another ask looks again from the last node */
    w->n_batch = w->pos = 0;
    w->full = 1;
    return -1;
}

static int32_t lc_choose(void *ctx, const hsim_cluster_t *c, const hsim_request_t *r,
                         const hsim_ask_t *ask, const hsim_alloc_t *a)
{
    (void)r;
    lc_walk_t *w = ctx;
    if (ask->first)
        w->calls = 0;
    if (w->calls++ == 0) {
        int32_t n;
        return least_keys(w, c, ask, ask, a, -1, 1, &n) ? n : -1;
    }
    if (w->calls == 2) {
        w->second = *ask;
        w->last = -1;
        w->n_batch = w->pos = 0;
        w->full = 1;
        w->ask_for = 2;
    }
    return next_in_order(w, c, ask, a);
}

static int lc_place(void *state, const hsim_cluster_t *c, const hsim_request_t *r,
                    hsim_alloc_t *a)
{
    const hsim_place_plain_t *s = state;
    lc_walk_t w = {.calls = 0};
    w.n_types = hsim_place_types(c, r, w.types);
    return hsim_place_request(c, r, s->spread, lc_choose, &w, a);
}

const hsim_placement_t hsim_place_least_conn = {
    .name = "least-connections",
    .summary = "fitting node running the fewest jobs (ties: lowest index)",
    .create = hsim_place_plain_create,
    .destroy = hsim_place_plain_destroy,
    .place = lc_place,
    .reads_job_counts = 1,
};
