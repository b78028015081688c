/*
 * results.h - an experiment's results read back from its CSV files, for
 * the charts and the report (plot.h): a small RFC 4180 reader (quoted
 * fields, doubled quotes, line breaks inside quotes), columns found by
 * name, and the jobs and the cluster as the charts need them.
 *
 * A file is read whole into memory and split in place: jobs.csv of
 * RICC-2010 (447,794 rows, 29 MB) reads in about a tenth of a second.
 */
#ifndef HSIM_RESULTS_H
#define HSIM_RESULTS_H

#include "common.h"

#define HSIM_CSV_MAX_FIELDS 512

/* The whole of path into *text, NUL-terminated (*len bytes before the
   NUL), from hsim's allocator: the caller frees it.  0, HSIM_EINPUT (it
   cannot be opened or read; e says why) or HSIM_ENOMEM (*text NULL). */
int hsim_read_file(const char *path, char **text, size_t *len, hsim_err_t *e);

typedef struct hsim_csv {
    const char *path;              /* for messages: the caller's string */
    char *text;                    /* the whole file, split in place */
    char *at;                      /* the next record */
    int64_t line;                  /* the line the last record started at */
    int64_t next_line;
    char *f[HSIM_CSV_MAX_FIELDS];  /* the last record's fields */
    size_t n;                      /* how many */
    char *head[HSIM_CSV_MAX_FIELDS]; /* the header's fields */
    size_t n_head;
} hsim_csv_t;

/* Reads path whole and its header line.  0; HSIM_EINPUT when it cannot be
   opened, is empty, or its header has too many fields; HSIM_ENOMEM.
   Close with hsim_csv_close(), even after a failure. */
int hsim_csv_open(hsim_csv_t *c, const char *path, hsim_err_t *e);
/* The next record into c->f: 1, or 0 at the end. */
int hsim_csv_next(hsim_csv_t *c);
/* The index of the header's column name, or -1. */
int hsim_csv_column(const hsim_csv_t *c, const char *name);
/* The field k of the last record, "" when it has fewer. */
const char *hsim_csv_field(const hsim_csv_t *c, int k);
/* The field k as a number: NaN when empty or absent; HSIM_EINPUT (e says
   where) when it is not a number. */
int hsim_csv_number(hsim_csv_t *c, int k, double *v, hsim_err_t *e);
void hsim_csv_close(hsim_csv_t *c);

/* Resource kinds a job holds: on a pool only CORES (its processors). */
enum { HSIM_RES_CORES, HSIM_RES_MEM, HSIM_RES_GPUS, HSIM_RES_FPGAS, HSIM_RES_KINDS };

/* A job as the charts see it. */
typedef struct hsim_rjob {
    double submit, start, end;     /* seconds; start < 0: it never ran */
    double bsld;                   /* >= 1 */
    double res[HSIM_RES_KINDS];    /* what it held: processors or cores,
                                      MB, GPUs (shares in fractions), FPGAs */
    int64_t user;                  /* -1: none given */
    const char *nodes;             /* node ranges, "0-3;7"; "" on a pool */
    int64_t id;                    /* job_id, -1 when the file has none */
    int attempt;                   /* 1: an earlier run of a job that a stop
                                      cut short (attempts.csv), its start,
                                      end and nodes that run's; the job's
                                      last run is its own entry */
} hsim_rjob_t;

typedef struct hsim_rjobs {
    hsim_rjob_t *j;                /* [n]: jobs.csv's rows in its order, then
                                      the attempts */
    size_t n;
    size_t cap;
    char *text;                    /* the file, which nodes point into */
    char *attempts_text;           /* attempts.csv, likewise */
} hsim_rjobs_t;

/* Reads a jobs.csv.  0, HSIM_EINPUT (e names the file and line), or
   HSIM_ENOMEM; free with hsim_rjobs_free() in every case. */
int hsim_rjobs_read(const char *path, hsim_rjobs_t *out, hsim_err_t *e);
void hsim_rjobs_free(hsim_rjobs_t *r);
/* Appends to r (jobs.csv's) the attempts of an attempts.csv, each a copy
   of its job's entry (found by job_id) with that run's start, end and
   nodes, marked attempt.  0, HSIM_EINPUT (e names the file and line: a
   malformed row, a job not in r), or HSIM_ENOMEM. */
int hsim_rjobs_read_attempts(const char *path, hsim_rjobs_t *r, hsim_err_t *e);

/* Calls fn(ctx, lo, hi) for each range lo..hi (inclusive) of a node list
   "0-3;7"; stops at the first malformed one. */
void hsim_ranges_each(const char *s, void (*fn)(void *ctx, int32_t lo, int32_t hi),
                      void *ctx);

#define HSIM_RESULTS_MODELS 32

/* The machine: a pool of processors, or nodes of types. */
typedef struct hsim_rcluster {
    double pool;                   /* a pool's processors; 0 on a cluster */
    size_t n_nodes;
    int32_t *node_type;            /* [n_nodes] */
    size_t n_types;
    double (*type_res)[HSIM_RES_KINDS]; /* [n_types]: per node */
    int32_t *type_model;           /* [n_types]: GPU model index, -1 none */
    char (*type_name)[64];         /* [n_types]: as cluster.csv names them */
    double total[HSIM_RES_KINDS];  /* the whole machine */
    size_t n_models;
    char models[HSIM_RESULTS_MODELS][64];
    double model_total[HSIM_RESULTS_MODELS]; /* GPUs of each model */
} hsim_rcluster_t;

/* A pool of capacity processors. */
void hsim_rcluster_pool(hsim_rcluster_t *m, double capacity);
/* The cluster of cluster.csv, its nodes' types from nodes.csv (any
   policy's: they are the same).  0, HSIM_EINPUT, HSIM_ENOMEM; free with
   hsim_rcluster_free() in every case. */
int hsim_rcluster_read(const char *cluster_csv, const char *nodes_csv, hsim_rcluster_t *m,
                       hsim_err_t *e);
void hsim_rcluster_free(hsim_rcluster_t *m);

#endif
