/*
 * registry.c - the one table of queue orders and schedulers.  Adding a
 * policy means writing its file and adding one line here.
 */
#include "registry.h"

#include "../predictor/predictor.h"

#include <string.h>

extern const hsim_order_t hsim_order_fcfs;
extern const hsim_order_t hsim_order_sjf;
extern const hsim_order_t hsim_order_ljf, hsim_order_wfp3, hsim_order_unicep; /* order_scores.c */
extern const hsim_order_t hsim_order_f1, hsim_order_f2, hsim_order_f3, hsim_order_f4;
extern const hsim_scheduler_t hsim_sched_none;
extern const hsim_scheduler_t hsim_sched_easy;
extern const hsim_scheduler_t hsim_sched_conservative;
extern const hsim_scheduler_t hsim_sched_rr;

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
    NULL,
};

const hsim_scheduler_t *const hsim_schedulers[] = {
    &hsim_sched_none,
    &hsim_sched_easy,
    &hsim_sched_conservative,
    &hsim_sched_rr,
    NULL,
};

const hsim_order_t *hsim_order_find(const char *name)
{
    for (size_t i = 0; hsim_orders[i]; i++)
        if (!strcmp(hsim_orders[i]->name, name))
            return hsim_orders[i];
    return NULL;
}

const hsim_scheduler_t *hsim_scheduler_find(const char *name)
{
    for (size_t i = 0; hsim_schedulers[i]; i++)
        if (!strcmp(hsim_schedulers[i]->name, name))
            return hsim_schedulers[i];
    return NULL;
}

static void append(char *buf, size_t size, const char *name)
{
    size_t n = strlen(buf);
    snprintf(buf + n, size - n, "%s%s", n ? ", " : "", name);
}

void hsim_order_names(char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = 0; hsim_orders[i]; i++)
        append(buf, size, hsim_orders[i]->name);
}

void hsim_scheduler_names(char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = 0; hsim_schedulers[i]; i++)
        append(buf, size, hsim_schedulers[i]->name);
}

void hsim_predictor_names(char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = 0; hsim_predictors[i]; i++)
        append(buf, size, hsim_predictors[i]->name);
}
