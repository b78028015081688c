/*
 * swf.c - the Standard Workload Format reader.
 *
 * The file is read through zlib in large chunks and split into lines here,
 * which reads plain and gzip files alike and costs about one pass over the
 * bytes.  Numbers are parsed by hand: SWF has 18 of them per line and RICC
 * has 447,794 lines, so strtod's locale handling would dominate.  A number may
 * carry a fraction ("12.5"); time fields keep it exactly (in microseconds),
 * count fields reject it.
 */
#include "swf.h"

#include "gzfile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const field_names[HSIM_SWF_FIELDS] = {
    "job number", "submit time", "wait time", "run time",
    "allocated processors", "average CPU time", "used memory",
    "requested processors", "requested time", "requested memory", "status",
    "user id", "group id", "executable number", "queue number",
    "partition number", "preceding job", "think time",
};

/* Fields that hold times (seconds, kept to the microsecond). */
static int is_time_field(int f) { return f == 1 || f == 2 || f == 3 || f == 8 || f == 17; }
/* Fields whose value may have a fraction but that hsim does not use. */
static int is_ignored_field(int f) { return f == 5 || f == 6 || f == 9; }

/* A number at s (no leading blanks) that ends at a blank or at the end of
   the line, as hsim_parse_fixed6() reads it: 0; -2 for one past its range
   (*out saturated); -1 for anything else. */
static int parse_fixed(const char *s, int64_t *out, const char **end, int *inexact)
{
    int rc = hsim_parse_fixed6(s, out, end, inexact);
    const char *e = *end;
    return rc == -1 || (*e && *e != ' ' && *e != '\t' && *e != '\r') ? -1 : rc;
}

/* How much of the field at s an error message quotes: up to 40 bytes. */
static int shown(const char *s)
{
    size_t len = strcspn(s, " \t\r");
    return (int)(len > 40 ? 40 : len);
}

static int add_record(hsim_swf_trace_t *t, const hsim_swf_record_t *r)
{
    if (hsim_grow(&t->records, &t->cap_records, t->n_records + 1,
                  sizeof *t->records))
        return HSIM_ENOMEM;
    t->records[t->n_records++] = *r;
    return 0;
}

