/*
 * fuzz_swf.c - libFuzzer target for the SWF reader (workloads/swf.h).
 *
 * One input is one SWF file.  What must hold for every input:
 *   - hsim_swf_parse_string() returns 0 or HSIM_EINPUT, never crashes, and
 *     the header's counts (MaxProcs, MaxNodes, MaxJobs, MaxRecords) are -1
 *     (absent) or >= 0;
 *   - hsim_swf_read() of the same bytes in a file agrees with it: the same
 *     return code, the same records and header, or the same message (both
 *     readers are given the same name); with max_jobs = half the records it
 *     reads exactly that prefix; and so does the file reader of the same
 *     bytes gzipped.  Inputs with a NUL byte or a gzip magic number are not
 *     compared, as the two readers differ on them by design: the file
 *     reader must only answer 0, HSIM_EINPUT or HSIM_EIO, and an error for
 *     a NUL in a plain file;
 *   - cleaning under the pyss and standard presets keeps every input job
 *     (as a job or a rejection) and gives jobs that job.h allows, sorted;
 *   - hsim_swf_write() then hsim_swf_read() and the standard preset give back
 *     the fields that swf.h promises;
 *   - small workloads (up to MAX_REPLAY_JOBS jobs) replay under FCFS, EASY
 *     and conservative backfilling with every job started after its
 *     submission and ended after its start, and their metrics compute;
 *   - hsim's live allocations are back where they were.
 */
#include "fuzz.h"

#include "policies/registry.h"
#include "predictor/predictor.h"
#include "sim/engine.h"
#include "sim/metrics.h"
#include "workloads/swf.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_REPLAY_JOBS 64

/* The machine size an experiment would settle on: MaxProcs, else MaxNodes,
   else 128 processors. */
static int32_t machine_size(const hsim_swf_header_t *h)
{
    if (h->max_procs > 0 && h->max_procs <= INT32_MAX)
        return (int32_t)h->max_procs;
    if (h->max_nodes > 0 && h->max_nodes <= INT32_MAX)
        return (int32_t)h->max_nodes;
    return 128;
}

/* The header's counts are absent (-1) or counts. */
static void check_header(const hsim_swf_header_t *h)
{
    FUZZ_CHECK(h->max_procs >= -1 && h->max_nodes >= -1 && h->max_jobs >= -1 &&
                   h->max_records >= -1,
               "header counts: MaxProcs %lld MaxNodes %lld MaxJobs %lld MaxRecords %lld",
               (long long)h->max_procs, (long long)h->max_nodes, (long long)h->max_jobs,
               (long long)h->max_records);
}

/* The file reader against the string reader's result (rc, t, msg). */
static void compare_file_reader(const char *path, int rc, const hsim_swf_trace_t *t,
                                const char *msg)
{
    hsim_swf_trace_t f;
    hsim_err_t e = {{0}};
    int frc = hsim_swf_read(path, 0, &f, &e);
    FUZZ_CHECK(frc == rc, "string reader rc %d (%s), file reader rc %d (%s)", rc, msg,
               frc, e.msg);
    if (rc) {
        FUZZ_CHECK(!strcmp(msg, e.msg), "messages differ: '%s' and '%s'", msg, e.msg);
        return;
    }
    FUZZ_CHECK(f.n_records == t->n_records, "%zu records from the string, %zu from the file",
               t->n_records, f.n_records);
    FUZZ_CHECK(!t->n_records || !memcmp(f.records, t->records, t->n_records * sizeof *t->records),
               "records differ");
    FUZZ_CHECK(!memcmp(&f.header, &t->header, sizeof t->header), "headers differ");
    hsim_swf_trace_free(&f);
}

/* hsim_swf_read() with max_jobs = half of t's records reads that prefix. */
static void check_prefix(const char *path, const hsim_swf_trace_t *t)
{
    size_t half = t->n_records / 2;
    if (half == 0)
        return;
    hsim_swf_trace_t f;
    hsim_err_t e = {{0}};
    int rc = hsim_swf_read(path, half, &f, &e);
    FUZZ_CHECK(rc == 0 && f.n_records == half, "max_jobs %zu: rc %d (%s), %zu records", half,
               rc, e.msg, f.n_records);
    FUZZ_CHECK(!memcmp(f.records, t->records, half * sizeof *t->records),
               "max_jobs %zu: not a prefix", half);
    hsim_swf_trace_free(&f);
}

