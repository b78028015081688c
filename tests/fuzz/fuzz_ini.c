/*
 * fuzz_ini.c - libFuzzer target for the experiment INI reader (sim/config.h)
 * and the cheap steps of an experiment that follow it.
 *
 * One input is one INI file, named hsim-fuzz-<pid>.ini in the current
 * folder, so its relative paths start there (tests/fuzz/run.sh puts a
 * 40-job t.swf there, and links that make the seeds' ../traces and
 * ../../shared paths work).  What must hold for every input:
 *   - hsim_config_parse_string() returns 0 or HSIM_EINPUT, never crashes;
 *   - hsim_config_load() of the same bytes in that file agrees with it: the
 *     same return code and message, or the same configuration, byte for
 *     byte (inputs with a NUL byte are skipped: the string ends there);
 *   - a parsed configuration has complete policies, names that make safe
 *     folder names, and node types that config.h allows;
 *   - the experiment's workload, cut to MAX_JOBS jobs, loads or fails with
 *     HSIM_EINPUT, and its jobs are sane; when it fails a small fixed
 *     workload (GPU, memory, FPGA and whole-node jobs) stands in;
 *   - on a cluster of at most MAX_NODES nodes, hsim_spec_build() and
 *     hsim_spec_reject_impossible() work, and every policy replays the
 *     workload (HSIM_EINPUT allowed: an impossible run is reported, not
 *     crashed) with every job started after its submission;
 *   - hsim's live allocations are back where they were.
 * Nothing is written but the input file: no experiment is run to its end.
 */
#include "fuzz.h"

#include "sim/cluster.h"
#include "sim/config.h"
#include "sim/experiment.h"
#include "sim/spec.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_JOBS 100      /* jobs loaded or generated per input */
#define MAX_NODES 20000   /* larger clusters are parsed, not replayed */

/* The file reader against the string reader's result (rc, c, msg). */
static void compare_file_reader(const char *path, const uint8_t *data, size_t size, int rc,
                                const hsim_config_t *c, const char *msg)
{
    hsim_config_t *f = calloc(1, sizeof *f);
    FUZZ_CHECK(f, "out of memory");
    hsim_err_t e = {{0}};
    fuzz_write_file(path, data, size);
    int frc = hsim_config_load(path, f, &e);
    unlink(path);
    FUZZ_CHECK(frc == rc, "string reader rc %d (%s), file reader rc %d (%s)", rc, msg, frc,
               e.msg);
    if (rc)
        FUZZ_CHECK(!strcmp(msg, e.msg), "messages differ: '%s' and '%s'", msg, e.msg);
    else
        FUZZ_CHECK(!memcmp(f, c, sizeof *c), "the configurations differ");
    free(f);
}

/* What config.h promises of a parsed configuration; returns its nodes. */
static int64_t check_parsed(const hsim_config_t *c)
{
    FUZZ_CHECK(c->name[0] && !strchr(c->name, '/'), "experiment name '%s'", c->name);
    FUZZ_CHECK(c->n_policies >= 1 && c->n_policies <= HSIM_MAX_POLICIES, "%zu policies",
               c->n_policies);
    for (size_t i = 0; i < c->n_policies; i++) {
        const hsim_policy_config_t *p = &c->policies[i];
        FUZZ_CHECK(p->order && p->scheduler && p->predictor && p->placement,
                   "policy '%s' incomplete", p->name);
        FUZZ_CHECK(p->name[0] && !strchr(p->name, '/'), "policy name '%s'", p->name);
    }
    int64_t nodes = 0;
    for (size_t i = 0; i < c->n_nodes; i++) {
        const hsim_node_type_t *t = &c->nodes[i].type;
        FUZZ_CHECK(t->count >= 1 && t->cores >= 1 && t->speed > 0 && t->mem_mb >= 0 &&
                       t->gpus >= 0 && t->fpgas >= 0,
                   "node type %s: count %d cores %d speed %g memory %lld gpus %d fpgas %d",
                   t->name, t->count, t->cores, t->speed, (long long)t->mem_mb, t->gpus,
                   t->fpgas);
        nodes += t->count;
    }
    return nodes;
}

