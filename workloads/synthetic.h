/*
 * synthetic.h - synthetic workload generators.
 *
 * Three models, each a params struct, a function that fills it with the
 * documented defaults, and a generator:
 *   lublin  rigid parallel jobs of a supercomputer, after Lublin & Feitelson,
 *           "The workload on parallel supercomputers: modeling the
 *           characteristics of rigid jobs", JPDC 63(11), 2003 (batch jobs);
 *   dl      deep-learning training jobs after Gavel (Narayanan et al.,
 *           "Heterogeneity-aware cluster scheduling policies for deep
 *           learning workloads", OSDI 2020);
 *   mix     scientific (lublin sizes and runtimes), deep-learning (dl) and
 *           big-data (many cores, much memory, no GPU) jobs in given shares,
 *           arriving as one Poisson stream.
 *
 * Determinism: the same params and seed give identical jobs on any machine.
 * Each purpose (arrivals, sizes, runtimes, ...) draws from its own GSL
 * mt19937 stream, seeded from (seed, generator, purpose) through splitmix64,
 * so changing how one quantity is drawn never shifts another.  There is no
 * global state: generators may run in parallel threads.
 *
 * Jobs: times are whole seconds (SWF's unit; integer traces give integer
 * schedules); id = line = the job's 1-based number in arrival order; the
 * jobs come sorted by submission (hsim_workload_sort); fields a model does
 * not set stay as hsim_job_init() leaves them.  The workload's header gets
 * MaxProcs (the machine's cores) and a note naming the generator, the seed
 * and the main parameters, which hsim_swf_write() prints.
 *
 * Shapes and scales must lie in (0, 1e6] (gamma scales b1, b2, b_arr in
 * (0, 1)); arrival times must stay within 10^10 s (HSIM_MAX_SECONDS,
 * what the trace readers take), else HSIM_EINPUT.
 *
 * Offered load, where a generator targets one: the expected work per unit of
 * time over the capacity, E[procs x runtime] / (capacity x E[interarrival]),
 * with the expectations computed in closed form from the model's
 * distributions (not from the sample), so a larger sample converges to it.
 */
#ifndef HSIM_SYNTHETIC_H
#define HSIM_SYNTHETIC_H

#include "workload.h"

#include <gsl/gsl_rng.h>

/*
 * How a generated job's estimate (requested time) follows from its runtime.
 * Generated runtimes are exact, so the estimate is the only source of error a
 * scheduler sees.
 */
typedef struct hsim_estimate_rule {
    double factor;        /* estimate = ceil(runtime x factor) seconds,
                             in [1, 1000]; default 1 (exact estimates) */
    int round_up;         /* 1: then round up to the next "popular" value
                             (1, 2, 5, 10, 15, 20, 30, 45 min; 1, 1.5, 2, 3,
                             4, 5, 6, 8, 10, 12, 16, 18, 24, 36, 48, 72 h;
                             past that, the next whole day), the kind of
                             round request Tsafrir, Etsion & Feitelson (JSSPP
                             2005) found most users choose; 0: no;
                             default 0 */
} hsim_estimate_rule_t;

/* ------------------------------------------------------------------ lublin */

/*
 * The Lublin-Feitelson model's constants.  Defaults are the published batch
 * values, as in lublin99.c, the authors' reference implementation distributed
 * with the Parallel Workloads Archive (the *_BATCH constants there).
 */