/* The invariants of job.h and workload.h for a cleaned workload. */
static void check_jobs(const hsim_workload_t *w, int32_t machine, const char *preset)
{
    FUZZ_CHECK(w->n_jobs + w->n_rejected == w->n_input, "%s: %zu jobs + %zu rejected != %zu read",
               preset, w->n_jobs, w->n_rejected, w->n_input);
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        FUZZ_CHECK(j->submit >= 0 && j->runtime > 0 && j->estimate > 0 &&
                       (j->think >= 0 || j->think == -1), /* -1: unknown */
                   "%s: job %lld (line %lld): submit %lld runtime %lld estimate %lld think %lld",
                   preset, (long long)j->id, (long long)j->line, (long long)j->submit,
                   (long long)j->runtime, (long long)j->estimate, (long long)j->think);
        FUZZ_CHECK(j->procs >= 1 && j->procs <= machine, "%s: job %lld: %d procs on %d", preset,
                   (long long)j->id, j->procs, machine);
        if (i == 0)
            continue;
        const hsim_job_t *p = &w->jobs[i - 1];
        FUZZ_CHECK(p->submit < j->submit || (p->submit == j->submit && p->line < j->line),
                   "%s: job at line %lld sorted before line %lld", preset, (long long)p->line,
                   (long long)j->line);
    }
}

/* The fields that swf.h promises to come back through write and read. */
static void check_same_job(const hsim_job_t *a, const hsim_job_t *b)
{
    FUZZ_CHECK(a->id == b->id && a->submit == b->submit && a->runtime == b->runtime &&
                   a->estimate == b->estimate && a->procs == b->procs,
               "job %lld came back as %lld: submit %lld/%lld runtime %lld/%lld "
               "estimate %lld/%lld procs %d/%d",
               (long long)a->id, (long long)b->id, (long long)a->submit, (long long)b->submit,
               (long long)a->runtime, (long long)b->runtime, (long long)a->estimate,
               (long long)b->estimate, a->procs, b->procs);
    FUZZ_CHECK(a->user == b->user && a->group == b->group && a->app == b->app &&
                   a->queue == b->queue && a->partition == b->partition && a->after == b->after,
               "job %lld came back with user %d/%d group %d/%d app %d/%d queue %d/%d "
               "partition %d/%d after %lld/%lld",
               (long long)a->id, a->user, b->user, a->group, b->group, a->app, b->app, a->queue,
               b->queue, a->partition, b->partition, (long long)a->after, (long long)b->after);
    FUZZ_CHECK(a->think == b->think, "job %lld: think %lld came back as %lld",
               (long long)a->id, (long long)a->think, (long long)b->think);
}

/* Writes w (cleaned by the standard preset), reads and cleans it back. */
static void check_round_trip(const hsim_workload_t *w, int32_t machine)
{
    char path[512];
    fuzz_temp_path(path, sizeof path, "round-trip.swf");
    hsim_err_t e = {{0}};
    FUZZ_CHECK(hsim_swf_write(path, w, &e) == 0, "write: %s", e.msg);
    hsim_swf_trace_t t;
    int rc = hsim_swf_read(path, 0, &t, &e);
    unlink(path);
    FUZZ_CHECK(rc == 0, "the written file does not read back: %s", e.msg);
    hsim_workload_t back;
    hsim_workload_init(&back);
    FUZZ_CHECK(hsim_swf_clean(&t, HSIM_CLEAN_STANDARD, machine, &back) == 0, "clean back");
    FUZZ_CHECK(back.n_jobs == w->n_jobs && back.n_rejected == 0,
               "%zu jobs came back as %zu jobs and %zu rejections (first: %s)", w->n_jobs,
               back.n_jobs, back.n_rejected, back.n_rejected ? back.rejected[0].reason : "");
    for (size_t i = 0; i < w->n_jobs; i++)
        check_same_job(&w->jobs[i], &back.jobs[i]);
    hsim_workload_free(&back);
    hsim_swf_trace_free(&t);
}

