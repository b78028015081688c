/*
 * synth_mix.c - a heterogeneous cluster's mix: scientific, deep-learning and
 * big-data jobs in given shares, arriving as one Poisson stream.
 *
 *  - scientific: CPU-only rigid parallel jobs, sizes and runtimes of the
 *    Lublin-Feitelson batch model (synth_lublin.c) for a machine of
 *    cluster_cpus cores;
 *  - deep-learning: Gavel's jobs (synth_dl.c), on GPUs, with cpus_per_gpu
 *    cores each;
 *  - big-data: hsim's own simple model of Spark-like analytics (no
 *    published source): CPU-only, cores uniform over cores_min,
 *    cores_min + step, ..., cores_max (8..64 by 8 by default), mem_mb =
 *    cores x mem_mb_per_core (8 GiB a core by default: memory-heavy), and a
 *    lognormal runtime (median 30 min, sigma 1: mean 49.5 min, 95% within
 *    4 min - 3.6 h), independent of the size.
 *
 * The rate: every job uses cores and some use GPUs, so the offered load is
 * computed for both, each over the class mix in closed form (the scientific
 * part by hsim__lublin_mean_work, the dl part as E[gpus] x E[duration], the
 * big-data part as E[cores] x median x exp(sigma^2 / 2)), and the Poisson
 * rate makes the busier of the two equal the target.  Memory does not enter
 * the load.
 */
#include "synth_internal.h"

#include <math.h>
#include <string.h>

#define GEN "mix"

enum {
    S_ARRIVALS, S_KINDS, S_SCI_SIZES, S_SCI_RUNTIMES, S_DL_DURATIONS, S_DL_GPUS,
    S_BD_CORES, S_BD_RUNTIMES, S_USERS, N_STREAMS
};

static const char *const kind_names[HSIM_MIX_KINDS] = {
    "scientific", "deep-learning", "big-data",
};

void hsim_bigdata_model_defaults(hsim_bigdata_model_t *m)
{
    memset(m, 0, sizeof *m);
    m->cores_min = 8;
    m->cores_max = 64;
    m->cores_step = 8;
    m->runtime_median_s = 1800;
    m->runtime_sigma = 1.0;
    m->mem_mb_per_core = 8192;
}

void hsim_mix_defaults(hsim_mix_params_t *p)
{
    memset(p, 0, sizeof *p);
    p->n_jobs = 10000;
    p->cluster_cpus = 1024;
    p->cluster_gpus = 64;
    p->load = 0.8;
    p->share[HSIM_MIX_SCIENTIFIC] = 0.5;
    p->share[HSIM_MIX_DL] = 0.3;
    p->share[HSIM_MIX_BIGDATA] = 0.2;
    p->n_users = 0;
    p->estimate.factor = 1.0;
    p->estimate.round_up = 0;
    hsim_lublin_model_defaults(&p->scientific);
    hsim_dl_model_defaults(&p->dl);
    hsim_bigdata_model_defaults(&p->bigdata);
}

static int check_bigdata(const hsim_bigdata_model_t *m, int32_t cluster_cpus, hsim_err_t *e)
{
    if (m->cores_min >= 1 && m->cores_max >= m->cores_min && m->cores_max > cluster_cpus)
        return hsim_errf(e, HSIM_EINPUT,
                         "%s: parameter 'bigdata.cores_max': expected at most the cluster's "
                         "%d cores, found %d: big-data jobs need a cluster of at least %d "
                         "cores, or a big-data share ('bigdata') of 0",
                         GEN, cluster_cpus, m->cores_max, m->cores_max);
    int rc = hsim__synth_check_int(e, GEN, "bigdata.cores_min", m->cores_min, 1,
                                   cluster_cpus);
    if (!rc)
        rc = hsim__synth_check_int(e, GEN, "bigdata.cores_max", m->cores_max,
                                   m->cores_min, cluster_cpus);
    if (!rc)
        rc = hsim__synth_check_int(e, GEN, "bigdata.cores_step", m->cores_step, 1, INT32_MAX);
    if (!rc)
        rc = hsim__synth_check_real(e, GEN, "bigdata.runtime_median_s", m->runtime_median_s,
                                    0, 1, 1e8, 0);
    if (!rc)
        rc = hsim__synth_check_real(e, GEN, "bigdata.runtime_sigma", m->runtime_sigma,
                                    0, 0, 10, 0);
    if (!rc)
        rc = hsim__synth_check_int(e, GEN, "bigdata.mem_mb_per_core", m->mem_mb_per_core,
                                   0, INT64_C(1) << 32);
    return rc;
}

