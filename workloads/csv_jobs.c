/*
 * csv_jobs.c - format = csv: the jobs of a workload, one CSV row each, as
 * hsim gen writes them (hsim_csv_write_jobs()), or as another tool writes
 * them for hsim.  See workload.h.
 *
 * A row is a job as hsim holds it after cleaning: nothing is repaired, so
 * a generated or cleaned workload written by hsim gen runs again exactly as
 * it ran the first time.
 */
#include "gpu_rows.h"

#include <stdlib.h>
#include <string.h>

enum {
    C_ID, C_SUBMIT, C_RUNTIME, C_ESTIMATE, C_PROCS, C_GPUS, C_GPU_MILLI, C_MEM, C_FPGAS,
    C_CLASS, C_USER, C_MODELS, C_GROUP, C_APP, C_QUEUE, C_PARTITION, C_NODES, C_CPN,
    C_AFTER, C_THINK, C_KILLED, C_TRACE_ID, C_COLUMNS
};

static const hsim__column_t columns[C_COLUMNS] = {
    {"job_id", 1},   {"submit", 1},    {"runtime", 1},        {"estimate", 0},
    {"procs", 1},    {"gpus", 0},      {"gpu_milli", 0},      {"mem_mb", 0},
    {"fpgas", 0},    {"class", 0},     {"user", 0},           {"gpu_models", 0},
    {"group", 0},    {"app", 0},       {"queue", 0},          {"partition", 0},
    {"nodes", 0},    {"cores_per_node", 0}, {"after", 0},     {"think", 0},
    {"killed", 0},   {"trace_id", 0},
};

typedef struct csv_state {
    hsim_gpu_read_options_t o;  /* copy; zeros when the caller gave none */
    hsim_workload_t *w;         /* being filled */
    int col[C_COLUMNS];         /* field index of each column, -1 absent */
    size_t fields;              /* fields of the header, so of every row */
} csv_state_t;

/* Column c of row r as an integer in min..max; *out unchanged when the
   column is absent.  0 or HSIM_EINPUT (why says so). */
static int opt_int(const csv_state_t *st, const hsim__row_t *r, int c, int64_t min,
                   int64_t max, int64_t *out, char *why, size_t size)
{
    if (st->col[c] < 0)
        return 0;
    return hsim__field_int(r, (size_t)st->col[c], columns[c].name, min, max, out, why, size);
}

/* "a|b" into a bitmask of w's models. */
static int models(csv_state_t *st, const hsim__row_t *r, uint32_t *mask, char *why,
                  size_t size)
{
    *mask = 0;
    if (st->col[C_MODELS] < 0 || !r->f[st->col[C_MODELS]][0])
        return 0;
    return hsim__field_models(r, (size_t)st->col[C_MODELS], "gpu_models", st->w, mask, why,
                              size);
}

/* The job class named in the row, or -1 for none. */
static int job_class(csv_state_t *st, const hsim__row_t *r, int16_t *cls, char *why,
                     size_t size)
{
    *cls = -1;
    if (st->col[C_CLASS] < 0 || !r->f[st->col[C_CLASS]][0])
        return 0;
    size_t i = (size_t)st->col[C_CLASS];
    int k = hsim_workload_class(st->w, r->f[i]);
    if (k < 0) {
        snprintf(why, size, "field %zu (class): expected at most %d classes of 1 to %d "
                            "characters, found '%.40s'",
                 i + 1, HSIM_MAX_CLASSES, HSIM_LABEL_MAX - 1, r->f[i]);
        return HSIM_EINPUT;
    }
    *cls = (int16_t)k;
    return 0;
}

