/*
 * repeat.c - the means and 95% confidence intervals of repeats (repeat.h).
 *
 * The figures are read back from the seeds' rows as summary.csv prints
 * them (fixed decimals), not from the doubles behind them: a run and
 * hsim merge, which has only the rows, then write the same bytes, and the
 * means can be checked by hand from seed-S/summary.csv.
 */
#include "repeat.h"

#include "experiment.h"
#include "report.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

#define MAX_COLUMNS 160 /* summary.csv: 20 + 5 + 32 GPU models + 5 */

void hsim_repeat_mean_ci(const double *v, size_t n, double *mean, double *ci95)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    *mean = n ? sum / (double)n : NAN;
    *ci95 = NAN;
    if (n < 2 || isnan(*mean))
        return;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - *mean) * (v[i] - *mean);
    double sd = sqrt(ss / (double)(n - 1));
    *ci95 = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * sd / sqrt((double)n);
}

int hsim_repeat_split(const char *line, char *buf, size_t size, char **fields, int max)
{
    size_t o = 0;
    int n = 0;
    const char *p = line;
    for (;;) {
        if (n == max || o >= size)
            return -1;
        fields[n++] = buf + o;
        int quoted = *p == '"';
        p += quoted;
        for (; *p && *p != '\n'; p++) {
            if (quoted && *p == '"' && p[1] == '"')
                p++; /* a doubled quote: one quote */
            else if (quoted && *p == '"')
                quoted = 0;
            else if (!quoted && *p == ',')
                break;
            if (quoted || *p != '"') {
                if (o + 1 >= size)
                    return -1;
                buf[o++] = *p;
            }
        }
        buf[o++] = '\0';
        if (*p != ',')
            return n;
        p++;
    }
}

/* Digits after the decimal point of a cell. */
static int decimals_of(const char *cell)
{
    const char *dot = strchr(cell, '.');
    return dot ? (int)strlen(dot + 1) : 0;
}

/* A mean or a half-width with d decimals; a whole count stays whole, a
   count's fraction shows two decimals; NaN: an empty cell. */
static void put_cell(FILE *f, double v, int d)
{
    if (isnan(v))
        fputc(',', f);
    else if (d == 0 && v != floor(v))
        fprintf(f, ",%.2f", v);
    else
        fprintf(f, ",%.*f", d, v);
}

/* The seeds' figures, parsed: mean[k * cols + j] and ci[...] for
   policy k, column j >= 1, and each column's decimals. */
typedef struct table {
    char *names[MAX_COLUMNS];     /* the header's fields, in hbuf */
    char *hbuf;
    int cols;
    int decimals[MAX_COLUMNS];
    double *mean, *ci, *v;        /* [P * cols], [P * cols], [repeats] */
} table_t;

static int parse(const hsim_repeat_t *r, table_t *t, hsim_err_t *e)
{
    size_t P = r->n_policies, len = strlen(r->header) + 1;
    t->hbuf = hsim_malloc(len);
    t->mean = hsim_calloc(P * MAX_COLUMNS, sizeof *t->mean);
    t->ci = hsim_calloc(P * MAX_COLUMNS, sizeof *t->ci);
    t->v = hsim_calloc(r->repeats, sizeof *t->v);
    if (!t->hbuf || !t->mean || !t->ci || !t->v)
        return HSIM_ENOMEM;
    t->cols = hsim_repeat_split(r->header, t->hbuf, len, t->names, MAX_COLUMNS);
    char buf[8192], *cells[MAX_COLUMNS];
    for (size_t k = 0; k < P && t->cols > 1; k++) {
        for (int j = 1; j < t->cols; j++) {
            for (size_t s = 0; s < r->repeats; s++) {
                const char *row = r->rows[s * P + k];
                if (hsim_repeat_split(row, buf, sizeof buf, cells, MAX_COLUMNS) != t->cols)
                    return hsim_errf(e, HSIM_ERUN, "%s: policy '%s': the seeds' summary rows "
                                     "do not have the header's %d columns", r->path,
                                     r->names[k], t->cols);
                t->v[s] = cells[j][0] ? hsim_strtod(cells[j], NULL) : NAN;
                int d = decimals_of(cells[j]);
                t->decimals[j] = d > t->decimals[j] ? d : t->decimals[j];
            }
            hsim_repeat_mean_ci(t->v, r->repeats, &t->mean[k * MAX_COLUMNS + j],
                                &t->ci[k * MAX_COLUMNS + j]);
        }
    }
    return t->cols > 1 ? 0 : hsim_errf(e, HSIM_ERUN, "%s: a summary header without figures",
                                       r->path);
}

static int column(const table_t *t, const char *name)
{
    for (int j = 1; j < t->cols; j++)
        if (!strcmp(t->names[j], name))
            return j;
    return -1;
}

