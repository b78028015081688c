/*
 * fuzz_gpu.c - libFuzzer target for the GPU trace readers
 * (workloads/gpu_traces.h).
 *
 * Input layout: byte 0 picks the reader (modulo 5: 0 Gavel trace,
 * 1 ElasticFlow, 2 Alibaba pods, 3 Alibaba nodes, 4 Gavel throughputs),
 * byte 1 the options of the job readers (bit 0 skip_bad_rows, bits 1-7
 * max_jobs 0..127), the rest is the file.  Gavel traces are read against
 * the real throughputs.csv of ../shared, loaded once per process.
 *
 * What must hold for every input:
 *   - the reader returns 0 or HSIM_EINPUT, never crashes;
 *   - the same bytes gzip-compressed read the same: the same return code,
 *     the same message after the path, the same result;
 *   - on error the result is empty; else every row read is a job or a
 *     rejection (at most max_jobs rows); jobs are sorted by (submit, line,
 *     id) without ties and have the fields that gpu_traces.h and job.h
 *     describe; rejections are in input order; nodes and throughput rows
 *     have their fields, throughput rows are sorted and unique, and every
 *     speed derived from them is finite;
 *   - hsim's live allocations are back where they were.
 */
#include "fuzz.h"

#include "workloads/gpu_traces.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum { GAVEL, ELASTICFLOW, ALIBABA_PODS, ALIBABA_NODES, THROUGHPUTS, READERS };

/* Gavel's measured throughputs, read once by LLVMFuzzerInitialize() and
   freed at exit: the Gavel trace reader needs a table to read against. */
static hsim_throughputs_t gavel_table;

static void free_gavel_table(void)
{
    hsim_throughputs_free(&gavel_table);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *path = HSIM_SHARED_DIR "/traces/gpu/gavel-philly/throughputs.csv";
    hsim_err_t e = {{0}};
    FUZZ_CHECK(hsim_throughputs_read(path, &gavel_table, &e) == 0, "%s", e.msg);
    atexit(free_gavel_table);
    return 0;
}

/* Writes data gzip-compressed to path; aborts when it cannot. */
static void write_gzip(const char *path, const uint8_t *data, size_t size)
{
    gzFile gz = gzopen(path, "wb1");
    FUZZ_CHECK(gz, "cannot write %s", path);
    FUZZ_CHECK(size == 0 || gzwrite(gz, data, (unsigned)size) == (int)size, "cannot write %s",
               path);
    FUZZ_CHECK(gzclose(gz) == Z_OK, "cannot write %s", path);
}

/* msg past its leading path, when it starts with it: the plain and the gzip
   file have different names. */
static const char *past_path(const char *msg, const char *path)
{
    size_t n = strlen(path);
    return strncmp(msg, path, n) ? msg : msg + n;
}

/* The two readers' return codes and messages agree. */
static void check_same_outcome(int rc, const hsim_err_t *e, const char *path, int gz_rc,
                               const hsim_err_t *gz_e, const char *gz_path)
{
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "rc %d: %s", rc, e->msg);
    FUZZ_CHECK(rc == gz_rc, "plain rc %d (%s), gzip rc %d (%s)", rc, e->msg, gz_rc, gz_e->msg);
    FUZZ_CHECK(rc == 0 || !strcmp(past_path(e->msg, path), past_path(gz_e->msg, gz_path)),
               "messages differ: '%s' and '%s'", e->msg, gz_e->msg);
}

/* What gpu_traces.h promises of one job. */
static void check_job(const hsim_workload_t *w, const hsim_job_t *j)
{
    FUZZ_CHECK(j->id >= 1 && j->line >= 1 && j->submit >= 0 && j->runtime > 0 &&
                   j->estimate == j->runtime,
               "job %lld (line %lld): submit %lld runtime %lld estimate %lld", (long long)j->id,
               (long long)j->line, (long long)j->submit, (long long)j->runtime,
               (long long)j->estimate);
    FUZZ_CHECK(j->procs >= 1 && j->gpus >= 0 && j->mem_mb >= 0 &&
                   (j->gpus == 0) == (j->gpu_milli == 0) && j->gpu_milli >= 0 &&
                   j->gpu_milli <= 1000,
               "job %lld: procs %d gpus %d gpu_milli %d memory %lld", (long long)j->id, j->procs,
               j->gpus, j->gpu_milli, (long long)j->mem_mb);
    FUZZ_CHECK(j->job_class < (int)w->n_classes, "job %lld: class %d of %zu", (long long)j->id,
               j->job_class, w->n_classes);
    FUZZ_CHECK(w->n_models >= 32 || j->gpu_models >> w->n_models == 0,
               "job %lld: model bits %#x of %zu models", (long long)j->id, j->gpu_models,
               w->n_models);
}

