/*
 * fuzz_csv.c - libFuzzer target for job files of format = csv
 * (hsim_csv_jobs_read(), workloads/workload.h).
 *
 * Input layout: byte 0 the reader's options (bit 0 skip_bad_rows, bits 1-7
 * max_jobs 0..127), the rest is the file.
 *
 * What must hold for every input:
 *   - the reader returns 0 or HSIM_EINPUT, never crashes;
 *   - the same bytes gzip-compressed read the same: the same return code,
 *     the same message after the path, the same jobs;
 *   - on error the workload is empty; else every row read is a job or a
 *     rejection (at most max_jobs rows), jobs are sorted by (submit, line)
 *     with no two on one line, job numbers are unique, and every field is in
 *     the range that job.h gives it;
 *   - the jobs written back by hsim_csv_write_jobs() read back the same;
 *   - hsim's live allocations are back where they were.
 */
#include "fuzz.h"

#include "workloads/gpu_traces.h"
#include "workloads/workload.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* msg past its leading path, when it starts with it. */
static const char *past_path(const char *msg, const char *path)
{
    size_t n = strlen(path);
    return strncmp(msg, path, n) ? msg : msg + n;
}

static int read_csv(const char *path, const hsim_gpu_read_options_t *o, hsim_workload_t *w,
                    hsim_err_t *e)
{
    hsim_workload_init(w);
    return hsim_csv_jobs_read(path, o, w, e);
}

/* What job.h promises of one job as the csv reader makes it. */
static void check_job(const hsim_workload_t *w, const hsim_job_t *j)
{
    FUZZ_CHECK(j->line >= 2 && j->submit >= 0 && j->runtime > 0 && j->estimate > 0 &&
                   j->procs >= 1,
               "job %lld (line %lld): submit %lld runtime %lld estimate %lld procs %d",
               (long long)j->id, (long long)j->line, (long long)j->submit,
               (long long)j->runtime, (long long)j->estimate, j->procs);
    FUZZ_CHECK(j->gpus >= 0 && j->gpu_milli >= 0 && j->gpu_milli <= 1000 &&
                   (j->gpus == 0) == (j->gpu_milli == 0) && j->mem_mb >= 0 && j->fpgas >= 0 &&
                   j->nodes >= 0 && j->cores_per_node >= 0,
               "job %lld: gpus %d gpu_milli %d memory %lld fpgas %d nodes %d cpn %d",
               (long long)j->id, j->gpus, j->gpu_milli, (long long)j->mem_mb, j->fpgas,
               j->nodes, j->cores_per_node);
    FUZZ_CHECK(j->user >= -1 && j->group >= -1 && j->app >= -1 && j->queue >= -1 &&
                   j->partition >= -1 && (j->after == -1 || j->after > 0) &&
                   j->think >= -1 && j->killed_at_estimate <= 1,
               "job %lld: user %d group %d app %d queue %d partition %d after %lld think %lld",
               (long long)j->id, j->user, j->group, j->app, j->queue, j->partition,
               (long long)j->after, (long long)j->think);
    FUZZ_CHECK(j->job_class >= -1 && j->job_class < (int)w->n_classes,
               "job %lld: class %d of %zu", (long long)j->id, j->job_class, w->n_classes);
    FUZZ_CHECK(w->n_models >= 32 || j->gpu_models >> w->n_models == 0,
               "job %lld: model bits %#x of %zu models", (long long)j->id, j->gpu_models,
               w->n_models);
}

static int by_id(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

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
    int64_t *ids = malloc((w->n_jobs ? w->n_jobs : 1) * sizeof *ids);
    FUZZ_CHECK(ids, "out of memory");
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        check_job(w, j);
        ids[i] = j->id;
        if (i == 0)
            continue;
        const hsim_job_t *p = j - 1;
        FUZZ_CHECK(p->submit < j->submit || (p->submit == j->submit && p->line < j->line),
                   "job %lld (line %lld) sorted before job %lld (line %lld)", (long long)p->id,
                   (long long)p->line, (long long)j->id, (long long)j->line);
    }
    qsort(ids, w->n_jobs, sizeof *ids, by_id);
    for (size_t i = 1; i < w->n_jobs; i++)
        FUZZ_CHECK(ids[i - 1] != ids[i], "job number %lld accepted twice", (long long)ids[i]);
    free(ids);
    for (size_t i = 1; i < w->n_rejected; i++)
        FUZZ_CHECK(w->rejected[i - 1].line < w->rejected[i].line,
                   "rejection of line %lld listed before line %lld",
                   (long long)w->rejected[i - 1].line, (long long)w->rejected[i].line);
}

