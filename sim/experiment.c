/*
 * experiment.c - one experiment under one seed (a unit): load its workload
 * once, replay it under each policy (on any thread), write the results in
 * file order.  Which units and replays run, on how many threads, is
 * runs.c's; a unit only keeps what each written policy added to the
 * experiment's files (hsim_unit_record_t), for the repeats' means and the
 * shards' manifests.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream() */
#include "experiment.h"

#include "report.h"
#include "failures.h"
#include "plot.h"
#include "spec.h"
#include "workflows.h"
#include "../plots/chart.h"
#include "../workloads/swf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Everything one experiment shares between its policies. */
typedef struct experiment {
    const hsim_config_t *c;
    hsim_workload_t w;
    int32_t capacity;
    hsim_spec_t spec;             /* with [nodes] sections */
    hsim_cluster_t cluster;       /* an empty ledger, for totals and names */
    int has_cluster;
    hsim_report_t summary;        /* summary.csv */
    hsim_report_t classes;        /* classes.csv */
    hsim_report_t workflows;      /* workflows.csv, when jobs depend on
                                     others (f NULL otherwise) */
    hsim_outage_t *outages[HSIM_MAX_FAILURE_MODELS]; /* each [failures]'s
                                     trace, NULL for a model */
    size_t n_outages[HSIM_MAX_FAILURE_MODELS];
    int32_t fail_type[HSIM_MAX_FAILURE_MODELS]; /* its node type, -1 all */
    int failures;                 /* some policy has failures: the summary's
                                     failure columns */
    double (*fig)[HSIM_MAX_POLICIES]; /* [HSIM_FIG_*][policy]: the chart's figures */
    const char *labels[HSIM_MAX_POLICIES]; /* the chart's bars: the
                                     policies written, in file order */
    size_t n_done;                /* policies written so far */
    const char *title;            /* the experiment's name (the chart's) */
} experiment_t;

/* Whether the table and the chart show the GPUs' utilization: on a
   cluster with GPUs. */
static int table_gpus(const experiment_t *x)
{
    return x->has_cluster && x->cluster.total_gpus > 0;
}

/* The longest policy name of c: the table's first column. */
static int name_width(const hsim_config_t *c)
{
    size_t w = 0;
    for (size_t k = 0; k < c->n_policies; k++)
        if (strlen(c->policies[k].name) > w)
            w = strlen(c->policies[k].name);
    return (int)w;
}

int hsim_experiment_chart(const char *dir, const char *title, const char *const *labels,
                          size_t n, double (*fig)[HSIM_MAX_POLICIES], int cluster, int gpus,
                          hsim_err_t *e)
{
    /* utilization is the processors' (the cores'); a GPU cluster's GPUs
       get a panel of their own, as its cores may sit nearly idle */
    hsim_chart_panel_t panels[5] = {
        {"average wait (h)", fig[HSIM_FIG_WAIT_H]},
        {"average bounded slowdown", fig[HSIM_FIG_BSLD]},
        {cluster ? "core utilization (%)" : "utilization (%)", fig[HSIM_FIG_UTIL_PCT]},
    };
    size_t n_panels = 3;
    if (gpus)
        panels[n_panels++] = (hsim_chart_panel_t){"GPU utilization (%)",
                                                  fig[HSIM_FIG_GPU_UTIL_PCT]};
    if (cluster)
        panels[n_panels++] = (hsim_chart_panel_t){"load imbalance (CV)",
                                                  fig[HSIM_FIG_IMBALANCE]};
    char path[HSIM_PATH_MAX * 2 + 16];
    snprintf(path, sizeof path, "%s/summary.png", dir);
    const char *l[HSIM_MAX_POLICIES];
    for (size_t i = 0; i < n; i++)
        l[i] = labels[i];
    return hsim_chart_bars(path, title, l, n, panels, n_panels, e);
}