typedef struct hsim_lublin_model {
    /* Job size (processors). */
    double serial_prob;   /* P(size = 1), [0, 1]; default 0.2927 */
    double pow2_prob;     /* P(a parallel size rounded to a power of two),
                             of all jobs as in lublin99.c, [0, 1 -
                             serial_prob]; default 0.6686 */
    double u_low;         /* log2 of the smallest parallel size, > 0;
                             default 1.2 */
    double u_med_offset;  /* the two-stage uniform's middle point is
                             u_med = log2(machine_procs) - u_med_offset
                             (kept in [u_low, log2 machine]), >= 0; default
                             2.0 (UMED 5 with UHI 7) */
    double u_prob;        /* probability of the first stage [u_low, u_med],
                             [0, 1]; default 0.875 */
    /* Runtime: ln(runtime in seconds) is hyper-gamma, gamma(a1, b1) with
       probability p = pa x size + pb (kept in [0, 1]), else gamma(a2, b2);
       shape a, scale b. */
    double a1;            /* > 0; default 6.57 */
    double b1;            /* in (0, 1); default 0.823 */
    double a2;            /* > 0; default 639.1 */
    double b2;            /* in (0, 1); default 0.0156 */
    double pa;            /* per processor; default -0.003 */
    double pb;            /* default 0.6986 */
    double runtime_ln_max;/* ln(runtime) above it is drawn again, in
                             (0, 20], keeping >= 1% of each gamma; default
                             12 (TOO_MUCH_TIME, about 45 h) */
    /* Arrivals: ln(interarrival in seconds at the daily mean rate) is
       gamma(a_arr x arar, b_arr); the rate over the day follows the
       gamma(a_num, b_num) density over half-hour buckets counted from
       5:00 (lublin99.c's CYCLIC_DAY_START 11, buckets 1-based). */
    double a_arr;         /* > 0; default 6.0415 */
    double arar;          /* arrive-rush-to-all ratio, > 0; default 1.0519 */
    double b_arr;         /* in (0, 1); default 0.8531 */
    double a_num;         /* > 0; default 6.1271 */
    double b_num;         /* half-hour buckets, > 0; default 5.2740 */
    double arrival_ln_max;/* ln(interarrival) above it is drawn again, in
                             (0, 20], keeping >= 1% of the gamma; default
                             13 (TOO_MUCH_ARRIVE_TIME, about 5 days) */
} hsim_lublin_model_t;

typedef struct hsim_lublin_params {
    size_t n_jobs;        /* jobs to generate, >= 1; default 10000 */
    int32_t machine_procs;/* processors of the machine, the largest job
                             size (need not be a power of two), in
                             (2^model.u_low, 2^24] (so >= 3 by default);
                             default 128 */
    double load;          /* offered load to scale the interarrival times
                             to, in [0.001, 1000]; 0 = the published
                             arrival rate unscaled; default 0 */
    int32_t start_hour;   /* time of day at time 0, hours, [0, 23];
                             default 0 (midnight, as lublin99.c) */
    int32_t n_users;      /* users, drawn uniformly as 1..n_users, >= 0;
                             0 = user -1 (unknown); default 0 */
    hsim_estimate_rule_t estimate; /* default exact */
    hsim_lublin_model_t model;     /* default: the published batch model */
} hsim_lublin_params_t;

/* Fills m / p with the defaults above.  O(1). */
void hsim_lublin_model_defaults(hsim_lublin_model_t *m);
/* The largest machine the Lublin model sizes jobs for: the closed-form load
   sums over every size, and 16 Mi cores is plenty.  The smallest is the
   first above 2^u_low (3 for the published model). */
#define HSIM_LUBLIN_MAX_MACHINE (1 << 24)
void hsim_lublin_defaults(hsim_lublin_params_t *p);

/*
 * Generates p->n_jobs jobs of the Lublin-Feitelson model into w, which the
 * caller has initialised (hsim_workload_init) and which holds no jobs; the
 * caller owns w and frees it with hsim_workload_free().  Sizes: 1 with
 * serial_prob; else 2^x rounded, x from the two-stage uniform, with x itself
 * rounded first with pow2_prob (a power-of-two size is then capped at the
 * largest power of two within the machine).  Runtimes: floor(exp(hyper-
 * gamma)) seconds.  Arrivals: gamma interarrival draws spent through the
 * daily rate profile, as lublin99.c does (a time change by the cumulative
 * rate), times a factor giving the target load when p->load > 0.
 * Returns 0, HSIM_EINPUT (a bad parameter: e names it, what was expected and
 * what was found) or HSIM_ENOMEM; on error w is left empty.
 * O(n_jobs + machine_procs).
 */
int hsim_gen_lublin(const hsim_lublin_params_t *p, uint64_t seed,
                    hsim_workload_t *w, hsim_err_t *e);

