/*
 * report.c - writing results.  See report.h.
 */
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int hsim_mkdirs(const char *path, hsim_err_t *e)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || !*p) {
            char saved = *p;
            *p = '\0';
            if (mkdir(buf, 0777)) {
                int err = errno; /* EEXIST is fine for a folder, not a file */
                struct stat st;
                int stat_err = err == EEXIST && stat(buf, &st) ? errno : 0;
                int bad = err != EEXIST || stat_err || !S_ISDIR(st.st_mode);
                /* a link that leads round to itself (EEXIST from mkdir,
                   ELOOP from stat; or ELOOP on the way) is no file in
                   the way: say what it is */
                if (err == ELOOP || stat_err == ELOOP)
                    return hsim_errf(e, HSIM_EIO, "%s: cannot create folder: a symbolic-link "
                                     "loop (%s)", buf, strerror(ELOOP));
                if (bad)
                    return hsim_errf(e, HSIM_EIO, "%s: cannot create folder: %s", buf,
                                     err == EEXIST ? "a file is in the way, not a folder"
                                                   : strerror(err));
            }
            *p = saved;
            if (!saved)
                break;
        }
    }
    return 0;
}

/* Whether name is a temporary results file, <file>.<digits>.part. */
static int is_part_name(const char *name)
{
    size_t n = strlen(name);
    if (n < 8 || strcmp(name + n - 5, ".part"))
        return 0;
    size_t k = n - 5;
    while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
        k--;
    return k < n - 5 && k > 1 && name[k - 1] == '.';
}

/* Removes the temporary files in dir: under its lock, no other run writes
   them.  Those named with this process's id are its own to write over
   (a link to a full device, in a test, stays). */
static void remove_parts(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char path[HSIM_PART_PATH_MAX + 256], own[32];
    snprintf(own, sizeof own, ".%ld.part", (long)getpid());
    for (struct dirent *ent; (ent = readdir(d));)
        if (is_part_name(ent->d_name) && !hsim_ends_with(ent->d_name, own) &&
            (size_t)snprintf(path, sizeof path, "%s/%s", dir, ent->d_name) < sizeof path)
            unlink(path);
    closedir(d);
}

/* The process id written in the lock file fd, 0 when none can be read.
   The holder writes it just after taking the lock: a few tries, 10 ms
   apart, cover the moment between. */
static long lock_holder(int fd)
{
    for (int tries = 0; tries < 20; tries++) {
        char buf[32];
        ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
        if (got > 0) {
            buf[got] = '\0';
            char *end;
            long pid = strtol(buf, &end, 10);
            if (pid > 0 && end != buf)
                return pid;
        }
        struct timespec pause = {0, 10 * 1000000L};
        nanosleep(&pause, NULL);
    }
    return 0;
}

int hsim_results_lock(const char *dir, const char *const *subdirs, size_t n, int *fd,
                      hsim_err_t *e)
{
    char path[HSIM_PART_PATH_MAX];
    *fd = -1;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, HSIM_LOCK_NAME) >= sizeof path)
        return hsim_errf(e, HSIM_EIO, "%s: cannot lock the folder: path too long", dir);
    /* The file may be removed by the holder that lets go between our
       open() and flock(): the lock is ours only on the file that the path
       still names, else try again. */
    for (;;) {
        int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (f < 0)
            return hsim_errf(e, HSIM_EIO, "%s: cannot lock the folder: %s", path,
                             strerror(errno));
        if (flock(f, LOCK_EX | LOCK_NB)) {
            int err = errno;
            if (err == ENOLCK || err == EOPNOTSUPP || err == EINVAL) {
                close(f); /* a file system without locks: the temporary
                             names still never collide */
                unlink(path);
                return 0;
            }
            if (err != EWOULDBLOCK && err != EINTR) {
                close(f);
                return hsim_errf(e, HSIM_EIO, "%s: cannot lock the folder: %s", path,
                                 strerror(err));
            }
            long pid = lock_holder(f);
            close(f);
            char who[48] = "another process";
            if (pid > 0)
                snprintf(who, sizeof who, "process %ld", pid);
            return hsim_errf(e, HSIM_ERUN,
                             "%s: results folder in use: %s holds its lock (%s), writing the "
                             "results of another run; expected one run at a time per folder: "
                             "wait for it, or give this experiment another output or name",
                             dir, who, HSIM_LOCK_NAME);
        }
        struct stat held, named;
        if (fstat(f, &held) == 0 && stat(path, &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino) {
            char pid[32];
            int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            if (ftruncate(f, 0) || pwrite(f, pid, (size_t)len, 0) != len) {
                /* the lock holds without it: only a message loses the pid */
            }
            *fd = f;
            break;
        }
        close(f);
    }
    remove_parts(dir);
    for (size_t i = 0; i < n; i++) {
        char sub[HSIM_PART_PATH_MAX];
        if ((size_t)snprintf(sub, sizeof sub, "%s/%s", dir, subdirs[i]) < sizeof sub)
            remove_parts(sub);
    }
    return 0;
}