/* One engine run of w on a pool of machine processors, then its metrics. */
static void replay_one(const hsim_workload_t *w, int32_t machine, const char *order,
                       const char *backfill, const char *estimate, hsim_outcome_t *out)
{
    hsim_run_config_t cfg = {
        .capacity = machine,
        .order = hsim_order_find(order),
        .scheduler = hsim_scheduler_find(backfill),
        .predictor = hsim_predictor_find(estimate),
    };
    hsim_err_t e = {{0}};
    int rc = fuzz_replay(w, &cfg, backfill, out, &e);
    FUZZ_CHECK(rc == 0, "%s/%s: engine rc %d: %s", order, backfill, rc, e.msg);
    hsim_summary_t sum;
    FUZZ_CHECK(hsim_metrics_compute(w, out, machine, &sum) == 0, "metrics");
}

/* Replays a small w under three policies. */
static void check_replay(const hsim_workload_t *w, int32_t machine)
{
    if (w->n_jobs == 0 || w->n_jobs > MAX_REPLAY_JOBS)
        return;
    hsim_outcome_t *out = calloc(w->n_jobs, sizeof *out);
    FUZZ_CHECK(out, "out of memory");
    replay_one(w, machine, "fcfs", "none", "user", out);
    replay_one(w, machine, "fcfs", "easy", "user", out);
    replay_one(w, machine, "sjf", "conservative", "oracle", out);
    free(out);
}

/* Everything after a successful read: both presets, round trip, replay. */
static void check_cleaned(const hsim_swf_trace_t *t)
{
    int32_t machine = machine_size(&t->header);
    hsim_workload_t w;
    hsim_workload_init(&w);
    FUZZ_CHECK(hsim_swf_clean(t, HSIM_CLEAN_PYSS, machine, &w) == 0, "clean pyss");
    FUZZ_CHECK(w.n_rejected == 0, "pyss rejected a job: %s", w.rejected[0].reason);
    check_jobs(&w, machine, "pyss");
    hsim_workload_free(&w);

    hsim_workload_init(&w);
    FUZZ_CHECK(hsim_swf_clean(t, HSIM_CLEAN_STANDARD, machine, &w) == 0, "clean standard");
    check_jobs(&w, machine, "standard");
    for (size_t i = 0; i < w.n_jobs; i++)
        FUZZ_CHECK(w.jobs[i].runtime <= w.jobs[i].estimate,
                   "standard: job %lld runs %lld past its estimate %lld",
                   (long long)w.jobs[i].id, (long long)w.jobs[i].runtime,
                   (long long)w.jobs[i].estimate);
    check_round_trip(&w, machine);
    check_replay(&w, machine);
    hsim_workload_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    long live = hsim_alloc_live();
    char path[512];
    fuzz_temp_path(path, sizeof path, "in.swf");
    char *text = fuzz_text(data, size);
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    int rc = hsim_swf_parse_string(text, path, 0, &t, &e);
    free(text);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "rc %d: %s", rc, e.msg);

    int gzip_magic = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    if (!memchr(data, '\0', size) && !gzip_magic) {
        fuzz_write_file(path, data, size);
        compare_file_reader(path, rc, &t, e.msg);
        if (rc == 0)
            check_prefix(path, &t);
        fuzz_write_gzip(path, data, size); /* the same text, gzipped */
        compare_file_reader(path, rc, &t, e.msg);
        unlink(path);
    } else {
        /* bytes that the string reader cannot see (a NUL) or a damaged
           gzip stream: the file reader says so, never crashes */
        fuzz_write_file(path, data, size);
        hsim_swf_trace_t f;
        hsim_err_t fe = {{0}};
        int frc = hsim_swf_read(path, 0, &f, &fe);
        FUZZ_CHECK(frc == 0 || frc == HSIM_EINPUT || frc == HSIM_EIO, "file reader rc %d: %s",
                   frc, fe.msg);
        FUZZ_CHECK(frc || !memchr(data, '\0', size) || gzip_magic,
                   "a NUL byte read without an error");
        if (frc == 0)
            hsim_swf_trace_free(&f);
        unlink(path);
    }
    if (rc == 0) {
        check_header(&t.header);
        check_cleaned(&t);
    }
    hsim_swf_trace_free(&t);
    fuzz_check_no_leak(live);
    return 0;
}
