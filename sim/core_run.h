/*
 * core_run.h - internal to the core (core.c, core_faults.c, core_stops.c,
 * core_orders.c): its state, and the functions its files share.  Not part
 * of hsim's API: the hsim__ prefix marks them.  Drivers use core.h.
 */
#ifndef HSIM_CORE_RUN_H
#define HSIM_CORE_RUN_H

#include "core.h"

#include "failures.h"
#include "heap.h"
#include "idmap.h"
#include "invariants.h"
#include "planner.h"

#include <gsl/gsl_rng.h>

struct hsim_core {
    const hsim_run_config_t *cfg;
    hsim_driver_t drv;
    hsim_err_t *e;
    size_t n_jobs;             /* jobs added: indices 0..n_jobs-1 */
    size_t cap_jobs;           /* room in every per-job table */
    const hsim_job_t **job;    /* the driver's jobs, by index */

    hsim_vjob_t *vjobs;        /* what policies see, by job index */
    uint8_t *state;            /* job_state below */
    int64_t *start_seq;        /* start order of running jobs */
    hsim_time_t *start;        /* when each running job (last) started */
    float *speed;              /* and the speed of its allocation */

    int32_t *waiting;          /* submission order; -1 = a hole */
    size_t n_waiting, cap_waiting; /* slots used (holes included), allocated */
    size_t waiting_holes;      /* -1 entries in waiting[] */
    size_t *wslot;             /* slot of a waiting job in waiting[] */
    hsim_running_t *running;   /* by (est_end, start_seq) */
    int64_t *running_seq;      /* start_seq parallel to running[] */
    size_t n_running, cap_running, cap_running_seq; /* entries, holes included */
    size_t running_holes;      /* ordered: entries that are holes (job -1)... */
    size_t running_first;      /* ...all those before this one among them */
    int ordered;               /* running[] kept in est_end order (the
                                  scheduler reads it); else unordered, with: */
    size_t *rpos;              /* slot of each running job in running[] */
    hsim_rheap_t ends;         /* running jobs by (est_end, start order) */
    int32_t running_procs;

    hsim_reserved_t reservations; /* reserved starts, one per job at most */
    int64_t seq;               /* next reserved start's sequence number */
    int64_t starts;            /* next start order */
    hsim_time_t now;
    hsim_view_t view;
    hsim_decide_t decide;

    void *sched_state;
    void *order_state;         /* the queue order's per-run state, or NULL */
    void *bf_order_state;      /* the backfilling order's, or NULL */
    void *pred_state;
    hsim_run_stats_t stats;

    /* With a cluster (cfg->cluster != NULL): */
    hsim_cluster_t cluster;    /* the ledger */
    int has_cluster;
    void *place_state;
    const hsim_placement_t *fallback; /* first-fit, packed: see place_job() */
    void *fallback_state;
    size_t n_placed;        /* jobs holding resources on the cluster */
    hsim_alloc_t *allocs;      /* allocation of each running job */
    hsim_time_t *est_end;      /* planned end of each running job */
    hsim_time_t *full_end;     /* with a predictor that underpredicts: the
                                  planned end of each running job on its
                                  requested time, for its expiry */
    /* With a predictor that revises: the waiting jobs of each user, as
       lists through the jobs (users numbered 0.. as they come), and the
       jobs whose estimate the last revision changed. */
    hsim_idmap_t users;        /* user id -> user number */
    int32_t *user_of;          /* each job's user number */
    int32_t *user_first;       /* each user's first waiting job, or -1 */
    int32_t *user_last;        /* and last (in submission order) */
    size_t cap_users;          /* room in user_first[] and user_last[] */
    int32_t *wnext, *wprev;    /* the next and previous in its user's list */
    int32_t *revised;          /* the view's revised[] */
    int32_t *deferred;         /* reserved starts that could not be placed,
                                  retried after each termination */
    size_t n_deferred, cap_deferred;
    uint32_t *model_map;       /* job GPU model i -> cluster model bits */
    size_t n_models;           /* the jobs' GPU models */
    hsim_request_t *requests;  /* the view's requests[], by job index */
    hsim_planner_t *planner;   /* the view's planner */
    hsim_alloc_t *resv_alloc;  /* by job index: the nodes of a reservation
                                  made with reserve_on() (NULL until one) */
    hsim_time_t *resv_at;      /* by job index, beside it: the reserved
                                  start, -1 when none */
    /* With failures (cfg->failures != NULL, on a cluster): */
    const hsim_failures_t *fail;
    hsim_time_t *down_since;   /* by node: when it went down, -1 when up */
    hsim_time_t *down_total;   /* by node: time down before down_since,
                                  from fail_origin on */
    hsim_time_t fail_origin;   /* when the run began (the setup's origin) */
    hsim_time_t *done;         /* by job: reference work a checkpoint kept */
    hsim_time_t *cost;         /* by job: restart cost of its next (or
                                  current) attempt, reference time */
    int32_t *victims;          /* scratch: the jobs a failure stops... */
    hsim_time_t *victim_start; /* ...their starts and planning estimates,
                                  for the scheduler's ended() */
    hsim_time_t *victim_est;
    size_t n_done;             /* jobs that ended */
    size_t n_submitted;        /* jobs submitted so far (those that wait for
                                  parents come later than their turn) */
    /* Jobs that stop and come back (failures or preemption): */
    int stops;                 /* done, cost and the stats' starts and lost
                                  are kept */
    hsim_alloc_t *susp;        /* by job: a suspended job's whole allocation,
                                  to take back at its resume (n 0: none);
                                  its memory stays held in allocs[] */
    int32_t *stopped;          /* the jobs stopped by decisions of this
                                  pass, to announce (the preemption pass)... */
    size_t n_stopped;          /* ...how many */
    hsim_time_t wake_last;     /* the time of the last wake asked, -1 */
    void *preempt_state;       /* the preemption pass's (preempt.h) */
    /* Every per-job table, to grow them together (hsim__grow_jobs()). */
    struct job_table {
        void **p;              /* the table (NULL: not kept in this run) */
        size_t size;           /* bytes per job */
    } tables[40];
    size_t n_tables;
#ifdef HSIM_INVARIANTS
    void *inv_scratch;         /* hsim_invariants_check()'s, all 0 */
#endif
};

