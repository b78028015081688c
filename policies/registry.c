/*
 * registry.c - the one table of each kind of plug-in, and the one lookup
 * over all of them.  Adding a plug-in means writing its file and adding
 * one line here.  The tables are const: lookups share no mutable state.
 */
#include "registry.h"

#include <string.h>

extern const hsim_order_t hsim_order_fcfs;
extern const hsim_order_t hsim_order_sjf;
extern const hsim_order_t hsim_order_ljf, hsim_order_wfp3, hsim_order_unicep; /* order_scores.c */
extern const hsim_order_t hsim_order_f1, hsim_order_f2, hsim_order_f3, hsim_order_f4;
extern const hsim_order_t hsim_order_priority;    /* order_priority.c */
extern const hsim_order_t hsim_order_fairshare;   /* order_fairshare.c */
extern const hsim_order_t hsim_order_multifactor; /* order_multifactor.c */
extern const hsim_order_t hsim_order_adaptive;    /* order_adaptive.c */
extern const hsim_order_t hsim_order_ga;          /* order_ga.c */
extern const hsim_order_t hsim_order_sa;          /* order_sa.c */
extern const hsim_scheduler_t hsim_sched_none;
extern const hsim_scheduler_t hsim_sched_easy;
extern const hsim_scheduler_t hsim_sched_conservative;
extern const hsim_scheduler_t hsim_sched_rr;
extern const hsim_predictor_t hsim_predictor_user, hsim_predictor_oracle; /* simple.c */
extern const hsim_predictor_t hsim_predictor_last2;                       /* last2.c */
extern const hsim_predictor_t hsim_predictor_typical;                   /* typical.c */
extern const hsim_predictor_t hsim_predictor_regression, hsim_predictor_gbdt,
    hsim_predictor_lstm; /* trained.c */
extern const hsim_placement_t hsim_place_first_fit;
extern const hsim_placement_t hsim_place_best_fit;
extern const hsim_placement_t hsim_place_worst_fit;
extern const hsim_placement_t hsim_place_round_robin;
extern const hsim_placement_t hsim_place_weighted_rr;
extern const hsim_placement_t hsim_place_least_conn;
extern const hsim_placement_t hsim_place_source_hash;
extern const hsim_placement_t hsim_place_hetero;

const hsim_order_t *const hsim_orders[] = {
    &hsim_order_fcfs,
    &hsim_order_sjf,
    &hsim_order_ljf,
    &hsim_order_wfp3,
    &hsim_order_unicep,
    &hsim_order_f1,
    &hsim_order_f2,
    &hsim_order_f3,
    &hsim_order_f4,
    &hsim_order_priority,
    &hsim_order_fairshare,
    &hsim_order_multifactor,
    &hsim_order_adaptive,
    &hsim_order_ga,
    &hsim_order_sa,
    NULL,
};

const hsim_scheduler_t *const hsim_schedulers[] = {
    &hsim_sched_none,
    &hsim_sched_easy,
    &hsim_sched_conservative,
    &hsim_sched_rr,
    NULL,
};

const hsim_predictor_t *const hsim_predictors[] = {
    &hsim_predictor_user,
    &hsim_predictor_oracle,
    &hsim_predictor_last2,
    &hsim_predictor_typical,
    &hsim_predictor_regression,
    &hsim_predictor_gbdt,
    &hsim_predictor_lstm,
    NULL,
};

/* In the order the help lists them. */
const hsim_placement_t *const hsim_placements[] = {
    &hsim_place_first_fit,
    &hsim_place_best_fit,
    &hsim_place_worst_fit,
    &hsim_place_round_robin,
    &hsim_place_weighted_rr,
    &hsim_place_least_conn,
    &hsim_place_source_hash,
    &hsim_place_hetero,
    NULL,
};

int hsim_plugin_at(hsim_plugin_kind_t kind, size_t i, hsim_plugin_t *out)
{
    switch (kind) {
    case HSIM_PLUGIN_ORDER: {
        const hsim_order_t *o = hsim_orders[i];
        *out = o ? (hsim_plugin_t){o->name, o->summary, o->params, o} : (hsim_plugin_t){0};
        break;
    }
    case HSIM_PLUGIN_SCHEDULER: {
        const hsim_scheduler_t *s = hsim_schedulers[i];
        *out = s ? (hsim_plugin_t){s->name, s->summary, s->params, s} : (hsim_plugin_t){0};
        break;
    }
    case HSIM_PLUGIN_PREDICTOR: {
        const hsim_predictor_t *p = hsim_predictors[i];
        *out = p ? (hsim_plugin_t){p->name, p->summary, NULL, p} : (hsim_plugin_t){0};
        break;
    }
    case HSIM_PLUGIN_PLACEMENT: {
        const hsim_placement_t *p = hsim_placements[i];
        *out = p ? (hsim_plugin_t){p->name, p->summary, NULL, p} : (hsim_plugin_t){0};
        break;
    }
    default:
        HSIM_ASSERT(!"a plug-in kind");
    }
    return out->desc ? 0 : -1;
}

const void *hsim_plugin_find(hsim_plugin_kind_t kind, const char *name)
{
    hsim_plugin_t p;
    for (size_t i = 0; hsim_plugin_at(kind, i, &p) == 0; i++)
        if (!strcmp(p.name, name))
            return p.desc;
    return NULL;
}

void hsim_plugin_names(hsim_plugin_kind_t kind, char *buf, size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    hsim_plugin_t p;
    for (size_t i = 0; hsim_plugin_at(kind, i, &p) == 0; i++) {
        size_t n = strlen(buf);
        snprintf(buf + n, size - n, "%s%s", n ? ", " : "", p.name);
    }
}

