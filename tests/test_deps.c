/*
 * test_deps.c - dependencies and workflows: resolution (cycles, missing and
 * rejected jobs), the engine's holding of jobs until their parents end
 * (every job of random DAGs, under FCFS, EASY and conservative, on a pool
 * and on a cluster), think times to the microsecond, the workflow
 * generator's shapes and the workflows' critical paths.
 */
#include "harness.h"

#include "policies/registry.h"
#include "sim/workflows.h"
#include "workloads/deps.h"

#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S HSIM_SECOND

static hsim_job_t *add(hsim_workload_t *w, int64_t id, int64_t submit, int32_t procs,
                       int64_t run, int64_t est)
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

static void edge(hsim_workload_t *w, int64_t job, int64_t parent, hsim_time_t think)
{
    hsim_dep_edge_t x = {.job = job, .parent = parent, .think = think};
    HSIM_ASSERT(hsim_deps_add_edge(w, &x) == 0);
}

static size_t idx_of(const hsim_workload_t *w, int64_t id)
{
    for (size_t i = 0; i < w->n_jobs; i++)
        if (w->jobs[i].id == id)
            return i;
    HSIM_ASSERT(!"no such job");
    return 0;
}

static int resolve(hsim_workload_t *w, int from_swf, const char *path, hsim_err_t *e)
{
    hsim_deps_options_t o = {.from_swf = from_swf, .path = path, .shown = path};
    memset(e, 0, sizeof *e);
    return hsim_deps_resolve(w, &o, e);
}

static hsim_node_type_t four_by_eight(void)
{
    hsim_node_type_t t;
    memset(&t, 0, sizeof t);
    hsim_strlcpy(t.name, "n", sizeof t.name);
    t.count = 4;
    t.cores = 8;
    t.speed = 1;
    return t;
}

/* A policy as the random test runs it. */
typedef struct policy {
    const char *sched, *order, *predictor;
} policy_t;

static int run_policy(const hsim_workload_t *w, const policy_t *p, int cluster,
                      hsim_outcome_t *out);

/* Runs w under scheduler sched (FCFS, requested times), on a pool of 32
   processors or on 4 nodes of 8 cores. */
static int run(const hsim_workload_t *w, const char *sched, int cluster, hsim_outcome_t *out)
{
    policy_t p = {sched, "fcfs", "user"};
    return run_policy(w, &p, cluster, out);
}

static int run_policy(const hsim_workload_t *w, const policy_t *p, int cluster,
                      hsim_outcome_t *out)
{
    const char *sched = p->sched;
    hsim_node_type_t t = four_by_eight();
    hsim_cluster_spec_t spec = {.types = &t, .n_types = 1};
    hsim_run_config_t c = {
        .capacity = 32,
        .order = hsim_order_find(p->order),
        .scheduler = hsim_scheduler_find(sched),
        .predictor = hsim_predictor_find(p->predictor),
        .cluster = cluster ? &spec : NULL,
        .placement = hsim_placement_find("first-fit"),
    };
    HSIM_ASSERT(c.order && c.scheduler && c.predictor && c.placement);
    hsim_run_stats_t st;
    memset(&st, 0, sizeof st);
    hsim_err_t e = {{0}};
    int rc = hsim_engine_run(w, &c, out, &st, &e);
    if (rc)
        fprintf(stderr, "\nengine (%s): %s\n", sched, e.msg);
    hsim_run_stats_free(&st);
    return rc;
}

/* ---- resolution ---- */

static void test_no_edges_no_graph(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 1, 0, 1, S, S);
    hsim_job_t *j = add(&w, 2, 0, 1, S, S);
    j->after = 1; /* an SWF predecessor, not asked for */
    hsim_err_t e;
    CU_ASSERT_EQUAL(resolve(&w, 0, NULL, &e), 0);
    CU_ASSERT_PTR_NULL(w.deps);
    CU_ASSERT_EQUAL(resolve(&w, 1, NULL, &e), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w.deps);
    CU_ASSERT_EQUAL(w.deps->n_edges, 1);
    CU_ASSERT_EQUAL(w.deps->n_workflows, 1);
    hsim_workload_free(&w);
}

