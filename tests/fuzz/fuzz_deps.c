/*
 * fuzz_deps.c - libFuzzer target for dependencies between jobs
 * (hsim_deps_resolve(), workloads/deps.h): the edges of a
 * [workload] dependencies = FILE and those of the jobs' own after/think
 * fields.
 *
 * Input layout: byte 0 the options (bit 0 from_swf: the jobs' "after"
 * column makes edges too; bit 1 skip_bad_rows for the jobs), then a job
 * file of format = csv (fuzz_csv.c), then, after a line "%%", the
 * dependencies file (none when there is no such line).
 *
 * What must hold for every input whose jobs read:
 *   - the resolver returns 0 or HSIM_EINPUT, never crashes; on error
 *     w->deps is NULL and the message names the dependencies file (or
 *     "SWF field 17" for a cycle of the jobs' own fields); a cycle is
 *     named job by job, each waiting for the next, the last for the first;
 *   - else no job is lost (jobs + rejections = rows read), and the graph
 *     (when there is one) has no more edges than the file has lines that
 *     can give one (a reference count here) and the jobs have "after"
 *     fields, as many jobs as w, each edge between two of
 *     them, parent counts that match the edges, an order in which every
 *     parent comes before its children (so no cycle), and workflow numbers
 *     shared by the two ends of every edge and numbered in order;
 *   - hsim's live allocations are back where they were.
 */
#include "fuzz.h"

#include "workloads/deps.h"
#include "workloads/gpu_traces.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SHOWN "deps.csv"

/* The cycle of an error message "... a cycle of dependencies: job A waits
   for job B (...), job B waits for job C (...)": each job waits for the
   next one, the last for the first. */
static void check_cycle(const char *msg)
{
    static const char head[] = SHOWN ": a cycle of dependencies:";
    if (strncmp(msg, head, sizeof head - 1)) /* (another error may quote the words) */
        return;
    const char *s = msg;
    long long first = 0, prev = 0, a, b;
    int n = 0;
    for (const char *p = strstr(s, " job "); p; p = strstr(p + 1, " job ")) {
        if (sscanf(p, " job %lld waits for job %lld", &a, &b) != 2)
            continue;
        if (n == 0)
            first = a;
        else
            FUZZ_CHECK(a == prev, "a cycle that jumps from job %lld to job %lld: %s", prev, a,
                       msg);
        prev = b;
        n++;
        p = strstr(p, " waits for job ");
        if (!p)
            break;
    }
    FUZZ_CHECK(n >= 1, "a cycle named without its jobs: %s", msg);
    /* a long cycle is cut short (deps.c writes at most 900 characters):
       check that it closes only when it is shorter */
    if (strlen(s) < 800 && strlen(msg) + 100 < sizeof(((hsim_err_t *)0)->msg))
        FUZZ_CHECK(prev == first, "a cycle that does not close (job %lld, then %lld): %s",
                   first, prev, msg);
}

/* Lines of the dependencies file that can give an edge: not blank, not a
   '#' comment, not the header. */
static size_t data_lines(const uint8_t *data, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < size;) {
        size_t j = i;
        while (j < size && data[j] != '\n')
            j++;
        size_t k = i;
        while (k < j && (data[k] == ' ' || data[k] == '\t'))
            k++;
        if (k < j && data[k] >= '0' && data[k] <= '9')
            n++;
        i = j + 1;
    }
    return n;
}

/* Edges that the jobs' after fields can give. */
static size_t after_edges(const hsim_workload_t *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        n += w->jobs[i].after > 0;
    return n;
}

