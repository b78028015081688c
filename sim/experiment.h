/*
 * experiment.h - runs one experiment: loads its workload once, replays it
 * under each policy in file order, and writes the results:
 *   <output>/<name>/<policy>/jobs.csv   one row per job
 *   <output>/<name>/summary.csv         one row per policy
 *   <output>/<name>/rejected.csv        input jobs that could not run, why
 *   <output>/<name>/classes.csv         per policy and job class
 *   <output>/<name>/summary.png         the policies side by side
 * and on a cluster of nodes:
 *   <output>/<name>/cluster.csv         the node types, as resolved
 *   <output>/<name>/<policy>/nodes.csv  one row per node
 */
#ifndef HSIM_EXPERIMENT_H
#define HSIM_EXPERIMENT_H

#include "config.h"
#include "metrics.h"

#define HSIM_MAX_THREADS HSIM_MAX_POLICIES /* more could not be used */

typedef struct hsim_experiment_options {
    int quiet;        /* no table on stdout */
    int threads;      /* policies replayed at once, >= 1 (0 = 1): the files
                         are the same whatever the number */
} hsim_experiment_options_t;

/* 0, HSIM_EINPUT / HSIM_EIO (bad input; e says where), HSIM_ENOMEM, or
   HSIM_ERUN when a run failed (a policy error; e says which). */
int hsim_experiment_run(const hsim_config_t *c, const hsim_experiment_options_t *o,
                        hsim_err_t *e);

/* Puts the experiment's INI file ahead of e's message unless it starts with
   "<ini>:" already: a message about another file (a results folder, Gavel's
   throughputs) then says which of several experiments it belongs to. */
void hsim_experiment_name(hsim_err_t *e, const char *ini);

/* Checks that c's input files (trace, Gavel's throughputs, Alibaba's node
   list) exist and can be opened, without reading them, so that a mistyped
   path is found before any experiment runs.  0 or HSIM_EINPUT, with the
   message that loading would give. */
int hsim_experiment_check_inputs(const hsim_config_t *c, hsim_err_t *e);

/* Loads and cleans c's workload into w, settling the machine size into
   *capacity.  Same return codes. */
int hsim_experiment_load(const hsim_config_t *c, hsim_workload_t *w,
                         int32_t *capacity, hsim_err_t *e);

/* Resolves the dependencies of w (deps.h): SWF fields 17 and 18 unless
   dependencies_from_swf is off, the file of [workload] dependencies, a
   generator's workflows.  Jobs whose parent was rejected are rejected.
   Call it after every other rejection.  0, HSIM_EINPUT, HSIM_EIO or
   HSIM_ENOMEM. */
int hsim_experiment_dependencies(const hsim_config_t *c, hsim_workload_t *w, hsim_err_t *e);

/* One reason for rejections, digits aside ("needs 9 GPUs" and "needs 12
   GPUs" are one reason): how many rejections give it, and the first of
   them (an index into w->rejected), whose text stands for all. */
typedef struct hsim_reason {
    size_t count;
    size_t first;
} hsim_reason_t;
/* The max most common reasons of w's rejections into out, most common
   first (ties: the earlier first); returns how many.  O(r log r) for r
   rejections. */
size_t hsim_experiment_reasons(const hsim_workload_t *w, hsim_reason_t *out, size_t max);

/* The reason most rejections of w give, digits aside ("needs 9 GPUs" and
   "needs 12 GPUs" are one reason): *count of them, and the first one's
   text copied into buf.  0 when w rejected none.  O(r log r) for r
   rejections. */
size_t hsim_experiment_top_reason(const hsim_workload_t *w, char *buf, size_t size);

/* A run that would mean nothing: HSIM_EINPUT when no job is left to run
   (e names the INI, the count and the main reason); else 0, after a
   warning on f (standard error) for each of: more than HSIM_WARN_SHARE of
   the input jobs rejected, or rewritten by cleaning. */
#define HSIM_WARN_SHARE 0.10
int hsim_experiment_check_meaning(const hsim_config_t *c, const hsim_workload_t *w, FILE *f,
                                  hsim_err_t *e);

#endif
