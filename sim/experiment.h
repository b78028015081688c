/*
 * experiment.h - runs one experiment: loads its workload once, replays it
 * under each policy in file order, and writes the results (runs.h runs
 * many, their repeats and shards, on threads):
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

/* Runs c (each of its repeats), on o->threads threads.  0, HSIM_EINPUT /
   HSIM_EIO (bad input; e says where), HSIM_ENOMEM, or HSIM_ERUN when a run
   failed (a policy error; e says which).  (runs.c) */
int hsim_experiment_run(const hsim_config_t *c, const hsim_experiment_options_t *o,
                        hsim_err_t *e);

#define HSIM_CLASSES_HEADER "policy,class,jobs,avg_jct,avg_wait\n"

/* The figures of summary.png, one row of a [HSIM_FIGS][HSIM_MAX_POLICIES]
   array each. */
enum {
    HSIM_FIG_WAIT_H,        /* average wait, hours */
    HSIM_FIG_BSLD,          /* average bounded slowdown */
    HSIM_FIG_UTIL_PCT,      /* utilization (of the cores), % */
    HSIM_FIG_IMBALANCE,     /* load imbalance (a cluster) */
    HSIM_FIG_GPU_UTIL_PCT,  /* the GPUs' utilization, % (a cluster with GPUs) */
    HSIM_FIGS
};

/* Writes dir/summary.png: n policies (labels[0..n)) side by side, with
   fig[HSIM_FIG_*][k] for policy k (NaN: n/a); a cluster adds the load
   imbalance, gpus the GPUs' utilization.  0 or HSIM_EIO. */
int hsim_experiment_chart(const char *dir, const char *title, const char *const *labels,
                          size_t n, double (*fig)[HSIM_MAX_POLICIES], int cluster, int gpus,
                          hsim_err_t *e);

/*
 * A unit: one experiment under one seed, its workload loaded, its results
 * folder locked and its files open.  hsim_unit_open() loads it;
 * hsim_unit_replay() replays policy k (replays of one unit may run on
 * threads side by side: each writes only its own state);
 * hsim_unit_write() writes policy k's files and rows, in file order, on
 * one thread; hsim_unit_close() writes the chart and closes the files.
 * A policy that is never replayed (another shard's) is left out of every
 * file.
 */
typedef struct hsim_unit hsim_unit_t;

typedef struct hsim_unit_options {
    const char *dir;        /* the results folder: <output>/<name>, or
                               .../seed-S for a repeat */
    const char *title;      /* the chart's title, the table's first word
                               (NULL: c->name) */
} hsim_unit_options_t;

/* The progress hook of a replay (engine.h's progress fields). */
typedef struct hsim_unit_progress {
    void (*cb)(void *arg, size_t jobs_ended);
    void *arg;
    uint64_t every;         /* events between calls (0 = 1) */
} hsim_unit_progress_t;

/* What policy k added to the experiment's files when it was written,
   for the means of repeats and the manifests of shards. */
typedef struct hsim_unit_record {
    char *summary;          /* its summary.csv row, newline included */
    char *classes;          /* its classes.csv rows ("" none) */
    char *workflows;        /* its workflows.csv rows ("" none) */
    double fig[HSIM_FIGS];  /* its bars of summary.png */
    hsim_summary_t s;       /* its figures, for the table */
    double gpu_util;        /* every GPU's utilization, NaN none */
} hsim_unit_record_t;

/* Loads the unit of c (whose seed is the unit's), to write into o->dir:
   *u, which c must outlive, or NULL on error.  Warnings about the
   workload go to stderr.  0 or the codes of hsim_experiment_run(). */
int hsim_unit_open(hsim_unit_t **u, const hsim_config_t *c, const hsim_unit_options_t *o,
                   hsim_err_t *e);
/* Makes the results folder, takes its lock, writes rejected.csv (and
   cluster.csv) and opens the files the policies add rows to; before the
   first hsim_unit_write() (replays may run before it).  0, HSIM_ERUN (the
   folder is locked by another run), HSIM_EIO or HSIM_ENOMEM. */
int hsim_unit_begin(hsim_unit_t *u, hsim_err_t *e);
/* Replays policy k; hook may be NULL.  Thread-safe for distinct k. */
void hsim_unit_replay(hsim_unit_t *u, size_t k, const hsim_unit_progress_t *hook);
/* Writes policy k, replayed: its folder, its rows; frees its replay.
   0, HSIM_ERUN (its replay failed), HSIM_EIO or HSIM_ENOMEM. */
int hsim_unit_write(hsim_unit_t *u, size_t k, hsim_err_t *e);
/* Policy k's record, once written; owned by u. */
const hsim_unit_record_t *hsim_unit_record(const hsim_unit_t *u, size_t k);
/* summary.csv's header line (owned by u, once begun); whether the
   machine is a cluster of nodes, with GPUs; the jobs the workload holds. */
const char *hsim_unit_header(const hsim_unit_t *u);
int hsim_unit_cluster(const hsim_unit_t *u);
int hsim_unit_gpus(const hsim_unit_t *u);
int hsim_unit_workflows(const hsim_unit_t *u); /* once begun: writes workflows.csv */
size_t hsim_unit_jobs(const hsim_unit_t *u);
/* The table: the experiment's line (ending "-> dir/" and note), the
   columns' header when asked, then policy k's row. */
void hsim_unit_print_header(const hsim_unit_t *u, FILE *f, const char *dir, const char *note,
                            int columns);
void hsim_unit_print_row(const hsim_unit_t *u, size_t k, FILE *f);
/* Closes u and frees it: with ok, writes summary.png and publishes the
   files (0 or HSIM_EIO); without, discards the experiment's files (a
   failed run must not replace an earlier run's whole ones). */
int hsim_unit_close(hsim_unit_t *u, int ok, hsim_err_t *e);

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