static void copy_text(char *dst, size_t size, const char *src)
{
    while (*src == ' ' || *src == '\t')
        src++;
    size_t n = strcspn(src, "\r\n");
    while (n > 0 && (src[n - 1] == ' ' || src[n - 1] == '\t'))
        n--;
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* "; Key: value" comments: the header facts hsim uses. */
static int parse_header_line(const char *text, const char *name, int64_t lineno,
                             hsim_swf_header_t *h, hsim_err_t *e)
{
    static const struct {
        const char *key;
        size_t offset;
        int count; /* a count: not negative, or -1 for unknown, as in the
                      job fields (pyss writes "MaxNodes: -1") */
        long long max; /* the largest value */
    } numeric[] = {
        {"MaxProcs", offsetof(hsim_swf_header_t, max_procs), 1, INT32_MAX}, /* a machine */
        {"MaxNodes", offsetof(hsim_swf_header_t, max_nodes), 1, INT32_MAX},
        {"MaxJobs", offsetof(hsim_swf_header_t, max_jobs), 1, LLONG_MAX},
        {"MaxRecords", offsetof(hsim_swf_header_t, max_records), 1, LLONG_MAX},
        {"UnixStartTime", offsetof(hsim_swf_header_t, unix_start_time), 0, LLONG_MAX},
        {"TimeZone", offsetof(hsim_swf_header_t, time_zone), 0, LLONG_MAX},
    };
    const char *s = text + 1;
    while (*s == ' ' || *s == '\t')
        s++;
    const char *colon = strchr(s, ':');
    if (!colon)
        return 0; /* free-form comment */
    size_t klen = (size_t)(colon - s);
    while (klen > 0 && (s[klen - 1] == ' ' || s[klen - 1] == '\t'))
        klen--; /* "MaxProcs : 64" */
    const char *value = colon + 1;
    for (size_t i = 0; i < sizeof numeric / sizeof numeric[0]; i++) {
        if (strlen(numeric[i].key) != klen || strncmp(s, numeric[i].key, klen))
            continue;
        while (*value == ' ' || *value == '\t')
            value++;
        char *end;
        errno = 0;
        long long v = strtoll(value, &end, 10);
        while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
            end++;
        if (end == value || *end || errno || (numeric[i].count && v < -1))
            return hsim_errf(e, HSIM_EINPUT,
                             "%s:%lld: header '%s': expected %s, found '%.40s'",
                             name, (long long)lineno, numeric[i].key,
                             numeric[i].count ? "a count >= 0, or -1 for unknown" : "an integer",
                             value);
        if (v > numeric[i].max)
            return hsim_errf(e, HSIM_EINPUT,
                             "%s:%lld: header '%s': expected a count up to %lld, found '%.40s'",
                             name, (long long)lineno, numeric[i].key, numeric[i].max, value);
        int64_t *field = (int64_t *)((char *)h + numeric[i].offset);
        if ((h->numeric_seen & 1u << i) && *field != v) /* which one would hold? */
            return hsim_errf(e, HSIM_EINPUT,
                             "%s:%lld: header '%s' given again: expected %lld, as above, found "
                             "'%.40s'", name, (long long)lineno, numeric[i].key,
                             (long long)*field, value);
        h->numeric_seen |= 1u << i;
        *field = v;
        return 0;
    }
    if (klen == 14 && !strncmp(s, "TimeZoneString", 14))
        copy_text(h->time_zone_string, sizeof h->time_zone_string, value);
    else if (klen == 8 && !strncmp(s, "Computer", 8))
        copy_text(h->computer, sizeof h->computer, value);
    else if (klen == 12 && !strncmp(s, "Installation", 12))
        copy_text(h->installation, sizeof h->installation, value);
    else if (klen == 7 && !strncmp(s, "Version", 7))
        copy_text(h->version, sizeof h->version, value);
    return 0;
}

int hsim_swf_extra_parse(const char *name, hsim_swf_extra_t *out)
{
    static const char *const names[] = {"detect", "ignore", "error"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(name, names[i])) {
            *out = (hsim_swf_extra_t)i;
            return 0;
        }
    return -1;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The fields of s (blank-separated, s not blank), at most max of them in
   f[] and len[]; returns how many there are in all. */
static int split_fields(const char *s, const char **f, size_t *len, int max)
{
    int n = 0;
    while (*s) {
        const char *start = s;
        while (*s && !is_blank(*s))
            s++;
        if (n < max) {
            f[n] = start;
            len[n] = (size_t)(s - start);
        }
        n++;
        while (is_blank(*s))
            s++;
    }
    return n;
}

/* Alea's three extra fields (swf.h): the queue's name is letters, digits,
   '_', '-', '.' or '@', with a letter (a number there is no queue name:
   the line is more likely cut or joined); the other two are any text
   without blanks, nodes as "zewura7:zewura8", properties as "linux:nfs4". */
static int alea_layout(const char *const *f, const size_t *len)
{
    int letter = 0;
    for (size_t i = 0; i < len[1]; i++) {
        char c = f[1][i];
        if (!isalnum((unsigned char)c) && !strchr("_-.@", c))
            return 0;
        letter |= isalpha((unsigned char)c) != 0;
    }
    return letter && len[1] <= 63;
}

/* The fields past the 18th at s (not blank): 0 when extra lets them be,
   else the error, which counts the line's fields. */
static int extra_fields(const char *s, const char *name, int64_t lineno,
                        hsim_swf_extra_t extra, hsim_swf_trace_t *t, hsim_err_t *e)
{
    if (extra == HSIM_SWF_EXTRA_IGNORE) {
        t->n_extended++;
        return 0;
    }
    const char *f[3];
    size_t len[3];
    int n = split_fields(s, f, len, 3);
    if (extra == HSIM_SWF_EXTRA_DETECT && n == 3 && alea_layout(f, len)) {
        t->n_extended++;
        return 0;
    }
    if (extra == HSIM_SWF_EXTRA_ERROR)
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: expected %d fields, found %d (swf_extra = "
                         "error)", name, (long long)lineno, HSIM_SWF_FIELDS,
                         HSIM_SWF_FIELDS + n);
    return hsim_errf(e, HSIM_EINPUT,
                     "%s:%lld: expected %d fields, or %d in Alea's extended SWF (nodes used, a "
                     "queue name, node properties), found %d (swf_extra = ignore skips extra "
                     "fields)", name, (long long)lineno, HSIM_SWF_FIELDS, HSIM_SWF_FIELDS + 3,
                     HSIM_SWF_FIELDS + n);
}

static int parse_job_line(const char *s, const char *name, int64_t lineno,
                          hsim_swf_extra_t extra, hsim_swf_trace_t *t, hsim_err_t *e)
{
    int64_t v[HSIM_SWF_FIELDS];
    int n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (!*s)
            break;
        const char *end;
        if (n == HSIM_SWF_FIELDS) {
            int rc = extra_fields(s, name, lineno, extra, t, e);
            if (rc)
                return rc;
            break;
        }
        int inexact;
        int rc = parse_fixed(s, &v[n], &end, &inexact);
        if (rc == -1)
            return hsim_errf(e, HSIM_EINPUT,
                             "%s:%lld: field %d (%s): expected a decimal number (digits, "
                             "a sign, a point; no exponent), found '%.*s'",
                             name, (long long)lineno, n + 1, field_names[n], shown(s), s);
        /* past the fixed-point range: the checks below name the range of
           a time or a count that is too large; the rest is said here */
        if (rc == -2 && (v[n] < 0 || n == 0 || n == 16 || is_ignored_field(n)))
            return hsim_errf(e, HSIM_EINPUT,
                             "%s:%lld: field %d (%s): number out of range, found '%.*s'",
                             name, (long long)lineno, n + 1, field_names[n], shown(s), s);
        if (is_time_field(n) && v[n] > HSIM_MAX_SECONDS * 1000000)
            return hsim_errf(e, HSIM_EINPUT,
                             "%s:%lld: field %d (%s): expected seconds up to %lld (317 years), "
                             "found '%.*s'",
                             name, (long long)lineno, n + 1, field_names[n],
                             (long long)HSIM_MAX_SECONDS, shown(s), s);
        if (!is_time_field(n) && !is_ignored_field(n)) {
            if (rc == 0 && (inexact || v[n] % 1000000 != 0))
                return hsim_errf(e, HSIM_EINPUT,
                                 "%s:%lld: field %d (%s): expected an integer, found '%.*s'",
                                 name, (long long)lineno, n + 1, field_names[n], shown(s), s);
            v[n] /= 1000000;
            if (n != 0 && n != 16 && (v[n] > INT32_MAX || v[n] < -1))
                return hsim_errf(e, HSIM_EINPUT,
                                 "%s:%lld: field %d (%s): expected -1 or a count up to %d, "
                                 "found '%.*s'",
                                 name, (long long)lineno, n + 1, field_names[n], INT32_MAX,
                                 shown(s), s);
        }
        s = end;
        n++;
    }
    if (n != HSIM_SWF_FIELDS)
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: expected %d fields, found %d",
                         name, (long long)lineno, HSIM_SWF_FIELDS, n);
    hsim_swf_record_t r = {
        .line = lineno,
        .id = v[0],
        .submit = v[1],
        .wait = v[2],
        .run = v[3],
        .alloc_procs = (int32_t)v[4],
        .req_procs = (int32_t)v[7],
        .req_time = v[8],
        .status = (int32_t)v[10],
        .user = (int32_t)v[11],
        .group = (int32_t)v[12],
        .app = (int32_t)v[13],
        .queue = (int32_t)v[14],
        .partition = (int32_t)v[15],
        .preceding = v[16],
        .think = v[17],
    };
    return add_record(t, &r);
}

