/*
 * synth_dl.c - deep-learning training jobs in the style of Gavel.
 *
 * Source: D. Narayanan et al., "Heterogeneity-Aware Cluster Scheduling
 * Policies for Deep Learning Workloads", OSDI 2020, and its trace
 * generator: a job runs 60 x 10^U(1.5, 3) seconds with probability 0.8, else
 * 60 x 10^U(3, 4) seconds (a few tens of minutes to a week); it asks for 1,
 * 2, 4 or 8 GPUs with probabilities 0.70, 0.10, 0.15, 0.05; jobs arrive as
 * a Poisson process; each has one of the trained model types.  Gavel's
 * types run at different speeds on different GPUs, which hsim expresses
 * through the job class (the class gives speedups per node type).
 *
 * Rate for a target load on G GPUs: lambda = load x G / E[gpus x duration].
 * gpus and duration are independent, so E[gpus x duration] = E[gpus] x
 * E[duration], with E[gpus] = sum of size x probability (1.9 by default)
 * and, for U uniform on [a, b], E[10^U] = (10^b - 10^a) / ((b - a) ln 10):
 * E[duration] = 60 (0.8 x 280.37 + 0.2 x 3908.65) = 60,362 s by default,
 * E[gpus x duration] = 114,687 GPU-seconds, so 64 GPUs at load 1 take a job
 * every 1,792 s.  Rounding durations to whole seconds shifts this by less
 * than 0.5 s a job.
 */
#include "synth_internal.h"

#include <gsl/gsl_math.h>
#include <math.h>
#include <string.h>

#define GEN "dl"

enum { S_ARRIVALS, S_DURATIONS, S_GPUS, S_CLASSES, S_USERS, N_STREAMS };

/* Gavel's job types (the models its throughput measurements cover). */
static const char *const gavel_types[] = {
    "ResNet-18", "ResNet-50", "Transformer", "LM", "Recommendation", "A3C", "CycleGAN",
};

void hsim_dl_model_defaults(hsim_dl_model_t *m)
{
    static const int32_t sizes[] = {1, 2, 4, 8};
    static const double probs[] = {0.70, 0.10, 0.15, 0.05};
    memset(m, 0, sizeof *m);
    m->p_short = 0.8;
    m->short_lo = 1.5;
    m->short_hi = 3;
    m->long_lo = 3;
    m->long_hi = 4;
    m->n_sizes = 4;
    for (size_t i = 0; i < m->n_sizes; i++) {
        m->gpu_sizes[i] = sizes[i];
        m->gpu_probs[i] = probs[i];
    }
    m->cpus_per_gpu = 1;
}

void hsim_dl_defaults(hsim_dl_params_t *p)
{
    memset(p, 0, sizeof *p);
    p->n_jobs = 10000;
    p->cluster_gpus = 64;
    p->load = 0.8;
    p->classes = NULL;
    p->n_classes = 0;
    p->n_users = 0;
    hsim_dl_model_defaults(&p->model);
}

static int check_range(hsim_err_t *e, const char *gen, const char *prefix,
                       const char *lo_name, double lo, const char *hi_name, double hi)
{
    char name[96];
    snprintf(name, sizeof name, "%s%s", prefix, lo_name);
    int rc = hsim__synth_check_real(e, gen, name, lo, -6, 0, 6, 0);
    if (rc)
        return rc;
    snprintf(name, sizeof name, "%s%s", prefix, hi_name);
    return hsim__synth_check_real(e, gen, name, hi, lo, 0, 6, 0);
}

