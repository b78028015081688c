/*
 * gpu_traces.c - what the GPU trace readers share (a row reader over zlib
 * and libcsv, field parsers with "expected ..., found" messages) and the
 * ElasticFlow reader, the simplest of them.  Gavel is in gpu_gavel.c,
 * Alibaba in gpu_alibaba.c.
 *
 * Line numbers: libcsv reports fields and row ends but not where they are,
 * so the file is fed to it one line at a time (split here after each '\n'
 * or '\r': a line ends with \n, \r\n or a bare \r, as libcsv's rows do), and
 * the line a row starts on is the line at whose start libcsv was between
 * rows.
 * A quoted field spanning lines therefore still names the row's first line.
 * libcsv's buffers are allocated through hsim_realloc()/hsim_free(), so
 * tests see them in the live-allocation count and can make them fail.
 */
#include "gpu_rows.h"
#include "gzfile.h"

#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- row reader ---- */

typedef struct reader {
    const char *path;     /* for messages and rows */
    hsim__row_cb cb;      /* the format's row handler */
    void *ctx;            /* its state */
    hsim_err_t *e;        /* where messages go, may be NULL */
    int64_t line;         /* line being fed to libcsv, >= 1 */
    int64_t start_line;   /* line the next row would start on */
    int64_t row_line;     /* line the current row started on, 0 = none */
    int64_t rows;         /* rows handed to cb so far */
    size_t row_bytes;     /* bytes fed since the last row ended */
    char *text;           /* the current row's fields, each NUL-ended */
    size_t len, cap_text; /* bytes used / allocated in text */
    size_t *offs;         /* start of each field in text */
    size_t n, cap_offs;   /* fields so far / allocated */
    char **f;             /* field pointers handed to cb */
    size_t cap_f;         /* allocated */
    int rc;               /* first nonzero result of cb or of an allocation;
                             once set, callbacks do nothing */
} reader_t;

static void on_field(void *s, size_t len, void *data)
{
    reader_t *r = data;
    if (r->rc)
        return;
    if (!r->row_line)
        r->row_line = r->start_line;
    if (hsim_grow(&r->text, &r->cap_text, r->len + len + 1, 1) ||
        hsim_grow(&r->offs, &r->cap_offs, r->n + 1, sizeof *r->offs)) {
        r->rc = HSIM_ENOMEM;
        return;
    }
    if (len)
        memcpy(r->text + r->len, s, len);
    r->text[r->len + len] = '\0';
    r->offs[r->n++] = r->len;
    r->len += len + 1;
}

static void on_row_end(int c, void *data)
{
    reader_t *r = data;
    if (r->rc || !r->n)
        return;
    if (hsim_grow(&r->f, &r->cap_f, r->n, sizeof *r->f)) {
        r->rc = HSIM_ENOMEM;
        return;
    }
    for (size_t i = 0; i < r->n; i++)
        r->f[i] = r->text + r->offs[i];
    hsim__row_t row = {
        .path = r->path, .line = r->row_line, .index = r->rows, .n = r->n, .f = r->f,
    };
    r->rows++;
    r->rc = r->cb(r->ctx, &row, r->e);
    r->row_line = 0;
    r->len = r->n = 0;
    r->row_bytes = 0;
}

/* libcsv's parser state between rows (ROW_NOT_BEGUN in libcsv.c). */
enum { CSV_ROW_NOT_BEGUN = 0 };

/* Feeds len bytes, which hold at most one '\n' or '\r', at their end.
   *after_cr: the bytes before ended with '\r' (a "\n" now ends no line). */
