/*
 * deps.h - dependencies between a workload's jobs, and the workflows they
 * make.
 *
 * Edges come from three places: SWF fields 17 and 18 (preceding job, think
 * time: the job is submitted think seconds after its predecessor ends),
 * a CSV file of (job, depends_on) pairs ([workload] dependencies), and the
 * workflow generator (hsim_gen_workflows()).  Once the workload is loaded
 * and cleaned, hsim_deps_resolve() turns the job numbers into job indices,
 * rejects the jobs whose parent was rejected (so no job is ever lost), and
 * refuses cycles and references to jobs that do not exist.  The engine then
 * holds a job back until all its parents have ended.  A workload without
 * any edge has no hsim_deps_t at all (w->deps == NULL): nothing changes for
 * it, not a byte of its outputs.
 */
#ifndef HSIM_DEPS_H
#define HSIM_DEPS_H

#include "workload.h"

/* An edge as read, by job numbers (before hsim_deps_resolve()). */
typedef struct hsim_dep_edge {
    int64_t job;            /* the job that waits (a job number) */
    int64_t parent;         /* the job it waits for */
    hsim_time_t think;      /* after the parent's end, >= 0 */
    int64_t line;           /* line of the edges' file, 0 for a generator */
} hsim_dep_edge_t;

/* The resolved graph, by job index (positions in w->jobs). */
typedef struct hsim_deps {
    size_t n_jobs;          /* w->n_jobs when resolved */
    int32_t *n_parents;     /* [n_jobs] parents each job waits for, >= 0 */
    size_t *child_first;    /* [n_jobs + 1]: the children of job i are
                               child[child_first[i] .. child_first[i+1]) */
    int32_t *child;         /* [n_edges] child job indices */
    hsim_time_t *think;     /* [n_edges] the child's wait after this parent
                               ends, >= 0 */
    uint8_t *feedback;      /* [n_jobs] 1: an SWF predecessor sets its
                               submission (its trace submit is ignored);
                               0: max(its submit, parents' ends + think) */
    int32_t *order;         /* [n_jobs] job indices, parents before
                               children (a topological order) */
    int32_t *workflow;      /* [n_jobs] its workflow (0..n_workflows-1),
                               -1 for a job with no edge */
    size_t n_workflows;     /* weakly connected components of >= 2 jobs,
                               numbered in the order of their first job */
    size_t n_edges;
} hsim_deps_t;

/* Where hsim_deps_resolve() finds its edges. */
typedef struct hsim_deps_options {
    int from_swf;           /* use the jobs' after/think fields (SWF 17, 18) */
    const char *path;       /* CSV of edges, NULL or "" for none */
    const char *shown;      /* how messages name path (as the INI gave it);
                               NULL: path */
} hsim_deps_options_t;

/*
 * Resolves the dependencies of w: the jobs' after/think fields when
 * o->from_swf, the edges of the CSV file o->path (header "job,depends_on";
 * "#" comments and blank lines skipped), and those the generator left in
 * w->dep_edges.  A job whose parent was rejected (or whose parent's parent
 * was) is moved from w->jobs to w->rejected with the reason "its parent N
 * was rejected".  An SWF predecessor that is not in the trace at all is
 * ignored (an excerpt cuts chains); in the file, a job number that is in
 * neither w->jobs nor w->rejected is an error "FILE:LINE: ...", and so is
 * a cycle, which the message lists job by job with the lines of its edges,
 * and so is a line of the file of more than 1,022 characters or with a NUL
 * byte.
 * Sets w->deps (NULL when there is no edge).  0, HSIM_EINPUT, HSIM_EIO or
 * HSIM_ENOMEM.  O((jobs + edges) log jobs).
 */
int hsim_deps_resolve(hsim_workload_t *w, const hsim_deps_options_t *o, hsim_err_t *e);

/* Frees d and what it holds (NULL is fine). */
void hsim_deps_free(hsim_deps_t *d);

/* Appends an edge to w->dep_edges.  0 or HSIM_ENOMEM. */
int hsim_deps_add_edge(hsim_workload_t *w, const hsim_dep_edge_t *edge);

/* The shapes of hsim_gen_workflows(). */
typedef enum hsim_workflow_shape {
    HSIM_WORKFLOW_NONE = 0,
    HSIM_WORKFLOW_CHAIN,    /* depth jobs one after another */
    HSIM_WORKFLOW_FORK_JOIN,/* a source, width branches of depth - 2 jobs
                               each, a sink: depth >= 3 */
    HSIM_WORKFLOW_DAG,      /* depth levels of 1..width jobs; each job of a
                               level waits for one random job of the level
                               above and for each other one with
                               probability 1/2 */
} hsim_workflow_shape_t;

/* Parses "none", "chain", "fork-join", "dag".  0 or -1. */
int hsim_workflow_shape_parse(const char *s, hsim_workflow_shape_t *shape);

/*
 * Groups the jobs of a generated workload w (sorted by submission) into
 * workflows of the given shape, one after another in submission order: the
 * jobs of a workflow all take the submit time of its first one, and the
 * edges between them go into w->dep_edges (the last workflow may be cut
 * short: it keeps the edges among the jobs it has).  Random DAGs draw from
 * their own stream of the experiment's seed.  w is sorted again.  0,
 * HSIM_EINPUT (a shape its depth cannot make) or HSIM_ENOMEM.  O(jobs x
 * width) for DAGs, O(jobs) otherwise.
 */
int hsim_gen_workflows(hsim_workload_t *w, hsim_workflow_shape_t shape, int32_t width,
                       int32_t depth, uint64_t seed, hsim_err_t *e);

#endif