void hsim_results_unlock(const char *dir, int fd)
{
    if (fd < 0)
        return;
    char path[HSIM_PART_PATH_MAX];
    /* removed while held, so that a run that opened it before it went
       finds, after it, that the path names another file (or none) */
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, HSIM_LOCK_NAME) < sizeof path)
        unlink(path);
    close(fd);
}

int hsim_report_open(hsim_report_t *r, const char *path, const char *header, hsim_err_t *e)
{
    r->f = NULL;
    r->path = path;
    int rc = hsim_part_path(r->part, sizeof r->part, path, e);
    if (rc)
        return rc;
    r->f = fopen(r->part[0] ? r->part : path, "w");
    if (!r->f)
        return hsim_publish(r->part, path,
                            hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path,
                                      strerror(errno)),
                            e);
    if (header)
        fputs(header, r->f);
    return 0;
}

int hsim_report_close(hsim_report_t *r, hsim_err_t *e)
{
    if (!r->f)
        return 0;
    int bad = ferror(r->f);
    errno = 0;
    int rc = 0;
    if (fclose(r->f) || bad)
        rc = hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", r->path,
                       errno ? strerror(errno) : "write error");
    r->f = NULL;
    return hsim_publish(r->part, r->path, rc, e);
}

void hsim_report_discard(hsim_report_t *r)
{
    if (!r->f)
        return;
    fclose(r->f);
    r->f = NULL;
    hsim_err_t ignored;
    hsim_publish(r->part, r->path, HSIM_EIO, &ignored); /* removes the .part */
}

/* Appends the decimal digits of v to p; returns the new end.  printf is
   the bulk of writing a 447,794-row jobs.csv, so rows are built by hand. */