static void feed(reader_t *r, struct csv_parser *p, const char *s, size_t len,
                 int *at_line_start, int *after_cr)
{
    if (*at_line_start && p->pstate == CSV_ROW_NOT_BEGUN)
        r->start_line = r->line;
    /* a row of no real trace is this long: an unclosed quote, or no text
       file (libcsv would hold it all, and grow its field for as long as
       the row goes on) */
    r->row_bytes += len;
    if (r->row_bytes > HSIM__ROW_MAX) {
        r->rc = hsim_errf(r->e, HSIM_EINPUT, "%s:%lld: a row longer than %d bytes: expected a "
                          "CSV row (an unclosed quote?)", r->path,
                          (long long)(r->row_line ? r->row_line : r->start_line), HSIM__ROW_MAX);
        return;
    }
    size_t done = csv_parse(p, s, len, on_field, on_row_end, r);
    if (done != len && !r->rc)
        r->rc = csv_error(p) == CSV_ENOMEM ? HSIM_ENOMEM
                                           : hsim_errf(r->e, HSIM_EINPUT, "%s:%lld: %s", r->path,
                                                       (long long)r->line, csv_strerror(csv_error(p)));
    char last = len ? s[len - 1] : '\0';
    int crlf_end = *after_cr && len == 1 && last == '\n';
    *after_cr = last == '\r';
    *at_line_start = last == '\n' || last == '\r';
    if (*at_line_start && p->pstate == CSV_ROW_NOT_BEGUN)
        r->row_bytes = 0; /* a blank line: no row ended, none goes on */
    if (*at_line_start && !crlf_end)
        r->line++;
}

/* The first '\n' or '\r' in [s, end), or NULL. */
static const char *line_end(const char *s, const char *end)
{
    for (; s < end; s++)
        if (*s == '\n' || *s == '\r')
            return s;
    return NULL;
}

int hsim__rows_read(const char *path, unsigned char delim, hsim__row_cb cb,
                    void *ctx, hsim_err_t *e)
{
    hsim_gz_t *gz;
    int rc = hsim_gz_open(path, &gz, e);
    if (rc)
        return rc;
    enum { CHUNK = 1 << 17 };
    char *chunk = hsim_malloc(CHUNK);
    if (!chunk) {
        hsim_gz_close(gz);
        return HSIM_ENOMEM;
    }
    struct csv_parser p;
    csv_init(&p, 0);
    csv_set_delim(&p, delim);
    if (delim == '\t')
        csv_set_quote(&p, '\0'); /* a text file holds no NUL: no quoting */
    csv_set_realloc_func(&p, hsim_realloc);
    csv_set_free_func(&p, hsim_free);
    csv_set_blk_size(&p, 1 << 16); /* its field grows by this much: 128
                                      bytes by default, a copy per 128 */
    reader_t r = {.path = path, .cb = cb, .ctx = ctx, .e = e, .line = 1, .start_line = 1};
    int at_line_start = 1, after_cr = 0, first = 1;
    while (!r.rc) {
        int got = hsim_gz_read(gz, chunk, CHUNK, (long long)r.line, e);
        if (got < 0)
            r.rc = got;
        if (got <= 0)
            break;
        /* a read fills the chunk unless the file ends: a byte order mark
           is whole in the first one */
        const char *from = chunk + (first ? hsim_bom_len(chunk, (size_t)got) : 0);
        first = 0;
        for (const char *s = from, *end = chunk + got; s < end && !r.rc;) {
            const char *nl = line_end(s, end);
            size_t len = nl ? (size_t)(nl + 1 - s) : (size_t)(end - s);
            if (memchr(s, '\0', len)) { /* a field would end at it unseen */
                r.rc = hsim_gz_nul_error(path, (long long)r.line, e);
                break;
            }
            feed(&r, &p, s, len, &at_line_start, &after_cr);
            s += len;
        }
    }
    if (!r.rc)
        csv_fini(&p, on_field, on_row_end, &r); /* a last line without '\n' */
    csv_free(&p);
    hsim_free(chunk);
    hsim_free(r.text);
    hsim_free(r.offs);
    hsim_free(r.f);
    hsim_gz_close(gz);
    return r.rc < 0 ? r.rc : 0;
}

/* ---- headers and fields ---- */