static void test_cycle_named(void)
{
    char *dir = hsim_test_tmpdir("deps-cycle");
    char path[512];
    snprintf(path, sizeof path, "%s/deps.csv", dir);
    hsim_test_write_file(path, "job,depends_on\n4,1\n# a comment\n1,3\n3,2\n2,1\n");
    hsim_workload_t w;
    hsim_workload_init(&w);
    for (int64_t id = 1; id <= 4; id++)
        add(&w, id, 0, 1, S, S);
    hsim_err_t e;
    CU_ASSERT_EQUAL(resolve(&w, 0, path, &e), HSIM_EINPUT);
    CU_ASSERT_PTR_NULL(w.deps);
    char l4[600], l5[600], l6[600];
    snprintf(l4, sizeof l4, "job 1 waits for job 3 (%s:4)", path);
    snprintf(l5, sizeof l5, "job 3 waits for job 2 (%s:5)", path);
    snprintf(l6, sizeof l6, "job 2 waits for job 1 (%s:6)", path);
    CU_ASSERT(hsim_test_message_ok(e.msg, path, l4, l5, l6));
    CU_ASSERT_PTR_NULL(strstr(e.msg, "job 4"));
    hsim_workload_free(&w);
    free(dir);
}

static void test_self_cycle_named(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 7, 0, 1, S, S);
    edge(&w, 7, 7, 0);
    hsim_err_t e;
    CU_ASSERT_EQUAL(resolve(&w, 0, NULL, &e), HSIM_EINPUT);
    CU_ASSERT(hsim_test_message_ok(e.msg, "", "job 7 waits for job 7", NULL, NULL));
    hsim_workload_free(&w);
}

static void test_missing_named(void)
{
    char *dir = hsim_test_tmpdir("deps-missing");
    char path[512];
    snprintf(path, sizeof path, "%s/deps.csv", dir);
    hsim_test_write_file(path, "job,depends_on\n2,1\n2,99\n");
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 1, 0, 1, S, S);
    add(&w, 2, 0, 1, S, S);
    hsim_err_t e;
    CU_ASSERT_EQUAL(resolve(&w, 0, path, &e), HSIM_EINPUT);
    char at[600];
    snprintf(at, sizeof at, "%s:3: ", path);
    CU_ASSERT(hsim_test_message_ok(e.msg, at, "job 2 depends on job 99",
                                   "job 99 is not in the workload", NULL));
    /* and a malformed line is named too */
    hsim_test_write_file(path, "job,depends_on\n2,x\n");
    CU_ASSERT_EQUAL(resolve(&w, 0, path, &e), HSIM_EINPUT);
    snprintf(at, sizeof at, "%s:2: ", path);
    CU_ASSERT(hsim_test_message_ok(e.msg, at, "depends_on", "'x'", NULL));
    /* a comment longer than the reader's buffer: its tail, "1,2", was read
       as an edge (tests/fuzz/regress/deps/line-of-1026-characters.csv) */
    char text[1200];
    snprintf(text, sizeof text, "job,depends_on\n#%01022d1,2\n", 0);
    hsim_test_write_file(path, text);
    CU_ASSERT_EQUAL(resolve(&w, 0, path, &e), HSIM_EINPUT);
    snprintf(at, sizeof at, "%s:2: ", path);
    CU_ASSERT(hsim_test_message_ok(e.msg, at, "at most 1022 characters", NULL, NULL));
    hsim_workload_free(&w);
    free(dir);
}

/* A job whose parent was rejected is rejected, and so is its child: no
   job is lost. */
static void test_rejected_parent(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 1, 0, 1, S, S);
    add(&w, 3, 0, 1, S, S);
    add(&w, 4, 0, 1, S, S);
    add(&w, 5, 0, 1, S, S);
    HSIM_ASSERT(hsim_workload_reject(&w, 2, 3, "needs 9 GPUs") == 0);
    edge(&w, 3, 2, 0);
    edge(&w, 4, 3, 0);
    edge(&w, 5, 1, 0);
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(resolve(&w, 0, NULL, &e), 0);
    CU_ASSERT_EQUAL(w.n_jobs, 2);
    CU_ASSERT_EQUAL_FATAL(w.n_rejected, 3);
    CU_ASSERT_EQUAL(w.rejected[1].id, 3);
    CU_ASSERT_STRING_EQUAL(w.rejected[1].reason, "its parent 2 was rejected");
    CU_ASSERT_EQUAL(w.rejected[2].id, 4);
    CU_ASSERT_STRING_EQUAL(w.rejected[2].reason, "its parent 3 was rejected");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w.deps);
    CU_ASSERT_EQUAL(w.deps->n_edges, 1);
    CU_ASSERT_EQUAL(w.deps->n_parents[idx_of(&w, 5)], 1);
    hsim_outcome_t out[2];
    CU_ASSERT_EQUAL(run(&w, "none", 0, out), 0);
    CU_ASSERT_EQUAL(out[idx_of(&w, 5)].start, S);
    hsim_workload_free(&w);
}

