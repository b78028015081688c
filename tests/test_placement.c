/*
 * test_placement.c - the placement policies on clusters built by hand.
 *
 * Each scenario's expected nodes were worked out by hand and are written
 * beside it: first-, best- and worst-fit choosing differently, the rotating
 * pointers, weighted round-robin's proportions, least-connections,
 * source-hash stickiness, the heterogeneity-aware order, GPU models, FPGAs,
 * GPU shares, multi-node requests, pack and spread layouts, and requests
 * that do not fit.  Every allocation a policy returns is also checked
 * against the request's semantics (see check_alloc).  The random
 * differential tests and the benchmark are in test_placement_random.c.
 */
#include "placement_test.h"

/* -------------------------------------------------------- first/best/worst */

/* 4 nodes x 8 cores; free after the takes: 6, 2, 8, 4. */
static void test_fit_policies_differ(void)
{
    hsim_node_type_t t[] = {ntype("cpu", 4, 8, 0, 0, NULL, 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 1), 0);
    occupy(&c, 0, 2, 0, 0, 0);
    occupy(&c, 1, 6, 0, 0, 0);
    occupy(&c, 3, 4, 0, 0, 0);
    hsim_request_t r3 = cpu_req(3), r1 = cpu_req(1), r7 = cpu_req(7);
    CU_ASSERT_EQUAL(place_node("first-fit", &c, &r3, HSIM_PACK), 0);  /* lowest index */
    CU_ASSERT_EQUAL(place_node("best-fit", &c, &r3, HSIM_PACK), 3);   /* 4 free: tightest */
    CU_ASSERT_EQUAL(place_node("worst-fit", &c, &r3, HSIM_PACK), 2);  /* 8 free */
    CU_ASSERT_EQUAL(place_node("first-fit", &c, &r1, HSIM_PACK), 0);
    CU_ASSERT_EQUAL(place_node("best-fit", &c, &r1, HSIM_PACK), 1);   /* 2 free */
    CU_ASSERT_EQUAL(place_node("worst-fit", &c, &r1, HSIM_PACK), 2);
    CU_ASSERT_EQUAL(place_node("first-fit", &c, &r7, HSIM_PACK), 2);  /* only node 2 */
    CU_ASSERT_EQUAL(place_node("best-fit", &c, &r7, HSIM_PACK), 2);
    /* best-fit by GPUs for GPU jobs, not by cores */
    hsim_cluster_free(&c);
    hsim_node_type_t g[] = {ntype("gpu", 3, 8, 0, 4, "V100", 0)};
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, g, 1), 0);
    occupy(&c, 0, 6, 0, 1, 0);  /* node 0: 2 cores, 3 GPUs free */
    occupy(&c, 1, 0, 0, 2, 0);  /* node 1: 8 cores, 2 GPUs free */
    hsim_request_t rg = gpu_req(2, 2, 1000);
    CU_ASSERT_EQUAL(place_node("best-fit", &c, &rg, HSIM_PACK), 1);
    CU_ASSERT_EQUAL(place_node("worst-fit", &c, &rg, HSIM_PACK), 2);
    CU_ASSERT_EQUAL(place_node("first-fit", &c, &rg, HSIM_PACK), 0);
    hsim_cluster_free(&c);
}

/* best-fit walks types in order at each free value; a job larger than any
   node takes the largest nodes first. */
static void test_best_fit_ties_and_wide(void)
{
    hsim_node_type_t t[] = {ntype("a", 2, 4, 0, 0, NULL, 0), ntype("b", 2, 8, 0, 0, NULL, 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 2), 0);
    occupy(&c, 2, 4, 0, 0, 0); /* node 2 (type b): 4 free, ties with nodes 0, 1 */
    hsim_request_t r = cpu_req(4);
    CU_ASSERT_EQUAL(place_node("best-fit", &c, &r, HSIM_PACK), 0); /* type a first */
    occupy(&c, 0, 1, 0, 0, 0);
    CU_ASSERT_EQUAL(place_node("best-fit", &c, &r, HSIM_PACK), 1);
    /* 12 cores: no node holds it; largest first: node 3 (8), then a 4 */
    r = cpu_req(12);
    hsim_alloc_t a = {0};
    CU_ASSERT_EQUAL(run_policy("best-fit", &c, &r, HSIM_PACK, &a), 0);
    CU_ASSERT_EQUAL(a.n, 2);
    if (a.n == 2) {
        CU_ASSERT_EQUAL(a.parts[0].node, 3);
        CU_ASSERT_EQUAL(a.parts[0].cores, 8);
        CU_ASSERT_EQUAL(a.parts[1].node, 1);  /* 4 free, type a before node 2 */
        CU_ASSERT_EQUAL(a.parts[1].cores, 4);
    }
    hsim_alloc_free(&a);
    hsim_cluster_free(&c);
}

/* ------------------------------------------------------------ round-robin */

