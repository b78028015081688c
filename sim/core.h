/*
 * core.h - the core that every driver shares: the ledger of a run and the
 * view its policies read.
 *
 * The core keeps the jobs a driver has told it of (waiting, running,
 * ended), the cluster's ledger (what each node has free), each job's
 * planning estimate and its revisions, the reservations policies made,
 * and the policies themselves; it checks and applies their decisions.  It
 * keeps no clock and runs no job: a driver tells it the time, the jobs
 * that arrive, end, outlive their estimate, and the nodes that fail, and
 * hears through hsim_driver_t which jobs to start or stop and when to
 * call back.  The event engine (engine.c) is one driver, with a simulated
 * clock and the trace's runtimes; a live driver is another, with a real
 * clock and real processes.
 *
 * Nothing here assumes the run's jobs are known in advance: a job gets
 * its index when it is added (hsim_core_add()), indices grow with the
 * run, and every per-job table, the policies' included (their grow()
 * hooks, policy.h), grows with them.  A job's index is its rank among the
 * jobs added, which policies take for submission order.
 */
#ifndef HSIM_CORE_H
#define HSIM_CORE_H

#include "engine.h"
#include "heap.h"

typedef struct hsim_core hsim_core_t;

/* What a driver does for the core.  Each callback runs inside a call to
   the core; it may read the core (hsim_core_alloc(), hsim_core_work_left()
   and the other functions that take a const core) but change nothing. */
typedef struct hsim_driver {
    void *arg;
    /* Job has just started at now, on hsim_core_alloc() (a cluster) at
       speed; expiry is when it will have outlived its planning estimate
       (-1: the core need not hear of it).  The driver runs it, calls
       hsim_core_end() when it ends and, when it still runs at expiry,
       hsim_core_expire() then.  0 or a negative code. */
    int (*started)(void *arg, int32_t job, double speed, hsim_time_t expiry);
    /* Job, running, was stopped at now (a node failure or a policy): its
       run is over, and the driver forgets its end and its expiry. */
    void (*stopped)(void *arg, int32_t job);
    /* Job has ended and left the ledger, before the policies hear of it
       (a driver releases the jobs that waited for it).  NULL: nothing. */
    int (*ended)(void *arg, int32_t job);
    /* Has job, running for the core, finished at now, its end still to be
       reported in this instant?  Lets placement see free what the
       scheduler already counts free.  NULL: never. */
    int (*finished)(void *arg, int32_t job);
    /* The reference work job needs in all, when the driver knows it (a
       replay of a trace); -1 when it does not (live).  A stop keeps no
       more of it than that.  NULL: never known. */
    hsim_time_t (*work)(void *arg, int32_t job);
    /* The core asks to be called (hsim_core_wake()) at time at >= now.
       0 or a negative code. */
    int (*timer)(void *arg, hsim_time_t at);
} hsim_driver_t;

typedef struct hsim_core_setup {
    const hsim_run_config_t *cfg;   /* policies, cluster, preemption...
                                       (its progress fields are the
                                       driver's) */
    const hsim_driver_t *driver;
    const char (*models)[HSIM_LABEL_MAX]; /* the jobs' GPU model names (a
                                       job's gpu_models bits)... */
    size_t n_models;                /* ...and how many */
    int64_t unix_start;             /* the jobs' time origin, for the
                                       predictors' hour of day and weekday;
                                       HSIM_HEADER_ABSENT when unknown */
    int64_t time_zone;              /* likewise */
    hsim_time_t origin;             /* when the run begins (its first
                                       submission): nodes are down from
                                       then on at the earliest */
    size_t jobs_hint;               /* jobs expected: room is made for them
                                       at once; more may come */
    hsim_err_t *e;                  /* where errors are described */
} hsim_core_setup_t;

/* A core for one run.  0, HSIM_ENOMEM or a policy's error. */
int hsim_core_create(const hsim_core_setup_t *s, hsim_core_t **out);
/* Frees it.  With stats, the run's figures go there (closed at now; the
   caller frees them, hsim_run_stats_free()), with ok the queue order's
   report among them.  Returns 0, or that report's error.  NULL: nothing. */
