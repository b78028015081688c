/*
 * swf_write.c - writing a workload out: as SWF (what hsim_swf_read reads
 * back, so a synthetic workload can be replayed, shared or fed to other
 * simulators) and as a CSV of jobs with the multi-resource fields SWF has no
 * room for (GPUs, memory, FPGAs, class).
 *
 * Times print as whole seconds when they are whole, else with up to six
 * decimals, which the reader keeps exactly; so a write-read round trip is
 * lossless for the fields SWF carries.  A path ending in ".gz" is written
 * gzip-compressed.  Cost: one formatted line per job, O(n).
 */
#include "swf.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <string.h>
#include <zlib.h>

/* A plain or gzip output file, written as <path>.part and renamed when
   whole, so that a cut-off trace never passes for a shorter one; a pipe,
   /dev/stdout or a device in place (see hsim_publish()). */
typedef struct sink {
    FILE *f;              /* plain file, or NULL */
    gzFile gz;            /* gzip file, or NULL */
    int failed;           /* 1 once a write failed... */
    int err;              /* ...and errno then, when it was set */
    char part[HSIM_PART_PATH_MAX]; /* the file written: <path>.part, or
                                      "" when path itself */
} sink_t;

static int sink_open(sink_t *s, const char *path, hsim_err_t *e)
{
    memset(s, 0, sizeof *s);
    if (hsim_part_path(s->part, sizeof s->part, path, e))
        return HSIM_EIO;
    const char *file = s->part[0] ? s->part : path;
    errno = 0;
    if (hsim_ends_with(path, ".gz")) {
        s->gz = gzopen(file, "wb6");
        if (s->gz)
            gzbuffer(s->gz, 1 << 17);
    } else {
        s->f = fopen(file, "w");
    }
    if (!s->f && !s->gz)
        return hsim_publish(s->part, path,
                            hsim_errf(e, HSIM_EIO, "%s: cannot open for writing: %s", path,
                                      errno ? strerror(errno) : "zlib error"),
                            e);
    return 0;
}

static void sink_put(sink_t *s, const char *text, size_t len)
{
    if (s->failed || !len)
        return;
    errno = 0;
    if (s->f)
        s->failed = fwrite(text, 1, len, s->f) != len;
    else
        s->failed = gzwrite(s->gz, text, (unsigned)len) != (int)len;
    if (s->failed)
        s->err = errno;
}

static void sink_printf(sink_t *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void sink_printf(sink_t *s, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf) {
        s->failed = 1; /* our lines are far shorter: a bug, not data */
        return;
    }
    sink_put(s, buf, (size_t)n);
}

static int sink_close(sink_t *s, const char *path, hsim_err_t *e)
{
    int failed = s->failed;
    errno = 0;
    if (s->f)
        failed |= fclose(s->f) != 0;
    else
        failed |= gzclose(s->gz) != Z_OK;
    int err = s->err ? s->err : errno; /* the first failure's reason */
    int rc = failed ? hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path,
                                err ? strerror(err) : "write error")
                    : 0;
    return hsim_publish(s->part, path, rc, e);
}

/* Header text fields are single lines: a newline would end the comment. */
static void put_header_text(sink_t *s, const char *key, const char *value)
{
    if (!value[0])
        return;
    char buf[300];
    size_t n = 0;
    for (; n < sizeof buf - 1 && value[n]; n++)
        buf[n] = value[n] == '\n' || value[n] == '\r' ? ' ' : value[n];
    buf[n] = '\0';
    sink_printf(s, "; %s: %s\n", key, buf);
}

static void put_header(sink_t *s, const hsim_workload_t *w)
{
    const hsim_swf_header_t *h = &w->header;
    sink_printf(s, "; Version: %s\n", h->version[0] ? h->version : "2.2");
    put_header_text(s, "Computer", h->computer); /* a GPU trace's is unknown */
    put_header_text(s, "Installation", h->installation);
    sink_printf(s, "; MaxJobs: %zu\n; MaxRecords: %zu\n", w->n_jobs, w->n_jobs);
    if (h->max_procs > 0)
        sink_printf(s, "; MaxProcs: %" PRId64 "\n", h->max_procs);
    if (h->max_nodes > 0)
        sink_printf(s, "; MaxNodes: %" PRId64 "\n", h->max_nodes);
    if (h->unix_start_time != HSIM_HEADER_ABSENT)
        sink_printf(s, "; UnixStartTime: %" PRId64 "\n", h->unix_start_time);
    if (h->time_zone != HSIM_HEADER_ABSENT)
        sink_printf(s, "; TimeZone: %" PRId64 "\n", h->time_zone);
    put_header_text(s, "TimeZoneString", h->time_zone_string);
    put_header_text(s, "Note", h->note[0] ? h->note : "written by hsim " HSIM_VERSION);
    sink_printf(s, ";\n");
}

