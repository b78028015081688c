/*
 * test_gpu_traces.c - the GPU trace readers: slices and whole-file counts of
 * the real traces under HSIM_SHARED_DIR (read in place; the expected values
 * were read by hand with zcat, head and awk), Gavel's throughput lookup and
 * its extrapolation rule, exact fractional arrival times, every kind of
 * malformed row (written to temporary files) with its line number, skip
 * mode, and allocation failures at every step.
 */
#include "harness.h"

#include "workloads/gpu_rows.h"
#include "workloads/gpu_traces.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S HSIM_SECOND
#define GPU_DIR HSIM_SHARED_DIR "/traces/gpu/"
#define THROUGHPUTS GPU_DIR "gavel-philly/throughputs.csv"

/* ---- helpers ---- */

static int contains(const char *hay, const char *needle) { return strstr(hay, needle) != NULL; }

static void check_contains(const char *msg, const char *needle)
{
    if (!contains(msg, needle)) {
        fprintf(stderr, "\nmessage '%s' lacks '%s'\n", msg, needle);
        CU_FAIL("message lacks an expected part");
    }
}

/* A temporary file holding text; remove it with drop_file().  The paths
   come from libc (not hsim's allocator). */
typedef struct tmp_file {
    char *dir;          /* from hsim_test_tmpdir(), libc-allocated */
    char path[600];     /* dir + "/" + the file's name */
} tmp_file_t;

static void make_file(tmp_file_t *t, const char *name, const char *text)
{
    t->dir = hsim_test_tmpdir("gpu");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t->dir);
    snprintf(t->path, sizeof t->path, "%s/%s", t->dir, name);
    FILE *f = fopen(t->path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static void drop_file(tmp_file_t *t)
{
    unlink(t->path);
    rmdir(t->dir);
    free(t->dir);
}

static const hsim_job_t *find_job(const hsim_workload_t *w, int64_t id)
{
    for (size_t i = 0; i < w->n_jobs; i++)
        if (w->jobs[i].id == id)
            return &w->jobs[i];
    return NULL;
}

static void check_sorted(const hsim_workload_t *w)
{
    for (size_t i = 1; i < w->n_jobs; i++) {
        const hsim_job_t *a = &w->jobs[i - 1], *b = &w->jobs[i];
        CU_ASSERT(a->submit < b->submit || (a->submit == b->submit && a->line < b->line));
    }
}

static int model_bit(hsim_workload_t *w, const char *name)
{
    for (size_t i = 0; i < w->n_models; i++)
        if (!strcmp(w->models[i], name))
            return 1 << i;
    return 0;
}

enum kind { GAVEL, ELASTICFLOW, PODS };

/* Reads path as kind (Gavel with the real throughput table). */
static int read_kind(enum kind k, const char *path, const hsim_gpu_read_options_t *o,
                     hsim_workload_t *w, hsim_err_t *e)
{
    hsim_workload_init(w);
    if (k == ELASTICFLOW)
        return hsim_elasticflow_read(path, o, w, e);
    if (k == PODS)
        return hsim_alibaba_pods_read(path, o, w, e);
    hsim_throughputs_t t;
    int rc = hsim_throughputs_read(THROUGHPUTS, &t, e);
    CU_ASSERT_EQUAL(rc, 0);
    if (!rc)
        rc = hsim_gavel_read(path, &t, o, w, e);
    hsim_throughputs_free(&t);
    return rc;
}

/* Reads text (from a temporary file) as kind. */
static int read_text(enum kind k, const char *text, const hsim_gpu_read_options_t *o,
                     hsim_workload_t *w, hsim_err_t *e)
{
    tmp_file_t t;
    make_file(&t, k == GAVEL ? "x.trace" : "x.csv", text);
    int rc = read_kind(k, t.path, o, w, e);
    drop_file(&t);
    return rc;
}

/* Expects text to fail with HSIM_EINPUT and a message holding both needles
   (the first is usually ":LINE: "); w is left empty. */
static void expect_bad(enum kind k, const char *text, const char *needle1, const char *needle2)
{
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    int rc = read_text(k, text, NULL, &w, &e);
    CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
    check_contains(e.msg, needle1);
    if (needle2)
        check_contains(e.msg, needle2);
    CU_ASSERT_EQUAL(w.n_jobs, 0);
    CU_ASSERT_PTR_NULL(w.jobs);
    hsim_workload_free(&w);
}

/* ---- throughputs ---- */

static void test_throughputs_table(void)
{
    hsim_throughputs_t t;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_throughputs_read(THROUGHPUTS, &t, &e), 0);
    CU_ASSERT_EQUAL(t.n, 83); /* 84 lines with the header */
    double tp[HSIM_GAVEL_MODELS];
    int32_t m = 0;
    /* measured: LM (batch size 10),8,75.5677,127.789,615.093 */
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "LM (batch size 10)", 8, tp, &m), 0);
    CU_ASSERT_EQUAL(m, 8);
    CU_ASSERT_EQUAL(tp[HSIM_GAVEL_K80], 75.5677);
    CU_ASSERT_EQUAL(tp[HSIM_GAVEL_P100], 127.789);
    CU_ASSERT_EQUAL(tp[HSIM_GAVEL_V100], 615.093);
    /* above 8: linear from 8 */
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "LM (batch size 10)", 16, tp, &m), 0);
    CU_ASSERT_EQUAL(m, 8);
    CU_ASSERT_EQUAL(tp[HSIM_GAVEL_V100], 2 * 615.093);
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "LM (batch size 10)", 64, tp, &m), 0);
    CU_ASSERT_EQUAL(tp[HSIM_GAVEL_K80], 8 * 75.5677);
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "LM (batch size 10)", 12, tp, &m), 0);
    CU_ASSERT_DOUBLE_EQUAL(tp[HSIM_GAVEL_P100], 1.5 * 127.789, 1e-9);
    /* unmeasured below 8: linear from the largest measured below (4) */
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "LM (batch size 10)", 7, tp, &m), 0);
    CU_ASSERT_EQUAL(m, 4);
    CU_ASSERT_DOUBLE_EQUAL(tp[HSIM_GAVEL_V100], 121.478 * 7 / 4, 1e-9);
    /* A3C was measured at scale factor 1 only */
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "A3C", 20, tp, &m), 0);
    CU_ASSERT_EQUAL(m, 1);
    CU_ASSERT_DOUBLE_EQUAL(tp[HSIM_GAVEL_V100], 20 * 7.17577, 1e-9);
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "A3C", 1, tp, NULL), 0);
    CU_ASSERT_EQUAL(tp[HSIM_GAVEL_K80], 3.43877);
    /* misses */
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "NoSuchNet", 1, tp, &m), HSIM_EINPUT);
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "LM (batch size", 1, tp, &m), HSIM_EINPUT);
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "A3C", 0, tp, &m), HSIM_EINPUT);
    hsim_throughputs_free(&t);
    CU_ASSERT_EQUAL(t.n, 0);
}

static void test_gavel_speeds(void)
{
    hsim_throughputs_t t;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_throughputs_read(THROUGHPUTS, &t, &e), 0);
    double sp = -1;
    CU_ASSERT_EQUAL(hsim_gavel_speed(&t, "LM (batch size 10)", 8, HSIM_GAVEL_P100, &sp), 0);
    CU_ASSERT_DOUBLE_EQUAL(sp, 127.789 / 615.093, 1e-12);
    CU_ASSERT_EQUAL(hsim_gavel_speed(&t, "LM (batch size 10)", 32, HSIM_GAVEL_P100, &sp), 0);
    CU_ASSERT_DOUBLE_EQUAL(sp, 127.789 / 615.093, 1e-12); /* same as at 8 */
    CU_ASSERT_EQUAL(hsim_gavel_speed(&t, "LM (batch size 10)", 32, HSIM_GAVEL_V100, &sp), 0);
    CU_ASSERT_EQUAL(sp, 1.0);
    /* Recommendation runs faster on a K80 than on a V100 */
    CU_ASSERT_EQUAL(hsim_gavel_speed(&t, "Recommendation (batch size 1024)", 1,
                                     HSIM_GAVEL_K80, &sp), 0);
    CU_ASSERT_DOUBLE_EQUAL(sp, 20.05 / 13.2826, 1e-12);
    /* ResNet-50 (batch size 128) does not run on K80s beyond one GPU */
    CU_ASSERT_EQUAL(hsim_gavel_speed(&t, "ResNet-50 (batch size 128)", 2, HSIM_GAVEL_K80, &sp), 0);
    CU_ASSERT_EQUAL(sp, 0.0);
    CU_ASSERT_EQUAL(hsim_gavel_class_speed(&t, "ResNet-50 (batch size 128)@24", HSIM_GAVEL_K80,
                                           &sp), 0);
    CU_ASSERT_EQUAL(sp, 0.0);
    CU_ASSERT_EQUAL(hsim_gavel_class_speed(&t, "ResNet-50 (batch size 128)@16",
                                           HSIM_GAVEL_P100, &sp), 0);
    CU_ASSERT_DOUBLE_EQUAL(sp, 9.93497 / 10.2932, 1e-12);
    CU_ASSERT_EQUAL(hsim_gavel_class_speed(&t, "A3C", HSIM_GAVEL_K80, &sp), HSIM_EINPUT);
    CU_ASSERT_EQUAL(hsim_gavel_class_speed(&t, "A3C@", HSIM_GAVEL_K80, &sp), HSIM_EINPUT);
    CU_ASSERT_EQUAL(hsim_gavel_class_speed(&t, "A3C@x", HSIM_GAVEL_K80, &sp), HSIM_EINPUT);
    CU_ASSERT_EQUAL(hsim_gavel_class_speed(&t, "A3C@0", HSIM_GAVEL_K80, &sp), HSIM_EINPUT);
    CU_ASSERT_EQUAL(hsim_gavel_class_speed(&t, "Foo@1", HSIM_GAVEL_K80, &sp), HSIM_EINPUT);
    CU_ASSERT_STRING_EQUAL(hsim_gavel_model_name(HSIM_GAVEL_K80), "k80");
    CU_ASSERT_STRING_EQUAL(hsim_gavel_model_name(HSIM_GAVEL_V100), "v100");
    hsim_throughputs_free(&t);
}

