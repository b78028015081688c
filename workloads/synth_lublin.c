/*
 * synth_lublin.c - the Lublin-Feitelson model of rigid parallel jobs.
 *
 * Source: U. Lublin and D. G. Feitelson, "The workload on parallel
 * supercomputers: modeling the characteristics of rigid jobs", JPDC 63(11),
 * 1105-1122, 2003, and lublin99.c, the authors' C implementation from the
 * Parallel Workloads Archive (cs.huji.ac.il/labs/parallel/workload/models),
 * whose batch-job constants are hsim's defaults (hsim_lublin_model_defaults
 * names each one).  The distributions are drawn with GSL instead of the
 * program's own gamma sampler and gamma cdf; the logic is the program's:
 *
 *  - size: with serial_prob a serial job; otherwise x from a two-stage
 *    uniform (U(u_low, u_med) with u_prob, else U(u_med, u_hi), u_hi =
 *    log2 machine), rounded to an integer first with pow2_prob (one uniform
 *    decides among the three cases, so pow2_prob is a share of all jobs),
 *    and the size is round(2^x).  hsim caps a power-of-two size at the
 *    largest power of two within the machine, where lublin99.c assumed a
 *    power-of-two machine;
 *  - runtime: ln(runtime) hyper-gamma, the first gamma with probability
 *    p = pa x size + pb clamped to [0, 1] (larger jobs run longer), drawn
 *    again above runtime_ln_max; runtime = floor(exp(.)) seconds;
 *  - arrivals: ln(gap) is gamma(a_arr x arar, b_arr), drawn again above
 *    arrival_ln_max; the gap is then spent through the day's 48 half-hour
 *    buckets, each costing its relative arrival rate (the gamma(a_num,
 *    b_num) mass of the bucket, days starting at bucket 11, normalised to a
 *    mean of 1) per bucket length.  This is lublin99.c's "paying points"
 *    loop written as a time change by the cumulative rate: busy hours pass
 *    slowly, so more jobs arrive in them, and the long-run mean gap is
 *    E[exp(gamma)] whatever the profile.
 *
 * Offered load: E[size x runtime] over machine x E[gap], both in closed form:
 * for X ~ gamma(a, b) with b < 1, E[exp X; X <= c] = (1 - b)^-a P(c; a,
 * b / (1 - b)), P the regularised lower incomplete gamma (GSL's
 * gsl_cdf_gamma_P), and the size distribution is exact (a sum over sizes).
 * A target load multiplies every gap by one factor, which keeps the daily
 * cycle 24 hours long.
 */
#include "synth_internal.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

#define GEN "lublin"
#define BUCKETS 48                      /* half hours in a day */
#define BUCKET_S 1800.0                 /* seconds in a bucket */
#define DAY_START_BUCKET 11             /* lublin99.c's CYCLIC_DAY_START */
#define MAX_PARAM 1e6                   /* largest shape or scale accepted */
#define MAX_LN 20.0                     /* largest ln(seconds) bound: exp(20)
                                           s is 15 years, and x 1e6 us still
                                           fits in hsim_time_t */

enum { S_ARRIVALS, S_SIZES, S_RUNTIMES, S_USERS, N_STREAMS };

void hsim_lublin_model_defaults(hsim_lublin_model_t *m)
{
    /* lublin99.c, batch jobs: SERIAL_PROB_BATCH, POW2_PROB_BATCH,
       ULOW_BATCH, UMED_BATCH = 5 with UHI_BATCH = 7 (hence offset 2),
       UPROB_BATCH */
    m->serial_prob = 0.2927;
    m->pow2_prob = 0.6686;
    m->u_low = 1.2;
    m->u_med_offset = 2.0;
    m->u_prob = 0.875;
    /* A1_BATCH, B1_BATCH, A2_BATCH, B2_BATCH, PA_BATCH, PB_BATCH; the bound
       is TOO_MUCH_TIME */
    m->a1 = 6.57;
    m->b1 = 0.823;
    m->a2 = 639.1;
    m->b2 = 0.0156;
    m->pa = -0.003;
    m->pb = 0.6986;
    m->runtime_ln_max = 12;
    /* AARR_BATCH, ARAR_BATCH, BARR_BATCH, ANUM_BATCH, BNUM_BATCH; the bound
       is TOO_MUCH_ARRIVE_TIME */
    m->a_arr = 6.0415;
    m->arar = 1.0519;
    m->b_arr = 0.8531;
    m->a_num = 6.1271;
    m->b_num = 5.2740;
    m->arrival_ln_max = 13;
}