static int check_params(const hsim_mix_params_t *p, hsim__lublin_t *sci, hsim_err_t *e)
{
    int rc = hsim__synth_check_common(e, GEN, p->n_jobs, p->n_users, &p->estimate);
    if (!rc)
        rc = hsim__synth_check_real(e, GEN, "load", p->load, 1e-3, 0, 1e3, 0);
    if (!rc)
        rc = hsim__synth_check_int(e, GEN, "cluster_cpus", p->cluster_cpus, 1, INT32_MAX);
    if (!rc)
        rc = hsim__synth_check_int(e, GEN, "cluster_gpus", p->cluster_gpus, 0, INT32_MAX);
    double sum = 0;
    for (int k = 0; !rc && k < HSIM_MIX_KINDS; k++) {
        char name[64];
        snprintf(name, sizeof name, "share[%d] (%s)", k, kind_names[k]);
        rc = hsim__synth_check_real(e, GEN, name, p->share[k], 0, 0, 1, 0);
        sum += p->share[k];
    }
    if (!rc && fabs(sum - 1) > 1e-6)
        rc = hsim_errf(e, HSIM_EINPUT,
                       "%s: parameter 'share': expected shares summing to 1, found a sum "
                       "of %.9g", GEN, sum);
    if (!rc && (p->max_job_cores < 0 || p->max_job_cores > p->cluster_cpus))
        rc = hsim_errf(e, HSIM_EINPUT,
                       "%s: parameter 'max_job_cores': expected 0 or at most cluster_cpus "
                       "(%d), found %d", GEN, p->cluster_cpus, p->max_job_cores);
    if (!rc && p->share[HSIM_MIX_SCIENTIFIC] > 0)
        rc = hsim__lublin_prepare(sci, &p->scientific,
                                  p->max_job_cores ? p->max_job_cores : p->cluster_cpus,
                                  p->max_job_cores ? "max_job_cores" : "cluster_cpus",
                                  GEN, "scientific.", e);
    if (!rc && p->share[HSIM_MIX_DL] > 0)
        rc = hsim__dl_check(&p->dl, p->cluster_gpus, GEN, "dl.", e);
    for (size_t i = 0; !rc && p->share[HSIM_MIX_DL] > 0 && i < p->dl.n_sizes; i++)
        if ((int64_t)p->dl.gpu_sizes[i] * p->dl.cpus_per_gpu > p->cluster_cpus)
            rc = hsim_errf(e, HSIM_EINPUT,
                           "%s: parameter 'cluster_cpus': expected at least the %lld cores "
                           "of a %d-GPU job (dl.cpus_per_gpu %d), found %d", GEN,
                           (long long)p->dl.gpu_sizes[i] * p->dl.cpus_per_gpu,
                           p->dl.gpu_sizes[i], p->dl.cpus_per_gpu, p->cluster_cpus);
    if (!rc && p->share[HSIM_MIX_BIGDATA] > 0)
        rc = check_bigdata(&p->bigdata, p->cluster_cpus, e);
    return rc;
}

static int32_t bigdata_cores(const hsim_bigdata_model_t *m, gsl_rng *r)
{
    unsigned long steps = (unsigned long)((m->cores_max - m->cores_min) / m->cores_step) + 1;
    return m->cores_min + (int32_t)gsl_rng_uniform_int(r, steps) * m->cores_step;
}

static double bigdata_mean_cores(const hsim_bigdata_model_t *m)
{
    int32_t steps = (m->cores_max - m->cores_min) / m->cores_step;
    return m->cores_min + m->cores_step * steps / 2.0;
}

/* Mean gap between jobs for the target load; *busy names the resource
   that sets it. */
static double mean_gap(const hsim_mix_params_t *p, const hsim__lublin_t *sci,
                       const char **busy)
{
    double cpu = 0, gpu = 0; /* expected core- and GPU-seconds of one job */
    if (p->share[HSIM_MIX_SCIENTIFIC] > 0)
        cpu += p->share[HSIM_MIX_SCIENTIFIC] * hsim__lublin_mean_work(sci);
    if (p->share[HSIM_MIX_DL] > 0) {
        double g = hsim__dl_mean_gpus(&p->dl) * hsim__dl_mean_duration(&p->dl);
        gpu += p->share[HSIM_MIX_DL] * g;
        cpu += p->share[HSIM_MIX_DL] * g * p->dl.cpus_per_gpu;
    }
    if (p->share[HSIM_MIX_BIGDATA] > 0) {
        const hsim_bigdata_model_t *b = &p->bigdata;
        cpu += p->share[HSIM_MIX_BIGDATA] * bigdata_mean_cores(b) * b->runtime_median_s *
               exp(b->runtime_sigma * b->runtime_sigma / 2);
    }
    double per_cpu = cpu / p->cluster_cpus;
    double per_gpu = p->cluster_gpus > 0 ? gpu / p->cluster_gpus : 0;
    *busy = per_gpu > per_cpu ? "GPUs" : "cores";
    return (per_gpu > per_cpu ? per_gpu : per_cpu) / p->load;
}

