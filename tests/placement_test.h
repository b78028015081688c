/*
 * placement_test.h - helpers shared by the placement tests: clusters and
 * requests built by hand, policies opened by name, an independent check
 * that an allocation honours its request, and snapshots of the ledger.
 *
 * Header-only (static inline), because each tests/test_*.c is its own
 * program linked with harness.c alone.
 */
#ifndef HSIM_PLACEMENT_TEST_H
#define HSIM_PLACEMENT_TEST_H

#include "harness.h"

#include "policies/place_common.h"

#include <stdlib.h>
#include <string.h>

static inline hsim_node_type_t ntype(const char *name, int32_t count, int32_t cores,
                                     int64_t mem, int32_t gpus, const char *model,
                                     int32_t fpgas)
{
    hsim_node_type_t t;
    memset(&t, 0, sizeof t);
    hsim_strlcpy(t.name, name, sizeof t.name);
    t.count = count;
    t.cores = cores;
    t.mem_mb = mem;
    t.gpus = gpus;
    if (gpus > 0 && model)
        hsim_strlcpy(t.gpu_model, model, sizeof t.gpu_model);
    t.fpgas = fpgas;
    if (fpgas > 0)
        hsim_strlcpy(t.fpga_model, "fpga", sizeof t.fpga_model);
    t.speed = 1;
    return t;
}

static inline hsim_request_t cpu_req(int32_t procs)
{
    return (hsim_request_t){.procs = procs, .gpu_milli = 1000, .job_class = -1, .user = -1};
}

/* nodes whole nodes of cores_per_node cores each. */
static inline hsim_request_t node_req(int32_t nodes, int32_t cores_per_node)
{
    hsim_request_t r = cpu_req(nodes * cores_per_node);
    r.nodes = nodes;
    r.cores_per_node = cores_per_node;
    return r;
}

static inline hsim_request_t gpu_req(int32_t procs, int32_t gpus, int32_t milli)
{
    hsim_request_t r = cpu_req(procs);
    r.gpus = gpus;
    r.gpu_milli = milli;
    return r;
}

/* Takes what one job holds on node (whole GPUs) from the ledger. */
static inline void occupy(hsim_cluster_t *c, int32_t node, int32_t cores, int64_t mem,
                          int32_t gpus, int32_t fpgas)
{
    hsim_alloc_t a = {0};
    hsim_part_t p = {.node = node, .cores = cores, .mem_mb = mem, .gpus = gpus, .gpu = -1,
                     .fpgas = fpgas};
    CU_ASSERT_EQUAL_FATAL(hsim_alloc_add(&a, &p), 0);
    hsim_cluster_take(c, &a, 0);
    hsim_alloc_free(&a);
}

/*
 * Checks, without the allocator's code, that a holds exactly what r asks
 * on distinct nodes of acceptable types that have it free (see
 * hsim_place_request() for the layouts).
 */
static inline void check_alloc(const hsim_cluster_t *c, const hsim_request_t *r,
                               const hsim_alloc_t *a)
{
    int share = r->gpus == 1 && r->gpu_milli >= 1 && r->gpu_milli < 1000;
    int64_t cores = 0, mem = 0, gpus = 0, shares = 0, fpgas = 0;
    int modelled = 1, bad = 0;
    for (size_t i = 0; i < a->n; i++) {
        const hsim_part_t *p = &a->parts[i];
        for (size_t j = 0; j < i; j++)
            bad += a->parts[j].node == p->node;
        if (p->node < 0 || (size_t)p->node >= c->n_nodes) {
            bad++;
            continue;
        }
        const hsim_node_t *nd = &c->nodes[p->node];
        size_t t = (size_t)nd->type;
        const hsim_node_type_t *ty = &c->types[t];
        bad += !hsim_type_accepts(c, t, r) ||
               !(hsim_cluster_speed(c, r->job_class, t, r->gpus > 0) > 0);
        bad += p->cores < 0 || p->mem_mb < 0 || p->gpus < 0 || p->fpgas < 0;
        bad += nd->free_cores < p->cores || nd->free_fpgas < p->fpgas ||
               nd->free_gpus < p->gpus;
        if (ty->mem_mb > 0)
            bad += nd->free_mem < p->mem_mb;
        else
            bad += p->mem_mb != 0;
        modelled &= ty->mem_mb > 0;
        if (p->gpu >= 0) {
            bad += p->gpu >= ty->gpus || p->gpus != 0 ||
                   c->gpu_milli[c->gpu_first[p->node] + (size_t)p->gpu] < p->gpu_milli;
            shares++;
        } else {
            bad += p->gpu_milli != 0;
        }
        cores += p->cores;
        mem += p->mem_mb;
        gpus += p->gpus;
        fpgas += p->fpgas;
    }
    int32_t procs = r->procs > 0 ? r->procs : 1;
    if (r->nodes > 0 || share) {
        int32_t n = r->nodes > 0 ? r->nodes : 1;
        int32_t cpn = r->nodes > 0 && r->cores_per_node >= 1 ? r->cores_per_node
                      : r->nodes > 0                         ? (procs + n - 1) / n
                                                             : procs;
        bad += a->n != (size_t)n || cores != (int64_t)n * cpn;
        bad += share ? shares != 1 || gpus != 0 : shares != 0 || gpus != r->gpus;
    } else if (r->gpus > 0) {
        int32_t per = (procs + r->gpus - 1) / r->gpus;
        bad += cores != (int64_t)r->gpus * per || gpus != r->gpus || shares != 0;
    } else {
        bad += cores != procs || gpus != 0 || shares != 0;
    }
    bad += fpgas != r->fpgas;
    bad += modelled ? mem != r->mem_mb : mem > r->mem_mb;
    if (bad)
        fprintf(stderr, "\ninvalid allocation (%d problems) for procs %d nodes %d gpus %d "
                        "milli %d mem %lld fpgas %d\n", bad, r->procs, r->nodes, r->gpus,
                r->gpu_milli, (long long)r->mem_mb, r->fpgas);
    CU_ASSERT_EQUAL(bad, 0);
}

