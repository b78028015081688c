/*
 * gpu_traces.h - readers for deep-learning GPU cluster traces:
 *
 *   - Gavel's Philly-derived job lists (*.trace.gz, tab-separated) and
 *     Gavel's throughput table (throughputs.csv), which together give each
 *     job a runtime on a V100 and a speed on K80, P100 and V100 GPUs;
 *   - Microsoft ITP traces as published by ElasticFlow (cluster0N.csv.gz);
 *   - the Alibaba GPU cluster trace 2023: pods (openb_pod_list_*.csv.gz)
 *     and nodes (openb_node_list_*.csv).
 *
 * Every reader fills an hsim_workload_t that the caller has initialised:
 * each data row of the file ends either in w->jobs or in w->rejected, never
 * lost; w->n_input counts the rows read; the jobs end sorted by (submit,
 * line).  A malformed row (wrong field count, a number that is not one, a
 * negative count, an unknown job type) is an error whose message reads
 * "path:LINE: field N (name): expected ..., found '...'", or, with
 * skip_bad_rows, a rejection with that reason (the text after "path:LINE: ").
 * Rows that are well formed but describe no runnable job (an Alibaba pod
 * never scheduled) are always rejections.
 *
 * Rules that the traces do not settle, chosen here:
 *   - job ids: the traces' ids are strings (UUIDs, pod names) or absent, so
 *     a job's id is its data row number in the file, 1 for the first row
 *     after the header; the line number is kept in hsim_job_t.line too, and
 *     the trace's own id, where it has one, as the job's name (jobs.csv's
 *     trace_id);
 *   - no trace carries a requested time, so estimate = runtime;
 *   - Gavel: procs = gpus = scale factor (one core per GPU); runtime = total
 *     steps / V100 throughput; scale factors without a measured throughput
 *     borrow the per-GPU throughput of the largest measured scale factor
 *     below them (hsim_throughputs_lookup());
 *   - Alibaba: runtime = deletion_time - scheduled_time; procs =
 *     max(1, ceil(cpu_milli / 1000)).
 * Files are read through zlib (gzip or plain alike) and split into fields by
 * libcsv, whose buffers go through hsim's allocator.  Reading costs one pass
 * over the bytes, libcsv's per-byte loop first (docs/performance.md has the
 * time for the largest of these files).
 */
#ifndef HSIM_GPU_TRACES_H
#define HSIM_GPU_TRACES_H

#include "workload.h"

/* Options shared by the job readers; a NULL pointer means all zero. */
typedef struct hsim_gpu_read_options {
    size_t max_jobs;     /* data rows to read (jobs + rejections), 0 = all */
    int skip_bad_rows;   /* 0: a malformed row is an error (HSIM_EINPUT);
                            1: it is rejected with the reason, reading goes on */
} hsim_gpu_read_options_t;

/* ---- Gavel / Philly ---- */

/* GPU types of Gavel's throughput table, in column order; the reader
   interns their names ("k80", "p100", "v100") as workload models in this
   order. */
enum hsim_gavel_model {
    HSIM_GAVEL_K80 = 0,
    HSIM_GAVEL_P100 = 1,
    HSIM_GAVEL_V100 = 2,    /* the reference GPU: runtimes are V100 times */
    HSIM_GAVEL_MODELS = 3,
};

/* One row of throughputs.csv. */
typedef struct hsim_throughput {
    char job_type[HSIM_LABEL_MAX]; /* as in the traces' field 1, non-empty */
    int32_t scale;                 /* scale factor = GPUs of the job, >= 1 */
    double steps_per_s[HSIM_GAVEL_MODELS]; /* whole job's training steps per
                                      second on each GPU type; >= 0, 0 = the
                                      job does not run there (K80 memory);
                                      the V100 entry is > 0 */
    int64_t line;                  /* line in the file, >= 2 */
} hsim_throughput_t;

/* Gavel's measured throughputs, owned by the caller. */
typedef struct hsim_throughputs {
    hsim_throughput_t *rows;       /* sorted by (job_type, scale), unique */
    size_t n;                      /* rows in use */
    size_t cap;                    /* rows allocated */
} hsim_throughputs_t;

/*
 * Reads Gavel's throughputs.csv (header job_type,scale_factor,
 * k80_steps_per_s,p100_steps_per_s,v100_steps_per_s, columns found by name)
 * into t, which the caller owns and frees with hsim_throughputs_free(), also
 * after an error.  A duplicate (job type, scale factor), a negative or
 * non-numeric throughput or a V100 throughput of 0 is an error naming the
 * line.  Returns 0, HSIM_EIO, HSIM_EINPUT or HSIM_ENOMEM.  O(n log n).
 */
int hsim_throughputs_read(const char *path, hsim_throughputs_t *t, hsim_err_t *e);
/* Frees what t holds and empties it. */
void hsim_throughputs_free(hsim_throughputs_t *t);

/*
 * Throughputs (steps/s of the whole job) of job_type at scale factor scale
 * (>= 1) on each GPU type, into steps_per_s.  Extrapolation rule: when the
 * table has no row for that scale factor, the row of the largest measured
 * scale factor m below it is scaled linearly, steps_per_s * scale / m (a
 * 16-GPU job runs twice the 8-GPU throughput; a 7-GPU job 7/4 of the 4-GPU
 * one); when none is below it, the smallest measured one is scaled the same
 * way.  *measured (may be NULL) gets the scale factor read from the table.
 * Returns 0, or HSIM_EINPUT when the job type is not in the table or scale
 * < 1.  O(log n).
 */