/* A table without the small scale factors scales down from the smallest. */
static void test_throughputs_scale_down(void)
{
    tmp_file_t f;
    make_file(&f, "tp.csv",
              "scale_factor,job_type,k80_steps_per_s,p100_steps_per_s,v100_steps_per_s\r\n"
              "4,X,4,8,16\r\n"
              "2,X,2,4,8\r\n"
              "1,Y,1,1,1\r\n");
    hsim_throughputs_t t;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_throughputs_read(f.path, &t, &e), 0);
    double tp[HSIM_GAVEL_MODELS];
    int32_t m = 0;
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "X", 1, tp, &m), 0);
    CU_ASSERT_EQUAL(m, 2);
    CU_ASSERT_EQUAL(tp[HSIM_GAVEL_V100], 4.0);
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "X", 3, tp, &m), 0);
    CU_ASSERT_EQUAL(m, 2);
    CU_ASSERT_EQUAL(tp[HSIM_GAVEL_K80], 3.0);
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "X", 4, tp, &m), 0);
    CU_ASSERT_EQUAL(m, 4);
    CU_ASSERT_EQUAL(hsim_throughputs_lookup(&t, "Y", 3, tp, &m), 0);
    CU_ASSERT_EQUAL(tp[HSIM_GAVEL_P100], 3.0);
    hsim_throughputs_free(&t);
    drop_file(&f);
}

static void expect_bad_table(const char *text, const char *needle1, const char *needle2)
{
    tmp_file_t f;
    make_file(&f, "tp.csv", text);
    hsim_throughputs_t t;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_throughputs_read(f.path, &t, &e), HSIM_EINPUT);
    check_contains(e.msg, needle1);
    if (needle2)
        check_contains(e.msg, needle2);
    hsim_throughputs_free(&t);
    drop_file(&f);
}

static void test_throughputs_errors(void)
{
    const char *h = "job_type,scale_factor,k80_steps_per_s,p100_steps_per_s,v100_steps_per_s\n";
    char text[512];
    snprintf(text, sizeof text, "%sA,1,1,2,3\nB,1,1,2,3\n\nA,1,4,5,6\n", h);
    expect_bad_table(text, "tp.csv:5: expected one row per job type and scale factor",
                     "found 'A' at scale factor 1 again (first on line 2)");
    snprintf(text, sizeof text, "%sA,1,1,2,0\n", h);
    expect_bad_table(text, ":2: field 5 (v100_steps_per_s): expected a number >= 1e-06",
                     "found '0'");
    /* a denormal reference would make the other GPUs infinitely fast */
    snprintf(text, sizeof text, "%sA,1,1,2,1e-320\n", h);
    expect_bad_table(text, ":2: field 5 (v100_steps_per_s): expected a number >= 1e-06",
                     "found '1e-320'");
    snprintf(text, sizeof text, "%sA,1,-1,2,3\n", h);
    expect_bad_table(text, ":2: field 3 (k80_steps_per_s): expected a number from 0 to 1e+09",
                     "found '-1'");
    /* scaled to a larger job, 1e308 steps/s would overflow to infinity */
    snprintf(text, sizeof text, "%sA,2,1e308,2,3\n", h);
    expect_bad_table(text, ":2: field 3 (k80_steps_per_s): expected a number from 0 to 1e+09",
                     "found '1e308'");
    snprintf(text, sizeof text, "%sA,1,fast,2,3\n", h);
    expect_bad_table(text, ":2: field 3 (k80_steps_per_s): expected a number, found 'fast'",
                     NULL);
    /* decimal only: strtod() alone would read 0x10 as 16 */
    snprintf(text, sizeof text, "%sA,1,0x10,2,3\n", h);
    expect_bad_table(text, ":2: field 3 (k80_steps_per_s): expected a number, found '0x10'",
                     NULL);
    snprintf(text, sizeof text, "%sA,1, +0X1p4,2,3\n", h); /* libcsv trims the space */
    expect_bad_table(text, ":2: field 3 (k80_steps_per_s): expected a number, found", NULL);
    snprintf(text, sizeof text, "%sA,0,1,2,3\n", h);
    expect_bad_table(text, ":2: field 2 (scale_factor): expected an integer >= 1, found '0'",
                     NULL);
    snprintf(text, sizeof text, "%sA,1,1,2\n", h);
    expect_bad_table(text, ":2: expected 5 fields, found 4", NULL);
    expect_bad_table("job_type,scale,k80_steps_per_s\n",
                     ":1: expected a header with column 'scale_factor'",
                     "found 'job_type,scale,k80_steps_per_s'");
    expect_bad_table("", ":1: expected a header", "empty file");
}

/* ---- Gavel traces ---- */

static void test_gavel_first_jobs(void)
{
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    hsim_gpu_read_options_t o = {.max_jobs = 4};
    CU_ASSERT_EQUAL_FATAL(read_kind(GAVEL, GPU_DIR "gavel-philly/ee9e8c.trace.gz", &o, &w, &e),
                          0);
    CU_ASSERT_EQUAL(w.n_input, 4);
    CU_ASSERT_EQUAL_FATAL(w.n_jobs, 4);
    CU_ASSERT_EQUAL(w.n_rejected, 0);
    CU_ASSERT_EQUAL_FATAL(w.n_models, 3);
    CU_ASSERT_STRING_EQUAL(w.models[0], "k80");
    CU_ASSERT_STRING_EQUAL(w.models[1], "p100");
    CU_ASSERT_STRING_EQUAL(w.models[2], "v100");
    /* Transformer (batch size 128) ... 1  15486530  0.000000  1 */
    const hsim_job_t *j = &w.jobs[0];
    CU_ASSERT_EQUAL(j->id, 1);
    CU_ASSERT_EQUAL(j->line, 1);
    CU_ASSERT_EQUAL(j->submit, 0);
    CU_ASSERT_EQUAL(j->runtime, 2843594786003); /* 15486530 / 5.44611 s */
    CU_ASSERT_EQUAL(j->estimate, j->runtime);
    CU_ASSERT_EQUAL(j->procs, 1);
    CU_ASSERT_EQUAL(j->gpus, 1);
    CU_ASSERT_EQUAL(j->gpu_milli, 1000);
    CU_ASSERT_EQUAL(j->nodes, 0);
    CU_ASSERT_EQUAL(j->gpu_models, 7);
    CU_ASSERT_STRING_EQUAL(w.classes[j->job_class], "Transformer (batch size 128)@1");
    /* Recommendation (batch size 8192) ... 779751 336541.000000 8: measured
       at scale factor 1 only, so 8 x 2.84151 steps/s */
    j = &w.jobs[1];
    CU_ASSERT_EQUAL(j->id, 2);
    CU_ASSERT_EQUAL(j->submit, 336541 * S);
    CU_ASSERT_EQUAL(j->runtime, 34301788486);
    CU_ASSERT_EQUAL(j->procs, 8);
    CU_ASSERT_EQUAL(j->gpus, 8);
    CU_ASSERT_STRING_EQUAL(w.classes[j->job_class], "Recommendation (batch size 8192)@8");
    j = &w.jobs[3]; /* ResNet-18 (batch size 32), 52322471 steps, 8 GPUs */
    CU_ASSERT_EQUAL(j->submit, 476285 * S);
    CU_ASSERT_EQUAL(j->runtime, 153872423082);
    hsim_workload_free(&w);
}