static int write_nodes(const experiment_t *x, const char *path, const hsim_run_stats_t *st,
                       hsim_err_t *e)
{
    hsim_report_t r;
    int rc = hsim_report_open(&r, path, "node,type,busy_s,jobs\n", e);
    if (rc)
        return rc;
    char t[32];
    for (size_t i = 0; i < st->n_nodes; i++) {
        const hsim_node_t *n = &x->cluster.nodes[i];
        fprintf(r.f, "%zu,", i);
        hsim_report_csv_field(r.f, x->cluster.types[n->type].name); /* a node list's
                                                                       model is in it */
        fprintf(r.f, ",%s,%d\n", hsim_format_time(t, sizeof t, st->node_busy[i]),
                st->node_jobs[i]);
    }
    return hsim_report_close(&r, e);
}

/* cluster.csv: the node types as the replay saw them, after topologies,
   keys and node lists were resolved. */
static int write_cluster(const experiment_t *x, const char *path, hsim_err_t *e)
{
    hsim_report_t r;
    int rc = hsim_report_open(&r, path, "type,count,cores,memory_mb,gpus,gpu_model,"
                                        "gpu_memory_mb,fpgas,fpga_model,speed,partition\n", e);
    if (rc)
        return rc;
    for (size_t i = 0; i < x->cluster.n_types; i++) {
        const hsim_node_type_t *t = &x->cluster.types[i];
        hsim_report_csv_field(r.f, t->name);
        fprintf(r.f, ",%d,%d,%lld,%d,", t->count, t->cores, (long long)t->mem_mb, t->gpus);
        hsim_report_csv_field(r.f, t->gpu_model);
        fprintf(r.f, ",%lld,%d,", (long long)t->gpu_mem_mb, t->fpgas);
        hsim_report_csv_field(r.f, t->fpga_model);
        fprintf(r.f, ",%.15g,", t->speed);
        hsim_report_csv_field(r.f, t->partition);
        fputc('\n', r.f);
    }
    return hsim_report_close(&r, e);
}

/* classes.csv rows, into f: average job completion time per job class. */
static void write_classes(FILE *f, const experiment_t *x, const char *policy,
                          const hsim_outcome_t *out)
{
    const hsim_workload_t *w = &x->w;
    for (size_t k = 0; k < w->n_classes; k++) {
        double jct = 0, wait = 0;
        size_t n = 0;
        for (size_t i = 0; i < w->n_jobs; i++) {
            const hsim_outcome_t *o = &out[i];
            if (w->jobs[i].job_class != (int32_t)k || o->start < 0)
                continue;
            jct += (double)(o->end - hsim_outcome_submit(&w->jobs[i], o)) / HSIM_SECOND;
            wait += (double)(o->start - hsim_outcome_submit(&w->jobs[i], o)) / HSIM_SECOND;
            n++;
        }
        fprintf(f, "%s,", policy);
        hsim_report_csv_field(f, w->classes[k]);
        fprintf(f, ",%zu", n); /* none ran: no average (NaN) */
        hsim_report_figure(f, 3, n ? jct / (double)n : NAN);
        hsim_report_figure(f, 3, n ? wait / (double)n : NAN);
        fputc('\n', f);
    }
}

static void summary_header(FILE *f, const experiment_t *x)
{
    hsim_report_summary_header(f);
    if (x->has_cluster) {
        fputs(",load_imbalance,util_cores,util_memory,util_fpgas,util_gpus", f);
        for (size_t k = 0; k < x->cluster.n_models; k++) {
            /* a model's name is free text (gpu_model, a node list's
               column): quoted when it holds a comma, as in cluster.csv */
            char col[HSIM_TYPE_NAME_MAX + 16];
            snprintf(col, sizeof col, "util_gpus_%s", x->cluster.models[k]);
            fputc(',', f);
            hsim_report_csv_field(f, col);
        }
    }
    fputs(",expiries", f); /* last: the cluster columns vary */
    if (x->failures) /* extensions come after it */
        fputs(",failures,jobs_hit,work_lost_core_h,availability", f);
    fputc('\n', f);
}

/* One policy's replay.  It reads the experiment (workload, cluster) and
   writes only here, so replays can run on threads of their own. */