static void test_round_robin_rotates(void)
{
    hsim_node_type_t t[] = {ntype("cpu", 4, 4, 0, 0, NULL, 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 1), 0);
    pol_t p = pol_open("round-robin", &c, HSIM_PACK);
    hsim_request_t r = cpu_req(1);
    hsim_alloc_t held[8] = {{0}};
    int32_t want[] = {0, 1, 2, 3, 0, 1};
    for (int i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(pol_take(&p, &c, &r, &held[i]), want[i]);
    occupy(&c, 2, 3, 0, 0, 0);                          /* node 2 full */
    CU_ASSERT_EQUAL(pol_take(&p, &c, &r, &held[6]), 3); /* pointer at 2: skips it */
    hsim_request_t big = node_req(1, 5);
    hsim_alloc_t a = {0};
    CU_ASSERT_EQUAL(pol_place(&p, &c, &big, &a), HSIM_NOFIT); /* pointer stays */
    CU_ASSERT_EQUAL(a.n, 0);
    CU_ASSERT_EQUAL(pol_take(&p, &c, &r, &held[7]), 0);
    /* a two-node job moves the pointer past its last node */
    hsim_request_t two = cpu_req(2);
    two.nodes = 2;
    two.cores_per_node = 1;
    CU_ASSERT_EQUAL(pol_place(&p, &c, &two, &a), 0);
    CU_ASSERT_EQUAL(a.n, 2);
    if (a.n == 2) {
        CU_ASSERT_EQUAL(a.parts[0].node, 1);
        CU_ASSERT_EQUAL(a.parts[1].node, 3);
    }
    CU_ASSERT_EQUAL(place_with(&p, &c, &r), 0);  /* after 3: wraps to 0 */
    hsim_alloc_free(&a);
    for (int i = 0; i < 8; i++)
        hsim_alloc_free(&held[i]);
    pol_close(&p);
    hsim_cluster_free(&c);
}

/* ------------------------------------------------- weighted round-robin */

/* A: 3 nodes x 4 cores, B: 1 node x 4 cores, same speed: weights 3:1. */
static void test_weighted_rr_proportions(void)
{
    hsim_node_type_t t[] = {ntype("a", 3, 4, 0, 0, NULL, 0), ntype("b", 1, 4, 0, 0, NULL, 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 2), 0);
    pol_t p = pol_open("weighted-round-robin", &c, HSIM_PACK);
    hsim_request_t r = cpu_req(1);
    /* smooth WRR: A A B A; within A round-robin 0 1 2 */
    int32_t want[] = {0, 1, 3, 2, 0, 1, 3, 2};
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(place_with(&p, &c, &r), want[i]);
    int count[2] = {0, 0};
    for (int i = 0; i < 4000; i++) {
        int32_t n = place_with(&p, &c, &r); /* given back at once */
        if (n >= 0)
            count[c.nodes[n].type]++;
    }
    CU_ASSERT_EQUAL(count[0], 3000);
    CU_ASSERT_EQUAL(count[1], 1000);
    /* type B full: its turns fall back to A (the turn stays spent) */
    occupy(&c, 3, 4, 0, 0, 0);
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(c.nodes[place_with(&p, &c, &r)].type, 0);
    pol_close(&p);
    hsim_cluster_free(&c);

    /* speed counts: A 1 node at speed 3, B 1 node at speed 1: 3:1 again */
    hsim_node_type_t u[] = {ntype("a", 1, 4, 0, 0, NULL, 0), ntype("b", 1, 4, 0, 0, NULL, 0)};
    u[0].speed = 3;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, u, 2), 0);
    p = pol_open("weighted-round-robin", &c, HSIM_PACK);
    count[0] = count[1] = 0;
    for (int i = 0; i < 400; i++)
        count[place_with(&p, &c, &r)]++;
    CU_ASSERT_EQUAL(count[0], 300);
    CU_ASSERT_EQUAL(count[1], 100);
    pol_close(&p);
    hsim_cluster_free(&c);
}

/* ------------------------------------------------------ least-connections */

