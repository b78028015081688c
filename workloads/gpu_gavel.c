/*
 * gpu_gavel.c - Gavel's Philly-derived traces and its throughput table.
 *
 * A Gavel job is a number of training steps of one model (its job type) on
 * scale-factor GPUs; how long it runs depends on the GPU type, through the
 * measured throughputs of throughputs.csv.  hsim keeps one number per job,
 * its runtime on the reference GPU (the V100), and gives the cluster model a
 * speed per GPU type for each job class "<job type>@<scale factor>": the
 * duration on a K80 is runtime / speed(K80).  Runtimes are rounded to the
 * microsecond once, here, so schedules stay exact integers from then on.
 *
 * Gavel measured scale factors 1, 2, 4 and 8 (some job types only 1), while
 * the traces ask for up to 64 GPUs and for counts such as 7 or 12: a scale
 * factor without a row borrows the per-GPU throughput of the largest
 * measured one below it (linear scaling).  Speeds relative to the V100 are
 * thus those of that measured scale factor.
 */
#include "gpu_rows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const model_names[HSIM_GAVEL_MODELS] = {"k80", "p100", "v100"};

const char *hsim_gavel_model_name(int model)
{
    HSIM_ASSERT(model >= 0 && model < HSIM_GAVEL_MODELS);
    return model_names[model];
}

/* ---- throughputs.csv ---- */

enum { TP_TYPE, TP_SCALE, TP_K80, TP_P100, TP_V100, TP_COLUMNS };

/* Throughputs, steps per second, kept in a range whose ratios (a GPU's
   speed against the V100's), scaled by any job's size, stay finite. */
#define TP_MAX 1e9
#define TP_MIN_V100 1e-6

static const hsim__column_t tp_columns[TP_COLUMNS] = {
    {"job_type", 1},         {"scale_factor", 1},     {"k80_steps_per_s", 1},
    {"p100_steps_per_s", 1}, {"v100_steps_per_s", 1},
};

typedef struct tp_state {
    hsim_throughputs_t *t;    /* being filled */
    int col[TP_COLUMNS];      /* field index of each column */
    size_t fields;            /* fields of the header, so of every row */
} tp_state_t;

static int tp_row(void *ctx, const hsim__row_t *r, hsim_err_t *e)
{
    tp_state_t *st = ctx;
    if (r->index == 0) {
        st->fields = r->n;
        return hsim__header_find(r, tp_columns, TP_COLUMNS, st->col, e);
    }
    hsim_throughput_t row = {.line = r->line};
    int64_t scale = 0;
    char why[160];
    if (hsim__row_fields(r, st->fields, why, sizeof why) ||
        hsim__field_text(r, (size_t)st->col[TP_TYPE], "job_type", row.job_type,
                         sizeof row.job_type, why, sizeof why) ||
        hsim__field_int(r, (size_t)st->col[TP_SCALE], "scale_factor", 1, INT32_MAX, &scale,
                        why, sizeof why))
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: %s", r->path, (long long)r->line, why);
    for (int m = 0; m < HSIM_GAVEL_MODELS; m++) {
        size_t i = (size_t)st->col[TP_K80 + m];
        if (hsim__field_double(r, i, tp_columns[TP_K80 + m].name, 0, TP_MAX,
                               &row.steps_per_s[m], why, sizeof why))
            return hsim_errf(e, HSIM_EINPUT, "%s:%lld: %s", r->path, (long long)r->line, why);
    }
    if (row.steps_per_s[HSIM_GAVEL_V100] < TP_MIN_V100) {
        size_t i = (size_t)st->col[TP_V100];
        return hsim_errf(e, HSIM_EINPUT,
                         "%s:%lld: field %zu (v100_steps_per_s): expected a number >= %g "
                         "(the V100 is the reference GPU), found '%.40s'",
                         r->path, (long long)r->line, i + 1, TP_MIN_V100, r->f[i]);
    }
    row.scale = (int32_t)scale;
    hsim_throughputs_t *t = st->t;
    if (hsim_grow(&t->rows, &t->cap, t->n + 1, sizeof *t->rows))
        return HSIM_ENOMEM;
    t->rows[t->n++] = row;
    return 0;
}

static int tp_compare(const char *type_a, int32_t scale_a, const char *type_b, int32_t scale_b)
{
    int c = strcmp(type_a, type_b);
    if (c)
        return c;
    return (scale_a > scale_b) - (scale_a < scale_b);
}