static void test_gavel_extrapolated_rows(void)
{
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(read_kind(GAVEL, GPU_DIR "gavel-philly/ee9e8c.trace.gz", NULL, &w, &e),
                          0);
    CU_ASSERT_EQUAL(w.n_jobs, 2000);
    CU_ASSERT_EQUAL(w.n_classes, 133);
    check_sorted(&w);
    const hsim_job_t *j = find_job(&w, 24); /* LM (batch size 20), 6129666 steps, 16 GPUs */
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->line, 24);
    CU_ASSERT_EQUAL(j->submit, 926406 * S);
    CU_ASSERT_EQUAL(j->gpus, 16);
    CU_ASSERT(llabs(j->runtime - 6163007873) <= 1); /* 2 x 497.295 steps/s */
    CU_ASSERT_STRING_EQUAL(w.classes[j->job_class], "LM (batch size 20)@16");
    j = find_job(&w, 5); /* ResNet-50 (batch size 128), 8 GPUs: none on K80 */
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->runtime, 198459079781);
    CU_ASSERT_EQUAL(j->gpu_models, 2 | 4);
    j = find_job(&w, 722); /* Transformer (batch size 128), 7 GPUs: 7/4 of 4 */
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT(llabs(j->runtime - 14101258296) <= 1);
    j = find_job(&w, 1278); /* A3C, 20 GPUs: 20 x the one-GPU throughput */
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT(llabs(j->runtime - 6538273941) <= 1);
    CU_ASSERT_EQUAL(j->procs, 20);
    hsim_workload_free(&w);

    CU_ASSERT_EQUAL_FATAL(read_kind(GAVEL, GPU_DIR "gavel-philly/e13805.trace.gz", NULL, &w, &e),
                          0);
    j = find_job(&w, 227); /* ResNet-50 (batch size 128), 24 GPUs: 3 x scale 8 */
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT(llabs(j->runtime - 43579353359) <= 1);
    CU_ASSERT_EQUAL(j->gpu_models, 2 | 4);
    hsim_workload_free(&w);
}

static void test_gavel_whole_files(void)
{
    static const struct {
        const char *name;
        size_t rows;
    } files[] = {
        {"0e4a51", 1181}, {"103959", 986}, {"11cb48", 2000}, {"23dbec", 9},
        {"2869ce", 533},  {"51b7ef", 18},  {"6214e9", 2000}, {"6c71a0", 2000},
        {"795a4c", 3},    {"7f04ca", 972}, {"925e2b", 4},    {"b436b2", 2000},
        {"e13805", 607},  {"ed69ec", 951}, {"ee9e8c", 2000},
    };
    size_t total = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, GPU_DIR "gavel-philly/%s.trace.gz", files[i].name);
        hsim_workload_t w;
        hsim_err_t e = {{0}};
        int rc = read_kind(GAVEL, path, NULL, &w, &e);
        if (rc)
            fprintf(stderr, "\n%s\n", e.msg);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(w.n_input, files[i].rows);
        CU_ASSERT_EQUAL(w.n_jobs, files[i].rows);
        CU_ASSERT_EQUAL(w.n_rejected, 0);
        check_sorted(&w);
        for (size_t k = 0; k < w.n_jobs; k++) {
            CU_ASSERT(w.jobs[k].runtime > 0);
            CU_ASSERT(w.jobs[k].job_class >= 0);
        }
        total += w.n_jobs;
        hsim_workload_free(&w);
    }
    CU_ASSERT_EQUAL(total, 15264);
}

