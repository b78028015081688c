/*
 * planner.h - "when and where could this job start?": what queue policies
 * ask on a cluster of nodes, the way Slurm's backfill asks its will-run
 * test of a time map of its nodes.
 *
 * The planner answers from the ledger as it is now (hsim_cluster_t), the
 * running jobs' allocations and estimated ends (the view's running[], in
 * est_end order), and, for conservative backfilling, the reservations
 * already booked in a plan (hsim_plan_t).  It never changes the ledger:
 * every question is worked out on a scratch copy of the cluster, in which
 * only the nodes the question touches differ from the ledger, and which is
 * put back before the answer returns.  So a question costs what it touches
 * (the running jobs that end before the time asked about, the bookings that
 * overlap the window, the nodes the placement looks at), not the cluster's
 * node count.
 *
 * Every resource of a node binds: cores, memory (where modelled), whole
 * GPUs of the models a job accepts, FPGAs, and the node type's partition.
 * A share of a GPU booked in the future counts as its whole GPU (a plan
 * books no fractions); running shares are counted as they are.
 *
 * Nothing here assumes simulated time or a workload known in advance: the
 * view is all it reads, and a plan's tables grow with the job indices it
 * sees.
 */
#ifndef HSIM_PLANNER_H
#define HSIM_PLANNER_H

#include "../policies/placement.h"
#include "../policies/policy.h"

/* A reservation: a start, a planned end and the nodes it holds. */
typedef struct hsim_booking {
    hsim_time_t at;      /* start, >= now when made */
    hsim_time_t end;     /* at + estimate / speed of its nodes */
    double speed;        /* speed of its slowest part, > 0 */
    hsim_alloc_t alloc;  /* the nodes and what it takes on each; owned */
    hsim_alloc_t spare;  /* EASY's head: for each part of alloc (same
                            order, sorted by node), what the node has
                            left at 'at' beyond the head's part; a job
                            that runs past 'at' may take no more there */
    int by_totals;       /* EASY's head: 1 when it asks only for cores, in
                            units, on any node type (no memory that binds,
                            no GPUs or FPGAs, no whole nodes): then only the
                            total of free cores matters, alloc and spare are
                            empty, and... */
    int64_t extra_cores; /* ...a job that runs past 'at' may hold no more
                            cores than these (the cores free then beyond
                            the head's), which it then uses up */
} hsim_booking_t;

void hsim_booking_free(hsim_booking_t *b);

typedef struct hsim_planner hsim_planner_t;

/*
 * A planner over the ledger c (which it reads, never changes, and which
 * must outlive it), placing with placement (its per-run state place_state,
 * layout spread).  0 or HSIM_ENOMEM.  The caller tells it of every change
 * of the ledger with hsim_planner_sync().
 */
int hsim_planner_create(const hsim_cluster_t *c, const hsim_placement_t *placement,
                        void *place_state, hsim_spread_t spread, hsim_planner_t **out);
void hsim_planner_destroy(hsim_planner_t *pl);
/* The ledger changed on the nodes of a.  O(parts x log nodes). */
void hsim_planner_sync(hsim_planner_t *pl, const hsim_alloc_t *a);

/* A duration at a speed, to the microsecond: the one rounding every part
   of hsim uses.  HSIM_HORIZON + 1 for any not shorter than the horizon. */
hsim_time_t hsim_time_scaled(hsim_time_t t, double speed);
/* Speed of job's slowest part on allocation a (> 0). */
double hsim_planner_speed(const hsim_planner_t *pl, const hsim_view_t *v, int32_t job,
                          const hsim_alloc_t *a);
/* The job's planning estimate on the fastest and on the slowest node types
   it may use; either pointer may be NULL.  O(types). */
void hsim_planner_span(const hsim_planner_t *pl, const hsim_view_t *v, int32_t job,
                       hsim_time_t *shortest, hsim_time_t *longest);

