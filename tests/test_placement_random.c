/*
 * test_placement_random.c - the placement policies against brute force on
 * random clusters, and a timing of best-fit at scale.
 *
 * The brute force below re-derives first-fit's layout from the request
 * semantics (hsim_place_request()) by scanning the nodes in index order,
 * without trees, buckets or the allocator's code, and must agree part for
 * part.  Best-fit, worst-fit, least-connections and heterogeneity-aware
 * are checked on single-node requests against a scan of every node that
 * fits; every policy's allocation is checked for validity, and every
 * policy must agree with brute force on whether a request fits at all
 * (the layouts are complete) wherever memory and FPGAs split evenly.
 * Least-connections' whole walk, node by node, against a scan of every
 * node in key order (scan_lc_choose()).
 */
#include "placement_test.h"

#include <gsl/gsl_rng.h>
#include <time.h>

/* ------------------------------------------------------------ brute force */

typedef struct need {
    int32_t cores;
    int64_t mem;
    int32_t gpus;
    int32_t milli;      /* < 1000 with gpus == 1: a share of one GPU */
    int32_t fpgas;
} need_t;

static int ok_type(const hsim_cluster_t *c, size_t t, const hsim_request_t *r)
{
    return hsim_type_accepts(c, t, r) && hsim_cluster_speed(c, r->job_class, t, r->gpus > 0) > 0;
}

/* The fullest GPU of node n with at least milli free, ties to the lowest. */
static int32_t fullest_gpu(const hsim_cluster_t *c, int32_t n, int32_t milli)
{
    int32_t best = -1;
    size_t g0 = c->gpu_first[n];
    for (int32_t g = 0; g < c->types[c->nodes[n].type].gpus; g++) {
        int16_t f = c->gpu_milli[g0 + (size_t)g];
        if (f >= milli && (best < 0 || f < c->gpu_milli[g0 + (size_t)best]))
            best = g;
    }
    return best;
}

/* Does node n hold x on top of what h already holds there? */
static int fits_held(const hsim_cluster_t *c, int32_t n, const need_t *x, const hsim_part_t *h)
{
    const hsim_node_t *nd = &c->nodes[n];
    if (nd->free_cores - h->cores < x->cores || nd->free_fpgas - h->fpgas < x->fpgas)
        return 0;
    if (c->types[nd->type].mem_mb > 0 && nd->free_mem - h->mem_mb < x->mem)
        return 0;
    if (x->gpus > 0 && x->milli < 1000)
        return fullest_gpu(c, n, x->milli) >= 0;
    return nd->free_gpus - h->gpus >= x->gpus;
}

static int64_t cum(int64_t total, int64_t units, int64_t k) { return (total * k + units - 1) / units; }

static const hsim_part_t NONE = {0};

/* Adds the unit number done (0-based) to p if it fits; 1 if it did. */
static int add_unit(const hsim_cluster_t *c, hsim_part_t *p, const hsim_request_t *r,
                    int64_t units, int32_t per_unit, int64_t done)
{
    need_t inc = {per_unit, cum(r->mem_mb, units, done + 1) - cum(r->mem_mb, units, done),
                  r->gpus > 0, 1000,
                  (int32_t)(cum(r->fpgas, units, done + 1) - cum(r->fpgas, units, done))};
    if (!fits_held(c, p->node, &inc, p))
        return 0;
    p->cores += inc.cores;
    p->gpus += inc.gpus;
    p->fpgas += inc.fpgas;
    if (c->types[c->nodes[p->node].type].mem_mb > 0)
        p->mem_mb += inc.mem;
    return 1;
}