static void test_gavel_fractional_arrivals(void)
{
    const char *text =
        "A3C\tpython3 main.py --env PongDeterministic-v4\t--max-steps\t0\t7175770\t12.5\t1\n"
        "A3C\tx\t-n\t0\t7175770\t0.000001\t1\n"
        "A3C\tx\t-n\t0\t7175770\t3.1234567\t1\n"
        "A3C\tx\t-n\t0\t7175770\t3.1234564\t1\n"
        "A3C\tx\t-n\t0\t7175770\t7\t2\n"
        "A3C\tx\t-n\t1\t1\t+8.\t1\n";
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(read_text(GAVEL, text, NULL, &w, &e), 0);
    CU_ASSERT_EQUAL_FATAL(w.n_jobs, 6);
    CU_ASSERT_EQUAL(find_job(&w, 1)->submit, 12 * S + S / 2);
    CU_ASSERT_EQUAL(find_job(&w, 1)->runtime, 1000000 * S); /* 7175770 / 7.17577 */
    CU_ASSERT_EQUAL(find_job(&w, 2)->submit, 1);
    CU_ASSERT_EQUAL(find_job(&w, 3)->submit, 3123457); /* rounded to the microsecond */
    CU_ASSERT_EQUAL(find_job(&w, 4)->submit, 3123456);
    CU_ASSERT_EQUAL(find_job(&w, 5)->submit, 7 * S);
    CU_ASSERT_EQUAL(find_job(&w, 5)->runtime, 500000 * S); /* twice the throughput */
    CU_ASSERT_EQUAL(find_job(&w, 6)->submit, 8 * S);
    CU_ASSERT_EQUAL(find_job(&w, 6)->runtime, 139358); /* 1 / 7.17577 s */
    /* sorted by submit: ids 2, 4, 3, 5, 6, 1 */
    static const int64_t order[] = {2, 4, 3, 5, 6, 1};
    for (size_t i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(w.jobs[i].id, order[i]);
    CU_ASSERT_EQUAL(w.n_classes, 2);
    hsim_workload_free(&w);
}

#define GOOD "ResNet-18 (batch size 32)\tcd x && python3 main.py\t--num_steps\t1\t1000\t10\t2\n"

static void test_gavel_bad_rows(void)
{
    expect_bad(GAVEL, GOOD "A3C\tx\t-n\t0\t100\t10\n", "x.trace:2: expected 7 fields, found 6",
               NULL);
    expect_bad(GAVEL, GOOD "A3C\tx\t-n\t0\t100\t10\t1\t9\n", ":2: expected 7 fields, found 8",
               NULL);
    expect_bad(GAVEL, GOOD "\n\nA3C\tx\t-n\t0\tmany\t10\t1\n",
               "x.trace:4: field 5 (total steps): expected an integer, found 'many'", NULL);
    expect_bad(GAVEL, GOOD "A3C\tx\t-n\t0\t100\t10\t-2\n",
               ":2: field 7 (scale factor): expected an integer >= 1, found '-2'", NULL);
    expect_bad(GAVEL, GOOD "A3C\tx\t-n\t0\t100\t10\t99999999999\n",
               ":2: field 7 (scale factor): expected an integer from 1 to 2147483647",
               "found '99999999999'");
    expect_bad(GAVEL, GOOD "A3C\tx\t-n\t0\t-100\t10\t1\n",
               ":2: field 5 (total steps): expected an integer >= 1, found '-100'", NULL);
    expect_bad(GAVEL, GOOD "A3C\tx\t-n\t0\t100\t10\t1.5\n",
               ":2: field 7 (scale factor): expected an integer, found '1.5'", NULL);
    expect_bad(GAVEL, GOOD "A3C\tx\t-n\t2\t100\t10\t1\n",
               ":2: field 4 (needs-data flag): expected an integer from 0 to 1, found '2'", NULL);
    expect_bad(GAVEL, GOOD "A3C\tx\t-n\t0\t100\t-1.5\t1\n",
               ":2: field 6 (arrival time): expected seconds >= 0, found '-1.5'", NULL);
    expect_bad(GAVEL, GOOD "A3C\tx\t-n\t0\t100\t1e3\t1\n",
               ":2: field 6 (arrival time): expected seconds (a decimal number), found '1e3'",
               NULL);
    expect_bad(GAVEL, GOOD "A3C\tx\t-n\t0\t100\t\t1\n",
               ":2: field 6 (arrival time): expected seconds (a decimal number), found ''",
               NULL);
    expect_bad(GAVEL, GOOD "NoSuchNet (batch size 1)\tx\t-n\t0\t100\t10\t1\n",
               ":2: field 1 (job type): expected a job type of the throughput table",
               "found 'NoSuchNet (batch size 1)'");
    expect_bad(GAVEL, GOOD "A3C\tx\t-n\t0\t100000000000000000\t10\t1\n",
               ":2: field 5 (total steps): expected a run under", NULL);
    /* CRLF line ends count as one line each */
    expect_bad(GAVEL, "A3C\tx\t-n\t0\t100\t10\t1\r\n\r\nA3C\tx\t-n\t0\t100\t10\t0\r\n",
               ":3: field 7 (scale factor)", NULL);
}

static void test_gavel_skip_mode(void)
{
    const char *text = GOOD                                        /* 1 */
        "A3C\tx\t-n\t0\t100\t10\n"                                 /* 2 */
        "\n"                                                       /* 3 */
        "A3C\tx\t-n\t0\tmany\t10\t1\n"                             /* 4 */
        "NoSuchNet\tx\t-n\t0\t100\t10\t1\n"                        /* 5 */
        "A3C\tx\t-n\t0\t100\t5\t4\n"                               /* 6 */
        "A3C\tx\t-n\t0\t100\t10\t-4\n";                            /* 7 */
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    hsim_gpu_read_options_t o = {.skip_bad_rows = 1};
    CU_ASSERT_EQUAL_FATAL(read_text(GAVEL, text, &o, &w, &e), 0);
    CU_ASSERT_EQUAL(w.n_input, 6);
    CU_ASSERT_EQUAL(w.n_jobs, 2);
    CU_ASSERT_EQUAL_FATAL(w.n_rejected, 4);
    CU_ASSERT_EQUAL(w.jobs[0].id, 5); /* submitted at 5 s, row 5, line 6 */
    CU_ASSERT_EQUAL(w.jobs[0].line, 6);
    CU_ASSERT_EQUAL(w.jobs[1].id, 1);
    const hsim_rejection_t *r = w.rejected;
    CU_ASSERT_EQUAL(r[0].line, 2);
    CU_ASSERT_EQUAL(r[0].id, 2);
    CU_ASSERT_STRING_EQUAL(r[0].reason, "expected 7 fields, found 6");
    CU_ASSERT_EQUAL(r[1].line, 4);
    CU_ASSERT_EQUAL(r[1].id, 3);
    CU_ASSERT_STRING_EQUAL(r[1].reason,
                           "field 5 (total steps): expected an integer, found 'many'");
    CU_ASSERT_EQUAL(r[2].line, 5);
    check_contains(r[2].reason, "field 1 (job type)");
    CU_ASSERT_EQUAL(r[3].line, 7);
    check_contains(r[3].reason, "field 7 (scale factor)");
    hsim_workload_free(&w);

    /* max_jobs counts rows read, rejected or not */
    o.max_jobs = 3;
    CU_ASSERT_EQUAL_FATAL(read_text(GAVEL, text, &o, &w, &e), 0);
    CU_ASSERT_EQUAL(w.n_input, 3);
    CU_ASSERT_EQUAL(w.n_jobs, 1);
    CU_ASSERT_EQUAL(w.n_rejected, 2);
    hsim_workload_free(&w);
}

static void test_gavel_io_errors(void)
{
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(read_kind(GAVEL, GPU_DIR "gavel-philly/none.trace.gz", NULL, &w, &e),
                    HSIM_EIO);
    check_contains(e.msg, "none.trace.gz: cannot open");
    hsim_workload_free(&w);
    CU_ASSERT_EQUAL(read_kind(GAVEL, GPU_DIR "gavel-philly", NULL, &w, &e), HSIM_EIO);
    CU_ASSERT_STRING_EQUAL(e.msg, GPU_DIR "gavel-philly: cannot read: Is a directory");
    hsim_workload_free(&w);
    hsim_throughputs_t t;
    CU_ASSERT_EQUAL(hsim_throughputs_read(GPU_DIR "nothing.csv", &t, &e), HSIM_EIO);
    hsim_throughputs_free(&t);
    /* a truncated gzip stream is a read error, not a short trace */
    tmp_file_t f;
    make_file(&f, "cut.gz", "");
    FILE *out = fopen(f.path, "wb");
    FILE *in = fopen(GPU_DIR "gavel-philly/ee9e8c.trace.gz", "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    char buf[4096];
    size_t got = fread(buf, 1, sizeof buf, in);
    fwrite(buf, 1, got, out);
    fclose(in);
    fclose(out);
    CU_ASSERT_EQUAL(read_kind(GAVEL, f.path, NULL, &w, &e), HSIM_EIO);
    check_contains(e.msg, ": read error: unexpected end of file (is the file cut short?)");
    const char *at = strstr(e.msg, f.path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    CU_ASSERT_PTR_NULL(strstr(at + strlen(f.path), f.path)); /* named once */
    hsim_workload_free(&w);
    drop_file(&f);
}

/* ---- ElasticFlow ---- */

static void test_elasticflow_first_jobs(void)
{
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    hsim_gpu_read_options_t o = {.max_jobs = 3};
    CU_ASSERT_EQUAL_FATAL(read_kind(ELASTICFLOW, GPU_DIR "elasticflow/cluster01.csv.gz", &o, &w,
                                    &e), 0);
    CU_ASSERT_EQUAL(w.n_input, 3);
    CU_ASSERT_EQUAL_FATAL(w.n_jobs, 3);
    /* 965d744f-0445-c1a8-12af-97e4c536c66e,1932025,2429,64 */
    const hsim_job_t *j = &w.jobs[0];
    CU_ASSERT_EQUAL(j->id, 1);
    CU_ASSERT_EQUAL(j->line, 2);
    CU_ASSERT_EQUAL(j->submit, 1932025 * S);
    CU_ASSERT_EQUAL(j->runtime, 2429 * S);
    CU_ASSERT_EQUAL(j->estimate, 2429 * S);
    CU_ASSERT_EQUAL(j->gpus, 64);
    CU_ASSERT_EQUAL(j->procs, 64);
    CU_ASSERT_EQUAL(j->gpu_milli, 1000);
    CU_ASSERT_EQUAL(j->gpu_models, 0);
    CU_ASSERT_EQUAL(j->job_class, -1);
    CU_ASSERT_STRING_EQUAL(hsim_workload_job_name(&w, j->name),
                           "965d744f-0445-c1a8-12af-97e4c536c66e"); /* the trace's id */
    /* fb10987f-20ac-3703-eb67-146a77a6e17c,2000581,1532,1 */
    j = &w.jobs[1];
    CU_ASSERT_EQUAL(j->id, 2);
    CU_ASSERT_STRING_EQUAL(hsim_workload_job_name(&w, j->name),
                           "fb10987f-20ac-3703-eb67-146a77a6e17c");
    CU_ASSERT_EQUAL(j->submit, 2000581 * S);
    CU_ASSERT_EQUAL(j->runtime, 1532 * S);
    CU_ASSERT_EQUAL(j->gpus, 1);
    hsim_workload_free(&w);
}

static void test_elasticflow_whole_files(void)
{
    static const struct {
        const char *name;
        size_t rows;
    } files[] = {
        {"cluster01", 1595}, {"cluster02", 5778}, {"cluster03", 3011},
        {"cluster04", 15802}, {"cluster05", 3629},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, GPU_DIR "elasticflow/%s.csv.gz", files[i].name);
        hsim_workload_t w;
        hsim_err_t e = {{0}};
        CU_ASSERT_EQUAL(read_kind(ELASTICFLOW, path, NULL, &w, &e), 0);
        CU_ASSERT_EQUAL(w.n_input, files[i].rows);
        CU_ASSERT_EQUAL(w.n_jobs, files[i].rows);
        check_sorted(&w);
        if (i == 3) {
            /* the last line has no '\n':
               7d4fa4db-d71c-077c-b82a-1c6f87e4cc5c,5142627,33740,8 */
            const hsim_job_t *j = find_job(&w, 15802);
            CU_ASSERT_PTR_NOT_NULL_FATAL(j);
            CU_ASSERT_EQUAL(j->line, 15803);
            CU_ASSERT_EQUAL(j->submit, 5142627 * S);
            CU_ASSERT_EQUAL(j->runtime, 33740 * S);
            CU_ASSERT_EQUAL(j->gpus, 8);
        }
        hsim_workload_free(&w);
    }
}

#define EF_HEADER "job_id,submission_time,duration,num_gpu\n"

static void test_elasticflow_bad_rows(void)
{
    expect_bad(ELASTICFLOW, EF_HEADER "a,1,2,1\nb,1,0,1\n",
               "x.csv:3: field 3 (duration): expected seconds > 0, found '0'", NULL);
    expect_bad(ELASTICFLOW, EF_HEADER "a,1,2,0\n",
               ":2: field 4 (num_gpu): expected an integer >= 1, found '0'", NULL);
    expect_bad(ELASTICFLOW, EF_HEADER "a,-5,2,1\n",
               ":2: field 2 (submission_time): expected seconds >= 0, found '-5'", NULL);
    /* rounded to the microsecond, still negative (it once came out +1 us) */
    expect_bad(ELASTICFLOW, EF_HEADER "a,-0.0000005,2,1\n",
               ":2: field 2 (submission_time): expected seconds >= 0", NULL);
    expect_bad(ELASTICFLOW, EF_HEADER "a,5,2\n", ":2: expected 4 fields, found 3", NULL);
    expect_bad(ELASTICFLOW, EF_HEADER "a,5,2,1,\n", ":2: expected 4 fields, found 5", NULL);
    expect_bad(ELASTICFLOW, EF_HEADER "a,5,two,1\n",
               ":2: field 3 (duration): expected seconds (a decimal number), found 'two'", NULL);
    expect_bad(ELASTICFLOW, "fb10987f-20ac,2000581,1532,1\n",
               "x.csv:1: expected a header with column 'job_id'",
               "found 'fb10987f-20ac,2000581,1532,1'");
    expect_bad(ELASTICFLOW, "", ":1: expected a header", "empty file");

    /* a column named twice: which one would hold? (the first did, without
       a word) */
    expect_bad(ELASTICFLOW, "job_id,submission_time,duration,num_gpu,num_gpu\na,0,10,1,8\n",
               "x.csv:1: column 'num_gpu' given twice in the header (fields 4 and 5)",
               "expected it once");
    expect_bad(ELASTICFLOW, "job_id,submission_time,duration,job_id,num_gpu\na,0,10,b,1\n",
               "x.csv:1: column 'job_id' given twice in the header (fields 1 and 4)", NULL);
    /* a quoted id spanning two lines: the row is on line 2, the next on 4 */
    expect_bad(ELASTICFLOW, EF_HEADER "\"a,\nb\",5,2,1\nc,5,2,x\n",
               "x.csv:4: field 4 (num_gpu): expected an integer, found 'x'", NULL);
    /* a bare CR ends a row and a line, as \n and CRLF do */
    expect_bad(ELASTICFLOW, EF_HEADER "a,0,10,1\rb,0,20,2\r\nc,0,x,1\n",
               "x.csv:4: field 3 (duration)", NULL);
    /* a job_id given twice ran the job twice without a word */
    expect_bad(ELASTICFLOW, EF_HEADER "a,0,10,1\nb,0,20,2\nc,1,5,1\nb,2,20,2\n",
               "x.csv:5: field 1 (job_id): 'b' again (first at line 3)",
               "expected each job once");
}

/* skip_bad_rows rejects the repeat of a job_id, with the first's line; a
   bad row's id is not taken, so a good row may have it after it; many
   ids, to grow the table of those seen. */
static void test_elasticflow_repeated_ids(void)
{
    hsim_gpu_read_options_t o = {.skip_bad_rows = 1};
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    char *text = malloc(64 * 5000 + 256);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char *p = text + sprintf(text, EF_HEADER "x,1,0,1\nx,1,5,1\n");
    for (int i = 0; i < 5000; i++)
        p += sprintf(p, "id-%d,%d,10,1\n", i, i);
    sprintf(p, "x,9,5,1\nid-17,9,5,1\n");
    CU_ASSERT_EQUAL_FATAL(read_text(ELASTICFLOW, text, &o, &w, &e), 0);
    free(text);
    CU_ASSERT_EQUAL(w.n_input, 5004);
    CU_ASSERT_EQUAL(w.n_jobs, 5001);
    CU_ASSERT_EQUAL_FATAL(w.n_rejected, 3);
    check_contains(w.rejected[0].reason, "field 3 (duration)");
    CU_ASSERT_EQUAL(w.rejected[1].line, 5004);
    check_contains(w.rejected[1].reason, "'x' again (first at line 3)");
    CU_ASSERT_EQUAL(w.rejected[2].line, 5005);
    check_contains(w.rejected[2].reason, "'id-17' again (first at line 21)");
    hsim_workload_free(&w);
}

/* A UTF-8 byte order mark before the header is skipped (a CSV saved from a
   spreadsheet on Windows has one); the first column keeps its name. */
static void test_byte_order_mark(void)
{
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(read_text(ELASTICFLOW, "\xEF\xBB\xBF" EF_HEADER "a,0,10,1\nb,5,20,2\n",
                                    NULL, &w, &e), 0);
    CU_ASSERT_EQUAL(w.n_jobs, 2);
    if (w.n_jobs == 2)
        CU_ASSERT_EQUAL(w.jobs[1].gpus, 2);
    hsim_workload_free(&w);
    /* only at the start of the file: elsewhere it is part of a field */
    expect_bad(ELASTICFLOW, EF_HEADER "a,\xEF\xBB\xBF" "0,10,1\n",
               "x.csv:2: field 2 (submission_time)", NULL);
}

/* A NUL byte is an error at its line, for CSV and for Gavel's TSV: a
   field ended at it unseen ("10\0999" was read as 10). */
static void test_nul_byte(void)
{
    static const char csv[] = EF_HEADER "a,0,10\0" "999,1\nb,5,20,2\n";
    static const char tsv[] = "ResNet-18\tcmd\t-n\t0\t100\0\t0\t1\n";
    const struct {
        enum kind k;
        const char *name, *text;
        size_t len;
        const char *line;
    } cases[] = {{ELASTICFLOW, "x.csv", csv, sizeof csv - 1, "x.csv:2: a NUL byte"},
                 {GAVEL, "x.trace", tsv, sizeof tsv - 1, "x.trace:1: a NUL byte"}};
    for (size_t i = 0; i < 2; i++) {
        tmp_file_t t;
        make_file(&t, cases[i].name, "");
        FILE *f = fopen(t.path, "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_EQUAL(fwrite(cases[i].text, 1, cases[i].len, f), cases[i].len);
        fclose(f);
        hsim_workload_t w;
        hsim_err_t e = {{0}};
        CU_ASSERT_EQUAL(read_kind(cases[i].k, t.path, NULL, &w, &e), HSIM_EINPUT);
        check_contains(e.msg, cases[i].line);
        CU_ASSERT_EQUAL(w.n_jobs, 0);
        hsim_workload_free(&w);
        drop_file(&t);
    }
}

/* A row longer than HSIM__ROW_MAX is an error at the line it starts on,
   quoted (an unclosed quote makes the rest of the file one field) or not;
   one byte shorter reads (a gzip file of one 1 GB row kept hsim busy for
   a minute and a half, and took 2 GB). */
static void test_long_rows(void)
{
    size_t size = HSIM__ROW_MAX + 256;
    char *text = malloc(size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    static const char tail[] = ",5,20,2\n";
    for (int quoted = 0; quoted <= 1; quoted++) {
        size_t head = (size_t)snprintf(text, size, EF_HEADER "a,0,10,1\n");
        /* a row of HSIM__ROW_MAX bytes, its newline included: it reads */
        size_t id = HSIM__ROW_MAX - (sizeof tail - 1);
        memset(text + head, 'x', id);
        if (quoted)
            text[head] = text[head + id - 1] = '"';
        memcpy(text + head + id, tail, sizeof tail);
        hsim_workload_t w;
        hsim_err_t e = {{0}};
        int rc = read_text(ELASTICFLOW, text, NULL, &w, &e);
        if (rc)
            fprintf(stderr, "\n%.200s\n", e.msg);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(w.n_jobs, 2);
        hsim_workload_free(&w);
        /* one byte more */
        memset(text + head, 'x', id + 1);
        if (quoted)
            text[head] = text[head + id] = '"';
        memcpy(text + head + id + 1, tail, sizeof tail);
        expect_bad(ELASTICFLOW, text, "x.csv:3: a row longer than 1048576 bytes", NULL);
    }
    /* blank lines between rows belong to no row (they were counted into
       the next one: a million of them made an 8-byte row too long) */
    size_t at0 = (size_t)snprintf(text, size, EF_HEADER "a,0,10,1\n");
    memset(text + at0, '\n', HSIM__ROW_MAX);
    snprintf(text + at0 + HSIM__ROW_MAX, size - at0 - HSIM__ROW_MAX, "b,5,20,2\n");
    {
        hsim_workload_t w;
        hsim_err_t e = {{0}};
        CU_ASSERT_EQUAL(read_text(ELASTICFLOW, text, NULL, &w, &e), 0);
        CU_ASSERT_EQUAL(w.n_jobs, 2);
        hsim_workload_free(&w);
    }
    /* an unclosed quote: the rest of the file is one field */
    size_t head = (size_t)snprintf(text, size, EF_HEADER "\"a,0,10,1\n");
    size_t at = head;
    for (; at + 10 < size; at += 9)
        memcpy(text + at, "b,5,20,2\n", 9);
    text[at] = '\0';
    expect_bad(ELASTICFLOW, text, "x.csv:2: a row longer than 1048576 bytes",
               "an unclosed quote?");
    free(text);
}

static void test_elasticflow_layout(void)
{
    /* columns by name, CRLF, a quoted id, blank lines, a last line without
       '\n', a fractional submission */
    const char *text = "num_gpu,duration,job_id,submission_time\r\n"
                       "2,10,\"x,\ny\",5.25\r\n"
                       "\r\n"
                       "1,20,z,4";
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(read_text(ELASTICFLOW, text, NULL, &w, &e), 0);
    CU_ASSERT_EQUAL_FATAL(w.n_jobs, 2);
    CU_ASSERT_EQUAL(w.jobs[0].id, 2);
    CU_ASSERT_EQUAL(w.jobs[0].line, 5);
    CU_ASSERT_EQUAL(w.jobs[0].submit, 4 * S);
    CU_ASSERT_EQUAL(w.jobs[1].id, 1);
    CU_ASSERT_EQUAL(w.jobs[1].line, 2);
    CU_ASSERT_EQUAL(w.jobs[1].submit, 5 * S + S / 4);
    CU_ASSERT_EQUAL(w.jobs[1].runtime, 10 * S);
    CU_ASSERT_EQUAL(w.jobs[1].gpus, 2);
    CU_ASSERT_STRING_EQUAL(hsim_workload_job_name(&w, w.jobs[1].name), "x,\ny");
    CU_ASSERT_STRING_EQUAL(hsim_workload_job_name(&w, w.jobs[0].name), "z");
    hsim_workload_free(&w);

    hsim_gpu_read_options_t o = {.skip_bad_rows = 1};
    CU_ASSERT_EQUAL_FATAL(read_text(ELASTICFLOW, EF_HEADER "a,1,0,1\nb,1,5,1\nc,1,5,-1\n", &o,
                                    &w, &e), 0);
    CU_ASSERT_EQUAL(w.n_input, 3);
    CU_ASSERT_EQUAL(w.n_jobs, 1);
    CU_ASSERT_EQUAL_FATAL(w.n_rejected, 2);
    CU_ASSERT_EQUAL(w.rejected[0].id, 1);
    CU_ASSERT_EQUAL(w.rejected[0].line, 2);
    CU_ASSERT_STRING_EQUAL(w.rejected[0].reason,
                           "field 3 (duration): expected seconds > 0, found '0'");
    CU_ASSERT_EQUAL(w.rejected[1].line, 4);
    hsim_workload_free(&w);
}

/* ---- Alibaba ---- */

static void test_alibaba_pods(void)
{
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(read_kind(PODS, GPU_DIR "alibaba-2023/openb_pod_list_default.csv.gz",
                                    NULL, &w, &e), 0);
    CU_ASSERT_EQUAL(w.n_input, 8152);
    CU_ASSERT_EQUAL(w.n_jobs, 7255);
    CU_ASSERT_EQUAL(w.n_rejected, 897); /* the Pending pods */
    check_sorted(&w);
    /* openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0 */
    const hsim_job_t *j = find_job(&w, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->line, 2);
    CU_ASSERT_EQUAL(j->submit, 0);
    CU_ASSERT_EQUAL(j->runtime, 12537496 * S);
    CU_ASSERT_EQUAL(j->estimate, j->runtime);
    CU_ASSERT_EQUAL(j->procs, 12);
    CU_ASSERT_EQUAL(j->mem_mb, 16384);
    CU_ASSERT_EQUAL(j->gpus, 1);
    CU_ASSERT_EQUAL(j->gpu_milli, 1000);
    CU_ASSERT_EQUAL(j->gpu_models, 0);
    CU_ASSERT_STRING_EQUAL(hsim_workload_job_name(&w, j->name), "openb-pod-0000");
    /* openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061 */
    j = find_job(&w, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->submit, 427061 * S);
    CU_ASSERT_EQUAL(j->runtime, (12902960 - 427061) * S);
    CU_ASSERT_EQUAL(j->procs, 6);
    CU_ASSERT_EQUAL(j->gpu_milli, 460);
    /* openb-pod-0005,20000,65536,0,0,,LS,Running,2759674,12902960,2759676 */
    j = find_job(&w, 6);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->gpus, 0);
    CU_ASSERT_EQUAL(j->gpu_milli, 0);
    CU_ASSERT_EQUAL(j->submit, 2759674 * S);
    CU_ASSERT_EQUAL(j->runtime, (12902960 - 2759676) * S);
    /* openb-pod-0033,3152,5600,...: 3.152 cores round up to 4 */
    j = find_job(&w, 34);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->procs, 4);
    CU_ASSERT_EQUAL(j->runtime, (9965645 - 9965463) * S);
    /* openb-pod-1523,14000,0,...: no memory asked */
    j = find_job(&w, 1524);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->mem_mb, 0);
    CU_ASSERT_EQUAL(j->runtime, 3986 * S);
    /* openb-pod-0061,...,Pending,10001278,10001403, */
    CU_ASSERT_EQUAL(w.rejected[0].id, 62);
    CU_ASSERT_EQUAL(w.rejected[0].line, 63);
    CU_ASSERT_STRING_EQUAL(w.rejected[0].reason,
                           "never ran: no scheduled_time (pod_phase 'Pending')");
    CU_ASSERT_STRING_EQUAL(hsim_workload_job_name(&w, w.rejected[0].name), "openb-pod-0061");
    CU_ASSERT_EQUAL(w.n_models, 0);
    hsim_workload_free(&w);
}

static void test_alibaba_gpu_spec(void)
{
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    hsim_gpu_read_options_t o = {.max_jobs = 600};
    CU_ASSERT_EQUAL_FATAL(read_kind(PODS, GPU_DIR "alibaba-2023/openb_pod_list_gpuspec33.csv.gz",
                                    &o, &w, &e), 0);
    CU_ASSERT_EQUAL(w.n_input, 600);
    CU_ASSERT_EQUAL(w.n_jobs + w.n_rejected, 600);
    CU_ASSERT_STRING_EQUAL(w.models[0], "V100M16"); /* first named on line 11 */
    CU_ASSERT_STRING_EQUAL(w.models[1], "V100M32");
    /* openb-pod-0009,12000,16384,1,1000,V100M16|V100M32,LS,Running,... */
    const hsim_job_t *j = find_job(&w, 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->gpu_models, (uint32_t)(model_bit(&w, "V100M16") | model_bit(&w, "V100M32")));
    /* openb-pod-0012,8000,32768,1,1000,T4,LS,Running,6588193,10959245,6595531 */
    j = find_job(&w, 13);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->gpu_models, (uint32_t)model_bit(&w, "T4"));
    CU_ASSERT(model_bit(&w, "T4") != 0);
    CU_ASSERT_EQUAL(j->submit, 6588193 * S);
    CU_ASSERT_EQUAL(j->runtime, (10959245 - 6595531) * S);
    hsim_workload_free(&w);

    CU_ASSERT_EQUAL_FATAL(read_kind(PODS, GPU_DIR "alibaba-2023/openb_pod_list_gpuspec33.csv.gz",
                                    NULL, &w, &e), 0);
    CU_ASSERT_EQUAL(w.n_input, 8152);
    CU_ASSERT_EQUAL(w.n_jobs, 7255);
    CU_ASSERT_EQUAL(w.n_models, 7);
    size_t constrained = 0;
    for (size_t i = 0; i < w.n_jobs; i++)
        constrained += w.jobs[i].gpu_models != 0;
    CU_ASSERT(constrained > 1500 && constrained < 2400); /* 2,388 rows name a spec */
    hsim_workload_free(&w);
}

