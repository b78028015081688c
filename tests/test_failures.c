/*
 * test_failures.c - nodes that fail: a hand-made failure trace with its
 * outcomes worked out by hand (requeue and checkpoint, FCFS and EASY), and
 * conservation on random workloads with random outages and with drawn
 * failures (exponential and Weibull): every job ends exactly once, run or
 * killed; no node holds two jobs at once nor a job while it is down; the
 * same seed gives the same run.  Also the failure trace reader's errors
 * and the draws' independence from the order they are asked in.
 */
#include "harness.h"

#include "policies/registry.h"
#include "sim/engine.h"
#include "sim/failures.h"

#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S HSIM_SECOND

static hsim_job_t *add(hsim_workload_t *w, int64_t id, hsim_time_t submit, int32_t procs,
                       hsim_time_t run, hsim_time_t est)
{
    hsim_job_t j;
    hsim_job_init(&j);
    j.id = id;
    j.line = id + 1;
    j.submit = submit;
    j.runtime = run;
    j.estimate = est;
    j.procs = procs;
    HSIM_ASSERT(hsim_workload_add(w, &j) == 0);
    return &w->jobs[w->n_jobs - 1];
}

/* Runs w on `nodes` nodes of one core under sched with failures f. */
static int run(const hsim_workload_t *w, int32_t nodes, const char *sched,
               const hsim_failures_t *f, hsim_outcome_t *out, hsim_run_stats_t *st)
{
    hsim_node_type_t t;
    memset(&t, 0, sizeof t);
    hsim_strlcpy(t.name, "n", sizeof t.name);
    t.count = nodes;
    t.cores = 1;
    t.speed = 1;
    hsim_cluster_spec_t spec = {.types = &t, .n_types = 1};
    hsim_run_config_t c = {
        .capacity = nodes,
        .order = hsim_order_find("fcfs"),
        .scheduler = hsim_scheduler_find(sched),
        .predictor = hsim_predictor_find("user"),
        .cluster = &spec,
        .placement = hsim_placement_find("first-fit"),
        .failures = f,
    };
    HSIM_ASSERT(c.scheduler);
    memset(st, 0, sizeof *st);
    hsim_err_t e = {{0}};
    int rc = hsim_engine_run(w, &c, out, st, &e);
    if (rc)
        fprintf(stderr, "\nengine (%s): %s\n", sched, e.msg);
    return rc;
}

/* ---- a hand-made trace ----
   Two nodes of one core.  Jobs 1 and 2 (100 s each) start at 0, on nodes 0
   and 1; job 3 (1 s) arrives at 60.  Node 0 is down from 50 to 80.  At 50
   job 1 stops and waits (node 1 is busy, node 0 down) before job 3; at 80
   node 0 is back and job 1 starts there again: from zero (requeue: ends at
   180, 50 s lost) or from its checkpoint (50 s kept, 10 s of restart cost:
   ends at 140, nothing lost).  Job 3 starts when job 2 ends, at 100, on
   node 1. */
static void hand_made(const char *sched, hsim_on_failure_t on, hsim_time_t end1,
                      hsim_time_t lost1)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 1, 0, 1, 100 * S, 100 * S);
    add(&w, 2, 0, 1, 100 * S, 100 * S);
    add(&w, 3, 60 * S, 1, 1 * S, 1 * S);
    hsim_outage_t down = {.node = 0, .down = 50 * S, .up = 80 * S};
    hsim_failures_t f = {.trace = &down, .n_trace = 1, .type = -1, .on_failure = on,
                         .restart_cost = 10 * S};
    hsim_outcome_t out[3];
    hsim_run_stats_t st;
    CU_ASSERT_EQUAL_FATAL(run(&w, 2, sched, &f, out, &st), 0);
    CU_ASSERT_EQUAL(out[0].start, 80 * S);
    CU_ASSERT_EQUAL(out[0].end, end1);
    CU_ASSERT_EQUAL(out[0].node, 0);
    CU_ASSERT_EQUAL(out[1].start, 0);
    CU_ASSERT_EQUAL(out[1].end, 100 * S);
    CU_ASSERT_EQUAL(out[2].start, 100 * S);
    CU_ASSERT_EQUAL(out[2].node, 1);
    CU_ASSERT_EQUAL(st.starts[0], 2);
    CU_ASSERT_EQUAL(st.starts[1], 1);
    CU_ASSERT_EQUAL(st.starts[2], 1);
    CU_ASSERT_EQUAL(st.lost[0], lost1);
    CU_ASSERT_EQUAL(st.lost[1], 0);
    CU_ASSERT_EQUAL(st.failures, 1);
    CU_ASSERT_EQUAL(st.jobs_hit, 1);
    CU_ASSERT_DOUBLE_EQUAL(st.lost_core_s, (double)lost1 / S, 1e-9);
    /* 30 s down of 2 nodes x (end - 0) */
    double span = (double)(end1 > 101 * S ? end1 : 101 * S) / S;
    CU_ASSERT_DOUBLE_EQUAL(st.down_node_s, 30, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(st.availability, 1 - 30 / (2 * span), 1e-9);
    /* node 0's busy time leaves out its time down: 50 s, then job 1 again */
    CU_ASSERT_EQUAL(st.node_busy[0], 50 * S + (end1 - 80 * S));
    hsim_run_stats_free(&st);
    hsim_workload_free(&w);
}

