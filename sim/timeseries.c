/*
 * timeseries.c - binned series from the jobs.  See timeseries.h.
 *
 * A GPU job's GPUs are credited to the GPU models of its nodes in
 * proportion to the GPUs each node has: exact for a job on one node or on
 * nodes of one model, which is nearly every job; jobs.csv does not say how
 * a job on mixed nodes split its GPUs.
 */
#include "timeseries.h"

#include "report.h"

#include <math.h>
#include <string.h>

/* Sums of amount x seconds per bin: acc holds the partly covered bins,
   diff the start and end of the whole ones (a difference array). */
typedef struct bins {
    double t0, width;
    size_t n;
    double *acc, *diff;
} bins_t;

/* Adds amount over [a, z) (clipped to the bins). */
static void bins_add(bins_t *b, double a, double z, double amount)
{
    double end = b->t0 + b->width * (double)b->n;
    a = fmax(a, b->t0);
    z = fmin(z, end);
    if (!(z > a) || amount == 0)
        return;
    size_t i = (size_t)((a - b->t0) / b->width), k = (size_t)((z - b->t0) / b->width);
    if (i >= b->n)
        i = b->n - 1;
    if (k >= b->n)
        k = b->n - 1;
    if (i == k) {
        b->acc[i] += amount * (z - a);
        return;
    }
    b->acc[i] += amount * (b->t0 + b->width * (double)(i + 1) - a);
    b->acc[k] += amount * (z - (b->t0 + b->width * (double)k));
    b->diff[i + 1] += amount;
    b->diff[k] -= amount;
}

/* Turns the sums into averages over each bin, divided by cap, into out. */
static void bins_average(const bins_t *b, double cap, double *out)
{
    double run = 0;
    for (size_t i = 0; i < b->n; i++) {
        run += b->diff[i];
        out[i] = (b->acc[i] + run * b->width) / (b->width * cap);
    }
}

