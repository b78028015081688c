/*
 * place_round_robin.c - round-robin: a pointer goes round the nodes; each
 * job takes the first nodes that fit at or after it (wrapping round), and
 * the pointer moves past the last node the job was given.
 *
 * Cost: O(types + log nodes) per node used (max-tree descents), like
 * first-fit.  Assumption: the pointer is the only state; it moves only when
 * a job is placed, so a job that does not fit leaves it where it was.
 */
#include "place_common.h"

typedef struct rr {
    hsim_spread_t spread;
    int32_t next;       /* the pointer: next node tried, 0..nodes-1 */
} rr_t;

static int rr_create(const hsim_cluster_t *c, hsim_spread_t spread, void **state)
{
    (void)c;
    rr_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    s->spread = spread;
    *state = s;
    return 0;
}

static void rr_destroy(void *state) { hsim_free(state); }

static int rr_place(void *state, const hsim_cluster_t *c, const hsim_request_t *r,
                    hsim_alloc_t *a)
{
    rr_t *s = state;
    int32_t n = (int32_t)c->n_nodes;
    if (s->next >= n)
        s->next = 0;
    hsim_place_ring_t ring = {.lo = 0, .hi = n, .start = s->next};
    int rc = hsim_place_request(c, r, s->spread, hsim_place_ring_choose, &ring, a);
    if (rc == 0)
        s->next = (a->parts[a->n - 1].node + 1) % n;
    return rc;
}

const hsim_placement_t hsim_place_round_robin = {
    .name = "round-robin",
    .summary = "first nodes that fit at or after a rotating pointer",
    .create = rr_create,
    .destroy = rr_destroy,
    .place = rr_place,
};