static void test_least_connections(void)
{
    hsim_node_type_t t[] = {ntype("cpu", 3, 8, 0, 0, NULL, 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 1), 0);
    occupy(&c, 0, 1, 0, 0, 0);
    occupy(&c, 0, 1, 0, 0, 0); /* node 0: 2 jobs */
    occupy(&c, 1, 1, 0, 0, 0); /* node 1: 1 job */
    hsim_request_t r = cpu_req(1);
    CU_ASSERT_EQUAL(place_node("least-connections", &c, &r, HSIM_PACK), 2);
    /* two nodes: node 2 (no job) by the scan, then node 1 from the sorted rest */
    hsim_request_t two = cpu_req(2);
    two.nodes = 2;
    two.cores_per_node = 1;
    hsim_alloc_t a = {0};
    CU_ASSERT_EQUAL(run_policy("least-connections", &c, &two, HSIM_PACK, &a), 0);
    CU_ASSERT_EQUAL(a.n, 2);
    if (a.n == 2) {
        CU_ASSERT_EQUAL(a.parts[0].node, 2);
        CU_ASSERT_EQUAL(a.parts[1].node, 1);
    }
    hsim_alloc_free(&a);
    occupy(&c, 2, 1, 0, 0, 0);
    occupy(&c, 2, 1, 0, 0, 0); /* node 2: 2 jobs */
    CU_ASSERT_EQUAL(place_node("least-connections", &c, &r, HSIM_PACK), 1);
    occupy(&c, 1, 7, 0, 0, 0); /* node 1 full (2 jobs): tie 0 and 2 -> 0 */
    CU_ASSERT_EQUAL(place_node("least-connections", &c, &r, HSIM_PACK), 0);
    hsim_request_t seven = node_req(1, 7);
    CU_ASSERT_EQUAL(place_node("least-connections", &c, &seven, HSIM_PACK), -1);
    hsim_cluster_free(&c);
}

/* ------------------------------------------------------------ source-hash */

static void test_source_hash(void)
{
    hsim_node_type_t t[] = {ntype("cpu", 16, 4, 0, 0, NULL, 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 1), 0);
    pol_t p = pol_open("source-hash", &c, HSIM_PACK);
    hsim_request_t r = cpu_req(1);
    r.user = 7;
    int32_t home = place_with(&p, &c, &r);
    CU_ASSERT_TRUE(home >= 0);
    /* sticky: the same node while it has room (4 cores), then the next */
    hsim_alloc_t held[5] = {{0}};
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(pol_take(&p, &c, &r, &held[i]), home);
    CU_ASSERT_EQUAL(pol_take(&p, &c, &r, &held[4]), (home + 1) % 16);
    for (int i = 0; i < 5; i++) {
        hsim_cluster_give(&c, &held[i], 0);
        hsim_alloc_free(&held[i]);
    }
    CU_ASSERT_EQUAL(place_with(&p, &c, &r), home);
    /* different users, different nodes: 20 users over 16 nodes */
    int seen[16] = {0}, distinct = 0;
    for (int32_t u = 0; u < 20; u++) {
        r.user = u;
        int32_t n = place_with(&p, &c, &r);
        CU_ASSERT_EQUAL(place_with(&p, &c, &r), n); /* deterministic */
        if (n >= 0 && !seen[n]++)
            distinct++;
    }
    CU_ASSERT_TRUE(distinct >= 8);
    r.user = -1; /* unknown user hashes as 0: the first accepted node */
    CU_ASSERT_EQUAL(place_with(&p, &c, &r), 0);
    pol_close(&p);
    hsim_cluster_free(&c);
}

/* ---------------------------------------------------- heterogeneity-aware */

/* Types of one speed: the first type in the INI's order, as first-fit
   would take it (no speed to prefer one by). */
static void test_hetero_ties_by_type_order(void)
{
    hsim_node_type_t t[] = {ntype("a", 1, 8, 0, 0, NULL, 0), ntype("b", 1, 8, 0, 0, NULL, 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 2), 0);
    hsim_request_t r = cpu_req(4);
    CU_ASSERT_EQUAL(place_node("heterogeneity-aware", &c, &r, HSIM_PACK), 0);
    hsim_cluster_free(&c);
}

