/*
 * metrics.c - summary figures of a run, with GSL's means and quantiles.
 * The values are sorted by a radix sort on their bits: glibc's qsort()
 * (a merge sort) and GSL's gsl_sort() (a heapsort) took a large share of a
 * light replay (docs/performance.md).
 */
#include "metrics.h"

#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_statistics_long.h>
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

#define RADIX_BITS 11
#define RADIX_PASSES ((64 + RADIX_BITS - 1) / RADIX_BITS)
#define RADIX_BUCKETS (1u << RADIX_BITS)

int hsim_radix_sort(uint64_t *key, double *val, size_t n, uint64_t *tk, double *tv)
{
    size_t(*count)[RADIX_BUCKETS] = hsim_calloc(RADIX_PASSES, sizeof *count);
    if (!count)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < n; i++)
        for (unsigned d = 0; d < RADIX_PASSES; d++)
            count[d][(key[i] >> (d * RADIX_BITS)) & (RADIX_BUCKETS - 1)]++;
    uint64_t *from = key, *to = tk;
    double *vfrom = val, *vto = tv;
    for (unsigned d = 0; d < RADIX_PASSES; d++) {
        size_t *c = count[d];
        if (n && c[(from[0] >> (d * RADIX_BITS)) & (RADIX_BUCKETS - 1)] == n)
            continue; /* one digit for all: the order stays */
        size_t at = 0;
        for (unsigned b = 0; b < RADIX_BUCKETS; b++) {
            size_t m = c[b];
            c[b] = at;
            at += m;
        }
        for (size_t i = 0; i < n; i++) {
            size_t j = c[(from[i] >> (d * RADIX_BITS)) & (RADIX_BUCKETS - 1)]++;
            to[j] = from[i];
            if (val)
                vto[j] = vfrom[i];
        }
        uint64_t *t = from;
        from = to;
        to = t;
        double *v = vfrom;
        vfrom = vto;
        vto = v;
    }
    if (from != key) {
        memcpy(key, from, n * sizeof *key);
        if (val)
            memcpy(val, vfrom, n * sizeof *val);
    }
    hsim_free(count);
    return 0;
}

/* The bits of x as a key whose order is that of the values (not NaN; -0
   comes before +0, which the figures never hold: they are quotients of
   integers and maxima with 1). */
static uint64_t order_key(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u >> 63 ? ~u : u | (1ull << 63);
}

static double from_key(uint64_t k)
{
    uint64_t u = k >> 63 ? k & ~(1ull << 63) : ~k;
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Sorts x[0..n) and describes it; key and tk: room for n keys each. */
static int describe(double *x, size_t n, uint64_t *key, uint64_t *tk, hsim_dist_t *d)
{
    memset(d, 0, sizeof *d);
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        key[i] = order_key(x[i]);
    int rc = hsim_radix_sort(key, NULL, n, tk, NULL);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++)
        x[i] = from_key(key[i]);
    d->avg = gsl_stats_mean(x, 1, n);
    d->median = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.5);
    d->p95 = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.95);
    d->max = x[n - 1];
    return 0;
}

/* Jain's index over the per-user averages of val, with user[i] the key
   of val[i]'s user; both are reordered.  0 or HSIM_ENOMEM. */
static int jain(uint64_t *user, double *val, size_t n, uint64_t *tk, double *tv, double *index)
{
    *index = 1.0;
    if (!n)
        return 0;
    int rc = hsim_radix_sort(user, val, n, tk, tv); /* by user; stable */
    if (rc)
        return rc;
    double sum = 0, sum2 = 0;
    size_t users = 0;
    for (size_t i = 0; i < n;) {
        size_t k = i;
        double acc = 0;
        while (k < n && user[k] == user[i])
            acc += val[k++];
        double avg = acc / (double)(k - i);
        sum += avg;
        sum2 += avg * avg;
        users++;
        i = k;
    }
    if (sum2 > 0)
        *index = sum * sum / ((double)users * sum2);
    return 0;
}

int hsim_metrics_compute(const hsim_workload_t *w, const hsim_outcome_t *out,
                         int32_t capacity, hsim_summary_t *s)
{
    return hsim_metrics_compute_runs(w, out, NULL, 0, capacity, s);
}

