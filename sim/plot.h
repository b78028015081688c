/*
 * plot.h - the charts and the report of an experiment, drawn from its CSV
 * files alone, so that a run and `hsim plot results/<name>` draw the
 * same bytes:
 *   <dir>/utilization.*, queue.*, cdf.*, bars.*, fairness.*  the policies
 *   <dir>/<policy>/gantt.*, heatmap.* (a cluster)            one policy
 *   <dir>/<policy>/timeseries.csv     what the time charts plot
 *   <dir>/report.html                 one page: tables, charts, the INI
 * and, written by the run for hsim plot and the report:
 *   <dir>/run.csv                     version, trace checksum, capacity
 *   <dir>/experiment.ini              the INI as it was run
 * docs/outputs.md says what each holds.
 */
#ifndef HSIM_PLOT_H
#define HSIM_PLOT_H

#include "config.h"

/* The charts, as bits of [output] charts (hsim_config_t's charts). */
enum {
    HSIM_CHART_UTILIZATION = 1u << 0,
    HSIM_CHART_QUEUE = 1u << 1,
    HSIM_CHART_CDF = 1u << 2,
    HSIM_CHART_BARS = 1u << 3,
    HSIM_CHART_GANTT = 1u << 4,
    HSIM_CHART_HEATMAP = 1u << 5,
    HSIM_CHART_FAIRNESS = 1u << 6,
    HSIM_CHART_ALL = (1u << 7) - 1,
};
/* The file types, as bits of [output] formats. */
enum { HSIM_FORMAT_PNG = 1u << 0, HSIM_FORMAT_SVG = 1u << 1, HSIM_FORMAT_PDF = 1u << 2 };

/* Reads a comma-separated list of chart names (or "all", or "none") into
   *mask, or of formats when formats is set.  0; else -1 with why (size
   bytes) saying what was expected and what was found. */
int hsim_plot_parse_list(const char *v, int formats, unsigned *mask, char *why, size_t size);
/* The list of mask's names, as hsim_plot_parse_list() reads them. */
void hsim_plot_list_text(unsigned mask, int formats, char *buf, size_t size);

/* Bins of the time series: at most this many per policy. */
#define HSIM_PLOT_MAX_BINS 2000

typedef struct hsim_plot_options {
    unsigned charts;  /* HSIM_CHART_* */
    unsigned formats; /* HSIM_FORMAT_*, at least one */
} hsim_plot_options_t;

/* After a run of c that wrote its CSV files into dir (its results folder,
   whose lock the caller holds): writes run.csv and experiment.ini, then
   everything hsim_plot_dir() draws, with c's [output] charts and formats.
   capacity: the processors of a pool (ignored on a cluster).  0, HSIM_EIO,
   HSIM_EINPUT or HSIM_ENOMEM. */
int hsim_plot_experiment(const hsim_config_t *c, const char *dir, int32_t capacity,
                         hsim_err_t *e);

/* Draws the charts o asks for, the time series and report.html from the
   CSV files in dir (summary.csv, run.csv, each policy's jobs.csv, and on a
   cluster cluster.csv and nodes.csv).  0; HSIM_EINPUT when a file is
   missing or not what a run writes (e names it and its line); HSIM_EIO,
   HSIM_ENOMEM. */
int hsim_plot_dir(const char *dir, const hsim_plot_options_t *o, hsim_err_t *e);

/* Draws what hsim_plot_dir() draws in dir, with the charts and formats
   that dir's run.csv recorded; with from (not NULL), its run.csv and
   experiment.ini are copied into dir first: hsim merge's joined folders
   and a repeat's folder of means (from: the first seed's).  Same returns
   as hsim_plot_dir(). */
int hsim_plot_from(const char *dir, const char *from, hsim_err_t *e);

/* hsim plot [--charts LIST] [--formats LIST] DIR...: the command. */
int hsim_plot_main(int argc, char **argv);

#endif