/* A policy with its per-run state. */
typedef struct pol {
    const hsim_placement_t *p;
    void *st;
} pol_t;

static inline pol_t pol_open(const char *name, const hsim_cluster_t *c, hsim_spread_t s)
{
    pol_t p = {hsim_placement_find(name), NULL};
    CU_ASSERT_PTR_NOT_NULL_FATAL(p.p);
    CU_ASSERT_EQUAL_FATAL(p.p->create(c, s, &p.st), 0);
    return p;
}

static inline void pol_close(pol_t *p) { p->p->destroy(p->st); }

/* Places r into a (emptied first) and checks the result when it fits. */
static inline int pol_place(pol_t *p, const hsim_cluster_t *c, const hsim_request_t *r,
                            hsim_alloc_t *a)
{
    a->n = 0;
    int rc = p->p->place(p->st, c, r, a);
    if (rc == 0)
        check_alloc(c, r, a);
    else
        CU_ASSERT_EQUAL(a->n, 0);
    return rc;
}

/* The first node p gives r, or -1; nothing is taken. */
static inline int32_t place_with(pol_t *p, const hsim_cluster_t *c, const hsim_request_t *r)
{
    hsim_alloc_t a = {0};
    int32_t n = pol_place(p, c, r, &a) == 0 ? a.parts[0].node : -1;
    hsim_alloc_free(&a);
    return n;
}

/* Places r with p, takes it from the ledger and keeps the allocation in
   keep (the caller frees it); returns its first node or -1. */
static inline int32_t pol_take(pol_t *p, hsim_cluster_t *c, const hsim_request_t *r,
                               hsim_alloc_t *keep)
{
    if (pol_place(p, c, r, keep))
        return -1;
    hsim_cluster_take(c, keep, 0);
    return keep->parts[0].node;
}

/* Places r with a fresh policy; a as in pol_place. */
static inline int run_policy(const char *name, const hsim_cluster_t *c,
                             const hsim_request_t *r, hsim_spread_t s, hsim_alloc_t *a)
{
    pol_t p = pol_open(name, c, s);
    int rc = pol_place(&p, c, r, a);
    pol_close(&p);
    return rc;
}

/* The one node a fresh policy gives r: -1 when it does not fit, -2 when
   it spans nodes. */
static inline int32_t place_node(const char *name, const hsim_cluster_t *c,
                                 const hsim_request_t *r, hsim_spread_t s)
{
    hsim_alloc_t a = {0};
    int32_t n = -1;
    if (run_policy(name, c, r, s, &a) == 0)
        n = a.n == 1 ? a.parts[0].node : -2;
    hsim_alloc_free(&a);
    return n;
}

/* A copy of the ledger's nodes and GPU shares (plain malloc: test-side). */
typedef struct snap {
    hsim_node_t *nodes;
    int16_t *milli;
    size_t n, g;
} snap_t;

static inline snap_t snap_take(const hsim_cluster_t *c)
{
    snap_t s = {NULL, NULL, c->n_nodes, 0};
    for (size_t t = 0; t < c->n_types; t++)
        s.g += (size_t)c->types[t].count * (size_t)c->types[t].gpus;
    s.nodes = malloc(s.n * sizeof *s.nodes);
    s.milli = malloc((s.g ? s.g : 1) * sizeof *s.milli);
    memcpy(s.nodes, c->nodes, s.n * sizeof *s.nodes);
    memcpy(s.milli, c->gpu_milli, s.g * sizeof *s.milli);
    return s;
}

static inline int snap_same(const snap_t *s, const hsim_cluster_t *c)
{
    return !memcmp(s->nodes, c->nodes, s->n * sizeof *s->nodes) &&
           !memcmp(s->milli, c->gpu_milli, s->g * sizeof *s->milli);
}

static inline void snap_free(snap_t *s)
{
    free(s->nodes);
    free(s->milli);
}

#endif