static void test_hetero_fastest_type(void)
{
    /* slow: nodes 0-1 (speed 1), fast: nodes 2-3 (speed 2), mid: node 4 */
    hsim_node_type_t t[] = {ntype("slow", 2, 8, 0, 0, NULL, 0),
                            ntype("fast", 2, 8, 0, 0, NULL, 0),
                            ntype("mid", 1, 8, 0, 0, NULL, 0)};
    t[1].speed = 2;
    t[2].speed = 1.5;
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 3), 0);
    /* one node of 4 cores (a CPU job with nodes = 0 could span a type) */
    hsim_request_t r = node_req(1, 4);
    CU_ASSERT_EQUAL(place_node("heterogeneity-aware", &c, &r, HSIM_PACK), 2);
    occupy(&c, 3, 2, 0, 0, 0); /* best-fit within fast: node 3 (6 free) */
    CU_ASSERT_EQUAL(place_node("heterogeneity-aware", &c, &r, HSIM_PACK), 3);
    occupy(&c, 2, 5, 0, 0, 0);
    occupy(&c, 3, 3, 0, 0, 0); /* fast: 3 free each: falls back to mid */
    CU_ASSERT_EQUAL(place_node("heterogeneity-aware", &c, &r, HSIM_PACK), 4);
    occupy(&c, 4, 6, 0, 0, 0); /* mid full for 4: falls back to slow */
    CU_ASSERT_EQUAL(place_node("heterogeneity-aware", &c, &r, HSIM_PACK), 0);
    /* 3 still fits fast: nodes 2 and 3 both have 3 free; node 3 changed
       last, so it heads the bucket */
    hsim_request_t r3 = node_req(1, 3);
    CU_ASSERT_EQUAL(place_node("heterogeneity-aware", &c, &r3, HSIM_PACK), 3);
    /* 20 cores: no type holds it (slow 16, fast 6, mid 2): spans types,
       best-fit with the largest nodes first (slow 8 + 8), then at 3 free
       the fast type (node 3, then node 2) before mid's 2 */
    hsim_request_t wide = cpu_req(20);
    hsim_alloc_t a = {0};
    CU_ASSERT_EQUAL(run_policy("heterogeneity-aware", &c, &wide, HSIM_PACK, &a), 0);
    CU_ASSERT_EQUAL(a.n, 4);
    if (a.n == 4) {
        CU_ASSERT_EQUAL(a.parts[0].node, 0);  /* 8 free: the largest first */
        CU_ASSERT_EQUAL(a.parts[1].node, 1);
        CU_ASSERT_EQUAL(a.parts[2].node, 3);  /* then 3 free: fast first */
        CU_ASSERT_EQUAL(a.parts[2].cores, 3);
        CU_ASSERT_EQUAL(a.parts[3].node, 2);
        CU_ASSERT_EQUAL(a.parts[3].cores, 1);
    }
    hsim_alloc_free(&a);
    /* a class that runs 5x on slow nodes and cannot run on fast ones */
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_speeds_init(&c, 1), 0);
    c.speeds.speed[0 * c.n_types + 0] = 5;
    c.speeds.speed[0 * c.n_types + 1] = -1;
    r.job_class = 0;
    CU_ASSERT_EQUAL(place_node("heterogeneity-aware", &c, &r, HSIM_PACK), 0);
    occupy(&c, 0, 8, 0, 0, 0);
    occupy(&c, 1, 8, 0, 0, 0); /* slow full; fast would fit 3 but is barred */
    hsim_request_t r2 = cpu_req(2);
    r2.job_class = 0;
    CU_ASSERT_EQUAL(place_node("heterogeneity-aware", &c, &r2, HSIM_PACK), 4);
    CU_ASSERT_EQUAL(place_node("first-fit", &c, &r2, HSIM_PACK), 4); /* all policies */
    hsim_cluster_free(&c);
}

/* ---------------------------------------------------- GPU models, FPGAs */

static void test_models_and_fpgas(void)
{
    hsim_node_type_t t[] = {ntype("cpu", 2, 8, 0, 0, NULL, 0),    /* nodes 0-1 */
                            ntype("v100", 2, 8, 0, 4, "V100", 0), /* nodes 2-3 */
                            ntype("a100", 1, 8, 0, 8, "A100", 0), /* node 4 */
                            ntype("fpga", 1, 8, 0, 0, NULL, 2)};  /* node 5 */
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 4), 0);
    int a100 = hsim_cluster_model(&c, "A100"), v100 = hsim_cluster_model(&c, "V100");
    CU_ASSERT_FATAL(a100 >= 0 && v100 >= 0);
    hsim_request_t ra = gpu_req(2, 2, 1000), rv = ra, rany = ra, rnone = ra;
    ra.gpu_models = 1u << a100;
    rv.gpu_models = 1u << v100;
    rnone.gpu_models = HSIM_MODEL_ABSENT;
    hsim_request_t rf = cpu_req(1), rc1 = cpu_req(1);
    rf.fpgas = 1;
    for (size_t i = 0; hsim_placements[i]; i++) {
        const char *name = hsim_placements[i]->name;
        CU_ASSERT_EQUAL(place_node(name, &c, &ra, HSIM_PACK), 4);
        int32_t n = place_node(name, &c, &rv, HSIM_PACK);
        CU_ASSERT_TRUE(n == 2 || n == 3);
        n = place_node(name, &c, &rany, HSIM_PACK);
        CU_ASSERT_TRUE(n >= 2 && n <= 4);
        CU_ASSERT_EQUAL(place_node(name, &c, &rnone, HSIM_PACK), -1);
        CU_ASSERT_EQUAL(place_node(name, &c, &rf, HSIM_PACK), 5);
        CU_ASSERT_TRUE(place_node(name, &c, &rc1, HSIM_PACK) >= 0);
    }
    CU_ASSERT_EQUAL(place_node("first-fit", &c, &rany, HSIM_PACK), 2);
    CU_ASSERT_EQUAL(place_node("first-fit", &c, &rc1, HSIM_PACK), 0);
    rv.gpus = 6; /* more than one V100 node: spans the two, never the A100 */
    hsim_alloc_t a = {0};
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &rv, HSIM_PACK, &a), 0);
    CU_ASSERT_EQUAL(a.n, 2);
    if (a.n == 2) {
        CU_ASSERT_EQUAL(a.parts[0].node, 2);
        CU_ASSERT_EQUAL(a.parts[0].gpus, 4);
        CU_ASSERT_EQUAL(a.parts[1].node, 3);
        CU_ASSERT_EQUAL(a.parts[1].gpus, 2);
    }
    rf.fpgas = 3; /* more than the FPGA node has */
    CU_ASSERT_EQUAL(place_node("first-fit", &c, &rf, HSIM_PACK), -1);
    hsim_alloc_free(&a);
    hsim_cluster_free(&c);
}