static void draw_job(const hsim_mix_params_t *p, const hsim__lublin_t *sci,
                     const hsim__dl_t *dl, gsl_rng **r, int kind, hsim_job_t *j)
{
    int64_t run;
    switch (kind) {
    case HSIM_MIX_SCIENTIFIC:
        j->procs = hsim__lublin_size(sci, r[S_SCI_SIZES]);
        run = hsim__lublin_runtime(sci, r[S_SCI_RUNTIMES], j->procs);
        j->estimate = hsim_seconds(hsim__synth_estimate(&p->estimate, run));
        break;
    case HSIM_MIX_DL:
        run = hsim__dl_duration(dl, r[S_DL_DURATIONS]);
        j->gpus = hsim__dl_gpus(dl, r[S_DL_GPUS]);
        j->gpu_milli = 1000;
        j->procs = j->gpus * p->dl.cpus_per_gpu;
        j->estimate = hsim_seconds(run);
        break;
    default: {
        const hsim_bigdata_model_t *b = &p->bigdata;
        j->procs = bigdata_cores(b, r[S_BD_CORES]);
        j->mem_mb = (int64_t)j->procs * b->mem_mb_per_core;
        double t = floor(gsl_ran_lognormal(r[S_BD_RUNTIMES], log(b->runtime_median_s),
                                           b->runtime_sigma) + 0.5);
        run = t < 1 ? 1 : t > 1e9 ? (int64_t)1e9 : (int64_t)t; /* 31 years */
        j->estimate = hsim_seconds(hsim__synth_estimate(&p->estimate, run));
        break;
    }
    }
    j->runtime = hsim_seconds(run);
    j->job_class = (int16_t)kind; /* interned first, in kind order */
}

int hsim_gen_mix(const hsim_mix_params_t *p, uint64_t seed, hsim_workload_t *w,
                 hsim_err_t *e)
{
    hsim__lublin_t sci = {0};
    int rc = check_params(p, &sci, e);
    for (int k = 0; !rc && k < HSIM_MIX_KINDS; k++)
        if (hsim_workload_class(w, kind_names[k]) != k)
            rc = hsim_errf(e, HSIM_EINPUT,
                           "%s: workload: expected a fresh workload (class '%s' at index %d)",
                           GEN, kind_names[k], k);
    if (rc)
        return hsim__synth_finish(w, rc);

    const char *busy;
    double gap = mean_gap(p, &sci, &busy);
    hsim__dl_t dl = {0};
    gsl_ran_discrete_t *kinds = NULL;
    gsl_rng *r[N_STREAMS] = {0};
    rc = hsim__synth_reserve(w, p->n_jobs);
    if (!rc)
        rc = hsim__synth_rngs_alloc(r, N_STREAMS, seed, HSIM_STREAM_MIX);
    if (!rc && p->share[HSIM_MIX_DL] > 0)
        rc = hsim__dl_prepare(&dl, &p->dl);
    if (!rc && !(kinds = gsl_ran_discrete_preproc(HSIM_MIX_KINDS, p->share)))
        rc = HSIM_ENOMEM;
    double t = 0;
    for (size_t i = 0; !rc && i < p->n_jobs; i++) {
        t += gsl_ran_exponential(r[S_ARRIVALS], gap);
        if ((rc = hsim__synth_check_time(e, GEN, t)))
            break;
        hsim_job_t *j = &w->jobs[w->n_jobs++];
        hsim__synth_job(j, i + 1, t);
        draw_job(p, &sci, &dl, r, (int)gsl_ran_discrete(r[S_KINDS], kinds), j);
        j->user = hsim__synth_user(r[S_USERS], p->n_users);
    }
    if (kinds)
        gsl_ran_discrete_free(kinds);
    hsim__dl_release(&dl);
    hsim__synth_rngs_free(r, N_STREAMS);
    if (rc)
        return hsim__synth_finish(w, rc);

    w->header.max_procs = p->cluster_cpus;
    snprintf(w->header.note, sizeof w->header.note,
             "generated by hsim_gen_mix, seed %llu, %zu jobs, %d cores, %d GPUs, "
             "shares scientific %g deep-learning %g big-data %g, load %g on the %s "
             "(mean gap %.1f s), estimate x%g%s",
             (unsigned long long)seed, p->n_jobs, p->cluster_cpus, p->cluster_gpus,
             p->share[0], p->share[1], p->share[2], p->load, busy, gap,
             p->estimate.factor, p->estimate.round_up ? " rounded up" : "");
    return hsim__synth_finish(w, 0);
}