/* ---- the engine ---- */

/* Think times to the microsecond.  Job 2's SWF predecessor is job 1 with
   50 s of think time: it is submitted at 100 + 50, its trace submit (500)
   ignored.  Job 3 waits for job 1 by a listed edge: max(own 300, 100).
   Job 4 likewise: max(own 10, 100) = 100.  Job 5 waits for 2 and 4. */
static void test_think_exact(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 1, 0, 4, 100 * S, 100 * S);
    hsim_job_t *j = add(&w, 2, 500 * S, 4, 10 * S + 7, 20 * S);
    j->after = 1;
    j->think = 50 * S + 3;
    add(&w, 3, 300 * S, 4, 10 * S, 10 * S);
    add(&w, 4, 10 * S, 4, 10 * S, 10 * S);
    add(&w, 5, 20 * S, 4, 10 * S, 10 * S);
    hsim_workload_sort(&w);
    edge(&w, 3, 1, 0);
    edge(&w, 4, 1, 0);
    edge(&w, 5, 2, 0);
    edge(&w, 5, 4, 0);
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(resolve(&w, 1, NULL, &e), 0);
    static const char *const scheds[] = {"none", "easy", "conservative"};
    for (int cluster = 0; cluster < 2; cluster++)
        for (size_t s = 0; s < 3; s++) {
            hsim_outcome_t out[5];
            CU_ASSERT_EQUAL_FATAL(run(&w, scheds[s], cluster, out), 0);
            const hsim_outcome_t *o2 = &out[idx_of(&w, 2)], *o3 = &out[idx_of(&w, 3)],
                                 *o4 = &out[idx_of(&w, 4)], *o5 = &out[idx_of(&w, 5)];
            CU_ASSERT_EQUAL(hsim_outcome_submit(&w.jobs[idx_of(&w, 2)], o2), 150 * S + 3);
            CU_ASSERT_EQUAL(o2->start, 150 * S + 3);
            CU_ASSERT_EQUAL(hsim_outcome_submit(&w.jobs[idx_of(&w, 3)], o3), 300 * S);
            CU_ASSERT_EQUAL(o3->start, 300 * S);
            CU_ASSERT_EQUAL(hsim_outcome_submit(&w.jobs[idx_of(&w, 4)], o4), 100 * S);
            CU_ASSERT_EQUAL(o4->start, 100 * S);
            CU_ASSERT_EQUAL(hsim_outcome_submit(&w.jobs[idx_of(&w, 5)], o5), 160 * S + 10);
            CU_ASSERT_EQUAL(o5->start, 160 * S + 10);
        }
    hsim_workload_free(&w);
}

/* A random workload with a random DAG (parents among earlier job
   numbers, some by SWF predecessor with think time), on 32 processors. */
static void random_dag(hsim_workload_t *w, gsl_rng *g, size_t n)
{
    hsim_workload_init(w);
    for (size_t i = 0; i < n; i++) {
        hsim_time_t run = (1 + (hsim_time_t)gsl_rng_uniform_int(g, 600)) * S;
        hsim_time_t est = run + (hsim_time_t)gsl_rng_uniform_int(g, 600) * S;
        hsim_job_t *j = add(w, (int64_t)i + 1, (hsim_time_t)gsl_rng_uniform_int(g, 3000) * S,
                            1 + (int32_t)gsl_rng_uniform_int(g, 16), run, est);
        if (i > 0 && gsl_rng_uniform(g) < 0.2) {
            j->after = 1 + (int64_t)gsl_rng_uniform_int(g, i);
            j->think = (hsim_time_t)gsl_rng_uniform_int(g, 100) * S;
        }
    }
    for (size_t i = 1; i < n; i++) {
        size_t k = gsl_rng_uniform_int(g, 4); /* 0..3 listed parents */
        for (size_t p = 0; p < k; p++)
            edge(w, (int64_t)i + 1, 1 + (int64_t)gsl_rng_uniform_int(g, i),
                 (hsim_time_t)gsl_rng_uniform_int(g, 30) * S);
    }
    hsim_workload_sort(w);
}

