/*
 * search.h - what the search orders (ga, sa) share: the window of waiting
 * jobs they reorder, the plan they score a reordering with, and the pass
 * that installs the best reordering found as the queue order.
 *
 * At each pass the waiting jobs are sorted by a base order, and the first
 * K of them (the window) are reordered to minimise an objective of the
 * plan a simple list scheduler makes for them: the jobs start in the
 * given order, each at the first time, no earlier than the one before it,
 * at which enough processors are free, on the processors free now and
 * those the running jobs give back at their estimated ends (on a cluster
 * of nodes, cores stand for every resource: an approximation).  The plan
 * reads only estimates.  The jobs after the window keep the base order.
 * A search evaluates at most `evaluations` plans per pass, so that its
 * result depends on the seed alone, never on the machine's speed; the
 * starting order is evaluated first and kept unless something better is
 * found, so the result is never worse than it on the objective.
 */
#ifndef HSIM_SEARCH_H
#define HSIM_SEARCH_H

#include "order_state.h"

#include <gsl/gsl_rng.h>

enum { HSIM_OBJ_BSLD, HSIM_OBJ_WAIT, HSIM_OBJ_MAKESPAN };

/* The plan's fixed part at one pass. */
typedef struct hsim_search_plan {
    hsim_time_t now;
    int32_t capacity;
    int32_t free_now;        /* processors free now */
    hsim_time_t *rel_at;     /* running jobs' estimated ends after now, */
    int32_t *rel_procs;      /* ascending, and what each gives back */
    size_t n_rel, cap_rel;
    const hsim_vjob_t *jobs;
    int objective;           /* HSIM_OBJ_* */
    hsim_time_t *heap_at;    /* scratch: the window's own ends */
    int32_t *heap_procs;
    size_t cap_heap;
} hsim_search_plan_t;

/* What every search order's state holds; first member: the scores. */
typedef struct hsim_search {
    hsim_scores_t s;
    const hsim_order_t *base;   /* orders the queue before the window */
    size_t window;              /* K */
    long evaluations;           /* budget per pass */
    gsl_rng *rng;               /* seeded from the experiment's seed */
    hsim_search_plan_t plan;
    int32_t *ids;               /* the waiting jobs, base order */
    size_t cap_ids;
} hsim_search_t;

/* The parameters both searches declare (window, base, objective,
   evaluations), in this order, for their own tables to copy. */
#define HSIM_SEARCH_PARAMS                                                                   \
    {"window", HSIM_PARAM_INT, 16, 2, 256, NULL,                                             \
     "K: the first K waiting jobs (in the base order) are reordered"},                      \
    {"base", HSIM_PARAM_ORDERS, 0, 1, 1, "fcfs", "the order the window is taken from"},    \
    {"objective", HSIM_PARAM_CHOICE, HSIM_OBJ_BSLD, 0, 0, "bsld|wait|makespan",            \
     "what the plan of the window minimises: average bounded slowdown, average wait or "    \
     "makespan"},                                                                            \
    {"evaluations", HSIM_PARAM_INT, 400, 1, 1e6, NULL, "plans evaluated per pass at most"}

/* Reads the common parameters of plug-in me (defs its table) and sets up
   s.  0 or HSIM_ENOMEM. */
int hsim_search_init(hsim_search_t *s, const hsim_order_ctx_t *c, const char *me,
                     const hsim_param_def_t *defs);
void hsim_search_free(hsim_search_t *s);
/* The objective of the plan of perm[0..k) (lower is better).  O(k log k
   + the running jobs' ends it passes). */
double hsim_search_cost(hsim_search_plan_t *p, const int32_t *perm, size_t k);
/* A search: improves perm[0..k) (which holds the starting order) in place
   within s's budget.  0 or HSIM_ENOMEM. */
typedef int hsim_search_fn(hsim_search_t *s, void *state, int32_t *perm, size_t k);
/* The pass of a search order: the window taken from the view, searched
   by fn, and the scores set so that compare() gives the new order. */
int hsim_search_pass(hsim_search_t *s, void *state, const hsim_view_t *v, hsim_search_fn *fn);

#endif
