/*
 * synthetic.c - the generators' shared machinery: seeded RNG streams, the
 * parameter checks, the estimate rule and the job-array bookkeeping.  The
 * models themselves are in synth_lublin.c, synth_dl.c and synth_mix.c.
 *
 * Streams: one GSL mt19937 per purpose.  Its 32-bit seed comes from the
 * user's 64-bit seed, the generator's tag and the purpose's index through
 * the splitmix64 finaliser, so streams of one seed are unrelated, every
 * bit of the seed counts, and nothing depends on the order in which the
 * streams are used.  The 32 bits are GSL's (gsl_rng_set() keeps as many):
 * two seeds meet on one stream with a chance of 2^-32, and a generator's
 * several streams all at once practically never.
 */
#include "synth_internal.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

/* The splitmix64 finaliser (Steele, Lea & Flood, OOPSLA 2014). */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

int hsim__synth_rngs_alloc(gsl_rng **r, size_t n, uint64_t seed, uint64_t tag)
{
    const uint64_t golden = UINT64_C(0x9E3779B97F4A7C15);
    for (size_t i = 0; i < n; i++)
        r[i] = NULL;
    for (size_t i = 0; i < n; i++) {
        r[i] = gsl_rng_alloc(gsl_rng_mt19937);
        if (!r[i]) {
            hsim__synth_rngs_free(r, n);
            return HSIM_ENOMEM;
        }
        uint64_t z = mix64(seed + golden * (tag * 64 + i + 1));
        unsigned long s = (unsigned long)((z ^ (z >> 32)) & 0xffffffffu);
        gsl_rng_set(r[i], s ? s : 1);
    }
    return 0;
}

int hsim_synth_stream(gsl_rng **r, uint64_t seed, uint64_t tag)
{
    return hsim__synth_rngs_alloc(r, 1, seed, tag);
}

void hsim__synth_rngs_free(gsl_rng **r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (r[i])
            gsl_rng_free(r[i]);
        r[i] = NULL;
    }
}

int hsim__synth_check_real(hsim_err_t *e, const char *gen, const char *name,
                           double v, double lo, int lo_open, double hi,
                           int hi_open)
{
    int ok = lo_open ? v > lo : v >= lo;
    if (ok && !isinf(hi))
        ok = hi_open ? v < hi : v <= hi;
    if (ok)
        return 0; /* NaN fails both comparisons above */
    char what[96];
    if (isinf(hi))
        snprintf(what, sizeof what, "a number %s %g", lo_open ? ">" : ">=", lo);
    else
        snprintf(what, sizeof what, "a number in %c%g, %g%c", lo_open ? '(' : '[',
                 lo, hi, hi_open ? ')' : ']');
    return hsim_errf(e, HSIM_EINPUT, "%s: parameter '%s': expected %s, found %g",
                     gen, name, what, v);
}

int hsim__synth_check_int(hsim_err_t *e, const char *gen, const char *name,
                          int64_t v, int64_t lo, int64_t hi)
{
    if (v >= lo && v <= hi)
        return 0;
    if (hi == INT64_MAX)
        return hsim_errf(e, HSIM_EINPUT,
                         "%s: parameter '%s': expected an integer >= %" PRId64
                         ", found %" PRId64, gen, name, lo, v);
    return hsim_errf(e, HSIM_EINPUT,
                     "%s: parameter '%s': expected an integer in [%" PRId64
                     ", %" PRId64 "], found %" PRId64, gen, name, lo, hi, v);
}

int hsim__synth_check_common(hsim_err_t *e, const char *gen, size_t n_jobs,
                             int32_t n_users, const hsim_estimate_rule_t *est)
{
    /* a job array of more than 2^31 jobs would not fit in memory anyway */
    int rc = hsim__synth_check_int(e, gen, "n_jobs",
                                   n_jobs > INT64_MAX ? INT64_MAX : (int64_t)n_jobs, 1, INT32_MAX);
    if (!rc)
        rc = hsim__synth_check_int(e, gen, "n_users", n_users, 0, INT32_MAX);
    if (!rc)
        rc = hsim__synth_check_real(e, gen, "estimate.factor", est->factor, 1, 0,
                                    1e3, 0);
    if (!rc)
        rc = hsim__synth_check_int(e, gen, "estimate.round_up", est->round_up, 0, 1);
    return rc;
}

/*
 * Round requests users choose, in seconds; the list is hsim's, in the spirit
 * of Tsafrir, Etsion & Feitelson, "Modeling user runtime estimates" (JSSPP
 * 2005), who found that about 20 such values cover 90% of the jobs.
 */
static const int64_t popular_s[] = {
    60, 120, 300, 600, 900, 1200, 1800, 2700,
    3600, 5400, 7200, 10800, 14400, 18000, 21600, 28800, 36000, 43200,
    57600, 64800, 86400, 129600, 172800, 259200,
};

int64_t hsim__synth_estimate(const hsim_estimate_rule_t *rule, int64_t runtime_s)
{
    int64_t est = runtime_s;
    if (rule->factor != 1.0) {
        /* ceil(runtime x factor) of the decimal factor: 200 x 1.1 is
           220.00000000000003 in binary, which is 220, not 221; the factor
           and the product are each within half an ulp, so a whole number
           is within a few ulps of x, and any true fraction far more */
        double x = (double)runtime_s * rule->factor, whole = nearbyint(x);
        est = (int64_t)(fabs(x - whole) <= 4 * DBL_EPSILON * x ? whole : ceil(x));
    }
    if (est < runtime_s)
        est = runtime_s; /* cannot happen for factor >= 1; cheap insurance */
    if (rule->round_up) {
        size_t n = sizeof popular_s / sizeof popular_s[0];
        size_t i = 0;
        while (i < n && popular_s[i] < est)
            i++;
        est = i < n ? popular_s[i] : (est + 86399) / 86400 * 86400;
    }
    return est;
}

int32_t hsim__synth_user(gsl_rng *r, int32_t n_users)
{
    if (n_users <= 0)
        return -1;
    return 1 + (int32_t)gsl_rng_uniform_int(r, (unsigned long)n_users);
}

int hsim__synth_reserve(hsim_workload_t *w, size_t n)
{
    HSIM_ASSERT(w->n_jobs == 0);
    return hsim_grow(&w->jobs, &w->cap_jobs, n, sizeof *w->jobs);
}

int hsim__synth_check_time(hsim_err_t *e, const char *gen, double t_s)
{
    if (t_s <= (double)HSIM_MAX_SECONDS)
        return 0;
    return hsim_errf(e, HSIM_EINPUT,
                     "%s: jobs and load: expected arrivals within 10^10 s (317 years, what "
                     "the trace readers take, so that hsim gen's traces read back), found one "
                     "at %.0f s: fewer jobs or a higher load", gen, t_s);
}

void hsim__synth_job(hsim_job_t *j, size_t number, double submit_s)
{
    hsim_job_init(j);
    j->id = j->line = (int64_t)number;
    j->submit = hsim_seconds(llround(submit_s));
}

int hsim__synth_finish(hsim_workload_t *w, int rc)
{
    if (rc) {
        hsim_workload_free(w);
        return rc;
    }
    w->n_input = w->n_jobs;
    hsim_strlcpy(w->header.computer, "hsim synthetic cluster", sizeof w->header.computer);
    /* The generators draw arrivals in order, so the sort's first pass finds
       nothing to do (docs/performance.md: what the sort cost before). */
    hsim_workload_sort(w);
    return 0;
}
