/*
 * order_priority.c - static priorities with aging.
 *
 * A job's priority is a static part, from the trace's queue number or from
 * a table in the INI keyed by its queue, user or group, plus an aging part
 * that grows with its wait:
 *   priority = static + age_weight x min(wait, max_age) in hours.
 * Higher goes first; equal priorities keep submission order.  With
 * age_weight > 0 and no max_age no job starves: a job that has waited
 * (P_max - P_min) / age_weight hours longer than any other is ahead of
 * all of them, whatever their static priorities.
 */
#include "order_state.h"

#include <math.h>

enum { SRC_QUEUE, SRC_USER, SRC_GROUP };

static const hsim_param_def_t priority_params[] = {
    {"source", HSIM_PARAM_CHOICE, SRC_QUEUE, 0, 0, "queue|user|group",
     "what the static priority is keyed by"},
    {"table", HSIM_PARAM_TABLE, 0, -1e9, 1e9, NULL,
     "static priority per id (queue, user or group); without it, the queue number itself"},
    {"default", HSIM_PARAM_REAL, 0, -1e9, 1e9, NULL,
     "static priority of an id the table does not list"},
    {"age_weight", HSIM_PARAM_REAL, 1, 0, 1e9, NULL,
     "priority gained per hour of wait (0: no aging, a job may starve)"},
    {"max_age", HSIM_PARAM_REAL, 0, 0, 1e6, NULL,
     "hours of wait after which aging stops (0: never)"},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

typedef struct prio {
    hsim_scores_t s;                   /* first: hsim_scores_compare() */
    int source;
    const hsim_param_table_t *table;   /* NULL: the queue number */
    double dflt, age_weight, max_age_s;
} prio_t;

static int prio_create(const hsim_order_ctx_t *c, void **state)
{
    prio_t *p = hsim_calloc(1, sizeof *p);
    if (!p || hsim_scores_init(&p->s, c->n_jobs)) {
        hsim_free(p);
        return HSIM_ENOMEM;
    }
    const char *me = "priority";
    p->source = (int)hsim_param_num(c->values, me, priority_params, "source");
    p->table = hsim_param_table(c->values, me, "table");
    p->dflt = hsim_param_num(c->values, me, priority_params, "default");
    p->age_weight = hsim_param_num(c->values, me, priority_params, "age_weight");
    p->max_age_s = 3600 * hsim_param_num(c->values, me, priority_params, "max_age");
    *state = p;
    return 0;
}

static void prio_destroy(void *state)
{
    prio_t *p = state;
    hsim_scores_free(&p->s);
    hsim_free(p);
}

/* The static part of j's priority. */
static double static_priority(const prio_t *p, const hsim_vjob_t *j)
{
    int32_t id = p->source == SRC_QUEUE ? j->queue : p->source == SRC_USER ? j->user : j->group;
    if (p->table)
        return hsim_table_lookup(p->table, id, p->dflt);
    return p->source == SRC_QUEUE && id >= 0 ? id : p->dflt;
}

static int prio_pass(void *state, const hsim_view_t *v)
{
    prio_t *p = state;
    for (size_t i = 0; i < v->n_waiting; i++) {
        int32_t k = v->waiting[i];
        if (k < 0)
            continue;
        double age = hsim_wait_s(&v->jobs[k], v->now);
        if (p->max_age_s > 0 && age > p->max_age_s)
            age = p->max_age_s;
        p->s.score[k] = static_priority(p, &v->jobs[k]) + p->age_weight * age / 3600;
    }
    return 0;
}

const hsim_order_t hsim_order_priority = {
    .name = "priority",
    .summary = "static priority (queue, or a per-queue/user/group table) plus aging, highest first",
    .params = priority_params,
    .time_dependent = 1,
    .ignores_estimates = 1,
    .compare = hsim_scores_compare,
    .create = prio_create,
    .destroy = prio_destroy,
    .grow = hsim_scores_grow,
    .pass = prio_pass,
};