typedef struct replay {
    const experiment_t *x;
    const hsim_policy_config_t *pc;
    hsim_outcome_t *out;          /* [n_jobs]: each job's outcome */
    hsim_run_stats_t st;
    hsim_err_t err;
    int rc;                       /* hsim_engine_run()'s, or HSIM_ENOMEM */
    int finished;                 /* out, st and rc are set (under the
                                     pool's lock when there is a pool) */
    double gpu_util;              /* every GPU's utilization, 0..1, for the
                                     table; NaN off a cluster with GPUs */
    hsim_failures_t failures;     /* with the policy's failures = NAME */
} replay_t;

static void replay_run(replay_t *r, const hsim_unit_progress_t *hook)
{
    const experiment_t *x = r->x;
    const hsim_policy_config_t *pc = r->pc;
    hsim_run_config_t cfg = {
        .capacity = x->capacity,
        .order = pc->order,
        .backfill_order = pc->backfill_order,
        .scheduler = pc->scheduler,
        .predictor = pc->predictor,
        .predictor_model = pc->estimate_model,
        .predictor_retrain = pc->estimate_retrain,
        .predictor_under_weight = pc->estimate_under_weight,
        .cluster = x->has_cluster ? &x->spec.spec : NULL,
        .placement = pc->placement,
        .spread = pc->spread,
        .preempt = pc->preempt,
        .preempt_grace = (hsim_time_t)llround(pc->preempt_grace_s * HSIM_SECOND),
        .switch_cost = (hsim_time_t)llround(pc->switch_cost_s * HSIM_SECOND),
        .quantum = (hsim_time_t)llround(pc->quantum_s * HSIM_SECOND),
        .values = &pc->values,
        .seed = x->c->seed,
    };
    if (hook && hook->cb) {
        cfg.progress = hook->cb;
        cfg.progress_arg = hook->arg;
        cfg.progress_every = hook->every ? hook->every : 1;
    }
    if (pc->failures) {
        int k = pc->failures - 1;
        const hsim_failures_config_t *fc = &x->c->failures[k];
        r->failures = (hsim_failures_t){
            .dist = fc->dist,
            .mtbf = (hsim_time_t)llround(fc->mtbf_s * HSIM_SECOND),
            .mttr = (hsim_time_t)llround(fc->mttr_s * HSIM_SECOND),
            .shape = fc->shape,
            .seed = x->c->seed,
            .type = x->fail_type[k],
            .trace = x->outages[k],
            .n_trace = x->n_outages[k],
            .on_failure = pc->on_failure,
            .restart_cost = (hsim_time_t)llround(pc->restart_cost_s * HSIM_SECOND),
        };
        cfg.failures = &r->failures;
    }
    memset(&r->st, 0, sizeof r->st);
    r->out = hsim_calloc(x->w.n_jobs, sizeof *r->out);
    r->rc = r->out ? hsim_engine_run(&x->w, &cfg, r->out, &r->st, &r->err) : HSIM_ENOMEM;
}

/* Frees what a replay holds. */
static void replay_free(replay_t *r)
{
    hsim_free(r->out);
    r->out = NULL;
    hsim_run_stats_free(&r->st);
}

/* Text written through a FILE and kept: open_memstream()'s buffer, copied
   into a string of hsim's allocator when the capture ends. */
typedef struct capture {
    FILE *f;
    char *buf;                    /* open_memstream()'s, freed with free() */
    size_t len;
} capture_t;

static int capture_open(capture_t *k)
{
    k->buf = NULL;
    k->len = 0;
    k->f = open_memstream(&k->buf, &k->len);
    return k->f ? 0 : HSIM_ENOMEM;
}

/* Ends k (not open: nothing to do); its text into *out (NULL when out is
   NULL or on failure; the caller frees it).  0 or HSIM_ENOMEM. */
static int capture_close(capture_t *k, char **out)
{
    if (!k->f)
        return 0;
    int bad = fclose(k->f) != 0;
    k->f = NULL;
    char *s = bad || !out ? NULL : hsim_strdup(k->buf ? k->buf : "");
    free(k->buf);
    if (out)
        *out = s;
    return out && !s ? HSIM_ENOMEM : 0;
}

/* The queue order's report (hsim_order_t's report()), as the run took
   it, to <policy>/<report_name>.  0 or HSIM_EIO. */