enum job_state {
    JOB_FUTURE = HSIM_JOB_FUTURE, /* as invariants.h names them */
    JOB_WAITING = HSIM_JOB_WAITING,
    JOB_RUNNING = HSIM_JOB_RUNNING,
    JOB_DONE = HSIM_JOB_DONE
};

/* core.c: the ledger, the view and the queue */
void hsim__refresh_view(hsim_core_t *c);
int hsim__grow_jobs(hsim_core_t *c, size_t n);
int hsim__keep_table(hsim_core_t *c, void *table, size_t size);
int hsim__past_horizon(hsim_core_t *c, int32_t job, const char *what);
void hsim__release_job(hsim_core_t *c, int32_t job);
void hsim__count_use(hsim_core_t *c, int32_t job);
int hsim__placed(hsim_core_t *c, int32_t job);
int hsim__retry_deferred(hsim_core_t *c);
void hsim__settle_ending(hsim_core_t *c);
void hsim__leave_running(hsim_core_t *c, int32_t job);
int hsim__enqueue_job(hsim_core_t *c, int32_t job);
int hsim__announce_job(hsim_core_t *c, int32_t job);
/* The orders' state and hooks (core_orders.c, policy.h).  create: 0 or
   an order's error.  destroy: with ok, the queue order's report() into
   c->stats first (0, HSIM_ENOMEM or HSIM_EIO).  grow: room for n jobs.
   pass: before the scheduler hears of an event; started, ended: after a
   job started or ended.  Each returns 0 or an order's negative code. */
int hsim__orders_create(hsim_core_t *c);
int hsim__orders_destroy(hsim_core_t *c, int ok);
int hsim__orders_grow(hsim_core_t *c, size_t n);
int hsim__order_pass(hsim_core_t *c);
int hsim__order_started(hsim_core_t *c, int32_t job);
int hsim__order_ended(hsim_core_t *c, int32_t job, hsim_time_t start);

/* core_stops.c: jobs that stop and come back */
int hsim__setup_stops(hsim_core_t *c);
void hsim__close_stops(hsim_core_t *c);
/* 0 or HSIM_ENOMEM (its attempt could not be recorded). */
int hsim__stop_job(hsim_core_t *c, int32_t job, int mode, hsim_time_t next_cost);
int hsim__resume_job(hsim_core_t *c, int32_t job);
void hsim__drop_hold(hsim_core_t *c, int32_t job, int32_t node);
int hsim__schedule_pass(hsim_core_t *c);
int hsim__decide_stop(void *ctx, int32_t job, int mode);
int hsim__decide_wake(void *ctx, hsim_time_t at);

/* core_faults.c: node failures */
int hsim__setup_failures(hsim_core_t *c);
void hsim__close_failures(hsim_core_t *c);

#endif