/* openb_pod_list_multigpu50 has no times: it cannot be replayed */
static void test_alibaba_no_times(void)
{
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(read_kind(PODS, GPU_DIR "alibaba-2023/openb_pod_list_multigpu50.csv.gz",
                              NULL, &w, &e), HSIM_EINPUT);
    check_contains(e.msg, "openb_pod_list_multigpu50.csv.gz:1: expected a header with column "
                          "'creation_time', found 'name,cpu_milli,memory_mib,num_gpu,gpu_milli'");
    check_contains(e.msg, "lists pods to place at one instant, not a workload to replay");
    CU_ASSERT_EQUAL(w.n_jobs, 0);
    hsim_workload_free(&w);
}

#define POD_HEADER "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase," \
                   "creation_time,deletion_time,scheduled_time\n"

static void test_alibaba_bad_rows(void)
{
    expect_bad(PODS, POD_HEADER "p,1000,1,1,1200,,LS,Running,0,10,0\n",
               "x.csv:2: field 5 (gpu_milli): expected an integer from 0 to 1000, found '1200'",
               NULL);
    expect_bad(PODS, POD_HEADER "p,1000,1,0,500,,LS,Running,0,10,0\n",
               ":2: field 5 (gpu_milli): expected 0 for a pod without GPUs, found '500'", NULL);
    expect_bad(PODS, POD_HEADER "p,1000,1,2,0,,LS,Running,0,10,0\n",
               ":2: field 5 (gpu_milli): expected 1 to 1000 for a pod with GPUs", NULL);
    expect_bad(PODS, POD_HEADER "p,1000,1,1,1000,T4||G2,LS,Running,0,10,0\n",
               ":2: field 6 (gpu_spec): expected up to 32 GPU model names", "found 'T4||G2'");
    expect_bad(PODS, POD_HEADER "p,-4000,1,1,1000,,LS,Running,0,10,0\n",
               ":2: field 2 (cpu_milli): expected an integer >= 0, found '-4000'", NULL);
    expect_bad(PODS, POD_HEADER "p,4000,lots,1,1000,,LS,Running,0,10,0\n",
               ":2: field 3 (memory_mib): expected an integer, found 'lots'", NULL);
    expect_bad(PODS, POD_HEADER "p,4000,1,-1,1000,,LS,Running,0,10,0\n",
               ":2: field 4 (num_gpu): expected an integer >= 0, found '-1'", NULL);
    expect_bad(PODS, POD_HEADER "p,4000,1,1,1000,,LS,Running,0,10\n",
               ":2: expected 11 fields, found 10", NULL);
    expect_bad(PODS, POD_HEADER "p,4000,1,1,1000,,LS,Running,0,ten,0\n",
               ":2: field 10 (deletion_time): expected seconds (a decimal number)", NULL);
    expect_bad(PODS, POD_HEADER "p,4000,1,1,1000,,LS,Running,,10,0\n",
               ":2: field 9 (creation_time): expected seconds", "found ''");
    expect_bad(PODS, POD_HEADER "p,4000,9000000000000000000,1,1000,,LS,Running,0,10,0\n",
               ":2: field 3 (memory_mib): expected an integer from 0 to 1000000000000000", NULL);

    /* skipped, the reason is whole: what was found too (rejected.csv's
       reasons were cut at 95 bytes) */
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    hsim_gpu_read_options_t o = {.skip_bad_rows = 1};
    CU_ASSERT_EQUAL_FATAL(read_text(PODS, POD_HEADER "p,1000,1,1,1000,T4||G2,LS,Running,0,10,0\n",
                                    &o, &w, &e), 0);
    CU_ASSERT_EQUAL_FATAL(w.n_rejected, 1);
    check_contains(w.rejected[0].reason, "found 'T4||G2'");
    hsim_workload_free(&w);
}