void hsim_plugin_help(FILE *out, hsim_plugin_kind_t kind)
{
    hsim_plugin_t p;
    for (size_t i = 0; hsim_plugin_at(kind, i, &p) == 0; i++) {
        fprintf(out, "  %-22s %s\n", p.name, p.summary);
        hsim_param_help(out, p.name, p.params);
    }
}

const hsim_predictor_t *hsim_predictor_find(const char *name)
{
    return hsim_plugin_find(HSIM_PLUGIN_PREDICTOR, name);
}

const hsim_placement_t *hsim_placement_find(const char *name)
{
    return hsim_plugin_find(HSIM_PLUGIN_PLACEMENT, name);
}

void hsim_placement_names(char *buf, size_t size)
{
    hsim_plugin_names(HSIM_PLUGIN_PLACEMENT, buf, size);
}

const char *hsim_policy_refusal(const hsim_order_t *order, const hsim_order_t *bf,
                                const hsim_scheduler_t *s, const hsim_predictor_t *p,
                                const char **key)
{
    if (s->stops_jobs && strcmp(order->name, "fcfs")) {
        *key = "queue";
        return "backfill = rr takes jobs in turn, in submission order: expected queue = fcfs";
    }
    if (p && s->fixed_estimates && (p->revises || p->underpredicts)) {
        *key = "estimate";
        return "it plans on estimates that never change and that no job outlives, and "
               "this predictor revises its answers or can under-predict: expected "
               "estimate = user or oracle";
    }
    if (bf && !s->reads_backfill_order) {
        *key = "backfill_order";
        return "only easy reads it (it backfills in an order of its own): expected "
               "backfill = easy";
    }
    return NULL;
}

/* The order or scheduler named name (len bytes): its parameters into
   *defs and its name into *full.  0, or -1 when there is none. */
static int plugin_named(const char *name, size_t len, const hsim_param_def_t **defs,
                        const char **full)
{
    static const hsim_plugin_kind_t kinds[] = {HSIM_PLUGIN_ORDER, HSIM_PLUGIN_SCHEDULER};
    hsim_plugin_t p;
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; hsim_plugin_at(kinds[k], i, &p) == 0; i++)
            if (strlen(p.name) == len && !strncmp(p.name, name, len)) {
                *defs = p.params;
                *full = p.name;
                return 0;
            }
    return -1;
}

/* Checks an ORDERS value of d: every name a registered order without
   state, d->min..d->max of them.  0 or -1. */
static int check_orders(const hsim_param_def_t *d, const char *list, const char *param,
                        char *why, size_t size)
{
    char buf[HSIM_PARAM_TEXT], names[512];
    hsim_strlcpy(buf, list, sizeof buf);
    size_t n = 0;
    for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
        const hsim_order_t *o = hsim_order_find(w);
        if (!o || o->create) {
            hsim_order_names(names, sizeof names);
            snprintf(why, size, "%s: '%s' is not %s: expected names among %s", param, w,
                     o ? "an order without state of its own" : "a queue order", names);
            return -1;
        }
        n++;
    }
    if (n < d->min || n > d->max) {
        snprintf(why, size, "%s: expected %g to %g order names, found '%s'", param, d->min,
                 d->max, list);
        return -1;
    }
    return 0;
}

int hsim_plugin_param(const char *key, const char *value, int line, hsim_param_set_t *set,
                      char *why, size_t size)
{
    const char *dot = strchr(key, '.');
    const hsim_param_def_t *defs;
    const char *plugin;
    if (!dot || plugin_named(key, (size_t)(dot - key), &defs, &plugin))
        return 0;
    char names[512];
    const hsim_param_def_t *d = hsim_param_find(defs, dot + 1);
    if (!d) {
        hsim_param_names(defs, names, sizeof names);
        snprintf(why, size, "unknown parameter '%s' of %s: expected one of %s", dot + 1, plugin,
                 names);
        return -1;
    }
    if (hsim_param_get(set, plugin, d->name)) {
        snprintf(why, size, "key '%s' is given twice", key);
        return -1;
    }
    if (set->n == HSIM_PARAM_SET_MAX) {
        snprintf(why, size, "too many plug-in parameters (at most %d)", HSIM_PARAM_SET_MAX);
        return -1;
    }
    hsim_param_value_t *v = &set->v[set->n];
    memset(v, 0, sizeof *v);
    hsim_strlcpy(v->plugin, plugin, sizeof v->plugin);
    v->line = line;
    if (hsim_param_parse(d, value, v, why, size) ||
        (d->type == HSIM_PARAM_ORDERS && check_orders(d, value, key, why, size)))
        return -1;
    set->n++;
    return 1;
}

/* Whether order's ORDERS parameters (given or default) name name. */
static int names_order(const hsim_param_set_t *set, const hsim_order_t *order, const char *name)
{
    for (size_t i = 0; order && order->params && order->params[i].name; i++) {
        if (order->params[i].type != HSIM_PARAM_ORDERS)
            continue;
        char buf[HSIM_PARAM_TEXT];
        hsim_strlcpy(buf, hsim_param_text(set, order->name, order->params, order->params[i].name),
                     sizeof buf);
        for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w;
             w = strtok_r(NULL, ", ", &save))
            if (!strcmp(w, name))
                return 1;
    }
    return 0;
}

const hsim_param_value_t *hsim_param_unread(const hsim_param_set_t *set,
                                            const hsim_order_t *order, const hsim_order_t *bf,
                                            const hsim_scheduler_t *s)
{
    for (size_t i = 0; i < set->n; i++) {
        const char *p = set->v[i].plugin;
        if (!strcmp(p, order->name) || (bf && !strcmp(p, bf->name)) || !strcmp(p, s->name) ||
            names_order(set, order, p) || names_order(set, bf, p))
            continue;
        return &set->v[i];
    }
    return NULL;
}
