/*
 * test_preempt.c - jobs that a policy stops and that come back: round
 * robin (backfill = rr) on hand-made queues worked out by hand, rr with a
 * quantum longer than every job against FCFS job for job (random traces,
 * and KTH-SP2 when the shared traces are there), priority preemption
 * (preempt = suspend, requeue, checkpoint) on a full machine, a suspended
 * job keeping its memory on its node and resuming there, and conservation
 * on random workloads with preemption and node failures together: every
 * job ends exactly once, run or killed, having run its whole reference
 * run; the invariant check runs after every event in the sanitizer build.
 */
#include "harness.h"
#include "sched_test.h"

#include "policies/registry.h"
#include "sim/engine.h"
#include "sim/failures.h"
#include "workloads/swf.h"

#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S HSIM_SECOND

static void job(hsim_workload_t *w, hsim_time_t submit, int32_t procs, hsim_time_t run,
                hsim_time_t est)
{
    hsim_job_t j;
    hsim_job_init(&j);
    j.id = (int64_t)w->n_jobs + 1;
    j.line = j.id;
    j.submit = submit;
    j.runtime = run;
    j.estimate = est;
    j.procs = procs;
    HSIM_ASSERT(hsim_workload_add(w, &j) == 0);
}

/* A run's settings, beside the workload. */
typedef struct setup {
    const char *order, *sched;
    const char *placement;      /* on nodes (NULL: first-fit) */
    int32_t procs;              /* a pool of that many processors, or... */
    const hsim_node_type_t *node; /* ...nodes of this type (procs: their cores)... */
    size_t n_types;             /* ...or of these n_types types (0: one) */
    int preempt;
    hsim_time_t grace, switch_cost, quantum;
    const hsim_failures_t *failures;
} setup_t;

static int run(const hsim_workload_t *w, const setup_t *u, hsim_outcome_t *out,
               hsim_run_stats_t *st)
{
    hsim_cluster_spec_t spec = {.types = u->node, .n_types = u->n_types ? u->n_types : 1};
    hsim_run_config_t c = {
        .capacity = u->procs,
        .order = hsim_order_find(u->order),
        .scheduler = hsim_scheduler_find(u->sched),
        .predictor = hsim_predictor_find("user"),
        .cluster = u->node ? &spec : NULL,
        .placement = hsim_placement_find(u->placement ? u->placement : "first-fit"),
        .failures = u->failures,
        .preempt = u->preempt,
        .preempt_grace = u->grace,
        .switch_cost = u->switch_cost,
        .quantum = u->quantum,
    };
    HSIM_ASSERT(c.order && c.scheduler);
    memset(st, 0, sizeof *st);
    hsim_err_t e = {{0}};
    int rc = hsim_engine_run(w, &c, out, st, &e);
    if (rc)
        fprintf(stderr, "\nengine (%s, preempt %d): %d %s\n", u->sched, u->preempt, rc, e.msg);
    return rc;
}

/* ---- round robin ---- */

/* One machine of 4 processors, quantum 100 s: A, B, C (1,000 s each) and
   D (50 s), all of the machine, all at 0.  One round serves each: A 0-100,
   B 100-200, C 200-300, D 300-350 (it ends within its turn); then A, B
   and C take turns of 100 s, nine more each: A's last from 2,750 to 2,850,
   B's to 2,950, C's to 3,050. */
static void test_rr_one_round(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    for (int k = 0; k < 3; k++)
        job(&w, 0, 4, 1000 * S, 1000 * S);
    job(&w, 0, 4, 50 * S, 50 * S);
    setup_t u = {.order = "fcfs", .sched = "rr", .procs = 4, .quantum = 100 * S};
    hsim_outcome_t out[4];
    hsim_run_stats_t st;
    CU_ASSERT_EQUAL_FATAL(run(&w, &u, out, &st), 0);
    CU_ASSERT_EQUAL(out[3].start, 300 * S);
    CU_ASSERT_EQUAL(out[3].end, 350 * S);
    CU_ASSERT_EQUAL(st.starts[3], 1);
    for (int k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL(out[k].start, (2750 + 100 * k) * S);
        CU_ASSERT_EQUAL(out[k].end, (2850 + 100 * k) * S);
        CU_ASSERT_EQUAL(st.starts[k], 10);
        CU_ASSERT_EQUAL(st.ran[k], 1000 * S);
        CU_ASSERT_EQUAL(st.lost[k], 0);
        CU_ASSERT_EQUAL(out[k].fate, HSIM_FATE_RAN);
    }
    CU_ASSERT_EQUAL(st.preemptions, 27);
    hsim_run_stats_free(&st);
    hsim_workload_free(&w);
}

