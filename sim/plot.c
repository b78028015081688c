/*
 * plot.c - an experiment's charts and report from its results folder, and
 * the hsim plot command.  See plot.h.
 *
 * Everything is drawn from the CSV files, after they are whole: the run
 * draws with the very code hsim plot runs, so a redraw is the same bytes.
 * One policy's jobs are in memory at a time (RICC-2010's 447,794 take
 * about 40 MB); what the charts that compare policies need of each is a
 * few thousand numbers (charts.h).
 */
#include "plot.h"

#include "charts.h"
#include "html.h"
#include "report.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static const char *const chart_names[] = {"utilization", "queue", "cdf", "bars", "gantt",
                                          "heatmap", "fairness"};
static const char *const format_names[] = {"png", "svg", "pdf"};

int hsim_plot_parse_list(const char *v, int formats, unsigned *mask, char *why, size_t size)
{
    const char *const *names = formats ? format_names : chart_names;
    size_t n = formats ? 3 : sizeof chart_names / sizeof chart_names[0];
    char all[160];
    hsim_plot_list_text(formats ? 7u : HSIM_CHART_ALL, formats, all, sizeof all);
    *mask = 0;
    while (*v == ' ' || *v == '\t')
        v++;
    if (!formats && (!strcmp(v, "all") || !strcmp(v, "none"))) {
        *mask = !strcmp(v, "all") ? HSIM_CHART_ALL : 0;
        return 0;
    }
    for (const char *s = v;;) {
        size_t len = strcspn(s, ",");
        while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        size_t k = 0;
        while (k < n && !(strlen(names[k]) == len && !strncmp(names[k], s, len)))
            k++;
        if (k == n) {
            snprintf(why, size, "%s: expected a list of %s%s, found '%.*s'",
                     formats ? "formats" : "charts", all, formats ? "" : " (or all, or none)",
                     (int)(len > 40 ? 40 : len), s);
            return -1;
        }
        *mask |= 1u << k;
        s += strcspn(s, ",");
        if (!*s)
            break;
        s++;
        while (*s == ' ' || *s == '\t')
            s++;
    }
    return 0;
}

void hsim_plot_list_text(unsigned mask, int formats, char *buf, size_t size)
{
    const char *const *names = formats ? format_names : chart_names;
    size_t n = formats ? 3 : sizeof chart_names / sizeof chart_names[0], at = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < n; k++)
        if (mask & (1u << k) && at < size)
            at += (size_t)snprintf(buf + at, size - at, "%s%s", at ? ", " : "", names[k]);
    if (!at)
        snprintf(buf, size, "none");
}

/* ---- what the run records ---- */

/* The CRC-32 (zlib's, of the bytes as stored) and size of path. */
static int file_crc(const char *path, unsigned long *crc, long long *bytes, hsim_err_t *e)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return hsim_errf(e, HSIM_EIO, "%s: cannot read: %s", path, strerror(errno));
    unsigned char buf[1 << 16];
    *crc = crc32(0L, Z_NULL, 0);
    *bytes = 0;
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        *crc = crc32(*crc, buf, (uInt)got);
        *bytes += (long long)got;
    }
    int bad = ferror(f);
    fclose(f);
    return bad ? hsim_errf(e, HSIM_EIO, "%s: cannot read", path) : 0;
}

static void row(FILE *f, const char *key, const char *value)
{
    fprintf(f, "%s,", key);
    hsim_report_csv_field(f, value);
    fputc('\n', f);
}