int hsim_core_destroy(hsim_core_t *c, int ok, hsim_run_stats_t *stats);

/* The time now.  0, or HSIM_EINPUT for a time earlier than the last one
   given or past HSIM_HORIZON (a live driver's clock must be monotonic). */
int hsim_core_set_now(hsim_core_t *c, hsim_time_t now);

/* Tells the core of a job, which gets the next index (*job); j is the
   driver's, valid until the core is destroyed, and its runtime is read
   only by a predictor that reads runtimes (oracle).  The job is not
   submitted yet.  0, HSIM_ENOMEM, or HSIM_EINPUT for a job larger than a
   pool of processors.  Amortised O(1). */
int hsim_core_add(hsim_core_t *c, const hsim_job_t *j, int32_t *job);
/* Job arrives now (it joins the queue and the policies run a pass).
   Later than its trace submission when it waited for parents. */
int hsim_core_submit(hsim_core_t *c, int32_t job);
/* Running job has ended now, having run ran on the reference machine (its
   time times its speed).  The policies run a pass. */
int hsim_core_end(hsim_core_t *c, int32_t job, hsim_time_t ran);
/* Running job still runs at the expiry the driver was given: planned on
   its requested time from now on (no pass follows). */
int hsim_core_expire(hsim_core_t *c, int32_t job);
/* Node fails now (its jobs stop and wait again), or is repaired; in a run
   with failures (cfg->failures).  Nothing for a node down already, or up
   already.  hsim_core_node_down(): is it down? */
int hsim_core_fail_node(hsim_core_t *c, int32_t node);
int hsim_core_repair_node(hsim_core_t *c, int32_t node);
int hsim_core_node_down(const hsim_core_t *c, int32_t node);
/* A time the core asked for (the driver's timer()) has come. */
int hsim_core_wake(hsim_core_t *c);

/* The error for job id whose start, end, reservation or submission
   (what) would pass HSIM_HORIZON.  Returns HSIM_EINPUT. */
int hsim_past_horizon(hsim_err_t *e, int64_t id, const char *what);

/* The earliest reserved start (its time, and the job), or NULL when none.
   The driver calls hsim_core_start_reserved() at that time. */
const hsim_event_t *hsim_core_next_start(const hsim_core_t *c);
/* Starts the job of hsim_core_next_start(), due now: on its reservation's
   nodes, else where placement finds room, else as soon as a job ends. */
int hsim_core_start_reserved(hsim_core_t *c);

/* What a reference time t of job is, less the work its stops kept and
   plus the cost of its next start: what its current attempt needs. */
hsim_time_t hsim_core_work_left(const hsim_core_t *c, int32_t job, hsim_time_t t);
/* The cluster's ledger, read-only (NULL on a pool of processors). */
const hsim_cluster_t *hsim_core_cluster(const hsim_core_t *c);
/* What running job holds on the cluster (NULL on a pool). */
const hsim_alloc_t *hsim_core_alloc(const hsim_core_t *c, int32_t job);
/* Jobs added, jobs ended, jobs waiting
   (and the first of them, -1 when none). */
size_t hsim_core_jobs(const hsim_core_t *c);
size_t hsim_core_ended(const hsim_core_t *c);
size_t hsim_core_waiting(hsim_core_t *c, int32_t *first);
/* The run's figures so far (the driver counts its events there). */
hsim_run_stats_t *hsim_core_stats(hsim_core_t *c);
/* The core's model bits for each of the jobs' GPU models i (0 when the
   cluster has none such), and the request of job j with them: what
   placement and the planner see of it.  O(models). */
void hsim_core_model_map(const char (*models)[HSIM_LABEL_MAX], size_t n_models,
                         const hsim_cluster_t *c, uint32_t *model_map);
void hsim_core_request(const hsim_job_t *j, size_t n_models, const uint32_t *model_map,
                       hsim_request_t *q);
#ifdef HSIM_INVARIANTS
/* Checks the whole state (invariants.h), the driver's jobs by index and
   their outcomes beside it.  0 or HSIM_EINPUT (e says what broke). */
int hsim_core_check(hsim_core_t *c, const hsim_job_t *jobs, const hsim_outcome_t *out,
                    hsim_err_t *e);
#endif

#endif