/* One processor, quantum 100 s, switch cost 10 s: A and B of 150 s.  A
   0-100, B 100-200, A resumes with 50 + 10 s left: 200-260, B 260-320. */
static void test_rr_switch_cost(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    job(&w, 0, 1, 150 * S, 400 * S);
    job(&w, 0, 1, 150 * S, 400 * S);
    setup_t u = {.order = "fcfs", .sched = "rr", .procs = 1, .quantum = 100 * S,
                 .switch_cost = 10 * S};
    hsim_outcome_t out[2];
    hsim_run_stats_t st;
    CU_ASSERT_EQUAL_FATAL(run(&w, &u, out, &st), 0);
    CU_ASSERT_EQUAL(out[0].start, 200 * S);
    CU_ASSERT_EQUAL(out[0].end, 260 * S);
    CU_ASSERT_EQUAL(out[1].start, 260 * S);
    CU_ASSERT_EQUAL(out[1].end, 320 * S);
    CU_ASSERT_EQUAL(st.ran[0], 160 * S);
    CU_ASSERT_EQUAL(st.ran[1], 160 * S);
    hsim_run_stats_free(&st);
    hsim_workload_free(&w);
}

/* A job whose requested time ends inside a slice is killed there: its
   running time, not its time suspended, counts.  One processor, quantum
   100 s: A asks 150 s and would run 400, B runs 100.  A 0-100, B 100-200,
   A 200-250, killed. */
static void test_rr_kill_at_request(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    job(&w, 0, 1, 400 * S, 150 * S);
    job(&w, 0, 1, 100 * S, 100 * S);
    w.jobs[0].killed_at_estimate = 1;
    setup_t u = {.order = "fcfs", .sched = "rr", .procs = 1, .quantum = 100 * S};
    hsim_outcome_t out[2];
    hsim_run_stats_t st;
    CU_ASSERT_EQUAL_FATAL(run(&w, &u, out, &st), 0);
    CU_ASSERT_EQUAL(out[0].end, 250 * S);
    CU_ASSERT_EQUAL(out[0].fate, HSIM_FATE_KILLED);
    CU_ASSERT_EQUAL(st.ran[0], 150 * S);
    CU_ASSERT_EQUAL(out[1].end, 200 * S);
    hsim_run_stats_free(&st);
    hsim_workload_free(&w);
}

static void random_jobs(hsim_workload_t *w, gsl_rng *g, size_t n, int32_t max_procs)
{
    hsim_workload_init(w);
    for (size_t i = 0; i < n; i++) {
        hsim_time_t run = (1 + (hsim_time_t)gsl_rng_uniform_int(g, 400)) * S;
        hsim_time_t est = run + (hsim_time_t)gsl_rng_uniform_int(g, 200) * S;
        job(w, (hsim_time_t)gsl_rng_uniform_int(g, 3000) * S,
            1 + (int32_t)gsl_rng_uniform_int(g, (unsigned long)max_procs), run, est);
    }
    hsim_workload_sort(w);
    for (size_t i = 0; i < n; i++)
        w->jobs[i].id = (int64_t)i + 1;
}

/* Start and end of every job equal between two runs. */
static int same_schedule(const hsim_outcome_t *a, const hsim_outcome_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].start != b[i].start || a[i].end != b[i].end)
            return 0;
    return 1;
}

