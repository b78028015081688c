/*
 * place_worst_fit.c - worst-fit (least loaded): the node with the most free
 * room.
 *
 * The primary resource is free GPUs for GPU jobs and free cores otherwise.
 * The walk goes through the per-type buckets from the largest capacity
 * down; ties go to the earlier type, then to the node's place in its bucket.
 * Cost: the empty buckets above the first fitting node (at most cores or
 * GPUs per node, times types) plus the nodes met that lack memory, GPUs or
 * FPGAs.  Assumption: spreading load evens out node busy time (and thermal
 * and memory-bandwidth pressure) at the price of fragmenting whole nodes.
 */
#include "place_common.h"

static int wf_place(void *state, const hsim_cluster_t *c, const hsim_request_t *r,
                    hsim_alloc_t *a)
{
    const hsim_place_plain_t *s = state;
    hsim_place_walk_t w;
    hsim_place_walk_init(&w, c, r, -1);
    return hsim_place_request(c, r, s->spread, hsim_place_walk_choose, &w, a);
}

const hsim_placement_t hsim_place_worst_fit = {
    .name = "worst-fit",
    .summary = "least loaded: node with the most free cores (GPUs for GPU jobs)",
    .create = hsim_place_plain_create,
    .destroy = hsim_place_plain_destroy,
    .place = wf_place,
};