static int brute_first_fit(const hsim_cluster_t *c, const hsim_request_t *r,
                           hsim_spread_t spread, hsim_alloc_t *a)
{
    a->n = 0;
    int share = r->gpus == 1 && r->gpu_milli >= 1 && r->gpu_milli < 1000;
    int32_t procs = r->procs > 0 ? r->procs : 1;
    if (r->nodes > 0 || share) {
        int32_t n = r->nodes > 0 ? r->nodes : 1;
        int32_t cpn = r->nodes > 0 && r->cores_per_node >= 1 ? r->cores_per_node
                      : r->nodes > 0                         ? (procs + n - 1) / n
                                                             : procs;
        need_t slot[16];
        int filled[16] = {0};
        HSIM_ASSERT(n <= 16);
        for (int32_t i = 0; i < n; i++) {
            slot[i] = (need_t){cpn, r->mem_mb / n + (i < r->mem_mb % n), r->gpus / n + (i < r->gpus % n),
                               1000, r->fpgas / n + (i < r->fpgas % n)};
            if (share && slot[i].gpus == 1)
                slot[i].milli = r->gpu_milli;
        }
        int32_t left = n;
        for (int32_t node = 0; (size_t)node < c->n_nodes && left > 0; node++) {
            if (!ok_type(c, (size_t)c->nodes[node].type, r))
                continue;
            int32_t i = 0;
            while (i < n && (filled[i] || !fits_held(c, node, &slot[i], &NONE)))
                i++;
            if (i == n)
                continue;
            int modelled = c->types[c->nodes[node].type].mem_mb > 0;
            hsim_part_t p = {node, slot[i].cores, modelled ? slot[i].mem : 0, slot[i].gpus, -1, 0,
                             slot[i].fpgas};
            if (slot[i].milli < 1000) {
                p.gpus = 0;
                p.gpu = fullest_gpu(c, node, slot[i].milli);
                p.gpu_milli = slot[i].milli;
            }
            hsim_alloc_add(a, &p);
            filled[i] = 1;
            left--;
        }
        if (left)
            a->n = 0;
        return left ? HSIM_NOFIT : 0;
    }
    int64_t units = r->gpus > 0 ? r->gpus : procs;
    int32_t per = r->gpus > 0 ? (procs + r->gpus - 1) / r->gpus : 1;
    if (spread == HSIM_PACK && units > 1) {
        need_t whole = {(int32_t)(units * per), r->mem_mb, r->gpus, 1000, r->fpgas};
        for (int32_t node = 0; (size_t)node < c->n_nodes; node++)
            if (ok_type(c, (size_t)c->nodes[node].type, r) && fits_held(c, node, &whole, &NONE)) {
                int modelled = c->types[c->nodes[node].type].mem_mb > 0;
                hsim_part_t p = {node, whole.cores, modelled ? r->mem_mb : 0, r->gpus, -1, 0,
                                 r->fpgas};
                hsim_alloc_add(a, &p);
                return 0;
            }
    }
    need_t unit = {per, cum(r->mem_mb, units, 1), r->gpus > 0, 1000,
                   (int32_t)cum(r->fpgas, units, 1)};
    /* packed, a node takes the next units; spread, one at a time, each
       node held to what its first k units would hold, and laid out side
       by side in the order the nodes were chosen at the end */
    int64_t done = 0, count[64] = {0};
    for (int32_t node = 0; (size_t)node < c->n_nodes && done < units; node++) {
        if (!ok_type(c, (size_t)c->nodes[node].type, r) || !fits_held(c, node, &unit, &NONE))
            continue;
        HSIM_ASSERT(a->n < 64);
        hsim_part_t p = {.node = node, .gpu = -1};
        if (spread == HSIM_SPREAD) {
            count[a->n] = add_unit(c, &p, r, units, per, 0);
            done += count[a->n];
        } else {
            while (done < units && add_unit(c, &p, r, units, per, done))
                done++;
        }
        hsim_alloc_add(a, &p);
    }
    /* rounds of one unit each: a node that cannot take one more is dropped
       for good */
    int dropped[64] = {0};
    for (int progress = 1; spread == HSIM_SPREAD && progress && done < units;) {
        progress = 0;
        for (size_t i = 0; i < a->n && done < units; i++) {
            if (dropped[i])
                continue;
            if (add_unit(c, &a->parts[i], r, units, per, count[i])) {
                count[i]++;
                done++;
                progress = 1;
            } else {
                dropped[i] = 1;
            }
        }
    }
    for (size_t i = 0, first = 0; spread == HSIM_SPREAD && done == units && i < a->n; i++) {
        hsim_part_t *p = &a->parts[i];
        int modelled = c->types[c->nodes[p->node].type].mem_mb > 0;
        p->mem_mb = modelled ? cum(r->mem_mb, units, first + count[i]) - cum(r->mem_mb, units, first)
                             : 0;
        p->fpgas = (int32_t)(cum(r->fpgas, units, first + count[i]) - cum(r->fpgas, units, first));
        first += (size_t)count[i];
    }
    if (done < units)
        a->n = 0;
    return done < units ? HSIM_NOFIT : 0;
}