/* -------------------------------------------------------------------- dl */

#define HSIM_DL_MAX_SIZES 8   /* GPU counts a dl model can list */

/* Gavel's job model.  Defaults: Gavel's trace generator (OSDI 2020). */
typedef struct hsim_dl_model {
    double p_short;       /* probability of a short job, [0, 1]; default
                             0.8 */
    double short_lo;      /* duration = 60 x 10^U(short_lo, short_hi) s for
                             a short job (log10 of minutes), lo <= hi;
                             default 1.5 */
    double short_hi;      /* default 3 */
    double long_lo;       /* same for a long job; default 3 */
    double long_hi;       /* default 4 */
    size_t n_sizes;       /* entries used in gpu_sizes / gpu_probs,
                             1..HSIM_DL_MAX_SIZES; default 4 */
    int32_t gpu_sizes[HSIM_DL_MAX_SIZES]; /* GPUs of a job, >= 1; default
                             1, 2, 4, 8 */
    double gpu_probs[HSIM_DL_MAX_SIZES];  /* their probabilities, >= 0,
                             summing to 1 (within 1e-6); default 0.70, 0.10,
                             0.15, 0.05 */
    int32_t cpus_per_gpu; /* cores a job takes per GPU (procs = gpus x
                             cpus_per_gpu), >= 1; default 1 */
} hsim_dl_model_t;

typedef struct hsim_dl_params {
    size_t n_jobs;        /* jobs to generate, >= 1; default 10000 */
    int32_t cluster_gpus; /* GPUs of the cluster (G), >= the largest job;
                             default 64 */
    double load;          /* offered GPU load: Poisson arrivals at rate
                             load x G / E[gpus x duration], in [0.001,
                             1000]; default 0.8 */
    const char *const *classes; /* job type names, drawn uniformly into
                             job_class; NULL = Gavel's ResNet-18, ResNet-50,
                             Transformer, LM, Recommendation, A3C,
                             CycleGAN; default NULL */
    size_t n_classes;     /* entries in classes, 1..HSIM_MAX_CLASSES when
                             classes is set; default 0 */
    int32_t n_users;      /* users, drawn uniformly as 1..n_users, >= 0;
                             0 = user -1; default 0 */
    hsim_dl_model_t model;
} hsim_dl_params_t;

void hsim_dl_model_defaults(hsim_dl_model_t *m);
void hsim_dl_defaults(hsim_dl_params_t *p);

/*
 * Generates p->n_jobs deep-learning jobs into w (initialised, empty, owned
 * by the caller): gpus from the size table (gpu_milli 1000), procs = gpus x
 * cpus_per_gpu, runtime = estimate = the duration rounded to whole seconds,
 * job_class uniform over the names (interned in w->classes), Poisson
 * arrivals.  E[gpus x duration] = E[gpus] x E[duration] (independent), with
 * E[60 x 10^U(a,b)] = 60 (10^b - 10^a) / ((b - a) ln 10).  Returns 0,
 * HSIM_EINPUT (e names the parameter) or HSIM_ENOMEM; on error w is left
 * empty.  O(n_jobs).
 */
int hsim_gen_dl(const hsim_dl_params_t *p, uint64_t seed, hsim_workload_t *w,
                hsim_err_t *e);

/* ------------------------------------------------------------------- mix */

/* hsim's big-data job model (Spark-like executors; no published source). */
typedef struct hsim_bigdata_model {
    int32_t cores_min;    /* smallest job, cores, >= 1; default 8 */
    int32_t cores_max;    /* largest job, cores, >= cores_min; default 64 */
    int32_t cores_step;   /* sizes are cores_min + k x step up to cores_max,
                             uniformly, >= 1; default 8 (8, 16, ..., 64) */
    double runtime_median_s; /* runtime is lognormal with this median,
                             seconds, in (0, 1e8]; default 1800 (runtimes
                             are capped at 1e9 s) */
    double runtime_sigma; /* and this sigma of ln(runtime), [0, 10];
                             default 1.0 (mean 1.65 x the median) */
    int64_t mem_mb_per_core; /* mem_mb = cores x this, MiB, >= 0; default
                             8192 (memory-heavy: 8 GiB per core) */
} hsim_bigdata_model_t;

