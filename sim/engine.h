/*
 * engine.h - the discrete-event engine: replays a workload under one policy.
 *
 * The engine is a driver of the core (core.h), which owns the job states,
 * the ledger and the policies, and checks and applies their decisions; the
 * engine owns the simulated clock and the trace's runtimes.  It handles
 * events one at a time in (time, kind, sequence) order, and the core runs
 * one scheduling pass after every submission and every termination.
 */
#ifndef HSIM_ENGINE_H
#define HSIM_ENGINE_H

#include "../policies/placement.h"
#include "../policies/policy.h"
#include "../predictor/predictor.h"
#include "../workloads/workload.h"

struct hsim_failures;

typedef enum hsim_job_fate {
    HSIM_FATE_PENDING = 0,  /* not yet submitted, or never started */
    HSIM_FATE_RAN = 1,      /* ran to completion */
    HSIM_FATE_KILLED = 2,   /* killed at its requested time */
} hsim_job_fate_t;

/* What happened to one job in one run. */
typedef struct hsim_outcome {
    hsim_time_t start;  /* when it started, -1 if never */
    hsim_time_t end;    /* when it ended, -1 if never */
    int32_t fate;       /* hsim_job_fate_t */
    int32_t node;       /* first node of its allocation, -1 on a plain
                           processor pool */
    int32_t nodes;      /* nodes it ran on, 0 on a processor pool */
    float speed;        /* speed of its allocation (1 = reference) */
    hsim_time_t submit_shift; /* when it was submitted minus its trace
                           submit: 0 unless it waited for parents (deps.h);
                           see hsim_outcome_submit() */
} hsim_outcome_t;

/* When job j, whose outcome is o, was submitted (entered the queue). */
static inline hsim_time_t hsim_outcome_submit(const hsim_job_t *j, const hsim_outcome_t *o)
{
    return j->submit + o->submit_shift;
}

/* On a cluster of nodes, what one job held (all 0 when it never ran).
   Apart from hsim_outcome_t, which a pool's replay keeps small. */
typedef struct hsim_held {
    int32_t cores;      /* cores */
    int32_t fpgas;      /* FPGAs */
    int64_t mem_mb;     /* memory, MiB */
    int64_t gpu_milli;  /* GPUs in thousandths (whole ones count 1000) */
    int64_t ranges;     /* its nodes as ranges ("0-3;7", node indices in
                           ascending order), at this offset of the run's
                           hsim_run_stats_t ranges; -1 when none */
} hsim_held_t;

/*
 * A heterogeneous cluster for a run: node types, and the speed of each job
 * class (the workload's classes) on each node type.
 */
typedef struct hsim_cluster_spec {
    const hsim_node_type_t *types;  /* [n_types] */
    size_t n_types;
    const double *class_speed;      /* [n_classes * n_types], see hsim_speeds_t;
                                       NULL = defaults only */
    size_t n_classes;
} hsim_cluster_spec_t;

typedef struct hsim_run_config {
    int32_t capacity;                    /* processors */
    const hsim_order_t *order;           /* queue order */
    const hsim_order_t *backfill_order;  /* NULL = queue order */
    const hsim_scheduler_t *scheduler;   /* backfilling discipline */
    const hsim_predictor_t *predictor;   /* planning estimates */
    const char *predictor_model;         /* estimate.model, NULL or "" none */
    size_t predictor_retrain;            /* estimate.retrain, 0 never */
    double predictor_under_weight;       /* estimate.under_weight, 0 = 1 */
    const hsim_cluster_spec_t *cluster;  /* NULL: a pool of capacity processors */
    const hsim_placement_t *placement;   /* with cluster: where jobs run */
    hsim_spread_t spread;                /* with cluster: pack or spread */
    const struct hsim_failures *failures;/* with cluster: nodes that fail
                                            (failures.h); NULL: none */
    int preempt;                         /* 0 off, else hsim_stop_mode_t: the
                                            head of the queue may stop jobs
                                            the order ranks lower
                                            (policies/preempt.h) */
    hsim_time_t preempt_grace;           /* with preempt: a job runs this long
                                            after each start before it may be
                                            stopped, >= 0 */
    hsim_time_t switch_cost;             /* added to what is left of a job at
                                            each resume after a suspension or
                                            a checkpoint by a policy, >= 0 */
    hsim_time_t quantum;                 /* a time-slicing scheduler's slice
                                            (backfill = rr), > 0 */
    /* Called every progress_every events with the jobs ended so far (a
       progress line, sim/progress.h); NULL: never.  It must not touch
       the run: the schedule is the same with it or without. */
    void (*progress)(void *arg, size_t jobs_ended);
    void *progress_arg;
    uint64_t progress_every;             /* events between calls, >= 1 */
    const hsim_param_set_t *values;      /* the plug-ins' parameters
                                            (NULL: their defaults) */
    uint64_t seed;                       /* the experiment's seed, for an
                                            order that draws numbers */
    size_t jobs_hint;                    /* room the core makes for jobs at
                                            first; 0: the workload's jobs
                                            (a test gives 1, so that every
                                            table grows as jobs come) */
} hsim_run_config_t;