static char *put_int(char *p, int64_t v)
{
    char tmp[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *p++ = '-';
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* A time in seconds, as hsim_format_time() writes it. */
static char *put_time(char *p, hsim_time_t t)
{
    if (t % HSIM_SECOND == 0)
        return put_int(p, t / HSIM_SECOND);
    char buf[32];
    hsim_format_time(buf, sizeof buf, t);
    size_t n = strlen(buf);
    memcpy(p, buf, n);
    return p + n;
}

/* x >= 0 with 4 decimals, rounded half up. */
static char *put_fixed4(char *p, double x)
{
    int64_t v = (int64_t)(x * 10000.0 + 0.5);
    p = put_int(p, v / 10000);
    *p++ = '.';
    int64_t frac = v % 10000;
    for (int64_t d = 1000; d >= 1; d /= 10)
        *p++ = (char)('0' + frac / d % 10);
    return p;
}

int hsim_report_jobs(const char *path, const hsim_workload_t *w,
                     const hsim_outcome_t *out, const hsim_held_t *held,
                     const char *ranges, hsim_err_t *e)
{
    return hsim_report_jobs_failures(path, w, out, held, ranges, NULL, NULL, e);
}

int hsim_report_jobs_failures(const char *path, const hsim_workload_t *w,
                              const hsim_outcome_t *out, const hsim_held_t *held,
                              const char *ranges, const int32_t *starts,
                              const hsim_time_t *lost, hsim_err_t *e)
{
    return hsim_report_jobs_stops(path, w, out, held, ranges, starts, lost, NULL, e);
}

int hsim_report_jobs_stops(const char *path, const hsim_workload_t *w,
                           const hsim_outcome_t *out, const hsim_held_t *held,
                           const char *ranges, const int32_t *starts,
                           const hsim_time_t *lost, const hsim_time_t *ran, hsim_err_t *e)
{
    hsim_report_t r;
    /* the trace's own job ids, last: after the nodes on a cluster; then,
       with failures, what they cost */
    int names = hsim_workload_has_names(w);
    char header[192];
    snprintf(header, sizeof header, "job_id,submit,start,end,procs,wait,run,estimate,bsld,"
                                    "user,state%s%s%s%s\n",
             held ? ",cores,mem_mb,gpus,fpgas,nodes" : "", names ? ",trace_id" : "",
             starts ? ",starts,lost_s" : "", starts && ran ? ",ran_s" : "");
    if (hsim_report_open(&r, path, header, e))
        return HSIM_EIO;
    char row[512];
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        const hsim_outcome_t *o = &out[i];
        char *p = row;
        p = put_int(p, j->id);
        *p++ = ',';
        hsim_time_t submit = hsim_outcome_submit(j, o);
        p = put_time(p, submit);
        *p++ = ',';
        p = put_time(p, o->start);
        *p++ = ',';
        p = put_time(p, o->end);
        *p++ = ',';
        p = put_int(p, j->procs);
        *p++ = ',';
        p = put_time(p, o->start - submit);
        *p++ = ',';
        p = put_time(p, o->end - o->start);
        *p++ = ',';
        p = put_time(p, j->estimate);
        *p++ = ',';
        p = put_fixed4(p, hsim_bsld(submit, o->start, o->end));
        *p++ = ',';
        p = put_int(p, j->user);
        const char *state = o->fate == HSIM_FATE_KILLED ? ",killed" : ",ran";
        size_t n = strlen(state);
        memcpy(p, state, n);
        p += n;
        if (held) {
            const hsim_held_t *h = &held[i];
            *p++ = ',';
            p = put_int(p, h->cores);
            *p++ = ',';
            p = put_int(p, h->mem_mb);
            *p++ = ',';
            p = put_int(p, h->gpu_milli / 1000);
            if (h->gpu_milli % 1000) { /* shares: as many decimals as needed */
                int frac = (int)(h->gpu_milli % 1000);
                int digits = frac % 10 ? 3 : frac % 100 ? 2 : 1;
                p += sprintf(p, ".%0*d", digits,
                             digits == 3 ? frac : digits == 2 ? frac / 10 : frac / 100);
            }
            *p++ = ',';
            p = put_int(p, h->fpgas);
            *p++ = ',';
            fwrite(row, 1, (size_t)(p - row), r.f);
            if (h->ranges >= 0 && ranges)
                fputs(ranges + h->ranges, r.f);
        } else {
            fwrite(row, 1, (size_t)(p - row), r.f);
        }
        if (names) {
            fputc(',', r.f);
            hsim_report_csv_field(r.f, hsim_workload_job_name(w, j->name));
        }
        if (starts) {
            char t[32];
            fprintf(r.f, ",%d,%s", starts[i], hsim_format_time(t, sizeof t, lost[i]));
            if (ran)
                fprintf(r.f, ",%s", hsim_format_time(t, sizeof t, ran[i]));
        }
        fputc('\n', r.f);
    }
    return hsim_report_close(&r, e);
}

void hsim_report_csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
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
    hsim_report_t r;
    int names = hsim_workload_has_names(w);
    if (hsim_report_open(&r, path, names ? "job_id,line,reason,trace_id\n"
                                         : "job_id,line,reason\n", e))
        return HSIM_EIO;
    for (size_t i = 0; i < w->n_rejected; i++) {
        const hsim_rejection_t *x = &w->rejected[i];
        fprintf(r.f, "%" PRId64 ",%" PRId64 ",", x->id, x->line);
        hsim_report_csv_field(r.f, x->reason);
        if (names) {
            fputc(',', r.f);
            hsim_report_csv_field(r.f, hsim_workload_job_name(w, x->name));
        }
        fputc('\n', r.f);
    }
    return hsim_report_close(&r, e);
}

void hsim_report_summary_header(FILE *f)
{
    fputs("policy,jobs,avg_wait,avg_turnaround,avg_bsld,max_wait,utilization,"
          "makespan,throughput,median_wait,p95_wait,median_turnaround,"
          "p95_turnaround,max_turnaround,median_bsld,p95_bsld,max_bsld,"
          "fairness,killed,rejected", f);
}

void hsim_report_figure(FILE *f, int decimals, double v)
{
    if (isnan(v))
        fputc(',', f);
    else
        fprintf(f, ",%.*f", decimals, v);
}

void hsim_report_summary_row(FILE *f, const char *policy, const hsim_summary_t *s,
                             size_t rejected)
{
    const struct {
        double v;
        int decimals;
    } cells[] = {
        {s->wait.avg, 3},        {s->turnaround.avg, 3},    {s->bsld.avg, 4},
        {s->wait.max, 3},        {s->utilization, 6},       {s->makespan, 3},
        {s->throughput, 4},      {s->wait.median, 3},       {s->wait.p95, 3},
        {s->turnaround.median, 3}, {s->turnaround.p95, 3},  {s->turnaround.max, 3},
        {s->bsld.median, 4},     {s->bsld.p95, 4},          {s->bsld.max, 4},
        {s->fairness, 6},
    };
    fprintf(f, "%s,%zu", policy, s->jobs);
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++)
        hsim_report_figure(f, cells[i].decimals, cells[i].v);
    fprintf(f, ",%zu,%zu", s->killed, rejected);
}