/* With a quantum longer than every job, rr is FCFS without backfilling. */
static void test_rr_long_quantum_is_fcfs(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    for (unsigned long seed = 1; seed <= hsim_test_seeds(8); seed++) {
        gsl_rng_set(g, seed);
        hsim_workload_t w;
        random_jobs(&w, g, 300, 16);
        hsim_outcome_t *a = calloc(w.n_jobs, sizeof *a), *b = calloc(w.n_jobs, sizeof *b);
        hsim_run_stats_t st;
        setup_t fcfs = {.order = "fcfs", .sched = "none", .procs = 16};
        setup_t rr = {.order = "fcfs", .sched = "rr", .procs = 16, .quantum = 1000 * S};
        CU_ASSERT_EQUAL_FATAL(run(&w, &fcfs, a, &st), 0);
        hsim_run_stats_free(&st);
        CU_ASSERT_EQUAL_FATAL(run(&w, &rr, b, &st), 0);
        CU_ASSERT(same_schedule(a, b, w.n_jobs));
        CU_ASSERT_EQUAL(st.preemptions, 0);
        hsim_run_stats_free(&st);
        free(a);
        free(b);
        hsim_workload_free(&w);
    }
    gsl_rng_free(g);
}

/* The same on KTH-SP2's first 5,000 jobs (pyss cleaning, 100 processors). */
static void test_rr_long_quantum_kth(void)
{
    const char *path = HSIM_SHARED_DIR "/traces/swf/KTH-SP2-1996-2.1-cln.swf.gz";
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "\n(skipped: %s is not there)\n", path);
        return;
    }
    fclose(f);
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_err_t e = {{0}};
    hsim_swf_trace_t t;
    CU_ASSERT_EQUAL_FATAL(hsim_swf_read(path, 5000, &t, &e), 0);
    CU_ASSERT_EQUAL_FATAL(hsim_swf_clean(&t, HSIM_CLEAN_PYSS, 100, &w), 0);
    hsim_swf_trace_free(&t);
    hsim_outcome_t *a = calloc(w.n_jobs, sizeof *a), *b = calloc(w.n_jobs, sizeof *b);
    hsim_run_stats_t st;
    setup_t fcfs = {.order = "fcfs", .sched = "none", .procs = 100};
    setup_t rr = {.order = "fcfs", .sched = "rr", .procs = 100,
                  .quantum = (hsim_time_t)1000000 * S};
    CU_ASSERT_EQUAL_FATAL(run(&w, &fcfs, a, &st), 0);
    hsim_run_stats_free(&st);
    CU_ASSERT_EQUAL_FATAL(run(&w, &rr, b, &st), 0);
    CU_ASSERT(same_schedule(a, b, w.n_jobs));
    hsim_run_stats_free(&st);
    free(a);
    free(b);
    hsim_workload_free(&w);
}

/* ---- priority preemption ---- */

/* Four processors, SJF: L (1,000 s, all four) at 0, S (10 s, all four) at
   100.  S ranks first and L has run its grace: L stops at 100 and S runs
   100-110; L comes back at 110 with what the mode left it. */
static void preempt_case(int mode, hsim_time_t cost, hsim_time_t grace, hsim_time_t s_start,
                         hsim_time_t l_end, hsim_time_t l_lost)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    job(&w, 0, 4, 1000 * S, 1000 * S);
    job(&w, 100 * S, 4, 10 * S, 10 * S);
    setup_t u = {.order = "sjf", .sched = "easy", .procs = 4, .preempt = mode,
                 .grace = grace, .switch_cost = cost};
    hsim_outcome_t out[2];
    hsim_run_stats_t st;
    CU_ASSERT_EQUAL_FATAL(run(&w, &u, out, &st), 0);
    CU_ASSERT_EQUAL(out[1].start, s_start);
    CU_ASSERT_EQUAL(out[0].end, l_end);
    CU_ASSERT_EQUAL(st.lost[0], l_lost);
    int stopped = s_start == 100 * S;
    CU_ASSERT_EQUAL(st.starts[0], 1 + stopped);
    CU_ASSERT_EQUAL(st.preemptions, (uint64_t)stopped);
    CU_ASSERT_EQUAL(st.ran[0], 1000 * S + l_lost + (stopped ? cost : 0));
    hsim_run_stats_free(&st);
    hsim_workload_free(&w);
}

