/*
 * workflows.c - makespan and critical path of each workflow of a run.
 *
 * One pass over the jobs in topological order (deps.h's order[]) gives
 * each job's earliest possible end on unlimited speed-1 resources: the
 * latest of its own submission (unless an SWF predecessor alone sets it)
 * and of its parents' earliest ends plus think times, plus its run time.
 */
#include "workflows.h"

#include "report.h"
#include "../workloads/deps.h"

int hsim_workflows_compute(const hsim_workload_t *w, const hsim_outcome_t *out,
                           hsim_workflow_stats_t *stats)
{
    const hsim_deps_t *d = w->deps;
    size_t n = w->n_jobs;
    hsim_time_t *ready = hsim_malloc((n ? n : 1) * sizeof *ready);
    if (!ready)
        return HSIM_ENOMEM;
    for (size_t k = 0; k < d->n_workflows; k++)
        stats[k] = (hsim_workflow_stats_t){.first_job = -1, .submit = HSIM_TIME_MAX,
                                           .end = 0, .critical = 0};
    for (size_t i = 0; i < n; i++)
        ready[i] = d->feedback[i] ? 0 : w->jobs[i].submit;
    for (size_t k = 0; k < n; k++) {
        int32_t v = d->order[k];
        hsim_time_t done = ready[v] + hsim_job_reference_run(&w->jobs[v]);
        for (size_t x = d->child_first[v]; x < d->child_first[v + 1]; x++)
            if (done + d->think[x] > ready[d->child[x]])
                ready[d->child[x]] = done + d->think[x];
        ready[v] = done; /* from here on: its earliest end */
    }
    for (size_t i = 0; i < n; i++) {
        int32_t f = d->workflow[i];
        if (f < 0)
            continue;
        hsim_workflow_stats_t *s = &stats[f];
        const hsim_outcome_t *o = &out[i];
        if (s->first_job < 0)
            s->first_job = w->jobs[i].id;
        s->jobs++;
        hsim_time_t submit = hsim_outcome_submit(&w->jobs[i], o);
        if (submit < s->submit)
            s->submit = submit;
        if (o->end > s->end)
            s->end = o->end;
        if (ready[i] > s->critical) /* an end for now: less submit below */
            s->critical = ready[i];
    }
    for (size_t k = 0; k < d->n_workflows; k++)
        stats[k].critical -= stats[k].submit;
    hsim_free(ready);
    return 0;
}

int hsim_workflows_write(FILE *f, const char *policy, const hsim_workload_t *w,
                         const hsim_outcome_t *out)
{
    size_t m = w->deps->n_workflows;
    hsim_workflow_stats_t *s = hsim_malloc((m ? m : 1) * sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    int rc = hsim_workflows_compute(w, out, s);
    for (size_t k = 0; rc == 0 && k < m; k++) {
        char a[32], b[32], c[32], t[32];
        hsim_time_t makespan = s[k].end - s[k].submit;
        fprintf(f, "%s,%zu,%lld,%zu,%s,%s,%s,%s", policy, k + 1, (long long)s[k].first_job,
                s[k].jobs, hsim_format_time(a, sizeof a, s[k].submit),
                hsim_format_time(b, sizeof b, s[k].end), hsim_format_time(c, sizeof c, makespan),
                hsim_format_time(t, sizeof t, s[k].critical));
        hsim_report_figure(f, 4, s[k].critical > 0 ? (double)makespan / (double)s[k].critical
                                                   : 1.0);
        fputc('\n', f);
    }
    hsim_free(s);
    return rc;
}