static int write_order_report(const hsim_policy_config_t *pc, const char *dir,
                              const hsim_run_stats_t *st, hsim_err_t *e)
{
    char path[HSIM_PATH_MAX * 2 + 64];
    snprintf(path, sizeof path, "%s/%s", dir, pc->order->report_name);
    hsim_report_t f;
    int rc = hsim_report_open(&f, path, NULL, e);
    if (rc == 0) {
        fwrite(st->order_report, 1, st->order_report_len, f.f);
        rc = hsim_report_close(&f, e);
    }
    return rc;
}

/* A replay's own files: <dir>/<policy>/jobs.csv, nodes.csv. */
static int write_policy_files(const experiment_t *x, const char *top, const replay_t *r,
                              hsim_err_t *e)
{
    char dir[HSIM_PATH_MAX * 2], path[HSIM_PATH_MAX * 2 + 16];
    snprintf(dir, sizeof dir, "%s/%s", top, r->pc->name);
    int rc = hsim_mkdirs(dir, e);
    if (rc == 0) {
        snprintf(path, sizeof path, "%s/jobs.csv", dir);
        rc = hsim_report_jobs_stops(path, &x->w, r->out, x->has_cluster ? r->st.held : NULL,
                                    r->st.ranges, r->st.starts, r->st.lost, r->st.ran, e);
    }
    if (rc == 0 && r->st.starts) { /* failures or preemption */
        snprintf(path, sizeof path, "%s/attempts.csv", dir);
        rc = hsim_report_attempts(path, &x->w, r->st.attempts, r->st.n_attempts,
                                  x->has_cluster ? (r->st.ranges ? r->st.ranges : "") : NULL,
                                  e);
    }
    if (rc == 0 && x->has_cluster) {
        snprintf(path, sizeof path, "%s/nodes.csv", dir);
        rc = write_nodes(x, path, &r->st, e);
    }
    if (rc == 0 && r->st.order_report) /* the queue order's log */
        rc = write_order_report(r->pc, dir, &r->st, e);
    return rc;
}

/* A replay's summary.csv row into f, its bars into x->fig. */
static void summary_row(FILE *f, experiment_t *x, replay_t *r, const hsim_summary_t *s)
{
    hsim_report_summary_row(f, r->pc->name, s, x->w.n_rejected);
    if (x->has_cluster) {
        hsim_cluster_metrics_t m;
        hsim_cluster_metrics_compute(&r->st, &x->cluster, s->makespan, &m);
        const double util[] = {m.load_imbalance, m.util_cores, m.util_mem, m.util_fpgas,
                               m.util_all_gpus};
        r->gpu_util = m.util_all_gpus;
        for (size_t k = 0; k < sizeof util / sizeof util[0]; k++)
            hsim_report_figure(f, 6, util[k]);
        for (size_t k = 0; k < x->cluster.n_models; k++)
            hsim_report_figure(f, 6, m.util_gpus[k]);
        x->fig[HSIM_FIG_IMBALANCE][x->n_done] = m.load_imbalance;
        x->fig[HSIM_FIG_GPU_UTIL_PCT][x->n_done] = 100 * m.util_all_gpus;
    }
    /* NaN when no job ran: n/a in the chart */
    x->fig[HSIM_FIG_WAIT_H][x->n_done] = s->wait.avg / 3600;
    x->fig[HSIM_FIG_BSLD][x->n_done] = s->bsld.avg;
    x->fig[HSIM_FIG_UTIL_PCT][x->n_done] = 100 * s->utilization;
    fprintf(f, ",%llu", (unsigned long long)r->st.expiries);
    if (x->failures) {
        int on = r->st.starts != NULL; /* else nothing fails */
        fprintf(f, ",%llu,%llu", (unsigned long long)r->st.failures,
                (unsigned long long)r->st.jobs_hit);
        hsim_report_figure(f, 3, on ? r->st.lost_core_s / 3600 : 0);
        hsim_report_figure(f, 6, on ? r->st.availability : 1);
    }
    fputc('\n', f);
}

/* Writes a replay's files and what it adds to the experiment's files, and
   keeps the latter in rec. */