static void check_graph(const hsim_workload_t *w, size_t max_edges)
{
    FUZZ_CHECK(w->n_jobs + w->n_rejected == w->n_input, "%zu jobs + %zu rejected != %zu rows",
               w->n_jobs, w->n_rejected, w->n_input);
    const hsim_deps_t *d = w->deps;
    if (!d)
        return;
    size_t n = w->n_jobs;
    FUZZ_CHECK(d->n_edges <= max_edges, "%zu edges from %zu lines and fields that can give one",
               d->n_edges, max_edges);
    FUZZ_CHECK(d->n_jobs == n, "a graph of %zu jobs for %zu", d->n_jobs, n);
    FUZZ_CHECK(d->child_first[0] == 0 && d->child_first[n] == d->n_edges,
               "child_first from %zu to %zu, %zu edges", d->child_first[0], d->child_first[n],
               d->n_edges);
    int32_t *parents = calloc(n ? n : 1, sizeof *parents);
    size_t *pos = calloc(n ? n : 1, sizeof *pos);
    uint8_t *seen = calloc(n ? n : 1, 1);
    FUZZ_CHECK(parents && pos && seen, "out of memory");
    for (size_t k = 0; k < n; k++) {
        int32_t v = d->order[k];
        FUZZ_CHECK(v >= 0 && (size_t)v < n && !seen[v], "order[%zu] = %d", k, v);
        seen[v] = 1;
        pos[v] = k;
    }
    int32_t next_workflow = 0;
    for (size_t p = 0; p < n; p++) {
        FUZZ_CHECK(d->child_first[p] <= d->child_first[p + 1], "child_first goes back at %zu",
                   p);
        for (size_t k = d->child_first[p]; k < d->child_first[p + 1]; k++) {
            int32_t c = d->child[k];
            FUZZ_CHECK(c >= 0 && (size_t)c < n, "edge %zu to job index %d of %zu", k, c, n);
            FUZZ_CHECK(pos[p] < pos[c], "job %lld comes after its child %lld in the order",
                       (long long)w->jobs[p].id, (long long)w->jobs[c].id);
            FUZZ_CHECK(d->think[k] >= 0, "think %lld", (long long)d->think[k]);
            FUZZ_CHECK(d->workflow[p] >= 0 && d->workflow[p] == d->workflow[c],
                       "jobs %lld and %lld linked, in workflows %d and %d",
                       (long long)w->jobs[p].id, (long long)w->jobs[c].id, d->workflow[p],
                       d->workflow[c]);
            parents[c]++;
        }
    }
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(parents[i] == d->n_parents[i], "job %lld: %d parents by the edges, %d held",
                   (long long)w->jobs[i].id, parents[i], d->n_parents[i]);
        int linked = parents[i] > 0 || d->child_first[i + 1] > d->child_first[i];
        FUZZ_CHECK(linked == (d->workflow[i] >= 0), "job %lld: workflow %d, linked %d",
                   (long long)w->jobs[i].id, d->workflow[i], linked);
        if (d->workflow[i] >= 0) {
            FUZZ_CHECK(d->workflow[i] <= next_workflow, "job %lld: workflow %d before %d",
                       (long long)w->jobs[i].id, d->workflow[i], next_workflow);
            if (d->workflow[i] == next_workflow)
                next_workflow++;
        }
    }
    FUZZ_CHECK((size_t)next_workflow == d->n_workflows, "%d workflows seen, %zu held",
               next_workflow, d->n_workflows);
    free(parents);
    free(pos);
    free(seen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    long live = hsim_alloc_live();
    const uint8_t *jobs = data + 1, *end = data + size, *deps = NULL;
    size_t n_jobs = size - 1;
    static const char sep[] = "\n%%\n";
    for (const uint8_t *p = jobs; p + 4 <= end; p++)
        if (!memcmp(p, sep, 4)) {
            n_jobs = (size_t)(p + 1 - jobs);
            deps = p + 4;
            break;
        }
    char jobs_path[512], deps_path[512];
    fuzz_temp_path(jobs_path, sizeof jobs_path, "jobs.csv");
    fuzz_temp_path(deps_path, sizeof deps_path, SHOWN);
    fuzz_write_file(jobs_path, jobs, n_jobs);
    if (deps)
        fuzz_write_file(deps_path, deps, (size_t)(end - deps));
    hsim_gpu_read_options_t o = {.skip_bad_rows = data[0] >> 1 & 1};
    hsim_workload_t w;
    hsim_workload_init(&w);
    hsim_err_t e = {{0}};
    if (hsim_csv_jobs_read(jobs_path, &o, &w, &e) == 0) {
        hsim_deps_options_t d = {.from_swf = data[0] & 1, .path = deps ? deps_path : NULL,
                                 .shown = SHOWN};
        size_t max_edges = (d.from_swf ? after_edges(&w) : 0) +
                           (deps ? data_lines(deps, (size_t)(end - deps)) : 0);
        int rc = hsim_deps_resolve(&w, &d, &e);
        FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "rc %d: %s", rc, e.msg);
        if (rc) {
            FUZZ_CHECK(!w.deps, "a graph left on error");
            FUZZ_CHECK(strstr(e.msg, SHOWN) || strstr(e.msg, "SWF field 17"),
                       "the message names neither the file nor the jobs' fields: %s", e.msg);
            check_cycle(e.msg);
        } else {
            check_graph(&w, max_edges);
        }
    }
    hsim_workload_free(&w);
    unlink(jobs_path);
    unlink(deps_path);
    fuzz_check_no_leak(live);
    return 0;
}
