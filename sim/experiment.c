/*
 * experiment.c - load once, replay under each policy, write the results.
 */
#include "experiment.h"

#include "report.h"
#include "spec.h"
#include "../plots/chart.h"
#include "../workloads/swf.h"

#include <string.h>

/* Everything one experiment shares between its policies. */
typedef struct experiment {
    const hsim_config_t *c;
    hsim_workload_t w;
    int32_t capacity;
    hsim_spec_t spec;             /* with [nodes] sections */
    hsim_cluster_t cluster;       /* an empty ledger, for totals and names */
    int has_cluster;
    hsim_outcome_t *out;
    FILE *summary;
    FILE *classes;
    double *fig;                  /* 4 x HSIM_MAX_POLICIES: per policy wait (h),
                                     bsld, utilization (%), load imbalance */
    size_t n_done;                /* policies run so far */
} experiment_t;

/* Opens path for writing and writes header (may be NULL).  0 or HSIM_EIO. */
static int open_out(FILE **f, const char *path, const char *header, hsim_err_t *e)
{
    *f = fopen(path, "w");
    if (!*f)
        return hsim_errf(e, HSIM_EIO, "%s: cannot write", path);
    if (header)
        fputs(header, *f);
    return 0;
}

/* Closes f (NULL: nothing to do), reporting any write that failed. */
static int close_out(FILE *f, const char *path, hsim_err_t *e)
{
    if (!f)
        return 0;
    int bad = ferror(f);
    if (fclose(f) || bad)
        return hsim_errf(e, HSIM_EIO, "%s: write failed", path);
    return 0;
}

/* summary.png: the policies side by side. */
static int write_chart(const experiment_t *x, const char *dir, size_t n, hsim_err_t *e)
{
    const hsim_config_t *c = x->c;
    const char *labels[HSIM_MAX_POLICIES];
    for (size_t i = 0; i < n; i++)
        labels[i] = c->policies[i].name;
    hsim_chart_panel_t panels[4] = {
        {"average wait (h)", x->fig},
        {"average bounded slowdown", x->fig + HSIM_MAX_POLICIES},
        {"utilization (%)", x->fig + 2 * HSIM_MAX_POLICIES},
        {"load imbalance (CV)", x->fig + 3 * HSIM_MAX_POLICIES},
    };
    char path[HSIM_PATH_MAX * 2 + 16];
    snprintf(path, sizeof path, "%s/summary.png", dir);
    return hsim_chart_bars(path, c->name, labels, n, panels, x->has_cluster ? 4 : 3, e);
}

static int write_nodes(const experiment_t *x, const char *path, const hsim_run_stats_t *st,
                       hsim_err_t *e)
{
    FILE *f;
    int rc = open_out(&f, path, "node,type,busy_s,jobs\n", e);
    if (rc)
        return rc;
    char t[32];
    for (size_t i = 0; i < st->n_nodes; i++) {
        const hsim_node_t *n = &x->cluster.nodes[i];
        fprintf(f, "%zu,%s,%s,%d\n", i, x->cluster.types[n->type].name,
                hsim_format_time(t, sizeof t, st->node_busy[i]), st->node_jobs[i]);
    }
    return close_out(f, path, e);
}

/* cluster.csv: the node types as the replay saw them, after topologies,
   keys and node lists were resolved. */
static int write_cluster(const experiment_t *x, const char *path, hsim_err_t *e)
{
    FILE *f;
    int rc = open_out(&f, path, "type,count,cores,memory_mb,gpus,gpu_model,gpu_memory_mb,fpgas,"
                                "fpga_model,speed,partition\n", e);
    if (rc)
        return rc;
    for (size_t i = 0; i < x->cluster.n_types; i++) {
        const hsim_node_type_t *t = &x->cluster.types[i];
        hsim_report_csv_field(f, t->name);
        fprintf(f, ",%d,%d,%lld,%d,", t->count, t->cores, (long long)t->mem_mb, t->gpus);
        hsim_report_csv_field(f, t->gpu_model);
        fprintf(f, ",%lld,%d,", (long long)t->gpu_mem_mb, t->fpgas);
        hsim_report_csv_field(f, t->fpga_model);
        fprintf(f, ",%.15g,", t->speed);
        hsim_report_csv_field(f, t->partition);
        fputc('\n', f);
    }
    return close_out(f, path, e);
}