/* The policy column: as wide as the longest name, at least 18. */
static int policy_width(int name_w) { return name_w < 18 ? 18 : name_w; }

void hsim_report_table_header(FILE *f, int name_w, int gpus)
{
    fprintf(f, "%-*s %8s %11s %11s %9s %9s %6s%s %8s\n", policy_width(name_w), "policy",
            "jobs", "avg_wait_s", "avg_tat_s", "avg_bsld", "p95_bsld", "util",
            gpus ? " gpu_util" : "", "fairness");
}

/* A table cell of at most width characters: v with that many decimals
   and the suffix, fewer digits where that is wider (none after the point,
   then an exponent), or "-" for NaN (no value). */
static const char *cell(char buf[32], double v, int decimals, const char *suffix, int width)
{
    if (isnan(v))
        return "-";
    int n = snprintf(buf, 32, "%.*f%s", decimals, v, suffix);
    if (n > width)
        n = snprintf(buf, 32, "%.0f%s", v, suffix);
    if (n > width) {
        int digits = width - 6 - (int)strlen(suffix); /* "1.e+09" takes 6 */
        snprintf(buf, 32, "%.*e%s", digits > 0 ? digits : 0, v, suffix);
    }
    return buf;
}

void hsim_report_table_row(FILE *f, int name_w, const char *policy, const hsim_summary_t *s,
                           int gpus, double gpu_util)
{
    char c[7][32], g[48] = "";
    if (gpus)
        snprintf(g, sizeof g, " %8s", cell(c[6], 100.0 * gpu_util, 1, "%", 8));
    fprintf(f, "%-*s %8zu %11s %11s %9s %9s %6s%s %8s\n", policy_width(name_w), policy,
            s->jobs,
            cell(c[0], s->wait.avg, 1, "", 11), cell(c[1], s->turnaround.avg, 1, "", 11),
            cell(c[2], s->bsld.avg, 2, "", 9), cell(c[3], s->bsld.p95, 2, "", 9),
            cell(c[4], 100.0 * s->utilization, 1, "%", 6), g, cell(c[5], s->fairness, 3, "", 8));
}

static int table_errno; /* see hsim_report_table_error() */

int hsim_report_table_flush(FILE *f)
{
    errno = 0;
    if (fflush(f) == 0 && !ferror(f))
        return 0;
    if (!table_errno)
        table_errno = errno;
    return -1;
}

int hsim_report_table_error(void) { return table_errno; }

int hsim_report_attempts(const char *path, const hsim_workload_t *w,
                         const hsim_attempt_t *a, size_t n, const char *ranges, hsim_err_t *e)
{
    hsim_report_t r;
    if (hsim_report_open(&r, path, ranges ? "job_id,start,end,nodes\n" : "job_id,start,end\n",
                         e))
        return HSIM_EIO;
    char row[128];
    for (size_t i = 0; i < n; i++) {
        char *p = put_int(row, w->jobs[a[i].job].id);
        *p++ = ',';
        p = put_time(p, a[i].start);
        *p++ = ',';
        p = put_time(p, a[i].end);
        fwrite(row, 1, (size_t)(p - row), r.f);
        if (ranges && a[i].ranges >= 0)
            fprintf(r.f, ",%s", ranges + a[i].ranges);
        else if (ranges)
            fputc(',', r.f);
        fputc('\n', r.f);
    }
    return hsim_report_close(&r, e);
}

int hsim_report_copy(const char *src, const char *dst, hsim_err_t *e)
{
    FILE *in = fopen(src, "rb");
    if (!in)
        return hsim_errf(e, HSIM_EINPUT, "%s: cannot open: %s", src, strerror(errno));
    hsim_report_t r;
    int rc = hsim_report_open(&r, dst, NULL, e);
    char buf[1 << 14];
    size_t got;
    while (rc == 0 && (got = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, got, r.f);
    if (rc == 0 && ferror(in)) {
        hsim_report_discard(&r);
        rc = hsim_errf(e, HSIM_EINPUT, "%s: cannot read: %s", src, strerror(errno));
    }
    fclose(in);
    return rc ? rc : hsim_report_close(&r, e);
}
