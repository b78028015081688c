/*
 * experiment.c - load once, replay under each policy, write the results.
 */
#include "experiment.h"

#include "report.h"
#include "failures.h"
#include "spec.h"
#include "workflows.h"
#include "../plots/chart.h"
#include "../workloads/swf.h"

#include <math.h>
#include <pthread.h>
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
    double (*fig)[HSIM_MAX_POLICIES]; /* [FIG_*][policy]: the chart's figures */
    size_t n_done;                /* policies run so far */
} experiment_t;

/* The chart's figures, one row of x->fig each. */
enum { FIG_WAIT_H, FIG_BSLD, FIG_UTIL_PCT, FIG_IMBALANCE, FIG_GPU_UTIL_PCT, FIGS };

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

/* summary.png: the policies side by side. */
static int write_chart(const experiment_t *x, const char *dir, size_t n, hsim_err_t *e)
{
    const hsim_config_t *c = x->c;
    const char *labels[HSIM_MAX_POLICIES];
    for (size_t i = 0; i < n; i++)
        labels[i] = c->policies[i].name;
    /* utilization is the processors' (the cores'); a GPU cluster's GPUs
       get a panel of their own, as its cores may sit nearly idle */
    hsim_chart_panel_t panels[5] = {
        {"average wait (h)", x->fig[FIG_WAIT_H]},
        {"average bounded slowdown", x->fig[FIG_BSLD]},
        {x->has_cluster ? "core utilization (%)" : "utilization (%)", x->fig[FIG_UTIL_PCT]},
    };
    size_t n_panels = 3;
    if (table_gpus(x))
        panels[n_panels++] = (hsim_chart_panel_t){"GPU utilization (%)",
                                                  x->fig[FIG_GPU_UTIL_PCT]};
    if (x->has_cluster)
        panels[n_panels++] = (hsim_chart_panel_t){"load imbalance (CV)",
                                                  x->fig[FIG_IMBALANCE]};
    char path[HSIM_PATH_MAX * 2 + 16];
    snprintf(path, sizeof path, "%s/summary.png", dir);
    return hsim_chart_bars(path, c->name, labels, n, panels, n_panels, e);
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

/* classes.csv rows: average job completion time per job class. */
static void write_classes(const experiment_t *x, const char *policy, const hsim_outcome_t *out)
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
        fprintf(x->classes.f, "%s,", policy);
        hsim_report_csv_field(x->classes.f, w->classes[k]);
        fprintf(x->classes.f, ",%zu", n); /* none ran: no average (NaN) */
        hsim_report_figure(x->classes.f, 3, n ? jct / (double)n : NAN);
        hsim_report_figure(x->classes.f, 3, n ? wait / (double)n : NAN);
        fputc('\n', x->classes.f);
    }
}

static void summary_header(const experiment_t *x)
{
    hsim_report_summary_header(x->summary.f);
    if (x->has_cluster) {
        fputs(",load_imbalance,util_cores,util_memory,util_fpgas,util_gpus", x->summary.f);
        for (size_t k = 0; k < x->cluster.n_models; k++) {
            /* a model's name is free text (gpu_model, a node list's
               column): quoted when it holds a comma, as in cluster.csv */
            char col[HSIM_TYPE_NAME_MAX + 16];
            snprintf(col, sizeof col, "util_gpus_%s", x->cluster.models[k]);
            fputc(',', x->summary.f);
            hsim_report_csv_field(x->summary.f, col);
        }
    }
    fputs(",expiries", x->summary.f); /* last: the cluster columns vary */
    if (x->failures) /* extensions come after it */
        fputs(",failures,jobs_hit,work_lost_core_h,availability", x->summary.f);
    fputc('\n', x->summary.f);
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

static void replay_run(replay_t *r)
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
        .values = &pc->values,
        .seed = x->c->seed,
    };
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
    hsim_free(r->st.node_busy);
    hsim_free(r->st.node_jobs);
    hsim_free(r->st.ranges);
    hsim_free(r->st.held);
    hsim_free(r->st.starts);
    hsim_free(r->st.lost);
    hsim_free(r->st.order_report);
    r->st.order_report = NULL;
    r->st.starts = NULL;
    r->st.lost = NULL;
    r->out = NULL;
    r->st.node_busy = NULL;
    r->st.node_jobs = NULL;
    r->st.ranges = NULL;
    r->st.held = NULL;
}

/* Threads that take replays in file order, each the next one not yet
   taken, so a long replay does not hold up the short ones after it. */
typedef struct pool {
    replay_t *r;                  /* [n] */
    size_t n;
    size_t next;                  /* the next replay to take; n = none */
    pthread_mutex_t lock;
    pthread_cond_t ended;         /* a replay finished */
    pthread_t threads[HSIM_MAX_THREADS];
    size_t n_threads;             /* started */
} pool_t;

