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
 * GPU went through a quarter of the tree (8,000 to 20,000 tree nodes
 * among 30,000 GPU nodes in bench-cluster.sh).  Not a scan of the nodes:
 * on 10,000 nodes, about 200 tree nodes per search when jobs are spread
 * one unit per node, fewer when packed.
 *
 * A job that needs several nodes takes them in key order: each later call
 * returns the next node in that order that fits both the ask of the
 * walk's second call and its own (so the walk sees what a list of the
 * nodes fitting the second ask, sorted once by key, would give).  Job
 * counts do not change during a walk.  Assumption: the number of jobs is a
 * fair proxy for load, as the count of open connections is for a web
 * server; it ignores job sizes.
 */
#include "place_common.h"

/* One walk of hsim_place_request(). */
typedef struct lc_walk {
    uint8_t types[HSIM_MAX_NODE_TYPES];
    size_t n_types;
    int calls;          /* calls since the walk started */
    hsim_ask_t second;  /* the ask of the second call */
    int64_t after;      /* from the second call on: the key of the last
                           node returned (-1: none yet) */
} lc_walk_t;

/* One search: the node with the least key above 'after' that fits asks a
   and b and is not in the allocation.  Subtrees whose keys all lie at or
   below 'after' (the nodes a walk has passed) are passed over too. */
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
    int64_t best;                   /* key of the best node so far */
    int32_t node;                   /* that node, -1 */
} search_t;

static int64_t key_of(const hsim_cluster_t *c, int32_t n)
{
    return (int64_t)c->nodes[n].jobs << 32 | n;
}

static int in_alloc(const hsim_alloc_t *a, int32_t n)
{
    for (size_t i = 0; i < a->n; i++)
        if (a->parts[i].node == n)
            return 1;
    return 0;
}

/* Searches the subtree k, which covers the type's nodes [lo, hi). */
static void descend(search_t *s, size_t k, size_t lo, size_t hi)
{
    const hsim_type_index_t *x = s->x;
    if (lo >= (size_t)x->count)
        return;
    /* the keys of its nodes that may fit lie in [(fewest jobs of those with
       the GPUs free, first index), (most jobs, last index)] */
    if (((int64_t)s->min_jobs[k] << 32 | (x->first + (int64_t)lo)) >= s->best ||
        ((int64_t)x->max_jobs[k] << 32 | (x->first + (int64_t)hi - 1)) <= s->after)
        return;
    if (x->max_cores[k] < s->cores || x->max_mem[k] < s->mem || x->max_gpus[k] < s->gpus ||
        x->max_fpgas[k] < s->fpgas)
        return;
    if (k >= x->leaves) {
        int32_t n = x->first + (int32_t)lo;
        int64_t key = key_of(s->c, n);
        if (key > s->after && hsim_place_fits(s->c, n, s->a) &&
            (s->b == s->a || hsim_place_fits(s->c, n, s->b)) && !in_alloc(s->alloc, n)) {
            s->best = key;
            s->node = n;
        }
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

static int32_t least_key(const lc_walk_t *w, const hsim_cluster_t *c, const hsim_ask_t *a,
                         const hsim_ask_t *b, const hsim_alloc_t *alloc, int64_t after)
{
    search_t s = {.c = c, .a = a, .b = b, .alloc = alloc, .after = after,
                  .best = INT64_MAX, .node = -1,
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
    return s.node;
}

static int32_t lc_choose(void *ctx, const hsim_cluster_t *c, const hsim_request_t *r,
                         const hsim_ask_t *ask, const hsim_alloc_t *a)
{
    (void)r;
    lc_walk_t *w = ctx;
    if (ask->first)
        w->calls = 0;
    if (w->calls++ == 0)
        return least_key(w, c, ask, ask, a, -1);
    if (w->calls == 2) {
        w->second = *ask;
        w->after = -1;
    }
    int32_t n = least_key(w, c, &w->second, ask, a, w->after);
    if (n >= 0)
        w->after = key_of(c, n);
    return n;
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
};