int hsim_swf_write(const char *path, const hsim_workload_t *w, hsim_err_t *e)
{
    sink_t s;
    int rc = sink_open(&s, path, e);
    if (rc)
        return rc;
    put_header(&s, w);
    for (size_t i = 0; i < w->n_jobs && !s.failed; i++) {
        const hsim_job_t *j = &w->jobs[i];
        char submit[32], run[32], req[32], think[32];
        hsim_format_time(submit, sizeof submit, j->submit);
        hsim_format_time(run, sizeof run, j->runtime);
        hsim_format_time(req, sizeof req, j->estimate);
        if (j->think >= 0) /* kept even without a preceding job */
            hsim_format_time(think, sizeof think, j->think);
        else
            snprintf(think, sizeof think, "-1");
        long long mem_kb = j->mem_mb > 0 && j->procs > 0
                               ? (j->mem_mb * 1024 + j->procs / 2) / j->procs
                               : -1;
        /* 1 id, 2 submit, 3 wait, 4 run, 5 alloc, 6 cpu, 7 mem used, 8 req
           procs, 9 req time, 10 req mem, 11 status, 12 user, 13 group,
           14 app, 15 queue, 16 partition, 17 preceding, 18 think */
        sink_printf(&s, "%" PRId64 " %s -1 %s %d -1 -1 %d %s %lld %d %d %d %d %d %d %" PRId64
                        " %s\n",
                    j->id, submit, run, j->procs, j->procs, req, mem_kb,
                    j->killed_at_estimate ? 0 : 1, j->user, j->group, j->app, j->queue,
                    j->partition, j->after > 0 ? j->after : -1, think);
    }
    return sink_close(&s, path, e);
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void put_csv_text(sink_t *s, const char *text)
{
    if (!strpbrk(text, ",\"\r\n")) {
        sink_put(s, text, strlen(text));
        return;
    }
    sink_put(s, "\"", 1);
    for (const char *p = text; *p; p++)
        sink_put(s, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1);
    sink_put(s, "\"", 1);
}

int hsim_csv_write_jobs(const char *path, const hsim_workload_t *w, hsim_err_t *e)
{
    sink_t s;
    int rc = sink_open(&s, path, e);
    if (rc)
        return rc;
    sink_printf(&s, "job_id,submit,runtime,estimate,procs,gpus,gpu_milli,mem_mb,fpgas,"
                    "class,user,gpu_models,group,app,queue,partition,nodes,cores_per_node,"
                    "after,think,killed,trace_id\n");
    for (size_t i = 0; i < w->n_jobs && !s.failed; i++) {
        const hsim_job_t *j = &w->jobs[i];
        char submit[32], run[32], est[32];
        sink_printf(&s, "%" PRId64 ",%s,%s,%s,%d,%d,%d,%" PRId64 ",%d,", j->id,
                    hsim_format_time(submit, sizeof submit, j->submit),
                    hsim_format_time(run, sizeof run, j->runtime),
                    hsim_format_time(est, sizeof est, j->estimate), j->procs, j->gpus,
                    j->gpu_milli, j->mem_mb, j->fpgas);
        if (j->job_class >= 0 && (size_t)j->job_class < w->n_classes)
            put_csv_text(&s, w->classes[j->job_class]);
        sink_printf(&s, ",%d,", j->user);
        /* the GPU models it accepts, as an Alibaba trace lists them
           ("V100M16|V100M32"); empty: any */
        char models[HSIM_MAX_MODELS * HSIM_LABEL_MAX] = "";
        size_t len = 0;
        for (size_t m = 0; m < w->n_models && len < sizeof models; m++)
            if (j->gpu_models & (1u << m))
                len += (size_t)snprintf(models + len, sizeof models - len, "%s%s",
                                        len ? "|" : "", w->models[m]);
        put_csv_text(&s, models);
        char think[32] = "-1";
        if (j->think >= 0)
            hsim_format_time(think, sizeof think, j->think);
        sink_printf(&s, ",%d,%d,%d,%d,%d,%d,%" PRId64 ",%s,%d,", j->group, j->app, j->queue,
                    j->partition, j->nodes, j->cores_per_node, j->after, think,
                    j->killed_at_estimate);
        put_csv_text(&s, hsim_workload_job_name(w, j->name));
        sink_put(&s, "\n", 1);
    }
    return sink_close(&s, path, e);
}