/* 1, 2 or 5 x 10^k seconds, the least at or above x (at least 1 s). */
static double nice_width(double x)
{
    if (x <= 1)
        return 1;
    double p = pow(10, floor(log10(x)));
    double m = x / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* The jobs' span: first submission to the last end (or submission). */
static void span(const hsim_rjobs_t *r, double *t0, double *t1)
{
    *t0 = INFINITY;
    *t1 = -INFINITY;
    for (size_t i = 0; i < r->n; i++) {
        const hsim_rjob_t *j = &r->j[i];
        *t0 = fmin(*t0, j->submit);
        *t1 = fmax(*t1, j->start >= 0 ? j->end : j->submit);
    }
    if (!(*t1 > *t0)) {
        *t0 = r->n ? *t0 : 0;
        *t1 = *t0 + 1;
    }
}

/* A utilization column: what it sums and over what. */
typedef struct util_col {
    int res;        /* HSIM_RES_* */
    int32_t model;  /* a GPU model, -1 every GPU */
    double cap;
} util_col_t;

static size_t util_columns(const hsim_rcluster_t *m, hsim_timeseries_t *ts, util_col_t *u)
{
    size_t n = 0;
    if (m->pool > 0) {
        u[n++] = (util_col_t){HSIM_RES_CORES, -1, m->pool};
        snprintf(ts->names[HSIM_TS_UTIL], sizeof ts->names[0], "util_procs");
        return n;
    }
    static const char *const kind[HSIM_RES_KINDS] = {"cores", "memory", "gpus", "fpgas"};
    static const int order[HSIM_RES_KINDS] = {HSIM_RES_CORES, HSIM_RES_MEM, HSIM_RES_GPUS,
                                              HSIM_RES_FPGAS};
    for (int k = 0; k < HSIM_RES_KINDS; k++) {
        int r = order[k];
        if (m->total[r] <= 0)
            continue;
        snprintf(ts->names[HSIM_TS_UTIL + n], sizeof ts->names[0], "util_%s", kind[r]);
        u[n++] = (util_col_t){r, -1, m->total[r]};
        for (size_t g = 0; r == HSIM_RES_GPUS && g < m->n_models; g++) {
            if (m->model_total[g] <= 0)
                continue;
            snprintf(ts->names[HSIM_TS_UTIL + n], sizeof ts->names[0], "util_gpus_%s",
                     m->models[g]);
            u[n++] = (util_col_t){r, (int32_t)g, m->model_total[g]};
        }
    }
    return n;
}

/* GPUs per model on a job's nodes. */
typedef struct model_walk {
    const hsim_rcluster_t *m;
    double gpus[HSIM_RESULTS_MODELS];
    double all;
} model_walk_t;

static void count_models(void *ctx, int32_t lo, int32_t hi)
{
    model_walk_t *w = ctx;
    for (int32_t i = lo; i <= hi && (size_t)i < w->m->n_nodes; i++) {
        int32_t t = w->m->node_type[i], g = w->m->type_model[t];
        double n = w->m->type_res[t][HSIM_RES_GPUS];
        w->all += n;
        if (g >= 0)
            w->gpus[g] += n;
    }
}

int hsim_timeseries_build(const hsim_rjobs_t *r, const hsim_rcluster_t *m, size_t max_bins,
                          hsim_timeseries_t *ts)
{
    memset(ts, 0, sizeof *ts);
    double t1;
    span(r, &ts->t0, &t1);
    ts->width = nice_width((t1 - ts->t0) / (double)max_bins);
    ts->n = (size_t)ceil((t1 - ts->t0) / ts->width);
    if (ts->n == 0)
        ts->n = 1;
    snprintf(ts->names[HSIM_TS_QUEUE], sizeof ts->names[0], "queue");
    snprintf(ts->names[HSIM_TS_RUNNING], sizeof ts->names[0], "running");
    util_col_t u[HSIM_TS_MAX_COLS];
    size_t n_util = util_columns(m, ts, u);
    ts->n_cols = HSIM_TS_UTIL + n_util;
    ts->v = hsim_calloc(ts->n_cols * ts->n, sizeof *ts->v);
    double *sums = hsim_calloc(2 * ts->n_cols * ts->n, sizeof *sums);
    if (!ts->v || !sums) {
        hsim_free(sums);
        return HSIM_ENOMEM;
    }
    bins_t b[HSIM_TS_MAX_COLS];
    for (size_t k = 0; k < ts->n_cols; k++)
        b[k] = (bins_t){ts->t0, ts->width, ts->n, sums + 2 * k * ts->n,
                        sums + (2 * k + 1) * ts->n};
    double end = ts->t0 + ts->width * (double)ts->n;
    int by_model = m->n_models > 0;
    for (size_t i = 0; i < r->n; i++) {
        const hsim_rjob_t *j = &r->j[i];
        int ran = j->start >= 0;
        if (j->attempt) /* its job waited from submit to its last start,
                           but for its earlier runs */
            bins_add(&b[HSIM_TS_QUEUE], j->start, j->end, -1);
        else
            bins_add(&b[HSIM_TS_QUEUE], j->submit, ran ? j->start : end, 1);
        if (!ran)
            continue;
        bins_add(&b[HSIM_TS_RUNNING], j->start, j->end, 1);
        model_walk_t w = {.m = m};
        if (by_model && j->res[HSIM_RES_GPUS] > 0)
            hsim_ranges_each(j->nodes, count_models, &w);
        for (size_t k = 0; k < n_util; k++) {
            double amount = j->res[u[k].res];
            if (u[k].model >= 0)
                amount = w.all > 0 ? amount * w.gpus[u[k].model] / w.all : 0;
            bins_add(&b[HSIM_TS_UTIL + k], j->start, j->end, amount);
        }
    }
    for (size_t k = 0; k < ts->n_cols; k++)
        bins_average(&b[k], k < HSIM_TS_UTIL ? 1 : u[k - HSIM_TS_UTIL].cap,
                     ts->v + k * ts->n);
    hsim_free(sums);
    return 0;
}

void hsim_timeseries_free(hsim_timeseries_t *ts)
{
    hsim_free(ts->v);
    ts->v = NULL;
}

int hsim_timeseries_write(const char *path, const hsim_timeseries_t *ts, hsim_err_t *e)
{
    hsim_report_t rep;
    if (hsim_report_open(&rep, path, "time,width", e))
        return HSIM_EIO;
    for (size_t k = 0; k < ts->n_cols; k++) {
        fputc(',', rep.f);
        hsim_report_csv_field(rep.f, ts->names[k]);
    }
    fputc('\n', rep.f);
    for (size_t b = 0; b < ts->n; b++) {
        fprintf(rep.f, "%.15g,%.15g", ts->t0 + ts->width * (double)b, ts->width);
        for (size_t k = 0; k < ts->n_cols; k++)
            hsim_report_figure(rep.f, k < HSIM_TS_UTIL ? 3 : 6, ts->v[k * ts->n + b]);
        fputc('\n', rep.f);
    }
    return hsim_report_close(&rep, e);
}

/* ---- the nodes' load ---- */

typedef struct heat_walk {
    const hsim_rcluster_t *m;
    const hsim_rjob_t *j;
    bins_t *rows;       /* [rows] */
    size_t group;       /* nodes per row */
    double share;       /* 1 / the job's nodes */
    size_t count;
} heat_walk_t;

static void count_nodes(void *ctx, int32_t lo, int32_t hi)
{
    ((heat_walk_t *)ctx)->count += (size_t)(hi - lo) + 1;
}

static void add_load(void *ctx, int32_t lo, int32_t hi)
{
    heat_walk_t *w = ctx;
    for (int32_t i = lo; i <= hi && (size_t)i < w->m->n_nodes; i++) {
        const double *cap = w->m->type_res[w->m->node_type[i]];
        double load = 0;
        if (cap[HSIM_RES_CORES] > 0)
            load = w->j->res[HSIM_RES_CORES] * w->share / cap[HSIM_RES_CORES];
        if (cap[HSIM_RES_GPUS] > 0)
            load = fmax(load, w->j->res[HSIM_RES_GPUS] * w->share / cap[HSIM_RES_GPUS]);
        bins_add(&w->rows[(size_t)i / w->group], w->j->start, w->j->end,
                 fmin(load, 1) / (double)w->group);
    }
}

int hsim_heatmap_build(const hsim_rjobs_t *r, const hsim_rcluster_t *m, size_t max_rows,
                       size_t cols, double **v, size_t *rows, double *t0, double *width)
{
    double t1;
    span(r, t0, &t1);
    *width = (t1 - *t0) / (double)cols;
    size_t group = (m->n_nodes + max_rows - 1) / max_rows;
    if (group == 0)
        group = 1;
    *rows = (m->n_nodes + group - 1) / group;
    *v = hsim_calloc(*rows * cols, sizeof **v);
    bins_t *b = hsim_calloc(*rows, sizeof *b);
    double *sums = hsim_calloc(2 * *rows * cols, sizeof *sums);
    if (!*v || !b || !sums) {
        hsim_free(b);
        hsim_free(sums);
        return HSIM_ENOMEM;
    }
    for (size_t k = 0; k < *rows; k++)
        b[k] = (bins_t){*t0, *width, cols, sums + 2 * k * cols, sums + (2 * k + 1) * cols};
    heat_walk_t w = {.m = m, .rows = b, .group = group};
    for (size_t i = 0; i < r->n; i++) {
        if (r->j[i].start < 0)
            continue;
        w.j = &r->j[i];
        w.count = 0;
        hsim_ranges_each(w.j->nodes, count_nodes, &w);
        w.share = w.count ? 1.0 / (double)w.count : 0;
        hsim_ranges_each(w.j->nodes, add_load, &w);
    }
    for (size_t k = 0; k < *rows; k++) {
        /* the last row may stand for fewer nodes: its own average */
        size_t in_row = k + 1 < *rows ? group : m->n_nodes - k * group;
        bins_average(&b[k], (double)in_row / (double)group, *v + k * cols);
        for (size_t c = 0; c < cols; c++)
            (*v)[k * cols + c] = fmin(1, (*v)[k * cols + c]);
    }
    hsim_free(b);
    hsim_free(sums);
    return 0;
}
