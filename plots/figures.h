/*
 * figures.h - the chart types of an experiment's report, drawn from plain
 * arrays (sim/plot.c fills them from the results' CSV files): lines over
 * a shared x axis (time series, CDFs, ranked users), grouped bars with
 * error bars, a Gantt chart and a heatmap.
 *
 * Every function writes one file, .png, .svg or .pdf by its extension,
 * whole or not at all, and returns 0, HSIM_EINPUT (another extension, or
 * nothing to draw), HSIM_EIO or HSIM_ENOMEM, e saying which.  Legends sit
 * below the plots, never over data; series i is drawn in palette colour i
 * (canvas.h), so a policy keeps its colour from chart to chart.
 */
#ifndef HSIM_FIGURES_H
#define HSIM_FIGURES_H

#include "canvas.h"

/* One series of a lines panel: n points, x increasing. */
typedef struct hsim_line {
    const double *x, *y;
    size_t n;                   /* 0: the series has no point here */
} hsim_line_t;

/* A panel of lines, one per series (lines[i] in colour i). */
typedef struct hsim_lines_panel {
    const char *title;
    hsim_axis_t xa, ya;         /* ranges: hsim_axis_nice() is applied */
    const hsim_line_t *lines;   /* [n_series] */
    int steps;                  /* 1: a step from each point to the next
                                   (bins, CDFs); 0: straight segments */
} hsim_lines_panel_t;

/* n_panels panels in cols columns, one legend of series names below them
   all, title on top. */
int hsim_figure_lines(const char *path, const char *title, const char *const *series,
                      size_t n_series, const hsim_lines_panel_t *panels, size_t n_panels,
                      size_t cols, hsim_err_t *e);

/* A panel of grouped bars: value v[g * n_series + s] for group g and
   series s (NaN: none, drawn as "n/a"), and, when err is not NULL, the
   half-width of a confidence interval drawn as an error bar (NaN: none). */
typedef struct hsim_bars_panel {
    const char *title;
    const char *ylabel;
    const double *v;
    const double *err;
    int ylog;                   /* 1: a log y axis (values <= 0 not drawn) */
} hsim_bars_panel_t;

/* Panels side by side (or in rows of at most 3); groups along x, labelled
   by groups[] (turned 45 degrees when they would touch).  One series:
   each group in its own colour, no legend; more: a legend of series. */
int hsim_figure_bars(const char *path, const char *title, const char *const *groups,
                     size_t n_groups, const char *const *series, size_t n_series,
                     const hsim_bars_panel_t *panels, size_t n_panels, hsim_err_t *e);

/* A job's box in a Gantt chart: rows row0..row1 (inclusive, 0 at the top),
   from t0 to t1 seconds, in palette colour colour (HSIM_LEGEND_GREY: the
   neutral grey). */
typedef struct hsim_box {
    double t0, t1;
    int32_t row0, row1;
    size_t colour;
} hsim_box_t;

/* n_rows rows (named row_name: "node", "processor") over the window
   [t0, t1] seconds; keys[k] names colour keys_colour[k] in the legend. */
int hsim_figure_gantt(const char *path, const char *title, const char *row_name,
                      int32_t n_rows, double t0, double t1, const hsim_box_t *boxes,
                      size_t n_boxes, const char *const *keys, const size_t *keys_colour,
                      size_t n_keys, hsim_err_t *e);

/* A heatmap of rows x cols cells, v[r * cols + c] in 0..1 (NaN: none,
   white), row r standing for row_units of row_name (nodes: 1, or a group
   of neighbours) from r x row_units up, so that the y axis counts nodes;
   columns the time from t0 to t1 seconds; a colour bar on the right
   (viridis, readable in grey and by colour-blind readers). */
int hsim_figure_heatmap(const char *path, const char *title, const char *row_name,
                        double row_units, const double *v, size_t rows, size_t cols,
                        double t0, double t1, const char *value_name, hsim_err_t *e);

/* The unit for a time axis of span seconds: its size in seconds and its
   name (s, min, h, days), so that ticks read as few digits. */
double hsim_time_unit(double span, const char **name);

#endif