enum { HSIM_MIX_SCIENTIFIC, HSIM_MIX_DL, HSIM_MIX_BIGDATA, HSIM_MIX_KINDS };

typedef struct hsim_mix_params {
    size_t n_jobs;        /* jobs to generate, >= 1; default 10000 */
    int32_t cluster_cpus; /* cores of the cluster, also the largest
                             scientific job, in (2^scientific.u_low, 2^24];
                             default 1024 */
    int32_t cluster_gpus; /* GPUs of the cluster, >= the largest dl job
                             when share[HSIM_MIX_DL] > 0; default 64 */
    int32_t max_job_cores;/* the largest scientific job, cores, in
                             (2^scientific.u_low, cluster_cpus]; 0 = the
                             whole cluster; default 0 */
    double load;          /* offered load of the busier of cores and GPUs,
                             in [0.001, 1000]; default 0.8 */
    double share[HSIM_MIX_KINDS]; /* probability of each class, >= 0,
                             summing to 1 (within 1e-6); indices
                             HSIM_MIX_*; default 0.5, 0.3, 0.2 */
    int32_t n_users;      /* users, uniformly 1..n_users, >= 0; 0 = -1 */
    hsim_estimate_rule_t estimate; /* scientific and big-data jobs; a dl
                             job's estimate is its duration; default exact */
    hsim_lublin_model_t scientific; /* sizes and runtimes of scientific
                             jobs (its arrival constants are unused);
                             default: the published batch model */
    hsim_dl_model_t dl;   /* default: Gavel's */
    hsim_bigdata_model_t bigdata; /* default as above */
} hsim_mix_params_t;

void hsim_bigdata_model_defaults(hsim_bigdata_model_t *m);
void hsim_mix_defaults(hsim_mix_params_t *p);

/*
 * Generates p->n_jobs jobs into w (initialised, empty, owned by the caller):
 * one Poisson stream; each job's class drawn by the shares and named in
 * job_class ("scientific", "deep-learning", "big-data", interned in that
 * order, so their indices are 0, 1, 2).  Scientific jobs: lublin size (for a
 * machine of cluster_cpus) and runtime, CPU only.  Deep-learning jobs: as
 * hsim_gen_dl.  Big-data jobs: CPU only, cores and mem_mb from the big-data
 * model.  The rate makes max(core load, GPU load) = p->load, each computed
 * in closed form over the class mix.  Returns 0, HSIM_EINPUT (e names the
 * parameter) or HSIM_ENOMEM; on error w is left empty.
 * O(n_jobs + cluster_cpus).
 */
int hsim_gen_mix(const hsim_mix_params_t *p, uint64_t seed, hsim_workload_t *w,
                 hsim_err_t *e);

/* The purposes that random streams are drawn for, one tag each: streams of
   one seed with different tags are unrelated, so each must stay distinct
   (and keep its value: a seed's workloads depend on it). */
enum hsim_stream_tag {
    HSIM_STREAM_LUBLIN = 1,       /* hsim_gen_lublin()'s streams */
    HSIM_STREAM_DL = 2,           /* hsim_gen_dl()'s */
    HSIM_STREAM_MIX = 3,          /* hsim_gen_mix()'s */
    HSIM_STREAM_ACCELERATORS = 4, /* SWF jobs made GPU or FPGA jobs */
    HSIM_STREAM_WORKFLOWS = 5,    /* hsim_gen_workflows()'s random DAGs */
    HSIM_STREAM_FAILURES = 6,     /* node failures and repairs (sim/failures.c) */
};

/* One mt19937 stream seeded from (seed, tag) as the generators' streams are
   (through splitmix64): every bit of the seed counts, and two seeds give
   one stream with a chance of 2^-32 (GSL's 32-bit seed).  0 or
   HSIM_ENOMEM; the caller frees *r with gsl_rng_free(). */
int hsim_synth_stream(gsl_rng **r, uint64_t seed, uint64_t tag);

#endif
