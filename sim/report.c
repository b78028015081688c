/*
 * report.c - writing results.  See report.h.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

int hsim_mkdirs(const char *path, hsim_err_t *e)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || !*p) {
            char saved = *p;
            *p = '\0';
            if (mkdir(buf, 0777) && errno != EEXIST)
                return hsim_errf(e, HSIM_EIO, "%s: cannot create folder: %s", buf,
                                 strerror(errno));
            *p = saved;
            if (!saved)
                break;
        }
    }
    return 0;
}

static FILE *open_out(const char *path, hsim_err_t *e)
{
    FILE *f = fopen(path, "w");
    if (!f)
        hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path, strerror(errno));
    return f;
}

static int close_out(FILE *f, const char *path, hsim_err_t *e)
{
    int bad = ferror(f);
    if (fclose(f) || bad)
        return hsim_errf(e, HSIM_EIO, "%s: write failed", path);
    return 0;
}

int hsim_report_jobs(const char *path, const hsim_workload_t *w,
                     const hsim_outcome_t *out, hsim_err_t *e)
{
    FILE *f = open_out(path, e);
    if (!f)
        return HSIM_EIO;
    fputs("job_id,submit,start,end,procs,wait,run,estimate,bsld,user,state\n", f);
    char a[32], b[32], c[32], d[32], g[32], h[32];
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        const hsim_outcome_t *o = &out[i];
        fprintf(f, "%" PRId64 ",%s,%s,%s,%d,%s,%s,%s,%.4f,%d,%s\n", j->id,
                hsim_format_time(a, sizeof a, j->submit),
                hsim_format_time(b, sizeof b, o->start),
                hsim_format_time(c, sizeof c, o->end), j->procs,
                hsim_format_time(d, sizeof d, o->start - j->submit),
                hsim_format_time(g, sizeof g, o->end - o->start),
                hsim_format_time(h, sizeof h, j->estimate),
                hsim_bsld(j->submit, o->start, o->end), j->user,
                o->fate == HSIM_FATE_KILLED ? "killed" : "ran");
    }
    int rc = close_out(f, path, e);
    return rc;
}

/* A CSV field: quoted when it holds a comma or a quote. */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int hsim_report_rejected(const char *path, const hsim_workload_t *w, hsim_err_t *e)
{
    FILE *f = open_out(path, e);
    if (!f)
        return HSIM_EIO;
    fputs("job_id,line,reason\n", f);
    for (size_t i = 0; i < w->n_rejected; i++) {
        const hsim_rejection_t *r = &w->rejected[i];
        fprintf(f, "%" PRId64 ",%" PRId64 ",", r->id, r->line);
        csv_field(f, r->reason);
        fputc('\n', f);
    }
    return close_out(f, path, e);
}

int hsim_report_summary_header(FILE *f)
{
    return fputs("policy,jobs,avg_wait,avg_turnaround,avg_bsld,max_wait,utilization,"
                 "makespan,throughput,median_wait,p95_wait,median_turnaround,"
                 "p95_turnaround,max_turnaround,median_bsld,p95_bsld,max_bsld,"
                 "fairness,killed,rejected", f) < 0;
}

int hsim_report_summary_row(FILE *f, const char *policy, const hsim_summary_t *s,
                            size_t rejected)
{
    return fprintf(f, "%s,%zu,%.3f,%.3f,%.4f,%.3f,%.6f,%.3f,%.4f,%.3f,%.3f,%.3f,%.3f,"
                      "%.3f,%.4f,%.4f,%.4f,%.6f,%zu,%zu",
                   policy, s->jobs, s->wait.avg, s->turnaround.avg, s->bsld.avg,
                   s->wait.max, s->utilization, s->makespan, s->throughput,
                   s->wait.median, s->wait.p95, s->turnaround.median, s->turnaround.p95,
                   s->turnaround.max, s->bsld.median, s->bsld.p95, s->bsld.max,
                   s->fairness, s->killed, rejected) < 0;
}

void hsim_report_table_header(FILE *f)
{
    fprintf(f, "%-18s %8s %11s %11s %9s %9s %6s %8s\n", "policy", "jobs", "avg_wait_s",
            "avg_tat_s", "avg_bsld", "p95_bsld", "util", "fairness");
}

void hsim_report_table_row(FILE *f, const char *policy, const hsim_summary_t *s)
{
    fprintf(f, "%-18s %8zu %11.1f %11.1f %9.2f %9.2f %5.1f%% %8.3f\n", policy, s->jobs,
            s->wait.avg, s->turnaround.avg, s->bsld.avg, s->bsld.p95,
            100.0 * s->utilization, s->fairness);
}