void hsim_lublin_defaults(hsim_lublin_params_t *p)
{
    memset(p, 0, sizeof *p);
    p->n_jobs = 10000;
    p->machine_procs = 128; /* lublin99.c's UHI_BATCH = 7 */
    p->load = 0;
    p->start_hour = 0;      /* lublin99.c's START */
    p->n_users = 0;
    p->estimate.factor = 1.0;
    p->estimate.round_up = 0;
    hsim_lublin_model_defaults(&p->model);
}

/* E[exp X; X <= c] for X ~ gamma(shape a, scale b), b < 1. */
static double gamma_exp_mass(double a, double b, double c)
{
    double tail = gsl_cdf_gamma_P(c, a, b / (1 - b));
    if (tail <= 0)
        return 0;
    return exp(-a * log1p(-b) + log(tail));
}

/* Shapes, scales and bounds: positive, and small enough that GSL's
   incomplete gamma and exp() stay finite. */
static int check_pos(hsim_err_t *e, const char *gen, const char *prefix,
                     const char *field, double v, double hi)
{
    char name[96];
    snprintf(name, sizeof name, "%s%s", prefix, field);
    return hsim__synth_check_real(e, gen, name, v, 0, 1, hi, 0);
}

static int check_unit(hsim_err_t *e, const char *gen, const char *prefix,
                      const char *field, double v, int open)
{
    char name[96];
    snprintf(name, sizeof name, "%s%s", prefix, field);
    return hsim__synth_check_real(e, gen, name, v, 0, open, 1, open);
}

static int check_finite(hsim_err_t *e, const char *gen, const char *prefix,
                        const char *field, double v)
{
    if (isfinite(v))
        return 0;
    return hsim_errf(e, HSIM_EINPUT,
                     "%s: parameter '%s%s': expected a finite number, found %g",
                     gen, prefix, field, v);
}

/* A bound on ln(x) must keep at least 1% of the gamma, or the rejection
   loop would spin. */
static int check_bound(hsim_err_t *e, const char *gen, const char *prefix,
                       const char *field, double c, double a, double b)
{
    int rc = check_pos(e, gen, prefix, field, c, MAX_LN);
    if (rc)
        return rc;
    double kept = gsl_cdf_gamma_P(c, a, b);
    if (kept >= 0.01)
        return 0;
    return hsim_errf(e, HSIM_EINPUT,
                     "%s: parameter '%s%s': expected a bound keeping at least 1%% of "
                     "gamma(%g, %g), found %g (keeps %.2g%%)",
                     gen, prefix, field, a, b, c, 100 * kept);
}

int hsim__lublin_prepare(hsim__lublin_t *s, const hsim_lublin_model_t *m,
                         int32_t machine, const char *machine_name,
                         const char *gen, const char *prefix, hsim_err_t *e)
{
    int rc = check_unit(e, gen, prefix, "serial_prob", m->serial_prob, 0);
    if (!rc) {
        char name[96];
        snprintf(name, sizeof name, "%spow2_prob", prefix);
        rc = hsim__synth_check_real(e, gen, name, m->pow2_prob, 0, 0,
                                    1 - m->serial_prob, 0);
    }
    if (!rc)
        rc = check_pos(e, gen, prefix, "u_low", m->u_low, MAX_PARAM);
    if (!rc) {
        char name[96];
        snprintf(name, sizeof name, "%su_med_offset", prefix);
        rc = hsim__synth_check_real(e, gen, name, m->u_med_offset, 0, 0, 64, 0);
    }
    if (!rc)
        rc = check_unit(e, gen, prefix, "u_prob", m->u_prob, 0);
    if (!rc)
        rc = check_pos(e, gen, prefix, "a1", m->a1, MAX_PARAM);
    if (!rc)
        rc = check_unit(e, gen, prefix, "b1", m->b1, 1);
    if (!rc)
        rc = check_pos(e, gen, prefix, "a2", m->a2, MAX_PARAM);
    if (!rc)
        rc = check_unit(e, gen, prefix, "b2", m->b2, 1);
    if (!rc)
        rc = check_finite(e, gen, prefix, "pa", m->pa);
    if (!rc)
        rc = check_finite(e, gen, prefix, "pb", m->pb);
    if (!rc)
        rc = check_bound(e, gen, prefix, "runtime_ln_max", m->runtime_ln_max, m->a1, m->b1);
    if (!rc)
        rc = check_bound(e, gen, prefix, "runtime_ln_max", m->runtime_ln_max, m->a2, m->b2);
    if (rc)
        return rc;
    if (machine > HSIM_LUBLIN_MAX_MACHINE || !(log2((double)machine) > m->u_low))
        return hsim_errf(e, HSIM_EINPUT,
                         "%s: parameter '%s': expected an integer in (2^%su_low = %.3g, %d], "
                         "found %d", gen, machine_name, prefix, exp2(m->u_low),
                         HSIM_LUBLIN_MAX_MACHINE, machine);
    s->m = m;
    s->machine = machine;
    s->u_hi = log2((double)machine);
    s->u_med = s->u_hi - m->u_med_offset;
    if (s->u_med < m->u_low)
        s->u_med = m->u_low;
    s->max_pow2 = 1;
    while (s->max_pow2 <= machine / 2)
        s->max_pow2 *= 2;
    return 0;
}

