/*
 * synth_internal.h - what the synthetic generators share, not part of
 * hsim's API (hence the hsim__ prefix): seeded RNG streams, parameter
 * checks with uniform messages, the estimate rule, the job-array
 * bookkeeping, and the lublin and dl samplers that hsim_gen_mix reuses.
 */
#ifndef HSIM_SYNTH_INTERNAL_H
#define HSIM_SYNTH_INTERNAL_H

#include "synthetic.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/* ---- RNG streams (synthetic.c) ---- */

/*
 * Allocates n mt19937 streams into r[0..n-1], stream i seeded from (seed,
 * tag, i) through splitmix64; tag tells generators apart.  Returns 0 or
 * HSIM_ENOMEM (then nothing is left allocated).  Free with
 * hsim__synth_rngs_free(), which accepts NULL entries.  O(n).
 */
int hsim__synth_rngs_alloc(gsl_rng **r, size_t n, uint64_t seed, uint64_t tag);
void hsim__synth_rngs_free(gsl_rng **r, size_t n);

/* ---- parameter checks (synthetic.c) ---- */

/*
 * Each returns 0 when the value is acceptable, else HSIM_EINPUT with e set to
 * "<gen>: parameter '<name>': expected <what>, found <value>".  NaN always
 * fails.  lo/hi bounds: *_open makes the bound exclusive; hi = INFINITY
 * means no upper bound.
 */
int hsim__synth_check_real(hsim_err_t *e, const char *gen, const char *name,
                           double v, double lo, int lo_open, double hi,
                           int hi_open);
int hsim__synth_check_int(hsim_err_t *e, const char *gen, const char *name,
                          int64_t v, int64_t lo, int64_t hi);
/* n_jobs, n_users and the estimate rule, common to all generators. */
int hsim__synth_check_common(hsim_err_t *e, const char *gen, size_t n_jobs,
                             int32_t n_users, const hsim_estimate_rule_t *est);

/* ---- jobs ---- */

/* Estimate in whole seconds for a runtime in whole seconds (>= 1). */
int64_t hsim__synth_estimate(const hsim_estimate_rule_t *rule, int64_t runtime_s);
/* User id: 1..n_users uniformly, or -1 when n_users is 0. */
int32_t hsim__synth_user(gsl_rng *r, int32_t n_users);
/* Reserves room for n jobs in w (which must hold none).  0 or HSIM_ENOMEM. */
int hsim__synth_reserve(hsim_workload_t *w, size_t n);
/* 0 while an arrival time (seconds) is within 10^10 s (HSIM_MAX_SECONDS,
   what the trace readers take, so that hsim gen's traces read back), else
   HSIM_EINPUT saying that jobs and load ask for more time than that. */
int hsim__synth_check_time(hsim_err_t *e, const char *gen, double t_s);
/* A fresh job numbered number (id = line), submitted at submit_s. */
void hsim__synth_job(hsim_job_t *j, size_t number, double submit_s);
/* Sorts w by (submit, line) (O(n) when already in order), sets n_input
   and names the computer in the header ("hsim synthetic cluster"); on
   rc != 0 empties w instead.  Returns rc. */
int hsim__synth_finish(hsim_workload_t *w, int rc);

/* ---- the Lublin-Feitelson sampler (synth_lublin.c) ---- */

typedef struct hsim__lublin {
    const hsim_lublin_model_t *m;
    int32_t machine;      /* processors, > 2^u_low */
    double u_hi;          /* log2(machine) */
    double u_med;         /* middle point, in [u_low, u_hi] */
    int32_t max_pow2;     /* largest power of two <= machine */
} hsim__lublin_t;

/* Checks m for a machine of machine procs and fills s.  Messages start with
   gen and name the model's fields <prefix><field> and the machine size
   machine_name.  0 or HSIM_EINPUT.  O(1). */
int hsim__lublin_prepare(hsim__lublin_t *s, const hsim_lublin_model_t *m,
                         int32_t machine, const char *machine_name,
                         const char *gen, const char *prefix, hsim_err_t *e);
/* One job size in [1, machine]; three draws at most.  O(1). */
int32_t hsim__lublin_size(const hsim__lublin_t *s, gsl_rng *r);
/* One runtime, whole seconds >= 1, for a job of procs processors.  O(1)
   expected (rejection above runtime_ln_max). */
int64_t hsim__lublin_runtime(const hsim__lublin_t *s, gsl_rng *r, int32_t procs);
/* E[procs x runtime], processor-seconds, in closed form over the exact size
   distribution (floor(exp(.)) taken as exp(.): off by < 0.5 s a job).
   O(machine). */
double hsim__lublin_mean_work(const hsim__lublin_t *s);

/* ---- the Gavel sampler (synth_dl.c) ---- */

typedef struct hsim__dl {
    const hsim_dl_model_t *m;
    gsl_ran_discrete_t *sizes; /* over m->gpu_probs; owned */
} hsim__dl_t;

/* Checks m against a cluster of cluster_gpus GPUs (names parameters as
   <prefix><field>).  0 or HSIM_EINPUT.  O(n_sizes). */
int hsim__dl_check(const hsim_dl_model_t *m, int32_t cluster_gpus,
                   const char *gen, const char *prefix, hsim_err_t *e);
/* Builds the size table of a checked model.  0 or HSIM_ENOMEM; release with
   hsim__dl_release(), which accepts a failed or zeroed s. */
int hsim__dl_prepare(hsim__dl_t *s, const hsim_dl_model_t *m);
void hsim__dl_release(hsim__dl_t *s);
/* One duration (whole seconds >= 1), one GPU count.  O(1). */
int64_t hsim__dl_duration(const hsim__dl_t *s, gsl_rng *r);
int32_t hsim__dl_gpus(const hsim__dl_t *s, gsl_rng *r);
/* E[duration] in seconds and E[gpus], in closed form.  O(n_sizes). */
double hsim__dl_mean_duration(const hsim_dl_model_t *m);
double hsim__dl_mean_gpus(const hsim_dl_model_t *m);

#endif
