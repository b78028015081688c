/*
 * charts.c - the experiment's charts.  See charts.h.
 *
 * The Gantt chart shows a window of HSIM_GANTT_JOBS starts: from the
 * first job's start to the start of the HSIM_GANTT_JOBS-th, with every job
 * that runs in it.  On a cluster its rows are the nodes jobs.csv names; a
 * pool's jobs.csv names no processors, so they are given here, in start
 * order, the lowest-numbered free block that holds the job (or the lowest
 * free ones when no block does): a drawing, not what the engine did, which
 * only counts processors.  Boxes take the colour of their user, the
 * HSIM_PALETTE_SIZE - 1 users with the most jobs in the window each their
 * own, the rest grey.
 */
#include "charts.h"

#include "metrics.h"
#include "plot.h"
#include "../plots/figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HSIM_GANTT_JOBS 300
enum { HEAT_ROWS = 200, HEAT_COLS = 300, FAIR_BARS_MAX = 16 };

typedef int (*draw_fn)(const char *path, const void *ctx, hsim_err_t *e);

static const char *const exts[] = {".png", ".svg", ".pdf"};

/* Draws rel (a path under ch->dir, no extension) in every format asked
   for, and records it for the report. */
static int draw_all(hsim_charts_t *ch, const char *rel, const char *caption, draw_fn fn,
                    const void *ctx, hsim_err_t *e)
{
    for (int k = 0; k < 3; k++) {
        if (!(ch->formats & (1u << k)))
            continue;
        char path[HSIM_PART_PATH_MAX];
        snprintf(path, sizeof path, "%s/%s%s", ch->dir, rel, exts[k]);
        int rc = fn(path, ctx, e);
        if (rc)
            return rc;
    }
    if (hsim_grow(&ch->files, &ch->cap_files, ch->n_files + 1, sizeof *ch->files))
        return HSIM_ENOMEM;
    hsim_chart_file_t *f = &ch->files[ch->n_files++];
    hsim_strlcpy(f->rel, rel, sizeof f->rel);
    hsim_strlcpy(f->caption, caption, sizeof f->caption);
    return 0;
}

void hsim_charts_free(hsim_charts_t *ch)
{
    hsim_free(ch->files);
    ch->files = NULL;
    ch->n_files = ch->cap_files = 0;
}

/* ---- one policy's data ---- */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* n points of the sorted v[0..len) into out, frac their CDF. */
static void cdf_points(const double *v, size_t len, double *out, double *frac, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        size_t i = n == 1 ? len - 1 : k * (len - 1) / (n - 1);
        out[k] = v[i];
        frac[k] = (double)(i + 1) / (double)len;
    }
}

/* Each user's average bsld, users in id order, and Jain's index. */
static int users_fill(hsim_pdata_t *p, uint64_t *key, double *val, size_t n)
{
    uint64_t *tk = hsim_malloc((n + 1) * sizeof *tk);
    double *tv = hsim_malloc((n + 1) * sizeof *tv);
    int rc = tk && tv ? hsim_radix_sort(key, val, n, tk, tv) : HSIM_ENOMEM;
    size_t users = 0;
    for (size_t i = 0; rc == 0 && i < n; users++)
        for (uint64_t u = key[i]; i < n && key[i] == u;)
            i++;
    p->users = rc ? NULL : hsim_malloc((users + 1) * sizeof *p->users);
    p->user_bsld = rc ? NULL : hsim_malloc((users + 1) * sizeof *p->user_bsld);
    if (rc == 0 && (!p->users || !p->user_bsld))
        rc = HSIM_ENOMEM;
    double sum = 0, sum2 = 0;
    for (size_t i = 0; rc == 0 && i < n;) {
        size_t k = i;
        double s = 0;
        while (k < n && key[k] == key[i])
            s += val[k++];
        double avg = s / (double)(k - i);
        p->users[p->n_users] = (int64_t)(key[i] ^ ((uint64_t)1 << 63));
        p->user_bsld[p->n_users++] = avg;
        sum += avg;
        sum2 += avg * avg;
        i = k;
    }
    p->jain = p->n_users && sum2 > 0 ? sum * sum / ((double)p->n_users * sum2) : NAN;
    hsim_free(tk);
    hsim_free(tv);
    return rc;
}

