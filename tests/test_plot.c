/*
 * test_plot.c - an experiment's charts and report: the [output] lists; the
 * time series against a brute-force integration of random jobs; the CSV
 * reader's quoting; base64; a whole experiment in every format (each PNG
 * decodes and is not blank), its SVGs checked by xmllint and its
 * PDFs opened by pdftoppm; and report.html rendered by headless Chromium
 * (those three tools: skipped, with a note, only when they are absent).
 */
#include "harness.h"

#include "chart_check.h"
#include "plots/figures.h"
#include "sim/experiment.h"
#include "sim/html.h"
#include "sim/plot.h"
#include "sim/charts.h"
#include "sim/timeseries.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- ticks and lists ---- */

static void test_lists(void)
{
    unsigned m;
    char why[300];
    CU_ASSERT_EQUAL(hsim_plot_parse_list("gantt, cdf", 0, &m, why, sizeof why), 0);
    CU_ASSERT_EQUAL(m, HSIM_CHART_GANTT | HSIM_CHART_CDF);
    CU_ASSERT_EQUAL(hsim_plot_parse_list("all", 0, &m, why, sizeof why), 0);
    CU_ASSERT_EQUAL(m, HSIM_CHART_ALL);
    CU_ASSERT_EQUAL(hsim_plot_parse_list("none", 0, &m, why, sizeof why), 0);
    CU_ASSERT_EQUAL(m, 0);
    CU_ASSERT_EQUAL(hsim_plot_parse_list("svg,pdf", 1, &m, why, sizeof why), 0);
    CU_ASSERT_EQUAL(m, HSIM_FORMAT_SVG | HSIM_FORMAT_PDF);
    CU_ASSERT_EQUAL(hsim_plot_parse_list("gantt, pie", 0, &m, why, sizeof why), -1);
    CU_ASSERT(hsim_test_message_ok(why, "charts: expected", "gantt", "found 'pie'", NULL));
    CU_ASSERT_EQUAL(hsim_plot_parse_list("jpeg", 1, &m, why, sizeof why), -1);
    CU_ASSERT(hsim_test_message_ok(why, "formats: expected", "png, svg, pdf", "'jpeg'", NULL));
    char text[160];
    hsim_plot_list_text(HSIM_CHART_QUEUE | HSIM_CHART_FAIRNESS, 0, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "queue, fairness");
}

static void test_base64(void)
{
    char out[16];
    static const char *const in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const want[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=",
                                       "Zm9vYmFy"};
    for (size_t k = 0; k < 7; k++) {
        hsim_base64((const unsigned char *)in[k], strlen(in[k]), out);
        CU_ASSERT_STRING_EQUAL(out, want[k]);
    }
}

/* ---- the CSV reader ---- */

static void test_csv_quotes(void)
{
    char *dir = hsim_test_tmpdir("plotcsv");
    char path[600];
    snprintf(path, sizeof path, "%s/a.csv", dir);
    hsim_test_write_file(path, "a,b,c\r\n1,\"x, \"\"y\"\"\",3\r\n\"two\nlines\",,z\n4,5\n");
    hsim_csv_t c;
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(hsim_csv_open(&c, path, &e), 0);
    CU_ASSERT_EQUAL(c.n_head, 3);
    CU_ASSERT_STRING_EQUAL(c.head[2], "c");
    CU_ASSERT_EQUAL(hsim_csv_column(&c, "b"), 1);
    CU_ASSERT(hsim_csv_next(&c));
    CU_ASSERT_STRING_EQUAL(c.f[1], "x, \"y\"");
    CU_ASSERT_STRING_EQUAL(c.f[2], "3");
    CU_ASSERT(hsim_csv_next(&c));
    CU_ASSERT_EQUAL(c.line, 3);
    CU_ASSERT_STRING_EQUAL(c.f[0], "two\nlines");
    CU_ASSERT_STRING_EQUAL(c.f[1], "");
    CU_ASSERT(hsim_csv_next(&c));
    CU_ASSERT_EQUAL(c.line, 5); /* the quoted line break counted */
    double v;
    CU_ASSERT_EQUAL(hsim_csv_number(&c, 1, &v, &e), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 5, 0);
    CU_ASSERT_EQUAL(hsim_csv_number(&c, 2, &v, &e), 0); /* absent: NaN */
    CU_ASSERT(isnan(v));
    CU_ASSERT_FALSE(hsim_csv_next(&c));
    hsim_csv_close(&c);
    snprintf(path, sizeof path, "%s/jobs.csv", dir);
    hsim_test_write_file(path, "job_id,submit,start,end,procs,bsld,user\n1,0,5,x,2,1,3\n");
    hsim_rjobs_t r;
    CU_ASSERT_EQUAL(hsim_rjobs_read(path, &r, &e), HSIM_EINPUT);
    CU_ASSERT(hsim_test_message_ok(e.msg, path, ":2: end: expected a number below 9e18",
                                   "'x'", NULL));
    hsim_rjobs_free(&r);
    free(dir);
}