/* ----------------------------------------------------------- random input */

static int32_t rnd(gsl_rng *g, int32_t n) { return (int32_t)gsl_rng_uniform_int(g, (unsigned long)n); }

static void random_cluster(gsl_rng *g, hsim_cluster_t *c)
{
    hsim_node_type_t t[4];
    size_t nt = 1 + (size_t)rnd(g, 4);
    for (size_t i = 0; i < nt; i++) {
        int gpus = rnd(g, 2) ? 0 : 1 + rnd(g, 4);
        t[i] = ntype("t", 1 + rnd(g, 12), 1 + rnd(g, 16), rnd(g, 4) ? 1000 * (1 + rnd(g, 8)) : 0,
                     gpus, rnd(g, 2) ? "A" : "B", rnd(g, 10) < 3 ? 1 + rnd(g, 2) : 0);
        t[i].speed = 1 + 0.5 * rnd(g, 3);
    }
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(c, t, nt), 0);
    for (int32_t n = 0; (size_t)n < c->n_nodes; n++) {
        const hsim_node_t *nd = &c->nodes[n];
        if (rnd(g, 10) < 6)
            occupy(c, n, rnd(g, nd->free_cores + 1), nd->free_mem ? rnd(g, (int32_t)nd->free_mem + 1) : 0,
                   rnd(g, nd->free_gpus + 1), rnd(g, nd->free_fpgas + 1));
        int32_t ng = c->types[nd->type].gpus;
        if (ng > 0 && rnd(g, 10) < 3) {
            int32_t gpu = rnd(g, ng);
            int16_t f = c->gpu_milli[c->gpu_first[n] + (size_t)gpu];
            if (f > 0) {
                hsim_alloc_t a = {0};
                hsim_part_t p = {.node = n, .gpu = gpu, .gpu_milli = 1 + rnd(g, f)};
                hsim_alloc_add(&a, &p);
                hsim_cluster_take(c, &a, 0);
                hsim_alloc_free(&a);
            }
        }
    }
}

static hsim_request_t random_request(gsl_rng *g)
{
    hsim_request_t r = cpu_req(1);
    switch (rnd(g, 4)) {
    case 0: /* cores anywhere */
        r.procs = 1 + rnd(g, 40);
        break;
    case 1: /* whole nodes */
        r.nodes = 1 + rnd(g, 4);
        r.cores_per_node = 1 + rnd(g, 8);
        r.procs = r.nodes * r.cores_per_node;
        r.gpus = rnd(g, 2) ? 0 : rnd(g, 9);
        break;
    case 2: /* whole GPUs anywhere */
        r.gpus = 1 + rnd(g, 8);
        r.procs = 1 + rnd(g, 16);
        break;
    default: /* a GPU share */
        r.gpus = 1;
        r.gpu_milli = 1 + rnd(g, 999);
        r.procs = 1 + rnd(g, 4);
        r.nodes = rnd(g, 2);
        r.cores_per_node = r.nodes ? r.procs : 0;
        break;
    }
    r.mem_mb = rnd(g, 3) ? 0 : rnd(g, 20000);
    r.fpgas = rnd(g, 10) < 2 ? 1 + rnd(g, 2) : 0;
    if (r.gpus > 0 && rnd(g, 10) < 3)
        r.gpu_models = rnd(g, 10) ? 1u + (uint32_t)rnd(g, 3) : HSIM_MODEL_ABSENT;
    return r;
}

static int same_parts(const hsim_alloc_t *x, const hsim_alloc_t *y)
{
    if (x->n != y->n)
        return 0;
    for (size_t i = 0; i < x->n; i++) {
        const hsim_part_t *p = &x->parts[i], *q = &y->parts[i];
        if (p->node != q->node || p->cores != q->cores || p->mem_mb != q->mem_mb ||
            p->gpus != q->gpus || p->gpu != q->gpu || p->gpu_milli != q->gpu_milli ||
            p->fpgas != q->fpgas)
            return 0;
    }
    return 1;
}