int hsim_pdata_fill(hsim_pdata_t *p, const hsim_rjobs_t *r)
{
    p->jain = NAN;
    double *wait = hsim_malloc((r->n + 1) * sizeof *wait);
    double *bsld = hsim_malloc((r->n + 1) * sizeof *bsld);
    uint64_t *key = hsim_malloc((r->n + 1) * sizeof *key);
    int rc = wait && bsld && key ? 0 : HSIM_ENOMEM;
    size_t n = 0;
    for (size_t i = 0; rc == 0 && i < r->n; i++) {
        const hsim_rjob_t *j = &r->j[i];
        if (j->attempt || j->start < 0) /* a job counts once, by its last run */
            continue;
        wait[n] = j->start - j->submit;
        bsld[n] = j->bsld;
        key[n++] = (uint64_t)j->user ^ ((uint64_t)1 << 63); /* in id order */
    }
    if (rc == 0 && n) {
        rc = users_fill(p, key, bsld, n); /* reorders bsld */
        qsort(wait, n, sizeof *wait, by_value);
        qsort(bsld, n, sizeof *bsld, by_value);
        p->n_cdf = n < HSIM_CDF_POINTS ? n : HSIM_CDF_POINTS;
        double frac2[HSIM_CDF_POINTS];
        cdf_points(wait, n, p->wait, p->frac, p->n_cdf);
        cdf_points(bsld, n, p->bsld, frac2, p->n_cdf);
    }
    hsim_free(wait);
    hsim_free(bsld);
    hsim_free(key);
    return rc;
}

void hsim_pdata_free(hsim_pdata_t *p)
{
    hsim_timeseries_free(&p->ts);
    hsim_free(p->users);
    hsim_free(p->user_bsld);
    p->users = NULL;
    p->user_bsld = NULL;
}

/* ---- Gantt ---- */

typedef struct gantt {
    hsim_box_t *boxes;
    size_t n, cap;
    double t0, t1;
    int32_t rows;
    const char *row_name;
    char title[300];
    char key_text[HSIM_PALETTE_SIZE][48];
    const char *keys[HSIM_PALETTE_SIZE];
    size_t key_colour[HSIM_PALETTE_SIZE];
    size_t n_keys;
    int64_t top[HSIM_PALETTE_SIZE - 1]; /* the users with colours: top[k] has k */
    size_t n_top;
    int by_size;                  /* one user or none: colours by job size */
    int gpus;                     /* sizes in GPUs (a GPU cluster), else cores */
} gantt_t;

static int draw_gantt(const char *path, const void *ctx, hsim_err_t *e)
{
    const gantt_t *g = ctx;
    return hsim_figure_gantt(path, g->title, g->row_name, g->rows, g->t0, g->t1, g->boxes, g->n,
                             g->keys, g->key_colour, g->n_keys, e);
}

static int add_box(gantt_t *g, const hsim_rjob_t *j, int32_t lo, int32_t hi, size_t colour)
{
    if (hsim_grow(&g->boxes, &g->cap, g->n + 1, sizeof *g->boxes))
        return HSIM_ENOMEM;
    g->boxes[g->n++] = (hsim_box_t){j->start, j->end, lo, hi, colour};
    return 0;
}

typedef struct node_boxes {
    gantt_t *g;
    const hsim_rjob_t *j;
    size_t colour;
    int rc;
} node_boxes_t;

static void node_box(void *ctx, int32_t lo, int32_t hi)
{
    node_boxes_t *b = ctx;
    if (!b->rc && lo < b->g->rows)
        b->rc = add_box(b->g, b->j, lo, hi < b->g->rows ? hi : b->g->rows - 1, b->colour);
}

/* A pool job's processors: a block of free ones (busy_until <= start) or
   the lowest free, one box per run of neighbours. */
static int pool_boxes(gantt_t *g, double *busy, const hsim_rjob_t *j, size_t colour)
{
    double procs = fmin(j->res[HSIM_RES_CORES], g->rows); /* more: all there are */
    int32_t need = (int32_t)procs, run = 0, at = -1;
    for (int32_t p = 0; p < g->rows && at < 0; p++) {
        run = busy[p] <= j->start ? run + 1 : 0;
        if (run == need)
            at = p - need + 1;
    }
    int32_t got = 0, from = -1;
    for (int32_t p = at >= 0 ? at : 0; p < g->rows && got < need; p++) {
        int free = busy[p] <= j->start;
        if (free) {
            busy[p] = j->end;
            got++;
            if (from < 0)
                from = p;
        }
        int last = got == need || p + 1 == g->rows;
        if (from >= 0 && (!free || last)) {
            if (add_box(g, j, from, free ? p : p - 1, colour))
                return HSIM_ENOMEM;
            from = -1;
        }
    }
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const hsim_rjob_t *x = *(const hsim_rjob_t *const *)a, *y = *(const hsim_rjob_t *const *)b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x > y) - (x < y); /* file order */
}

