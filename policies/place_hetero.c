/*
 * place_hetero.c - heterogeneity-aware placement, after Gavel (Narayanan et
 * al., OSDI 2020): run a job on the node type where its class runs fastest.
 *
 * The types the job may use are tried in decreasing speed for its class
 * (hsim_cluster_speed; GPU jobs by their GPU speed), ties by type order;
 * the job goes to the first type that can hold all of it, best-fit within
 * that type.  Types where the class cannot run (speed <= 0) are never
 * used.  A job that no single type can hold spans types, best-fit with the
 * faster type first at each free value, rather than wait forever.
 * Cost: up to types + 1 best-fit attempts, each as in best-fit; O(types^2)
 * to order the types.  Assumption: Gavel allocates time shares by solving
 * an optimisation; here, one job at a time, the greedy "fastest type with
 * room" is the per-job form of its throughput-maximising policy.
 */
#include "place_common.h"

static int het_place(void *state, const hsim_cluster_t *c, const hsim_request_t *r,
                     hsim_alloc_t *a)
{
    const hsim_place_plain_t *s = state;
    hsim_place_walk_t all;
    hsim_place_walk_init(&all, c, r, +1);
    int gpu = r->gpus > 0;
    double speed[HSIM_MAX_NODE_TYPES];
    for (size_t i = 0; i < all.n_order; i++)
        speed[all.order[i]] = hsim_cluster_speed(c, r->job_class, all.order[i], gpu);
    /* insertion sort, stable: decreasing speed, ties by type order */
    for (size_t i = 1; i < all.n_order; i++) {
        uint8_t t = all.order[i];
        size_t j = i;
        while (j > 0 && speed[all.order[j - 1]] < speed[t]) {
            all.order[j] = all.order[j - 1];
            j--;
        }
        all.order[j] = t;
    }
    for (size_t i = 0; i < all.n_order; i++) {
        hsim_place_walk_t one = all;
        one.order[0] = all.order[i];
        one.n_order = 1;
        int rc = hsim_place_request(c, r, s->spread, hsim_place_walk_choose, &one, a);
        if (rc != HSIM_NOFIT)
            return rc;
    }
    if (all.n_order < 2)
        return HSIM_NOFIT;
    return hsim_place_request(c, r, s->spread, hsim_place_walk_choose, &all, a);
}

const hsim_placement_t hsim_place_hetero = {
    .name = "heterogeneity-aware",
    .summary = "fastest node type for the job's class that can hold it "
               "(Gavel-style), best-fit within it",
    .create = hsim_place_plain_create,
    .destroy = hsim_place_plain_destroy,
    .place = het_place,
};
