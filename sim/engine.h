/*
 * engine.h - the discrete-event engine: replays a workload under one policy.
 *
 * The engine owns the clock, the job states and the processor ledger.  It
 * handles events one at a time in (time, kind, sequence) order, runs one
 * scheduling pass after every submission and every termination, and applies
 * the policy's decisions after checking them.
 */
#ifndef HSIM_ENGINE_H
#define HSIM_ENGINE_H

#include "../policies/policy.h"
#include "../predictor/predictor.h"
#include "../workloads/workload.h"

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
} hsim_outcome_t;

typedef struct hsim_run_config {
    int32_t capacity;                    /* processors */
    const hsim_order_t *order;           /* queue order */
    const hsim_order_t *backfill_order;  /* NULL = queue order */
    const hsim_scheduler_t *scheduler;   /* backfilling discipline */
    const hsim_predictor_t *predictor;   /* planning estimates */
} hsim_run_config_t;

typedef struct hsim_run_stats {
    uint64_t events;       /* events handled */
    uint64_t passes;       /* scheduling passes */
    size_t max_waiting;    /* longest queue seen */
} hsim_run_stats_t;

/*
 * Replays w (jobs sorted by submission) under cfg.  out must hold w->n_jobs
 * outcomes (index = position in w->jobs); stats may be NULL.  Returns 0,
 * HSIM_ENOMEM, or HSIM_EINPUT when a policy made an impossible decision or
 * left jobs that can never start (e names the job).  Cost: O(events log
 * events) plus what the policy spends.
 */
int hsim_engine_run(const hsim_workload_t *w, const hsim_run_config_t *cfg,
                    hsim_outcome_t *out, hsim_run_stats_t *stats, hsim_err_t *e);

#endif
