/*
 * preempt.h - preemption by rank, for any queue order and any scheduler
 * that does not stop jobs itself (policy key preempt = requeue | suspend |
 * checkpoint, Slurm's PreemptMode).
 *
 * Before each scheduling pass the engine runs hsim_preempt_pass(): when the
 * head of the queue (the best waiting job by the order) cannot start now,
 * it may stop running jobs that the order ranks strictly lower (compared
 * as if they were waiting), the cheapest set that makes room, so that the
 * scheduler's pass then starts the head.  It only reads the view and
 * answers with stop() decisions.
 */
#ifndef HSIM_PREEMPT_H
#define HSIM_PREEMPT_H

#include "policy.h"

typedef struct hsim_preempt hsim_preempt_t;

/* Scratch for a run of n_jobs jobs.  0 or HSIM_ENOMEM; the caller frees
   *out with hsim_preempt_destroy(). */
int hsim_preempt_create(size_t n_jobs, hsim_preempt_t **out);
/* Room for n_jobs jobs.  0 or HSIM_ENOMEM. */
int hsim_preempt_grow(hsim_preempt_t *p, size_t n_jobs);
void hsim_preempt_destroy(hsim_preempt_t *p);

/*
 * One preemption pass.  The head is the waiting job that order ranks
 * first at v->now.  What it lacks now: processors on a pool; cores and
 * whole GPUs, summed over the cluster, on a cluster of nodes (a sum, so
 * the placement may still find no layout: the head then waits, and its
 * victims are back in the queue).  Candidates: running jobs ranked
 * strictly below the head, that started (or resumed) at least grace ago
 * and whose planned end is after now.  Their cost is what stopping them
 * undoes: processors x time since their last start; the cheapest are taken
 * (ties: the latest submitted first) until the head would fit, then any
 * of them it would fit without is given back, last taken first.  Nothing
 * is stopped when all the candidates together would not make room.
 * state is the order's per-run state (NULL for an order without one); mode
 * is an hsim_stop_mode_t.  0 or a decision's negative code.
 * O(waiting + running log running).
 */
int hsim_preempt_pass(hsim_preempt_t *p, const hsim_order_t *order, const void *state,
                      int mode, hsim_time_t grace, const hsim_view_t *v,
                      const hsim_decide_t *d);

#endif