static double cell_of(const table_t *t, const double *a, size_t k, const char *name)
{
    int j = column(t, name);
    return j < 0 ? NAN : a[k * MAX_COLUMNS + (size_t)j];
}

static int write_csv(const hsim_repeat_t *r, const table_t *t, hsim_err_t *e)
{
    char path[HSIM_PATH_MAX * 2 + 16];
    snprintf(path, sizeof path, "%s/summary.csv", r->dir);
    hsim_report_t rep;
    int rc = hsim_report_open(&rep, path, NULL, e);
    if (rc)
        return rc;
    fwrite(r->header, 1, strcspn(r->header, "\n"), rep.f);
    fputs(",repeats", rep.f);
    for (int j = 1; j < t->cols; j++) {
        char name[300];
        snprintf(name, sizeof name, "%s_ci95", t->names[j]);
        fputc(',', rep.f);
        hsim_report_csv_field(rep.f, name);
    }
    fputc('\n', rep.f);
    for (size_t k = 0; k < r->n_policies; k++) {
        fputs(r->names[k], rep.f);
        for (int j = 1; j < t->cols; j++)
            put_cell(rep.f, t->mean[k * MAX_COLUMNS + j], t->decimals[j]);
        fprintf(rep.f, ",%zu", r->repeats);
        for (int j = 1; j < t->cols; j++)
            put_cell(rep.f, t->ci[k * MAX_COLUMNS + j], t->decimals[j] ? t->decimals[j] : 2);
        fputc('\n', rep.f);
    }
    return hsim_report_close(&rep, e);
}

/* The table's figures of policy k from a (the means or the half-widths). */
static void table_summary(const table_t *t, const double *a, size_t k, hsim_summary_t *s)
{
    double jobs = cell_of(t, a, k, "jobs");
    memset(s, 0, sizeof *s);
    s->jobs = isnan(jobs) ? 0 : (size_t)llround(jobs);
    s->wait.avg = cell_of(t, a, k, "avg_wait");
    s->turnaround.avg = cell_of(t, a, k, "avg_turnaround");
    s->bsld.avg = cell_of(t, a, k, "avg_bsld");
    s->bsld.p95 = cell_of(t, a, k, "p95_bsld");
    s->utilization = cell_of(t, a, k, "utilization");
    s->fairness = cell_of(t, a, k, "fairness");
}

static void print_table(const hsim_repeat_t *r, const table_t *t, FILE *f)
{
    int w = 0;
    for (size_t k = 0; k < r->n_policies; k++)
        if ((int)strlen(r->names[k]) > w)
            w = (int)strlen(r->names[k]);
    hsim_report_table_header(f, w, r->gpus);
    for (size_t k = 0; k < r->n_policies; k++) {
        hsim_summary_t s;
        table_summary(t, t->mean, k, &s);
        hsim_report_table_row(f, w, r->names[k], &s, r->gpus,
                              cell_of(t, t->mean, k, "util_gpus"));
        table_summary(t, t->ci, k, &s);
        hsim_report_table_row(f, w, "  +/- (95% CI)", &s, r->gpus,
                              cell_of(t, t->ci, k, "util_gpus"));
    }
}

int hsim_repeat_write(const hsim_repeat_t *r, FILE *table, hsim_err_t *e)
{
    table_t t;
    memset(&t, 0, sizeof t);
    int rc = parse(r, &t, e);
    if (rc == 0)
        rc = write_csv(r, &t, e);
    double(*fig)[HSIM_MAX_POLICIES] = rc ? NULL : hsim_calloc(HSIM_FIGS, sizeof *fig);
    if (rc == 0 && !fig)
        rc = HSIM_ENOMEM;
    const char *labels[HSIM_MAX_POLICIES];
    for (size_t k = 0; rc == 0 && k < r->n_policies; k++) {
        labels[k] = r->names[k];
        fig[HSIM_FIG_WAIT_H][k] = cell_of(&t, t.mean, k, "avg_wait") / 3600;
        fig[HSIM_FIG_BSLD][k] = cell_of(&t, t.mean, k, "avg_bsld");
        fig[HSIM_FIG_UTIL_PCT][k] = 100 * cell_of(&t, t.mean, k, "utilization");
        fig[HSIM_FIG_IMBALANCE][k] = cell_of(&t, t.mean, k, "load_imbalance");
        fig[HSIM_FIG_GPU_UTIL_PCT][k] = 100 * cell_of(&t, t.mean, k, "util_gpus");
    }
    if (rc == 0)
        rc = hsim_experiment_chart(r->dir, r->title, labels, r->n_policies, fig, r->cluster,
                                   r->gpus, e);
    if (rc == 0 && table)
        print_table(r, &t, table);
    hsim_free(fig);
    hsim_free(t.hbuf);
    hsim_free(t.mean);
    hsim_free(t.ci);
    hsim_free(t.v);
    return rc;
}
