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
    hsim_time_t think;     /* think time after 'after' ends (field 18), >= 0 */
    uint8_t killed_at_estimate; /* 1: the trace job ran past its requested
                                   time; cleaning cut it there (it is reported
                                   as killed) */
} hsim_job_t;

/* Why an input job does not run: written to rejected.csv. */
typedef struct hsim_rejection {
    int64_t id;            /* job number from the trace, or -1 */
    int64_t line;          /* input line */
    char reason[96];       /* short, human-readable */
} hsim_rejection_t;

#endif