/* The users with the most jobs among w[0..n) get the palette's colours
   (ties: the lower id), into g's legend; colour_of() finds them. */
static void gantt_keys(gantt_t *g, const hsim_rjob_t *const *w, size_t n)
{
    while (g->n_top < HSIM_PALETTE_SIZE - 1) {
        int64_t best = 0;
        size_t best_n = 0;
        for (size_t i = 0; i < n; i++) { /* O(n^2) over at most a few thousand */
            int64_t u = w[i]->user;
            int taken = 0;
            for (size_t k = 0; k < g->n_top; k++)
                taken |= g->top[k] == u;
            if (taken || (best_n && u == best))
                continue;
            size_t c = 0;
            for (size_t k = 0; k < n; k++)
                c += w[k]->user == u;
            if (c > best_n || (c == best_n && u < best)) {
                best = u;
                best_n = c;
            }
        }
        if (!best_n)
            break;
        g->top[g->n_top++] = best;
    }
    for (size_t k = 0; k < g->n_top; k++) {
        if (g->top[k] < 0)
            snprintf(g->key_text[k], sizeof g->key_text[0], "no user");
        else
            snprintf(g->key_text[k], sizeof g->key_text[0], "user %lld", (long long)g->top[k]);
        g->keys[k] = g->key_text[k];
        g->key_colour[k] = k;
    }
    g->n_keys = g->n_top;
    size_t coloured = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < g->n_top; k++)
            coloured += g->top[k] == w[i]->user;
    if (coloured < n) {
        snprintf(g->key_text[g->n_top], sizeof g->key_text[0], "other users");
        g->keys[g->n_top] = g->key_text[g->n_top];
        g->key_colour[g->n_top] = HSIM_LEGEND_GREY;
        g->n_keys++;
    }
}

/* A job's size class: 1, 2, 3-4, 5-8, 9-16, 17-64, more. */
enum { SIZE_CLASSES = 7 };
static size_t size_class(double x)
{
    static const double upto[SIZE_CLASSES - 1] = {1, 2, 4, 8, 16, 64};
    size_t k = 0;
    while (k < SIZE_CLASSES - 1 && x > upto[k])
        k++;
    return k;
}

/* When the window has one user or none, colours tell the jobs' sizes
   instead: the classes that occur, in the legend. */
static void size_keys(gantt_t *g, const hsim_rjob_t *const *w, size_t n)
{
    static const char *const name[SIZE_CLASSES] = {"1", "2", "3-4", "5-8", "9-16", "17-64",
                                                   "65+"};
    int seen[SIZE_CLASSES] = {0};
    for (size_t i = 0; i < n; i++)
        seen[size_class(w[i]->res[g->gpus ? HSIM_RES_GPUS : HSIM_RES_CORES])] = 1;
    g->by_size = 1;
    g->n_keys = 0;
    for (size_t k = 0; k < SIZE_CLASSES; k++) {
        if (!seen[k])
            continue;
        snprintf(g->key_text[g->n_keys], sizeof g->key_text[0], "%s %s", name[k],
                 g->gpus ? (k ? "GPUs" : "GPU") : k ? "cores" : "core");
        g->keys[g->n_keys] = g->key_text[g->n_keys];
        g->key_colour[g->n_keys++] = k;
    }
}

static size_t colour_of(const gantt_t *g, const hsim_rjob_t *j)
{
    if (g->by_size)
        return size_class(j->res[g->gpus ? HSIM_RES_GPUS : HSIM_RES_CORES]);
    for (size_t k = 0; k < g->n_top; k++)
        if (g->top[k] == j->user)
            return k;
    return HSIM_LEGEND_GREY;
}