int hsim_metrics_compute_runs(const hsim_workload_t *w, const hsim_outcome_t *out,
                              const hsim_attempt_t *attempts, size_t n_attempts,
                              int32_t capacity, hsim_summary_t *s)
{
    memset(s, 0, sizeof *s);
    size_t n = w->n_jobs;
    double *wait = hsim_malloc(n * sizeof *wait);
    double *tat = hsim_malloc(n * sizeof *tat);
    double *bsld = hsim_malloc(n * sizeof *bsld);
    uint64_t *key = hsim_malloc(n * sizeof *key); /* users', then values' */
    uint64_t *tk = hsim_malloc(n * sizeof *tk);
    double *tv = hsim_malloc(n * sizeof *tv);
    int rc = wait && tat && bsld && key && tk && tv ? 0 : HSIM_ENOMEM;
    hsim_time_t first = HSIM_TIME_MAX, last = 0;
    double area = 0; /* processor-seconds */
    size_t k = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const hsim_job_t *j = &w->jobs[i];
        const hsim_outcome_t *o = &out[i];
        if (o->start < 0)
            continue;
        hsim_time_t submit = hsim_outcome_submit(j, o);
        if (submit < first)
            first = submit;
        if (o->end > last)
            last = o->end;
        wait[k] = (double)(o->start - submit) / HSIM_SECOND;
        tat[k] = (double)(o->end - submit) / HSIM_SECOND;
        bsld[k] = hsim_bsld(submit, o->start, o->end);
        key[k] = (uint32_t)j->user ^ 0x80000000u; /* in the order of the ids */
        area += (double)(o->end - o->start) / HSIM_SECOND * j->procs;
        s->killed += o->fate == HSIM_FATE_KILLED;
        k++;
    }
    s->jobs = k;
    for (size_t i = 0; i < n_attempts; i++) /* the runs stops cut short */
        area += (double)(attempts[i].end - attempts[i].start) / HSIM_SECOND *
                w->jobs[attempts[i].job].procs;
    /* Jain's index reorders bsld by user, which its sort below undoes:
       the keys are the values' bits, so any order sorts to the same */
    if (rc == 0)
        rc = jain(key, bsld, k, tk, tv, &s->fairness);
    if (rc == 0)
        rc = describe(wait, k, key, tk, &s->wait);
    if (rc == 0)
        rc = describe(tat, k, key, tk, &s->turnaround);
    if (rc == 0)
        rc = describe(bsld, k, key, tk, &s->bsld);
    if (rc == 0 && k && last > first) {
        s->makespan = (double)(last - first) / HSIM_SECOND;
        s->utilization = area / ((double)capacity * s->makespan);
        s->throughput = (double)k / s->makespan * 3600.0;
    } else if (k) { /* a makespan of 0: no rate over it is defined */
        s->utilization = s->throughput = NAN;
    }
    if (k == 0) { /* no job ran: no figure is defined */
        const hsim_dist_t none = {NAN, NAN, NAN, NAN};
        s->wait = s->turnaround = s->bsld = none;
        s->utilization = s->makespan = s->throughput = s->fairness = NAN;
    }
    hsim_free(wait);
    hsim_free(tat);
    hsim_free(bsld);
    hsim_free(key);
    hsim_free(tk);
    hsim_free(tv);
    return rc;
}

void hsim_cluster_metrics_compute(const hsim_run_stats_t *st, const hsim_cluster_t *c,
                                  double makespan, hsim_cluster_metrics_t *m)
{
    memset(m, 0, sizeof *m);
    if (!(makespan > 0)) { /* no job ran (makespan NaN): none is defined */
        m->util_cores = m->util_mem = m->util_fpgas = m->util_all_gpus = NAN;
        m->load_imbalance = NAN;
        for (size_t k = 0; k < sizeof m->util_gpus / sizeof m->util_gpus[0]; k++)
            m->util_gpus[k] = NAN;
        return;
    }
    if (c->total_cores)
        m->util_cores = st->core_s / ((double)c->total_cores * makespan);
    if (c->total_mem > 0)
        m->util_mem = st->mem_s / (c->total_mem * makespan);
    if (c->total_fpgas)
        m->util_fpgas = st->fpga_s / ((double)c->total_fpgas * makespan);
    if (c->total_gpus)
        m->util_all_gpus = st->all_gpu_s / ((double)c->total_gpus * makespan);
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
        /* in the busy times' own unit: a coefficient of variation has none */
        _Static_assert(sizeof(long) == sizeof *st->node_busy, "hsim_time_t is a long");
        const long *busy = (const long *)st->node_busy;
        double mean = gsl_stats_long_mean(busy, 1, n);
        double var = gsl_stats_long_variance_with_fixed_mean(busy, 1, n, mean);
        m->load_imbalance = mean > 0 ? sqrt(var) / mean : 0;
    }
}
