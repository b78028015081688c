/*
 * workload.h - a loaded, cleaned job stream and the trace header facts.
 *
 * Jobs are kept in submission order (stable by input line), which is the
 * order the engine submits them in; every input job is either in jobs[] or in
 * rejected[], never lost.
 */
#ifndef HSIM_WORKLOAD_H
#define HSIM_WORKLOAD_H

#include "../sim/job.h"

#define HSIM_HEADER_ABSENT INT64_MIN /* a signed header field not given */

typedef struct hsim_swf_header {
    int64_t max_procs;        /* MaxProcs, -1 when absent */
    int64_t max_nodes;        /* MaxNodes, -1 when absent */
    int64_t max_jobs;         /* MaxJobs, -1 when absent */
    int64_t max_records;      /* MaxRecords, -1 when absent */
    int64_t unix_start_time;  /* UnixStartTime, HSIM_HEADER_ABSENT when
                                 absent (a time before 1970 is negative) */
    int64_t time_zone;        /* TimeZone (seconds), HSIM_HEADER_ABSENT when
                                 absent (west of Greenwich it is negative:
                                 NASA-iPSC's is -28800) */
    char time_zone_string[64];/* TimeZoneString, "" when absent */
    char computer[128];       /* Computer, "" when absent */
    char installation[128];   /* Installation, "" when absent */
    char version[32];         /* Version, "" when absent */
    char note[256];           /* Note written by hsim_swf_write (generator
                                 and seed of a synthetic workload), "" when
                                 absent; the reader does not fill it */
    unsigned numeric_seen;    /* the reader's: which numeric keys it read
                                 (a repeat must agree) */
} hsim_swf_header_t;

#define HSIM_MAX_MODELS 32      /* GPU models a workload can name */
#define HSIM_MAX_CLASSES 256    /* job classes a workload can name (a Gavel
                                   trace has up to 133 "type@scale") */
#define HSIM_LABEL_MAX 48

typedef struct hsim_workload {
    hsim_job_t *jobs;             /* sorted by (submit, line) */
    size_t n_jobs;
    size_t cap_jobs;
    hsim_rejection_t *rejected;   /* in input order */
    size_t n_rejected;
    size_t cap_rejected;
    size_t n_input;               /* job lines read = n_jobs + n_rejected */
    hsim_swf_header_t header;
    char models[HSIM_MAX_MODELS][HSIM_LABEL_MAX]; /* GPU model names, for
                                     hsim_job_t.gpu_models bits */
    size_t n_models;
    char classes[HSIM_MAX_CLASSES][HSIM_LABEL_MAX]; /* job class names, for
                                     hsim_job_t.job_class */
    size_t n_classes;
    size_t n_rewritten;           /* jobs that cleaning changed beyond
                                     cutting them at their requested time
                                     (a 1 s job for a record without a
                                     runtime, say) */
    struct hsim_rewrite {
        const char *why;          /* a static text */
        size_t count;
    } rewrites[4];                /* the reasons, in the order first seen */
    size_t n_rewrites;
    char *names;                  /* the trace's job ids, NUL-terminated one
                                     after another (hsim_job_t.name) */
    size_t names_len, cap_names;
    struct hsim_dep_edge *dep_edges; /* a generator's edges, by job number,
                                     until hsim_deps_resolve() (deps.h) */
    size_t n_dep_edges, cap_dep_edges;
    struct hsim_deps *deps;       /* the resolved dependencies; NULL when no
                                     job waits for another */
} hsim_workload_t;

/* Cleaning rules applied to raw SWF jobs (DESIGN.md, docs/workloads.md). */
typedef enum hsim_clean_preset {
    HSIM_CLEAN_PYSS,      /* what the golden schedules were made with */
    HSIM_CLEAN_STANDARD,  /* processors from field 8, kill at requested time */
} hsim_clean_preset_t;

/* Empties w (all fields zeroed, header counts -1, the signed header fields
   HSIM_HEADER_ABSENT). */
