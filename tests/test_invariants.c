/*
 * test_invariants.c - the engine's invariant check (sim/invariants.h) on
 * states built by hand: a sound one passes, and each kind of corruption (a
 * job in two states, a job lost, processors miscounted, a node holding
 * more than it has, a ledger that disagrees with the allocations, an index
 * that disagrees with its nodes) fires with a message that says what.
 *
 * The check itself runs after every event in builds with
 * -DHSIM_INVARIANTS=ON (the sanitizer build): every engine test, the
 * random-trace ones included, then replays under it.  This file proves it
 * catches what it is meant to.
 */
#include "harness.h"

#include "sim/invariants.h"

#include <stdlib.h>
#include <string.h>

#define S HSIM_SECOND
#define NJOBS 6

/* A pool of 8 processors at 100 s: jobs 0 and 1 done, 2 and 3 running
   (4 and 2 processors), 4 waiting, 5 not yet submitted. */
typedef struct pool {
    hsim_job_t jobs[NJOBS];
    uint8_t state[NJOBS];
    hsim_outcome_t out[NJOBS];
    int32_t waiting[2];
    hsim_running_t running[3];
    hsim_view_t view;
    hsim_run_state_t s;
    uint8_t scratch[NJOBS];
} pool_t;

static void pool_init(pool_t *p)
{
    memset(p, 0, sizeof *p);
    static const int32_t procs[NJOBS] = {1, 8, 4, 2, 3, 1};
    static const uint8_t state[NJOBS] = {HSIM_JOB_DONE,    HSIM_JOB_DONE,    HSIM_JOB_RUNNING,
                                         HSIM_JOB_RUNNING, HSIM_JOB_WAITING, HSIM_JOB_FUTURE};
    for (int i = 0; i < NJOBS; i++) {
        hsim_job_init(&p->jobs[i]);
        p->jobs[i].id = 100 + i;
        p->jobs[i].procs = procs[i];
        p->state[i] = state[i];
        p->out[i] = (hsim_outcome_t){.start = -1, .end = -1};
    }
    p->out[2] = (hsim_outcome_t){.start = 50 * S, .end = 150 * S};
    p->out[3] = (hsim_outcome_t){.start = 90 * S, .end = 100 * S}; /* ends now */
    p->waiting[0] = -1; /* a hole */
    p->waiting[1] = 4;
    p->running[0] = (hsim_running_t){.job = 3, .procs = 2, .start = 90 * S, .est_end = 100 * S};
    p->running[1] = (hsim_running_t){.job = -1};
    p->running[2] = (hsim_running_t){.job = 2, .procs = 4, .start = 50 * S, .est_end = 200 * S};
    p->view = (hsim_view_t){.now = 100 * S, .capacity = 8, .running_procs = 6,
                            .waiting = p->waiting, .n_waiting = 2, .waiting_holes = 1,
                            .running = p->running, .n_running = 3};
    p->s = (hsim_run_state_t){.now = 100 * S, .n_jobs = NJOBS, .jobs = p->jobs,
                              .state = p->state, .out = p->out, .n_submitted = 5, .n_done = 2,
                              .view = &p->view};
}

/* Checks p: 0 expected when needle is NULL, else an error holding it.
   The scratch must be left as it was, all 0. */
static void expect(pool_t *p, const char *needle)
{
    hsim_err_t e = {{0}};
    int rc = hsim_invariants_check(&p->s, p->scratch, &e);
    if (!needle) {
        CU_ASSERT_EQUAL(rc, 0);
        if (rc)
            fprintf(stderr, "\nunexpected: %s\n", e.msg);
    } else {
        CU_ASSERT_EQUAL(rc, HSIM_ERUN);
        CU_ASSERT_TRUE(hsim_test_message_ok(e.msg, "", needle, NULL, NULL));
    }
    for (size_t i = 0; i < sizeof p->scratch; i++)
        CU_ASSERT_EQUAL(p->scratch[i], 0);
}

static void test_pool(void)
{
    pool_t p;
    pool_init(&p);
    expect(&p, NULL);
    CU_ASSERT_EQUAL(hsim_invariants_scratch(NJOBS, NULL), NJOBS);

    pool_init(&p); /* a running job also waiting */
    p.waiting[0] = 2;
    p.view.waiting_holes = 0;
    expect(&p, "job 102 is in waiting[] but in state 2");
    pool_init(&p); /* one listed twice */
    p.running[1] = p.running[0];
    expect(&p, "job 103 is listed twice in running[]");
    pool_init(&p); /* a waiting job lost from waiting[] */
    p.waiting[1] = -1;
    p.view.waiting_holes = 2;
    expect(&p, "5 jobs submitted: 0 waiting, 2 running and 2 done");
    pool_init(&p); /* a job done twice over */
    p.s.n_done = 3;
    expect(&p, "5 jobs submitted: 1 waiting, 2 running and 3 done");
    pool_init(&p); /* holes miscounted */
    p.view.waiting_holes = 0;
    expect(&p, "waiting[] has 2 entries and 0 holes, and 1 jobs");
    pool_init(&p); /* processors miscounted */
    p.view.running_procs = 5;
    expect(&p, "the view counts 5 processors running, its jobs 6");
    pool_init(&p); /* a running entry that holds other than its job asks */
    p.running[2].procs = 3;
    expect(&p, "running job 102 holds 3 processors, asked for 4");
    /* more than the machine past now: job 3 ending now may overlap a
       start, a job that runs on may not */
    pool_init(&p);
    p.view.capacity = 4;
    expect(&p, NULL);
    p.out[3].end = 120 * S;
    expect(&p, "jobs that run past now hold 6 processors of 4");
    pool_init(&p); /* an index past the jobs */
    p.waiting[1] = NJOBS;
    expect(&p, "waiting[] entry 1 is job index 6, of 6 jobs");
}

