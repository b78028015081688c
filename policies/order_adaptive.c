/*
 * order_adaptive.c - the dynamic adaptive scheduler: an order that
 * re-evaluates priorities from the state of the machine at every pass and
 * switches between named orders as the load changes.
 *
 * At each pass it measures the load, one of
 *   queue_len    the waiting jobs;
 *   utilization  processors held by running jobs / capacity;
 *   backlog      sum over waiting jobs of estimate x processors / capacity,
 *                in seconds: how long the machine would take to run them;
 * and picks the level: order k of `orders` (0-based) is used at level k.
 * It moves up from level k while the load is at least threshold_{k+1},
 * and down while it is below threshold_k x (1 - hysteresis), so a load
 * that hovers at a threshold does not make it switch at every pass.
 * Every switch is logged (report(): the policy's switches.csv).
 *
 * Within the current order jobs fall in three classes, first to last: a
 * job that has waited promote_after hours or more (promoted: long waiters
 * go first, among themselves by submission); the others; and, with
 * demote_overrun, the jobs of a user one of whose running jobs has run
 * past the estimate it started with (demoted).  Sub-orders are orders
 * without state of their own (their compare() gets NULL).
 */
#include "order_state.h"

#include "registry.h"

#include <string.h>

#define MAX_LEVELS 4

enum { BY_BACKLOG, BY_QUEUE_LEN, BY_UTILIZATION };

