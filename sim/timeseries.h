/*
 * timeseries.h - utilization per resource kind, queue length and running
 * jobs over time, and the nodes' load over time, derived from the jobs'
 * submit, start and end times and what each held (results.h), so that the
 * engine is untouched and hsim plot can rebuild them from jobs.csv.
 *
 * Time is cut into fixed bins, at most HSIM_PLOT_MAX_BINS (plot.h), each
 * 1, 2 or 5 x 10^k seconds wide, from the first submission to the last
 * end; a bin's value is the average over the bin.  Each job adds in O(1)
 * per column (a difference array for the bins it covers whole), so a
 * series costs O(jobs + bins) whatever the jobs' lengths.
 */
#ifndef HSIM_TIMESERIES_H
#define HSIM_TIMESERIES_H

#include "results.h"

#define HSIM_TS_MAX_COLS (4 + HSIM_RES_KINDS + HSIM_RESULTS_MODELS)

typedef struct hsim_timeseries {
    double t0;                     /* the first bin's start, seconds */
    double width;                  /* each bin's width, seconds, > 0 */
    size_t n;                      /* bins */
    size_t n_cols;                 /* queue, running, then the util_* */
    char names[HSIM_TS_MAX_COLS][80]; /* the CSV's column names */
    double *v;                     /* [n_cols * n]: column k's bin b at
                                      v[k * n + b]; utilization 0..1 */
} hsim_timeseries_t;

/* Column indices of the two counts; utilizations follow them. */
enum { HSIM_TS_QUEUE, HSIM_TS_RUNNING, HSIM_TS_UTIL };

/* The series of jobs r on machine m, in at most max_bins bins.  0 or
   HSIM_ENOMEM; free with hsim_timeseries_free() in every case. */
int hsim_timeseries_build(const hsim_rjobs_t *r, const hsim_rcluster_t *m, size_t max_bins,
                          hsim_timeseries_t *ts);
void hsim_timeseries_free(hsim_timeseries_t *ts);
/* timeseries.csv: time,width then every column, one row per bin.  0 or
   HSIM_EIO. */
int hsim_timeseries_write(const char *path, const hsim_timeseries_t *ts, hsim_err_t *e);

/* The nodes' load: rows x cols cells into *v (hsim's allocator; the
   caller frees it), rows = the nodes, or groups of neighbouring nodes when
   there are more than max_rows; cols time bins over [t0, t0 + cols x
   width).  A cell is the average share of its nodes' cores or GPUs
   (whichever the jobs held more of) in use over the bin, 0..1; a job on
   several nodes counts as spread evenly over them.  0 or HSIM_ENOMEM. */
int hsim_heatmap_build(const hsim_rjobs_t *r, const hsim_rcluster_t *m, size_t max_rows,
                       size_t cols, double **v, size_t *rows, double *t0, double *width);

#endif
