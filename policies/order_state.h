/*
 * order_state.h - what the orders with per-run state share: a score per
 * job, computed by the order's pass() for every waiting job at the time of
 * the pass (higher first, ties by submission), and per-user or per-group
 * usage that decays with a half-life, for fair share.
 *
 * Scores make compare() O(1) and keep it a strict total order: within a
 * pass every waiting job has one score; between passes the scores change
 * together, and a time-dependent order is re-sorted at every pass.
 */
#ifndef HSIM_ORDER_STATE_H
#define HSIM_ORDER_STATE_H

#include "policy.h"

/* The first member of a scoring order's state. */
typedef struct hsim_scores {
    double *score;       /* by job index; higher goes first */
    size_t n;            /* jobs */
} hsim_scores_t;

/* 0 or HSIM_ENOMEM. */
int hsim_scores_init(hsim_scores_t *s, size_t n_jobs);
void hsim_scores_free(hsim_scores_t *s);
/* grow() for a state whose first member is an hsim_scores_t: room for
   n_jobs, the new scores 0.  0 or HSIM_ENOMEM. */
int hsim_scores_grow(void *state, size_t n_jobs);
/* compare() for a state whose first member is an hsim_scores_t. */
int hsim_scores_compare(const void *state, const hsim_vjob_t *jobs, int32_t a, int32_t b,
                        hsim_time_t now);
/* Wait of job j at now, in seconds (0 before its submission). */
double hsim_wait_s(const hsim_vjob_t *j, hsim_time_t now);

/*
 * Decayed usage per id (user or group ids, >= -1): processor-seconds, each
 * weighed by 2^(-age / half_life), accrued continuously while jobs run
 * (started() and ended() tell it), so that at time t
 *   U(t) = sum over running time s of procs(s) x 2^(-(t - s) / half_life).
 * Shares per id come from a table (ids not listed: 1); the shares of the
 * ids seen so far are the total that normalises them.  Slurm's classic
 * fair-share factor of an id is then F = 2^(-(U / U_total) / (S / S_total)),
 * in (0, 1], 1 for an id that used nothing.
 */
typedef struct hsim_usage_entry {
    double used;         /* U at 'at', processor-seconds */
    int32_t running;     /* processors its running jobs hold */
    int seen;            /* its share counts in the total */
    hsim_time_t at;      /* when used was last brought up to date */
} hsim_usage_entry_t;

typedef struct hsim_usage {
    hsim_usage_entry_t *e; /* by id + 1 */
    size_t cap;
    hsim_usage_entry_t total; /* all ids together (the sum is linear) */
    double shares_seen;  /* sum of the shares of the ids seen */
    double half_life_s;  /* > 0 */
    const hsim_param_table_t *shares; /* NULL: 1 each */
} hsim_usage_t;

/* 0 (nothing to allocate until ids come). */
void hsim_usage_init(hsim_usage_t *u, double half_life_s, const hsim_param_table_t *shares);
void hsim_usage_free(hsim_usage_t *u);
/* id starts (procs > 0) or stops (procs < 0) holding processors at t.
   0 or HSIM_ENOMEM. */
int hsim_usage_hold(hsim_usage_t *u, int32_t id, int32_t procs, hsim_time_t t);
/* The job's processors start (sign 1) or stop (-1) counting for its
   user in users and, when groups is not NULL, for its group there, at the
   view's now: an order's started() and ended().  0 or HSIM_ENOMEM. */
int hsim_usage_job(hsim_usage_t *users, hsim_usage_t *groups, const hsim_view_t *v,
                   int32_t job, int sign);
/* The fair-share factor of id at t (marking id seen).  0 or HSIM_ENOMEM
   into *rc. */
double hsim_usage_factor(hsim_usage_t *u, int32_t id, hsim_time_t t, int *rc);

#endif
