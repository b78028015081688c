/*
 * sched_test.c - what the engine and scheduler test programs share (see
 * sched_test.h): jobs and configurations built by hand, random workloads,
 * and the checks every schedule must pass.
 */
#include "sched_test.h"

#include "policies/registry.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#define S HSIM_SECOND

void hsim_test_add_job(hsim_workload_t *w, int64_t id, int64_t submit_s, int32_t procs,
                       int64_t run_s, int64_t est_s)
{
    hsim_job_t j = {.id = id, .line = id + 1, .submit = submit_s * S,
                    .runtime = run_s * S, .estimate = est_s * S, .procs = procs,
                    .user = (int32_t)(id % 3), .group = -1, .app = -1, .queue = -1,
                    .partition = -1, .after = -1};
    CU_ASSERT_EQUAL_FATAL(hsim_workload_add(w, &j), 0);
}

hsim_run_config_t hsim_test_config(int32_t capacity, const char *sched, const char *order,
                                   const char *bf_order, const char *pred)
{
    hsim_run_config_t c = {
        .capacity = capacity,
        .order = hsim_order_find(order),
        .backfill_order = bf_order ? hsim_order_find(bf_order) : NULL,
        .scheduler = hsim_scheduler_find(sched),
        .predictor = hsim_predictor_find(pred),
    };
    HSIM_ASSERT(c.order && c.scheduler && c.predictor);
    return c;
}

/* Runs w; every outcome must be filled in. */
int hsim_test_run(const hsim_workload_t *w, const hsim_run_config_t *c, hsim_outcome_t *out,
                  hsim_err_t *e)
{
    for (size_t i = 0; i < w->n_jobs; i++)
        out[i] = (hsim_outcome_t){.start = -7, .end = -7, .fate = 99};
    return hsim_engine_run(w, c, out, NULL, e);
}

/* Finds a job's index by id (the workload is sorted by submission). */
size_t hsim_test_idx_of(const hsim_workload_t *w, int64_t id)
{
    for (size_t i = 0; i < w->n_jobs; i++)
        if (w->jobs[i].id == id)
            return i;
    HSIM_ASSERT(!"no such job");
    return 0;
}

void hsim_test_check_schedule(const hsim_workload_t *w, const hsim_outcome_t *out,
                              const hsim_test_expect_t *want, size_t n, const char *what)
{
    int ok = 1;
    for (size_t k = 0; k < n; k++) {
        const hsim_outcome_t *o = &out[hsim_test_idx_of(w, want[k].id)];
        if (o->start != want[k].start_s * S || o->end != want[k].end_s * S) {
            fprintf(stderr, "\n%s: job %lld ran [%.6g, %.6g], expected [%lld, %lld]", what,
                    (long long)want[k].id, (double)o->start / S, (double)o->end / S,
                    (long long)want[k].start_s, (long long)want[k].end_s);
            ok = 0;
        }
    }
    if (!ok) {
        fprintf(stderr, "\n");
        CU_FAIL("schedule differs from the hand-worked one");
    }
}

/* Starts a random workload of n jobs: w emptied, *gap room for the gap
   before each submission (see space_submits()), and the generator for
   the seed. */
static gsl_rng *begin_workload(hsim_workload_t *w, unsigned long seed, size_t n, double **gap)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    hsim_workload_init(w);
    *gap = malloc(n * sizeof **gap);
    return rng;
}

/* Sets the submit times of w's jobs from their gaps (gap[i] before job i,
   in any unit), scaled so that the offered load, work over capacity times
   span, is about 'load'; frees gap and sorts w. */
static void space_submits(hsim_workload_t *w, double *gap, double work, int32_t cap,
                          double load)
{
    double sum_gap = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        sum_gap += gap[i];
    double scale = work / ((double)cap * load) / (sum_gap > 0 ? sum_gap : 1);
    double t = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        t += gap[i] * scale;
        w->jobs[i].submit = (hsim_time_t)t * S;
    }
    free(gap);
    hsim_workload_sort(w);
}

/*
 * A random workload: bursts of equal submit times, job arrays (runs of jobs
 * of one shape submitted together), many estimates that are equal or end
 * together, runtimes early, exact or past the estimate.
 * Submit times are whole seconds, spread so that the offered load (work
 * over capacity times span) is about 'load': above 1 the queue grows.
 */