/* Eight jobs that ask for a bit of everything: GPUs (whole, shared, of
   the v100 model or of the first node type's model), memory, an FPGA, two
   whole nodes. */
static const struct {
    int32_t procs, gpus, gpu_milli, fpgas, nodes, cores_per_node;
    int64_t mem_mb;
    int model;              /* 0 any, 1 v100, 2 the first node type's */
} fixed_jobs[] = {
    {1, 0, 0, 0, 0, 0, 0, 0},     {2, 1, 1000, 0, 0, 0, 0, 0},
    {4, 0, 0, 0, 0, 0, 1024, 0},  {64, 0, 0, 0, 2, 32, 0, 0},
    {1, 1, 500, 0, 0, 0, 0, 1},   {3, 1, 1000, 0, 0, 0, 0, 0},
    {8, 2, 1000, 0, 0, 0, 0, 2},  {1, 0, 0, 1, 0, 0, 0, 0},
};

/* The fixed jobs into w, spread over c's classes and a class "app1",
   none bigger than a pool of capacity processors (0: no limit). */
static void fixed_workload(const hsim_config_t *c, int32_t capacity, hsim_workload_t *w)
{
    hsim_workload_init(w);
    for (size_t k = 0; k < c->n_classes; k++)
        hsim_workload_class(w, c->classes[k].name);
    hsim_workload_class(w, "app1");
    int models[3] = {-1, hsim_workload_model(w, "v100"), -1};
    if (c->n_nodes && c->nodes[0].type.gpu_model[0])
        models[2] = hsim_workload_model(w, c->nodes[0].type.gpu_model);
    for (int i = 0; i < (int)(sizeof fixed_jobs / sizeof fixed_jobs[0]); i++) {
        hsim_job_t j;
        hsim_job_init(&j);
        j.id = j.line = i + 1;
        j.submit = i * HSIM_SECOND;
        j.runtime = (10 + i) * HSIM_SECOND;
        j.estimate = 2 * j.runtime;
        j.procs = fixed_jobs[i].procs;
        if (capacity > 0 && j.procs > capacity)
            j.procs = capacity;
        j.user = i % 3;
        j.job_class = (int16_t)(i % (int)w->n_classes);
        j.gpus = fixed_jobs[i].gpus;
        j.gpu_milli = fixed_jobs[i].gpu_milli;
        j.fpgas = fixed_jobs[i].fpgas;
        j.nodes = fixed_jobs[i].nodes;
        j.cores_per_node = fixed_jobs[i].cores_per_node;
        j.mem_mb = fixed_jobs[i].mem_mb;
        int m = models[fixed_jobs[i].model];
        j.gpu_models = m >= 0 ? 1u << m : 0;
        FUZZ_CHECK(hsim_workload_add(w, &j) == 0, "out of memory");
    }
    w->n_input = w->n_jobs;
}

/* c's workload, at most MAX_JOBS jobs of it, into w; the fixed workload
   when it does not load.  The machine size goes to *capacity (0: none). */
static void load_workload(hsim_config_t *c, hsim_workload_t *w, int32_t *capacity)
{
    if (!c->max_jobs || c->max_jobs > MAX_JOBS)
        c->max_jobs = MAX_JOBS;
    if (c->jobs > MAX_JOBS)
        c->jobs = MAX_JOBS;
    hsim_err_t e = {{0}};
    int rc = hsim_experiment_load(c, w, capacity, &e);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "experiment_load rc %d: %s", rc, e.msg);
    if (rc) {
        *capacity = c->processors;
        fixed_workload(c, c->n_nodes || c->alibaba_nodes[0] ? 0 : *capacity, w);
        return;
    }
    FUZZ_CHECK(w->n_jobs + w->n_rejected == w->n_input, "%s: %zu jobs + %zu rejected != %zu read",
               c->format, w->n_jobs, w->n_rejected, w->n_input);
    for (size_t k = 0; k < w->n_jobs; k++) {
        const hsim_job_t *j = &w->jobs[k];
        FUZZ_CHECK(j->submit >= 0 && j->runtime > 0 && j->estimate > 0 && j->procs >= 1,
                   "%s job %lld: submit %lld runtime %lld estimate %lld procs %d", c->format,
                   (long long)j->id, (long long)j->submit, (long long)j->runtime,
                   (long long)j->estimate, j->procs);
    }
}