/* Two nodes of 4 cores, 1,000 MiB, 2 GPUs and an FPGA each.  Running: job
   2 on node 0 (2 cores, 100 MiB, a whole GPU) and node 1 (1 core, half a
   GPU), job 3 on node 1 (the FPGA); both taken into the ledger. */
typedef struct lab {
    pool_t p;
    hsim_cluster_t c;
    hsim_alloc_t allocs[NJOBS];
    hsim_part_t parts2[2], parts3[1];
    void *scratch;
} lab_t;

static void lab_init(lab_t *l)
{
    pool_init(&l->p);
    hsim_node_type_t t;
    memset(&t, 0, sizeof t);
    strcpy(t.name, "gpu");
    strcpy(t.gpu_model, "v100");
    t.count = 2;
    t.cores = 4;
    t.mem_mb = 1000;
    t.gpus = 2;
    t.fpgas = 1;
    t.speed = 1;
    CU_ASSERT_EQUAL_FATAL(hsim_cluster_init(&l->c, &t, 1), 0);
    memset(l->allocs, 0, sizeof l->allocs);
    l->parts2[0] = (hsim_part_t){.node = 0, .cores = 2, .mem_mb = 100, .gpus = 1, .gpu = -1};
    l->parts2[1] = (hsim_part_t){.node = 1, .cores = 1, .gpu = 0, .gpu_milli = 500};
    l->parts3[0] = (hsim_part_t){.node = 1, .cores = 0, .fpgas = 1, .gpu = -1};
    l->allocs[2] = (hsim_alloc_t){.parts = l->parts2, .n = 2, .cap = 2};
    l->allocs[3] = (hsim_alloc_t){.parts = l->parts3, .n = 1, .cap = 1};
    hsim_cluster_take(&l->c, &l->allocs[2], 50 * S);
    hsim_cluster_take(&l->c, &l->allocs[3], 90 * S);
    l->p.s.cluster = &l->c;
    l->p.s.allocs = l->allocs;
    l->p.s.n_placed = 2;
    size_t size = hsim_invariants_scratch(NJOBS, &l->c);
    CU_ASSERT_TRUE(size >= NJOBS + 2 * 5 * sizeof(int64_t) + 4 * sizeof(int32_t));
    l->scratch = hsim_calloc(size, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l->scratch);
}

static void lab_expect(lab_t *l, const char *needle)
{
    hsim_err_t e = {{0}};
    int rc = hsim_invariants_check(&l->p.s, l->scratch, &e);
    if (!needle) {
        CU_ASSERT_EQUAL(rc, 0);
        if (rc)
            fprintf(stderr, "\nunexpected: %s\n", e.msg);
    } else {
        CU_ASSERT_EQUAL(rc, HSIM_ERUN);
        CU_ASSERT_TRUE(hsim_test_message_ok(e.msg, "", needle, NULL, NULL));
    }
    size_t size = hsim_invariants_scratch(NJOBS, &l->c);
    for (size_t i = 0; i < size; i++)
        CU_ASSERT_EQUAL(((uint8_t *)l->scratch)[i], 0);
    hsim_free(l->scratch);
    hsim_cluster_free(&l->c);
}

static void test_ledger(void)
{
    lab_t l;
    lab_init(&l);
    lab_expect(&l, NULL);

    lab_init(&l); /* a core lost from the ledger */
    l.c.nodes[0].free_cores--;
    lab_expect(&l, "node 0 (gpu): the ledger has 1 cores, 900 MiB, 1 FPGAs free and 1 jobs; "
                   "the allocations leave 2, 900, 1 and 1");
    lab_init(&l); /* an allocation of more cores than the node has */
    l.parts2[1].cores = 5;
    lab_expect(&l, "node 1 (gpu) holds 5 cores, 0 MiB, 0 GPUs, 1 FPGAs: it has 4, 1000, 2, 1");
    lab_init(&l); /* a GPU share the ledger does not know */
    l.parts2[1].gpu_milli = 300;
    lab_expect(&l, "node 1 GPU 0: 500 thousandths free, the allocations leave 700");
    lab_init(&l); /* a whole GPU held twice over */
    l.parts2[0].gpus = 2;
    lab_expect(&l, "node 0: 1 GPUs held whole and 1 free in the ledger (free_gpus 1); the "
                   "allocations hold 2");
    lab_init(&l); /* the cluster's total out of step with its nodes */
    l.c.free_cores++;
    lab_expect(&l, "the cluster counts 6 cores and 2 GPUs free, its nodes 5 and 2");
    lab_init(&l); /* the index's root out of step */
    l.c.idx[0].max_cores[1] = 4;
    lab_expect(&l, "node type gpu: the index's most free cores and GPUs are 4 and 1, its "
                   "nodes' 3 and 1");
    lab_init(&l); /* the engine's count of placed jobs */
    l.p.s.n_placed = 1;
    lab_expect(&l, "2 jobs hold allocations, the engine counts 1");
    /* a running job whose resources were given back ahead of its end:
       right when it ends now (job 3), wrong before (job 2) */
    lab_init(&l);
    hsim_cluster_give(&l.c, &l.allocs[3], 100 * S);
    l.allocs[3].n = 0;
    l.p.s.n_placed = 1;
    lab_expect(&l, NULL);
    lab_init(&l);
    hsim_cluster_give(&l.c, &l.allocs[2], 100 * S);
    l.allocs[2].n = 0;
    l.p.s.n_placed = 1;
    lab_expect(&l, "running job 102 holds nothing before its end at 150000000 us");
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("invariants");
    HSIM_TEST(s, test_pool);
    HSIM_TEST(s, test_ledger);
}