static void test_preempt_suspend(void)
{
    /* work kept: 900 s left, from 110 */
    preempt_case(HSIM_STOP_SUSPEND, 0, 60 * S, 100 * S, 1010 * S, 0);
    /* and a switch cost of 5 s at its resume */
    preempt_case(HSIM_STOP_SUSPEND, 5 * S, 60 * S, 100 * S, 1015 * S, 0);
}

static void test_preempt_requeue(void)
{
    /* from zero at 110: 100 s lost */
    preempt_case(HSIM_STOP_REQUEUE, 0, 60 * S, 100 * S, 1110 * S, 100 * S);
}

static void test_preempt_checkpoint(void)
{
    preempt_case(HSIM_STOP_CHECKPOINT, 7 * S, 60 * S, 100 * S, 1017 * S, 0);
}

/* No preemption when the victim has not run its grace, nor when the order
   ranks the newcomer lower (FCFS: later is lower). */
static void test_preempt_guards(void)
{
    preempt_case(HSIM_STOP_SUSPEND, 0, 200 * S, 1000 * S, 1000 * S, 0);
    hsim_workload_t w;
    hsim_workload_init(&w);
    job(&w, 0, 4, 1000 * S, 1000 * S);
    job(&w, 100 * S, 4, 10 * S, 10 * S);
    setup_t u = {.order = "fcfs", .sched = "none", .procs = 4, .preempt = HSIM_STOP_REQUEUE};
    hsim_outcome_t out[2];
    hsim_run_stats_t st;
    CU_ASSERT_EQUAL_FATAL(run(&w, &u, out, &st), 0);
    CU_ASSERT_EQUAL(out[1].start, 1000 * S);
    CU_ASSERT_EQUAL(st.preemptions, 0);
    hsim_run_stats_free(&st);
    hsim_workload_free(&w);
}

/* The cheapest victims: eight processors, SJF; at 0 three jobs start: X
   (4 processors, 1,000 s), Y (2, 900 s) and Z (2, 800 s); at 500 H (10 s)
   needs 2.  Costs at 500: X 2,000, Y and Z 1,000 processor-seconds each;
   the tie goes to the latest submitted, Z, and Z alone makes room. */
static void test_preempt_cheapest(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    job(&w, 0, 4, 1000 * S, 1000 * S);
    job(&w, 0, 2, 900 * S, 900 * S);
    job(&w, 0, 2, 800 * S, 800 * S);
    job(&w, 500 * S, 2, 10 * S, 10 * S);
    setup_t u = {.order = "sjf", .sched = "easy", .procs = 8, .preempt = HSIM_STOP_SUSPEND};
    hsim_outcome_t out[4];
    hsim_run_stats_t st;
    CU_ASSERT_EQUAL_FATAL(run(&w, &u, out, &st), 0);
    CU_ASSERT_EQUAL(out[3].start, 500 * S);
    CU_ASSERT_EQUAL(st.starts[2], 2);
    CU_ASSERT_EQUAL(st.starts[0], 1);
    CU_ASSERT_EQUAL(st.starts[1], 1);
    CU_ASSERT_EQUAL(out[2].end, 810 * S);
    hsim_run_stats_free(&st);
    hsim_workload_free(&w);
}

/* On a node of 4 cores and 1,000 MiB: L (4 cores, 600 MiB) is suspended
   for S (4 cores, 300 MiB): it keeps its 600 MiB meanwhile (S fits beside
   it) and resumes on its node; node busy time counts the hold. */
