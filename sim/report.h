/*
 * report.h - the CSV files of an experiment and the table on stdout.
 * Numbers are printed with fixed formats so that output is byte-identical
 * from run to run.
 */
#ifndef HSIM_REPORT_H
#define HSIM_REPORT_H

#include "metrics.h"

/* mkdir -p.  0 or HSIM_EIO (e says which folder). */
int hsim_mkdirs(const char *path, hsim_err_t *e);

/*
 * One writer per results folder.  Two hsim processes writing one
 * <output>/<name> (two INI files that name it, one INI run twice at once)
 * would mix their files; so an experiment holds an advisory lock, flock()
 * on dir/HSIM_LOCK_NAME (common.h), from before its first file to after its
 * last.  The holder writes its process id into that file, for the message
 * of the run that finds it taken, and removes the file when it lets go.
 */

/* Takes the lock of the folder dir (which exists) into *fd without
   waiting, and removes the .part files that runs which ended without
   cleaning up left in dir and in its sub-folders subdirs[0..n) (names
   relative to dir).  0; HSIM_ERUN when another process holds it (e names
   dir and, when known, the process); HSIM_EIO when the lock file cannot be
   made.  On a file system without locks (ENOLCK), 0 with *fd = -1: no
   lock.  Let go with hsim_results_unlock(). */
int hsim_results_lock(const char *dir, const char *const *subdirs, size_t n, int *fd,
                      hsim_err_t *e);
/* Removes the lock file of dir and lets go of fd (< 0: nothing to do). */
void hsim_results_unlock(const char *dir, int fd);

/* A results file being written: as <path>.<pid>.part, renamed to path when it is
   closed whole (see hsim_part_path() and hsim_publish()). */
typedef struct hsim_report {
    FILE *f;                        /* written to; NULL when not open */
    const char *path;               /* its name: the caller's string, kept
                                       until the close */
    char part[HSIM_PART_PATH_MAX];  /* the file f writes: <path>.<pid>.part, or ""
                                       when path itself (a link, a pipe) */
} hsim_report_t;

/* Opens r for path and writes header (may be NULL) to it.  0, or HSIM_EIO
   with e saying why (and naming path); r->f is NULL then. */
int hsim_report_open(hsim_report_t *r, const char *path, const char *header, hsim_err_t *e);
/* Closes r (not open: nothing to do) and renames its file to r->path.  0,
   or HSIM_EIO when a write to it failed (the .part is removed). */
int hsim_report_close(hsim_report_t *r, hsim_err_t *e);
/* Closes r (not open: nothing to do) and removes its .part: a file of a
   failed run, which must not replace a whole one of an earlier run. */
void hsim_report_discard(hsim_report_t *r);
/* <policy>/attempts.csv, with failures or preemption: job_id,start,end
   (seconds) of each attempt a stop cut short, in the order of the stops;
   on a cluster (ranges, the run's hsim_run_stats_t's, not NULL) a fourth
   column, nodes: where it ran, as jobs.csv's.  A job's last run is its
   row of jobs.csv.  0 or HSIM_EIO. */
int hsim_report_attempts(const char *path, const hsim_workload_t *w,
                         const hsim_attempt_t *a, size_t n, const char *ranges, hsim_err_t *e);
/* Copies the file src to dst as a results file (.part, then renamed).
   0, HSIM_EINPUT when src cannot be opened or read ("SRC: cannot open:
   why"), HSIM_EIO when dst cannot be written. */
int hsim_report_copy(const char *src, const char *dst, hsim_err_t *e);
/* jobs.csv: job_id,submit,start,end,procs,wait,run,estimate,bsld,user,state;
   on a cluster of nodes (held and ranges, the run's hsim_run_stats_t's,
   not NULL) also cores,mem_mb,gpus,fpgas,nodes: what each job held, GPUs with
   up to three decimals for shares, and its node indices as ranges
   ("0-3;7"; empty when it never ran). */
int hsim_report_jobs(const char *path, const hsim_workload_t *w,
                     const hsim_outcome_t *out, const hsim_held_t *held,
                     const char *ranges, hsim_err_t *e);
/* The same with failures (starts and lost not NULL: hsim_run_stats_t's):
   two more columns at the end, starts,lost_s: how many times each job
   started, and the time its stopped attempts lost. */
int hsim_report_jobs_failures(const char *path, const hsim_workload_t *w,
                              const hsim_outcome_t *out, const hsim_held_t *held,
                              const char *ranges, const int32_t *starts,
                              const hsim_time_t *lost, hsim_err_t *e);
/* The same with preemption (ran not NULL: hsim_run_stats_t's): one more
   column after them, ran_s: the time each job ran, all its attempts
   (suspensions excluded). */
int hsim_report_jobs_stops(const char *path, const hsim_workload_t *w,
                           const hsim_outcome_t *out, const hsim_held_t *held,
                           const char *ranges, const int32_t *starts,
                           const hsim_time_t *lost, const hsim_time_t *ran, hsim_err_t *e);
/* rejected.csv: job_id,line,reason */
int hsim_report_rejected(const char *path, const hsim_workload_t *w, hsim_err_t *e);
/* Writes s as one CSV field: quoted, its quotes doubled, when it holds a
   comma, a quote or a line break (RFC 4180). */
void hsim_report_csv_field(FILE *f, const char *s);
/* summary.csv: the header, then one row per call of hsim_report_summary_row;
   neither ends the line, so that a caller can append columns.  A figure
   that is NaN (none is defined: no job ran) is an empty cell, and '-' in
   the table.  A failed write shows in f's error flag, which
   hsim_report_close() reports. */
void hsim_report_summary_header(FILE *f);
/* Appends one figure to a CSV row: ",<v>" with that many decimals, or ","
   (an empty cell) when v is NaN. */
void hsim_report_figure(FILE *f, int decimals, double v);
void hsim_report_summary_row(FILE *f, const char *policy, const hsim_summary_t *s,
                             size_t rejected);
/* The comparison table on stdout.  The policy column is name_w wide (at
   least 18; the longest name of the experiment, so that the columns line
   up).  util is that of the processors (on a cluster, of the cores); with
   gpus set, a gpu_util column follows it, the utilization of every GPU
   (gpu_util: 0..1, NaN for none), as a GPU cluster's cores may be nearly
   idle while its GPUs are not. */
void hsim_report_table_header(FILE *f, int name_w, int gpus);
void hsim_report_table_row(FILE *f, int name_w, const char *policy, const hsim_summary_t *s,
                           int gpus, double gpu_util);
/* Flushes the table's stream, after each row, so that a long run shows its
   progress.  stdio keeps no reason for a failed write (it drops what it
   could not write), so the first failure's errno is kept here for
   hsim_report_table_error().  0, or -1 when the stream has failed. */
int hsim_report_table_flush(FILE *f);
/* The errno of the first failed hsim_report_table_flush(), or 0: none
   failed, or the first failed without one.  Only the main thread prints
   the table. */
int hsim_report_table_error(void);

#endif
