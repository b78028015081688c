/*
 * place_least_conn.c - least-connections: the fitting node that runs the
 * fewest jobs (hsim_node_t.jobs), ties to the lowest node index.
 *
 * Job counts are not indexed, so the first node of a job costs a scan of
 * the nodes of the types the job may use, O(nodes), stopped early at the
 * first fitting node that runs nothing (on a lightly loaded cluster that is
 * near the front).  A job that needs more nodes sorts the remaining fitting
 * nodes once by (jobs, index): O(nodes log nodes) for the job, not per
 * node.  Assumption: the number of jobs is a fair proxy for load, as the
 * count of open connections is for a web server; it ignores job sizes.
 */
#include "place_common.h"

#include <stdlib.h>

typedef struct lc {
    hsim_spread_t spread;
    int64_t *cand;      /* (jobs << 32 | node) of the fitting nodes, sorted */
    size_t cap;
} lc_t;

/* One walk: the first call scans; later calls pop from the sorted list. */
typedef struct lc_walk {
    lc_t *s;
    uint8_t types[HSIM_MAX_NODE_TYPES];
    size_t n_types;
    int calls;          /* calls since the walk started */
    size_t n, pos;      /* candidates, next one */
    int err;            /* HSIM_ENOMEM when the list could not be built */
} lc_walk_t;

static int lc_create(const hsim_cluster_t *c, hsim_spread_t spread, void **state)
{
    (void)c;
    lc_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    s->spread = spread;
    *state = s;
    return 0;
}

static void lc_destroy(void *state)
{
    lc_t *s = state;
    hsim_free(s->cand);
    hsim_free(s);
}

static int cmp_key(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static int in_alloc(const hsim_alloc_t *a, int32_t n)
{
    for (size_t i = 0; i < a->n; i++)
        if (a->parts[i].node == n)
            return 1;
    return 0;
}

static int32_t scan(const lc_walk_t *w, const hsim_cluster_t *c, const hsim_ask_t *ask)
{
    int32_t best = -1;
    for (size_t i = 0; i < w->n_types; i++) {
        const hsim_type_index_t *x = &c->idx[w->types[i]];
        for (int32_t n = x->first; n < x->first + x->count; n++) {
            if (best >= 0 && c->nodes[n].jobs >= c->nodes[best].jobs)
                continue;
            if (!hsim_place_fits(c, n, ask))
                continue;
            best = n;
            if (c->nodes[n].jobs == 0)
                return best;
        }
    }
    return best;
}

static int build(lc_walk_t *w, const hsim_cluster_t *c, const hsim_ask_t *ask,
                 const hsim_alloc_t *a)
{
    lc_t *s = w->s;
    w->n = w->pos = 0;
    for (size_t i = 0; i < w->n_types; i++) {
        const hsim_type_index_t *x = &c->idx[w->types[i]];
        for (int32_t n = x->first; n < x->first + x->count; n++) {
            if (!hsim_place_fits(c, n, ask) || in_alloc(a, n))
                continue;
            if (hsim_grow(&s->cand, &s->cap, w->n + 1, sizeof *s->cand))
                return HSIM_ENOMEM;
            s->cand[w->n++] = (int64_t)c->nodes[n].jobs << 32 | n;
        }
    }
    if (w->n > 1)
        qsort(s->cand, w->n, sizeof *s->cand, cmp_key);
    return 0;
}

static int32_t lc_choose(void *ctx, const hsim_cluster_t *c, const hsim_request_t *r,
                         const hsim_ask_t *ask, const hsim_alloc_t *a)
{
    (void)r;
    lc_walk_t *w = ctx;
    if (ask->first)
        w->calls = 0;
    if (w->calls++ == 0)
        return scan(w, c, ask);
    if (w->calls == 2 && (w->err = build(w, c, ask, a)))
        return -1;
    while (w->pos < w->n) {
        int32_t n = (int32_t)(w->s->cand[w->pos++] & 0xffffffff);
        if (hsim_place_fits(c, n, ask))
            return n;
    }
    return -1;
}

static int lc_place(void *state, const hsim_cluster_t *c, const hsim_request_t *r,
                    hsim_alloc_t *a)
{
    lc_walk_t w = {.s = state};
    w.n_types = hsim_place_types(c, r, w.types);
    int rc = hsim_place_request(c, r, w.s->spread, lc_choose, &w, a);
    return w.err ? w.err : rc;
}

const hsim_placement_t hsim_place_least_conn = {
    .name = "least-connections",
    .summary = "fitting node running the fewest jobs (ties: lowest index)",
    .create = lc_create,
    .destroy = lc_destroy,
    .place = lc_place,
};