int hsim__header_find(const hsim__row_t *r, const hsim__column_t *cols,
                      size_t count, int *index, hsim_err_t *e)
{
    for (size_t c = 0; c < count; c++) {
        index[c] = -1;
        for (size_t i = 0; i < r->n; i++) {
            if (strcmp(r->f[i], cols[c].name))
                continue;
            if (index[c] >= 0) /* which one would hold? */
                return hsim_errf(e, HSIM_EINPUT, "%s:%lld: column '%s' given twice in the "
                                 "header (fields %d and %zu): expected it once",
                                 r->path, (long long)r->line, cols[c].name, index[c] + 1,
                                 i + 1);
            index[c] = (int)i;
        }
        if (index[c] >= 0 || !cols[c].required)
            continue;
        char found[160];
        size_t used = 0;
        for (size_t i = 0; i < r->n && used < sizeof found; i++)
            used += (size_t)snprintf(found + used, sizeof found - used, "%s%s",
                                     i ? "," : "", r->f[i]);
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: expected a header with column '%s', found '%s'",
                         r->path, (long long)r->line, cols[c].name, found);
    }
    return 0;
}

static int bad_field(const hsim__row_t *r, size_t i, const char *name, char *why,
                     size_t size, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* "field N (name): expected <fmt>, found '<text>'" */
static int bad_field(const hsim__row_t *r, size_t i, const char *name, char *why,
                     size_t size, const char *fmt, ...)
{
    int used = snprintf(why, size, "field %zu (%s): expected ", i + 1, name);
    if (used < 0 || (size_t)used >= size)
        return HSIM_EINPUT;
    va_list ap;
    va_start(ap, fmt);
    int more = vsnprintf(why + used, size - (size_t)used, fmt, ap);
    va_end(ap);
    if (more < 0 || (size_t)(used + more) >= size)
        return HSIM_EINPUT;
    snprintf(why + used + more, size - (size_t)(used + more), ", found '%.40s'", r->f[i]);
    return HSIM_EINPUT;
}

int hsim__field_int(const hsim__row_t *r, size_t i, const char *name,
                    int64_t min, int64_t max, int64_t *out, char *why,
                    size_t size)
{
    const char *s = r->f[i];
    int neg = (*s == '-');
    if (*s == '-' || *s == '+')
        s++;
    int64_t v = 0;
    int overflow = 0;
    const char *digits = s;
    for (; *s >= '0' && *s <= '9'; s++) {
        int d = *s - '0';
        if (v > (INT64_MAX - d) / 10) /* INT64_MAX itself is read */
            overflow = 1;
        else
            v = v * 10 + d;
    }
    if (s == digits || *s)
        return bad_field(r, i, name, why, size, "an integer");
    if (neg)
        v = -v;
    /* "from 1 to 2147483647" reads worse than ">= 1" for a negative count */
    if (v < min && !overflow && max >= INT32_MAX)
        return bad_field(r, i, name, why, size, "an integer >= %lld", (long long)min);
    if (overflow || v < min || v > max)
        return bad_field(r, i, name, why, size, "an integer from %lld to %lld",
                         (long long)min, (long long)max);
    *out = v;
    return 0;
}

int hsim__field_seconds(const hsim__row_t *r, size_t i, const char *name,
                        hsim_time_t *out, char *why, size_t size)
{
    int64_t v;
    const char *end;
    int inexact;
    int rc = hsim_parse_fixed6(r->f[i], &v, &end, &inexact);
    if (rc == -1 || *end)
        return bad_field(r, i, name, why, size, "seconds (a decimal number)");
    if (v < 0)
        return bad_field(r, i, name, why, size, "seconds >= 0");
    if (rc == -2 || v > HSIM_MAX_SECONDS * HSIM_SECOND)
        return bad_field(r, i, name, why, size, "seconds up to %lld (317 years)",
                         (long long)HSIM_MAX_SECONDS);
    *out = v;
    return 0;
}

int hsim__field_double(const hsim__row_t *r, size_t i, const char *name,
                       double min, double max, double *out, char *why, size_t size)
{
    const char *s = r->f[i];
    char *end;
    double v = *s ? hsim_strtod(s, &end) : 0;
    if (!*s || *end || !isfinite(v))
        return bad_field(r, i, name, why, size, "a number");
    if (v < min || v > max)
        return bad_field(r, i, name, why, size, "a number from %g to %g", min, max);
    *out = v;
    return 0;
}

int hsim__field_text(const hsim__row_t *r, size_t i, const char *name,
                     char *out, size_t size_out, char *why, size_t size)
{
    size_t len = strlen(r->f[i]);
    if (!len || len >= size_out)
        return bad_field(r, i, name, why, size, "a text of 1 to %zu characters", size_out - 1);
    memcpy(out, r->f[i], len + 1);
    return 0;
}

int hsim__field_models(const hsim__row_t *r, size_t i, const char *name, hsim_workload_t *w,
                       uint32_t *mask, char *why, size_t size)
{
    *mask = 0;
    for (const char *s = r->f[i];;) {
        size_t len = strcspn(s, "|"), next = len;
        while (*s == ' ' && len > 0)
            s++, len--, next--;
        while (len > 0 && s[len - 1] == ' ')
            len--;
        char model[HSIM_LABEL_MAX];
        int m = -1;
        if (len > 0 && len < sizeof model) {
            memcpy(model, s, len);
            model[len] = '\0';
            m = hsim_workload_model(w, model);
        }
        if (m < 0) {
            snprintf(why, size, "field %zu (%s): expected up to %d GPU model names of "
                                "1 to %d characters separated by '|', found '%.40s'",
                     i + 1, name, HSIM_MAX_MODELS, HSIM_LABEL_MAX - 1, r->f[i]);
            return HSIM_EINPUT;
        }
        *mask |= UINT32_C(1) << m;
        if (!s[next])
            return 0;
        s += next + 1;
    }
}

int hsim__row_fields(const hsim__row_t *r, size_t n, char *why, size_t size)
{
    if (r->n == n)
        return 0;
    snprintf(why, size, "expected %zu fields, found %zu", n, r->n);
    return HSIM_EINPUT;
}

int hsim__row_bad(const hsim__row_t *r, int64_t id, int skip, const char *why,
                  hsim_workload_t *w, hsim_err_t *e)
{
    if (skip)
        return hsim_workload_reject(w, id, r->line, why);
    return hsim_errf(e, HSIM_EINPUT, "%s:%lld: %s", r->path, (long long)r->line, why);
}

int hsim__workload_finish(hsim_workload_t *w, int rc)
{
    if (rc)
        hsim_workload_free(w);
    else
        hsim_workload_sort(w);
    return rc;
}

/* ---- ElasticFlow ---- */

enum { EF_ID, EF_SUBMIT, EF_DURATION, EF_GPUS, EF_COLUMNS };

static const hsim__column_t ef_columns[EF_COLUMNS] = {
    {"job_id", 1}, {"submission_time", 1}, {"duration", 1}, {"num_gpu", 1},
};

/* A job_id seen, in ef_state_t's table. */
typedef struct ef_seen {
    char *id;                   /* owned copy; NULL = a free slot */
    int64_t line;               /* the line of its first row */
} ef_seen_t;

typedef struct ef_state {
    hsim_gpu_read_options_t o;  /* copy; zeros when the caller gave none */
    hsim_workload_t *w;         /* being filled */
    int col[EF_COLUMNS];        /* field index of each column */
    size_t fields;              /* fields of the header, so of every row */
    ef_seen_t *seen;            /* the job_ids of the jobs read: open
                                   addressing, linear probing, by FNV-1a */
    size_t n_seen, cap_seen;    /* used, slots (0 or a power of two) */
} ef_state_t;

static uint64_t fnv1a(const char *s)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return h;
}