static int write_replay(experiment_t *x, const char *top, replay_t *r, hsim_unit_record_t *rec,
                        hsim_err_t *e)
{
    const hsim_policy_config_t *pc = r->pc;
    int rc = r->rc;
    if (rc == HSIM_ENOMEM)
        return rc;
    if (rc)
        return hsim_errf(e, HSIM_ERUN, "%s: policy '%s' failed: %s", x->c->path, pc->name,
                         r->err.msg);
    if ((rc = write_policy_files(x, top, r, e)))
        return rc;
    if ((rc = hsim_metrics_compute_runs(&x->w, r->out, r->st.attempts, r->st.n_attempts,
                                        x->capacity, &rec->s)))
        return rc;
    capture_t k[3] = {{0}};
    for (size_t i = 0; i < 3 && rc == 0; i++)
        rc = capture_open(&k[i]);
    if (rc == 0) {
        summary_row(k[0].f, x, r, &rec->s);
        write_classes(k[1].f, x, pc->name, r->out);
        if (x->workflows.f)
            rc = hsim_workflows_write(k[2].f, pc->name, &x->w, r->out);
    }
    char **texts[3] = {&rec->summary, &rec->classes, &rec->workflows};
    for (size_t i = 0; i < 3; i++) {
        int rc2 = capture_close(&k[i], rc ? NULL : texts[i]);
        rc = rc ? rc : rc2;
    }
    if (rc)
        return rc;
    for (size_t f = 0; f < HSIM_FIGS; f++)
        rec->fig[f] = x->fig[f][x->n_done];
    rec->gpu_util = r->gpu_util;
    x->labels[x->n_done++] = pc->name;
    fputs(rec->summary, x->summary.f);
    fputs(rec->classes, x->classes.f);
    if (x->workflows.f)
        fputs(rec->workflows, x->workflows.f);
    return 0;
}

/* The failure traces, read once for every policy, and the node types
   that fail.  0, HSIM_EINPUT or HSIM_ENOMEM. */
static int load_failures(experiment_t *x, hsim_err_t *e)
{
    const hsim_config_t *c = x->c;
    for (size_t k = 0; k < c->n_policies; k++)
        x->failures |= c->policies[k].failures != 0;
    for (size_t i = 0; i < c->n_failures; i++) {
        const hsim_failures_config_t *fc = &c->failures[i];
        x->fail_type[i] = -1;
        for (size_t t = 0; fc->nodes[0] && t < x->cluster.n_types; t++)
            if (!strcmp(x->cluster.types[t].name, fc->nodes))
                x->fail_type[i] = (int32_t)t;
        if (!fc->trace[0])
            continue;
        int32_t nodes = x->cluster.n_nodes > INT32_MAX ? INT32_MAX : (int32_t)x->cluster.n_nodes;
        int rc = hsim_failures_read(fc->trace, nodes, &x->outages[i], &x->n_outages[i], e);
        if (rc == HSIM_EIO)
            return hsim_errf(e, HSIM_EINPUT, "%s:%d: [failures %s] cannot read its trace: %s",
                             c->path, fc->lines[HSIM_FAILURES_TRACE], fc->name, e->msg);
        if (rc)
            return rc;
    }
    return 0;
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
    if ((rc = hsim_experiment_dependencies(c, &x->w, e)))
        return rc;
    if ((rc = load_failures(x, e)))
        return rc;
    if ((rc = hsim_experiment_check_meaning(c, &x->w, stderr, e)))
        return rc;
    x->fig = hsim_calloc(HSIM_FIGS, sizeof *x->fig);
    return x->fig ? 0 : HSIM_ENOMEM;
}

void hsim_experiment_name(hsim_err_t *e, const char *ini)
{
    size_t n = strlen(ini);
    if (!e || (!strncmp(e->msg, ini, n) && e->msg[n] == ':'))
        return;
    hsim_err_t was = *e;
    hsim_errf(e, 0, "%s: %s", ini, was.msg);
}


/* One experiment under one seed, under way (experiment.h). */
struct hsim_unit {
    experiment_t x;
    replay_t *r;                  /* [n_policies] */
    hsim_unit_record_t *rec;      /* [n_policies]: those written */
    char *header;                 /* summary.csv's header line */
    int lock;                     /* the results folder's, -1 none */
    char dir[HSIM_PATH_MAX * 2];  /* the results folder */
    char spath[HSIM_PATH_MAX * 2 + 16], cpath[HSIM_PATH_MAX * 2 + 16];
    char wpath[HSIM_PATH_MAX * 2 + 16]; /* the reports keep them until closed */
};