/* Every job runs once, starts no earlier than its submission, which is
   exactly the latest of its own submit (unless an SWF predecessor sets
   it) and of its parents' ends plus think times. */
static void test_random_dag_parents_first(void)
{
    static const policy_t scheds[] = {
        {"none", "fcfs", "user"},         {"easy", "fcfs", "user"},
        {"conservative", "fcfs", "user"}, {"easy", "sjf", "last2"},
    };
    unsigned long seeds = hsim_test_seeds(8);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    for (unsigned long seed = 1; seed <= seeds; seed++) {
        gsl_rng_set(g, seed);
        hsim_workload_t w;
        random_dag(&w, g, 150);
        hsim_err_t e;
        CU_ASSERT_EQUAL_FATAL(resolve(&w, 1, NULL, &e), 0);
        const hsim_deps_t *d = w.deps;
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        hsim_outcome_t *out = calloc(w.n_jobs, sizeof *out);
        hsim_time_t *ready = calloc(w.n_jobs, sizeof *ready);
        for (int cluster = 0; cluster < 2; cluster++)
            for (size_t s = 0; s < sizeof scheds / sizeof scheds[0]; s++) {
                CU_ASSERT_EQUAL_FATAL(run_policy(&w, &scheds[s], cluster, out), 0);
                for (size_t i = 0; i < w.n_jobs; i++)
                    ready[i] = d->feedback[i] ? 0 : w.jobs[i].submit;
                int bad = 0;
                for (size_t p = 0; p < w.n_jobs; p++) {
                    CU_ASSERT(out[p].start >= 0 && out[p].end > out[p].start);
                    for (size_t x = d->child_first[p]; x < d->child_first[p + 1]; x++) {
                        int32_t c = d->child[x];
                        if (out[c].start < out[p].end + d->think[x])
                            bad++;
                        if (out[p].end + d->think[x] > ready[c])
                            ready[c] = out[p].end + d->think[x];
                    }
                }
                for (size_t i = 0; i < w.n_jobs; i++) {
                    hsim_time_t submit = hsim_outcome_submit(&w.jobs[i], &out[i]);
                    if (submit != ready[i] || out[i].start < submit)
                        bad++;
                }
                CU_ASSERT_EQUAL(bad, 0);
                if (bad)
                    fprintf(stderr, "\nseed %lu, %s/%s/%s, %s: %d violations\n", seed,
                            scheds[s].sched, scheds[s].order, scheds[s].predictor,
                            cluster ? "cluster" : "pool", bad);
            }
        free(out);
        free(ready);
        hsim_workload_free(&w);
    }
    gsl_rng_free(g);
}

/* ---- workflows ---- */

static void make_jobs(hsim_workload_t *w, size_t n)
{
    hsim_workload_init(w);
    for (size_t i = 0; i < n; i++)
        add(w, (int64_t)i + 1, (hsim_time_t)i * 10 * S, 1, 10 * S, 10 * S);
}