/* ----------------------------------------------------------- GPU shares */

static void test_gpu_shares(void)
{
    hsim_node_type_t t[] = {ntype("gpu", 2, 8, 0, 2, "T4", 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 1), 0);
    pol_t p = pol_open("first-fit", &c, HSIM_PACK);
    hsim_request_t half = gpu_req(1, 1, 500);
    hsim_alloc_t h[4] = {{0}};
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(pol_take(&p, &c, &half, &h[i]), 0);
        CU_ASSERT_EQUAL(h[i].n, 1);
        CU_ASSERT_EQUAL(h[i].parts[0].gpus, 0);
        CU_ASSERT_EQUAL(h[i].parts[0].gpu_milli, 500);
        CU_ASSERT_EQUAL(h[i].parts[0].cores, 1);
    }
    /* the two first share GPU 0 (the fullest that fits), the third opens GPU 1 */
    CU_ASSERT_EQUAL(h[0].parts[0].gpu, 0);
    CU_ASSERT_EQUAL(h[1].parts[0].gpu, 0);
    CU_ASSERT_EQUAL(h[2].parts[0].gpu, 1);
    CU_ASSERT_EQUAL(c.gpu_milli[0], 0);
    CU_ASSERT_EQUAL(c.gpu_milli[1], 500);
    CU_ASSERT_EQUAL(c.nodes[0].free_gpus, 0);
    /* a whole GPU now goes to node 1; a 0.3 share still fits GPU 1 */
    hsim_request_t whole = gpu_req(1, 1, 1000), third = gpu_req(1, 1, 300);
    CU_ASSERT_EQUAL(place_node("first-fit", &c, &whole, HSIM_PACK), 1);
    CU_ASSERT_EQUAL(place_node("first-fit", &c, &third, HSIM_PACK), 0);
    /* best-fit puts a share on the node with fewest whole GPUs free */
    CU_ASSERT_EQUAL(place_node("best-fit", &c, &third, HSIM_PACK), 0);
    CU_ASSERT_EQUAL(place_node("worst-fit", &c, &third, HSIM_PACK), 1);
    for (int i = 0; i < 3; i++) {
        hsim_cluster_give(&c, &h[i], 0);
        hsim_alloc_free(&h[i]);
    }
    CU_ASSERT_EQUAL(c.nodes[0].free_gpus, 2);
    pol_close(&p);
    hsim_cluster_free(&c);
}

/* Regression (sim/cluster.c): giving back a whole GPU used to return the
   first GPU with share 0, which could be a GPU filled by shares. */
static void test_whole_gpu_give_back(void)
{
    hsim_node_type_t t[] = {ntype("gpu", 1, 8, 0, 2, "T4", 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 1), 0);
    pol_t p = pol_open("first-fit", &c, HSIM_PACK);
    hsim_request_t half = gpu_req(1, 1, 500), whole = gpu_req(1, 1, 1000);
    hsim_alloc_t s1 = {0}, s2 = {0}, w = {0};
    CU_ASSERT_EQUAL(pol_take(&p, &c, &half, &s1), 0);
    CU_ASSERT_EQUAL(pol_take(&p, &c, &half, &s2), 0);  /* GPU 0 full of shares */
    CU_ASSERT_EQUAL(pol_take(&p, &c, &whole, &w), 0);  /* GPU 1 whole */
    CU_ASSERT_EQUAL(c.nodes[0].free_gpus, 0);
    hsim_cluster_give(&c, &w, 0);
    CU_ASSERT_EQUAL(c.gpu_milli[0], 0);     /* still the shares' */
    CU_ASSERT_EQUAL(c.gpu_milli[1], 1000);
    CU_ASSERT_EQUAL(c.nodes[0].free_gpus, 1);
    hsim_cluster_give(&c, &s1, 0);
    hsim_cluster_give(&c, &s2, 0);
    CU_ASSERT_EQUAL(c.gpu_milli[0], 1000);
    CU_ASSERT_EQUAL(c.gpu_milli[1], 1000);
    CU_ASSERT_EQUAL(c.nodes[0].free_gpus, 2);
    CU_ASSERT_EQUAL(c.nodes[0].jobs, 0);
    hsim_alloc_free(&s1);
    hsim_alloc_free(&s2);
    hsim_alloc_free(&w);
    pol_close(&p);
    hsim_cluster_free(&c);
}

/* ------------------------------------------------------ multi-node jobs */

