/*
 * invariants.h - a check of a whole replay's state, for the engine to run
 * after every event when hsim is built with -DHSIM_INVARIANTS=ON (the
 * sanitizer build turns it on), in the manner of hwloc_topology_check():
 * slow (O(jobs in the system + nodes + parts) per event), and compiled out
 * of a normal build, where it costs nothing.
 *
 * The state is handed over as plain arrays, so that a test can build a
 * broken one by hand and see the check fire.
 */
#ifndef HSIM_INVARIANTS_H
#define HSIM_INVARIANTS_H

#include "engine.h"

/* A job's place in a run, as the engine keeps it (one value each). */
enum { HSIM_JOB_FUTURE, HSIM_JOB_WAITING, HSIM_JOB_RUNNING, HSIM_JOB_DONE, HSIM_JOB_STATES };

typedef struct hsim_run_state {
    hsim_time_t now;              /* the clock */
    size_t n_jobs;                /* jobs of the workload */
    const hsim_job_t *jobs;       /* [n_jobs], by index */
    const uint8_t *state;         /* [n_jobs]: HSIM_JOB_* */
    const hsim_outcome_t *out;    /* [n_jobs]: start and end of those started */
    size_t n_submitted;           /* jobs submitted so far */
    size_t n_done;                /* jobs that ended */
    const hsim_view_t *view;      /* what the policies see: waiting[] and
                                     running[] (holes: < 0), running_procs,
                                     capacity */
    /* With a cluster (NULL otherwise): the ledger and each job's
       allocation (n = 0: none, or given back already). */
    const hsim_cluster_t *cluster;
    const hsim_alloc_t *allocs;   /* [n_jobs]; a waiting job's: the memory
                                     a suspended job keeps (memory only) */
    size_t n_placed;              /* jobs that hold an allocation (or a
                                     suspended job's hold) */
    const hsim_time_t *down_since;/* [nodes] with node failures: >= 0 for a
                                     node that is down, which the ledger
                                     holds whole; NULL without failures */
} hsim_run_state_t;

/*
 * Checks s: every job has one state, and is in waiting[] exactly when it
 * waits, in running[] exactly when it runs (each once), the rest submitted
 * and done, or not yet submitted; the view's running_procs is the sum of
 * its running jobs' processors, and those that have not ended by now fit
 * the capacity; on a cluster, what the running jobs' allocations hold on
 * each node adds up to the node's capacity less what the ledger says is
 * free (cores, memory, whole GPUs and each GPU's share, FPGAs), never more
 * than the node has, with the node's job count, the cluster's free totals
 * and the index's max-trees in agreement.  scratch: hsim_invariants_scratch()
 * bytes, all 0, left so.  0, or HSIM_ERUN with e saying the first thing
 * wrong.  O(waiting + running + their parts + nodes + GPUs).
 */
int hsim_invariants_check(const hsim_run_state_t *s, void *scratch, hsim_err_t *e);
/* The bytes of scratch the check needs for n_jobs jobs on c (NULL: a pool). */
size_t hsim_invariants_scratch(size_t n_jobs, const hsim_cluster_t *c);

#endif