/* Single-node requests: the need of the one node that holds all of it,
   or 0 when the layout may span nodes. */
static int single_need(const hsim_request_t *r, hsim_spread_t s, need_t *x)
{
    int share = r->gpus == 1 && r->gpu_milli >= 1 && r->gpu_milli < 1000;
    int32_t procs = r->procs > 0 ? r->procs : 1;
    if (r->nodes > 1)
        return 0;
    if (r->nodes == 1 || share) {
        int32_t cpn = r->nodes == 1 && r->cores_per_node >= 1 ? r->cores_per_node : procs;
        *x = (need_t){cpn, r->mem_mb, r->gpus, share ? r->gpu_milli : 1000, r->fpgas};
        return 1;
    }
    int64_t units = r->gpus > 0 ? r->gpus : procs;
    if (s == HSIM_SPREAD && units > 1)
        return 0;
    int32_t per = r->gpus > 0 ? (procs + r->gpus - 1) / r->gpus : 1;
    *x = (need_t){(int32_t)(units * per), r->mem_mb, r->gpus, 1000, r->fpgas};
    return 1;
}

/*
 * least-connections' walk by a scan of every node: the first call takes
 * the fitting node of the least key (jobs, index); each later call the
 * next node in that order, after the last one taken, that fits both its
 * own ask and the second call's (and is not taken yet).
 */
typedef struct scan_lc {
    int calls;
    hsim_ask_t second;
    int64_t after;
} scan_lc_t;

static int taken(const hsim_alloc_t *a, int32_t n)
{
    for (size_t i = 0; i < a->n; i++)
        if (a->parts[i].node == n)
            return 1;
    return 0;
}

static int32_t scan_lc_choose(void *ctx, const hsim_cluster_t *c, const hsim_request_t *r,
                              const hsim_ask_t *ask, const hsim_alloc_t *a)
{
    scan_lc_t *w = ctx;
    if (ask->first)
        w->calls = 0;
    if (++w->calls == 2) {
        w->second = *ask;
        w->after = -1;
    }
    const hsim_ask_t *second = w->calls == 1 ? ask : &w->second;
    int64_t after = w->calls == 1 ? -1 : w->after, best = INT64_MAX;
    int32_t node = -1;
    for (int32_t n = 0; (size_t)n < c->n_nodes; n++) {
        int64_t key = (int64_t)c->nodes[n].jobs << 32 | n;
        if (key <= after || key >= best || !hsim_place_type_ok(c, (size_t)c->nodes[n].type, r) ||
            !hsim_place_fits(c, n, second) || !hsim_place_fits(c, n, ask) || taken(a, n))
            continue;
        best = key;
        node = n;
    }
    if (node >= 0 && w->calls > 1)
        w->after = best;
    return node;
}

#define N_POL 8