static void test_hand_made_requeue(void)
{
    hand_made("none", HSIM_ON_FAILURE_REQUEUE, 180 * S, 50 * S);
    hand_made("easy", HSIM_ON_FAILURE_REQUEUE, 180 * S, 50 * S);
}

static void test_hand_made_checkpoint(void)
{
    hand_made("none", HSIM_ON_FAILURE_CHECKPOINT, 140 * S, 0);
    hand_made("easy", HSIM_ON_FAILURE_CHECKPOINT, 140 * S, 0);
}

/* A job on two nodes stops when either fails; with no failure at all the
   schedule is the one without failures. */
static void test_wide_job_and_no_outage(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 1, 0, 2, 100 * S, 100 * S);
    hsim_outage_t down = {.node = 1, .down = 10 * S, .up = 20 * S};
    hsim_failures_t f = {.trace = &down, .n_trace = 1, .type = -1};
    hsim_outcome_t out[1];
    hsim_run_stats_t st;
    CU_ASSERT_EQUAL_FATAL(run(&w, 2, "easy", &f, out, &st), 0);
    CU_ASSERT_EQUAL(out[0].start, 20 * S);
    CU_ASSERT_EQUAL(out[0].end, 120 * S);
    CU_ASSERT_EQUAL(st.lost[0], 10 * S);
    CU_ASSERT_DOUBLE_EQUAL(st.lost_core_s, 20, 1e-9);
    hsim_run_stats_free(&st);
    /* an outage after the last end changes nothing */
    down = (hsim_outage_t){.node = 1, .down = 500 * S, .up = 600 * S};
    CU_ASSERT_EQUAL_FATAL(run(&w, 2, "easy", &f, out, &st), 0);
    CU_ASSERT_EQUAL(out[0].start, 0);
    CU_ASSERT_EQUAL(out[0].end, 100 * S);
    CU_ASSERT_EQUAL(st.failures, 0);
    CU_ASSERT_DOUBLE_EQUAL(st.availability, 1, 1e-12);
    hsim_run_stats_free(&st);
    hsim_workload_free(&w);
}

/* ---- conservation ---- */

static void random_jobs(hsim_workload_t *w, gsl_rng *g, size_t n, int32_t max_procs)
{
    hsim_workload_init(w);
    for (size_t i = 0; i < n; i++) {
        hsim_time_t runtime = (1 + (hsim_time_t)gsl_rng_uniform_int(g, 500)) * S;
        hsim_time_t est = runtime + (hsim_time_t)gsl_rng_uniform_int(g, 300) * S;
        if (gsl_rng_uniform(g) < 0.1) /* some are killed at their estimate */
            est = runtime / 2 + S;
        add(w, (int64_t)i + 1, (hsim_time_t)gsl_rng_uniform_int(g, 4000) * S,
            1 + (int32_t)gsl_rng_uniform_int(g, (unsigned long)max_procs), runtime, est);
    }
    hsim_workload_sort(w);
}

/* The nodes of job i as the run recorded them ("0-3;7"): bit k of *mask. */
static void nodes_of(const hsim_run_stats_t *st, size_t i, uint64_t *mask)
{
    *mask = 0;
    const char *s = st->ranges + st->held[i].ranges;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        for (long k = a; k <= b; k++)
            *mask |= UINT64_C(1) << k;
        s = *end == ';' ? end + 1 : end;
    }
}