static void test_multi_node(void)
{
    hsim_node_type_t t[] = {ntype("gpu", 4, 8, 1000, 4, "V100", 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 1), 0);
    /* 2 nodes x 4 cores, 1001 MiB, 3 GPUs: shares (4, 501, 2) and (4, 500, 1) */
    hsim_request_t r = gpu_req(8, 3, 1000);
    r.nodes = 2;
    r.cores_per_node = 4;
    r.mem_mb = 1001;
    hsim_alloc_t a = {0};
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &r, HSIM_PACK, &a), 0);
    CU_ASSERT_EQUAL_FATAL(a.n, 2);
    CU_ASSERT_EQUAL(a.parts[0].node, 0);
    CU_ASSERT_EQUAL(a.parts[0].cores, 4);
    CU_ASSERT_EQUAL(a.parts[0].mem_mb, 501);
    CU_ASSERT_EQUAL(a.parts[0].gpus, 2);
    CU_ASSERT_EQUAL(a.parts[1].node, 1);
    CU_ASSERT_EQUAL(a.parts[1].mem_mb, 500);
    CU_ASSERT_EQUAL(a.parts[1].gpus, 1);
    /* node 0 with one GPU free takes the smaller share; node 1 the larger */
    occupy(&c, 0, 0, 0, 3, 0);
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &r, HSIM_PACK, &a), 0);
    CU_ASSERT_EQUAL_FATAL(a.n, 2);
    CU_ASSERT_EQUAL(a.parts[0].node, 0);
    CU_ASSERT_EQUAL(a.parts[0].gpus, 1);
    CU_ASSERT_EQUAL(a.parts[0].mem_mb, 500);
    CU_ASSERT_EQUAL(a.parts[1].node, 1);
    CU_ASSERT_EQUAL(a.parts[1].gpus, 2);
    CU_ASSERT_EQUAL(a.parts[1].mem_mb, 501);
    /* node 1 without cores: the pair is nodes 0 and 2 */
    occupy(&c, 1, 6, 0, 0, 0);
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &r, HSIM_SPREAD, &a), 0);
    CU_ASSERT_EQUAL_FATAL(a.n, 2);
    CU_ASSERT_EQUAL(a.parts[0].node, 0);
    CU_ASSERT_EQUAL(a.parts[1].node, 2);
    /* distinct nodes: 4 nodes asked, only 3 have 4 cores */
    r.nodes = 4;
    r.gpus = 0;
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &r, HSIM_PACK, &a), HSIM_NOFIT);
    CU_ASSERT_EQUAL(a.n, 0);
    r.nodes = 3;
    CU_ASSERT_EQUAL(run_policy("worst-fit", &c, &r, HSIM_PACK, &a), 0);
    CU_ASSERT_EQUAL(a.n, 3);
    hsim_alloc_free(&a);
    hsim_cluster_free(&c);
}

/* ------------------------------------------------------- pack vs spread */