static void check_single(const hsim_cluster_t *c, const hsim_request_t *r, hsim_spread_t s,
                         const char *name, const hsim_alloc_t *a, int rc)
{
    need_t x;
    if (!single_need(r, s, &x))
        return;
    int gpu = r->gpus > 0;
    int32_t lo = INT32_MAX, hi = -1, least = INT32_MAX, first_least = -1;
    double fastest = 0;
    for (int32_t n = 0; (size_t)n < c->n_nodes; n++) {
        size_t t = (size_t)c->nodes[n].type;
        if (!ok_type(c, t, r) || !fits_held(c, n, &x, &NONE))
            continue;
        int32_t v = gpu ? c->nodes[n].free_gpus : c->nodes[n].free_cores;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        if (c->nodes[n].jobs < least) { /* nodes are in type order */
            least = c->nodes[n].jobs;
            first_least = n;
        }
        double sp = hsim_cluster_speed(c, r->job_class, t, gpu);
        fastest = sp > fastest ? sp : fastest;
    }
    if (hi < 0)
        return; /* no single node: the request may still span nodes */
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    int32_t n = a->parts[0].node;
    int32_t v = gpu ? c->nodes[n].free_gpus : c->nodes[n].free_cores;
    int bad = 0;
    if (!strcmp(name, "best-fit"))
        bad = a->n != 1 || v != lo;
    else if (!strcmp(name, "worst-fit"))
        bad = a->n != 1 || v != hi;
    else if (!strcmp(name, "least-connections"))
        bad = a->n != 1 || n != first_least; /* ties: the lowest index */
    else if (!strcmp(name, "heterogeneity-aware") && (r->nodes == 1 || a->n == 1))
        bad = hsim_cluster_speed(c, r->job_class, (size_t)c->nodes[n].type, gpu) != fastest;
    if (bad)
        fprintf(stderr, "\n%s: node %d (primary %d, %zu parts); fitting range %d..%d\n", name,
                n, v, a->n, lo, hi);
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_differential(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 20240611);
    long cases = 0, fits = 0, spans = 0, lc_walks = 0;
    for (int round = 0; round < 400; round++) {
        hsim_cluster_t c;
        random_cluster(g, &c);
        for (int s = 0; s < 2; s++) {
            hsim_spread_t spread = (hsim_spread_t)s;
            pol_t pol[N_POL];
            for (int k = 0; k < N_POL; k++)
                pol[k] = pol_open(hsim_placements[k]->name, &c, spread);
            for (int q = 0; q < 25; q++) {
                hsim_request_t r = random_request(g);
                hsim_alloc_t want = {0}, got = {0};
                int rc_want = brute_first_fit(&c, &r, spread, &want);
                int units = r.gpus > 0 ? r.gpus : (r.procs > 0 ? r.procs : 1);
                int even = r.nodes > 0 || (r.gpus == 1 && r.gpu_milli < 1000) ||
                           (r.mem_mb % units == 0 && r.fpgas % units == 0);
                for (int k = 0; k < N_POL; k++) {
                    int rc = pol_place(&pol[k], &c, &r, &got);
                    if (k == 0 && (rc != rc_want || !same_parts(&want, &got))) {
                        fprintf(stderr, "\nfirst-fit differs from brute force (round %d, "
                                        "request %d, spread %d): rc %d vs %d, %zu vs %zu parts\n",
                                round, q, s, rc, rc_want, got.n, want.n);
                        CU_FAIL("first-fit differs from brute force");
                    }
                    if (even && rc != rc_want) {
                        fprintf(stderr, "\n%s: rc %d, brute force %d (round %d, request %d)\n",
                                hsim_placements[k]->name, rc, rc_want, round, q);
                        CU_FAIL("a policy disagrees on whether the request fits");
                    }
                    check_single(&c, &r, spread, hsim_placements[k]->name, &got, rc);
                    if (!strcmp(hsim_placements[k]->name, "least-connections")) {
                        hsim_alloc_t scan = {0};
                        scan_lc_t w = {0};
                        int rc_scan = hsim_place_request(&c, &r, spread, scan_lc_choose, &w, &scan);
                        if (rc != rc_scan || !same_parts(&scan, &got)) {
                            fprintf(stderr, "\nleast-connections differs from its scan (round %d, "
                                            "request %d, spread %d): %zu vs %zu parts\n",
                                    round, q, s, got.n, scan.n);
                            CU_FAIL("least-connections differs from a scan of the nodes");
                        }
                        lc_walks += scan.n > 1;
                        hsim_alloc_free(&scan);
                    }
                }
                cases++;
                fits += rc_want == 0;
                spans += rc_want == 0 && want.n > 1;
                hsim_alloc_free(&want);
                hsim_alloc_free(&got);
            }
            for (int k = 0; k < N_POL; k++)
                pol_close(&pol[k]);
        }
        hsim_cluster_free(&c);
    }
    printf("\n  %ld requests, %ld fit, %ld of them on several nodes (least-connections: %ld)\n",
           cases, fits, spans, lc_walks);
    CU_ASSERT_TRUE(fits > cases / 4 && spans > cases / 20); /* the cases are not trivial */
    CU_ASSERT_TRUE(lc_walks > cases / 20);
    gsl_rng_free(g);
}