void hsim_test_random_workload(hsim_workload_t *w, unsigned long seed, size_t n, int32_t cap,
                               double load)
{
    double *gap, work = 0;
    gsl_rng *rng = begin_workload(w, seed, n, &gap);
    int32_t procs = 1;
    int64_t est = 1;
    for (size_t i = 0; i < n; i++) {
        int array = i > 0 && gsl_rng_uniform(rng) < 0.3; /* same shape as the last */
        gap[i] = array || gsl_rng_uniform(rng) < 0.3 ? 0 : gsl_ran_exponential(rng, 1.0);
        if (!array) {
            procs = gsl_rng_uniform(rng) < 0.5
                        ? (int32_t)(1 + gsl_rng_uniform_int(rng, 4))
                        : (int32_t)(1 + gsl_rng_uniform_int(rng, (unsigned long)cap));
            if (procs > cap)
                procs = cap;
            static const int64_t round_est[] = {60, 300, 600, 1800, 3600};
            est = gsl_rng_uniform(rng) < 0.5 ? round_est[gsl_rng_uniform_int(rng, 5)]
                                             : (int64_t)(1 + gsl_rng_uniform_int(rng, 2000));
        }
        double u = gsl_rng_uniform(rng);
        int64_t runtime = u < 0.3   ? est
                          : u < 0.9 ? (int64_t)(1 + gsl_rng_uniform_int(rng, (unsigned long)est))
                                    : est + 1 + (int64_t)gsl_rng_uniform_int(rng, 100);
        work += (double)procs * (double)(runtime < est ? runtime : est);
        hsim_test_add_job(w, (int64_t)i + 1, 0, procs, runtime, est);
    }
    space_submits(w, gap, work, cap, load);
    gsl_rng_free(rng);
}

/* Arrays of 3 to 30 jobs of one shape, short estimates (20 to 200 s),
   most ending early, submitted a burst at a time, one job in five a
   processor wider or a second longer than the rest: the jobs of an array
   wait for one another's processors, so an early end moves chains of them
   up, each into the start the one before it left, and the runs of jobs
   that conservative passes over (run_note_t in backfill_conservative.c)
   mix shapes. */
void hsim_test_chain_workload(hsim_workload_t *w, unsigned long seed, size_t n, int32_t cap,
                              double load)
{
    double *gap, work = 0;
    gsl_rng *rng = begin_workload(w, seed, n, &gap);
    int32_t procs = 1;
    int64_t est = 1;
    size_t left = 0; /* jobs still to come in this array */
    for (size_t i = 0; i < n; i++) {
        gap[i] = 0;
        if (left == 0) {
            left = 3 + gsl_rng_uniform_int(rng, 28);
            gap[i] = gsl_ran_exponential(rng, 1.0);
            int32_t widths[] = {1, 2, cap / 4, cap / 2};
            procs = widths[gsl_rng_uniform_int(rng, 4)];
            procs = procs < 1 ? 1 : procs;
            est = 20 + (int64_t)gsl_rng_uniform_int(rng, 181);
        }
        left--;
        /* now and then one a little wider or longer than the rest */
        double v = gsl_rng_uniform(rng);
        int32_t p = v < 0.1 && procs < cap ? procs + 1 : procs;
        int64_t e = v >= 0.1 && v < 0.2 ? est + 1 : est;
        double u = gsl_rng_uniform(rng);
        int64_t runtime = u < 0.3   ? e
                          : u < 0.4 ? 1 + (int64_t)gsl_rng_uniform_int(rng, 5)
                                    : 1 + (int64_t)gsl_rng_uniform_int(rng, (unsigned long)e);
        work += (double)p * (double)runtime;
        hsim_test_add_job(w, (int64_t)i + 1, 0, p, runtime, e);
    }
    space_submits(w, gap, work, cap, load);
    gsl_rng_free(rng);
}

/* Moves every submit time, estimate and runtime of w by 0 to span - 1 us, then
   sorts w again: the schedulers compare times to the microsecond, and the
   workloads above, in whole seconds, never put two ends or starts 1 us
   apart (a bound of conservative's shape cache was once off by one there,
   and only such times showed it). */