/* Two workloads hold the same jobs, in the same order, but for the lines
   they came from and where their trace ids are kept; models and classes
   by name. */
static void check_same_jobs(const hsim_workload_t *a, const hsim_workload_t *b, const char *what)
{
    FUZZ_CHECK(a->n_jobs == b->n_jobs, "%s: %zu and %zu jobs", what, a->n_jobs, b->n_jobs);
    for (size_t i = 0; i < a->n_jobs; i++) {
        hsim_job_t x = a->jobs[i], y = b->jobs[i];
        FUZZ_CHECK(!strcmp(hsim_workload_job_name(a, x.name), hsim_workload_job_name(b, y.name)),
                   "%s: job %lld: trace ids '%s' and '%s'", what, (long long)x.id,
                   hsim_workload_job_name(a, x.name), hsim_workload_job_name(b, y.name));
        FUZZ_CHECK((x.job_class < 0 && y.job_class < 0) ||
                       (x.job_class >= 0 && y.job_class >= 0 &&
                        !strcmp(a->classes[x.job_class], b->classes[y.job_class])),
                   "%s: job %lld: classes differ", what, (long long)x.id);
        uint32_t xm = 0, ym = y.gpu_models;
        for (size_t m = 0; m < a->n_models; m++)
            if (x.gpu_models >> m & 1)
                for (size_t k = 0; k < b->n_models; k++)
                    if (!strcmp(a->models[m], b->models[k]))
                        xm |= UINT32_C(1) << k;
        FUZZ_CHECK(xm == ym, "%s: job %lld: GPU models %#x and %#x", what, (long long)x.id, xm,
                   ym);
        x.line = y.line = 0;
        x.name = y.name = 0;
        x.job_class = y.job_class = 0;
        x.gpu_models = y.gpu_models = 0;
        FUZZ_CHECK(!memcmp(&x, &y, sizeof x),
                   "%s: job %lld differs (submit %lld/%lld runtime %lld/%lld estimate "
                   "%lld/%lld think %lld/%lld)",
                   what, (long long)x.id, (long long)x.submit, (long long)y.submit,
                   (long long)x.runtime, (long long)y.runtime, (long long)x.estimate,
                   (long long)y.estimate, (long long)x.think, (long long)y.think);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    long live = hsim_alloc_live();
    hsim_gpu_read_options_t o = {.skip_bad_rows = data[0] & 1, .max_jobs = data[0] >> 1};
    char plain[512], gz[512], back[512];
    fuzz_temp_path(plain, sizeof plain, "jobs.csv");
    fuzz_temp_path(gz, sizeof gz, "jobs.csv.gz");
    fuzz_temp_path(back, sizeof back, "back.csv");
    fuzz_write_file(plain, data + 1, size - 1);
    fuzz_write_gzip(gz, data + 1, size - 1);

    hsim_workload_t w, gz_w;
    hsim_err_t e = {{0}}, gz_e = {{0}};
    int rc = read_csv(plain, &o, &w, &e);
    int gz_rc = read_csv(gz, &o, &gz_w, &gz_e);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "rc %d: %s", rc, e.msg);
    FUZZ_CHECK(rc == gz_rc, "plain rc %d (%s), gzip rc %d (%s)", rc, e.msg, gz_rc, gz_e.msg);
    FUZZ_CHECK(rc == 0 || !strcmp(past_path(e.msg, plain), past_path(gz_e.msg, gz)),
               "messages differ: '%s' and '%s'", e.msg, gz_e.msg);
    FUZZ_CHECK(rc == 0 || !strncmp(e.msg, plain, strlen(plain)), "message without the path: %s",
               e.msg);
    check_workload(&w, rc, o.max_jobs);
    FUZZ_CHECK(w.n_rejected == gz_w.n_rejected, "plain and gzip: %zu and %zu rejected",
               w.n_rejected, gz_w.n_rejected);
    check_same_jobs(&w, &gz_w, "plain and gzip");
    hsim_workload_free(&gz_w);

    if (rc == 0) {
        hsim_workload_t b;
        hsim_err_t be = {{0}};
        FUZZ_CHECK(hsim_csv_write_jobs(back, &w, &be) == 0, "write: %s", be.msg);
        int back_rc = read_csv(back, NULL, &b, &be);
        FUZZ_CHECK(back_rc == 0, "the jobs written back do not read: %s", be.msg);
        FUZZ_CHECK(b.n_rejected == 0, "%zu rejected read back", b.n_rejected);
        check_same_jobs(&w, &b, "written and read back");
        hsim_workload_free(&b);
        unlink(back);
    }
    hsim_workload_free(&w);
    unlink(plain);
    unlink(gz);
    fuzz_check_no_leak(live);
    return 0;
}