/* ------------------------------------------------------------- benchmark */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Are the cluster's free cores and whole GPUs the sums of its nodes'? */
static int free_sums_hold(const hsim_cluster_t *c)
{
    int64_t cores = 0, gpus = 0;
    for (size_t n = 0; n < c->n_nodes; n++) {
        cores += c->nodes[n].free_cores;
        gpus += c->nodes[n].free_gpus;
    }
    return cores == c->free_cores && gpus == c->free_gpus;
}

/* Ends a random running job: gives its resources back. */
static void end_one(hsim_cluster_t *c, hsim_alloc_t *run, size_t *n_run, gsl_rng *g)
{
    size_t k = (size_t)rnd(g, (int32_t)*n_run);
    hsim_cluster_give(c, &run[k], 0);
    hsim_alloc_free(&run[k]);
    run[k] = run[--*n_run];
    run[*n_run] = (hsim_alloc_t){0};
}

/* 1,000,000 single-node jobs, best-fit, on 100,000 nodes of three types;
   up to 150,000 run at once, a random one ends when the pool is full or a
   job does not fit.  Prints the time; asserts only the results' validity. */
static void test_best_fit_1m(void)
{
    hsim_node_type_t t[] = {ntype("cpu32", 50000, 32, 262144, 0, NULL, 0),
                            ntype("cpu64", 30000, 64, 524288, 0, NULL, 0),
                            ntype("gpu", 20000, 32, 524288, 8, "H100", 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 3), 0);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 7);
    enum { POOL = 150000, JOBS = 1000000 };
    hsim_alloc_t *run = hsim_calloc(POOL, sizeof *run);
    CU_ASSERT_PTR_NOT_NULL_FATAL(run);
    size_t n_run = 0;
    long nofit = 0, bad = 0;
    pol_t p = pol_open("best-fit", &c, HSIM_PACK);
    double t0 = now_s();
    for (long j = 0; j < JOBS; j++) {
        hsim_request_t r;
        if (rnd(g, 5)) {
            r = node_req(1, 1 + rnd(g, 32));
            r.mem_mb = 1024 * (int64_t)r.procs;
        } else {
            int32_t gpus = 1 + rnd(g, 8);
            r = gpu_req(4 * gpus, gpus, 1000);
            r.nodes = 1;
            r.cores_per_node = 4 * gpus;
        }
        if (n_run == POOL)
            end_one(&c, run, &n_run, g);
        if (j % 50000 == 0) /* the cluster's free sums, which placement reads */
            bad += !free_sums_hold(&c);
        hsim_alloc_t *a = &run[n_run];
        int rc = p.p->place(p.st, &c, &r, a);
        if (rc == 0) {
            bad += a->n != 1 || !hsim_node_fits(&c, a->parts[0].node, a->parts[0].cores,
                                                a->parts[0].mem_mb, a->parts[0].gpus, 1000, 0);
            hsim_cluster_take(&c, a, 0);
            n_run++;
        } else {
            hsim_alloc_free(a);
            nofit++;
            if (n_run > 0)
                end_one(&c, run, &n_run, g);
        }
    }
    double dt = now_s() - t0;
    printf("\n  best-fit: %d jobs on %zu nodes in %.2f s (%.2f us a job, takes and gives "
           "included), %ld did not fit at once\n", JOBS, c.n_nodes, dt, dt * 1e6 / JOBS, nofit);
    CU_ASSERT_EQUAL(bad, 0);
    for (size_t k = 0; k < n_run; k++) {
        hsim_cluster_give(&c, &run[k], 0);
        hsim_alloc_free(&run[k]);
    }
    for (size_t n = 0; n < c.n_nodes; n++)
        bad += c.nodes[n].jobs != 0 || c.nodes[n].free_cores != c.types[c.nodes[n].type].cores;
    bad += !free_sums_hold(&c) || c.free_cores != c.total_cores || c.free_gpus != c.total_gpus;
    CU_ASSERT_EQUAL(bad, 0);
    hsim_free(run);
    pol_close(&p);
    gsl_rng_free(g);
    hsim_cluster_free(&c);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("placement_random");
    HSIM_TEST(s, test_differential);
    HSIM_TEST(s, test_best_fit_1m);
}
