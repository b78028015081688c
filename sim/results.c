/*
 * results.c - reading an experiment's CSV files back.  See results.h.
 *
 * The reader trusts nothing: a results folder may have been edited, cut
 * short or be another program's.  A missing column is an error naming the
 * file and the column; a field that is not a number names its line.
 */
#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int hsim_read_file(const char *path, char **text, size_t *len, hsim_err_t *e)
{
    *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return hsim_errf(e, HSIM_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = hsim_malloc(cap);
    int rc = buf ? 0 : HSIM_ENOMEM;
    while (rc == 0) {
        if (n + 1 >= cap)
            rc = hsim_grow(&buf, &cap, 2 * cap, 1);
        if (rc)
            break;
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                rc = hsim_errf(e, HSIM_EINPUT, "%s: cannot read: %s", path, strerror(errno));
            break;
        }
    }
    fclose(f);
    if (rc) {
        hsim_free(buf);
        return rc;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* One record at *p into f[0..max): fields unquoted in place and ended
   with NUL; *p moves past it, *lines counts its line breaks.  Returns
   how many fields (fields past max are dropped). */
static size_t split_record(char **p, char **f, size_t max, int64_t *lines)
{
    char *s = *p, *o;
    size_t n = 0;
    for (;;) {
        char *start = s;
        o = s;
        if (*s == '"') {
            s++;
            for (;;) {
                if (!*s)
                    break;
                if (*s == '"') {
                    if (s[1] != '"') {
                        s++;
                        break;
                    }
                    s++;
                }
                if (*s == '\n')
                    (*lines)++;
                *o++ = *s++;
            }
        }
        while (*s && *s != ',' && *s != '\n' && *s != '\r')
            *o++ = *s++;
        char end = *s;
        if (n < max)
            f[n] = start;
        n++;
        *o = '\0';
        if (end == ',') {
            s++;
            continue;
        }
        if (end == '\r') /* *s is the NUL now: what follows it */
            end = *++s;
        if (end == '\n') {
            s++;
            (*lines)++;
        }
        break;
    }
    *p = s;
    return n;
}

int hsim_csv_open(hsim_csv_t *c, const char *path, hsim_err_t *e)
{
    memset(c, 0, sizeof *c);
    c->path = path;
    size_t len = 0;
    int rc = hsim_read_file(path, &c->text, &len, e);
    if (rc)
        return rc;
    c->at = c->text + hsim_bom_len(c->text, len);
    c->next_line = 1;
    if (!hsim_csv_next(c))
        return hsim_errf(e, HSIM_EINPUT, "%s: empty: expected a header line", path);
    if (c->n > HSIM_CSV_MAX_FIELDS)
        return hsim_errf(e, HSIM_EINPUT, "%s:1: %zu columns: expected at most %d", path, c->n,
                         HSIM_CSV_MAX_FIELDS);
    memcpy(c->head, c->f, c->n * sizeof *c->f);
    c->n_head = c->n;
    return 0;
}

int hsim_csv_next(hsim_csv_t *c)
{
    while (*c->at == '\n' || *c->at == '\r') { /* blank lines: none */
        if (*c->at == '\n')
            c->next_line++;
        c->at++;
    }
    if (!*c->at)
        return 0;
    c->line = c->next_line;
    c->n = split_record(&c->at, c->f, HSIM_CSV_MAX_FIELDS, &c->next_line);
    if (c->n > HSIM_CSV_MAX_FIELDS)
        c->n = HSIM_CSV_MAX_FIELDS;
    return 1;
}

int hsim_csv_column(const hsim_csv_t *c, const char *name)
{
    for (size_t k = 0; k < c->n_head; k++)
        if (!strcmp(c->head[k], name))
            return (int)k;
    return -1;
}

const char *hsim_csv_field(const hsim_csv_t *c, int k)
{
    return k >= 0 && (size_t)k < c->n ? c->f[k] : "";
}

int hsim_csv_number(hsim_csv_t *c, int k, double *v, hsim_err_t *e)
{
    const char *s = hsim_csv_field(c, k);
    *v = NAN;
    if (!*s)
        return 0;
    char *end;
    *v = hsim_strtod(s, &end);
    /* what hsim writes is finite and below 2^63 (a node's memory in MB
       may pass 10^15): larger would not convert to an integer (user ids) */
    if (end == s || *end || !(fabs(*v) < 9e18))
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: %s: expected a number below 9e18, found "
                         "'%.40s'", c->path, (long long)c->line, c->head[k], s);
    return 0;
}

void hsim_csv_close(hsim_csv_t *c)
{
    hsim_free(c->text);
    c->text = NULL;
}

/* The column name of c, or HSIM_EINPUT naming it when required and absent
   (-1 when optional and absent). */
static int need(const hsim_csv_t *c, const char *name, int required, int *k, hsim_err_t *e)
{
    *k = hsim_csv_column(c, name);
    if (*k < 0 && required)
        return hsim_errf(e, HSIM_EINPUT, "%s:1: no column '%s': expected the header of an "
                         "hsim results file", c->path, name);
    return 0;
}

enum { J_SUBMIT, J_START, J_END, J_BSLD, J_PROCS, J_USER, J_CORES, J_MEM, J_GPUS, J_FPGAS,
       J_ID, J_NODES, J_COLS };

static int job_row(hsim_csv_t *c, const int *col, int cluster, hsim_rjob_t *j,
                   hsim_err_t *e)
{
    double v[J_NODES];
    for (int k = 0; k < J_NODES; k++) {
        v[k] = NAN;
        if (col[k] >= 0 && hsim_csv_number(c, col[k], &v[k], e))
            return HSIM_EINPUT;
    }
    for (int k = J_SUBMIT; k <= J_BSLD; k++)
        if (isnan(v[k]))
            return hsim_errf(e, HSIM_EINPUT, "%s:%lld: %s: expected a number, found nothing",
                             c->path, (long long)c->line, c->head[col[k]]);
    j->submit = v[J_SUBMIT];
    j->start = v[J_START];
    j->end = v[J_END];
    j->bsld = v[J_BSLD];
    j->user = isnan(v[J_USER]) ? -1 : (int64_t)v[J_USER];
    j->id = isnan(v[J_ID]) ? -1 : (int64_t)v[J_ID];
    j->attempt = 0;
    static const int from[HSIM_RES_KINDS] = {J_CORES, J_MEM, J_GPUS, J_FPGAS};
    for (int r = 0; r < HSIM_RES_KINDS; r++) {
        double x = cluster ? v[from[r]] : r == HSIM_RES_CORES ? v[J_PROCS] : 0;
        j->res[r] = isnan(x) || x < 0 ? 0 : x;
    }
    j->nodes = cluster ? hsim_csv_field(c, col[J_NODES]) : "";
    return 0;
}

int hsim_rjobs_read(const char *path, hsim_rjobs_t *out, hsim_err_t *e)
{
    memset(out, 0, sizeof *out);
    hsim_csv_t c;
    int rc = hsim_csv_open(&c, path, e);
    static const char *const names[J_COLS] = {"submit", "start", "end", "bsld", "procs",
                                              "user", "cores", "mem_mb", "gpus", "fpgas",
                                              "job_id", "nodes"};
    int col[J_COLS];
    for (int k = 0; k < J_COLS && rc == 0; k++)
        rc = need(&c, names[k], k <= J_PROCS, &col[k], e);
    int cluster = rc == 0 && col[J_CORES] >= 0 && col[J_NODES] >= 0;
    while (rc == 0 && hsim_csv_next(&c)) {
        if ((rc = hsim_grow(&out->j, &out->cap, out->n + 1, sizeof *out->j)))
            break;
        if ((rc = job_row(&c, col, cluster, &out->j[out->n], e)) == 0)
            out->n++;
    }
    out->text = c.text; /* the node lists point into it */
    c.text = NULL;
    hsim_csv_close(&c);
    return rc;
}

typedef struct id_row {
    int64_t id;
    size_t row;
} id_row_t;

static int by_id(const void *a, const void *b)
{
    const id_row_t *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* One row of attempts.csv appended to r: a copy of its job's entry
   (rows[0..n), sorted by id) with this run's times and nodes. */
static int attempt_row(hsim_csv_t *c, const int *col, const id_row_t *rows, size_t n,
                       hsim_rjobs_t *r, hsim_err_t *e)
{
    double v[3];
    for (int k = 0; k < 3; k++)
        if (hsim_csv_number(c, col[k], &v[k], e))
            return HSIM_EINPUT;
    id_row_t key = {(int64_t)v[0], 0};
    const id_row_t *at = n ? bsearch(&key, rows, n, sizeof *rows, by_id) : NULL;
    if (!at)
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: job %lld is not in jobs.csv", c->path,
                         (long long)c->line, (long long)key.id);
    if (hsim_grow(&r->j, &r->cap, r->n + 1, sizeof *r->j))
        return HSIM_ENOMEM;
    hsim_rjob_t *j = &r->j[r->n++];
    *j = r->j[at->row];
    j->start = v[1];
    j->end = v[2];
    j->attempt = 1;
    if (col[3] >= 0)
        j->nodes = hsim_csv_field(c, col[3]);
    return 0;
}

int hsim_rjobs_read_attempts(const char *path, hsim_rjobs_t *r, hsim_err_t *e)
{
    size_t n = r->n;
    id_row_t *rows = hsim_malloc((n ? n : 1) * sizeof *rows);
    if (!rows)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < n; i++)
        rows[i] = (id_row_t){r->j[i].id, i};
    qsort(rows, n, sizeof *rows, by_id); /* (job ids are unique) */
    hsim_csv_t c;
    int rc = hsim_csv_open(&c, path, e);
    static const char *const names[4] = {"job_id", "start", "end", "nodes"};
    int col[4];
    for (int k = 0; k < 4 && rc == 0; k++)
        rc = need(&c, names[k], k < 3, &col[k], e);
    while (rc == 0 && hsim_csv_next(&c))
        rc = attempt_row(&c, col, rows, n, r, e);
    hsim_free(rows);
    r->attempts_text = c.text; /* the node lists point into it */
    c.text = NULL;
    hsim_csv_close(&c);
    return rc;
}