/* Replays w under every policy of c, on the cluster (NULL: a pool). */
static void run_policies(const hsim_config_t *c, const hsim_workload_t *w,
                         const hsim_cluster_spec_t *cluster, int32_t capacity)
{
    hsim_outcome_t *out = calloc(w->n_jobs, sizeof *out);
    FUZZ_CHECK(out, "out of memory");
    for (size_t i = 0; i < c->n_policies; i++) {
        const hsim_policy_config_t *p = &c->policies[i];
        hsim_run_config_t cfg = {
            .capacity = capacity > 0 ? capacity : 64,
            .order = p->order,
            .backfill_order = p->backfill_order,
            .scheduler = p->scheduler,
            .predictor = p->predictor,
            .cluster = cluster,
            .placement = p->placement,
            .spread = p->spread,
        };
        hsim_err_t e = {{0}};
        int rc = fuzz_replay(w, &cfg, p->name, out, &e);
        FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "policy %s: engine rc %d: %s", p->name, rc,
                   e.msg);
    }
    free(out);
}

/* The cluster's cores, as the experiment takes them for its capacity. */
static int32_t cluster_cores(const hsim_spec_t *s)
{
    hsim_cluster_t cl;
    FUZZ_CHECK(hsim_cluster_init(&cl, s->types, s->spec.n_types) == 0, "out of memory");
    int32_t cores = cl.total_cores > INT32_MAX ? INT32_MAX : (int32_t)cl.total_cores;
    hsim_cluster_free(&cl);
    return cores;
}

/* The steps of an experiment after parsing, as far as its runs. */
static void check_experiment(hsim_config_t *c)
{
    if (check_parsed(c) > MAX_NODES)
        return;
    hsim_workload_t w;
    int32_t capacity;
    load_workload(c, &w, &capacity);
    if (w.n_jobs == 0 || !(c->n_nodes || c->alibaba_nodes[0])) {
        if (w.n_jobs)
            run_policies(c, &w, NULL, capacity);
        hsim_workload_free(&w);
        return;
    }
    hsim_spec_t s;
    memset(&s, 0, sizeof s);
    hsim_err_t e = {{0}};
    int rc = hsim_spec_build(c, &w, &s, &e);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "spec_build rc %d: %s", rc, e.msg);
    if (rc == 0) {
        FUZZ_CHECK(hsim_spec_reject_impossible(&s, &w) == 0, "reject_impossible: out of memory");
        run_policies(c, &w, &s.spec, cluster_cores(&s));
    }
    hsim_spec_free(&s);
    hsim_workload_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    long live = hsim_alloc_live();
    char path[64];
    snprintf(path, sizeof path, "hsim-fuzz-%ld.ini", (long)getpid());
    hsim_config_t *c = calloc(1, sizeof *c);
    FUZZ_CHECK(c, "out of memory");
    char *text = fuzz_text(data, size);
    hsim_err_t e = {{0}};
    int rc = hsim_config_parse_string(text, path, c, &e);
    free(text);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "rc %d: %s", rc, e.msg);
    if (!memchr(data, '\0', size))
        compare_file_reader(path, data, size, rc, c, e.msg);
    if (rc == 0)
        check_experiment(c);
    free(c);
    fuzz_check_no_leak(live);
    return 0;
}