static void test_pack_spread(void)
{
    hsim_node_type_t t[] = {ntype("cpu", 4, 4, 1000, 0, NULL, 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 1), 0);
    /* 6 cores, 700 MiB: k units hold ceil(700 k / 6) = 117 234 350 467 584 700 */
    hsim_request_t r = cpu_req(6);
    r.mem_mb = 700;
    hsim_alloc_t a = {0};
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &r, HSIM_PACK, &a), 0);
    int32_t pc[] = {4, 2};
    int64_t pm[] = {467, 233};
    CU_ASSERT_EQUAL_FATAL(a.n, 2);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(a.parts[i].node, i);
        CU_ASSERT_EQUAL(a.parts[i].cores, pc[i]);
        CU_ASSERT_EQUAL(a.parts[i].mem_mb, pm[i]);
    }
    /* spread: one core on each node, then round again: 2 2 1 1 cores;
       memory of the units laid side by side in the order the nodes were chosen (first-fit: node order): units 0-1, 2-3,
       4, 5 */
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &r, HSIM_SPREAD, &a), 0);
    int32_t sc[] = {2, 2, 1, 1};
    int64_t sm[] = {234, 233, 117, 116};
    CU_ASSERT_EQUAL_FATAL(a.n, 4);
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(a.parts[i].node, i);
        CU_ASSERT_EQUAL(a.parts[i].cores, sc[i]);
        CU_ASSERT_EQUAL(a.parts[i].mem_mb, sm[i]);
    }
    /* pack looks for one node that holds it all first: 3 cores on node 1 */
    occupy(&c, 0, 2, 0, 0, 0);
    r = cpu_req(3);
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &r, HSIM_PACK, &a), 0);
    CU_ASSERT_EQUAL(a.n, 1);
    CU_ASSERT_EQUAL(a.parts[0].node, 1);
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &r, HSIM_SPREAD, &a), 0);
    CU_ASSERT_EQUAL(a.n, 3);
    /* memory rules a node out: node 1 heads bucket 4 but has 100 MiB left */
    occupy(&c, 1, 0, 900, 0, 0);
    r = cpu_req(4);
    r.mem_mb = 200;
    CU_ASSERT_EQUAL(run_policy("best-fit", &c, &r, HSIM_PACK, &a), 0);
    CU_ASSERT_EQUAL(a.n, 1);     /* whole on node 2 (ties: node 2 before 3) */
    CU_ASSERT_EQUAL(a.parts[0].node, 2);
    hsim_cluster_free(&c);

    /* GPU units: 4 GPUs, 8 cores on 4 nodes x 2 GPUs */
    hsim_node_type_t g[] = {ntype("gpu", 4, 8, 0, 2, "V100", 0)};
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, g, 1), 0);
    r = gpu_req(8, 4, 1000);
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &r, HSIM_PACK, &a), 0);
    CU_ASSERT_EQUAL_FATAL(a.n, 2);
    CU_ASSERT_EQUAL(a.parts[0].gpus, 2);
    CU_ASSERT_EQUAL(a.parts[0].cores, 4);
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &r, HSIM_SPREAD, &a), 0);
    CU_ASSERT_EQUAL_FATAL(a.n, 4);
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(a.parts[i].gpus, 1);
        CU_ASSERT_EQUAL(a.parts[i].cores, 2);
    }
    /* 5 cores for 2 GPUs: 3 cores per GPU, rounded up */
    r = gpu_req(5, 2, 1000);
    CU_ASSERT_EQUAL(run_policy("first-fit", &c, &r, HSIM_PACK, &a), 0);
    CU_ASSERT_EQUAL(a.n, 1);
    CU_ASSERT_EQUAL(a.parts[0].cores, 6);
    hsim_cluster_free(&c);

    /* spread's later rounds ask a node holding k units for what its
       first k + 1 would hold: 2 cores and 1 FPGA on one node of 4 cores
       and 1 FPGA, the node holds both units with the one FPGA (it was
       asked for a second FPGA, and the job never placed), for every
       placement */
    hsim_node_type_t f[] = {ntype("f", 1, 4, 0, 0, NULL, 1)};
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, f, 1), 0);
    r = cpu_req(2);
    r.fpgas = 1;
    for (size_t k = 0; hsim_placements[k]; k++) {
        CU_ASSERT_EQUAL(run_policy(hsim_placements[k]->name, &c, &r, HSIM_SPREAD, &a), 0);
        CU_ASSERT_EQUAL_FATAL(a.n, 1);
        CU_ASSERT_EQUAL(a.parts[0].cores, 2);
        CU_ASSERT_EQUAL(a.parts[0].fpgas, 1);
    }
    hsim_cluster_free(&c);

    /* 4 cores and 6,146 MiB on two nodes of 4 cores and 3,073 MiB: units
       of 1,537, 1,536, 1,537, 1,536 MiB in unit order, so a node that took
       a unit of each size could not take a third unit of 1,537 MiB, and
       the job never placed; a node holding two units is held to 3,073 MiB,
       what any two side by side hold at most, for every placement */
    hsim_node_type_t m[] = {ntype("m", 2, 4, 3073, 0, NULL, 0)};
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, m, 1), 0);
    r = cpu_req(4);
    r.mem_mb = 6146;
    for (size_t k = 0; hsim_placements[k]; k++) {
        CU_ASSERT_EQUAL(run_policy(hsim_placements[k]->name, &c, &r, HSIM_SPREAD, &a), 0);
        CU_ASSERT_EQUAL_FATAL(a.n, 2);
        for (int i = 0; i < 2; i++) {
            CU_ASSERT_EQUAL(a.parts[i].cores, 2);
            CU_ASSERT_EQUAL(a.parts[i].mem_mb, 3073);
        }
    }
    hsim_alloc_free(&a);
    hsim_cluster_free(&c);
}

/* ------------------------------------------------------------------ NOFIT */