static void test_alibaba_rules(void)
{
    const char *text =
        "cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time,deletion_time,scheduled_time,"
        "gpu_spec\n"
        "0,1,1,500,5,20,7,nan\n"          /* 2: procs 1, runs 13 s */
        "1001,1,2,1000,5,20,7,A10|T4\n"   /* 3: procs 2 */
        "1000,1,1,1000,5,20,20,\n"        /* 4: runtime 0: rejected */
        "1000,1,1,1000,5,19,20,\n"        /* 5: runtime -1: rejected */
        "1000,1,1,1000,5,,20,T4| A10 |T4\n" /* 6: no deletion: rejected */
        "1000,1,1,1000,5,20,nan,\n"       /* 7: never scheduled */
        "1000,1,-1,1000,5,20,7,\n";       /* 8: malformed: skipped */
    hsim_workload_t w;
    hsim_err_t e = {{0}};
    hsim_gpu_read_options_t o = {.skip_bad_rows = 1};
    CU_ASSERT_EQUAL_FATAL(read_text(PODS, text, &o, &w, &e), 0);
    CU_ASSERT_EQUAL(w.n_input, 7);
    CU_ASSERT_EQUAL_FATAL(w.n_jobs, 2);
    CU_ASSERT_EQUAL_FATAL(w.n_rejected, 5);
    CU_ASSERT_EQUAL(w.jobs[0].procs, 1);
    CU_ASSERT_EQUAL(w.jobs[0].runtime, 13 * S);
    CU_ASSERT_EQUAL(w.jobs[0].gpu_milli, 500);
    CU_ASSERT_EQUAL(w.jobs[0].gpu_models, 0);
    CU_ASSERT_EQUAL(w.jobs[1].procs, 2);
    CU_ASSERT_EQUAL(w.jobs[1].gpus, 2);
    CU_ASSERT_EQUAL(w.jobs[1].gpu_models, 3u);
    CU_ASSERT_STRING_EQUAL(w.models[0], "A10");
    CU_ASSERT_STRING_EQUAL(w.models[1], "T4");
    CU_ASSERT_EQUAL(w.n_models, 2); /* " A10 " is A10 */
    CU_ASSERT_EQUAL(w.rejected[0].line, 4);
    CU_ASSERT_STRING_EQUAL(w.rejected[0].reason,
                           "runtime deletion_time - scheduled_time = 0 s, expected > 0");
    check_contains(w.rejected[1].reason, "= -1 s");
    check_contains(w.rejected[2].reason, "no deletion_time");
    CU_ASSERT_STRING_EQUAL(w.rejected[3].reason, "never ran: no scheduled_time (pod_phase '')");
    CU_ASSERT_EQUAL(w.rejected[4].line, 8);
    check_contains(w.rejected[4].reason, "field 3 (num_gpu)");
    hsim_workload_free(&w);

    /* without skip mode, pods that did not run are still only rejections */
    CU_ASSERT_EQUAL_FATAL(read_text(PODS, POD_HEADER "p,1000,1,1,1000,,LS,Pending,5,20,\n"
                                              "q,1000,1,1,1000,,LS,Failed,5,20,30\n",
                                    NULL, &w, &e), 0);
    CU_ASSERT_EQUAL(w.n_jobs, 0);
    CU_ASSERT_EQUAL(w.n_rejected, 2);
    CU_ASSERT_EQUAL(w.n_input, 2);
    hsim_workload_free(&w);
}