int hsim_throughputs_lookup(const hsim_throughputs_t *t, const char *job_type,
                            int32_t scale, double steps_per_s[HSIM_GAVEL_MODELS],
                            int32_t *measured);

/*
 * Speed of a job of job_type at scale factor scale on GPU model (an
 * hsim_gavel_model) relative to the V100: throughput(model) /
 * throughput(V100), by the rule of hsim_throughputs_lookup().  A job's
 * duration on that model is its runtime / speed; speed 0 means it cannot run
 * there.  Returns 0 or HSIM_EINPUT (unknown job type, scale < 1).  O(log n).
 */
int hsim_gavel_speed(const hsim_throughputs_t *t, const char *job_type,
                     int32_t scale, int model, double *speed);
/* Same, for a workload class name "<job type>@<scale factor>" as
   hsim_gavel_read() makes them; HSIM_EINPUT also for a name of another
   form. */
int hsim_gavel_class_speed(const hsim_throughputs_t *t, const char *class_name,
                           int model, double *speed);
/* "k80", "p100", "v100" for an hsim_gavel_model. */
const char *hsim_gavel_model_name(int model);

/*
 * Reads a Gavel trace (tab-separated, no header, 7 fields: job type, command,
 * step-argument name, needs-data flag 0/1, total steps >= 1, arrival time in
 * seconds >= 0 (fractions kept to the microsecond, finer ones rounded), scale
 * factor >= 1) into w (initialised by the caller, who frees it; emptied on
 * error).  Each row becomes a job: gpus = procs = scale factor (one core per
 * GPU), nodes 0, gpu_milli 1000, submit = arrival, runtime = estimate = total
 * steps / V100 throughput (at least 1 us), job_class = the class
 * "<job type>@<scale factor>", gpu_models = the models among k80, p100, v100
 * with a positive throughput.  t must stay valid only during the call.
 * Returns 0, HSIM_EIO, HSIM_EINPUT or HSIM_ENOMEM.  O(rows x classes).
 */
int hsim_gavel_read(const char *path, const hsim_throughputs_t *t,
                    const hsim_gpu_read_options_t *o, hsim_workload_t *w,
                    hsim_err_t *e);

/* ---- Microsoft / ElasticFlow ---- */

/*
 * Reads an ElasticFlow trace (header job_id,submission_time,duration,num_gpu;
 * columns found by name) into w as hsim_gavel_read() does.  job_id is a UUID
 * string that hsim_job_t cannot hold: the id is the data row number.
 * submit = submission_time (s >= 0), runtime = estimate = duration (s > 0),
 * gpus = procs = num_gpu (>= 1), gpu_milli 1000, any GPU model.
 * Returns 0, HSIM_EIO, HSIM_EINPUT or HSIM_ENOMEM.  O(rows).
 */
int hsim_elasticflow_read(const char *path, const hsim_gpu_read_options_t *o,
                          hsim_workload_t *w, hsim_err_t *e);

/* ---- Alibaba 2023 ---- */

/*
 * Reads an Alibaba pod list (header name,cpu_milli,memory_mib,num_gpu,
 * gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,
 * scheduled_time; columns found by name, gpu_spec optional, name, qos and
 * pod_phase unused) into w as hsim_gavel_read() does.  A file without the
 * three time columns (openb_pod_list_multigpu50.csv.gz: the Kubernetes
 * simulator replays it as arrivals only) is an error.  Per pod:
 * submit = creation_time; runtime = estimate = deletion_time -
 * scheduled_time (the time it held its resources; a pod still running at
 * the end of the trace is cut there); procs = max(1, ceil(cpu_milli/1000));
 * mem_mb = memory_mib; gpus = num_gpu; gpu_milli = the share of each GPU
 * (1..1000, 0 without GPUs); gpu_models = the bits of the models listed in
 * gpu_spec ("A|B", interned as workload models in order of appearance;
 * empty or "nan" = any).  A pod with no scheduled_time or deletion_time (it
 * never ran) or with a runtime <= 0 is rejected with the reason.
 * Returns 0, HSIM_EIO, HSIM_EINPUT or HSIM_ENOMEM.  O(rows x models).
 */
int hsim_alibaba_pods_read(const char *path, const hsim_gpu_read_options_t *o,
                           hsim_workload_t *w, hsim_err_t *e);

/* One node of the Alibaba cluster. */
typedef struct hsim_alibaba_node {
    char name[32];        /* "openb-node-0227" (column sn), non-empty */
    int32_t cpu_milli;    /* CPU in thousandths of a core, >= 0 */
    int64_t memory_mib;   /* main memory in MiB, >= 0 */
    int32_t gpus;         /* GPUs, >= 0 */
    char model[16];       /* GPU model ("T4", "V100M32", ...); "" for none
                             (empty or "nan" in the file) */
    int64_t line;         /* its row's line in the file, for messages */
} hsim_alibaba_node_t;

/*
 * Reads an Alibaba node list (header sn,cpu_milli,memory_mib,gpu,model;
 * columns found by name) into a new array *nodes of *n nodes in file order,
 * which the caller frees with hsim_free() (NULL and 0 on error).  Any bad row
 * is an error "path:LINE: field N (name): expected ..., found '...'", and
 * so is a list of no nodes ("path:1: no nodes: ...").
 * Returns 0, HSIM_EIO, HSIM_EINPUT or HSIM_ENOMEM.  O(rows).
 */
int hsim_alibaba_nodes_read(const char *path, hsim_alibaba_node_t **nodes,
                            size_t *n, hsim_err_t *e);

#endif
