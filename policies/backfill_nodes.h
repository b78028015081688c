/*
 * backfill_nodes.h - conservative backfilling on a cluster of nodes, for
 * backfill_conservative.c, whose descriptor hands its callbacks here when
 * the run has a cluster (hsim_policy_params_t's planner), and under an
 * order that changes with time.
 */
#ifndef HSIM_BACKFILL_NODES_H
#define HSIM_BACKFILL_NODES_H

#include "policy.h"

typedef struct hsim_cons_nodes hsim_cons_nodes_t;

/* Per-run state over p->planner (not NULL).  0 or HSIM_ENOMEM. */
int hsim_cons_nodes_create(const hsim_policy_params_t *p, hsim_cons_nodes_t **out);
void hsim_cons_nodes_destroy(hsim_cons_nodes_t *s);
/* The scheduler's submitted() and ended(). */
int hsim_cons_nodes_submitted(hsim_cons_nodes_t *s, const hsim_view_t *v, int32_t job,
                              const hsim_decide_t *d);
int hsim_cons_nodes_ended(hsim_cons_nodes_t *s, const hsim_view_t *v, int32_t job,
                          const hsim_decide_t *d);

/*
 * Conservative backfilling under a time-dependent order
 * (backfill_conservative_rebuild.c): the plan is made again at every pass,
 * in the order as it stands then.  create: 0 or HSIM_ENOMEM.
 */
typedef struct hsim_cons_rebuild hsim_cons_rebuild_t;
int hsim_cons_rebuild_create(const hsim_policy_params_t *p, hsim_cons_rebuild_t **out);
void hsim_cons_rebuild_destroy(hsim_cons_rebuild_t *s);
/* The scheduler's schedule(): every waiting job reserved again.  0 or a
   negative code. */
int hsim_cons_rebuild_pass(hsim_cons_rebuild_t *s, const hsim_view_t *v,
                           const hsim_decide_t *d);

#endif
