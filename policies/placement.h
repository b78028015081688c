/*
 * placement.h - placement (load-balancing) policies: where a job that is to
 * start runs.  The queue policy chooses what starts; the placement policy
 * chooses the nodes.
 *
 * A placement policy is a const descriptor in its own file, listed once in
 * policies/registry.c.  create() returns per-run state (round-robin
 * pointers and the like); place() reads the cluster (never changes it) and
 * writes an allocation, which the core applies.
 */
#ifndef HSIM_PLACEMENT_H
#define HSIM_PLACEMENT_H

#include "../sim/cluster.h"

/* How a job that needs several nodes' worth of resources is laid out. */
typedef enum hsim_spread {
    HSIM_PACK = 0,    /* as few nodes as possible: fill each chosen node */
    HSIM_SPREAD = 1,  /* as many nodes as possible: one unit per node */
} hsim_spread_t;

typedef struct hsim_placement {
    const char *name;
    const char *summary;
    /* Per-run state for cluster c; *state may be NULL.  0 or HSIM_ENOMEM. */
    int (*create)(const hsim_cluster_t *c, hsim_spread_t spread, void **state);
    void (*destroy)(void *state);
    /*
     * Chooses where r runs now and appends the parts to a (empty on entry).
     * Returns 0 (a holds exactly r's resources on nodes that have them
     * free), HSIM_NOFIT (a is left empty) or HSIM_ENOMEM.  Must not change
     * the cluster.  Deterministic: ties go to the lowest node index.
     */
    int (*place)(void *state, const hsim_cluster_t *c, const hsim_request_t *r,
                 hsim_alloc_t *a);
    int reads_job_counts; /* 1: it searches the cluster's job-count trees
                             (hsim_cluster_job_trees()), which are kept
                             only then */
} hsim_placement_t;

/* The registry: NULL-terminated, in the order the help lists them. */
extern const hsim_placement_t *const hsim_placements[];
const hsim_placement_t *hsim_placement_find(const char *name);
/* "a, b, c" of the valid names. */
void hsim_placement_names(char *buf, size_t size);

#endif
