/*
 * policy.h - the view a policy reads and the decisions it answers with.
 *
 * The core owns the truth (jobs, cluster, estimates); a queue policy sees only
 * this read-only view and calls back with decisions.  Nothing here depends on
 * the event engine: a test builds a view by hand and drives a policy, and the
 * live driver implements the same calls on real nodes.  A policy never sees a
 * job's actual runtime: only its planning estimate, which is the user's
 * requested time or a predictor's answer.  A running job's estimate is
 * fixed at its start, unless it outlives it: it becomes the requested time
 * then (its est_end moves).  A waiting job's may change between passes
 * (see hsim_view_t's revision).
 */
#ifndef HSIM_POLICY_H
#define HSIM_POLICY_H

#include "../sim/common.h"
#include "params.h"

struct hsim_cluster;
struct hsim_request;
struct hsim_alloc;
struct hsim_planner;

/* A job as policies see it. */
typedef struct hsim_vjob {
    hsim_time_t submit;    /* submission time */
    hsim_time_t estimate;  /* planning estimate (> 0): requested time or the
                              predictor's answer; never the actual runtime
                              unless the predictor is 'oracle' */
    hsim_time_t requested; /* user's requested time after cleaning, > 0 */
    int32_t procs;         /* processors, 1..capacity */
    int32_t user;          /* user id, -1 when unknown */
    int32_t group;         /* group id, -1 when unknown */
    int32_t queue;         /* the trace's queue number, -1 when unknown */
    int32_t partition;     /* partition number, -1 when unknown */
    int32_t app;           /* application (executable) number, -1 unknown */
} hsim_vjob_t;

/* A running job: it holds its processors until est_end at the latest.
   Its owner is the view's jobs[job].user (and .group). */
typedef struct hsim_running {
    int32_t job;           /* job index */
    int32_t procs;         /* processors held */
    hsim_time_t start;     /* when it started */
    hsim_time_t est_end;   /* start + planning estimate */
} hsim_running_t;

typedef struct hsim_view {
    hsim_time_t now;
    int32_t capacity;              /* processors in the machine */
    int32_t running_procs;         /* sum of procs over running[] */
    const hsim_vjob_t *jobs;       /* every job, indexed by job index; an
                                      index is the job's rank in submission
                                      order, so it also breaks ties */
    const int32_t *waiting;        /* submitted, not started: submission
                                      order; an entry < 0 is a hole (a job
                                      that left), to be skipped */
    size_t n_waiting;              /* entries in waiting[], holes included */
    size_t waiting_holes;          /* holes among them */
    const hsim_running_t *running; /* by (est_end, start order) ascending,
                                      unless running_unordered; an entry
                                      with job < 0 is a hole (procs 0, the
                                      key of a job that left), to be
                                      skipped */
    size_t n_running;              /* entries, holes included */
    int running_unordered;         /* 1: running[] is in no order (the
                                      scheduler said it does not read it) */
    int32_t ending_procs;          /* with running_unordered: processors of
                                      running jobs whose est_end <= now */
    uint64_t revision;             /* goes up by one whenever the core
                                      gives waiting jobs new estimates
                                      (with a predictor that revises
                                      them): a policy that keeps copies
                                      of them takes them again then */
    const int32_t *revised;        /* the jobs whose estimates the last
                                      revision changed (all of them
                                      waiting then)... */
    size_t n_revised;              /* ...and how many */
    /* On a cluster of nodes (all NULL on a pool of processors): the
       multi-resource view.  capacity and procs above then count cores. */
    const struct hsim_cluster *cluster;  /* the ledger: what each node has
                                            free now */
    const struct hsim_request *requests; /* by job index: the vector each
                                            job asks for (cores, memory,
                                            GPUs and their models, FPGAs,
                                            nodes, partition) */
    const struct hsim_alloc *allocs;     /* by job index: what a running
                                            job holds, node by node (empty
                                            once it has given it back) */
    struct hsim_planner *planner;        /* asks "when and where could this
                                            job start?" (sim/planner.h);
                                            running[] is then in est_end
                                            order */
} hsim_view_t;

