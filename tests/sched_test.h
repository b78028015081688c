/*
 * sched_test.h - what the engine and scheduler test programs share: jobs
 * and run configurations built by hand, random workloads that make queues
 * build up, and the checks that every valid schedule passes.  Linked, with
 * the reference schedulers of ref/ref.h, into every tests/test_*.c (the
 * linker keeps what a program uses).
 */
#ifndef HSIM_SCHED_TEST_H
#define HSIM_SCHED_TEST_H

#include "harness.h"

#include "sim/engine.h"

/* Appends a job of procs processors submitted at submit_s, running run_s
   with estimate est_s (all in seconds); its user is id mod 3. */
void hsim_test_add_job(hsim_workload_t *w, int64_t id, int64_t submit_s, int32_t procs,
                       int64_t run_s, int64_t est_s);

/* A run on a pool of capacity processors under registered plug-ins named
   sched, order, bf_order (NULL: the queue order) and pred; aborts on an
   unknown name. */
hsim_run_config_t hsim_test_config(int32_t capacity, const char *sched, const char *order,
                                   const char *bf_order, const char *pred);

/* Runs w under c, every outcome first set to a value no run leaves. */
int hsim_test_run(const hsim_workload_t *w, const hsim_run_config_t *c, hsim_outcome_t *out,
                  hsim_err_t *e);

/* A job's index by id (w sorted by submission); aborts when none. */
size_t hsim_test_idx_of(const hsim_workload_t *w, int64_t id);

/* One job's hand-worked schedule, in seconds. */
typedef struct hsim_test_expect {
    int64_t id, start_s, end_s;
} hsim_test_expect_t;

/* Fails the test, naming each job that ran otherwise, unless every job of
   want[0..n) ran as written there. */
void hsim_test_check_schedule(const hsim_workload_t *w, const hsim_outcome_t *out,
                              const hsim_test_expect_t *want, size_t n, const char *what);

/* Invariants of any valid schedule on a pool of cap processors: every job
   started after its submission, ran min(runtime, estimate) with the right
   fate, and the machine was never over-full.  O(n log n). */
void hsim_test_check_invariants(const hsim_workload_t *w, const hsim_outcome_t *out,
                                int32_t cap, const char *what);

/* The number of jobs whose start, end or fate differ between a and b,
   the first three of them printed with what and seed. */
int hsim_test_compare_runs(const hsim_workload_t *w, const hsim_outcome_t *a,
                           const hsim_outcome_t *b, const char *what, unsigned long seed);

/* A workload generator: w (uninitialised on entry) gets n jobs drawn from
   seed, of 1..cap processors, their submissions spread so that the offered
   load (work over capacity times span) is about load. */
typedef void hsim_test_workload_fn(hsim_workload_t *w, unsigned long seed, size_t n,
                                   int32_t cap, double load);

/* Bursts of equal submit times, job arrays (runs of jobs of one shape
   submitted together), many estimates that are equal or end together,
   runtimes early, exact or past the estimate; whole seconds. */
hsim_test_workload_fn hsim_test_random_workload;
/* Arrays of 3 to 30 jobs of one shape that wait for one another: an early
   end moves chains of them up. */
hsim_test_workload_fn hsim_test_chain_workload;
/* The same with every submit time, estimate and runtime moved by a few
   microseconds, as fractional traces have them. */
hsim_test_workload_fn hsim_test_random_workload_us;
hsim_test_workload_fn hsim_test_chain_workload_us;

/* ---- clusters of several node types ---- */

/* xorshift64*: the tests' own stream, so that a seed names a case; *x must
   not be 0. */
uint64_t hsim_test_next(uint64_t *x);
/* A whole number from lo to hi, both included. */
int64_t hsim_test_between(uint64_t *x, int64_t lo, int64_t hi);


/* A node type of count nodes, speed 1; model names the GPUs when gpus > 0. */
hsim_node_type_t hsim_test_node_type(const char *name, int32_t count, int32_t cores,
                                     int64_t mem_mb, int32_t gpus, const char *model,
                                     int32_t fpgas);

/* A random cluster into t[0..4) (returns 4): CPU nodes, GPU nodes of
   models "a" and "b", FPGA nodes, memory on all. */
size_t hsim_test_random_cluster(uint64_t *x, hsim_node_type_t *t);

/* Appends n jobs (w initialised) that each fit some type of
   hsim_test_random_cluster()'s t: CPU jobs maybe over several nodes with
   memory that binds, GPU jobs of any model or of one, FPGA jobs; arrivals
   in bursts; exact estimates. */
void hsim_test_random_mixed_jobs(hsim_workload_t *w, uint64_t *x, size_t n,
                                 const hsim_node_type_t *t);

/* Both: a random cluster into t[0..4) and spec, n jobs for it into w
   (initialised here), drawn from x.  Returns the cluster's cores. */
int32_t hsim_test_random_case(uint64_t *x, hsim_node_type_t *t, hsim_cluster_spec_t *spec,
                              hsim_workload_t *w, size_t n);

#endif