/* The window and the jobs in it (pointers into r, by start). */
static int gantt_jobs(gantt_t *g, const hsim_rjobs_t *r, const hsim_rjob_t ***w, size_t *n)
{
    *n = 0;
    *w = hsim_malloc((r->n + 1) * sizeof **w);
    if (!*w)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < r->n; i++)
        if (r->j[i].start >= 0)
            (*w)[(*n)++] = &r->j[i];
    qsort(*w, *n, sizeof **w, by_start);
    if (!*n)
        return 0;
    size_t last = *n < HSIM_GANTT_JOBS ? *n - 1 : HSIM_GANTT_JOBS - 1;
    g->t0 = (*w)[0]->start;
    g->t1 = (*w)[last]->start;
    if (!(g->t1 > g->t0)) /* all start at once: until the first end */
        for (size_t i = 0; i <= last; i++)
            g->t1 = fmax(g->t1, (*w)[i]->end);
    if (!(g->t1 > g->t0))
        g->t1 = g->t0 + 1;
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if ((*w)[i]->start < g->t1 && (*w)[i]->end > g->t0)
            (*w)[k++] = (*w)[i];
    *n = k;
    return 0;
}

static int gantt(hsim_charts_t *ch, const char *policy, const hsim_rjobs_t *r, hsim_err_t *e)
{
    gantt_t g = {.rows = (int32_t)(ch->m->pool > 0 ? ch->m->pool : (double)ch->m->n_nodes),
                 .row_name = ch->m->pool > 0 ? "processor" : "node"};
    const hsim_rjob_t **w;
    size_t n;
    int rc = gantt_jobs(&g, r, &w, &n);
    double *busy = rc || !(ch->m->pool > 0) ? NULL : hsim_malloc(((size_t)g.rows + 1) *
                                                                  sizeof *busy);
    if (rc == 0 && ch->m->pool > 0 && !busy)
        rc = HSIM_ENOMEM;
    for (int32_t p = 0; busy && p < g.rows; p++)
        busy[p] = -INFINITY;
    if (rc == 0 && n && g.rows > 0) {
        gantt_keys(&g, w, n);
        g.gpus = ch->m->total[HSIM_RES_GPUS] > 0;
        if (g.n_top <= 1)
            size_keys(&g, w, n);
        for (size_t i = 0; i < n && rc == 0; i++) {
            size_t colour = colour_of(&g, w[i]);
            if (busy)
                rc = pool_boxes(&g, busy, w[i], colour);
            else {
                node_boxes_t b = {&g, w[i], colour, 0};
                hsim_ranges_each(w[i]->nodes, node_box, &b);
                rc = b.rc;
            }
        }
        snprintf(g.title, sizeof g.title, "%s, %s: the first %d starts", ch->title, policy,
                 HSIM_GANTT_JOBS);
        char rel[300], caption[160];
        snprintf(rel, sizeof rel, "%s/gantt", policy);
        snprintf(caption, sizeof caption, "%s: Gantt chart of the first %d starts", policy,
                 HSIM_GANTT_JOBS);
        if (rc == 0)
            rc = draw_all(ch, rel, caption, draw_gantt, &g, e);
    }
    hsim_free(busy);
    hsim_free(w);
    hsim_free(g.boxes);
    return rc;
}

/* ---- heatmap ---- */

typedef struct heat {
    double *v;
    size_t rows, group;           /* group: nodes per row */
    double t0, t1;
    char title[300], row_name[64];
} heat_t;

static int draw_heat(const char *path, const void *ctx, hsim_err_t *e)
{
    const heat_t *h = ctx;
    return hsim_figure_heatmap(path, h->title, h->row_name, (double)h->group, h->v, h->rows,
                               HEAT_COLS, h->t0, h->t1, "busy share of cores or GPUs", e);
}

static int heatmap(hsim_charts_t *ch, const char *policy, const hsim_rjobs_t *r,
                   hsim_err_t *e)
{
    heat_t h = {0};
    double width;
    int rc = hsim_heatmap_build(r, ch->m, HEAT_ROWS, HEAT_COLS, &h.v, &h.rows, &h.t0, &width);
    h.t1 = h.t0 + width * HEAT_COLS;
    h.group = h.rows ? (ch->m->n_nodes + h.rows - 1) / h.rows : 1;
    if (h.group > 1)
        snprintf(h.row_name, sizeof h.row_name, "node (a row: %zu neighbours)", h.group);
    else
        snprintf(h.row_name, sizeof h.row_name, "node");
    snprintf(h.title, sizeof h.title, "%s, %s: load of each node over time", ch->title,
             policy);
    char rel[300], caption[160];
    snprintf(rel, sizeof rel, "%s/heatmap", policy);
    snprintf(caption, sizeof caption, "%s: node utilization heatmap", policy);
    if (rc == 0)
        rc = draw_all(ch, rel, caption, draw_heat, &h, e);
    hsim_free(h.v);
    return rc;
}