static int write_run(const hsim_config_t *c, const char *dir, int32_t capacity, hsim_err_t *e)
{
    char path[HSIM_PART_PATH_MAX], buf[256];
    unsigned long crc = 0;
    long long bytes = 0;
    struct stat st; /* a pipe was read once, by the run: no checksum */
    int regular = c->trace[0] && stat(c->trace, &st) == 0 && S_ISREG(st.st_mode);
    int rc = regular ? file_crc(c->trace, &crc, &bytes, e) : 0;
    hsim_report_t r;
    snprintf(path, sizeof path, "%s/run.csv", dir);
    if (rc || (rc = hsim_report_open(&r, path, "key,value\n", e)))
        return rc;
    row(r.f, "hsim_version", HSIM_VERSION);
    row(r.f, "name", c->name);
    row(r.f, "format", c->format);
    row(r.f, "trace", c->trace);
    snprintf(buf, sizeof buf, "%lld", bytes);
    row(r.f, "trace_bytes", regular ? buf : "");
    snprintf(buf, sizeof buf, "%08lx", crc);
    row(r.f, "trace_crc32", regular ? buf : "");
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)c->seed);
    row(r.f, "seed", buf);
    snprintf(buf, sizeof buf, "%d", capacity);
    row(r.f, "processors", buf);
    hsim_plot_list_text(c->charts, 0, buf, sizeof buf);
    row(r.f, "charts", buf);
    hsim_plot_list_text(c->formats, 1, buf, sizeof buf);
    row(r.f, "formats", buf);
    return hsim_report_close(&r, e);
}

/* experiment.ini: the INI's bytes as they were run.  A configuration
   built in memory (a test's) has no file: none is written, and the report
   says so. */
/* Copies the file src to dst, a results file; without src, no dst (an
   earlier run's is not this one's). */
static int copy_path(const char *src, const char *path, hsim_err_t *e)
{
    if (access(src, F_OK) != 0) {
        unlink(path);
        return 0;
    }
    return hsim_report_copy(src, path, e);
}

static int copy_ini(const hsim_config_t *c, const char *dir, hsim_err_t *e)
{
    char path[HSIM_PART_PATH_MAX];
    snprintf(path, sizeof path, "%s/experiment.ini", dir);
    return copy_path(c->path, path, e);
}

int hsim_plot_experiment(const hsim_config_t *c, const char *dir, int32_t capacity,
                         hsim_err_t *e)
{
    int rc = write_run(c, dir, capacity, e);
    if (rc == 0)
        rc = copy_ini(c, dir, e);
    hsim_plot_options_t o = {c->charts, c->formats};
    return rc ? rc : hsim_plot_dir(dir, &o, e);
}

/* ---- drawing from the folder ---- */

#define MAX_POLICIES HSIM_MAX_POLICIES

/* What summary.csv and run.csv give. */
typedef struct folder {
    hsim_csv_t summary;
    size_t n;                          /* policies */
    const char *names[MAX_POLICIES];   /* into summary's text */
    double avg[3][MAX_POLICIES];       /* avg_wait, avg_turnaround, avg_bsld */
    double ci[3][MAX_POLICIES];        /* their _ci95 columns, when there */
    int has_ci[3];
    char name[HSIM_NAME_MAX];          /* run.csv's */
    double processors;
} folder_t;

static int read_run(const char *dir, folder_t *f, hsim_err_t *e)
{
    char path[HSIM_PART_PATH_MAX];
    snprintf(path, sizeof path, "%s/run.csv", dir);
    hsim_csv_t c;
    int rc = hsim_csv_open(&c, path, e);
    while (rc == 0 && hsim_csv_next(&c)) {
        const char *k = hsim_csv_field(&c, 0);
        if (!strcmp(k, "name"))
            hsim_strlcpy(f->name, hsim_csv_field(&c, 1), sizeof f->name);
        else if (!strcmp(k, "processors"))
            rc = hsim_csv_number(&c, 1, &f->processors, e);
    }
    hsim_csv_close(&c);
    if (rc == HSIM_EINPUT && access(path, F_OK))
        hsim_errf(e, rc, "%s: no run.csv: expected the results folder of an hsim run", dir);
    return rc;
}

