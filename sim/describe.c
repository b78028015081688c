/*
 * describe.c - hsim describe FILE.ini: what a run would see, without
 * running it.  See describe.h.
 */
#include "describe.h"

#include "experiment.h"
#include "spec.h"

#include <stdlib.h>
#include <string.h>

#define REASONS_SHOWN 8

static int by_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Users: how many, and the one with the most jobs (*top, *top_jobs). */
static size_t count_users(const hsim_workload_t *w, int32_t *top, size_t *top_jobs)
{
    *top = -1;
    *top_jobs = 0;
    if (w->n_jobs == 0)
        return 0;
    int32_t *u = hsim_malloc(w->n_jobs * sizeof *u);
    if (!u)
        return 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        u[i] = w->jobs[i].user;
    qsort(u, w->n_jobs, sizeof *u, by_int32);
    size_t users = 0;
    for (size_t i = 0, run = 1; i < w->n_jobs; i++, run++) {
        if (i + 1 < w->n_jobs && u[i + 1] == u[i])
            continue;
        users++;
        if (run > *top_jobs)
            *top = u[i], *top_jobs = run;
        run = 0;
    }
    hsim_free(u);
    return users;
}

static void print_rejections(FILE *f, const hsim_workload_t *w)
{
    size_t input = w->n_jobs + w->n_rejected;
    fprintf(f, "jobs: %zu to run, %zu rejected, of %zu in the input\n", w->n_jobs,
            w->n_rejected, input);
    hsim_reason_t r[REASONS_SHOWN];
    size_t n = hsim_experiment_reasons(w, r, REASONS_SHOWN), shown = 0;
    if (n)
        fprintf(f, "  rejected, by reason (numbers aside; one example each):\n");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "  %8zu  %s\n", r[i].count, w->rejected[r[i].first].reason);
        shown += r[i].count;
    }
    if (shown < w->n_rejected)
        fprintf(f, "  %8zu  for other reasons (rejected.csv lists every one)\n",
                w->n_rejected - shown);
    if (w->n_rewritten) {
        fprintf(f, "  rewritten by cleaning: %zu\n", w->n_rewritten);
        for (size_t i = 0; i < w->n_rewrites; i++)
            fprintf(f, "  %8zu  %s\n", w->rewrites[i].count, w->rewrites[i].why);
    }
}

static void print_jobs(FILE *f, const hsim_workload_t *w)
{
    if (w->n_jobs == 0)
        return;
    char a[32], b[32];
    hsim_time_t first = w->jobs[0].submit, last = w->jobs[w->n_jobs - 1].submit;
    fprintf(f, "submitted: from %s s to %s s (%.1f days)\n", hsim_format_time(a, sizeof a, first),
            hsim_format_time(b, sizeof b, last), (double)(last - first) / HSIM_SECOND / 86400);
    int32_t top;
    size_t top_jobs, users = count_users(w, &top, &top_jobs);
    if (users == 1 && top < 0)
        fprintf(f, "users: none named\n");
    else
        fprintf(f, "users: %zu (the most jobs: user %d, %zu)\n", users, top, top_jobs);
    size_t gpu = 0, fpga = 0, mem = 0, whole = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        gpu += w->jobs[i].gpus > 0;
        fpga += w->jobs[i].fpgas > 0;
        mem += w->jobs[i].mem_mb > 0;
        whole += w->jobs[i].nodes > 0;
    }
    fprintf(f, "requests: %zu with GPUs, %zu with FPGAs, %zu with memory, %zu of whole nodes\n",
            gpu, fpga, mem, whole);
    if (w->n_classes) {
        fprintf(f, "job classes ([class NAME] sections name them):\n");
        for (size_t k = 0; k < w->n_classes; k++) {
            size_t n = 0;
            for (size_t i = 0; i < w->n_jobs; i++)
                n += w->jobs[i].job_class == (int16_t)k;
            fprintf(f, "  %8zu  %s\n", n, w->classes[k]);
        }
    }
}

/* The GPU models the jobs name, and the node types' models that serve
   each (by name, or by a word of a topology's name). */