static void test_alibaba_nodes(void)
{
    hsim_alibaba_node_t *nodes = NULL;
    size_t n = 0;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_alibaba_nodes_read(
                              GPU_DIR "alibaba-2023/openb_node_list_all_node.csv", &nodes, &n, &e),
                          0);
    CU_ASSERT_EQUAL_FATAL(n, 1523);
    /* openb-node-0000,32000,262144,0, */
    CU_ASSERT_STRING_EQUAL(nodes[0].name, "openb-node-0000");
    CU_ASSERT_EQUAL(nodes[0].cpu_milli, 32000);
    CU_ASSERT_EQUAL(nodes[0].memory_mib, 262144);
    CU_ASSERT_EQUAL(nodes[0].gpus, 0);
    CU_ASSERT_STRING_EQUAL(nodes[0].model, "");
    /* openb-node-0229,96000,786432,8,V100M32 */
    CU_ASSERT_STRING_EQUAL(nodes[229].name, "openb-node-0229");
    CU_ASSERT_EQUAL(nodes[229].cpu_milli, 96000);
    CU_ASSERT_EQUAL(nodes[229].memory_mib, 786432);
    CU_ASSERT_EQUAL(nodes[229].gpus, 8);
    CU_ASSERT_STRING_EQUAL(nodes[229].model, "V100M32");
    CU_ASSERT_STRING_EQUAL(nodes[1522].model, "G2");
    long gpus = 0, cpu = 0, g2 = 0;
    for (size_t i = 0; i < n; i++) {
        gpus += nodes[i].gpus;
        cpu += nodes[i].cpu_milli;
        g2 += !strcmp(nodes[i].model, "G2");
    }
    CU_ASSERT_EQUAL(gpus, 6212);
    CU_ASSERT_EQUAL(cpu, 125514000);
    CU_ASSERT_EQUAL(g2, 549);
    hsim_free(nodes);

    static const struct {
        const char *text, *needle;
    } bad[] = {
        {"sn,cpu_milli,memory_mib,gpu,model\nn1,1000,1,0,\nn2,abc,1,0,\n",
         "x.csv:3: field 2 (cpu_milli): expected an integer, found 'abc'"},
        {"sn,cpu_milli,memory_mib,gpu,model\nn1,1000,1,-8,T4\n",
         ":2: field 4 (gpu): expected an integer from 0 to 1024, found '-8'"},
        /* a node's limits, as [nodes] has them (2^31 - 1 GPUs ran out of
           memory) */
        {"sn,cpu_milli,memory_mib,gpu,model\nn1,1000,1,2147483647,T4\n",
         ":2: field 4 (gpu): expected an integer from 0 to 1024, found '2147483647'"},
        {"sn,cpu_milli,memory_mib,gpu,model\nn1,1000,1000000000000001,0,\n",
         ":2: field 3 (memory_mib): expected an integer from 0 to 1000000000000000"},
        {"sn,cpu_milli,memory_mib,gpu,model\nn1,1000,1,8,a-very-long-model-name\n",
         ":2: field 5 (model): expected a text of 1 to 15 characters"},
        {"sn,cpu_milli,memory_mib,gpu,model\n,1000,1,8,T4\n",
         ":2: field 1 (sn): expected a text of 1 to 31 characters, found ''"},
        {"sn,cpu_milli,memory_mib,model\nn1,1000,1,T4\n",
         ":1: expected a header with column 'gpu'"},
        {"sn,cpu_milli,memory_mib,gpu,model\nn1,1000,1,8\n", ":2: expected 5 fields, found 4"},
        /* a header alone made a cluster of no nodes (an assertion failed) */
        {"sn,cpu_milli,memory_mib,gpu,model\n", "x.csv:1: no nodes"},
        {"sn,cpu_milli,memory_mib,gpu,model\n\n\n", "x.csv:1: no nodes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tmp_file_t f;
        make_file(&f, "x.csv", bad[i].text);
        nodes = (hsim_alibaba_node_t *)&n; /* must be overwritten */
        CU_ASSERT_EQUAL(hsim_alibaba_nodes_read(f.path, &nodes, &n, &e), HSIM_EINPUT);
        check_contains(e.msg, bad[i].needle);
        CU_ASSERT_PTR_NULL(nodes);
        CU_ASSERT_EQUAL(n, 0);
        drop_file(&f);
    }
    /* model "nan" is no model; columns by name */
    tmp_file_t f;
    make_file(&f, "x.csv", "model,gpu,sn,memory_mib,cpu_milli\nnan,0,a,5,7\nT4,2,b,6,8");
    CU_ASSERT_EQUAL_FATAL(hsim_alibaba_nodes_read(f.path, &nodes, &n, &e), 0);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_STRING_EQUAL(nodes[0].model, "");
    CU_ASSERT_STRING_EQUAL(nodes[1].model, "T4");
    CU_ASSERT_EQUAL(nodes[1].cpu_milli, 8);
    CU_ASSERT_EQUAL(nodes[1].memory_mib, 6);
    CU_ASSERT_EQUAL(nodes[1].gpus, 2);
    hsim_free(nodes);
    drop_file(&f);
}

