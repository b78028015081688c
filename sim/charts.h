/*
 * charts.h - an experiment's charts (plot.h lists them), from what
 * plot.c reads of its results: per policy, the time series, the wait and
 * bounded slowdown distributions and each user's average bsld; the
 * summary's averages with their confidence intervals when it has them.
 */
#ifndef HSIM_CHARTS_H
#define HSIM_CHARTS_H

#include "timeseries.h"

#define HSIM_CDF_POINTS 400

/* One policy, as the charts that compare policies need it. */
typedef struct hsim_pdata {
    const char *name;             /* the summary's, kept by the caller */
    hsim_timeseries_t ts;
    size_t n_cdf;                 /* points of each CDF, <= HSIM_CDF_POINTS */
    double wait[HSIM_CDF_POINTS]; /* sorted samples of the waits (s) */
    double bsld[HSIM_CDF_POINTS]; /* and of the bounded slowdowns */
    double frac[HSIM_CDF_POINTS]; /* the share of jobs at or below each */
    int64_t *users;               /* [n_users] ascending ids */
    double *user_bsld;            /* [n_users] their average bsld */
    size_t n_users;
    double jain;                  /* Jain's index over user_bsld; NaN none */
} hsim_pdata_t;

/* A chart written, for the report: its path without the extension,
   relative to the results folder, and a caption. */
typedef struct hsim_chart_file {
    char rel[320];
    char caption[160];
} hsim_chart_file_t;

/* What the charts of one experiment share. */
typedef struct hsim_charts {
    const char *dir;              /* the results folder */
    const char *title;            /* the experiment's name */
    unsigned charts, formats;     /* plot.h's bits */
    const hsim_rcluster_t *m;
    hsim_chart_file_t *files;     /* written so far, in report order */
    size_t n_files, cap_files;
} hsim_charts_t;

/* Fills p's distributions and users from jobs r (p->ts is the caller's).
   0 or HSIM_ENOMEM. */
int hsim_pdata_fill(hsim_pdata_t *p, const hsim_rjobs_t *r);
void hsim_pdata_free(hsim_pdata_t *p);

/* The Gantt chart and (on a cluster) the heatmap of one policy's jobs r,
   into <dir>/<policy>/.  0, HSIM_EIO, HSIM_ENOMEM. */
int hsim_charts_policy(hsim_charts_t *ch, const char *policy, const hsim_rjobs_t *r,
                       hsim_err_t *e);
/* The charts that compare the n policies p: utilization, queue, cdf,
   fairness (not with summary_only set: p holds only names); and the bars
   of avg (the summary's avg_wait, avg_turnaround, avg_bsld per policy, ci
   their 95% half-widths or NULL). */
int hsim_charts_compare(hsim_charts_t *ch, const hsim_pdata_t *p, size_t n, int summary_only,
                        const double *const avg[3], const double *const ci[3], hsim_err_t *e);
void hsim_charts_free(hsim_charts_t *ch);

#endif