/*
 * Processors free now by the planning profile: capacity minus those held by
 * running jobs whose estimated end is after now (a job whose estimate ends
 * now gives its processors back even before its termination is handled, as
 * in pyss).  O(number of jobs ending now).
 */
int32_t hsim_view_free_now(const hsim_view_t *v);

/*
 * Decisions.  After start() returns 0 the view already shows the job as
 * running (it left waiting[] and joined running[]).  reserve() asks for a
 * start at a future time (a later reserve() for the same job replaces it);
 * at == now starts the job after the events already due now.
 * Both return 0, or a negative code when the decision is impossible (the job
 * is not waiting, or does not fit in the processors): that is a policy bug.
 * On a cluster of nodes start() may also answer HSIM_NOFIT: the processors
 * are free but the placement found no nodes for the job now (GPUs, memory,
 * FPGAs); the job stays waiting, and the policy treats it as not fitting.
 */
typedef struct hsim_decide {
    void *ctx;
    int (*start)(void *ctx, int32_t job);
    int (*reserve)(void *ctx, int32_t job, hsim_time_t at);
    /* On a cluster of nodes: start the job now on allocation a (which the
       planner found: hsim_planner_place_now()), or reserve its start at
       'at' on a (the plan's nodes; at that time the job starts there if
       they are free, else where the placement policy finds room).  a is
       copied.  The same returns as start() and reserve(). */
    int (*start_on)(void *ctx, int32_t job, const struct hsim_alloc *a);
    int (*reserve_on)(void *ctx, int32_t job, hsim_time_t at, const struct hsim_alloc *a);
    /* Stops a running job now (mode: hsim_stop_mode_t); it is back in
       waiting[] at once, ranked by its original submission, its planning
       estimate what is left of it.  A suspended job resumes on the nodes
       it left (it keeps its memory there meanwhile); a requeued one starts
       again from zero; a checkpointed one keeps its work done.  The core
       does not call submitted() for a job the scheduler stopped itself.
       0, or a negative code for a job that is not running or a bad mode. */
    int (*stop)(void *ctx, int32_t job, int mode);
    /* Asks for a scheduling pass at time at (>= now): a timer, for a
       scheduler whose decisions depend on time passing (round robin's
       quantum).  0, or a negative code for a time in the past. */
    int (*wake)(void *ctx, hsim_time_t at);
} hsim_decide_t;

/* How stop() stops a job (Slurm's PreemptMode). */
typedef enum hsim_stop_mode {
    HSIM_STOP_REQUEUE = 1,    /* back to the queue, its work lost */
    HSIM_STOP_SUSPEND = 2,    /* its cores, GPUs and FPGAs freed, its memory
                                 kept; resumes on the same nodes */
    HSIM_STOP_CHECKPOINT = 3, /* back to the queue with its work kept; it
                                 may restart anywhere */
} hsim_stop_mode_t;

/* Parameters a policy is created with (from the [policy X] section). */
typedef struct hsim_policy_params {
    int32_t capacity;        /* processors in the machine */
    size_t n_jobs;           /* room to make for jobs 0..n_jobs-1 (more
                                come through grow(): a live run does not
                                know its jobs in advance) */
    const struct hsim_order *order;   /* queue order */
    const void *order_state; /* its per-run state (the core's), or NULL */
    const struct hsim_order *backfill_order; /* order of the backfilling
                                      pass; NULL = queue order */
    const void *backfill_order_state; /* its per-run state, or NULL */
    struct hsim_planner *planner;    /* on a cluster of nodes: plan with it
                                      (the view's planner); NULL on a pool */
    hsim_time_t quantum;             /* a time-slicing scheduler's slice
                                      (quantum = S), > 0; 0 for the others */
    const hsim_param_set_t *values;  /* the section's plug-in parameters
                                      (NULL: all defaults) */
} hsim_policy_params_t;

/* What an order's create() gets. */
typedef struct hsim_order_ctx {
    size_t n_jobs;           /* room to make for jobs 0..n_jobs-1 (more
                                come through grow()) */
    int32_t capacity;        /* processors (cores on a cluster of nodes) */
    const hsim_param_set_t *values; /* the section's plug-in parameters
                                      (NULL: all defaults) */
    uint64_t seed;           /* the experiment's seed, for an order that
                                draws random numbers (one GSL stream) */
} hsim_order_ctx_t;