/* hsim__field_int() reads every integer up to INT64_MAX (it refused those
   from 9223372036854775800 on, one digit early) and no further. */
static void test_field_int_limits(void)
{
    char max[] = "9223372036854775807", near[] = "9223372036854775800",
         past[] = "9223372036854775808", low[] = "-9223372036854775807";
    char *fields[] = {max, near, past, low};
    hsim__row_t r = {.path = "x.csv", .line = 2, .index = 1, .n = 4, .f = fields};
    char why[256];
    int64_t v = 0;
    CU_ASSERT_EQUAL(hsim__field_int(&r, 0, "a", 0, INT64_MAX, &v, why, sizeof why), 0);
    CU_ASSERT_EQUAL(v, INT64_MAX);
    CU_ASSERT_EQUAL(hsim__field_int(&r, 1, "a", 0, INT64_MAX, &v, why, sizeof why), 0);
    CU_ASSERT_EQUAL(v, INT64_MAX - 7);
    CU_ASSERT_NOT_EQUAL(hsim__field_int(&r, 2, "a", 0, INT64_MAX, &v, why, sizeof why), 0);
    check_contains(why, "found '9223372036854775808'");
    CU_ASSERT_EQUAL(hsim__field_int(&r, 3, "a", INT64_MIN + 1, 0, &v, why, sizeof why), 0);
    CU_ASSERT_EQUAL(v, INT64_MIN + 1);
}

/* ---- allocation failures ---- */

/* Makes the 1st, 2nd, ... 100th allocation of one read fail: every read
   ends in 0 (libcsv retries a failed buffer growth with less) or
   HSIM_ENOMEM, and leaves nothing behind. */
static void test_allocation_failures(void)
{
    tmp_file_t gv, ef, pod, nd;
    make_file(&gv, "g.trace", GOOD GOOD GOOD);
    make_file(&ef, "e.csv", EF_HEADER "a,1,2,1\nb,1,2,1\n");
    make_file(&pod, "p.csv", POD_HEADER "p,1000,1,1,1000,T4|G2,LS,Running,0,10,0\n"
                                        "p,1000,1,1,1000,,LS,Pending,0,10,\n");
    make_file(&nd, "n.csv", "sn,cpu_milli,memory_mib,gpu,model\nn1,1000,1,0,\n");
    hsim_throughputs_t t;
    hsim_err_t e = {{0}};
    for (int which = 0; which < 5; which++) {
        int rc = 0, failures = 0;
        for (long n = 1; n <= 100; n++) {
            long live = hsim_alloc_live();
            hsim_workload_t w;
            hsim_workload_init(&w);
            hsim_alibaba_node_t *nodes = NULL;
            size_t count = 0;
            if (which == 4)
                CU_ASSERT_EQUAL_FATAL(hsim_throughputs_read(THROUGHPUTS, &t, &e), 0);
            hsim_alloc_fail_after(n);
            switch (which) {
            case 0: rc = hsim_throughputs_read(THROUGHPUTS, &t, &e); break;
            case 1: rc = hsim_elasticflow_read(ef.path, NULL, &w, &e); break;
            case 2: rc = hsim_alibaba_pods_read(pod.path, NULL, &w, &e); break;
            case 3: rc = hsim_alibaba_nodes_read(nd.path, &nodes, &count, &e); break;
            default: rc = hsim_gavel_read(gv.path, &t, NULL, &w, &e); break;
            }
            hsim_alloc_fail_after(0);
            CU_ASSERT(rc == 0 || rc == HSIM_ENOMEM);
            if (rc == HSIM_ENOMEM) {
                failures++;
                CU_ASSERT_EQUAL(w.n_jobs + w.n_rejected + count, 0);
            }
            if (which == 0 || which == 4)
                hsim_throughputs_free(&t);
            hsim_free(nodes);
            hsim_workload_free(&w);
            CU_ASSERT_EQUAL(hsim_alloc_live(), live);
        }
        CU_ASSERT_EQUAL(rc, 0); /* the 100th allocation is never reached */
        CU_ASSERT(failures >= 3);
    }
    drop_file(&gv);
    drop_file(&ef);
    drop_file(&pod);
    drop_file(&nd);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("gpu_throughputs");
    HSIM_TEST(s, test_throughputs_table);
    HSIM_TEST(s, test_gavel_speeds);
    HSIM_TEST(s, test_throughputs_scale_down);
    HSIM_TEST(s, test_throughputs_errors);
    s = hsim_test_suite("gpu_gavel");
    HSIM_TEST(s, test_gavel_first_jobs);
    HSIM_TEST(s, test_gavel_extrapolated_rows);
    HSIM_TEST(s, test_gavel_whole_files);
    HSIM_TEST(s, test_gavel_fractional_arrivals);
    HSIM_TEST(s, test_gavel_bad_rows);
    HSIM_TEST(s, test_gavel_skip_mode);
    HSIM_TEST(s, test_gavel_io_errors);
    s = hsim_test_suite("gpu_elasticflow");
    HSIM_TEST(s, test_elasticflow_first_jobs);
    HSIM_TEST(s, test_byte_order_mark);
    HSIM_TEST(s, test_nul_byte);
    HSIM_TEST(s, test_long_rows);
    HSIM_TEST(s, test_field_int_limits);
    HSIM_TEST(s, test_elasticflow_whole_files);
    HSIM_TEST(s, test_elasticflow_bad_rows);
    HSIM_TEST(s, test_elasticflow_repeated_ids);
    HSIM_TEST(s, test_elasticflow_layout);
    s = hsim_test_suite("gpu_alibaba");
    HSIM_TEST(s, test_alibaba_pods);
    HSIM_TEST(s, test_alibaba_gpu_spec);
    HSIM_TEST(s, test_alibaba_no_times);
    HSIM_TEST(s, test_alibaba_bad_rows);
    HSIM_TEST(s, test_alibaba_rules);
    HSIM_TEST(s, test_alibaba_nodes);
    s = hsim_test_suite("gpu_allocation");
    HSIM_TEST(s, test_allocation_failures);
}