int hsim_charts_policy(hsim_charts_t *ch, const char *policy, const hsim_rjobs_t *r,
                       hsim_err_t *e)
{
    int rc = 0;
    if (ch->charts & HSIM_CHART_GANTT)
        rc = gantt(ch, policy, r, e);
    if (rc == 0 && (ch->charts & HSIM_CHART_HEATMAP) && ch->m->n_nodes)
        rc = heatmap(ch, policy, r, e);
    return rc;
}

/* ---- the policies compared ---- */

typedef struct lines_fig {
    char title[300];
    const char *const *names;
    size_t n_series, n_panels, cols;
    hsim_lines_panel_t *panels;
} lines_fig_t;

static int draw_lines(const char *path, const void *ctx, hsim_err_t *e)
{
    const lines_fig_t *f = ctx;
    return hsim_figure_lines(path, f->title, f->names, f->n_series, f->panels, f->n_panels,
                             f->cols, e);
}

/* A column's panel title: "cores", "GPUs: v100"... */
static void util_title(const char *col, char *buf, size_t size)
{
    static const char *const from[][2] = {{"util_procs", "processors"}, {"util_cores", "cores"},
        {"util_memory", "memory"}, {"util_gpus", "GPUs (all)"}, {"util_fpgas", "FPGAs"}};
    for (size_t k = 0; k < sizeof from / sizeof from[0]; k++)
        if (!strcmp(col, from[k][0])) {
            snprintf(buf, size, "%s (%%)", from[k][1]);
            return;
        }
    snprintf(buf, size, "GPUs: %s (%%)", col + strlen("util_gpus_"));
}

/* The points of column k of ts, time in unit, values times scale, into
   x and y (HSIM_CHART_POINTS + 1 each): a step per group of neighbouring
   bins, their average, so that 2,000 bins of five policies stay lines a
   reader can tell apart (timeseries.csv keeps every bin); then the last
   group's end.  Returns how many points. */
#define HSIM_CHART_POINTS 250
static size_t ts_points(const hsim_timeseries_t *ts, size_t k, double unit, double scale,
                        double *x, double *y)
{
    size_t group = (ts->n + HSIM_CHART_POINTS - 1) / HSIM_CHART_POINTS, n = 0;
    const double *v = ts->v + k * ts->n;
    for (size_t b = 0; b < ts->n; b += group) {
        size_t end = b + group < ts->n ? b + group : ts->n;
        double s = 0;
        for (size_t i = b; i < end; i++)
            s += v[i];
        x[n] = (ts->t0 + ts->width * (double)b) / unit;
        y[n++] = s / (double)(end - b) * scale;
    }
    x[n] = (ts->t0 + ts->width * (double)ts->n) / unit;
    y[n] = n ? y[n - 1] : 0;
    return n + 1;
}

/* The largest value of column k under any policy (0 when never used). */
static double column_max(const hsim_pdata_t *p, size_t n, size_t k)
{
    double top = 0;
    for (size_t s = 0; s < n; s++)
        for (size_t b = 0; k < p[s].ts.n_cols && b < p[s].ts.n; b++)
            top = fmax(top, p[s].ts.v[k * p[s].ts.n + b]);
    return top;
}