static int read_summary(const char *dir, folder_t *f, hsim_err_t *e)
{
    char path[HSIM_PART_PATH_MAX];
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    hsim_csv_t *c = &f->summary;
    int rc = hsim_csv_open(c, path, e);
    static const char *const cols[3] = {"avg_wait", "avg_turnaround", "avg_bsld"};
    int k_avg[3], k_ci[3], k_policy = hsim_csv_column(c, "policy");
    for (int k = 0; k < 3 && rc == 0; k++) {
        char ci[32];
        snprintf(ci, sizeof ci, "%s_ci95", cols[k]);
        k_avg[k] = hsim_csv_column(c, cols[k]);
        k_ci[k] = hsim_csv_column(c, ci);
        f->has_ci[k] = k_ci[k] >= 0;
        if (k_avg[k] < 0 || k_policy < 0)
            rc = hsim_errf(e, HSIM_EINPUT, "%s:1: no column '%s': expected the header of "
                           "an hsim summary.csv", path, k_policy < 0 ? "policy" : cols[k]);
    }
    while (rc == 0 && hsim_csv_next(c)) {
        if (f->n == MAX_POLICIES)
            return hsim_errf(e, HSIM_EINPUT, "%s:%lld: more than %d policies", path,
                             (long long)c->line, MAX_POLICIES);
        const char *name = hsim_csv_field(c, k_policy);
        if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
            return hsim_errf(e, HSIM_EINPUT, "%s:%lld: policy '%.40s': expected a folder "
                             "name", path, (long long)c->line, name);
        f->names[f->n] = name;
        for (int k = 0; k < 3 && rc == 0; k++) {
            rc = hsim_csv_number(c, k_avg[k], &f->avg[k][f->n], e);
            f->ci[k][f->n] = NAN;
            if (rc == 0 && f->has_ci[k])
                rc = hsim_csv_number(c, k_ci[k], &f->ci[k][f->n], e);
        }
        f->n++;
    }
    if (rc == 0 && !f->n)
        rc = hsim_errf(e, HSIM_EINPUT, "%s: no policy: expected a row per policy", path);
    return rc;
}