/*
 * EASY's reservation for the head of the queue: the earliest time, now or
 * an estimated end of a running job, at which job fits in what is free
 * then (every running job whose estimated end is then or before counts as
 * gone), and nodes for it there, taken first from those that are not free
 * now (so that what is free now stays free for backfilling).  b is filled
 * (free it with hsim_booking_free()); b->spare says what each of its nodes
 * has left at b->at.  hint (may be NULL, not b): the job's reservation
 * of an earlier question; once the search reaches its time, its nodes are
 * taken if the search's own layout fails there and they still hold the job
 * (a layout that the greedy walk of the placement code can miss, and which
 * the jobs backfilled since have left alone).  0, HSIM_NOFIT (it fits
 * nowhere even once every
 * running job has ended) or HSIM_ENOMEM.  O(running jobs ending by then x
 * their parts x log nodes + one placement per distinct end looked at).
 */
int hsim_planner_shadow(hsim_planner_t *pl, const hsim_view_t *v, int32_t job,
                        const hsim_booking_t *hint, hsim_booking_t *b);
/*
 * Where job could start now, chosen by the run's placement policy among
 * the resources free now; with keep, only among those that leave keep's
 * reservation whole (on each of keep's nodes at most the node's spare).  a
 * must be empty; *speed gets its speed.  0, HSIM_NOFIT (a empty) or
 * HSIM_ENOMEM.  Does not start it: hsim_decide_t's start_on() does.
 */
int hsim_planner_place_now(hsim_planner_t *pl, const hsim_view_t *v, int32_t job,
                           const hsim_booking_t *keep, hsim_alloc_t *a, double *speed);
/* What the totals of free cores and whole GPUs keep back now for EASY's
   booking b: over its nodes, what is free beyond each one's spare.  A job
   that runs past b->at can have no more than the rest.  O(b's nodes). */
void hsim_planner_held(const hsim_view_t *v, const hsim_booking_t *b, int64_t *cores,
                       int64_t *gpus);
/* The highest speed of any job on any node type (at least 1).  O(classes
   x types). */
double hsim_planner_fastest(const hsim_planner_t *pl);
/* A job that runs past b->at has started on a: b's spare shrinks by what a
   takes on b's nodes.  O(parts x log parts of b). */
void hsim_booking_consume(hsim_booking_t *b, const hsim_alloc_t *a);

/*
 * A plan: reservations booked on nodes for conservative backfilling.  A
 * booking holds its nodes over [at, end) until its job starts (its start
 * is due at 'at'; a booking whose start has passed is the ledger's
 * business then).  Owned by the policy that creates it; pl must outlive
 * it.
 */
typedef struct hsim_plan hsim_plan_t;

int hsim_plan_create(hsim_planner_t *pl, hsim_plan_t **out);
void hsim_plan_destroy(hsim_plan_t *p);
/*
 * The earliest time t in [now, limit] at which job fits for its whole
 * estimate, [t, t + estimate on its nodes), beside the running jobs (until
 * their estimated ends) and every booking of the plan but job's own; b
 * gets t and the nodes the run's placement policy chose in what is free
 * over that window.  On success job's old booking, if any, is dropped:
 * book b next (hsim_plan_book()), as the bookings laid out again to make
 * room for it count on (hsim_plan_repinned()).  0, HSIM_NOFIT (no such t
 * up to limit; the old booking stays) or HSIM_ENOMEM.
 * Cost: per time looked at (the times something is given back, from now
 * on, that the plan's totals of cores and GPUs allow), the running jobs
 * ending by then and the bookings overlapping the window, x their parts x
 * log nodes, and one placement.
 */
int hsim_plan_earliest(hsim_plan_t *p, const hsim_view_t *v, int32_t job, hsim_time_t limit,
                       hsim_booking_t *b);
/* Books b for job (replacing its booking, if any); the plan takes b's
   allocations (b is left empty).  0 or HSIM_ENOMEM. */
int hsim_plan_book(hsim_plan_t *p, int32_t job, hsim_booking_t *b);
/* The jobs whose booked nodes the last hsim_plan_earliest() changed
   (booked nodes are provisional: to make room at an earlier time, the
   bookings that start later may be laid out again; their times never
   change).  Into *jobs; returns how many. */
size_t hsim_plan_repinned(const hsim_plan_t *p, const int32_t **jobs);
/* job's booking, or NULL. */
const hsim_booking_t *hsim_plan_booking(const hsim_plan_t *p, int32_t job);
/* job ended now (or will never start): what is left of its booking is
   given back.  0 or HSIM_ENOMEM. */
int hsim_plan_ended(hsim_plan_t *p, int32_t job, hsim_time_t now);

#endif