int hsim__dl_check(const hsim_dl_model_t *m, int32_t cluster_gpus,
                   const char *gen, const char *prefix, hsim_err_t *e)
{
    char name[96];
    snprintf(name, sizeof name, "%sp_short", prefix);
    int rc = hsim__synth_check_real(e, gen, name, m->p_short, 0, 0, 1, 0);
    if (!rc)
        rc = check_range(e, gen, prefix, "short_lo", m->short_lo, "short_hi", m->short_hi);
    if (!rc)
        rc = check_range(e, gen, prefix, "long_lo", m->long_lo, "long_hi", m->long_hi);
    if (!rc) {
        snprintf(name, sizeof name, "%sn_sizes", prefix);
        rc = hsim__synth_check_int(e, gen, name, (int64_t)m->n_sizes, 1, HSIM_DL_MAX_SIZES);
    }
    if (!rc) {
        snprintf(name, sizeof name, "%scpus_per_gpu", prefix);
        rc = hsim__synth_check_int(e, gen, name, m->cpus_per_gpu, 1, 1 << 16);
    }
    double sum = 0;
    for (size_t i = 0; !rc && i < m->n_sizes; i++) {
        snprintf(name, sizeof name, "%sgpu_sizes[%zu]", prefix, i);
        rc = hsim__synth_check_int(e, gen, name, m->gpu_sizes[i], 1,
                                   cluster_gpus > 0 ? cluster_gpus : 1);
        if (!rc && cluster_gpus <= 0)
            rc = hsim_errf(e, HSIM_EINPUT,
                           "%s: parameter 'cluster_gpus': expected an integer >= %d "
                           "(the largest GPU count), found %d",
                           gen, m->gpu_sizes[i], cluster_gpus);
        if (!rc && (int64_t)m->gpu_sizes[i] * m->cpus_per_gpu > INT32_MAX)
            rc = hsim_errf(e, HSIM_EINPUT,
                           "%s: parameter '%sgpu_sizes[%zu]': expected at most %d cores "
                           "a job, found %d GPUs x %d cores", gen, prefix, i, INT32_MAX,
                           m->gpu_sizes[i], m->cpus_per_gpu);
        if (!rc) {
            snprintf(name, sizeof name, "%sgpu_probs[%zu]", prefix, i);
            rc = hsim__synth_check_real(e, gen, name, m->gpu_probs[i], 0, 0, 1, 0);
        }
        if (!rc)
            sum += m->gpu_probs[i];
    }
    if (!rc && fabs(sum - 1) > 1e-6)
        rc = hsim_errf(e, HSIM_EINPUT,
                       "%s: parameter '%sgpu_probs': expected probabilities summing to 1, "
                       "found a sum of %.9g", gen, prefix, sum);
    return rc;
}

int hsim__dl_prepare(hsim__dl_t *s, const hsim_dl_model_t *m)
{
    s->m = m;
    s->sizes = gsl_ran_discrete_preproc(m->n_sizes, m->gpu_probs);
    return s->sizes ? 0 : HSIM_ENOMEM;
}

void hsim__dl_release(hsim__dl_t *s)
{
    if (s->sizes)
        gsl_ran_discrete_free(s->sizes);
    s->sizes = NULL;
}

int64_t hsim__dl_duration(const hsim__dl_t *s, gsl_rng *r)
{
    const hsim_dl_model_t *m = s->m;
    double u = gsl_rng_uniform(r) < m->p_short ? gsl_ran_flat(r, m->short_lo, m->short_hi)
                                               : gsl_ran_flat(r, m->long_lo, m->long_hi);
    double d = floor(60 * pow(10, u) + 0.5);
    return d < 1 ? 1 : (int64_t)d;
}

int32_t hsim__dl_gpus(const hsim__dl_t *s, gsl_rng *r)
{
    return s->m->gpu_sizes[gsl_ran_discrete(r, s->sizes)];
}

/* E[10^U], U uniform on [a, b]. */
static double mean_exp10_uniform(double a, double b)
{
    if (b - a < 1e-12)
        return pow(10, a);
    return (pow(10, b) - pow(10, a)) / ((b - a) * M_LN10);
}

double hsim__dl_mean_duration(const hsim_dl_model_t *m)
{
    return 60 * (m->p_short * mean_exp10_uniform(m->short_lo, m->short_hi) +
                 (1 - m->p_short) * mean_exp10_uniform(m->long_lo, m->long_hi));
}

double hsim__dl_mean_gpus(const hsim_dl_model_t *m)
{
    double g = 0;
    for (size_t i = 0; i < m->n_sizes; i++)
        g += m->gpu_sizes[i] * m->gpu_probs[i];
    return g;
}

/* Interns the class names into w; their indices go to idx.  0 or
   HSIM_EINPUT. */