static void jitter_us(hsim_workload_t *w, unsigned long seed, unsigned long span)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed ^ 0x5eedu);
    for (size_t i = 0; i < w->n_jobs; i++) {
        hsim_job_t *j = &w->jobs[i];
        j->submit += (hsim_time_t)gsl_rng_uniform_int(rng, span);
        j->estimate += (hsim_time_t)gsl_rng_uniform_int(rng, span);
        j->runtime += (hsim_time_t)gsl_rng_uniform_int(rng, span);
    }
    hsim_workload_sort(w);
    gsl_rng_free(rng);
}

void hsim_test_random_workload_us(hsim_workload_t *w, unsigned long seed, size_t n,
                                  int32_t cap, double load)
{
    hsim_test_random_workload(w, seed, n, cap, load);
    jitter_us(w, seed, 3);
}

void hsim_test_chain_workload_us(hsim_workload_t *w, unsigned long seed, size_t n,
                                 int32_t cap, double load)
{
    hsim_test_chain_workload(w, seed, n, cap, load);
    jitter_us(w, seed, 2);
}

/* A processor-count change at a time, for the capacity sweep. */
typedef struct sweep_ev {
    hsim_time_t t;
    int32_t d;
} sweep_ev_t;

static int sweep_cmp(const void *a, const void *b)
{
    const sweep_ev_t *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->d > y->d) - (x->d < y->d); /* ends (negative) first */
}

/* Invariants of any valid schedule: every job started after its
   submission, ran min(runtime, estimate) with the right fate, and the
   machine was never over-full. */
void hsim_test_check_invariants(const hsim_workload_t *w, const hsim_outcome_t *out,
                                int32_t cap, const char *what)
{
    size_t n = w->n_jobs;
    int bad = 0;
    sweep_ev_t *ev = malloc(2 * n * sizeof *ev);
    for (size_t i = 0; i < n; i++) {
        const hsim_job_t *j = &w->jobs[i];
        const hsim_outcome_t *o = &out[i];
        hsim_time_t ran = j->runtime < j->estimate ? j->runtime : j->estimate;
        int killed = j->runtime > j->estimate || j->killed_at_estimate;
        if (o->start < j->submit || o->end != o->start + ran ||
            o->fate != (killed ? HSIM_FATE_KILLED : HSIM_FATE_RAN)) {
            if (bad++ < 3)
                fprintf(stderr, "\n%s: job %lld: submit %lld start %lld end %lld fate %d\n",
                        what, (long long)j->id, (long long)j->submit, (long long)o->start,
                        (long long)o->end, o->fate);
        }
        ev[2 * i] = (sweep_ev_t){o->start, j->procs};
        ev[2 * i + 1] = (sweep_ev_t){o->end, -j->procs};
    }
    qsort(ev, 2 * n, sizeof *ev, sweep_cmp);
    int32_t used = 0, peak = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        used += ev[i].d;
        if (used > peak)
            peak = used;
    }
    free(ev);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_TRUE(peak <= cap);
    CU_ASSERT_EQUAL(used, 0);
}

int hsim_test_compare_runs(const hsim_workload_t *w, const hsim_outcome_t *a,
                           const hsim_outcome_t *b, const char *what, unsigned long seed)
{
    int diffs = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        if (a[i].start != b[i].start || a[i].end != b[i].end || a[i].fate != b[i].fate) {
            if (diffs++ < 3)
                fprintf(stderr, "\n%s seed %lu: job %lld (index %zu) starts at %.6g, "
                                "the reference at %.6g",
                        what, seed, (long long)w->jobs[i].id, i, (double)a[i].start / S,
                        (double)b[i].start / S);
        }
    if (diffs)
        fprintf(stderr, "\n%s seed %lu: %d jobs differ\n", what, seed, diffs);
    return diffs;
}

/* ---- clusters of several node types ---- */

uint64_t hsim_test_next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 0x2545F4914F6CDD1DULL;
}

int64_t hsim_test_between(uint64_t *x, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(hsim_test_next(x) % (uint64_t)(hi - lo + 1));
}