/* Every job ran once to its end (run or killed at its estimate), and on
   each node the final runs neither overlap each other nor an outage. */
static int conserved(const hsim_workload_t *w, const hsim_outcome_t *out,
                     const hsim_run_stats_t *st, int32_t nodes, const hsim_outage_t *o,
                     size_t n_o)
{
    int bad = 0;
    uint64_t *mask = calloc(w->n_jobs, sizeof *mask);
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        if (out[i].start < j->submit || out[i].end <= out[i].start ||
            (out[i].fate != HSIM_FATE_RAN && out[i].fate != HSIM_FATE_KILLED) ||
            st->starts[i] < 1 || st->lost[i] < 0)
            bad++;
        nodes_of(st, i, &mask[i]);
        if (__builtin_popcountll(mask[i]) != j->procs)
            bad++;
    }
    for (int32_t n = 0; n < nodes; n++) {
        uint64_t bit = UINT64_C(1) << n;
        for (size_t a = 0; a < w->n_jobs; a++) {
            if (!(mask[a] & bit))
                continue;
            for (size_t b = a + 1; b < w->n_jobs; b++)
                if ((mask[b] & bit) && out[a].start < out[b].end && out[b].start < out[a].end)
                    bad++;
            for (size_t k = 0; k < n_o; k++)
                if (o[k].node == n && out[a].start < o[k].up && o[k].down < out[a].end)
                    bad++;
        }
    }
    free(mask);
    return bad;
}

/* Random outages on each node: up for U(0, 2000) s, down for U(1, 300) s,
   until 20,000 s. */
static size_t random_outages(gsl_rng *g, int32_t nodes, hsim_outage_t *o, size_t max)
{
    size_t n = 0;
    for (int32_t k = 0; k < nodes; k++) {
        hsim_time_t t = 0;
        for (;;) {
            t += (hsim_time_t)gsl_rng_uniform_int(g, 2000) * S;
            hsim_time_t d = (1 + (hsim_time_t)gsl_rng_uniform_int(g, 300)) * S;
            if (t > 20000 * S || n == max)
                break;
            o[n++] = (hsim_outage_t){.node = k, .down = t, .up = t + d};
            t += d;
        }
    }
    /* by (down, node), as the reader gives them */
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && (o[k].down < o[k - 1].down ||
                                     (o[k].down == o[k - 1].down && o[k].node < o[k - 1].node));
             k--) {
            hsim_outage_t x = o[k];
            o[k] = o[k - 1];
            o[k - 1] = x;
        }
    return n;
}

/* (conservative backfilling with failures is refused: its plan keeps the
   bookings of started jobs, which a failure would have to unpin) */
static void test_conservation_trace(void)
{
    static const char *const scheds[] = {"none", "easy"};
    enum { NODES = 16, MAX_OUT = 1000 };
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    hsim_outage_t *o = malloc(MAX_OUT * sizeof *o);
    unsigned long seeds = hsim_test_seeds(6);
    for (unsigned long seed = 1; seed <= seeds; seed++) {
        gsl_rng_set(g, seed);
        hsim_workload_t w;
        random_jobs(&w, g, 120, 6);
        size_t n_o = random_outages(g, NODES, o, MAX_OUT);
        hsim_outcome_t *out = calloc(w.n_jobs, sizeof *out);
        for (size_t s = 0; s < 2; s++)
            for (int on = 0; on < 2; on++) {
                hsim_failures_t f = {.trace = o, .n_trace = n_o, .type = -1,
                                     .on_failure = (hsim_on_failure_t)on,
                                     .restart_cost = 5 * S};
                hsim_run_stats_t st;
                CU_ASSERT_EQUAL_FATAL(run(&w, NODES, scheds[s], &f, out, &st), 0);
                int bad = conserved(&w, out, &st, NODES, o, n_o);
                CU_ASSERT_EQUAL(bad, 0);
                CU_ASSERT(st.failures > 0 && st.jobs_hit > 0);
                if (bad)
                    fprintf(stderr, "\nseed %lu, %s, %s: %d violations\n", seed, scheds[s],
                            on ? "checkpoint" : "requeue", bad);
                /* requeue: the last run is the whole run */
                for (size_t i = 0; on == 0 && i < w.n_jobs; i++) {
                    const hsim_job_t *j = &w.jobs[i];
                    hsim_time_t ref = j->runtime < j->estimate ? j->runtime : j->estimate;
                    CU_ASSERT_EQUAL(out[i].end - out[i].start, ref);
                }
                hsim_run_stats_free(&st);
            }
        free(out);
        hsim_workload_free(&w);
    }
    free(o);
    gsl_rng_free(g);
}