static int intern_classes(const hsim_dl_params_t *p, hsim_workload_t *w, int16_t *idx,
                          size_t *n, hsim_err_t *e)
{
    const char *const *names = p->classes ? p->classes : gavel_types;
    *n = p->classes ? p->n_classes : sizeof gavel_types / sizeof gavel_types[0];
    if (p->classes && (p->n_classes < 1 || p->n_classes > HSIM_MAX_CLASSES))
        return hsim__synth_check_int(e, GEN, "n_classes", (int64_t)p->n_classes, 1,
                                     HSIM_MAX_CLASSES);
    for (size_t i = 0; i < *n; i++) {
        int k = names[i] && names[i][0] ? hsim_workload_class(w, names[i]) : -1;
        if (k < 0)
            return hsim_errf(e, HSIM_EINPUT,
                             "%s: parameter 'classes[%zu]': expected a name of 1 to %d "
                             "characters, found '%.60s'", GEN, i, HSIM_LABEL_MAX - 1,
                             names[i] ? names[i] : "(null)");
        idx[i] = (int16_t)k;
    }
    return 0;
}

int hsim_gen_dl(const hsim_dl_params_t *p, uint64_t seed, hsim_workload_t *w,
                hsim_err_t *e)
{
    const hsim_dl_model_t *m = &p->model;
    int16_t class_idx[HSIM_MAX_CLASSES];
    size_t n_classes = 0;
    int rc = hsim__synth_check_common(e, GEN, p->n_jobs, p->n_users,
                                      &(hsim_estimate_rule_t){1.0, 0});
    if (!rc)
        rc = hsim__synth_check_int(e, GEN, "cluster_gpus", p->cluster_gpus, 1, INT32_MAX);
    if (!rc)
        rc = hsim__dl_check(m, p->cluster_gpus, GEN, "model.", e);
    if (!rc)
        rc = hsim__synth_check_real(e, GEN, "load", p->load, 1e-3, 0, 1e3, 0);
    if (!rc)
        rc = intern_classes(p, w, class_idx, &n_classes, e);
    if (rc)
        return hsim__synth_finish(w, rc);

    double mean_gap = hsim__dl_mean_gpus(m) * hsim__dl_mean_duration(m) /
                      (p->load * p->cluster_gpus);
    hsim__dl_t s = {0};
    gsl_rng *r[N_STREAMS] = {0};
    rc = hsim__synth_reserve(w, p->n_jobs);
    if (!rc)
        rc = hsim__synth_rngs_alloc(r, N_STREAMS, seed, HSIM_STREAM_DL);
    if (!rc)
        rc = hsim__dl_prepare(&s, m);
    double t = 0;
    for (size_t i = 0; !rc && i < p->n_jobs; i++) {
        t += gsl_ran_exponential(r[S_ARRIVALS], mean_gap);
        if ((rc = hsim__synth_check_time(e, GEN, t)))
            break;
        hsim_job_t *j = &w->jobs[w->n_jobs++];
        hsim__synth_job(j, i + 1, t);
        int64_t d = hsim__dl_duration(&s, r[S_DURATIONS]);
        j->runtime = j->estimate = hsim_seconds(d);
        j->gpus = hsim__dl_gpus(&s, r[S_GPUS]);
        j->gpu_milli = 1000;
        j->procs = j->gpus * m->cpus_per_gpu;
        j->job_class = class_idx[gsl_rng_uniform_int(r[S_CLASSES], n_classes)];
        j->user = hsim__synth_user(r[S_USERS], p->n_users);
    }
    hsim__dl_release(&s);
    hsim__synth_rngs_free(r, N_STREAMS);
    if (rc)
        return hsim__synth_finish(w, rc);

    w->header.max_procs = (int64_t)p->cluster_gpus * m->cpus_per_gpu;
    snprintf(w->header.note, sizeof w->header.note,
             "generated by hsim_gen_dl (Gavel, OSDI 2020), seed %llu, %zu jobs, "
             "%d GPUs, load %g (mean gap %.1f s), %zu job types, %d cores per GPU",
             (unsigned long long)seed, p->n_jobs, p->cluster_gpus, p->load, mean_gap,
             n_classes, m->cpus_per_gpu);
    return hsim__synth_finish(w, 0);
}