static int tp_by_type_scale(const void *a, const void *b)
{
    const hsim_throughput_t *x = a, *y = b;
    int c = tp_compare(x->job_type, x->scale, y->job_type, y->scale);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

int hsim_throughputs_read(const char *path, hsim_throughputs_t *t, hsim_err_t *e)
{
    memset(t, 0, sizeof *t);
    tp_state_t st = {.t = t};
    int rc = hsim__rows_read(path, ',', tp_row, &st, e);
    if (!rc && st.fields == 0)
        rc = hsim_errf(e, HSIM_EINPUT, "%s:1: expected a header (job_type,scale_factor,"
                                       "k80_steps_per_s,...), found an empty file", path);
    if (rc)
        return rc;
    if (t->n > 1)
        qsort(t->rows, t->n, sizeof *t->rows, tp_by_type_scale);
    for (size_t i = 1; i < t->n; i++) {
        const hsim_throughput_t *a = &t->rows[i - 1], *b = &t->rows[i];
        if (!tp_compare(a->job_type, a->scale, b->job_type, b->scale))
            return hsim_errf(e, HSIM_EINPUT,
                             "%s:%lld: expected one row per job type and scale factor, "
                             "found '%s' at scale factor %d again (first on line %lld)",
                             path, (long long)b->line, b->job_type, (int)b->scale,
                             (long long)a->line);
    }
    return 0;
}

void hsim_throughputs_free(hsim_throughputs_t *t)
{
    hsim_free(t->rows);
    memset(t, 0, sizeof *t);
}

int hsim_throughputs_lookup(const hsim_throughputs_t *t, const char *job_type,
                            int32_t scale, double steps_per_s[HSIM_GAVEL_MODELS],
                            int32_t *measured)
{
    if (scale < 1)
        return HSIM_EINPUT;
    /* first row not before (job_type, scale) */
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const hsim_throughput_t *m = &t->rows[mid];
        if (tp_compare(m->job_type, m->scale, job_type, scale) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    const hsim_throughput_t *row = NULL;
    if (lo < t->n && !strcmp(t->rows[lo].job_type, job_type))
        row = &t->rows[lo]; /* exact, or the smallest above */
    if ((!row || row->scale != scale) && lo > 0 && !strcmp(t->rows[lo - 1].job_type, job_type))
        row = &t->rows[lo - 1]; /* the largest below */
    if (!row)
        return HSIM_EINPUT;
    double factor = (double)scale / (double)row->scale;
    for (int m = 0; m < HSIM_GAVEL_MODELS; m++)
        steps_per_s[m] = row->scale == scale ? row->steps_per_s[m] : row->steps_per_s[m] * factor;
    if (measured)
        *measured = row->scale;
    return 0;
}

int hsim_gavel_speed(const hsim_throughputs_t *t, const char *job_type,
                     int32_t scale, int model, double *speed)
{
    HSIM_ASSERT(model >= 0 && model < HSIM_GAVEL_MODELS);
    double tp[HSIM_GAVEL_MODELS];
    int rc = hsim_throughputs_lookup(t, job_type, scale, tp, NULL);
    if (rc)
        return rc;
    *speed = tp[model] / tp[HSIM_GAVEL_V100];
    return 0;
}

int hsim_gavel_class_speed(const hsim_throughputs_t *t, const char *class_name,
                           int model, double *speed)
{
    const char *at = strrchr(class_name, '@');
    if (!at || at == class_name || (size_t)(at - class_name) >= HSIM_LABEL_MAX)
        return HSIM_EINPUT;
    char type[HSIM_LABEL_MAX];
    memcpy(type, class_name, (size_t)(at - class_name));
    type[at - class_name] = '\0';
    char *end;
    long scale = strtol(at + 1, &end, 10);
    if (end == at + 1 || *end || scale < 1 || scale > INT32_MAX)
        return HSIM_EINPUT;
    return hsim_gavel_speed(t, type, (int32_t)scale, model, speed);
}

/* ---- traces ---- */

enum { GV_TYPE, GV_COMMAND, GV_STEP_ARG, GV_NEEDS_DATA, GV_STEPS, GV_ARRIVAL, GV_SCALE,
       GV_FIELDS };

static const char *const gv_names[GV_FIELDS] = {
    "job type",    "command",      "step-argument name", "needs-data flag",
    "total steps", "arrival time", "scale factor",
};

/* Longest runtime accepted, in seconds (see common.h). */
#define GV_MAX_RUN_S ((double)HSIM_MAX_SECONDS)

typedef struct gv_state {
    const hsim_throughputs_t *t;   /* the heterogeneity matrix */
    hsim_gpu_read_options_t o;     /* copy; zeros when the caller gave none */
    hsim_workload_t *w;            /* being filled */
    int model[HSIM_GAVEL_MODELS];  /* workload model index of k80, p100, v100 */
} gv_state_t;

/* Makes row r into j, or writes why it cannot.  0 or HSIM_EINPUT. */
static int gv_job(const gv_state_t *st, const hsim__row_t *r, hsim_job_t *j, char *why,
                  size_t size)
{
    int64_t flag, steps, scale;
    if (hsim__row_fields(r, GV_FIELDS, why, size) ||
        hsim__field_int(r, GV_NEEDS_DATA, gv_names[GV_NEEDS_DATA], 0, 1, &flag, why, size) ||
        hsim__field_int(r, GV_STEPS, gv_names[GV_STEPS], 1, INT64_MAX, &steps, why, size) ||
        hsim__field_seconds(r, GV_ARRIVAL, gv_names[GV_ARRIVAL], &j->submit, why, size) ||
        hsim__field_int(r, GV_SCALE, gv_names[GV_SCALE], 1, INT32_MAX, &scale, why, size))
        return HSIM_EINPUT;
    const char *type = r->f[GV_TYPE];
    double tp[HSIM_GAVEL_MODELS];
    if (hsim_throughputs_lookup(st->t, type, (int32_t)scale, tp, NULL)) {
        snprintf(why, size, "field 1 (job type): expected a job type of the throughput "
                            "table, found '%.40s'", type);
        return HSIM_EINPUT;
    }
    double run_s = (double)steps / tp[HSIM_GAVEL_V100];
    if (!(run_s <= GV_MAX_RUN_S)) {
        snprintf(why, size, "field 5 (total steps): expected a run under %g s on a V100, "
                            "found '%.24s' steps (%g s)", GV_MAX_RUN_S, r->f[GV_STEPS], run_s);
        return HSIM_EINPUT;
    }
    j->runtime = llround(run_s * (double)HSIM_SECOND);
    if (j->runtime < 1)
        j->runtime = 1;
    j->estimate = j->runtime;
    j->gpus = j->procs = (int32_t)scale;
    j->gpu_milli = 1000;
    for (int m = 0; m < HSIM_GAVEL_MODELS; m++)
        if (tp[m] > 0)
            j->gpu_models |= UINT32_C(1) << st->model[m];
    char name[2 * HSIM_LABEL_MAX];
    snprintf(name, sizeof name, "%s@%d", type, (int)scale);
    int c = hsim_workload_class(st->w, name);
    if (c < 0) {
        snprintf(why, size, "job class '%.60s': expected at most %d classes of up to %d "
                            "characters", name, HSIM_MAX_CLASSES, HSIM_LABEL_MAX - 1);
        return HSIM_EINPUT;
    }
    j->job_class = (int16_t)c;
    return 0;
}

static int gv_row(void *ctx, const hsim__row_t *r, hsim_err_t *e)
{
    gv_state_t *st = ctx;
    hsim_workload_t *w = st->w;
    w->n_input++;
    hsim_job_t j;
    hsim_job_init(&j);
    j.id = r->index + 1; /* no header: the first row is job 1 */
    j.line = r->line;
    char why[192];
    int rc = gv_job(st, r, &j, why, sizeof why)
                 ? hsim__row_bad(r, j.id, st->o.skip_bad_rows, why, w, e)
                 : hsim_workload_add(w, &j);
    if (rc)
        return rc;
    return st->o.max_jobs && w->n_input >= st->o.max_jobs;
}

int hsim_gavel_read(const char *path, const hsim_throughputs_t *t,
                    const hsim_gpu_read_options_t *o, hsim_workload_t *w,
                    hsim_err_t *e)
{
    gv_state_t st = {.t = t, .w = w};
    if (o)
        st.o = *o;
    int rc = 0;
    for (int m = 0; m < HSIM_GAVEL_MODELS && !rc; m++) {
        st.model[m] = hsim_workload_model(w, model_names[m]);
        if (st.model[m] < 0)
            rc = hsim_errf(e, HSIM_EINPUT, "%s: expected room for GPU model '%s' in the "
                                           "workload, found %zu models already",
                           path, model_names[m], w->n_models);
    }
    if (!rc)
        rc = hsim__rows_read(path, '\t', gv_row, &st, e);
    return hsim__workload_finish(w, rc);
}