static void test_suspend_keeps_memory(void)
{
    hsim_node_type_t t = hsim_test_node_type("n", 1, 4, 1000, 0, "", 0);
    hsim_workload_t w;
    hsim_workload_init(&w);
    job(&w, 0, 4, 1000 * S, 1000 * S);
    job(&w, 100 * S, 4, 10 * S, 10 * S);
    w.jobs[0].mem_mb = 600;
    w.jobs[1].mem_mb = 300;
    setup_t u = {.order = "sjf", .sched = "easy", .procs = 4, .node = &t,
                 .preempt = HSIM_STOP_SUSPEND};
    hsim_outcome_t out[2];
    hsim_run_stats_t st;
    CU_ASSERT_EQUAL_FATAL(run(&w, &u, out, &st), 0);
    CU_ASSERT_EQUAL(out[1].start, 100 * S);
    CU_ASSERT_EQUAL(out[0].start, 110 * S);
    CU_ASSERT_EQUAL(out[0].end, 1010 * S);
    CU_ASSERT_EQUAL(out[0].node, 0);
    CU_ASSERT_EQUAL(st.held[0].mem_mb, 600);
    CU_ASSERT_EQUAL(st.node_busy[0], 1010 * S);
    hsim_run_stats_free(&st);
    /* S of 500 MiB does not fit beside the hold: nothing runs, and the
       hold is given back (L resumes after S) rather than wait for ever */
    w.jobs[1].mem_mb = 500;
    CU_ASSERT_EQUAL_FATAL(run(&w, &u, out, &st), 0);
    CU_ASSERT_EQUAL(out[1].start, 100 * S);
    CU_ASSERT_EQUAL(out[0].end, 1010 * S);
    hsim_run_stats_free(&st);
    hsim_workload_free(&w);
}

/* ---- conservation ---- */

/* Every job ran to its end once, its attempts adding up. */
static int conserved(const hsim_workload_t *w, const hsim_outcome_t *out,
                     const hsim_run_stats_t *st, int requeue_only)
{
    int bad = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        hsim_time_t ref = j->runtime < j->estimate ? j->runtime : j->estimate;
        if (out[i].start < j->submit || out[i].end <= out[i].start ||
            (out[i].fate != HSIM_FATE_RAN && out[i].fate != HSIM_FATE_KILLED) ||
            st->starts[i] < 1 || st->lost[i] < 0 ||
            (st->ran && out[i].speed == 1 && st->ran[i] < ref) ||
            (requeue_only && st->ran[i] != ref + st->lost[i]))
            bad++;
    }
    return bad;
}

/* Random workloads on 16 one-core nodes, with drawn node failures, under
   every preemption mode and under rr: conserved, and the same twice. */
static void test_conservation(void)
{
    hsim_node_type_t t = hsim_test_node_type("n", 16, 1, 0, 0, "", 0);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    for (unsigned long seed = 1; seed <= hsim_test_seeds(4); seed++) {
        gsl_rng_set(g, seed);
        hsim_workload_t w;
        random_jobs(&w, g, 150, 6);
        for (size_t i = 0; i < w.n_jobs; i += 7)
            w.jobs[i].runtime += 100 * S; /* some are killed at their request */
        hsim_outcome_t *out = calloc(w.n_jobs, sizeof *out);
        hsim_outcome_t *again = calloc(w.n_jobs, sizeof *again);
        hsim_failures_t f = {.mtbf = 4000 * S, .mttr = 100 * S, .seed = seed, .type = -1,
                             .on_failure = HSIM_ON_FAILURE_CHECKPOINT};
        for (int mode = 0; mode <= 4; mode++) {
            setup_t u = {.order = "sjf", .sched = mode == 4 ? "rr" : "easy", .procs = 16,
                         .node = &t, .preempt = mode == 4 ? 0 : mode, .grace = 30 * S,
                         .switch_cost = 3 * S, .quantum = 150 * S, .failures = &f};
            if (mode == 4)
                u.order = "fcfs";
            hsim_run_stats_t st, st2;
            CU_ASSERT_EQUAL_FATAL(run(&w, &u, out, &st), 0);
            int bad = conserved(&w, out, &st, 0);
            CU_ASSERT_EQUAL(bad, 0);
            if (mode)
                CU_ASSERT(st.preemptions > 0);
            CU_ASSERT_EQUAL_FATAL(run(&w, &u, again, &st2), 0);
            CU_ASSERT(same_schedule(out, again, w.n_jobs));
            if (bad)
                fprintf(stderr, "\nseed %lu, mode %d: %d jobs wrong\n", seed, mode, bad);
            hsim_run_stats_free(&st);
            hsim_run_stats_free(&st2);
        }
        /* requeue alone, on a pool: each job's time run is its run plus
           what it lost */
        setup_t u = {.order = "sjf", .sched = "easy", .procs = 16,
                     .preempt = HSIM_STOP_REQUEUE};
        hsim_run_stats_t st;
        CU_ASSERT_EQUAL_FATAL(run(&w, &u, out, &st), 0);
        CU_ASSERT_EQUAL(conserved(&w, out, &st, 1), 0);
        CU_ASSERT(st.preemptions > 0);
        hsim_run_stats_free(&st);
        free(out);
        free(again);
        hsim_workload_free(&w);
    }
    gsl_rng_free(g);
}

