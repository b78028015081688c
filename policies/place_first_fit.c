/*
 * place_first_fit.c - first-fit: the lowest-numbered nodes that fit.
 *
 * Nodes are numbered type by type, so this is also "types in their order,
 * the first node that fits within a type".  Each choice is one descent of a
 * type's max-tree (hsim_cluster_first_fit), so a job costs O(types + log
 * nodes) per node it uses, whatever the cluster size.  Assumption: nothing
 * but the free room matters; the low nodes fill first, which keeps the high
 * ones whole for wide jobs.
 */
#include "place_common.h"

static int ff_place(void *state, const hsim_cluster_t *c, const hsim_request_t *r,
                    hsim_alloc_t *a)
{
    const hsim_place_plain_t *s = state;
    hsim_place_ring_t ring = {.lo = 0, .hi = (int32_t)c->n_nodes, .start = 0};
    return hsim_place_request(c, r, s->spread, hsim_place_ring_choose, &ring, a);
}

const hsim_placement_t hsim_place_first_fit = {
    .name = "first-fit",
    .summary = "lowest-numbered nodes that fit (types in order)",
    .create = hsim_place_plain_create,
    .destroy = hsim_place_plain_destroy,
    .place = ff_place,
};