static void print_models(FILE *f, const hsim_workload_t *w, const hsim_cluster_t *c)
{
    if (w->n_models == 0)
        return;
    uint32_t map[HSIM_MAX_MODELS] = {0};
    if (c)
        hsim_engine_model_map(w, c, map);
    fprintf(f, "GPU models the jobs accept:\n");
    for (size_t m = 0; m < w->n_models; m++) {
        size_t n = 0;
        for (size_t i = 0; i < w->n_jobs; i++)
            n += (w->jobs[i].gpu_models >> m) & 1u;
        fprintf(f, "  %8zu  %s", n, w->models[m]);
        if (c) {
            fprintf(f, " -> ");
            int any = 0;
            for (size_t cm = 0; cm < c->n_models; cm++)
                if (map[m] & (1u << cm))
                    fprintf(f, "%s%s", any++ ? ", " : "", c->models[cm]);
            if (!any)
                fprintf(f, "no node type has it");
        }
        fputc('\n', f);
    }
}

static void print_cluster(FILE *f, const hsim_cluster_t *c)
{
    fprintf(f, "cluster: %zu nodes, %lld cores, %lld GPUs\n", c->n_nodes,
            (long long)c->total_cores, (long long)c->total_gpus);
    fprintf(f, "  %-20s %6s %6s %10s %5s %-22s %5s %-16s %s\n", "type", "count", "cores",
            "memory_mb", "gpus", "gpu_model", "fpgas", "fpga_model", "speed");
    for (size_t i = 0; i < c->n_types; i++) {
        const hsim_node_type_t *t = &c->types[i];
        fprintf(f, "  %-20s %6d %6d %10lld %5d %-22s %5d %-16s %g\n", t->name, t->count,
                t->cores, (long long)t->mem_mb, t->gpus, t->gpu_model[0] ? t->gpu_model : "-",
                t->fpgas, t->fpga_model[0] ? t->fpga_model : "-", t->speed);
    }
}

/* The offered load: the work the jobs ask for (runtime on a reference
   node x cores, or x GPUs) over what the machine offers between the first
   and the last submission. */
static void print_load(FILE *f, const hsim_workload_t *w, double cores, double gpus)
{
    if (w->n_jobs < 2)
        return;
    double span = (double)(w->jobs[w->n_jobs - 1].submit - w->jobs[0].submit) / HSIM_SECOND;
    if (span <= 0)
        return;
    double core_s = 0, gpu_s = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        double run = (double)j->runtime / HSIM_SECOND;
        core_s += run * j->procs;
        gpu_s += run * j->gpus * (j->gpu_milli ? j->gpu_milli : 1000) / 1000.0;
    }
    fprintf(f, "offered load (work asked / capacity over the submission span): cores %.1f%%",
            100 * core_s / (cores * span));
    if (gpus > 0)
        fprintf(f, ", GPUs %.1f%%", 100 * gpu_s / (gpus * span));
    fputc('\n', f);
}

int hsim_describe(const hsim_config_t *c, FILE *f, hsim_err_t *e)
{
    hsim_workload_t w;
    int32_t capacity = 0;
    int rc = hsim_experiment_load(c, &w, &capacity, e);
    if (rc)
        return rc;
    hsim_spec_t spec;
    memset(&spec, 0, sizeof spec);
    hsim_cluster_t cluster;
    memset(&cluster, 0, sizeof cluster);
    int nodes = c->n_nodes || c->alibaba_nodes[0];
    if (nodes && (rc = hsim_spec_build(c, &w, &spec, e)) == 0 &&
        (rc = hsim_spec_reject_impossible(&spec, &w)) == 0)
        rc = hsim_cluster_init(&cluster, spec.types, spec.spec.n_types);
    if (rc == 0) {
        fprintf(f, "experiment: %s (%s) -> %s/%s/\n", c->name, c->path, c->output, c->name);
        fprintf(f, "workload: format %s%s%s\n", c->format, c->trace[0] ? ", " : "", c->trace);
        print_rejections(f, &w);
        print_jobs(f, &w);
        print_models(f, &w, nodes ? &cluster : NULL);
        if (nodes)
            print_cluster(f, &cluster);
        else
            fprintf(f, "machine: %d processors\n", capacity);
        print_load(f, &w, nodes ? (double)cluster.total_cores : capacity,
                   nodes ? (double)cluster.total_gpus : 0);
        fprintf(f, "policies: %zu:", c->n_policies);
        for (size_t k = 0; k < c->n_policies; k++)
            fprintf(f, " %s", c->policies[k].name);
        fputc('\n', f);
    }
    if (nodes)
        hsim_cluster_free(&cluster);
    hsim_spec_free(&spec);
    hsim_workload_free(&w);
    return rc;
}