/* Drawn failures: conserved, deterministic, and the same outages for
   every policy (a node's draws do not depend on the jobs). */
static void test_conservation_drawn(void)
{
    static const char *const scheds[] = {"none", "easy"};
    enum { NODES = 16 };
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    for (unsigned long seed = 1; seed <= hsim_test_seeds(4); seed++) {
        gsl_rng_set(g, seed);
        hsim_workload_t w;
        random_jobs(&w, g, 120, 6);
        hsim_outcome_t *out = calloc(w.n_jobs, sizeof *out);
        hsim_outcome_t *again = calloc(w.n_jobs, sizeof *again);
        for (int dist = 0; dist < 2; dist++)
            for (size_t s = 0; s < 2; s++) {
                hsim_failures_t f = {.dist = (hsim_fail_dist_t)dist, .mtbf = 3000 * S,
                                     .mttr = 200 * S, .shape = 0.7, .seed = seed, .type = -1,
                                     .on_failure = (hsim_on_failure_t)dist,
                                     .restart_cost = 5 * S};
                hsim_run_stats_t st, st2;
                CU_ASSERT_EQUAL_FATAL(run(&w, NODES, scheds[s], &f, out, &st), 0);
                CU_ASSERT_EQUAL(conserved(&w, out, &st, NODES, NULL, 0), 0);
                CU_ASSERT(st.failures > 0);
                CU_ASSERT(st.availability > 0.5 && st.availability < 1);
                CU_ASSERT_EQUAL_FATAL(run(&w, NODES, scheds[s], &f, again, &st2), 0);
                CU_ASSERT(!memcmp(out, again, w.n_jobs * sizeof *out));
                CU_ASSERT_EQUAL(st.failures, st2.failures);
                hsim_run_stats_free(&st);
                hsim_run_stats_free(&st2);
            }
        free(out);
        free(again);
        hsim_workload_free(&w);
    }
    gsl_rng_free(g);
}

/* A job that its nodes' failures never let end: the run fails, naming it,
   instead of running for ever. */
static void test_never_ends(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 7, 0, 2, 100000 * S, 100000 * S);
    hsim_failures_t f = {.mtbf = 100 * S, .mttr = 1 * S, .seed = 1, .type = -1};
    hsim_node_type_t t;
    memset(&t, 0, sizeof t);
    hsim_strlcpy(t.name, "n", sizeof t.name);
    t.count = 2;
    t.cores = 1;
    t.speed = 1;
    hsim_cluster_spec_t spec = {.types = &t, .n_types = 1};
    hsim_run_config_t c = {.capacity = 2, .order = hsim_order_find("fcfs"),
                           .scheduler = hsim_scheduler_find("easy"),
                           .predictor = hsim_predictor_find("user"), .cluster = &spec,
                           .placement = hsim_placement_find("first-fit"), .failures = &f};
    hsim_outcome_t out[1];
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_engine_run(&w, &c, out, NULL, &e), HSIM_EINPUT);
    CU_ASSERT(hsim_test_message_ok(e.msg, "job 7 was stopped by node failures 1000 times",
                                   "2 cores for 100000 s", NULL, NULL));
    /* with checkpoints it ends (10,000 s at some 50 s an attempt) */
    f.on_failure = HSIM_ON_FAILURE_CHECKPOINT;
    w.jobs[0].runtime = w.jobs[0].estimate = 10000 * S;
    CU_ASSERT_EQUAL(hsim_engine_run(&w, &c, out, NULL, &e), 0);
    CU_ASSERT(out[0].end - out[0].start < 10000 * S);
    hsim_workload_free(&w);
}

/* ---- draws and the reader ---- */