void hsim_rjobs_free(hsim_rjobs_t *r)
{
    hsim_free(r->j);
    hsim_free(r->text);
    hsim_free(r->attempts_text);
    memset(r, 0, sizeof *r);
}

void hsim_ranges_each(const char *s, void (*fn)(void *ctx, int32_t lo, int32_t hi),
                      void *ctx)
{
    while (*s) {
        char *end;
        long lo = strtol(s, &end, 10), hi = lo;
        if (end == s || lo < 0)
            return;
        if (*end == '-') {
            s = end + 1;
            hi = strtol(s, &end, 10);
            if (end == s || hi < lo)
                return;
        }
        if (hi > INT32_MAX)
            return;
        fn(ctx, (int32_t)lo, (int32_t)hi);
        if (*end != ';')
            return;
        s = end + 1;
    }
}

void hsim_rcluster_pool(hsim_rcluster_t *m, double capacity)
{
    memset(m, 0, sizeof *m);
    m->pool = capacity;
    m->total[HSIM_RES_CORES] = capacity;
}

/* The GPU model named s in m's list (added when new): its index, or -1
   when s is empty or the list is full. */
static int32_t model_index(hsim_rcluster_t *m, const char *s)
{
    if (!*s)
        return -1;
    for (size_t k = 0; k < m->n_models; k++)
        if (!strcmp(m->models[k], s))
            return (int32_t)k;
    if (m->n_models == HSIM_RESULTS_MODELS)
        return -1;
    hsim_strlcpy(m->models[m->n_models], s, sizeof m->models[0]);
    return (int32_t)m->n_models++;
}