/* Time-series panels: queue (or running) alone, or one per util column. */
static int time_chart(hsim_charts_t *ch, const hsim_pdata_t *p, size_t n, int util,
                      const char *const *names, hsim_err_t *e)
{
    const hsim_timeseries_t *t0 = &p[0].ts;
    size_t cols = util ? t0->n_cols - HSIM_TS_UTIL : 1, first = util ? HSIM_TS_UTIL
                                                                     : HSIM_TS_QUEUE;
    double lo = INFINITY, hi = -INFINITY, top = 0;
    size_t most = 0;
    for (size_t s = 0; s < n; s++) {
        lo = fmin(lo, p[s].ts.t0);
        hi = fmax(hi, p[s].ts.t0 + p[s].ts.width * (double)p[s].ts.n);
        most = p[s].ts.n > most ? p[s].ts.n : most;
        for (size_t b = 0; !util && b < p[s].ts.n; b++)
            top = fmax(top, p[s].ts.v[HSIM_TS_QUEUE * p[s].ts.n + b]);
    }
    const char *uname;
    double unit = hsim_time_unit(hi - lo, &uname);
    char xlabel[48];
    snprintf(xlabel, sizeof xlabel, "time (%s)", uname);
    hsim_lines_panel_t *panels = hsim_calloc(cols, sizeof *panels);
    hsim_line_t *lines = hsim_calloc(cols * n, sizeof *lines);
    double *xy = hsim_malloc(2 * cols * n * (most + 1) * sizeof *xy);
    char (*titles)[96] = hsim_calloc(cols, sizeof *titles);
    int rc = panels && lines && xy && titles ? 0 : HSIM_ENOMEM;
    size_t shown = 0;
    for (size_t c = 0; rc == 0 && c < cols; c++) {
        if (util && !(column_max(p, n, first + c) > 0) && shown + (cols - c) > 1)
            continue; /* a kind no job held: an empty panel */
        if (util)
            util_title(t0->names[first + c], titles[c], sizeof titles[c]);
        else
            snprintf(titles[c], sizeof titles[c], "jobs waiting (average over each bin)");
        /* a resource used little gets a scale that shows it, not a flat
           line at the foot of 0..100% */
        double ymax = util ? fmin(100, fmax(1, 1.05 * 100 * column_max(p, n, first + c)))
                           : fmax(top, 1);
        panels[shown++] = (hsim_lines_panel_t){titles[c], {lo / unit, hi / unit, 0, xlabel},
                                         {0, ymax, 0, util ? "%" : "jobs"},
                                         lines + c * n, 1};
        for (size_t s = 0; s < n; s++) {
            double *x = xy + 2 * (c * n + s) * (most + 1), *y = x + most + 1;
            /* every policy has the same columns: one machine */
            size_t pts = first + c < p[s].ts.n_cols
                             ? ts_points(&p[s].ts, first + c, unit, util ? 100 : 1, x, y) : 0;
            lines[c * n + s] = (hsim_line_t){x, y, pts};
        }
    }
    lines_fig_t f = {.names = names, .n_series = n, .n_panels = shown, .cols = 1,
                     .panels = panels};
    snprintf(f.title, sizeof f.title, "%s: %s over time", ch->title,
             util ? "utilization of each resource" : "queue length");
    if (rc == 0)
        rc = draw_all(ch, util ? "utilization" : "queue",
                      util ? "Utilization over time, per resource kind"
                           : "Queue length over time", draw_lines, &f, e);
    hsim_free(panels);
    hsim_free(lines);
    hsim_free(xy);
    hsim_free(titles);
    return rc;
}

static int cdf_chart(hsim_charts_t *ch, const hsim_pdata_t *p, size_t n,
                     const char *const *names, hsim_err_t *e)
{
    hsim_line_t *lines = hsim_calloc(2 * n, sizeof *lines);
    double (*w)[HSIM_CDF_POINTS] = hsim_calloc(n, sizeof *w);
    if (!lines || !w) {
        hsim_free(lines);
        hsim_free(w);
        return HSIM_ENOMEM;
    }
    double wmax = 1, bmax = 1;
    for (size_t s = 0; s < n; s++) {
        for (size_t k = 0; k < p[s].n_cdf; k++) /* under 1 s: at 1 s, on a log axis */
            w[s][k] = fmax(1, p[s].wait[k]);
        if (p[s].n_cdf) {
            wmax = fmax(wmax, w[s][p[s].n_cdf - 1]);
            bmax = fmax(bmax, p[s].bsld[p[s].n_cdf - 1]);
        }
        lines[s] = (hsim_line_t){w[s], p[s].frac, p[s].n_cdf};
        lines[n + s] = (hsim_line_t){p[s].bsld, p[s].frac, p[s].n_cdf};
    }
    hsim_lines_panel_t panels[2] = {
        {"CDF of wait", {1, wmax, 1, "wait (s, log; under 1 s drawn at 1 s)"},
         {0, 1, 0, "share of jobs"}, lines, 1},
        {"CDF of bounded slowdown", {1, bmax, 1, "bounded slowdown (log)"},
         {0, 1, 0, "share of jobs"}, lines + n, 1},
    };
    lines_fig_t f = {.names = names, .n_series = n, .n_panels = 2, .cols = 2,
                     .panels = panels};
    snprintf(f.title, sizeof f.title, "%s: distribution of wait and bounded slowdown",
             ch->title);
    int rc = draw_all(ch, "cdf", "CDFs of wait and bounded slowdown", draw_lines, &f, e);
    hsim_free(lines);
    hsim_free(w);
    return rc;
}

