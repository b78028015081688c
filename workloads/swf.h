/*
 * swf.h - Standard Workload Format reader (plain text or gzip) and cleaning.
 *
 * Reading and cleaning are two steps: hsim_swf_read() gives the raw records
 * and the header, hsim_swf_clean() turns them into jobs under a preset,
 * knowing the machine size that the experiment settled on (which may come
 * from the header itself).
 */
#ifndef HSIM_SWF_H
#define HSIM_SWF_H

#include "workload.h"

#define HSIM_SWF_FIELDS 18

/* One job line as it stands in the file; -1 (or -1 s) where the log says so. */
typedef struct hsim_swf_record {
    int64_t line;            /* line number in the file, >= 1 */
    int64_t id;              /* field 1 */
    hsim_time_t submit;      /* field 2 */
    hsim_time_t wait;        /* field 3 */
    hsim_time_t run;         /* field 4 */
    int32_t alloc_procs;     /* field 5 */
    int32_t req_procs;       /* field 8 */
    hsim_time_t req_time;    /* field 9 */
    int32_t status;          /* field 11 */
    int32_t user;            /* field 12 */
    int32_t group;           /* field 13 */
    int32_t app;             /* field 14 */
    int32_t queue;           /* field 15 */
    int32_t partition;       /* field 16 */
    int64_t preceding;       /* field 17 */
    hsim_time_t think;       /* field 18 */
} hsim_swf_record_t;

typedef struct hsim_swf_trace {
    hsim_swf_record_t *records;  /* in file order */
    size_t n_records;
    size_t cap_records;
    hsim_swf_header_t header;
    size_t n_extended;           /* job lines read with fields past the 18th */
} hsim_swf_trace_t;

/*
 * Fields past the 18th ([workload] swf_extra).  Alea, the simulator of the
 * MetaCentrum data sets (wagap-2013 and others), extends SWF with three
 * fields: the nodes a job used, its queue's name and the node properties it
 * asked for, as in "... -1 -1 zewura7 q_2h linux:nfs4".  hsim's jobs keep
 * queue numbers (field 15) only, so those fields are checked and skipped.
 */
typedef enum hsim_swf_extra {
    HSIM_SWF_EXTRA_DETECT, /* lines of 21 fields in Alea's layout (field 20,
                              the queue, a name with a letter; 19 and 21
                              any text without blanks) are read; other
                              extra fields are an error */
    HSIM_SWF_EXTRA_IGNORE, /* any fields past the 18th are skipped */
    HSIM_SWF_EXTRA_ERROR,  /* 18 fields exactly: any more is an error */
} hsim_swf_extra_t;

/* Parses "detect", "ignore" or "error"; 0 or -1. */
int hsim_swf_extra_parse(const char *name, hsim_swf_extra_t *out);

/*
 * Reads an SWF file (gzip or plain, told apart by content) into t, which the
 * caller owns and frees with hsim_swf_trace_free().  Reads at most max_jobs
 * job lines (0 = all).  Returns 0, HSIM_EIO (cannot open/read), HSIM_EINPUT
 * (a malformed line, or a job number that repeats: e says "path:line: ...")
 * or HSIM_ENOMEM.  O(size), and O(n log n) in the jobs when their numbers
 * do not rise.
 */
int hsim_swf_read(const char *path, size_t max_jobs, hsim_swf_trace_t *t,
                  hsim_err_t *e);
/* Same, from a string in memory (for tests); name is used in messages. */
int hsim_swf_parse_string(const char *text, const char *name, size_t max_jobs,
                          hsim_swf_trace_t *t, hsim_err_t *e);
/* The two above read fields past the 18th as HSIM_SWF_EXTRA_DETECT does;
   these, as extra says. */
int hsim_swf_read_extra(const char *path, size_t max_jobs, hsim_swf_extra_t extra,
                        hsim_swf_trace_t *t, hsim_err_t *e);
int hsim_swf_parse_string_extra(const char *text, const char *name, size_t max_jobs,
                                hsim_swf_extra_t extra, hsim_swf_trace_t *t, hsim_err_t *e);
void hsim_swf_trace_free(hsim_swf_trace_t *t);

/*
 * Cleans t's records into w (initialised by the caller) under preset, for a
 * machine of machine_procs processors: every record becomes a job in w->jobs
 * or a rejection in w->rejected.  Sorts the jobs by (submit, line).
 * Returns 0 or HSIM_ENOMEM.  The rules are in docs/workloads.md.
 */
int hsim_swf_clean(const hsim_swf_trace_t *t, hsim_clean_preset_t preset,
                   int32_t machine_procs, hsim_workload_t *w);

/*
 * Writes w's jobs to path as an 18-field SWF file (gzip when path ends in
 * ".gz"), with a header: Version, Computer, MaxJobs and MaxRecords (the jobs
 * written), MaxProcs and MaxNodes when w's header knows them, and a Note line
 * (w->header.note, e.g. the generator and seed).  Fields: 1 id, 2 submit,
 * 3 wait -1, 4 runtime, 5 and 8 procs, 9 estimate, 10 memory in KB per
 * processor (-1 when mem_mb is 0), 11 status (1, or 0 for a job cut at its
 * estimate), 12-18 from the job.  hsim_swf_read() followed by hsim_swf_clean()
 * with the standard preset gives back the same id, submit, runtime,
 * estimate, procs, user, group, app, queue, partition, after and think
 * (not killed_at_estimate: such a job reads back as one that ended exactly
 * at its estimate; nor the multi-resource fields: see hsim_csv_write_jobs).
 * Rejected jobs are not written.  w is only read.  Returns 0 or HSIM_EIO.
 * O(n).
 */
int hsim_swf_write(const char *path, const hsim_workload_t *w, hsim_err_t *e);

/* Parses a preset name ("pyss", "standard"); 0 or -1. */
int hsim_clean_preset_parse(const char *name, hsim_clean_preset_t *out);

#endif