static void *pool_work(void *arg)
{
    pool_t *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t k = p->next < p->n ? p->next++ : p->n;
        pthread_mutex_unlock(&p->lock);
        if (k == p->n)
            return NULL;
        replay_run(&p->r[k]);
        pthread_mutex_lock(&p->lock);
        p->r[k].finished = 1;
        pthread_cond_broadcast(&p->ended);
        pthread_mutex_unlock(&p->lock);
    }
}

/* Starts up to width threads on r[0..n).  0, or -1 when none could start
   (the caller then replays on its own thread). */
static int pool_start(pool_t *p, replay_t *r, size_t n, size_t width)
{
    memset(p, 0, sizeof *p);
    p->r = r;
    p->n = n;
    if (pthread_mutex_init(&p->lock, NULL))
        return -1;
    if (pthread_cond_init(&p->ended, NULL)) {
        pthread_mutex_destroy(&p->lock);
        return -1;
    }
    for (size_t k = 0; k < width; k++)
        if (pthread_create(&p->threads[p->n_threads], NULL, pool_work, p) == 0)
            p->n_threads++;
    if (p->n_threads)
        return 0;
    pthread_cond_destroy(&p->ended);
    pthread_mutex_destroy(&p->lock);
    return -1;
}

/* Waits until replay k has finished. */
static void pool_wait(pool_t *p, size_t k)
{
    pthread_mutex_lock(&p->lock);
    while (!p->r[k].finished)
        pthread_cond_wait(&p->ended, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

/* Lets the replays under way end, starts no more, and joins the threads. */
static void pool_stop(pool_t *p)
{
    pthread_mutex_lock(&p->lock);
    p->next = p->n;
    pthread_mutex_unlock(&p->lock);
    for (size_t k = 0; k < p->n_threads; k++)
        pthread_join(p->threads[k], NULL);
    pthread_cond_destroy(&p->ended);
    pthread_mutex_destroy(&p->lock);
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

/* Writes a replay's files and its summary rows. */
static int write_replay(experiment_t *x, replay_t *r, hsim_summary_t *s, hsim_err_t *e)
{
    const hsim_config_t *c = x->c;
    const hsim_policy_config_t *pc = r->pc;
    int rc = r->rc;
    if (rc == HSIM_ENOMEM)
        return rc;
    if (rc) {
        return hsim_errf(e, HSIM_ERUN, "%s: policy '%s' failed: %s", c->path, pc->name,
                         r->err.msg);
    }
    char dir[HSIM_PATH_MAX * 2], path[HSIM_PATH_MAX * 2 + 16];
    snprintf(dir, sizeof dir, "%s/%s/%s", c->output, c->name, pc->name);
    if ((rc = hsim_mkdirs(dir, e)) == 0) {
        snprintf(path, sizeof path, "%s/jobs.csv", dir);
        rc = hsim_report_jobs_failures(path, &x->w, r->out, x->has_cluster ? r->st.held : NULL,
                                       r->st.ranges, r->st.starts, r->st.lost, e);
    }
    if (rc == 0 && x->has_cluster) {
        snprintf(path, sizeof path, "%s/nodes.csv", dir);
        rc = write_nodes(x, path, &r->st, e);
    }
    if (rc == 0 && r->st.order_report) /* the queue order's log */
        rc = write_order_report(pc, dir, &r->st, e);
    if (rc == 0)
        rc = hsim_metrics_compute(&x->w, r->out, x->capacity, s);
    if (rc == 0) {
        hsim_report_summary_row(x->summary.f, pc->name, s, x->w.n_rejected);
        if (x->has_cluster) {
            hsim_cluster_metrics_t m;
            hsim_cluster_metrics_compute(&r->st, &x->cluster, s->makespan, &m);
            const double util[] = {m.load_imbalance, m.util_cores, m.util_mem, m.util_fpgas,
                                   m.util_all_gpus};
            r->gpu_util = m.util_all_gpus;
            for (size_t k = 0; k < sizeof util / sizeof util[0]; k++)
                hsim_report_figure(x->summary.f, 6, util[k]);
            for (size_t k = 0; k < x->cluster.n_models; k++)
                hsim_report_figure(x->summary.f, 6, m.util_gpus[k]);
            x->fig[FIG_IMBALANCE][x->n_done] = m.load_imbalance;
            x->fig[FIG_GPU_UTIL_PCT][x->n_done] = 100 * m.util_all_gpus;
        }
        /* NaN when no job ran: n/a in the chart */
        x->fig[FIG_WAIT_H][x->n_done] = s->wait.avg / 3600;
        x->fig[FIG_BSLD][x->n_done] = s->bsld.avg;
        x->fig[FIG_UTIL_PCT][x->n_done] = 100 * s->utilization;
        x->n_done++;
        fprintf(x->summary.f, ",%llu", (unsigned long long)r->st.expiries);
        if (x->failures) {
            int on = r->st.starts != NULL; /* else nothing fails */
            fprintf(x->summary.f, ",%llu,%llu", (unsigned long long)r->st.failures,
                    (unsigned long long)r->st.jobs_hit);
            hsim_report_figure(x->summary.f, 3, on ? r->st.lost_core_s / 3600 : 0);
            hsim_report_figure(x->summary.f, 6, on ? r->st.availability : 1);
        }
        fputc('\n', x->summary.f);
        write_classes(x, pc->name, r->out);
        if (x->workflows.f)
            rc = hsim_workflows_write(x->workflows.f, pc->name, &x->w, r->out);
    }
    return rc;
}

/* Replays every policy, on o->threads threads when more than one, and
   writes the results in file order as they come, so the files are the
   same whatever the number of threads. */
static int run_policies(experiment_t *x, const hsim_experiment_options_t *o, hsim_err_t *e)
{
    const hsim_config_t *c = x->c;
    size_t n = c->n_policies;
    replay_t *r = hsim_calloc(n, sizeof *r);
    if (!r)
        return HSIM_ENOMEM;
    for (size_t k = 0; k < n; k++) {
        r[k].x = x;
        r[k].pc = &c->policies[k];
        r[k].gpu_util = NAN;
    }
    size_t width = o->threads > 1 ? (size_t)o->threads : 1;
    pool_t pool;
    int threaded = width > 1 && n > 1 && pool_start(&pool, r, n, width < n ? width : n) == 0;
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        if (threaded)
            pool_wait(&pool, k);
        else
            replay_run(&r[k]);
        hsim_summary_t s;
        if ((rc = write_replay(x, &r[k], &s, e)) == 0 && !o->quiet) {
            hsim_report_table_row(stdout, name_width(c), r[k].pc->name, &s, table_gpus(x),
                                  r[k].gpu_util);
            hsim_report_table_flush(stdout);
        }
        replay_free(&r[k]);
    }
    if (threaded)
        pool_stop(&pool);
    for (size_t k = 0; k < n; k++)
        replay_free(&r[k]); /* those that ended after a failure */
    hsim_free(r);
    return rc;
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
    x->fig = hsim_calloc(FIGS, sizeof *x->fig);
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
    char wpath[HSIM_PATH_MAX * 2 + 16]; /* the report keeps it until closed */
    snprintf(wpath, sizeof wpath, "%s/workflows.csv", dir);
    int rc = prepare(&x, e);
    if (rc == 0)
        rc = hsim_mkdirs(dir, e);
    int lock = -1; /* held from before the first file to after the last */
    if (rc == 0) {
        const char *subdirs[HSIM_MAX_POLICIES];
        for (size_t k = 0; k < c->n_policies; k++)
            subdirs[k] = c->policies[k].name;
        rc = hsim_results_lock(dir, subdirs, c->n_policies, &lock, e);
        if (rc == HSIM_ERUN)
            hsim_experiment_name(e, c->path); /* which run found it taken */
    }
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
        rc = hsim_report_open(&x.summary, spath, NULL, e);
    if (rc == 0)
        rc = hsim_report_open(&x.classes, cpath, "policy,class,jobs,avg_jct,avg_wait\n", e);
    if (rc == 0 && x.w.deps && x.w.deps->n_workflows)
        rc = hsim_report_open(&x.workflows, wpath, HSIM_WORKFLOWS_HEADER, e);
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
            hsim_report_table_header(stdout, name_width(c), table_gpus(&x));
        }
    }
    if (rc == 0)
        rc = run_policies(&x, o, e);
    if (rc == 0)
        rc = write_chart(&x, dir, x.n_done, e);
    /* A failed run's summary and classes lack its later policies: an
       earlier run's whole files stay.  Else the first error is the one to
       report: a summary that filled the disk, not the classes that found
       it full after it. */
    if (rc) {
        hsim_report_discard(&x.summary);
        hsim_report_discard(&x.classes);
        hsim_report_discard(&x.workflows);
    } else {
        hsim_err_t later = {{0}};
        rc = hsim_report_close(&x.summary, e);
        int rc3 = hsim_report_close(&x.classes, rc ? &later : e);
        if (!rc)
            rc = rc3;
        rc3 = hsim_report_close(&x.workflows, rc ? &later : e);
        if (!rc)
            rc = rc3;
    }
    hsim_results_unlock(dir, lock);
    hsim_free(x.fig);
    for (size_t i = 0; i < HSIM_MAX_FAILURE_MODELS; i++)
        hsim_free(x.outages[i]);
    if (x.has_cluster)
        hsim_cluster_free(&x.cluster);
    hsim_spec_free(&x.spec);
    hsim_workload_free(&x.w);
    if (rc == HSIM_EIO)
        hsim_experiment_name(e, c->path); /* a results file */
    return rc;
}