/* attempts.csv: each row joins its job (by job_id) as an earlier run; the
   time series counts it running then, not waiting; a row of a job that
   jobs.csv has not is refused at its line. */
static void test_attempts(void)
{
    char *dir = hsim_test_tmpdir("plotattempts");
    char jobs[600], att[600];
    snprintf(jobs, sizeof jobs, "%s/jobs.csv", dir);
    snprintf(att, sizeof att, "%s/attempts.csv", dir);
    /* one processor: job 7 runs [0, 10), is stopped, runs again [20, 30);
       job 8, submitted at 0, runs [10, 20) */
    hsim_test_write_file(jobs, "job_id,submit,start,end,procs,bsld,user\n"
                               "7,0,20,30,1,3,1\n8,0,10,20,1,2,1\n");
    hsim_test_write_file(att, "job_id,start,end\n7,0,10\n");
    hsim_rjobs_t r;
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(hsim_rjobs_read(jobs, &r, &e), 0);
    CU_ASSERT_EQUAL_FATAL(hsim_rjobs_read_attempts(att, &r, &e), 0);
    CU_ASSERT_EQUAL_FATAL(r.n, 3);
    CU_ASSERT(r.j[2].attempt && !r.j[0].attempt);
    CU_ASSERT_EQUAL(r.j[2].id, 7);
    CU_ASSERT_DOUBLE_EQUAL(r.j[2].end, 10, 0);
    hsim_rcluster_t m;
    hsim_rcluster_pool(&m, 1);
    hsim_timeseries_t ts;
    CU_ASSERT_EQUAL_FATAL(hsim_timeseries_build(&r, &m, 2000, &ts), 0);
    const double *q = ts.v, *run = ts.v + ts.n, *u = ts.v + 2 * ts.n;
    for (size_t k = 0; k < 30 && k < ts.n; k++) { /* always one running */
        CU_ASSERT_DOUBLE_EQUAL(run[k], 1, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(u[k], 1, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(q[k], k < 20 ? 1 : 0, 1e-12); /* the other waits */
    }
    hsim_timeseries_free(&ts);
    hsim_pdata_t p;
    memset(&p, 0, sizeof p);
    CU_ASSERT_EQUAL(hsim_pdata_fill(&p, &r), 0);
    CU_ASSERT_EQUAL(p.n_cdf, 2); /* two jobs, not three runs */
    hsim_pdata_free(&p);
    hsim_rjobs_free(&r);
    hsim_test_write_file(att, "job_id,start,end\n7,0,10\n9,1,2\n");
    CU_ASSERT_EQUAL_FATAL(hsim_rjobs_read(jobs, &r, &e), 0);
    CU_ASSERT_EQUAL(hsim_rjobs_read_attempts(att, &r, &e), HSIM_EINPUT);
    CU_ASSERT(hsim_test_message_ok(e.msg, att, ":3: job 9 is not in jobs.csv", NULL, NULL));
    hsim_rjobs_free(&r);
    free(dir);
}

/* ---- time series ---- */

static void test_timeseries_by_hand(void)
{
    /* a pool of 4: A holds 2 over [0, 10); B, submitted at 0, 2 over [5, 15) */
    hsim_rjob_t j[2] = {{0, 0, 10, 1, {2, 0, 0, 0}, 1, "", 1, 0},
                        {0, 5, 15, 1.5, {2, 0, 0, 0}, 2, "", 2, 0}};
    hsim_rjobs_t r = {.j = j, .n = 2};
    hsim_rcluster_t m;
    hsim_rcluster_pool(&m, 4);
    hsim_timeseries_t ts;
    CU_ASSERT_EQUAL_FATAL(hsim_timeseries_build(&r, &m, 2000, &ts), 0);
    CU_ASSERT_DOUBLE_EQUAL(ts.width, 1, 0);
    CU_ASSERT_EQUAL(ts.n, 15);
    CU_ASSERT_EQUAL(ts.n_cols, 3);
    CU_ASSERT_STRING_EQUAL(ts.names[2], "util_procs");
    const double *q = ts.v, *run = ts.v + ts.n, *u = ts.v + 2 * ts.n;
    CU_ASSERT_DOUBLE_EQUAL(q[0], 1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(q[5], 0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(run[7], 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(u[0], 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(u[6], 1.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(u[14], 0.5, 1e-12);
    /* in 4 bins: 5 s wide, [0,5) half used, [5,10) all, [10,15) half */
    hsim_timeseries_free(&ts);
    CU_ASSERT_EQUAL_FATAL(hsim_timeseries_build(&r, &m, 4, &ts), 0);
    CU_ASSERT_DOUBLE_EQUAL(ts.width, 5, 0);
    CU_ASSERT_EQUAL(ts.n, 3);
    CU_ASSERT_DOUBLE_EQUAL(ts.v[2 * ts.n + 1], 1.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ts.v[2 * ts.n + 2], 0.5, 1e-12);
    hsim_timeseries_free(&ts);
}

/* Random jobs with fractional times: each bin's utilization and queue
   against the overlap of every job with it, summed job by job. */
static void test_timeseries_brute_force(void)
{
    srand(7);
    for (unsigned long round = 0; round < hsim_test_seeds(20); round++) {
        size_t n = 1 + (size_t)(rand() % 300);
        hsim_rjob_t *j = calloc(n, sizeof *j);
        for (size_t i = 0; i < n; i++) {
            j[i].submit = rand() % 5000 / 7.0;
            j[i].start = rand() % 10 == 0 ? -1 : j[i].submit + rand() % 800 / 3.0;
            j[i].end = j[i].start + rand() % 3000 / 11.0;
            j[i].res[HSIM_RES_CORES] = 1 + rand() % 8;
            j[i].nodes = "";
        }
        hsim_rjobs_t r = {.j = j, .n = n};
        hsim_rcluster_t m;
        hsim_rcluster_pool(&m, 16);
        hsim_timeseries_t ts;
        size_t bins = 1 + (size_t)(rand() % 60);
        CU_ASSERT_EQUAL_FATAL(hsim_timeseries_build(&r, &m, bins, &ts), 0);
        CU_ASSERT(ts.n <= bins);
        double end = ts.t0 + ts.width * (double)ts.n;
        for (size_t b = 0; b < ts.n; b++) {
            double lo = ts.t0 + ts.width * (double)b, hi = lo + ts.width, use = 0, wait = 0;
            for (size_t i = 0; i < n; i++) {
                double ws = j[i].start >= 0 ? j[i].start : end;
                wait += fmax(0, fmin(hi, ws) - fmax(lo, j[i].submit));
                if (j[i].start >= 0)
                    use += j[i].res[0] * fmax(0, fmin(hi, j[i].end) - fmax(lo, j[i].start));
            }
            CU_ASSERT_DOUBLE_EQUAL(ts.v[2 * ts.n + b], use / (16 * ts.width), 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(ts.v[b], wait / ts.width, 1e-9);
        }
        hsim_timeseries_free(&ts);
        free(j);
    }
}

/* ---- a whole experiment ---- */

static const char *const charts[] = {"utilization", "queue", "cdf", "bars", "fairness"};
static const char *const policies[] = {"fcfs", "easy", "cons"};

/* Runs the quick-start trace under three policies into dir, in every
   format.  0 when it ran. */
static int run_quickstart(const char *dir, hsim_config_t *cfg)
{
    char ini[700], text[1600];
    snprintf(ini, sizeof ini, "%s/q.ini", dir);
    snprintf(text, sizeof text,
             "[experiment]\nname = q\noutput = %s/out\n[workload]\npath = %s/traces/"
             "quickstart.swf\n[cluster]\nprocessors = 64\n[output]\nformats = png, svg, pdf\n"
             "[policy fcfs]\n[policy easy]\nbackfill = easy\n[policy cons]\n"
             "backfill = conservative\n",
             dir, HSIM_SOURCE_DIR);
    hsim_test_write_file(ini, text);
    hsim_err_t e;
    if (hsim_config_load(ini, cfg, &e)) {
        fprintf(stderr, "\n%s\n", e.msg);
        return -1;
    }
    hsim_experiment_options_t o = {.quiet = 1};
    int rc = hsim_experiment_run(cfg, &o, &e);
    if (rc)
        fprintf(stderr, "\n%s\n", e.msg);
    return rc;
}

static void test_experiment_every_format(void)
{
    char *dir = hsim_test_tmpdir("plotrun");
    static hsim_config_t cfg; /* large */
    CU_ASSERT_EQUAL_FATAL(run_quickstart(dir, &cfg), 0);
    char stem[800], cmd[2000];
    int xml = hsim_have_program("xmllint"), pdf = hsim_have_program("pdftoppm");
    if (!xml || !pdf)
        fprintf(stderr, "\n(xmllint or pdftoppm missing: SVGs and PDFs checked by their "
                        "first and last bytes only)\n");
    for (size_t k = 0; k < sizeof charts / sizeof charts[0] + 3 * 2; k++) {
        if (k < sizeof charts / sizeof charts[0])
            snprintf(stem, sizeof stem, "%s/out/q/%s", dir, charts[k]);
        else {
            size_t i = k - sizeof charts / sizeof charts[0];
            snprintf(stem, sizeof stem, "%s/out/q/%s/gantt", dir, policies[i / 2]);
            if (i % 2) /* a pool: no heatmap */
                snprintf(stem, sizeof stem, "%s/out/q/%s/timeseries", dir, policies[i / 2]);
        }
        if (strstr(stem, "timeseries")) {
            char csv[820];
            snprintf(csv, sizeof csv, "%s.csv", stem);
            CU_ASSERT(hsim_file_has(csv, "time,width,queue,running,util_procs", "\n"));
            continue;
        }
        hsim_check_formats(stem, 0, 0);
        snprintf(cmd, sizeof cmd, "xmllint --noout '%s.svg'", stem);
        if (xml)
            CU_ASSERT_EQUAL(system(cmd), 0);
        snprintf(cmd, sizeof cmd, "pdftoppm -r 20 -png -singlefile '%s.pdf' '%s-pdf' && "
                                  "test -s '%s-pdf.png'", stem, stem, stem);
        if (pdf)
            CU_ASSERT_EQUAL(system(cmd), 0);
        if (pdf) { /* the PDF's pages as drawn are not blank either */
            snprintf(cmd, sizeof cmd, "%s-pdf.png", stem);
            hsim_check_png(cmd, 0, 0);
        }
    }
    snprintf(stem, sizeof stem, "%s/out/q/heatmap.png", dir);
    CU_ASSERT_EQUAL(access(stem, F_OK), -1); /* a pool has no nodes */
    /* the fairness chart's Jain index (its legend) is the summary's */
    hsim_csv_t sum;
    hsim_err_t e;
    snprintf(stem, sizeof stem, "%s/out/q/summary.csv", dir);
    CU_ASSERT_EQUAL_FATAL(hsim_csv_open(&sum, stem, &e), 0);
    int k = hsim_csv_column(&sum, "fairness"), rows = 0;
    while (hsim_csv_next(&sum)) {
        double want;
        CU_ASSERT_EQUAL(hsim_csv_number(&sum, k, &want, &e), 0);
        snprintf(stem, sizeof stem, "%s/out/q/%s/jobs.csv", dir, sum.f[0]);
        hsim_rjobs_t r;
        hsim_pdata_t p = {0};
        CU_ASSERT_EQUAL(hsim_rjobs_read(stem, &r, &e), 0);
        CU_ASSERT_EQUAL(hsim_pdata_fill(&p, &r), 0);
        CU_ASSERT_DOUBLE_EQUAL(p.jain, want, 5e-7); /* 6 decimals in the CSV */
        CU_ASSERT(p.n_users > 1);
        hsim_pdata_free(&p);
        hsim_rjobs_free(&r);
        rows++;
    }
    CU_ASSERT_EQUAL(rows, 3);
    hsim_csv_close(&sum);
    free(dir);
}

/* report.html, rendered by headless Chromium: a page of the expected
   size, with charts on it (far more ink than text alone). */
static void test_report_in_chromium(void)
{
    const char *browser = hsim_have_program("chromium")           ? "chromium"
                          : hsim_have_program("chromium-browser") ? "chromium-browser"
                                                                  : NULL;
    if (!browser) {
        fprintf(stderr, "\n(chromium missing: report.html not rendered; scripts/setup.sh "
                        "installs it)\n");
        return;
    }
    char *dir = hsim_test_tmpdir("plotreport");
    static hsim_config_t cfg;
    CU_ASSERT_EQUAL_FATAL(run_quickstart(dir, &cfg), 0);
    char cmd[3000], shot[700];
    snprintf(shot, sizeof shot, "%s/shot.png", dir);
    snprintf(cmd, sizeof cmd, "HOME='%s' timeout 120 %s --headless --disable-gpu --no-sandbox "
             "--user-data-dir='%s/profile' --screenshot='%s' --window-size=1200,2000 "
             "'file://%s/out/q/report.html' >'%s/chromium.log' 2>&1", dir, browser, dir, shot,
             dir, dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    int w = 0, h = 0;
    long ink = hsim_png_ink(shot, &w, &h);
    CU_ASSERT_EQUAL(w, 1200);
    CU_ASSERT_EQUAL(h, 2000);
    CU_ASSERT(ink > 1200L * 2000 / 20); /* charts, not a blank or a text-only page */
    char html[700];
    snprintf(html, sizeof html, "%s/out/q/report.html", dir);
    CU_ASSERT(hsim_file_has(html, "<!DOCTYPE html>", "</html>"));
    free(dir);
}

/* Charts and report of a small cluster experiment (every chart, the
   heatmap too) whose n-th allocation fails, n = 1, 2, ... until they are
   drawn: each failure is out of memory and leaks nothing. */
static void test_enomem(void)
{
    char *dir = hsim_test_tmpdir("plotenomem");
    static hsim_config_t cfg;
    char text[1024], ini[600], res[700];
    snprintf(ini, sizeof ini, "%s/t.ini", dir);
    snprintf(text, sizeof text,
             "[experiment]\nname = t\noutput = %s/out\nseed = 7\n"
             "[workload]\nformat = lublin\njobs = 60\nload = 0.9\nusers = 5\n"
             "[nodes n]\ncount = 6\ncores = 8\n"
             "[policy a]\n[policy b]\nbackfill = easy\n", dir);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_config_parse_string(text, ini, &cfg, &e), 0);
    hsim_experiment_options_t o = {.quiet = 1};
    CU_ASSERT_EQUAL_FATAL(hsim_experiment_run(&cfg, &o, &e), 0);
    snprintf(res, sizeof res, "%s/out/t", dir);
    hsim_plot_options_t po = {HSIM_CHART_ALL, HSIM_FORMAT_PNG};
    int ok = 0, enomem = 0, other = 0, leaks = 0;
    for (long n = 1; n <= 5000 && !ok; n++) {
        long live = hsim_alloc_live();
        hsim_alloc_fail_after(n);
        int rc = hsim_plot_dir(res, &po, &e);
        hsim_alloc_fail_after(0);
        leaks += hsim_alloc_live() != live;
        if (rc == 0)
            ok = 1;
        else if (rc == HSIM_ENOMEM)
            enomem++;
        else if (other++ < 3)
            fprintf(stderr, "\nfailing allocation %ld gave %d: %s\n", n, rc, e.msg);
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_TRUE(enomem >= 20);
    CU_ASSERT_EQUAL(other, 0);
    CU_ASSERT_EQUAL(leaks, 0);
    snprintf(res, sizeof res, "%s/out/t/b/heatmap.png", dir);
    hsim_check_png(res, 16 + 64 + 800 + 90, 0);
    free(dir);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("plot-units");
    HSIM_TEST(s, test_lists);
    HSIM_TEST(s, test_base64);
    HSIM_TEST(s, test_csv_quotes);
    HSIM_TEST(s, test_attempts);
    HSIM_TEST(s, test_timeseries_by_hand);
    HSIM_TEST(s, test_timeseries_brute_force);
    s = hsim_test_suite("plot-experiment");
    HSIM_TEST(s, test_experiment_every_format);
    HSIM_TEST(s, test_report_in_chromium);
    HSIM_TEST(s, test_enomem);
}