enum { C_TYPE, C_COUNT, C_CORES, C_MEM, C_GPUS, C_MODEL, C_FPGAS, C_COLS };

static int read_types(hsim_csv_t *c, hsim_rcluster_t *m, hsim_err_t *e)
{
    static const char *const names[C_COLS] = {"type", "count", "cores", "memory_mb",
                                              "gpus", "gpu_model", "fpgas"};
    int col[C_COLS], rc = 0;
    for (int k = 0; k < C_COLS && rc == 0; k++)
        rc = need(c, names[k], 1, &col[k], e);
    size_t cap = 0, cap2 = 0, cap3 = 0;
    while (rc == 0 && hsim_csv_next(c)) {
        double v[C_COLS];
        for (int k = C_COUNT; k < C_COLS && rc == 0; k++)
            if (k != C_MODEL)
                rc = hsim_csv_number(c, col[k], &v[k], e);
        if (rc || (rc = hsim_grow(&m->type_res, &cap, m->n_types + 1, sizeof *m->type_res)) ||
            (rc = hsim_grow(&m->type_model, &cap2, m->n_types + 1, sizeof *m->type_model)) ||
            (rc = hsim_grow(&m->type_name, &cap3, m->n_types + 1, sizeof *m->type_name)))
            break;
        hsim_strlcpy(m->type_name[m->n_types], hsim_csv_field(c, col[C_TYPE]),
                     sizeof m->type_name[0]);
        double *r = m->type_res[m->n_types];
        r[HSIM_RES_CORES] = v[C_CORES];
        r[HSIM_RES_MEM] = v[C_MEM];
        r[HSIM_RES_GPUS] = v[C_GPUS];
        r[HSIM_RES_FPGAS] = v[C_FPGAS];
        int32_t model = r[HSIM_RES_GPUS] > 0 ? model_index(m, hsim_csv_field(c, col[C_MODEL]))
                                             : -1;
        m->type_model[m->n_types++] = model;
    }
    return rc;
}