/* classes.csv rows: average job completion time per job class. */
static void write_classes(const experiment_t *x, const char *policy)
{
    const hsim_workload_t *w = &x->w;
    for (size_t k = 0; k < w->n_classes; k++) {
        double jct = 0, wait = 0;
        size_t n = 0;
        for (size_t i = 0; i < w->n_jobs; i++) {
            const hsim_outcome_t *o = &x->out[i];
            if (w->jobs[i].job_class != (int32_t)k || o->start < 0)
                continue;
            jct += (double)(o->end - w->jobs[i].submit) / HSIM_SECOND;
            wait += (double)(o->start - w->jobs[i].submit) / HSIM_SECOND;
            n++;
        }
        fprintf(x->classes, "%s,", policy);
        hsim_report_csv_field(x->classes, w->classes[k]);
        fprintf(x->classes, ",%zu,%.3f,%.3f\n", n, n ? jct / (double)n : 0.0,
                n ? wait / (double)n : 0.0);
    }
}

static void summary_header(const experiment_t *x)
{
    hsim_report_summary_header(x->summary);
    if (x->has_cluster) {
        fputs(",load_imbalance,util_cores,util_memory,util_fpgas", x->summary);
        for (size_t k = 0; k < x->cluster.n_models; k++)
            fprintf(x->summary, ",util_gpus_%s", x->cluster.models[k]);
    }
    fputc('\n', x->summary);
}

static int run_policy(experiment_t *x, const hsim_policy_config_t *pc, hsim_summary_t *s,
                      hsim_err_t *e)
{
    const hsim_config_t *c = x->c;
    hsim_run_config_t rc_cfg = {
        .capacity = x->capacity,
        .order = pc->order,
        .backfill_order = pc->backfill_order,
        .scheduler = pc->scheduler,
        .predictor = pc->predictor,
        .cluster = x->has_cluster ? &x->spec.spec : NULL,
        .placement = pc->placement,
        .spread = pc->spread,
    };
    hsim_err_t run_err = {{0}};
    hsim_run_stats_t st;
    memset(&st, 0, sizeof st);
    int rc = hsim_engine_run(&x->w, &rc_cfg, x->out, &st, &run_err);
    if (rc) {
        hsim_free(st.node_busy);
        hsim_free(st.node_jobs);
        if (rc == HSIM_ENOMEM)
            return rc;
        hsim_errf(e, 1, "%s: policy '%s' failed: %s", c->path, pc->name, run_err.msg);
        return 1;
    }
    char dir[HSIM_PATH_MAX * 2], path[HSIM_PATH_MAX * 2 + 16];
    snprintf(dir, sizeof dir, "%s/%s/%s", c->output, c->name, pc->name);
    if ((rc = hsim_mkdirs(dir, e)) == 0) {
        snprintf(path, sizeof path, "%s/jobs.csv", dir);
        rc = hsim_report_jobs(path, &x->w, x->out, e);
    }
    if (rc == 0 && x->has_cluster) {
        snprintf(path, sizeof path, "%s/nodes.csv", dir);
        rc = write_nodes(x, path, &st, e);
    }
    if (rc == 0)
        rc = hsim_metrics_compute(&x->w, x->out, x->capacity, s);
    if (rc == 0) {
        hsim_report_summary_row(x->summary, pc->name, s, x->w.n_rejected);
        if (x->has_cluster) {
            hsim_cluster_metrics_t m;
            hsim_cluster_metrics_compute(&st, &x->cluster, s->makespan, &m);
            fprintf(x->summary, ",%.6f,%.6f,%.6f,%.6f", m.load_imbalance, m.util_cores,
                    m.util_mem, m.util_fpgas);
            for (size_t k = 0; k < x->cluster.n_models; k++)
                fprintf(x->summary, ",%.6f", m.util_gpus[k]);
            x->fig[3 * HSIM_MAX_POLICIES + x->n_done] = m.load_imbalance;
        }
        x->fig[x->n_done] = s->wait.avg / 3600;
        x->fig[HSIM_MAX_POLICIES + x->n_done] = s->bsld.avg;
        x->fig[2 * HSIM_MAX_POLICIES + x->n_done] = 100 * s->utilization;
        x->n_done++;
        fputc('\n', x->summary);
        write_classes(x, pc->name);
    }
    hsim_free(st.node_busy);
    hsim_free(st.node_jobs);
    return rc;
}

