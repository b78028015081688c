/*
 * metrics.c - summary figures of a run, with GSL's means and quantiles.
 * The values are sorted with qsort() (a merge sort in glibc): GSL's
 * gsl_sort() is a heapsort, which took 16% of a whole RICC-2010 replay
 * without backfilling.
 */
#include "metrics.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double hsim_bsld(hsim_time_t submit, hsim_time_t start, hsim_time_t end)
{
    double tat = (double)(end - submit) / HSIM_SECOND;
    double run = (double)(end - start) / HSIM_SECOND;
    double b = tat / (run > HSIM_BSLD_TAU_S ? run : HSIM_BSLD_TAU_S);
    return b > 1.0 ? b : 1.0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void describe(double *x, size_t n, hsim_dist_t *d)
{
    memset(d, 0, sizeof *d);
    if (!n)
        return;
    qsort(x, n, sizeof *x, by_value);
    d->avg = gsl_stats_mean(x, 1, n);
    d->median = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.5);
    d->p95 = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.95);
    d->max = x[n - 1];
}

static int by_user(const void *a, const void *b)
{
    const double *x = a, *y = b; /* (user, bsld) pairs */
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return 0;
}

/* Jain's index over the per-user averages of pairs (user, value). */
static double jain(double *pairs, size_t n)
{
    if (!n)
        return 1.0;
    qsort(pairs, n, 2 * sizeof *pairs, by_user);
    double sum = 0, sum2 = 0;
    size_t users = 0;
    for (size_t i = 0; i < n;) {
        size_t k = i;
        double acc = 0;
        while (k < n && pairs[2 * k] == pairs[2 * i])
            acc += pairs[2 * k++ + 1];
        double avg = acc / (double)(k - i);
        sum += avg;
        sum2 += avg * avg;
        users++;
        i = k;
    }
    return sum2 > 0 ? sum * sum / ((double)users * sum2) : 1.0;
}

int hsim_metrics_compute(const hsim_workload_t *w, const hsim_outcome_t *out,
                         int32_t capacity, hsim_summary_t *s)
{
    memset(s, 0, sizeof *s);
    size_t n = w->n_jobs;
    double *wait = hsim_malloc(n * sizeof *wait);
    double *tat = hsim_malloc(n * sizeof *tat);
    double *bsld = hsim_malloc(n * sizeof *bsld);
    double *pairs = hsim_malloc(2 * n * sizeof *pairs);
    if (!wait || !tat || !bsld || !pairs) {
        hsim_free(wait);
        hsim_free(tat);
        hsim_free(bsld);
        hsim_free(pairs);
        return HSIM_ENOMEM;
    }
    hsim_time_t first = HSIM_TIME_MAX, last = 0;
    double area = 0; /* processor-seconds */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const hsim_job_t *j = &w->jobs[i];
        const hsim_outcome_t *o = &out[i];
        if (o->start < 0)
            continue;
        if (j->submit < first)
            first = j->submit;
        if (o->end > last)
            last = o->end;
        wait[k] = (double)(o->start - j->submit) / HSIM_SECOND;
        tat[k] = (double)(o->end - j->submit) / HSIM_SECOND;
        bsld[k] = hsim_bsld(j->submit, o->start, o->end);
        pairs[2 * k] = j->user;
        pairs[2 * k + 1] = bsld[k];
        area += (double)(o->end - o->start) / HSIM_SECOND * j->procs;
        s->killed += o->fate == HSIM_FATE_KILLED;
        k++;
    }
    s->jobs = k;
    s->fairness = jain(pairs, k);
    describe(wait, k, &s->wait);
    describe(tat, k, &s->turnaround);
    describe(bsld, k, &s->bsld);
    if (k && last > first) {
        s->makespan = (double)(last - first) / HSIM_SECOND;
        s->utilization = area / ((double)capacity * s->makespan);
        s->throughput = (double)k / s->makespan * 3600.0;
    }
    hsim_free(wait);
    hsim_free(tat);
    hsim_free(bsld);
    hsim_free(pairs);
    return 0;
}

void hsim_cluster_metrics_compute(const hsim_run_stats_t *st, const hsim_cluster_t *c,
                                  double makespan, hsim_cluster_metrics_t *m)
{
    memset(m, 0, sizeof *m);
    if (makespan <= 0)
        return;
    if (c->total_cores)
        m->util_cores = st->core_s / ((double)c->total_cores * makespan);
    if (c->total_mem)
        m->util_mem = st->mem_s / ((double)c->total_mem * makespan);
    if (c->total_fpgas)
        m->util_fpgas = st->fpga_s / ((double)c->total_fpgas * makespan);
    for (size_t k = 0; k < c->n_models; k++) {
        int64_t gpus = 0;
        for (size_t t = 0; t < c->n_types; t++)
            if (c->type_model[t] == (int32_t)k)
                gpus += (int64_t)c->types[t].count * c->types[t].gpus;
        if (gpus)
            m->util_gpus[k] = st->gpu_s[k] / ((double)gpus * makespan);
    }
    size_t n = st->n_nodes;
    if (n) {
        double *busy = hsim_malloc(n * sizeof *busy);
        if (!busy)
            return; /* the figure stays 0; it is reported, not relied on */
        for (size_t i = 0; i < n; i++)
            busy[i] = (double)st->node_busy[i] / HSIM_SECOND;
        double mean = gsl_stats_mean(busy, 1, n);
        double var = gsl_stats_variance_with_fixed_mean(busy, 1, n, mean);
        m->load_imbalance = mean > 0 ? sqrt(var) / mean : 0;
        hsim_free(busy);
    }
}