typedef struct bars_fig {
    char title[300];
    const char *const *groups, *const *series;
    size_t n_groups, n_series, n_panels;
    const hsim_bars_panel_t *panels;
} bars_fig_t;

static int draw_bars(const char *path, const void *ctx, hsim_err_t *e)
{
    const bars_fig_t *f = ctx;
    return hsim_figure_bars(path, f->title, f->groups, f->n_groups, f->series, f->n_series,
                            f->panels, f->n_panels, e);
}

/* Average wait, turnaround and bsld per policy; error bars from ci. */
static int bars_chart(hsim_charts_t *ch, size_t n, const char *const *names,
                      const double *const avg[3], const double *const ci[3], hsim_err_t *e)
{
    double *v = hsim_malloc(6 * (n + 1) * sizeof *v);
    if (!v)
        return HSIM_ENOMEM;
    double big = 0;
    for (size_t s = 0; s < n; s++)
        big = fmax(big, fmax(isnan(avg[0][s]) ? 0 : avg[0][s], isnan(avg[1][s]) ? 0
                                                                                : avg[1][s]));
    const char *uname;
    double unit = hsim_time_unit(big, &uname);
    char ylabel[2][48];
    snprintf(ylabel[0], sizeof ylabel[0], "average wait (%s)", uname);
    snprintf(ylabel[1], sizeof ylabel[1], "average turnaround (%s)", uname);
    hsim_bars_panel_t panels[3];
    for (int k = 0; k < 3; k++) {
        double *val = v + (size_t)k * 2 * n, *err = val + n, scale = k < 2 ? unit : 1;
        for (size_t s = 0; s < n; s++) {
            val[s] = avg[k][s] / scale;
            err[s] = ci[k] ? ci[k][s] / scale : NAN;
        }
        panels[k] = (hsim_bars_panel_t){k == 0 ? "wait" : k == 1 ? "turnaround"
                                                                 : "bounded slowdown",
                                         k < 2 ? ylabel[k] : "average bounded slowdown", val,
                                         ci[k] ? err : NULL, 0};
    }
    bars_fig_t f = {.groups = names, .series = names, .n_groups = n, .n_series = 1,
                    .n_panels = 3, .panels = panels};
    int any_ci = ci[0] || ci[1] || ci[2];
    snprintf(f.title, sizeof f.title, "%s: averages per policy%s", ch->title,
             any_ci ? " (error bars: 95% confidence intervals)" : "");
    int rc = draw_all(ch, "bars", "Average wait, turnaround and bounded slowdown per policy",
                      draw_bars, &f, e);
    hsim_free(v);
    return rc;
}