hsim_node_type_t hsim_test_node_type(const char *name, int32_t count, int32_t cores,
                                     int64_t mem_mb, int32_t gpus, const char *model,
                                     int32_t fpgas)
{
    hsim_node_type_t t;
    memset(&t, 0, sizeof t);
    hsim_strlcpy(t.name, name, sizeof t.name);
    t.count = count;
    t.cores = cores;
    t.mem_mb = mem_mb;
    t.gpus = gpus;
    if (gpus > 0)
        hsim_strlcpy(t.gpu_model, model, sizeof t.gpu_model);
    t.fpgas = fpgas;
    t.speed = 1.0;
    return t;
}

size_t hsim_test_random_cluster(uint64_t *x, hsim_node_type_t *t)
{
    int32_t cpu_cores = (int32_t)hsim_test_between(x, 4, 16);
    t[0] = hsim_test_node_type("cpu", (int32_t)hsim_test_between(x, 2, 5), cpu_cores,
                               cpu_cores * 2048, 0, "", 0);
    t[1] = hsim_test_node_type("gpa", (int32_t)hsim_test_between(x, 1, 3), 16, 65536, 4, "a", 0);
    t[2] = hsim_test_node_type("gpb", (int32_t)hsim_test_between(x, 1, 2), 32, 131072, 8, "b",
                               0);
    t[3] = hsim_test_node_type("fpga", (int32_t)hsim_test_between(x, 1, 2), 8, 32768, 0, "", 2);
    return 4;
}

int32_t hsim_test_random_case(uint64_t *x, hsim_node_type_t *t, hsim_cluster_spec_t *spec,
                              hsim_workload_t *w, size_t n)
{
    size_t nt = hsim_test_random_cluster(x, t);
    int32_t cores = 0;
    for (size_t k = 0; k < nt; k++)
        cores += t[k].count * t[k].cores;
    *spec = (hsim_cluster_spec_t){.types = t, .n_types = nt};
    hsim_workload_init(w);
    hsim_test_random_mixed_jobs(w, x, n, t);
    return cores;
}

void hsim_test_random_mixed_jobs(hsim_workload_t *w, uint64_t *x, size_t n,
                                 const hsim_node_type_t *t)
{
    int ma = hsim_workload_model(w, "a"), mb = hsim_workload_model(w, "b");
    HSIM_ASSERT(ma >= 0 && mb >= 0);
    hsim_time_t at = 0;
    for (size_t i = 0; i < n; i++) {
        hsim_job_t j;
        hsim_job_init(&j);
        j.id = (int64_t)i + 1;
        j.line = j.id;
        at += hsim_test_between(x, 0, 4) == 0 ? hsim_test_between(x, 0, 300) * S
                                              : hsim_test_between(x, 0, 15) * S;
        j.submit = at;
        j.runtime = j.estimate = hsim_test_between(x, 1, 600) * S; /* exact */
        j.user = (int32_t)hsim_test_between(x, 0, 3);
        switch (hsim_test_between(x, 0, 3)) {
        case 0: /* CPU, maybe over several nodes, memory that binds */
            j.procs = (int32_t)hsim_test_between(x, 1, t[0].cores * 2);
            j.mem_mb = j.procs * hsim_test_between(x, 512, 2048);
            break;
        case 1: /* GPUs of any model, or of one */
            j.gpus = (int32_t)hsim_test_between(x, 1, 4);
            j.gpu_milli = 1000;
            j.procs = j.gpus * (int32_t)hsim_test_between(x, 1, 4);
            j.mem_mb = j.gpus * hsim_test_between(x, 1024, 16384);
            j.gpu_models = hsim_test_between(x, 0, 2) == 0 ? 1u << ma : 0;
            break;
        case 2: /* GPUs of model b */
            j.gpus = (int32_t)hsim_test_between(x, 1, 8);
            j.gpu_milli = 1000;
            j.procs = j.gpus * 2;
            j.mem_mb = j.gpus * 8192;
            j.gpu_models = 1u << mb;
            break;
        default: /* FPGAs */
            j.fpgas = (int32_t)hsim_test_between(x, 1, 2);
            j.procs = (int32_t)hsim_test_between(x, 1, 8);
            j.mem_mb = hsim_test_between(x, 1024, 16384);
            break;
        }
        HSIM_ASSERT(hsim_workload_add(w, &j) == 0);
    }
}