static void test_draws(void)
{
    hsim_failures_t f = {.dist = HSIM_FAIL_EXPONENTIAL, .mtbf = 1000 * S, .mttr = 10 * S,
                         .seed = 42};
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    /* the same (node, k), the same draw, whatever came before */
    hsim_time_t a = hsim_failures_draw(&f, g, 3, 4);
    (void)hsim_failures_draw(&f, g, 1, 0);
    CU_ASSERT_EQUAL(hsim_failures_draw(&f, g, 3, 4), a);
    /* means near mtbf and mttr; whole seconds */
    for (int dist = 0; dist < 2; dist++) {
        f.dist = (hsim_fail_dist_t)dist;
        f.shape = 0.7;
        double up = 0, down = 0;
        int n = 20000;
        for (int k = 0; k < n; k++) {
            hsim_time_t u = hsim_failures_draw(&f, g, k % 7, 2 * (uint64_t)(k / 7));
            hsim_time_t d = hsim_failures_draw(&f, g, k % 7, 2 * (uint64_t)(k / 7) + 1);
            CU_ASSERT(u >= S && u % S == 0 && d >= S && d % S == 0);
            up += (double)u / S;
            down += (double)d / S;
        }
        CU_ASSERT(up / n > 950 && up / n < 1060); /* ceil adds about 0.5 s */
        CU_ASSERT(down / n > 9.5 && down / n < 11.5);
    }
    gsl_rng_free(g);
}

static void test_reader(void)
{
    char *dir = hsim_test_tmpdir("failures-read");
    char path[512];
    snprintf(path, sizeof path, "%s/f.csv", dir);
    hsim_outage_t *o;
    size_t n;
    hsim_err_t e = {{0}};
    hsim_test_write_file(path, "node,down_at,up_at\n# c\n1,50,80.5\n0,10,20\n1,80.5,90\n");
    CU_ASSERT_EQUAL_FATAL(hsim_failures_read(path, 2, &o, &n, &e), 0);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT(o[0].node == 0 && o[0].down == 10 * S && o[0].up == 20 * S);
    CU_ASSERT(o[1].node == 1 && o[1].down == 50 * S && o[1].up == 80 * S + S / 2);
    hsim_free(o);
    static const struct {
        const char *text, *at, *what;
    } bad[] = {
        {"node,down,up\n", ":1: ", "expected the header"},
        {"node,down_at,up_at\n2,1,2\n", ":2: ", "field 1 (node): expected a node index in 0..1"},
        {"node,down_at,up_at\n0,x,2\n", ":2: ", "field 2 (down_at)"},
        {"node,down_at,up_at\n0,5,5\n", ":2: ", "field 3 (up_at): expected seconds after"},
        {"node,down_at,up_at\n0,5,50\n1,0,1\n0,40,60\n", ":4: ", "node 0 is down already"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        hsim_test_write_file(path, bad[k].text);
        CU_ASSERT_EQUAL(hsim_failures_read(path, 2, &o, &n, &e), HSIM_EINPUT);
        char prefix[600];
        snprintf(prefix, sizeof prefix, "%s%s", path, bad[k].at);
        CU_ASSERT(hsim_test_message_ok(e.msg, prefix, bad[k].what, NULL, NULL));
    }
    /* a comment longer than the reader's buffer: its tail, "0,0,1", was
       read as an outage (tests/fuzz/regress/failures/line-of-516-characters.csv) */
    char text[700];
    int len = snprintf(text, sizeof text, "node,down_at,up_at\n#%0510d0,0,1\n", 0);
    CU_ASSERT_FATAL(len > 0 && (size_t)len < sizeof text);
    hsim_test_write_file(path, text);
    CU_ASSERT_EQUAL(hsim_failures_read(path, 2, &o, &n, &e), HSIM_EINPUT);
    char prefix[600];
    snprintf(prefix, sizeof prefix, "%s:2: ", path);
    CU_ASSERT(hsim_test_message_ok(e.msg, prefix, "at most 510 characters", NULL, NULL));
    free(dir);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("failures");
    HSIM_TEST(s, test_hand_made_requeue);
    HSIM_TEST(s, test_hand_made_checkpoint);
    HSIM_TEST(s, test_wide_job_and_no_outage);
    HSIM_TEST(s, test_conservation_trace);
    HSIM_TEST(s, test_conservation_drawn);
    HSIM_TEST(s, test_never_ends);
    HSIM_TEST(s, test_draws);
    HSIM_TEST(s, test_reader);
}