/* The slot of id in a table of cap slots: where it is, or the free slot
   where it would go. */
static ef_seen_t *seen_slot(ef_seen_t *t, size_t cap, const char *id)
{
    size_t i = (size_t)fnv1a(id) & (cap - 1);
    while (t[i].id && strcmp(t[i].id, id))
        i = (i + 1) & (cap - 1);
    return &t[i];
}

/* Records id, first seen at line: 0; or 1 when an earlier row had it
   (*first: that row's line); or HSIM_ENOMEM.  O(1) on average: the table
   doubles when half full. */
static int seen_add(ef_state_t *st, const char *id, int64_t line, int64_t *first)
{
    if (2 * (st->n_seen + 1) > st->cap_seen) {
        size_t cap = st->cap_seen ? 2 * st->cap_seen : 1024;
        ef_seen_t *t = hsim_calloc(cap, sizeof *t);
        if (!t)
            return HSIM_ENOMEM;
        for (size_t i = 0; i < st->cap_seen; i++)
            if (st->seen[i].id)
                *seen_slot(t, cap, st->seen[i].id) = st->seen[i];
        hsim_free(st->seen);
        st->seen = t;
        st->cap_seen = cap;
    }
    ef_seen_t *slot = seen_slot(st->seen, st->cap_seen, id);
    if (slot->id) {
        *first = slot->line;
        return 1;
    }
    if (!(slot->id = hsim_strdup(id)))
        return HSIM_ENOMEM;
    slot->line = line;
    st->n_seen++;
    return 0;
}