/* What gpu_traces.h promises of a job reader's result. */
static void check_workload(const hsim_workload_t *w, int rc, size_t max_jobs)
{
    if (rc) {
        FUZZ_CHECK(!w->n_jobs && !w->n_rejected && !w->jobs && !w->rejected,
                   "not emptied on error");
        return;
    }
    FUZZ_CHECK(w->n_jobs + w->n_rejected == w->n_input, "%zu jobs + %zu rejected != %zu read",
               w->n_jobs, w->n_rejected, w->n_input);
    FUZZ_CHECK(!max_jobs || w->n_input <= max_jobs, "max_jobs %zu, %zu read", max_jobs,
               w->n_input);
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        check_job(w, j);
        if (i == 0)
            continue;
        const hsim_job_t *p = j - 1;
        int same_line = p->submit == j->submit && p->line == j->line;
        FUZZ_CHECK(p->submit < j->submit || (p->submit == j->submit && p->line < j->line) ||
                       (same_line && p->id < j->id),
                   "job %lld (line %lld) sorted before job %lld (line %lld)", (long long)p->id,
                   (long long)p->line, (long long)j->id, (long long)j->line);
    }
    for (size_t i = 1; i < w->n_rejected; i++)
        FUZZ_CHECK(w->rejected[i - 1].line <= w->rejected[i].line,
                   "rejection of line %lld listed before line %lld",
                   (long long)w->rejected[i - 1].line, (long long)w->rejected[i].line);
}

static int read_jobs(int reader, const char *path, const hsim_gpu_read_options_t *o,
                     hsim_workload_t *w, hsim_err_t *e)
{
    hsim_workload_init(w);
    if (reader == GAVEL)
        return hsim_gavel_read(path, &gavel_table, o, w, e);
    if (reader == ELASTICFLOW)
        return hsim_elasticflow_read(path, o, w, e);
    return hsim_alibaba_pods_read(path, o, w, e);
}

static void check_job_reader(int reader, const char *plain, const char *gz,
                             const hsim_gpu_read_options_t *o)
{
    hsim_workload_t w, gz_w;
    hsim_err_t e = {{0}}, gz_e = {{0}};
    int rc = read_jobs(reader, plain, o, &w, &e);
    int gz_rc = read_jobs(reader, gz, o, &gz_w, &gz_e);
    check_same_outcome(rc, &e, plain, gz_rc, &gz_e, gz);
    check_workload(&w, rc, o->max_jobs);
    FUZZ_CHECK(w.n_jobs == gz_w.n_jobs && w.n_rejected == gz_w.n_rejected &&
                   w.n_models == gz_w.n_models && w.n_classes == gz_w.n_classes,
               "plain and gzip: %zu/%zu jobs, %zu/%zu rejected", w.n_jobs, gz_w.n_jobs,
               w.n_rejected, gz_w.n_rejected);
    FUZZ_CHECK(!w.n_jobs || !memcmp(w.jobs, gz_w.jobs, w.n_jobs * sizeof *w.jobs),
               "plain and gzip: jobs differ");
    hsim_workload_free(&w);
    hsim_workload_free(&gz_w);
}