/* Handles one line of len bytes (without its newline; a NUL follows it).
   1 = stop (max_jobs reached). */
static int parse_line(char *line, size_t len, const char *name, int64_t lineno,
                      size_t max_jobs, hsim_swf_extra_t extra, hsim_swf_trace_t *t,
                      hsim_err_t *e)
{
    if (len && line[len - 1] == '\r')
        line[--len] = '\0'; /* CRLF */
    /* the rest of the line would be lost without a word: what follows a
       NUL, and with lines ended by CR alone, the whole file after a
       comment */
    if (memchr(line, '\0', len))
        return hsim_gz_nul_error(name, (long long)lineno, e);
    if (memchr(line, '\r', len))
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: a carriage return inside the line: "
                         "expected lines ended by a line feed (are they ended by CR alone, "
                         "as on old Macs?)", name, (long long)lineno);
    const char *s = line;
    if (lineno == 1)
        s += hsim_bom_len(s, strlen(s));
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    if (!*s)
        return 0;
    if (*s == ';')
        return parse_header_line(s, name, lineno, &t->header, e);
    int rc = parse_job_line(s, name, lineno, extra, t, e);
    if (rc == 0 && max_jobs && t->n_records >= max_jobs)
        return 1;
    return rc;
}

/* Job numbers are unique (jobs.csv names jobs by them): an error at the
   first line, in file order, whose number an earlier line has. */