/* One policy: its time series (written), distributions and own charts. */
static int one_policy(hsim_charts_t *ch, const char *policy, hsim_pdata_t *p, hsim_err_t *e)
{
    char path[HSIM_PART_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/jobs.csv", ch->dir, policy);
    hsim_rjobs_t r;
    int rc = hsim_rjobs_read(path, &r, e);
    snprintf(path, sizeof path, "%s/%s/attempts.csv", ch->dir, policy);
    if (rc == 0 && access(path, F_OK) == 0) /* runs that stops cut short */
        rc = hsim_rjobs_read_attempts(path, &r, e);
    if (rc == 0)
        rc = hsim_timeseries_build(&r, ch->m, HSIM_PLOT_MAX_BINS, &p->ts);
    if (rc == 0) {
        snprintf(path, sizeof path, "%s/%s/timeseries.csv", ch->dir, policy);
        rc = hsim_timeseries_write(path, &p->ts, e);
    }
    if (rc == 0)
        rc = hsim_pdata_fill(p, &r);
    if (rc == 0)
        rc = hsim_charts_policy(ch, policy, &r, e);
    hsim_rjobs_free(&r);
    return rc;
}

/* The machine: cluster.csv and the first policy's nodes.csv, or a pool. */
static int machine(const char *dir, const folder_t *f, hsim_rcluster_t *m, hsim_err_t *e)
{
    char cpath[HSIM_PART_PATH_MAX], npath[HSIM_PART_PATH_MAX];
    snprintf(cpath, sizeof cpath, "%s/cluster.csv", dir);
    snprintf(npath, sizeof npath, "%s/%s/nodes.csv", dir, f->names[0]);
    if (access(cpath, F_OK)) {
        if (!(f->processors >= 1 && f->processors <= INT32_MAX))
            return hsim_errf(e, HSIM_EINPUT, "%s/run.csv: processors: expected a number "
                             "from 1 to %d (the machine of a run without cluster.csv)", dir,
                             INT32_MAX);
        hsim_rcluster_pool(m, f->processors);
        return 0;
    }
    return hsim_rcluster_read(cpath, npath, m, e);
}

int hsim_plot_dir(const char *dir, const hsim_plot_options_t *o, hsim_err_t *e)
{
    folder_t *f = hsim_calloc(1, sizeof *f);
    hsim_pdata_t *p = hsim_calloc(MAX_POLICIES, sizeof *p);
    hsim_rcluster_t m;
    memset(&m, 0, sizeof m);
    int rc = f && p ? 0 : HSIM_ENOMEM;
    if (rc == 0)
        rc = read_run(dir, f, e);
    if (rc == 0)
        rc = read_summary(dir, f, e);
    /* a run of repeats keeps its jobs in seed-S/ folders, each with its own
       charts: here only what the summary gives, the bars and their CIs */
    char jobs[HSIM_PART_PATH_MAX];
    if (rc == 0)
        snprintf(jobs, sizeof jobs, "%s/%s/jobs.csv", dir, f->names[0]);
    int summary_only = rc == 0 && access(jobs, F_OK) != 0;
    /* charts = none: no chart reads the jobs back, so no time series */
    int skip_jobs = summary_only || o->charts == 0;
    if (rc == 0 && !skip_jobs)
        rc = machine(dir, f, &m, e);
    const char *slash = strrchr(dir, '/');
    hsim_charts_t ch = {.dir = dir, .charts = o->charts, .formats = o->formats, .m = &m,
                        .title = f && f->name[0] ? f->name : slash ? slash + 1 : dir};
    for (size_t k = 0; rc == 0 && k < f->n; k++) {
        p[k].name = f->names[k];
        if (!skip_jobs)
            rc = one_policy(&ch, f->names[k], &p[k], e);
    }
    if (rc == 0) {
        const double *avg[3] = {f->avg[0], f->avg[1], f->avg[2]};
        const double *ci[3];
        for (int k = 0; k < 3; k++)
            ci[k] = f->has_ci[k] ? f->ci[k] : NULL;
        rc = hsim_charts_compare(&ch, p, f->n, skip_jobs, avg, ci, e);
    }
    if (rc == 0)
        rc = hsim_html_report(dir, ch.title, ch.files, ch.n_files, o->formats, summary_only,
                              e);
    for (size_t k = 0; p && k < MAX_POLICIES; k++)
        hsim_pdata_free(&p[k]);
    hsim_charts_free(&ch);
    hsim_rcluster_free(&m);
    if (f)
        hsim_csv_close(&f->summary);
    hsim_free(f);
    hsim_free(p);
    return rc;
}

/* ---- hsim plot ---- */

/* The charts and formats that run.csv of dir recorded, into those of o
   that the command line did not set (set: bit 0 charts, bit 1 formats). */
static void saved_options(const char *dir, hsim_plot_options_t *o, int set)
{
    char path[HSIM_PART_PATH_MAX], why[300];
    snprintf(path, sizeof path, "%s/run.csv", dir);
    hsim_csv_t c;
    hsim_err_t ignored;
    if (hsim_csv_open(&c, path, &ignored) == 0)
        while (hsim_csv_next(&c)) {
            const char *k = hsim_csv_field(&c, 0), *v = hsim_csv_field(&c, 1);
            unsigned mask;
            int formats = !strcmp(k, "formats");
            if ((formats || !strcmp(k, "charts")) && !(set & (1 << formats)) &&
                hsim_plot_parse_list(v, formats, &mask, why, sizeof why) == 0 &&
                (mask || !formats))
                *(formats ? &o->formats : &o->charts) = mask;
        }
    hsim_csv_close(&c);
}

int hsim_plot_from(const char *dir, const char *from, hsim_err_t *e)
{
    static const char *const files[] = {"run.csv", "experiment.ini"};
    char src[HSIM_PART_PATH_MAX], dst[HSIM_PART_PATH_MAX];
    int rc = 0;
    for (size_t i = 0; from && rc == 0 && i < 2; i++) {
        snprintf(src, sizeof src, "%s/%s", from, files[i]);
        snprintf(dst, sizeof dst, "%s/%s", dir, files[i]);
        rc = copy_path(src, dst, e);
    }
    hsim_plot_options_t o = {HSIM_CHART_ALL, HSIM_FORMAT_PNG};
    saved_options(dir, &o, 0);
    return rc ? rc : hsim_plot_dir(dir, &o, e);
}

static int plot_one(const char *dir, hsim_plot_options_t o, int set)
{
    hsim_err_t e = {{0}};
    struct stat st;
    int missing = stat(dir, &st) != 0;
    if (missing || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "hsim: plot: %s: %s: expected the results folder of an hsim run\n",
                dir, missing ? strerror(errno) : "not a folder");
        return 2;
    }
    saved_options(dir, &o, set);
    int lock = -1, rc = hsim_results_lock(dir, NULL, 0, &lock, &e);
    if (rc == 0)
        rc = hsim_plot_dir(dir, &o, &e);
    hsim_results_unlock(dir, lock);
    if (rc == HSIM_ENOMEM)
        fprintf(stderr, "hsim: plot: %s: out of memory\n", dir);
    else if (rc)
        fprintf(stderr, "hsim: plot: %s\n", e.msg);
    return rc == 0 ? 0 : rc == HSIM_EINPUT ? 2 : 1;
}

