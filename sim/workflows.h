/*
 * workflows.h - per workflow figures of a run: makespan and its
 * critical-path lower bound (workflows.csv).
 *
 * A workflow is a connected set of jobs linked by dependencies (deps.h).
 * Its makespan is the last end of its jobs minus the first submission; its
 * critical path is the longest chain of run times (on the reference
 * machine, at speed 1) and think times, from its jobs' own submissions:
 * no schedule on speed-1 resources can end it sooner.
 */
#ifndef HSIM_WORKFLOWS_H
#define HSIM_WORKFLOWS_H

#include "engine.h"

#define HSIM_WORKFLOWS_HEADER                                                  \
    "policy,workflow,first_job,jobs,submit,end,makespan,critical_path,stretch\n"

/* One workflow's figures, seconds. */
typedef struct hsim_workflow_stats {
    int64_t first_job;      /* job number of its first job (w's order) */
    size_t jobs;            /* its jobs */
    hsim_time_t submit;     /* its first submission */
    hsim_time_t end;        /* its last end */
    hsim_time_t critical;   /* critical-path lower bound of its makespan */
} hsim_workflow_stats_t;

/* The figures of w's workflows (w->deps->n_workflows of them, into out[])
   for the outcomes out of one run.  0 or HSIM_ENOMEM.  O(jobs + edges). */
int hsim_workflows_compute(const hsim_workload_t *w, const hsim_outcome_t *out,
                           hsim_workflow_stats_t *stats);

/* Appends one row per workflow of w for policy to f (after the header
   HSIM_WORKFLOWS_HEADER): stretch is makespan / critical_path.  0 or
   HSIM_ENOMEM; a failed write shows in f's error flag. */
int hsim_workflows_write(FILE *f, const char *policy, const hsim_workload_t *w,
                         const hsim_outcome_t *out);

#endif