void hsim_workload_init(hsim_workload_t *w);
/* Frees what w holds; w can be initialised again. */
void hsim_workload_free(hsim_workload_t *w);
/* Appends a copy of job / a rejection.  0 or HSIM_ENOMEM. */
int hsim_workload_add(hsim_workload_t *w, const hsim_job_t *job);
int hsim_workload_reject(hsim_workload_t *w, int64_t id, int64_t line,
                         const char *reason);
/* Index of a GPU model / job class name, added when new.  -1 when the
   table is full or name is longer than HSIM_LABEL_MAX - 1. */
int hsim_workload_model(hsim_workload_t *w, const char *name);
int hsim_workload_class(hsim_workload_t *w, const char *name);
/* Counts one job that cleaning rewrote, for the reason why (a static
   text: the same pointer for the same reason). */
void hsim_workload_rewritten(hsim_workload_t *w, const char *why);
/* Keeps name, a job id of the trace's own (any text; "" is none), and sets
   *ref to what hsim_job_t.name holds for it.  0 or HSIM_ENOMEM. */
int hsim_workload_name(hsim_workload_t *w, const char *name, uint32_t *ref);
/* The trace's id of a job or a rejection (its name field), "" for none. */
const char *hsim_workload_job_name(const hsim_workload_t *w, uint32_t name);
/* Whether some job or rejection of w has a name of the trace's. */
static inline int hsim_workload_has_names(const hsim_workload_t *w) { return w->names_len > 0; }
/* A job number and the input line that gives it. */
typedef struct hsim_id_line {
    int64_t id, line;
} hsim_id_line_t;
/* The repeated job number of v[0..n) (in file order, as read) whose
   repeat comes on the earliest line: returns 1 with *id, *line (the
   repeat's) and *first (the line the number was first given on), else 0.
   v is sorted in place when the numbers do not rise.  O(n) when they
   rise, as in nearly every trace; else O(n log n). */
int hsim_id_repeat(hsim_id_line_t *v, size_t n, int64_t *id, int64_t *line, int64_t *first);

/* Stable sort of jobs by (submit, line).  O(n log n). */
void hsim_workload_sort(hsim_workload_t *w);

/*
 * Writes w's jobs to path as CSV, one row per job in w's order after the
 * header row job_id,submit,runtime,estimate,procs,gpus,gpu_milli,mem_mb,
 * fpgas,class,user,gpu_models,group,app,queue,partition,nodes,
 * cores_per_node,after,think,killed,trace_id (times in seconds, class by
 * name, "" when none; the accepted GPU models as "a|b", "" for any; killed
 * 1 for a job that cleaning cut at its requested time): all that a job
 * holds, so that hsim_csv_jobs_read() gives the same workload back.  w is
 * only read.  Returns 0 or HSIM_EIO (e says which path and why).  O(n).
 * Implemented in swf_write.c, beside the SWF writer.
 */
int hsim_csv_write_jobs(const char *path, const hsim_workload_t *w, hsim_err_t *e);

/*
 * Reads such a CSV (format = csv; gzip or plain; columns by name, in any
 * order) into w, which the caller has initialised: job_id, submit, runtime
 * and procs are required, every other column of the writer's header is
 * optional (absent: none, unknown, or for estimate the runtime).  Other
 * tools can write it.  A malformed row is an error "path:LINE: field N
 * (name): expected ..., found '...'", or with skip_bad_rows a rejection; a
 * job number given twice is an error at the second.  Nothing is cleaned:
 * the jobs are run as written.  0, HSIM_EINPUT, HSIM_EIO or HSIM_ENOMEM.
 * Implemented in csv_jobs.c.  O(n log n).
 */
struct hsim_gpu_read_options;
int hsim_csv_jobs_read(const char *path, const struct hsim_gpu_read_options *o,
                       hsim_workload_t *w, hsim_err_t *e);

#endif
