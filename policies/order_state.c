/*
 * order_state.c - scores and decayed usage for the orders with state.
 * See order_state.h.
 */
#include "order_state.h"

#include <math.h>
#include <string.h>

int hsim_scores_init(hsim_scores_t *s, size_t n_jobs)
{
    s->n = n_jobs;
    s->score = hsim_calloc(n_jobs ? n_jobs : 1, sizeof *s->score);
    return s->score ? 0 : HSIM_ENOMEM;
}

int hsim_scores_grow(void *state, size_t n_jobs)
{
    hsim_scores_t *s = state;
    if (n_jobs <= s->n)
        return 0;
    if (hsim_grow_zeroed(&s->score, s->n, n_jobs, sizeof *s->score))
        return HSIM_ENOMEM;
    s->n = n_jobs;
    return 0;
}

void hsim_scores_free(hsim_scores_t *s)
{
    hsim_free(s->score);
    s->score = NULL;
}

int hsim_scores_compare(const void *state, const hsim_vjob_t *jobs, int32_t a, int32_t b,
                        hsim_time_t now)
{
    (void)jobs;
    (void)now;
    const hsim_scores_t *s = state;
    double x = s->score[a], y = s->score[b];
    if (x != y)
        return x > y ? -1 : 1;
    return (a > b) - (a < b);
}

double hsim_wait_s(const hsim_vjob_t *j, hsim_time_t now)
{
    return now > j->submit ? (double)(now - j->submit) / HSIM_SECOND : 0;
}

void hsim_usage_init(hsim_usage_t *u, double half_life_s, const hsim_param_table_t *shares)
{
    memset(u, 0, sizeof *u);
    u->half_life_s = half_life_s;
    u->shares = shares;
}

void hsim_usage_free(hsim_usage_t *u)
{
    hsim_free(u->e);
    u->e = NULL;
}

/* Brings e's usage up to t: what it had decays, and what its running jobs
   held since accrues, integrated exactly.  O(1). */
static void accrue(const hsim_usage_t *u, hsim_usage_entry_t *e, hsim_time_t t)
{
    if (t <= e->at)
        return;
    double dt = (double)(t - e->at) / HSIM_SECOND;
    double keep = exp2(-dt / u->half_life_s);
    e->used = e->used * keep + e->running * (u->half_life_s / log(2.0)) * (1 - keep);
    e->at = t;
}

/* id's entry, grown into being (at t, with nothing used).  NULL on
   HSIM_ENOMEM. */
static hsim_usage_entry_t *entry(hsim_usage_t *u, int32_t id, hsim_time_t t)
{
    size_t k = (size_t)(id < 0 ? 0 : id + 1), old = u->cap;
    if (hsim_grow(&u->e, &u->cap, k + 1, sizeof *u->e))
        return NULL;
    for (size_t i = old; i < u->cap; i++)
        u->e[i] = (hsim_usage_entry_t){.at = t};
    return &u->e[k];
}

int hsim_usage_hold(hsim_usage_t *u, int32_t id, int32_t procs, hsim_time_t t)
{
    hsim_usage_entry_t *e = entry(u, id, t);
    if (!e)
        return HSIM_ENOMEM;
    accrue(u, e, t);
    accrue(u, &u->total, t);
    e->running += procs;
    u->total.running += procs;
    return 0;
}

double hsim_usage_factor(hsim_usage_t *u, int32_t id, hsim_time_t t, int *rc)
{
    hsim_usage_entry_t *e = entry(u, id, t);
    if (!e) {
        *rc = HSIM_ENOMEM;
        return 1;
    }
    double share = hsim_table_lookup(u->shares, id, 1);
    if (!e->seen) {
        e->seen = 1;
        u->shares_seen += share;
    }
    accrue(u, e, t);
    accrue(u, &u->total, t);
    if (!(u->total.used > 0))
        return 1;
    return exp2(-(e->used / u->total.used) / (share / u->shares_seen));
}

int hsim_usage_job(hsim_usage_t *users, hsim_usage_t *groups, const hsim_view_t *v,
                   int32_t job, int sign)
{
    const hsim_vjob_t *j = &v->jobs[job];
    int rc = hsim_usage_hold(users, j->user, sign * j->procs, v->now);
    if (rc == 0 && groups)
        rc = hsim_usage_hold(groups, j->group, sign * j->procs, v->now);
    return rc;
}