/* An attempt of a job that a stop cut short (its last run is in its
   outcome). */
typedef struct hsim_attempt {
    int32_t job;           /* job index */
    hsim_time_t start, end;/* when it ran */
    int64_t ranges;        /* its nodes, at this offset of the stats'
                              ranges; -1 on a pool */
} hsim_attempt_t;

typedef struct hsim_run_stats {
    uint64_t events;       /* events handled */
    uint64_t passes;       /* scheduling passes */
    uint64_t expiries;     /* running jobs that outlived their prediction */
    size_t max_waiting;    /* longest queue seen */
    /* With a cluster: resource-seconds used, per kind. */
    double core_s;         /* cores x seconds */
    double mem_s;          /* MiB x seconds */
    double fpga_s;         /* FPGAs x seconds */
    double gpu_s[HSIM_MAX_GPU_MODELS]; /* GPUs x seconds, per cluster GPU model */
    double all_gpu_s;      /* GPUs x seconds, all GPUs (a model or none) */
    hsim_time_t *node_busy;/* [n_nodes] time each node had >= 1 job; the
                              caller frees it (hsim_free) */
    int32_t *node_jobs;    /* [n_nodes] jobs that ran there; caller frees */
    size_t n_nodes;
    hsim_held_t *held;     /* [jobs] what each job held; caller frees */
    char *ranges;          /* the jobs' node ranges, each ended by a NUL
                              (see hsim_held_t); caller frees */
    size_t n_ranges, cap_ranges; /* bytes used, allocated */
    /* With failures (cfg->failures): */
    int32_t *starts;       /* [jobs] times each job started; caller frees */
    hsim_time_t *lost;     /* [jobs] time each job ran in attempts a failure
                              cut short, less the work a checkpoint kept;
                              caller frees */
    uint64_t failures;     /* node failures during the run */
    uint64_t jobs_hit;     /* jobs that a failure stopped at least once */
    double lost_core_s;    /* sum of lost x cores held, core-seconds */
    double down_node_s;    /* node-seconds down, from the first submission
                              to the last end */
    double availability;   /* 1 - down_node_s / (nodes x that span), 0..1 */
    /* With preemption (cfg->preempt, or a scheduler that stops_jobs): */
    hsim_time_t *ran;      /* [jobs] time each job ran, all its attempts
                              (suspensions excluded); caller frees */
    uint64_t preemptions;  /* jobs a policy stopped, counted per stop */
    /* With failures or preemption: every attempt a stop cut short, in the
       order of the stops; caller frees. */
    hsim_attempt_t *attempts;
    size_t n_attempts, cap_attempts;
    /* With a queue order that reports (hsim_order_t's report()): */
    char *order_report;    /* what it wrote, NUL-terminated; caller frees
                              (hsim_free); NULL for none */
    size_t order_report_len; /* its length, bytes */
} hsim_run_stats_t;

/*
 * The request placement sees for job j of workload w (never its runtime).
 * model_map[i] is the cluster's model bit for the workload's GPU model i
 * (0 when the cluster has no such model).  O(models).
 */
void hsim_engine_request(const hsim_workload_t *w, const hsim_job_t *j,
                         const uint32_t *model_map, hsim_request_t *q);
/* Fills model_map[0..w->n_models) for cluster c. */
void hsim_engine_model_map(const hsim_workload_t *w, const hsim_cluster_t *c,
                           uint32_t *model_map);

/*
 * Replays w (jobs sorted by submission) under cfg.  out must hold w->n_jobs
 * outcomes (index = position in w->jobs); stats may be NULL (when not, the
 * caller frees stats->node_busy, node_jobs, held and ranges, also after
 * an error).  Returns 0,
 * HSIM_ENOMEM, or HSIM_EINPUT when a policy made an impossible decision or
 * left jobs that can never start (e names the job).  Cost: O(events log
 * events) plus what the policy spends.
 */
int hsim_engine_run(const hsim_workload_t *w, const hsim_run_config_t *cfg,
                    hsim_outcome_t *out, hsim_run_stats_t *stats, hsim_err_t *e);
/* Frees what a run's stats hold (hsim_engine_run() with stats) and zeroes
   them; a zeroed one is allowed. */
void hsim_run_stats_free(hsim_run_stats_t *st);

#endif