/*
 * A queue order: compares two waiting jobs; < 0 when a goes first.  Must be
 * a strict total order at any one time: ties end on the job index
 * (submission order).  Orders that depend on now (aging) set
 * time_dependent: every scheduler re-sorts its queue at each pass then.
 *
 * An order may keep per-run state (usage tables, a plan): create() makes
 * it, and compare() gets it (NULL for an order without create()).  Jobs
 * come as the run goes: an order whose state has a table by job index
 * has grow(), which the core calls before it names a job index beyond
 * the n_jobs it has room for (0 or HSIM_ENOMEM; NULL: no such table).  The
 * core owns it and calls the hooks, each of which may be NULL: pass()
 * before the scheduler hears of each event (a submission, a termination,
 * a repair), so that compare() may read scores pass() computed at now;
 * started() after a job started, ended() after one ended (started at
 * start).  report() writes what the order logged during the run (a CSV
 * with a header) to out, which the experiment names <policy>/<report_name>.
 * An order's parameters are declared in params (NULL-name-terminated).
 */
typedef struct hsim_order {
    const char *name;
    const char *summary;
    const hsim_param_def_t *params; /* NULL: none */
    int time_dependent;
    int ignores_estimates; /* 1: compare() never reads an estimate, so a
                              revised estimate moves no job */
    int draws_random;      /* 1: it draws from the experiment's seed (ga,
                              sa), so repeat gives other runs */
    int (*compare)(const void *state, const hsim_vjob_t *jobs, int32_t a, int32_t b,
                   hsim_time_t now);
    int (*create)(const hsim_order_ctx_t *c, void **state); /* 0 or < 0 */
    void (*destroy)(void *state);
    int (*grow)(void *state, size_t n_jobs); /* room for n_jobs jobs */
    int (*pass)(void *state, const hsim_view_t *v);
    int (*started)(void *state, const hsim_view_t *v, int32_t job);
    int (*ended)(void *state, const hsim_view_t *v, int32_t job, hsim_time_t start);
    const char *report_name; /* NULL: no report */
    int (*report)(const void *state, FILE *out);
} hsim_order_t;

/*
 * A scheduler (the backfilling discipline): what starts and when.
 * create() returns per-run state (no global state); the core calls
 * submitted() for each new job and ended() for each termination, each
 * followed by one schedule() pass.  Callbacks may issue decisions.  As
 * for orders, a scheduler with a table by job index has grow(), called
 * before a job index beyond its room is named.
 */
typedef struct hsim_scheduler {
    const char *name;
    const char *summary;
    const hsim_param_def_t *params; /* NULL: none */
    int (*create)(const hsim_policy_params_t *p, void **state);
    void (*destroy)(void *state);
    int (*grow)(void *state, size_t n_jobs); /* room for n_jobs jobs; NULL:
                                               it keeps nothing by job */
    int (*submitted)(void *state, const hsim_view_t *v, int32_t job,
                     const hsim_decide_t *d);
    /* job ended now; it started at start, and est_end = start + its
       planning estimate, the end it was planned on (before now when a node
       slower than 1 held it longer) */
    int (*ended)(void *state, const hsim_view_t *v, int32_t job,
                 hsim_time_t start, hsim_time_t est_end, const hsim_decide_t *d);
    int (*schedule)(void *state, const hsim_view_t *v, const hsim_decide_t *d);
    int running_any_order; /* 1: never reads view->running in est_end
                            order, so the core may keep it unordered
                            (cheaper); 0 (the safe default): it is sorted */
    int reads_backfill_order; /* 1: it tries jobs for backfilling in
                                 params->backfill_order when given */
    int fixed_estimates; /* 1: it keeps plans made on each job's estimate
                            for good (conservative's reservations), so it
                            takes no predictor whose answers change or can
                            be outlived */
    int plans_on_nodes;  /* 1: on a cluster of nodes it asks the planner,
                            which reads view->running in est_end order
                            whatever running_any_order says */
    int stops_jobs;      /* 1: it stops running jobs itself (stop()), so
                            the generic preemption (preempt = ...) is
                            refused with it */
} hsim_scheduler_t;

#endif