int32_t hsim__lublin_size(const hsim__lublin_t *s, gsl_rng *r)
{
    const hsim_lublin_model_t *m = s->m;
    double u = gsl_rng_uniform(r);
    if (u < m->serial_prob)
        return 1;
    double x = gsl_rng_uniform(r) < m->u_prob ? gsl_ran_flat(r, m->u_low, s->u_med)
                                              : gsl_ran_flat(r, s->u_med, s->u_hi);
    if (u < m->serial_prob + m->pow2_prob) {
        double size = exp2(floor(x + 0.5));
        return size > s->max_pow2 ? s->max_pow2 : (int32_t)size;
    }
    double size = floor(exp2(x) + 0.5);
    return size > s->machine ? s->machine : (int32_t)size;
}

static double first_gamma_prob(const hsim_lublin_model_t *m, int32_t procs)
{
    double p = m->pa * procs + m->pb;
    return p < 0 ? 0 : p > 1 ? 1 : p;
}

int64_t hsim__lublin_runtime(const hsim__lublin_t *s, gsl_rng *r, int32_t procs)
{
    const hsim_lublin_model_t *m = s->m;
    double p = first_gamma_prob(m, procs), x;
    do {
        x = gsl_rng_uniform(r) < p ? gsl_ran_gamma(r, m->a1, m->b1)
                                   : gsl_ran_gamma(r, m->a2, m->b2);
    } while (x > m->runtime_ln_max);
    double t = floor(exp(x));
    return t < 1 ? 1 : (int64_t)t;
}

/* P(X < x) for X two-stage uniform (point masses where a stage is empty). */
static double tsu_cdf(const hsim__lublin_t *s, double x)
{
    double lo[2] = {s->m->u_low, s->u_med}, hi[2] = {s->u_med, s->u_hi};
    double w[2] = {s->m->u_prob, 1 - s->m->u_prob}, c = 0;
    for (int i = 0; i < 2; i++) {
        double f;
        if (hi[i] > lo[i])
            f = x <= lo[i] ? 0 : x >= hi[i] ? 1 : (x - lo[i]) / (hi[i] - lo[i]);
        else
            f = x > lo[i] ? 1 : 0;
        c += w[i] * f;
    }
    return c;
}

/* E[exp X; X <= c] and P(X <= c) of the two gammas of ln(runtime). */
typedef struct runtime_moments {
    double e1, f1, e2, f2;
} runtime_moments_t;

/* E[runtime | size], seconds: the rejection above c draws the mixture
   again, so each gamma weighs in with its kept mass. */
static double mean_runtime(const hsim_lublin_model_t *m, const runtime_moments_t *rm,
                           int32_t size)
{
    double p = first_gamma_prob(m, size);
    return (p * rm->e1 + (1 - p) * rm->e2) / (p * rm->f1 + (1 - p) * rm->f2);
}