/* The average bsld of user u under p: NaN when none of u's jobs ran. */
static double user_value(const hsim_pdata_t *p, int64_t u)
{
    size_t lo = 0, hi = p->n_users;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->users[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->n_users && p->users[lo] == u ? p->user_bsld[lo] : NAN;
}

static int by_value_desc(const void *a, const void *b) { return by_value(b, a); }

/* Few users: a bar per user and policy.  Many: each policy's users
   ranked from the most slowed down, as a line. */
static int fairness_chart(hsim_charts_t *ch, const hsim_pdata_t *p, size_t n,
                          const char *const *names, hsim_err_t *e)
{
    size_t users = p[0].n_users, most = 0;
    for (size_t s = 0; s < n; s++)
        most = p[s].n_users > most ? p[s].n_users : most;
    if (most < 2) /* one user, or none named: no fairness to show */
        return 0;
    char (*legend)[96] = hsim_calloc(n, sizeof *legend);
    const char **lnames = hsim_calloc(n, sizeof *lnames);
    double *v = hsim_malloc(2 * n * (most + 1) * sizeof *v);
    int rc = legend && lnames && v ? 0 : HSIM_ENOMEM;
    for (size_t s = 0; rc == 0 && s < n; s++) {
        snprintf(legend[s], sizeof legend[s], "%s (Jain %.3f)", names[s], p[s].jain);
        lnames[s] = legend[s];
    }
    char title[300];
    snprintf(title, sizeof title, "%s: each user's average bounded slowdown", ch->title);
    const char *caption = "Per-user fairness: average bounded slowdown, Jain's index";
    if (rc == 0 && users <= FAIR_BARS_MAX) {
        char (*gtext)[32] = hsim_calloc(users, sizeof *gtext);
        const char **groups = hsim_calloc(users, sizeof *groups);
        rc = gtext && groups ? 0 : HSIM_ENOMEM;
        for (size_t g = 0; rc == 0 && g < users; g++) {
            snprintf(gtext[g], sizeof gtext[g], "user %lld", (long long)p[0].users[g]);
            groups[g] = gtext[g];
            for (size_t s = 0; s < n; s++)
                v[g * n + s] = user_value(&p[s], p[0].users[g]);
        }
        hsim_bars_panel_t panel = {"average bounded slowdown per user", "bsld (log)", v, NULL,
                                   1};
        bars_fig_t f = {.groups = groups, .series = lnames, .n_groups = users,
                        .n_series = n, .n_panels = 1, .panels = &panel};
        snprintf(f.title, sizeof f.title, "%s", title);
        if (rc == 0)
            rc = draw_all(ch, "fairness", caption, draw_bars, &f, e);
        hsim_free(gtext);
        hsim_free(groups);
    } else if (rc == 0) {
        hsim_line_t *lines = hsim_calloc(n, sizeof *lines);
        rc = lines ? 0 : HSIM_ENOMEM;
        double top = 1;
        for (size_t s = 0; rc == 0 && s < n; s++) {
            double *x = v + 2 * s * (most + 1), *y = x + most + 1;
            memcpy(y, p[s].user_bsld, p[s].n_users * sizeof *y);
            qsort(y, p[s].n_users, sizeof *y, by_value_desc);
            for (size_t k = 0; k < p[s].n_users; k++)
                x[k] = (double)(k + 1);
            top = fmax(top, p[s].n_users ? y[0] : 1);
            lines[s] = (hsim_line_t){x, y, p[s].n_users};
        }
        hsim_lines_panel_t panel = {"users ranked from the most slowed down",
                                    {1, (double)most, 0, "user's rank"},
                                    {1, top, 1, "average bounded slowdown (log)"}, lines, 0};
        lines_fig_t f = {.names = lnames, .n_series = n, .n_panels = 1, .cols = 1,
                         .panels = &panel};
        snprintf(f.title, sizeof f.title, "%s", title);
        if (rc == 0)
            rc = draw_all(ch, "fairness", caption, draw_lines, &f, e);
        hsim_free(lines);
    }
    hsim_free(legend);
    hsim_free(lnames);
    hsim_free(v);
    return rc;
}

int hsim_charts_compare(hsim_charts_t *ch, const hsim_pdata_t *p, size_t n, int summary_only,
                        const double *const avg[3], const double *const ci[3], hsim_err_t *e)
{
    const char **names = hsim_calloc(n + 1, sizeof *names);
    if (!names)
        return HSIM_ENOMEM;
    for (size_t s = 0; s < n; s++)
        names[s] = p[s].name;
    int rc = 0;
    if (ch->charts & HSIM_CHART_BARS)
        rc = bars_chart(ch, n, names, avg, ci, e);
    if (summary_only) {
        hsim_free(names);
        return rc;
    }
    if (rc == 0 && (ch->charts & HSIM_CHART_UTILIZATION) && p[0].ts.n_cols > HSIM_TS_UTIL)
        rc = time_chart(ch, p, n, 1, names, e);
    if (rc == 0 && (ch->charts & HSIM_CHART_QUEUE))
        rc = time_chart(ch, p, n, 0, names, e);
    if (rc == 0 && (ch->charts & HSIM_CHART_CDF))
        rc = cdf_chart(ch, p, n, names, e);
    if (rc == 0 && (ch->charts & HSIM_CHART_FAIRNESS))
        rc = fairness_chart(ch, p, n, names, e);
    hsim_free(names);
    return rc;
}