static int read_nodes(hsim_csv_t *c, hsim_rcluster_t *m, hsim_err_t *e)
{
    int col, rc = need(c, "type", 1, &col, e);
    size_t cap = 0;
    while (rc == 0 && hsim_csv_next(c)) {
        const char *name = hsim_csv_field(c, col);
        size_t t = 0;
        while (t < m->n_types && strcmp(m->type_name[t], name))
            t++;
        if (t == m->n_types)
            return hsim_errf(e, HSIM_EINPUT, "%s:%lld: node type '%.40s' is not in "
                             "cluster.csv", c->path, (long long)c->line, name);
        if ((rc = hsim_grow(&m->node_type, &cap, m->n_nodes + 1, sizeof *m->node_type)))
            break;
        m->node_type[m->n_nodes++] = (int32_t)t;
        for (int r = 0; r < HSIM_RES_KINDS; r++)
            m->total[r] += m->type_res[t][r];
        if (m->type_model[t] >= 0)
            m->model_total[m->type_model[t]] += m->type_res[t][HSIM_RES_GPUS];
    }
    return rc;
}

int hsim_rcluster_read(const char *cluster_csv, const char *nodes_csv, hsim_rcluster_t *m,
                       hsim_err_t *e)
{
    memset(m, 0, sizeof *m);
    hsim_csv_t types, nodes;
    int rc = hsim_csv_open(&types, cluster_csv, e);
    if (rc == 0)
        rc = read_types(&types, m, e);
    memset(&nodes, 0, sizeof nodes);
    if (rc == 0 && (rc = hsim_csv_open(&nodes, nodes_csv, e)) == 0)
        rc = read_nodes(&nodes, m, e);
    hsim_csv_close(&nodes);
    hsim_csv_close(&types);
    return rc;
}

void hsim_rcluster_free(hsim_rcluster_t *m)
{
    hsim_free(m->node_type);
    hsim_free(m->type_res);
    hsim_free(m->type_model);
    hsim_free(m->type_name);
    memset(m, 0, sizeof *m);
}