/* Random clusters of CPU, GPU (two models) and FPGA nodes with memory
   that binds, and jobs of every kind: suspend (memory kept), checkpoint
   and rr, under several placements; every job ends once, having run its
   whole run, and the same twice. */
static void test_conservation_mixed(void)
{
    static const char *const places[] = {"first-fit", "best-fit", "round-robin"};
    for (unsigned long seed = 1; seed <= hsim_test_seeds(4); seed++) {
        uint64_t x = 0x9E3779B97F4A7C15ULL * seed;
        hsim_node_type_t t[4];
        hsim_cluster_spec_t spec;
        hsim_workload_t w;
        int32_t cores = hsim_test_random_case(&x, t, &spec, &w, 200);
        size_t nt = spec.n_types;
        hsim_outcome_t *out = calloc(w.n_jobs, sizeof *out);
        hsim_outcome_t *again = calloc(w.n_jobs, sizeof *again);
        for (int mode = HSIM_STOP_REQUEUE; mode <= HSIM_STOP_CHECKPOINT + 1; mode++) {
            int rr = mode > HSIM_STOP_CHECKPOINT;
            setup_t u = {.order = rr ? "fcfs" : "sjf", .sched = rr ? "rr" : "easy",
                         .procs = cores, .node = t, .n_types = nt, .preempt = rr ? 0 : mode,
                         .grace = 20 * S, .switch_cost = 2 * S, .quantum = 60 * S};
            u.placement = places[(seed + (unsigned long)mode) % 3];
            hsim_run_stats_t st, st2;
            CU_ASSERT_EQUAL_FATAL(run(&w, &u, out, &st), 0);
            int bad = conserved(&w, out, &st, 0);
            CU_ASSERT_EQUAL(bad, 0);
            CU_ASSERT(st.preemptions > 0);
            if (bad)
                fprintf(stderr, "\nmixed seed %lu, mode %d: %d jobs wrong\n", seed, mode, bad);
            CU_ASSERT_EQUAL_FATAL(run(&w, &u, again, &st2), 0);
            CU_ASSERT(same_schedule(out, again, w.n_jobs));
            hsim_run_stats_free(&st);
            hsim_run_stats_free(&st2);
        }
        free(out);
        free(again);
        hsim_workload_free(&w);
    }
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("preempt");
    HSIM_TEST(s, test_rr_one_round);
    HSIM_TEST(s, test_rr_switch_cost);
    HSIM_TEST(s, test_rr_kill_at_request);
    HSIM_TEST(s, test_rr_long_quantum_is_fcfs);
    HSIM_TEST(s, test_rr_long_quantum_kth);
    HSIM_TEST(s, test_preempt_suspend);
    HSIM_TEST(s, test_preempt_requeue);
    HSIM_TEST(s, test_preempt_checkpoint);
    HSIM_TEST(s, test_preempt_guards);
    HSIM_TEST(s, test_preempt_cheapest);
    HSIM_TEST(s, test_suspend_keeps_memory);
    HSIM_TEST(s, test_conservation);
    HSIM_TEST(s, test_conservation_mixed);
}
