/*
 * job.h - one job of a workload, as read and cleaned from a trace.
 *
 * A job is immutable once the workload is loaded: the engine keeps its own
 * per-run state (start, end, fate) beside it, so one workload can feed many
 * policy runs, in parallel or one after another.
 */
#ifndef HSIM_JOB_H
#define HSIM_JOB_H

#include "common.h"

typedef struct hsim_job {
    int64_t id;            /* job number from the trace (SWF field 1) */
    int64_t line;          /* line of the input file it came from, >= 1 */
    hsim_time_t submit;    /* submission time, >= 0 */
    hsim_time_t runtime;   /* actual run time on a reference node, > 0; only
                              the engine and the oracle predictor read it */
    hsim_time_t estimate;  /* user's requested time after cleaning, > 0 */
    int32_t procs;         /* processors (cores) requested in total, >= 1 */
    int32_t user;          /* user id, -1 when unknown */
    int32_t group;         /* group id, -1 when unknown */
    int32_t app;           /* application (executable) number, -1 unknown */
    int32_t queue;         /* queue number, -1 unknown */
    int32_t partition;     /* partition number, -1 unknown */
    int64_t after;         /* job number this one waits for (SWF field 17),
                              -1 when none */
    hsim_time_t think;     /* think time after 'after' ends (field 18), >= 0;
                              -1 when unknown */
    uint8_t killed_at_estimate; /* 1: the trace job ran past its requested
                                   time; cleaning cut it there (it is reported
                                   as killed) */
    /* Multi-resource request, for heterogeneous clusters ([nodes X]
       sections).  Zero where the trace says nothing: a plain SWF job asks
       for procs cores anywhere. */
    int32_t nodes;         /* whole nodes asked for, 0 = any placement */
    int32_t cores_per_node;/* cores on each of those nodes, 0 = procs/nodes */
    int64_t mem_mb;        /* memory in MiB in total, 0 = not asked */
    int32_t gpus;          /* GPUs in total, 0 = none */
    int32_t gpu_milli;     /* share of each GPU in thousandths (fractional
                              GPU pods), 1000 = whole GPUs; 0 when gpus = 0 */
    uint32_t gpu_models;   /* acceptable GPU models: bit i = the workload's
                              model i; 0 = any model */
    int32_t fpgas;         /* FPGAs in total, 0 = none */
    int16_t job_class;     /* index into the workload's classes, -1 = none;
                              the class gives speedups per node type */
    uint32_t name;         /* the trace's own id of the job (a pod's name, a
                              UUID) as 1 + its offset in the workload's
                              names; 0 when the trace gives none (see
                              hsim_workload_job_name()) */
} hsim_job_t;

/* Sets the fields of a fresh job to "unknown / none". */
void hsim_job_init(hsim_job_t *j);

/* How long job j runs on the reference machine: its runtime, never past
   its requested time (it is killed there). */
static inline hsim_time_t hsim_job_reference_run(const hsim_job_t *j)
{
    return j->runtime < j->estimate ? j->runtime : j->estimate;
}

/* Why an input job does not run: written to rejected.csv. */
typedef struct hsim_rejection {
    int64_t id;            /* job number from the trace, or -1 */
    int64_t line;          /* input line */
    char reason[256];      /* human-readable, with what was found */
    uint32_t name;         /* as hsim_job_t's */
} hsim_rejection_t;

#endif