static int prepare(experiment_t *x, hsim_err_t *e)
{
    const hsim_config_t *c = x->c;
    int rc = hsim_experiment_load(c, &x->w, &x->capacity, e);
    if (rc)
        return rc;
    if (c->n_nodes || c->alibaba_nodes[0]) {
        x->has_cluster = 1;
        if ((rc = hsim_spec_build(c, &x->w, &x->spec, e)))
            return rc;
        if ((rc = hsim_spec_reject_impossible(&x->spec, &x->w)))
            return rc;
        if ((rc = hsim_cluster_init(&x->cluster, x->spec.types, x->spec.spec.n_types)))
            return rc;
        x->capacity = x->cluster.total_cores > INT32_MAX ? INT32_MAX
                                                         : (int32_t)x->cluster.total_cores;
    }
    x->out = hsim_calloc(x->w.n_jobs, sizeof *x->out);
    x->fig = hsim_calloc(4 * HSIM_MAX_POLICIES, sizeof *x->fig);
    return x->out && x->fig ? 0 : HSIM_ENOMEM;
}

int hsim_experiment_run(const hsim_config_t *c, const hsim_experiment_options_t *o,
                        hsim_err_t *e)
{
    experiment_t x;
    memset(&x, 0, sizeof x);
    x.c = c;
    char dir[HSIM_PATH_MAX * 2], spath[HSIM_PATH_MAX * 2 + 16], cpath[HSIM_PATH_MAX * 2 + 16];
    snprintf(dir, sizeof dir, "%s/%s", c->output, c->name);
    snprintf(spath, sizeof spath, "%s/summary.csv", dir);
    snprintf(cpath, sizeof cpath, "%s/classes.csv", dir);
    int rc = prepare(&x, e);
    if (rc == 0)
        rc = hsim_mkdirs(dir, e);
    if (rc == 0) {
        char path[HSIM_PATH_MAX * 2 + 16];
        snprintf(path, sizeof path, "%s/rejected.csv", dir);
        rc = hsim_report_rejected(path, &x.w, e);
    }
    if (rc == 0 && x.has_cluster) {
        char path[HSIM_PATH_MAX * 2 + 16];
        snprintf(path, sizeof path, "%s/cluster.csv", dir);
        rc = write_cluster(&x, path, e);
    }
    if (rc == 0)
        rc = open_out(&x.summary, spath, NULL, e);
    if (rc == 0)
        rc = open_out(&x.classes, cpath, "policy,class,jobs,avg_jct,avg_wait\n", e);
    if (rc == 0) {
        summary_header(&x);
        if (!o->quiet) {
            if (x.has_cluster)
                printf("%s: %zu jobs (%zu rejected) on %zu nodes, %lld cores, %lld GPUs -> %s/\n",
                       c->name, x.w.n_jobs, x.w.n_rejected, x.cluster.n_nodes,
                       (long long)x.cluster.total_cores, (long long)x.cluster.total_gpus, dir);
            else
                printf("%s: %zu jobs (%zu rejected) on %d processors -> %s/\n", c->name,
                       x.w.n_jobs, x.w.n_rejected, x.capacity, dir);
            hsim_report_table_header(stdout);
        }
    }
    for (size_t i = 0; rc == 0 && i < c->n_policies; i++) {
        const hsim_policy_config_t *pc = &c->policies[i];
        hsim_summary_t s;
        if ((rc = run_policy(&x, pc, &s, e)))
            break;
        if (!o->quiet) {
            hsim_report_table_row(stdout, pc->name, &s);
            fflush(stdout);
        }
    }
    if (rc == 0)
        rc = write_chart(&x, dir, x.n_done, e);
    int rc2 = close_out(x.summary, spath, e);
    int rc3 = close_out(x.classes, cpath, e);
    if (!rc)
        rc = rc2 ? rc2 : rc3;
    hsim_free(x.out);
    hsim_free(x.fig);
    if (x.has_cluster)
        hsim_cluster_free(&x.cluster);
    hsim_spec_free(&x.spec);
    hsim_workload_free(&x.w);
    return rc;
}