/* Makes row r (whose field count is checked) into j.  0 or HSIM_EINPUT. */
static int row_job(csv_state_t *st, const hsim__row_t *r, hsim_job_t *j, char *why,
                   size_t size)
{
    int64_t id = 0, procs = 0, gpus = 0, milli = -1, mem = 0, fpgas = 0, user = -1,
            group = -1, app = -1, queue = -1, partition = -1, nodes = 0, cpn = 0,
            after = -1, killed = 0;
    j->think = -1;
    const char *think = st->col[C_THINK] >= 0 ? r->f[st->col[C_THINK]] : "";
    int has_think = think[0] && strcmp(think, "-1"); /* else unknown */
    if (hsim__field_int(r, (size_t)st->col[C_ID], "job_id", INT64_MIN + 1, INT64_MAX, &id,
                        why, size) ||
        hsim__field_seconds(r, (size_t)st->col[C_SUBMIT], "submit", &j->submit, why, size) ||
        hsim__field_seconds(r, (size_t)st->col[C_RUNTIME], "runtime", &j->runtime, why,
                            size) ||
        (st->col[C_ESTIMATE] >= 0 &&
         hsim__field_seconds(r, (size_t)st->col[C_ESTIMATE], "estimate", &j->estimate, why,
                             size)) ||
        hsim__field_int(r, (size_t)st->col[C_PROCS], "procs", 1, INT32_MAX, &procs, why,
                        size) ||
        opt_int(st, r, C_GPUS, 0, INT32_MAX, &gpus, why, size) ||
        opt_int(st, r, C_GPU_MILLI, 0, 1000, &milli, why, size) ||
        opt_int(st, r, C_MEM, 0, INT64_MAX / 2, &mem, why, size) ||
        opt_int(st, r, C_FPGAS, 0, INT32_MAX, &fpgas, why, size) ||
        opt_int(st, r, C_USER, -1, INT32_MAX, &user, why, size) ||
        opt_int(st, r, C_GROUP, -1, INT32_MAX, &group, why, size) ||
        opt_int(st, r, C_APP, -1, INT32_MAX, &app, why, size) ||
        opt_int(st, r, C_QUEUE, -1, INT32_MAX, &queue, why, size) ||
        opt_int(st, r, C_PARTITION, -1, INT32_MAX, &partition, why, size) ||
        opt_int(st, r, C_NODES, 0, INT32_MAX, &nodes, why, size) ||
        opt_int(st, r, C_CPN, 0, INT32_MAX, &cpn, why, size) ||
        opt_int(st, r, C_AFTER, -1, INT64_MAX, &after, why, size) ||
        (has_think &&
         hsim__field_seconds(r, (size_t)st->col[C_THINK], "think", &j->think, why, size)) ||
        opt_int(st, r, C_KILLED, 0, 1, &killed, why, size) ||
        models(st, r, &j->gpu_models, why, size) || job_class(st, r, &j->job_class, why, size))
        return HSIM_EINPUT;
    if (st->col[C_ESTIMATE] < 0)
        j->estimate = j->runtime;
    const struct {
        int col;
        hsim_time_t v;
    } positive[] = {{C_RUNTIME, j->runtime}, {C_ESTIMATE, j->estimate}};
    for (size_t k = 0; k < 2; k++)
        if (positive[k].v <= 0 && st->col[positive[k].col] >= 0) {
            size_t i = (size_t)st->col[positive[k].col];
            snprintf(why, size, "field %zu (%s): expected seconds > 0, found '%.40s'", i + 1,
                     columns[positive[k].col].name, r->f[i]);
            return HSIM_EINPUT;
        }
    if (milli < 0) /* absent: whole GPUs */
        milli = gpus ? 1000 : 0;
    if ((gpus == 0) != (milli == 0)) {
        snprintf(why, size, "field %d (gpu_milli): expected %s, found '%.40s'",
                 st->col[C_GPU_MILLI] + 1, gpus ? "1 to 1000 for a job with GPUs"
                                                : "0 for a job without GPUs",
                 r->f[st->col[C_GPU_MILLI]]);
        return HSIM_EINPUT;
    }
    j->id = id;
    j->procs = (int32_t)procs;
    j->gpus = (int32_t)gpus;
    j->gpu_milli = (int32_t)milli;
    j->mem_mb = mem;
    j->fpgas = (int32_t)fpgas;
    j->user = (int32_t)user;
    j->group = (int32_t)group;
    j->app = (int32_t)app;
    j->queue = (int32_t)queue;
    j->partition = (int32_t)partition;
    j->nodes = (int32_t)nodes;
    j->cores_per_node = (int32_t)cpn;
    j->after = after > 0 ? after : -1;
    j->killed_at_estimate = (uint8_t)killed;
    return 0;
}

static int csv_row(void *ctx, const hsim__row_t *r, hsim_err_t *e)
{
    csv_state_t *st = ctx;
    if (r->index == 0) {
        st->fields = r->n;
        return hsim__header_find(r, columns, C_COLUMNS, st->col, e);
    }
    hsim_workload_t *w = st->w;
    w->n_input++;
    hsim_job_t j;
    hsim_job_init(&j);
    j.id = r->index;
    j.line = r->line;
    char why[192];
    int rc = hsim__row_fields(r, st->fields, why, sizeof why);
    if (rc == 0 && st->col[C_TRACE_ID] >= 0)
        rc = hsim_workload_name(w, r->f[st->col[C_TRACE_ID]], &j.name);
    if (rc == HSIM_ENOMEM)
        return rc;
    size_t rejected = w->n_rejected;
    if (rc == 0)
        rc = row_job(st, r, &j, why, sizeof why);
    rc = rc ? hsim__row_bad(r, j.id, st->o.skip_bad_rows, why, w, e)
            : hsim_workload_add(w, &j);
    if (rc)
        return rc;
    if (w->n_rejected > rejected)
        w->rejected[rejected].name = j.name;
    return st->o.max_jobs && w->n_input >= st->o.max_jobs;
}

/* A job number given twice is an error at its second line, as in SWF (a
   dependency on it would be ambiguous).  0, HSIM_EINPUT or HSIM_ENOMEM. */
static int unique_ids(const char *path, const hsim_workload_t *w, hsim_err_t *e)
{
    if (w->n_jobs < 2)
        return 0;
    hsim_id_line_t *v = hsim_malloc(w->n_jobs * sizeof *v);
    if (!v)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < w->n_jobs; i++)
        v[i] = (hsim_id_line_t){w->jobs[i].id, w->jobs[i].line};
    int64_t id, line, first;
    int rc = 0;
    if (hsim_id_repeat(v, w->n_jobs, &id, &line, &first))
        rc = hsim_errf(e, HSIM_EINPUT, "%s:%lld: job_id %lld was given on line %lld already: "
                       "expected each job number once", path, (long long)line, (long long)id,
                       (long long)first);
    hsim_free(v);
    return rc;
}

int hsim_csv_jobs_read(const char *path, const hsim_gpu_read_options_t *o, hsim_workload_t *w,
                       hsim_err_t *e)
{
    csv_state_t st = {.w = w};
    if (o)
        st.o = *o;
    int rc = hsim__rows_read(path, ',', csv_row, &st, e);
    if (!rc && st.fields == 0)
        rc = hsim_errf(e, HSIM_EINPUT, "%s:1: expected a header (job_id,submit,runtime,"
                                       "procs,...), found an empty file", path);
    if (!rc)
        rc = unique_ids(path, w, e);
    return hsim__workload_finish(w, rc);
}