double hsim__lublin_mean_work(const hsim__lublin_t *s)
{
    const hsim_lublin_model_t *m = s->m;
    const double c = m->runtime_ln_max;
    runtime_moments_t rm = {
        gamma_exp_mass(m->a1, m->b1, c), gsl_cdf_gamma_P(c, m->a1, m->b1),
        gamma_exp_mass(m->a2, m->b2, c), gsl_cdf_gamma_P(c, m->a2, m->b2),
    };
    double work = m->serial_prob * mean_runtime(m, &rm, 1);

    /* power-of-two jobs: x in [j - 0.5, j + 0.5) gives 2^j, capped */
    double done = 0;
    for (int32_t size = 1, j = 0; size <= s->max_pow2; size *= 2, j++) {
        double upto = size == s->max_pow2 ? 1 : tsu_cdf(s, j + 0.5);
        work += m->pow2_prob * (upto - done) * size * mean_runtime(m, &rm, size);
        done = upto;
    }
    /* the others: x in [log2(n - 0.5), log2(n + 0.5)) gives n */
    double rest = 1 - m->serial_prob - m->pow2_prob;
    if (rest > 0) {
        done = 0;
        for (int32_t n = 1; n <= s->machine; n++) {
            double upto = n == s->machine ? 1 : tsu_cdf(s, log2(n + 0.5));
            if (upto > done)
                work += rest * (upto - done) * n * mean_runtime(m, &rm, n);
            done = upto;
        }
    }
    return work;
}

/* The daily profile: relative arrival rate of each half-hour bucket of the
   day (bucket 0 = 0:00-0:30), mean 1.  0 or HSIM_EINPUT. */
static int day_profile(const hsim_lublin_model_t *m, double w[BUCKETS], hsim_err_t *e)
{
    double sum = 0;
    for (int i = DAY_START_BUCKET; i < BUCKETS + DAY_START_BUCKET; i++) {
        int idx = (i - 1) % BUCKETS; /* lublin99.c counts buckets from 1 */
        w[idx] = gsl_cdf_gamma_P(i + 0.5, m->a_num, m->b_num) -
                 gsl_cdf_gamma_P(i - 0.5, m->a_num, m->b_num);
        sum += w[idx];
    }
    if (!(sum > 1e-9))
        return hsim_errf(e, HSIM_EINPUT,
                         "%s: parameters 'model.a_num', 'model.b_num': expected a "
                         "gamma with mass within buckets %d..%d of the day, found %.2g",
                         GEN, DAY_START_BUCKET, BUCKETS + DAY_START_BUCKET - 1, sum);
    for (int i = 0; i < BUCKETS; i++)
        w[i] *= BUCKETS / sum;
    return 0;
}

/* Where the arrival process stands: absolute time, bucket, share of it. */
typedef struct arrivals {
    double t;             /* seconds since time 0 */
    int bucket;           /* bucket of the day, 0..47 */
    double frac;          /* share of the bucket already passed, [0, 1) */
    double w[BUCKETS];    /* relative rate of each bucket, mean 1 */
    double day_points;    /* sum of w (48 up to rounding) */
    double shape, scale;  /* gamma of ln(gap) */
    double bound;         /* ln(gap) bound */
    double factor;        /* gap multiplier for the target load */
} arrivals_t;

/* Advances a to the next arrival.  O(1) amortised: at most one day of
   buckets is walked per gap. */
static void next_arrival(arrivals_t *a, gsl_rng *r)
{
    double x;
    do
        x = gsl_ran_gamma(r, a->shape, a->scale);
    while (x > a->bound);
    double points = exp(x) * a->factor / BUCKET_S;
    double days = floor(points / a->day_points);
    if (days > 0) { /* a whole day costs the same from anywhere */
        points -= days * a->day_points;
        a->t += days * 86400.0;
    }
    while (points > (1 - a->frac) * a->w[a->bucket]) {
        points -= (1 - a->frac) * a->w[a->bucket];
        a->t += (1 - a->frac) * BUCKET_S;
        a->bucket = (a->bucket + 1) % BUCKETS;
        a->frac = 0;
    }
    if (points > 0) {
        double share = points / a->w[a->bucket];
        a->frac += share;
        a->t += share * BUCKET_S;
    }
}