static void seen_free(ef_state_t *st)
{
    for (size_t i = 0; i < st->cap_seen; i++)
        hsim_free(st->seen[i].id);
    hsim_free(st->seen);
}

static int ef_row(void *ctx, const hsim__row_t *r, hsim_err_t *e)
{
    ef_state_t *st = ctx;
    if (r->index == 0) {
        st->fields = r->n;
        return hsim__header_find(r, ef_columns, EF_COLUMNS, st->col, e);
    }
    hsim_workload_t *w = st->w;
    w->n_input++;
    int64_t id = r->index; /* data row number; the trace's UUID is the job's name */
    char why[160];
    hsim_job_t j;
    hsim_job_init(&j);
    j.id = id;
    j.line = r->line;
    int64_t gpus = 0;
    size_t rejected = w->n_rejected;
    int rc = hsim__row_fields(r, st->fields, why, sizeof why);
    if (rc == 0)
        rc = hsim_workload_name(w, r->f[st->col[EF_ID]], &j.name);
    if (rc == HSIM_ENOMEM)
        return rc;
    if (rc ||
        hsim__field_seconds(r, (size_t)st->col[EF_SUBMIT], "submission_time", &j.submit,
                            why, sizeof why) ||
        hsim__field_seconds(r, (size_t)st->col[EF_DURATION], "duration", &j.runtime,
                            why, sizeof why) ||
        hsim__field_int(r, (size_t)st->col[EF_GPUS], "num_gpu", 1, INT32_MAX, &gpus,
                        why, sizeof why)) {
        rc = hsim__row_bad(r, id, st->o.skip_bad_rows, why, w, e);
    } else if (j.runtime <= 0) {
        size_t i = (size_t)st->col[EF_DURATION];
        snprintf(why, sizeof why, "field %zu (duration): expected seconds > 0, found '%.40s'",
                 i + 1, r->f[i]);
        rc = hsim__row_bad(r, id, st->o.skip_bad_rows, why, w, e);
    } else {
        /* jobs.csv numbers the jobs by row, so a repeated job_id would run
           the job twice without a word: an error, as a repeated SWF job
           number is */
        const char *name = r->f[st->col[EF_ID]];
        int64_t first = 0;
        rc = seen_add(st, name, r->line, &first);
        if (rc == 1) {
            snprintf(why, sizeof why,
                     "field %d (job_id): '%.40s' again (first at line %lld): expected each "
                     "job once", st->col[EF_ID] + 1, name, (long long)first);
            rc = hsim__row_bad(r, id, st->o.skip_bad_rows, why, w, e);
        } else if (rc == 0) {
            j.estimate = j.runtime;
            j.gpus = j.procs = (int32_t)gpus;
            j.gpu_milli = 1000;
            rc = hsim_workload_add(w, &j);
        }
    }
    if (rc)
        return rc;
    if (w->n_rejected > rejected)
        w->rejected[rejected].name = j.name;
    return st->o.max_jobs && w->n_input >= st->o.max_jobs;
}

int hsim_elasticflow_read(const char *path, const hsim_gpu_read_options_t *o,
                          hsim_workload_t *w, hsim_err_t *e)
{
    ef_state_t st = {.w = w};
    if (o)
        st.o = *o;
    int rc = hsim__rows_read(path, ',', ef_row, &st, e);
    seen_free(&st);
    if (!rc && st.fields == 0)
        rc = hsim_errf(e, HSIM_EINPUT, "%s:1: expected a header (job_id,submission_time,"
                                       "duration,num_gpu), found an empty file", path);
    return hsim__workload_finish(w, rc);
}
