/*
 * experiment.c - load once, replay under each policy, write the results.
 */
#include "experiment.h"

#include "report.h"
#include "../workloads/swf.h"

#include <string.h>

int hsim_experiment_load(const hsim_config_t *c, hsim_workload_t *w,
                         int32_t *capacity, hsim_err_t *e)
{
    hsim_swf_trace_t t;
    int rc = hsim_swf_read(c->trace, c->max_jobs, &t, e);
    if (rc) {
        if (rc == HSIM_EIO && strstr(e->msg, "cannot open"))
            hsim_errf(e, HSIM_EINPUT, "%s:%d: cannot open trace '%s'", c->path,
                      c->trace_line, c->trace);
        return rc == HSIM_EIO ? HSIM_EINPUT : rc;
    }
    *capacity = c->processors;
    if (*capacity <= 0) {
        if (t.header.max_procs > 0 && t.header.max_procs <= INT32_MAX)
            *capacity = (int32_t)t.header.max_procs;
        else if (t.header.max_nodes > 0 && t.header.max_nodes <= INT32_MAX)
            *capacity = (int32_t)t.header.max_nodes;
        else {
            hsim_swf_trace_free(&t);
            return hsim_errf(e, HSIM_EINPUT,
                             "%s: %s has no MaxProcs or MaxNodes header: set "
                             "[cluster] processors", c->path, c->trace);
        }
    }
    hsim_workload_init(w);
    rc = hsim_swf_clean(&t, c->clean, *capacity, w);
    hsim_swf_trace_free(&t);
    return rc;
}

static int run_policy(const hsim_config_t *c, const hsim_policy_config_t *pc,
                      const hsim_workload_t *w, int32_t capacity, hsim_outcome_t *out,
                      hsim_summary_t *s, hsim_err_t *e)
{
    hsim_run_config_t rc_cfg = {
        .capacity = capacity,
        .order = pc->order,
        .backfill_order = pc->backfill_order,
        .scheduler = pc->scheduler,
        .predictor = pc->predictor,
    };
    hsim_err_t run_err = {{0}};
    int rc = hsim_engine_run(w, &rc_cfg, out, NULL, &run_err);
    if (rc == HSIM_ENOMEM)
        return rc;
    if (rc) {
        hsim_errf(e, 1, "%s: policy '%s' failed: %s", c->path, pc->name, run_err.msg);
        return 1;
    }
    char dir[HSIM_PATH_MAX * 2], path[HSIM_PATH_MAX * 2 + 16];
    snprintf(dir, sizeof dir, "%s/%s/%s", c->output, c->name, pc->name);
    if ((rc = hsim_mkdirs(dir, e)))
        return rc;
    snprintf(path, sizeof path, "%s/jobs.csv", dir);
    if ((rc = hsim_report_jobs(path, w, out, e)))
        return rc;
    return hsim_metrics_compute(w, out, capacity, s);
}

int hsim_experiment_run(const hsim_config_t *c, const hsim_experiment_options_t *o,
                        hsim_err_t *e)
{
    hsim_workload_t w;
    int32_t capacity;
    int rc = hsim_experiment_load(c, &w, &capacity, e);
    if (rc)
        return rc;
    char dir[HSIM_PATH_MAX * 2], path[HSIM_PATH_MAX * 2 + 16];
    snprintf(dir, sizeof dir, "%s/%s", c->output, c->name);
    hsim_outcome_t *out = hsim_calloc(w.n_jobs, sizeof *out);
    FILE *summary = NULL;
    if (!out) {
        rc = HSIM_ENOMEM;
        goto done;
    }
    if ((rc = hsim_mkdirs(dir, e)))
        goto done;
    snprintf(path, sizeof path, "%s/rejected.csv", dir);
    if ((rc = hsim_report_rejected(path, &w, e)))
        goto done;
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    summary = fopen(path, "w");
    if (!summary) {
        rc = hsim_errf(e, HSIM_EIO, "%s: cannot write", path);
        goto done;
    }
    hsim_report_summary_header(summary);
    if (!o->quiet) {
        printf("%s: %zu jobs (%zu rejected) on %d processors -> %s/\n", c->name,
               w.n_jobs, w.n_rejected, capacity, dir);
        hsim_report_table_header(stdout);
    }
    for (size_t i = 0; i < c->n_policies; i++) {
        const hsim_policy_config_t *pc = &c->policies[i];
        hsim_summary_t s;
        if ((rc = run_policy(c, pc, &w, capacity, out, &s, e)))
            goto done;
        hsim_report_summary_row(summary, pc->name, &s, w.n_rejected);
        if (!o->quiet) {
            hsim_report_table_row(stdout, pc->name, &s);
            fflush(stdout);
        }
    }
done:
    if (summary && fclose(summary) && !rc)
        rc = hsim_errf(e, HSIM_EIO, "%s: write failed", path);
    hsim_free(out);
    hsim_workload_free(&w);
    return rc;
}