static void plot_usage(FILE *f)
{
    char charts[160];
    hsim_plot_list_text(HSIM_CHART_ALL, 0, charts, sizeof charts);
    fprintf(f, "usage: hsim plot [--charts LIST] [--formats LIST] RESULTS_DIR...\n"
               "Draws the charts, each policy's timeseries.csv and report.html of a\n"
               "results folder again from its CSV files, without simulating.\n"
               "  --charts LIST   any of %s; all; none\n"
               "  --formats LIST  any of png, svg, pdf\n"
               "(default: the lists the run recorded in run.csv)\n", charts);
}

int hsim_plot_main(int argc, char **argv)
{
    hsim_plot_options_t o = {HSIM_CHART_ALL, HSIM_FORMAT_PNG};
    int set = 0; /* given on the command line: bit 0 charts, bit 1 formats */
    static const struct option longs[] = {{"charts", required_argument, NULL, 'c'},
                                          {"formats", required_argument, NULL, 'f'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    opterr = 0;
    optind = 2; /* past "plot" */
    for (int ch; (ch = getopt_long(argc, argv, "+h", longs, NULL)) != -1;) {
        char why[300];
        unsigned mask;
        if (ch == 'h') {
            plot_usage(stdout);
            return 0;
        }
        if (ch == '?') {
            fprintf(stderr, "hsim: plot: unknown option '%s': expected --charts LIST or "
                    "--formats LIST\n", argv[optind - 1]);
            return 2;
        }
        if (hsim_plot_parse_list(optarg, ch == 'f', &mask, why, sizeof why) ||
            (ch == 'f' && !mask)) {
            fprintf(stderr, "hsim: plot: --%s\n", ch == 'f' && !mask && !why[0] ? "formats: "
                    "expected at least one of png, svg, pdf" : why);
            return 2;
        }
        if (ch == 'f')
            o.formats = mask;
        else
            o.charts = mask;
        set |= ch == 'f' ? 2 : 1;
    }
    if (optind >= argc) {
        plot_usage(stderr);
        return 2;
    }
    int status = 0;
    for (int k = optind; k < argc; k++) {
        int s = plot_one(argv[k], o, set);
        status = s > status ? s : status;
    }
    return status;
}