static void check_nodes_reader(const char *plain, const char *gz)
{
    hsim_alibaba_node_t *nodes, *gz_nodes;
    size_t n, gz_n;
    hsim_err_t e = {{0}}, gz_e = {{0}};
    int rc = hsim_alibaba_nodes_read(plain, &nodes, &n, &e);
    int gz_rc = hsim_alibaba_nodes_read(gz, &gz_nodes, &gz_n, &gz_e);
    check_same_outcome(rc, &e, plain, gz_rc, &gz_e, gz);
    FUZZ_CHECK(!rc || (!nodes && !n), "nodes not emptied on error");
    FUZZ_CHECK(n == gz_n && (!n || !memcmp(nodes, gz_nodes, n * sizeof *nodes)),
               "plain and gzip: nodes differ");
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(nodes[i].name[0] && nodes[i].cpu_milli >= 0 && nodes[i].memory_mib >= 0 &&
                       nodes[i].gpus >= 0,
                   "node %zu '%s': cpu_milli %d memory %lld gpus %d", i, nodes[i].name,
                   nodes[i].cpu_milli, (long long)nodes[i].memory_mib, nodes[i].gpus);
    hsim_free(nodes);
    hsim_free(gz_nodes);
}

/* Lookups of row r's job type at several scales, and the class speeds
   derived from them: finite and not negative. */
static void check_speeds(const hsim_throughputs_t *t, const hsim_throughput_t *r)
{
    int32_t s = r->scale;
    const int32_t scales[] = {1, s, s > 1 ? s - 1 : 1, s < INT32_MAX / 3 ? 3 * s : INT32_MAX};
    for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
        double tp[HSIM_GAVEL_MODELS];
        int32_t measured = 0;
        FUZZ_CHECK(hsim_throughputs_lookup(t, r->job_type, scales[k], tp, &measured) == 0 &&
                       measured >= 1,
                   "lookup of '%s' at scale %d (measured %d)", r->job_type, scales[k], measured);
        char name[HSIM_LABEL_MAX + 16];
        snprintf(name, sizeof name, "%s@%d", r->job_type, scales[k]);
        for (int m = 0; m < HSIM_GAVEL_MODELS; m++) {
            double speed = -1;
            if (hsim_gavel_class_speed(t, name, m, &speed) == 0)
                FUZZ_CHECK(isfinite(speed) && speed >= 0, "speed of %s on %s: %g", name,
                           hsim_gavel_model_name(m), speed);
        }
    }
}

static void check_throughputs_reader(const char *plain, const char *gz)
{
    hsim_throughputs_t t, gz_t;
    hsim_err_t e = {{0}}, gz_e = {{0}};
    int rc = hsim_throughputs_read(plain, &t, &e);
    int gz_rc = hsim_throughputs_read(gz, &gz_t, &gz_e);
    check_same_outcome(rc, &e, plain, gz_rc, &gz_e, gz);
    FUZZ_CHECK(rc || (t.n == gz_t.n && (!t.n || !memcmp(t.rows, gz_t.rows, t.n * sizeof *t.rows))),
               "plain and gzip: throughputs differ");
    for (size_t i = 0; i < t.n && rc == 0; i++) {
        const hsim_throughput_t *r = &t.rows[i];
        FUZZ_CHECK(r->job_type[0] && r->scale >= 1 && r->steps_per_s[HSIM_GAVEL_V100] > 0,
                   "row of line %lld: '%s' scale %d v100 %g", (long long)r->line, r->job_type,
                   r->scale, r->steps_per_s[HSIM_GAVEL_V100]);
        if (i > 0) {
            const hsim_throughput_t *p = r - 1;
            int order = strcmp(p->job_type, r->job_type);
            FUZZ_CHECK(order < 0 || (order == 0 && p->scale < r->scale),
                       "rows of lines %lld and %lld not sorted and unique", (long long)p->line,
                       (long long)r->line);
        }
        check_speeds(&t, r);
    }
    hsim_throughputs_free(&t);
    hsim_throughputs_free(&gz_t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    long live = hsim_alloc_live();
    int reader = data[0] % READERS;
    hsim_gpu_read_options_t o = {.skip_bad_rows = data[1] & 1, .max_jobs = data[1] >> 1};
    char plain[512], gz[512];
    fuzz_temp_path(plain, sizeof plain, "in.csv");
    fuzz_temp_path(gz, sizeof gz, "in.csv.gz");
    fuzz_write_file(plain, data + 2, size - 2);
    write_gzip(gz, data + 2, size - 2);
    if (reader == ALIBABA_NODES)
        check_nodes_reader(plain, gz);
    else if (reader == THROUGHPUTS)
        check_throughputs_reader(plain, gz);
    else
        check_job_reader(reader, plain, gz, &o);
    unlink(plain);
    unlink(gz);
    fuzz_check_no_leak(live);
    return 0;
}