static const hsim_param_def_t adaptive_params[] = {
    {"orders", HSIM_PARAM_ORDERS, 0, 2, MAX_LEVELS, "fcfs,sjf,wfp3",
     "the orders used from the lowest load level to the highest (2 to 4)"},
    {"measure", HSIM_PARAM_CHOICE, BY_BACKLOG, 0, 0, "backlog|queue_len|utilization",
     "the load that picks the level"},
    {"threshold1", HSIM_PARAM_REAL, 3600, 0, 1e12, NULL,
     "load at which level 1 begins (backlog in seconds, jobs, or 0..1)"},
    {"threshold2", HSIM_PARAM_REAL, 21600, 0, 1e12, NULL, "load at which level 2 begins"},
    {"threshold3", HSIM_PARAM_REAL, 86400, 0, 1e12, NULL, "load at which level 3 begins"},
    {"hysteresis", HSIM_PARAM_REAL, 0.2, 0, 0.99, NULL,
     "a level is left downwards below threshold x (1 - hysteresis)"},
    {"promote_after", HSIM_PARAM_REAL, 24, 0, 1e6, NULL,
     "hours of wait after which a job goes ahead of the others (0: never)"},
    {"demote_overrun", HSIM_PARAM_CHOICE, 1, 0, 0, "no|yes",
     "yes: jobs of a user whose running job outlived its estimate go last"},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

typedef struct switch_rec {
    hsim_time_t at;
    int from, to;
    size_t queue_len;
    double utilization, backlog_s;
} switch_rec_t;

typedef struct adaptive {
    const hsim_order_t *orders[MAX_LEVELS];
    size_t n_orders;
    int level;                 /* the order in use */
    int measure;
    double threshold[MAX_LEVELS]; /* [k]: level k begins; [0] unused */
    double hysteresis;
    hsim_time_t promote_after; /* 0: never */
    int demote;
    uint8_t *cls;              /* by job: 0 promoted, 1 normal, 2 demoted */
    hsim_time_t *est_start;    /* by job: its estimate when it started */
    size_t n_jobs;             /* room in cls[] and est_start[] */
    uint8_t *overran;          /* by user id + 1 (capped): a running job of
                                  the user is past its estimate */
    size_t n_users;
    switch_rec_t *log;
    size_t n_log, cap_log;
} adaptive_t;

static void adaptive_destroy(void *state)
{
    adaptive_t *a = state;
    hsim_free(a->cls);
    hsim_free(a->est_start);
    hsim_free(a->overran);
    hsim_free(a->log);
    hsim_free(a);
}

static int adaptive_create(const hsim_order_ctx_t *c, void **state)
{
    adaptive_t *a = hsim_calloc(1, sizeof *a);
    if (!a)
        return HSIM_ENOMEM;
    const char *me = "adaptive";
    const hsim_param_set_t *x = c->values;
    char list[HSIM_PARAM_TEXT];
    hsim_strlcpy(list, hsim_param_text(x, me, adaptive_params, "orders"), sizeof list);
    for (char *save = NULL, *w = strtok_r(list, ", ", &save); w && a->n_orders < MAX_LEVELS;
         w = strtok_r(NULL, ", ", &save))
        a->orders[a->n_orders++] = hsim_order_find(w); /* checked by the INI reader */
    a->measure = (int)hsim_param_num(x, me, adaptive_params, "measure");
    static const char *const names[] = {NULL, "threshold1", "threshold2", "threshold3"};
    for (int k = 1; k < MAX_LEVELS; k++)
        a->threshold[k] = hsim_param_num(x, me, adaptive_params, names[k]);
    a->hysteresis = hsim_param_num(x, me, adaptive_params, "hysteresis");
    a->promote_after =
        (hsim_time_t)(3600 * hsim_param_num(x, me, adaptive_params, "promote_after") *
                      HSIM_SECOND);
    a->demote = hsim_param_num(x, me, adaptive_params, "demote_overrun") > 0;
    size_t n = a->n_jobs = c->n_jobs ? c->n_jobs : 1;
    a->cls = hsim_calloc(n, sizeof *a->cls);
    a->est_start = hsim_calloc(n, sizeof *a->est_start);
    if (!a->cls || !a->est_start) {
        adaptive_destroy(a);
        return HSIM_ENOMEM;
    }
    for (size_t i = 0; i < a->n_orders; i++)
        HSIM_ASSERT(a->orders[i] && !a->orders[i]->create);
    *state = a;
    return 0;
}

static int adaptive_grow(void *state, size_t n_jobs)
{
    adaptive_t *a = state;
    if (n_jobs <= a->n_jobs)
        return 0;
    if (hsim_grow_zeroed(&a->cls, a->n_jobs, n_jobs, sizeof *a->cls) ||
        hsim_grow_zeroed(&a->est_start, a->n_jobs, n_jobs, sizeof *a->est_start))
        return HSIM_ENOMEM;
    a->n_jobs = n_jobs;
    return 0;
}

static int adaptive_compare(const void *state, const hsim_vjob_t *jobs, int32_t x, int32_t y,
                            hsim_time_t now)
{
    const adaptive_t *a = state;
    if (a->cls[x] != a->cls[y])
        return a->cls[x] < a->cls[y] ? -1 : 1;
    if (a->cls[x] == 0) /* promoted: by submission */
        return (x > y) - (x < y);
    return a->orders[a->level]->compare(NULL, jobs, x, y, now);
}

/* Marks the users with a running job past the estimate it started with. */
static int mark_overruns(adaptive_t *a, const hsim_view_t *v)
{
    if (a->overran)
        memset(a->overran, 0, a->n_users);
    for (size_t i = 0; i < v->n_running; i++) {
        const hsim_running_t *r = &v->running[i];
        if (r->job < 0 || v->now - r->start <= a->est_start[r->job])
            continue;
        size_t u = (size_t)(v->jobs[r->job].user + 1);
        if (u >= a->n_users) {
            size_t old = a->n_users;
            if (hsim_grow(&a->overran, &a->n_users, u + 1, 1))
                return HSIM_ENOMEM;
            memset(a->overran + old, 0, a->n_users - old);
        }
        a->overran[u] = 1;
    }
    return 0;
}

/* The level the load m asks for, from the current one. */
static int next_level(const adaptive_t *a, double m)
{
    int k = a->level;
    while (k + 1 < (int)a->n_orders && m >= a->threshold[k + 1])
        k++;
    while (k > 0 && m < a->threshold[k] * (1 - a->hysteresis))
        k--;
    return k;
}

static int adaptive_pass(void *state, const hsim_view_t *v)
{
    adaptive_t *a = state;
    int rc = a->demote ? mark_overruns(a, v) : 0;
    if (rc)
        return rc;
    size_t queue_len = 0;
    double work = 0;
    for (size_t i = 0; i < v->n_waiting; i++) {
        int32_t k = v->waiting[i];
        if (k < 0)
            continue;
        const hsim_vjob_t *j = &v->jobs[k];
        queue_len++;
        work += (double)j->estimate / HSIM_SECOND * j->procs;
        size_t u = (size_t)(j->user + 1);
        a->cls[k] = a->promote_after > 0 && v->now - j->submit >= a->promote_after ? 0
                    : u < a->n_users && a->overran[u]                             ? 2
                                                                                  : 1;
    }
    double util = v->capacity > 0 ? (double)v->running_procs / v->capacity : 0;
    double backlog = v->capacity > 0 ? work / v->capacity : 0;
    double m = a->measure == BY_BACKLOG ? backlog
               : a->measure == BY_QUEUE_LEN ? (double)queue_len : util;
    int to = next_level(a, m);
    if (to == a->level)
        return 0;
    if (hsim_grow(&a->log, &a->cap_log, a->n_log + 1, sizeof *a->log))
        return HSIM_ENOMEM;
    a->log[a->n_log++] = (switch_rec_t){v->now, a->level, to, queue_len, util, backlog};
    a->level = to;
    return 0;
}

static int adaptive_started(void *state, const hsim_view_t *v, int32_t job)
{
    adaptive_t *a = state;
    a->est_start[job] = v->jobs[job].estimate;
    return 0;
}

static int adaptive_report(const void *state, FILE *out)
{
    const adaptive_t *a = state;
    fputs("time,from,to,queue_len,utilization,backlog\n", out);
    for (size_t i = 0; i < a->n_log; i++) {
        const switch_rec_t *s = &a->log[i];
        char t[32];
        fprintf(out, "%s,%s,%s,%zu,%.6f,%.3f\n", hsim_format_time(t, sizeof t, s->at),
                a->orders[s->from]->name, a->orders[s->to]->name, s->queue_len,
                s->utilization, s->backlog_s);
    }
    return ferror(out) ? HSIM_EIO : 0;
}

const hsim_order_t hsim_order_adaptive = {
    .name = "adaptive",
    .summary = "dynamic adaptive: switches orders by load (with hysteresis), promotes long "
               "waiters, demotes overrunning users",
    .params = adaptive_params,
    .time_dependent = 1,
    .compare = adaptive_compare,
    .create = adaptive_create,
    .destroy = adaptive_destroy,
    .grow = adaptive_grow,
    .pass = adaptive_pass,
    .started = adaptive_started,
    .report_name = "switches.csv",
    .report = adaptive_report,
};