static void test_generator_shapes(void)
{
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    /* chains of 4: 10 jobs make 4 + 4 + 2 */
    make_jobs(&w, 10);
    CU_ASSERT_EQUAL_FATAL(hsim_gen_workflows(&w, HSIM_WORKFLOW_CHAIN, 1, 4, 1, &e), 0);
    CU_ASSERT_EQUAL(w.n_dep_edges, 3 + 3 + 1);
    CU_ASSERT_EQUAL(w.jobs[3].submit, 0); /* a workflow arrives at once */
    CU_ASSERT_EQUAL(w.jobs[4].submit, 40 * S);
    CU_ASSERT_EQUAL_FATAL(resolve(&w, 0, NULL, &e), 0);
    CU_ASSERT_EQUAL(w.deps->n_workflows, 3);
    hsim_workload_free(&w);
    /* fork-join of width 3, depth 4: source, 2 levels of 3, sink = 8 jobs,
       3 + 3 + 3 edges */
    make_jobs(&w, 8);
    CU_ASSERT_EQUAL_FATAL(hsim_gen_workflows(&w, HSIM_WORKFLOW_FORK_JOIN, 3, 4, 1, &e), 0);
    CU_ASSERT_EQUAL(w.n_dep_edges, 9);
    CU_ASSERT_EQUAL_FATAL(resolve(&w, 0, NULL, &e), 0);
    CU_ASSERT_EQUAL(w.deps->n_workflows, 1);
    CU_ASSERT_EQUAL(w.deps->n_parents[idx_of(&w, 8)], 3);
    CU_ASSERT_EQUAL(w.deps->child_first[1] - w.deps->child_first[0], 3);
    hsim_workload_free(&w);
    make_jobs(&w, 8);
    CU_ASSERT_EQUAL(hsim_gen_workflows(&w, HSIM_WORKFLOW_FORK_JOIN, 3, 2, 1, &e), HSIM_EINPUT);
    hsim_workload_free(&w);
    /* random DAGs: the same seed, the same edges; every job below the
       first level has a parent */
    hsim_workload_t v;
    make_jobs(&w, 200);
    make_jobs(&v, 200);
    CU_ASSERT_EQUAL_FATAL(hsim_gen_workflows(&w, HSIM_WORKFLOW_DAG, 4, 5, 9, &e), 0);
    CU_ASSERT_EQUAL_FATAL(hsim_gen_workflows(&v, HSIM_WORKFLOW_DAG, 4, 5, 9, &e), 0);
    CU_ASSERT_EQUAL_FATAL(w.n_dep_edges, v.n_dep_edges);
    CU_ASSERT(!memcmp(w.dep_edges, v.dep_edges, w.n_dep_edges * sizeof *w.dep_edges));
    CU_ASSERT_EQUAL_FATAL(resolve(&w, 0, NULL, &e), 0);
    CU_ASSERT(w.deps->n_workflows >= 200 / 20);
    hsim_workload_free(&w);
    hsim_workload_free(&v);
}

/* A chain 1 -> 2 -> 3 (10, 20, 30 s) with job 4 (40 s) beside it on one
   processor: FCFS runs 1, 4, 2, 3; the chain's makespan is 100 s, its
   critical path 60 s. */
static void test_critical_path(void)
{
    hsim_workload_t w;
    hsim_workload_init(&w);
    add(&w, 1, 0, 1, 10 * S, 10 * S);
    add(&w, 2, 0, 1, 20 * S, 20 * S);
    add(&w, 3, 0, 1, 30 * S, 30 * S);
    add(&w, 4, 5 * S, 1, 40 * S, 40 * S);
    edge(&w, 2, 1, 0);
    edge(&w, 3, 2, 0);
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(resolve(&w, 0, NULL, &e), 0);
    hsim_run_config_t c = {.capacity = 1, .order = hsim_order_find("fcfs"),
                           .scheduler = hsim_scheduler_find("none"),
                           .predictor = hsim_predictor_find("user")};
    hsim_outcome_t out[4];
    CU_ASSERT_EQUAL_FATAL(hsim_engine_run(&w, &c, out, NULL, &e), 0);
    CU_ASSERT_EQUAL(out[idx_of(&w, 3)].end, 100 * S);
    hsim_workflow_stats_t s;
    CU_ASSERT_EQUAL_FATAL(w.deps->n_workflows, 1);
    CU_ASSERT_EQUAL_FATAL(hsim_workflows_compute(&w, out, &s), 0);
    CU_ASSERT_EQUAL(s.first_job, 1);
    CU_ASSERT_EQUAL(s.jobs, 3);
    CU_ASSERT_EQUAL(s.submit, 0);
    CU_ASSERT_EQUAL(s.end, 100 * S);
    CU_ASSERT_EQUAL(s.critical, 60 * S);
    hsim_workload_free(&w);
}

void hsim_test_register(void)
{

    CU_pSuite s = hsim_test_suite("deps");
    HSIM_TEST(s, test_no_edges_no_graph);
    HSIM_TEST(s, test_cycle_named);
    HSIM_TEST(s, test_self_cycle_named);
    HSIM_TEST(s, test_missing_named);
    HSIM_TEST(s, test_rejected_parent);
    HSIM_TEST(s, test_think_exact);
    HSIM_TEST(s, test_random_dag_parents_first);
    HSIM_TEST(s, test_generator_shapes);
    HSIM_TEST(s, test_critical_path);
}