static void test_nofit_leaves_all(void)
{
    hsim_node_type_t t[] = {ntype("cpu", 3, 4, 1000, 0, NULL, 0),
                            ntype("gpu", 2, 8, 2000, 2, "V100", 1)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 2), 0);
    occupy(&c, 0, 3, 0, 0, 0);
    occupy(&c, 3, 0, 0, 1, 1);
    hsim_request_t bad[8];
    bad[0] = cpu_req(100);                 /* more cores than the cluster */
    bad[1] = cpu_req(4);
    bad[1].mem_mb = 5000;                  /* memory */
    bad[2] = gpu_req(2, 4, 1000);          /* 3 GPUs free */
    bad[3] = cpu_req(3);
    bad[3].nodes = 6;                      /* 5 nodes */
    bad[3].cores_per_node = 1;
    bad[4] = cpu_req(1);
    bad[4].fpgas = 2;                      /* 1 FPGA free */
    bad[5] = gpu_req(1, 1, 500);
    bad[5].gpu_models = HSIM_MODEL_ABSENT;
    bad[6] = gpu_req(20, 2, 1000);         /* 10 cores per GPU: > 8 */
    bad[7] = cpu_req(20);                  /* 25 cores free, but 400 MiB a */
    bad[7].mem_mb = 8000;                  /* core: 1 + 0 + 2 + 5 + 5 cores */
    occupy(&c, 1, 0, 1000, 0, 0);          /* (node 1's memory gone) */
    snap_t before = snap_take(&c);
    for (size_t i = 0; hsim_placements[i]; i++)
        for (int s = 0; s < 2; s++) {
            pol_t p = pol_open(hsim_placements[i]->name, &c, (hsim_spread_t)s);
            for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
                hsim_alloc_t a = {0};
                int rc = p.p->place(p.st, &c, &bad[k], &a);
                if (rc != HSIM_NOFIT)
                    fprintf(stderr, "\n%s spread %d request %zu: rc %d\n",
                            p.p->name, s, k, rc);
                CU_ASSERT_EQUAL(rc, HSIM_NOFIT);
                CU_ASSERT_EQUAL(a.n, 0);
                hsim_alloc_free(&a);
            }
            pol_close(&p);
        }
    CU_ASSERT_TRUE(snap_same(&before, &c));
    snap_free(&before);
    hsim_cluster_free(&c);
}

/* Every allocation that fails makes create() or place() answer
   HSIM_ENOMEM, with the allocation empty and nothing leaked. */
static void test_out_of_memory(void)
{
    hsim_node_type_t t[] = {ntype("a", 4, 4, 1000, 0, NULL, 0), ntype("b", 4, 8, 0, 0, NULL, 0)};
    hsim_cluster_t c;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&c, t, 2), 0);
    occupy(&c, 4, 1, 0, 0, 0); /* least-connections: not every node idle */
    hsim_request_t r = cpu_req(30);
    for (size_t i = 0; hsim_placements[i]; i++)
        for (int s = 0; s < 2; s++) {
            const hsim_placement_t *p = hsim_placements[i];
            int done = 0;
            for (long fail = 1; fail < 64 && !done; fail++) {
                void *st = NULL;
                hsim_alloc_fail_after(fail);
                int rc = p->create(&c, (hsim_spread_t)s, &st);
                if (rc == 0) {
                    hsim_alloc_t a = {0};
                    rc = p->place(st, &c, &r, &a);
                    CU_ASSERT_TRUE(rc == 0 || rc == HSIM_ENOMEM);
                    if (rc == 0)
                        check_alloc(&c, &r, &a);
                    else
                        CU_ASSERT_EQUAL(a.n, 0);
                    done = rc == 0;
                    hsim_alloc_free(&a);
                    p->destroy(st);
                } else {
                    CU_ASSERT_EQUAL(rc, HSIM_ENOMEM);
                }
                hsim_alloc_fail_after(0);
            }
            CU_ASSERT_TRUE(done);
        }
    hsim_cluster_free(&c);
}

static void test_registry(void)
{
    const char *names[] = {"first-fit", "best-fit", "worst-fit", "round-robin",
                           "weighted-round-robin", "least-connections", "source-hash",
                           "heterogeneity-aware"};
    size_t n = 0;
    while (hsim_placements[n])
        n++;
    CU_ASSERT_EQUAL(n, sizeof names / sizeof *names);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const hsim_placement_t *p = hsim_placement_find(names[i]);
        CU_ASSERT_PTR_NOT_NULL(p);
        if (p) {
            CU_ASSERT_STRING_EQUAL(p->name, names[i]);
            CU_ASSERT_TRUE(p->summary && p->summary[0]);
        }
    }
    CU_ASSERT_PTR_NULL(hsim_placement_find("first_fit"));
    char buf[512];
    hsim_placement_names(buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "first-fit, best-fit, worst-fit, round-robin, "
                                "weighted-round-robin, least-connections, source-hash, "
                                "heterogeneity-aware");
    hsim_placement_names(buf, 10);
    CU_ASSERT_STRING_EQUAL(buf, "first-fit");
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("placement");
    HSIM_TEST(s, test_registry);
    HSIM_TEST(s, test_fit_policies_differ);
    HSIM_TEST(s, test_best_fit_ties_and_wide);
    HSIM_TEST(s, test_round_robin_rotates);
    HSIM_TEST(s, test_weighted_rr_proportions);
    HSIM_TEST(s, test_least_connections);
    HSIM_TEST(s, test_source_hash);
    HSIM_TEST(s, test_hetero_fastest_type);
    HSIM_TEST(s, test_hetero_ties_by_type_order);
    HSIM_TEST(s, test_models_and_fpgas);
    HSIM_TEST(s, test_gpu_shares);
    HSIM_TEST(s, test_whole_gpu_give_back);
    HSIM_TEST(s, test_multi_node);
    HSIM_TEST(s, test_pack_spread);
    HSIM_TEST(s, test_nofit_leaves_all);
    HSIM_TEST(s, test_out_of_memory);
}