/* The unit's folder, its lock and the files it writes from the start. */
static int unit_files(hsim_unit_t *u, hsim_err_t *e)
{
    const hsim_config_t *c = u->x.c;
    int rc = hsim_mkdirs(u->dir, e);
    if (rc == 0) { /* held from before the first file to after the last */
        const char *subdirs[HSIM_MAX_POLICIES];
        for (size_t k = 0; k < c->n_policies; k++)
            subdirs[k] = c->policies[k].name;
        rc = hsim_results_lock(u->dir, subdirs, c->n_policies, &u->lock, e);
        if (rc == HSIM_ERUN)
            hsim_experiment_name(e, c->path); /* which run found it taken */
    }
    char path[HSIM_PATH_MAX * 2 + 16];
    if (rc == 0) {
        snprintf(path, sizeof path, "%s/rejected.csv", u->dir);
        rc = hsim_report_rejected(path, &u->x.w, e);
    }
    if (rc == 0 && u->x.has_cluster) {
        snprintf(path, sizeof path, "%s/cluster.csv", u->dir);
        rc = write_cluster(&u->x, path, e);
    }
    if (rc == 0)
        rc = hsim_report_open(&u->x.summary, u->spath, NULL, e);
    if (rc == 0)
        rc = hsim_report_open(&u->x.classes, u->cpath, HSIM_CLASSES_HEADER, e);
    if (rc == 0 && u->x.w.deps && u->x.w.deps->n_workflows)
        rc = hsim_report_open(&u->x.workflows, u->wpath, HSIM_WORKFLOWS_HEADER, e);
    capture_t k = {0};
    if (rc == 0 && (rc = capture_open(&k)) == 0) {
        summary_header(k.f, &u->x);
        rc = capture_close(&k, &u->header);
    }
    if (rc == 0)
        fputs(u->header, u->x.summary.f);
    return rc;
}

int hsim_unit_open(hsim_unit_t **out, const hsim_config_t *c, const hsim_unit_options_t *o,
                   hsim_err_t *e)
{
    *out = NULL;
    hsim_unit_t *u = hsim_calloc(1, sizeof *u);
    if (!u)
        return HSIM_ENOMEM;
    u->lock = -1;
    u->x.c = c;
    u->x.title = o->title ? o->title : c->name;
    hsim_strlcpy(u->dir, o->dir, sizeof u->dir);
    snprintf(u->spath, sizeof u->spath, "%s/summary.csv", u->dir);
    snprintf(u->cpath, sizeof u->cpath, "%s/classes.csv", u->dir);
    snprintf(u->wpath, sizeof u->wpath, "%s/workflows.csv", u->dir);
    int rc = prepare(&u->x, e);
    if (rc == 0) {
        u->r = hsim_calloc(c->n_policies, sizeof *u->r);
        u->rec = hsim_calloc(c->n_policies, sizeof *u->rec);
        rc = u->r && u->rec ? 0 : HSIM_ENOMEM;
    }
    for (size_t k = 0; rc == 0 && k < c->n_policies; k++) {
        u->r[k].x = &u->x;
        u->r[k].pc = &c->policies[k];
        u->r[k].gpu_util = NAN;
    }
    if (rc) {
        hsim_unit_close(u, 0, NULL);
        if (rc == HSIM_EIO)
            hsim_experiment_name(e, c->path); /* a results file */
        return rc;
    }
    *out = u;
    return 0;
}

int hsim_unit_begin(hsim_unit_t *u, hsim_err_t *e)
{
    int rc = unit_files(u, e);
    if (rc == HSIM_EIO)
        hsim_experiment_name(e, u->x.c->path); /* a results file */
    return rc;
}

void hsim_unit_replay(hsim_unit_t *u, size_t k, const hsim_unit_progress_t *hook)
{
    replay_run(&u->r[k], hook);
}

size_t hsim_unit_jobs(const hsim_unit_t *u) { return u->x.w.n_jobs; }

