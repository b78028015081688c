/*
 * place_best_fit.c - best-fit: the node left with the least free room.
 *
 * The primary resource is free GPUs for GPU jobs and free cores otherwise.
 * Among the nodes that fit, the one with the smallest free primary wins;
 * ties go to the earlier type, then to the node's place in its bucket (the
 * most recently changed node first, which is deterministic).  The walk goes
 * through the per-type buckets from the needed value upward, so a job costs
 * the empty buckets crossed (at most cores or GPUs per node, times types)
 * plus the nodes met that fit the primary but not memory, GPUs or FPGAs.
 * A job larger than every node takes the largest nodes first.
 * Assumption: filling the fullest nodes keeps whole nodes for wide jobs.
 */
#include "place_common.h"

static int bf_place(void *state, const hsim_cluster_t *c, const hsim_request_t *r,
                    hsim_alloc_t *a)
{
    const hsim_place_plain_t *s = state;
    hsim_place_walk_t w;
    hsim_place_walk_init(&w, c, r, +1);
    return hsim_place_request(c, r, s->spread, hsim_place_walk_choose, &w, a);
}

const hsim_placement_t hsim_place_best_fit = {
    .name = "best-fit",
    .summary = "node with the least free cores (GPUs for GPU jobs) that fits",
    .create = hsim_place_plain_create,
    .destroy = hsim_place_plain_destroy,
    .place = bf_place,
};