static int check_params(const hsim_lublin_params_t *p, hsim__lublin_t *s, hsim_err_t *e)
{
    const hsim_lublin_model_t *m = &p->model;
    int rc = hsim__synth_check_common(e, GEN, p->n_jobs, p->n_users, &p->estimate);
    if (!rc)
        rc = hsim__lublin_prepare(s, m, p->machine_procs, "machine_procs", GEN, "model.", e);
    if (!rc && p->load != 0 && !(p->load >= 1e-3 && p->load <= 1e3))
        rc = hsim_errf(e, HSIM_EINPUT,
                       "%s: parameter 'load': expected 0 (the published rate) or a number "
                       "in [0.001, 1000], found %g", GEN, p->load);
    if (!rc)
        rc = hsim__synth_check_int(e, GEN, "start_hour", p->start_hour, 0, 23);
    if (!rc)
        rc = check_pos(e, GEN, "model.", "a_arr", m->a_arr, MAX_PARAM);
    if (!rc)
        rc = check_pos(e, GEN, "model.", "arar", m->arar, MAX_PARAM);
    if (!rc)
        rc = check_unit(e, GEN, "model.", "b_arr", m->b_arr, 1);
    if (!rc)
        rc = check_pos(e, GEN, "model.", "a_num", m->a_num, MAX_PARAM);
    if (!rc)
        rc = check_pos(e, GEN, "model.", "b_num", m->b_num, MAX_PARAM);
    if (!rc)
        rc = check_bound(e, GEN, "model.", "arrival_ln_max", m->arrival_ln_max,
                         m->a_arr * m->arar, m->b_arr);
    return rc;
}

int hsim_gen_lublin(const hsim_lublin_params_t *p, uint64_t seed,
                    hsim_workload_t *w, hsim_err_t *e)
{
    const hsim_lublin_model_t *m = &p->model;
    hsim__lublin_t s;
    arrivals_t a = {0};
    int rc = check_params(p, &s, e);
    if (!rc)
        rc = day_profile(m, a.w, e);
    if (rc)
        return hsim__synth_finish(w, rc);

    a.bucket = p->start_hour * 2;
    a.shape = m->a_arr * m->arar;
    a.scale = m->b_arr;
    a.bound = m->arrival_ln_max;
    for (int i = 0; i < BUCKETS; i++)
        a.day_points += a.w[i];
    a.factor = 1;
    if (p->load > 0) {
        double gap = gamma_exp_mass(a.shape, a.scale, a.bound) /
                     gsl_cdf_gamma_P(a.bound, a.shape, a.scale);
        a.factor = hsim__lublin_mean_work(&s) / (p->load * p->machine_procs * gap);
    }

    gsl_rng *r[N_STREAMS];
    rc = hsim__synth_reserve(w, p->n_jobs);
    if (!rc)
        rc = hsim__synth_rngs_alloc(r, N_STREAMS, seed, HSIM_STREAM_LUBLIN);
    if (rc)
        return hsim__synth_finish(w, rc);
    for (size_t i = 0; !rc && i < p->n_jobs; i++) {
        next_arrival(&a, r[S_ARRIVALS]);
        if ((rc = hsim__synth_check_time(e, GEN, a.t)))
            break;
        hsim_job_t *j = &w->jobs[w->n_jobs++];
        hsim__synth_job(j, i + 1, a.t);
        j->procs = hsim__lublin_size(&s, r[S_SIZES]);
        int64_t run = hsim__lublin_runtime(&s, r[S_RUNTIMES], j->procs);
        j->runtime = hsim_seconds(run);
        j->estimate = hsim_seconds(hsim__synth_estimate(&p->estimate, run));
        j->user = hsim__synth_user(r[S_USERS], p->n_users);
    }
    hsim__synth_rngs_free(r, N_STREAMS);
    if (rc)
        return hsim__synth_finish(w, rc);

    w->header.max_procs = p->machine_procs;
    snprintf(w->header.note, sizeof w->header.note,
             "generated by hsim_gen_lublin (Lublin & Feitelson 2003, batch), seed %llu, "
             "%zu jobs, machine_procs %d, load %g (0: published rate), gap factor %.4g, "
             "estimate x%g%s, time 0 at %02d:00",
             (unsigned long long)seed, p->n_jobs, p->machine_procs, p->load, a.factor,
             p->estimate.factor, p->estimate.round_up ? " rounded up" : "", p->start_hour);
    return hsim__synth_finish(w, 0);
}