int hsim_unit_write(hsim_unit_t *u, size_t k, hsim_err_t *e)
{
    int rc = write_replay(&u->x, u->dir, &u->r[k], &u->rec[k], e);
    replay_free(&u->r[k]);
    if (rc == HSIM_EIO)
        hsim_experiment_name(e, u->x.c->path); /* a results file */
    return rc;
}

const hsim_unit_record_t *hsim_unit_record(const hsim_unit_t *u, size_t k)
{
    return &u->rec[k];
}

const char *hsim_unit_header(const hsim_unit_t *u) { return u->header; }
int hsim_unit_cluster(const hsim_unit_t *u) { return u->x.has_cluster; }
int hsim_unit_gpus(const hsim_unit_t *u) { return table_gpus(&u->x); }
int hsim_unit_workflows(const hsim_unit_t *u) { return u->x.workflows.f != NULL; }

void hsim_unit_print_header(const hsim_unit_t *u, FILE *f, const char *dir, const char *note,
                            int columns)
{
    const experiment_t *x = &u->x;
    if (x->has_cluster)
        fprintf(f, "%s: %zu jobs (%zu rejected) on %zu nodes, %lld cores, %lld GPUs -> %s/%s\n",
                x->title, x->w.n_jobs, x->w.n_rejected, x->cluster.n_nodes,
                (long long)x->cluster.total_cores, (long long)x->cluster.total_gpus, dir, note);
    else
        fprintf(f, "%s: %zu jobs (%zu rejected) on %d processors -> %s/%s\n", x->title,
                x->w.n_jobs, x->w.n_rejected, x->capacity, dir, note);
    if (columns)
        hsim_report_table_header(f, name_width(x->c), table_gpus(x));
}

void hsim_unit_print_row(const hsim_unit_t *u, size_t k, FILE *f)
{
    hsim_report_table_row(f, name_width(u->x.c), u->x.c->policies[k].name, &u->rec[k].s,
                          table_gpus(&u->x), u->rec[k].gpu_util);
}

int hsim_unit_close(hsim_unit_t *u, int ok, hsim_err_t *e)
{
    experiment_t *x = &u->x;
    int rc = ok ? hsim_experiment_chart(u->dir, x->title, x->labels, x->n_done, x->fig,
                                        x->has_cluster, table_gpus(x), e)
                : 0;
    /* A failed run's summary and classes lack its later policies: an
       earlier run's whole files stay.  Else the first error is the one to
       report: a summary that filled the disk, not the classes that found
       it full after it. */
    if (!ok || rc) {
        hsim_report_discard(&x->summary);
        hsim_report_discard(&x->classes);
        hsim_report_discard(&x->workflows);
    } else {
        hsim_err_t later = {{0}};
        rc = hsim_report_close(&x->summary, e);
        int rc3 = hsim_report_close(&x->classes, rc ? &later : e);
        if (!rc)
            rc = rc3;
        rc3 = hsim_report_close(&x->workflows, rc ? &later : e);
        if (!rc)
            rc = rc3;
    }
    if (ok && rc == 0) /* the charts and report.html, from the files just written */
        rc = hsim_plot_experiment(x->c, u->dir, x->capacity, e);
    hsim_results_unlock(u->dir, u->lock);
    for (size_t k = 0; u->r && k < x->c->n_policies; k++)
        replay_free(&u->r[k]); /* those that ended after a failure */
    for (size_t k = 0; u->rec && k < x->c->n_policies; k++) {
        hsim_free(u->rec[k].summary);
        hsim_free(u->rec[k].classes);
        hsim_free(u->rec[k].workflows);
    }
    hsim_free(u->r);
    hsim_free(u->rec);
    hsim_free(u->header);
    hsim_free(x->fig);
    for (size_t i = 0; i < HSIM_MAX_FAILURE_MODELS; i++)
        hsim_free(x->outages[i]);
    if (x->has_cluster)
        hsim_cluster_free(&x->cluster);
    hsim_spec_free(&x->spec);
    hsim_workload_free(&x->w);
    if (rc == HSIM_EIO)
        hsim_experiment_name(e, x->c->path); /* a results file */
    hsim_free(u);
    return rc;
}
