/*
 * place_weighted_rr.c - weighted round-robin over node types, then
 * round-robin within the type.
 *
 * The type is chosen by smooth weighted round-robin, as nginx does it
 * (ngx_http_upstream_get_peer): each type that the job may use adds its
 * weight to its current weight, the largest current weight wins (ties: the
 * earlier type) and the winner gives back the sum of the weights.  With
 * weights 3:1 the turns go A A B A, A A B A, ... without bursts.  A type's
 * weight is speed x capacity x count, where speed is the job class's speed
 * on the type in thousandths (hsim_cluster_speed, rounded) and capacity is
 * GPUs per node for GPU jobs, cores per node otherwise; so each type gets a
 * share of the jobs in proportion to the work it can do.  Within the type a
 * pointer goes round its nodes as in round-robin.
 *
 * When the chosen type has no room the job tries the other types, largest
 * current weight first (the turn stays spent), and a job that no single
 * type can hold is laid out first-fit over the whole cluster.  A job that
 * does not fit anywhere leaves the weights as they were, so a waiting job
 * retried at every pass does not skew the rotation.
 * Cost: O(types^2) for the weights and the order of fallbacks, plus
 * O(types + log nodes) per node tried, per type tried.
 */
#include "place_common.h"

#include <math.h>
#include <string.h>

typedef struct wrr {
    hsim_spread_t spread;
    int64_t cw[HSIM_MAX_NODE_TYPES];   /* current weights (smooth WRR) */
    int32_t next[HSIM_MAX_NODE_TYPES]; /* per type: next node tried (global) */
} wrr_t;

static int wrr_create(const hsim_cluster_t *c, hsim_spread_t spread, void **state)
{
    wrr_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    s->spread = spread;
    for (size_t t = 0; t < c->n_types; t++)
        s->next[t] = c->idx[t].first;
    *state = s;
    return 0;
}

static void wrr_destroy(void *state) { hsim_free(state); }

static int64_t weight(const hsim_cluster_t *c, size_t t, const hsim_request_t *r)
{
    const hsim_node_type_t *ty = &c->types[t];
    double speed = hsim_cluster_speed(c, r->job_class, t, r->gpus > 0);
    int64_t cap = r->gpus > 0 ? ty->gpus : ty->cores;
    return llround(speed * 1000.0) * cap * ty->count;
}

/* Places r within type t from its pointer; moves the pointer on success. */
static int try_type(wrr_t *s, const hsim_cluster_t *c, size_t t, const hsim_request_t *r,
                    hsim_alloc_t *a)
{
    const hsim_type_index_t *x = &c->idx[t];
    hsim_place_ring_t ring = {.lo = x->first, .hi = x->first + x->count, .start = s->next[t]};
    if (ring.start < ring.lo || ring.start >= ring.hi)
        ring.start = ring.lo;
    int rc = hsim_place_request(c, r, s->spread, hsim_place_ring_choose, &ring, a);
    if (rc == 0) {
        int32_t last = a->parts[a->n - 1].node + 1;
        s->next[t] = last < ring.hi ? last : ring.lo;
    }
    return rc;
}

static int wrr_place(void *state, const hsim_cluster_t *c, const hsim_request_t *r,
                     hsim_alloc_t *a)
{
    wrr_t *s = state;
    uint8_t types[HSIM_MAX_NODE_TYPES];
    size_t nt = hsim_place_types(c, r, types);
    int64_t saved[HSIM_MAX_NODE_TYPES], total = 0;
    memcpy(saved, s->cw, sizeof saved);
    int best = -1;
    for (size_t i = 0; i < nt; i++) {
        int64_t w = weight(c, types[i], r);
        if (w <= 0)
            continue;
        s->cw[types[i]] += w;
        total += w;
        if (best < 0 || s->cw[types[i]] > s->cw[best])
            best = types[i];
    }
    if (best >= 0)
        s->cw[best] -= total;
    /* the order of tries: the winner, then by current weight, ties by type */
    uint8_t order[HSIM_MAX_NODE_TYPES];
    size_t n = 0;
    if (best >= 0)
        order[n++] = (uint8_t)best;
    for (size_t i = 0; i < nt; i++) {
        if (types[i] == best)
            continue;
        size_t j = n++;
        while (j > (best >= 0 ? 1u : 0u) && s->cw[order[j - 1]] < s->cw[types[i]]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = types[i];
    }
    int rc = HSIM_NOFIT;
    for (size_t i = 0; i < n && rc == HSIM_NOFIT; i++)
        rc = try_type(s, c, order[i], r, a);
    if (rc == HSIM_NOFIT && nt > 1) {
        hsim_place_ring_t ring = {.lo = 0, .hi = (int32_t)c->n_nodes, .start = 0};
        rc = hsim_place_request(c, r, s->spread, hsim_place_ring_choose, &ring, a);
    }
    if (rc)
        memcpy(s->cw, saved, sizeof saved);
    return rc;
}

const hsim_placement_t hsim_place_weighted_rr = {
    .name = "weighted-round-robin",
    .summary = "smooth weighted round-robin over node types (speed x capacity), "
               "round-robin within a type",
    .create = wrr_create,
    .destroy = wrr_destroy,
    .place = wrr_place,
};