static int check_ids(const hsim_swf_trace_t *t, const char *name, hsim_err_t *e)
{
    size_t n = t->n_records, i = 1;
    while (i < n && t->records[i].id > t->records[i - 1].id)
        i++;
    if (i >= n)
        return 0; /* rising, as in every archive trace: no copy */
    hsim_id_line_t *v = hsim_malloc(n * sizeof *v);
    if (!v)
        return HSIM_ENOMEM;
    for (size_t k = 0; k < n; k++)
        v[k] = (hsim_id_line_t){t->records[k].id, t->records[k].line};
    int64_t id, line, first;
    int rc = 0;
    if (hsim_id_repeat(v, n, &id, &line, &first))
        rc = hsim_errf(e, HSIM_EINPUT,
                       "%s:%lld: job number %lld again (first at line %lld): field 1 numbers "
                       "the jobs and must not repeat",
                       name, (long long)line, (long long)id, (long long)first);
    hsim_free(v);
    return rc;
}

static void trace_init(hsim_swf_trace_t *t)
{
    hsim_workload_t w;
    hsim_workload_init(&w); /* for its header defaults */
    memset(t, 0, sizeof *t);
    t->header = w.header;
}

int hsim_swf_read(const char *path, size_t max_jobs, hsim_swf_trace_t *t,
                  hsim_err_t *e)
{
    return hsim_swf_read_extra(path, max_jobs, HSIM_SWF_EXTRA_DETECT, t, e);
}

int hsim_swf_read_extra(const char *path, size_t max_jobs, hsim_swf_extra_t extra,
                        hsim_swf_trace_t *t, hsim_err_t *e)
{
    trace_init(t);
    hsim_gz_t *gz;
    int rc = hsim_gz_open(path, &gz, e);
    if (rc)
        return rc;
    enum { CHUNK = 1 << 18 };
    char *buf = hsim_malloc(CHUNK + 1);
    if (!buf) {
        hsim_gz_close(gz);
        return HSIM_ENOMEM;
    }
    size_t have = 0;
    int64_t lineno = 0;
    int eof = 0;
    while (rc == 0 && !eof) {
        int got = hsim_gz_read(gz, buf + have, CHUNK - have, (long long)lineno + 1, e);
        if (got < 0) {
            rc = got;
            break;
        }
        eof = got == 0;
        have += (size_t)got;
        buf[have] = '\0';
        char *p = buf, *nl;
        while (rc == 0 && (nl = memchr(p, '\n', have - (size_t)(p - buf)))) {
            *nl = '\0';
            rc = parse_line(p, (size_t)(nl - p), path, ++lineno, max_jobs, extra, t, e);
            p = nl + 1;
        }
        if (rc)
            break;
        size_t rest = have - (size_t)(p - buf);
        if (eof && rest) {
            rc = parse_line(p, rest, path, ++lineno, max_jobs, extra, t, e);
            rest = 0;
        } else if (rest == CHUNK) {
            rc = hsim_errf(e, HSIM_EINPUT, "%s:%lld: line longer than %d bytes",
                           path, (long long)lineno + 1, CHUNK);
        }
        memmove(buf, p, rest);
        have = rest;
    }
    hsim_free(buf);
    hsim_gz_close(gz);
    if (rc == 1)
        rc = 0; /* stopped at max_jobs */
    if (rc == 0)
        rc = check_ids(t, path, e);
    if (rc)
        hsim_swf_trace_free(t);
    return rc;
}

int hsim_swf_parse_string(const char *text, const char *name, size_t max_jobs,
                          hsim_swf_trace_t *t, hsim_err_t *e)
{
    return hsim_swf_parse_string_extra(text, name, max_jobs, HSIM_SWF_EXTRA_DETECT, t, e);
}

int hsim_swf_parse_string_extra(const char *text, const char *name, size_t max_jobs,
                                hsim_swf_extra_t extra, hsim_swf_trace_t *t, hsim_err_t *e)
{
    trace_init(t);
    char *copy = hsim_strdup(text);
    if (!copy)
        return HSIM_ENOMEM;
    int64_t lineno = 0;
    int rc = 0;
    for (char *p = copy; rc == 0 && p && *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        rc = parse_line(p, strlen(p), name, ++lineno, max_jobs, extra, t, e);
        p = nl ? nl + 1 : NULL;
    }
    hsim_free(copy);
    if (rc == 1)
        rc = 0;
    if (rc == 0)
        rc = check_ids(t, name, e);
    if (rc)
        hsim_swf_trace_free(t);
    return rc;
}

void hsim_swf_trace_free(hsim_swf_trace_t *t)
{
    hsim_free(t->records);
    t->records = NULL;
    t->n_records = t->cap_records = 0;
}
