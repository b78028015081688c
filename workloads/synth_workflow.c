/*
 * synth_workflow.c - workflows made of a generator's jobs: chains,
 * fork-joins and random DAGs.
 *
 * The generators (Lublin, dl, mix) give each job its size and run time;
 * this groups their jobs, in submission order, into workflows of a given
 * shape and adds the edges.  A workflow is submitted at once (all its jobs
 * at its first job's submit time), and the engine holds each job until its
 * parents end.  Random DAGs draw from a stream of their own
 * (HSIM_STREAM_WORKFLOWS), so the jobs' sizes and times are those the
 * generator gives without workflows.
 */
#include "deps.h"

#include "synthetic.h"

#include <gsl/gsl_rng.h>
#include <string.h>

int hsim_workflow_shape_parse(const char *s, hsim_workflow_shape_t *shape)
{
    static const char *const names[] = {"none", "chain", "fork-join", "dag"};
    for (int k = 0; k < 4; k++)
        if (!strcmp(s, names[k])) {
            *shape = (hsim_workflow_shape_t)k;
            return 0;
        }
    return -1;
}

/* The edge jobs[first + c] <- jobs[first + p], when both exist (n jobs
   left from first). */
static int link(hsim_workload_t *w, size_t first, size_t n, size_t c, size_t p)
{
    if (c >= n || p >= n)
        return 0;
    hsim_dep_edge_t x = {.job = w->jobs[first + c].id, .parent = w->jobs[first + p].id};
    return hsim_deps_add_edge(w, &x);
}

/* One workflow from jobs[first..first + n): its edges; returns in *used
   how many jobs it took (all its jobs, or the n left). */
static int one_workflow(hsim_workload_t *w, hsim_workflow_shape_t shape, int32_t width,
                        int32_t depth, gsl_rng *rng, size_t first, size_t n, size_t *used)
{
    int rc = 0;
    size_t size;
    if (shape == HSIM_WORKFLOW_CHAIN) {
        size = (size_t)depth;
        for (size_t k = 1; k < size && rc == 0; k++)
            rc = link(w, first, n, k, k - 1);
    } else if (shape == HSIM_WORKFLOW_FORK_JOIN) {
        /* job 0 the source, then branch b's level l is 1 + l * width + b,
           the sink last */
        size_t levels = (size_t)depth - 2, wd = (size_t)width;
        size = 2 + levels * wd;
        for (size_t b = 0; b < wd && rc == 0; b++) {
            rc = link(w, first, n, 1 + b, 0);
            for (size_t l = 1; l < levels && rc == 0; l++)
                rc = link(w, first, n, 1 + l * wd + b, 1 + (l - 1) * wd + b);
            if (rc == 0)
                rc = link(w, first, n, size - 1, 1 + (levels - 1) * wd + b);
        }
    } else { /* DAG: levels of 1..width jobs */
        size_t above = 0, above_n = 0, at = 0;
        for (int32_t l = 0; l < depth && rc == 0; l++) {
            size_t m = 1 + gsl_rng_uniform_int(rng, (unsigned long)width);
            for (size_t k = 0; k < m && rc == 0; k++) {
                if (l > 0) {
                    size_t must = gsl_rng_uniform_int(rng, (unsigned long)above_n);
                    for (size_t p = 0; p < above_n && rc == 0; p++)
                        if (p == must || gsl_rng_uniform(rng) < 0.5)
                            rc = link(w, first, n, at + k, above + p);
                }
            }
            above = at;
            above_n = m;
            at += m;
        }
        size = at;
    }
    *used = size < n ? size : n;
    for (size_t k = 1; k < *used; k++)
        w->jobs[first + k].submit = w->jobs[first].submit;
    return rc;
}

int hsim_gen_workflows(hsim_workload_t *w, hsim_workflow_shape_t shape, int32_t width,
                       int32_t depth, uint64_t seed, hsim_err_t *e)
{
    if (shape == HSIM_WORKFLOW_NONE)
        return 0;
    if (width < 1 || depth < 1 || (shape == HSIM_WORKFLOW_FORK_JOIN && depth < 3))
        return hsim_errf(e, HSIM_EINPUT,
                         "workflow: a %s needs width >= 1 and depth >= %d, found width %d, "
                         "depth %d", shape == HSIM_WORKFLOW_FORK_JOIN ? "fork-join" : "workflow",
                         shape == HSIM_WORKFLOW_FORK_JOIN ? 3 : 1, width, depth);
    gsl_rng *rng = NULL;
    if (shape == HSIM_WORKFLOW_DAG && hsim_synth_stream(&rng, seed, HSIM_STREAM_WORKFLOWS))
        return HSIM_ENOMEM;
    int rc = 0;
    for (size_t first = 0; first < w->n_jobs && rc == 0;) {
        size_t used = 0;
        rc = one_workflow(w, shape, width, depth, rng, first, w->n_jobs - first, &used);
        first += used;
    }
    if (rng)
        gsl_rng_free(rng);
    hsim_workload_sort(w);
    return rc;
}
