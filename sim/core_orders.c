/*
 * core_orders.c - the queue orders' per-run state and hooks (policy.h):
 * the core creates the state of the queue order and of the backfilling
 * order, hands it to the scheduler (hsim_policy_params_t) and calls the
 * orders' hooks, so that an order can keep usage tables or a plan of its
 * own.  An order without create() has no state and costs nothing here.
 */
#include "core_run.h"

#include <stdlib.h>
#include <string.h>

int hsim__orders_create(hsim_core_t *c)
{
    hsim_order_ctx_t x = {
        .n_jobs = c->cap_jobs,
        .capacity = c->cfg->capacity,
        .values = c->cfg->values,
        .seed = c->cfg->seed,
    };
    const hsim_order_t *o = c->cfg->order, *b = c->cfg->backfill_order;
    int rc = o->create ? o->create(&x, &c->order_state) : 0;
    if (rc == 0 && b && b->create)
        rc = b->create(&x, &c->bf_order_state);
    return rc;
}

/* The order's report into c->stats (its own buffer).  0 or HSIM_ENOMEM,
   HSIM_EIO when the memory stream fails. */
static int take_report(hsim_core_t *c)
{
    const hsim_order_t *o = c->cfg->order;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return HSIM_ENOMEM;
    int rc = o->report(c->order_state, f);
    if (fclose(f) && rc == 0)
        rc = HSIM_EIO;
    if (rc == 0) {
        c->stats.order_report = hsim_malloc(len + 1);
        if (!c->stats.order_report)
            rc = HSIM_ENOMEM;
        else {
            memcpy(c->stats.order_report, text, len + 1);
            c->stats.order_report_len = len;
        }
    }
    free(text); /* open_memstream's own allocation */
    return rc;
}

int hsim__orders_grow(hsim_core_t *c, size_t n)
{
    const hsim_order_t *o = c->cfg->order, *b = c->cfg->backfill_order;
    int rc = o->grow && c->order_state ? o->grow(c->order_state, n) : 0;
    if (rc == 0 && b && b->grow && c->bf_order_state)
        rc = b->grow(c->bf_order_state, n);
    return rc;
}

int hsim__orders_destroy(hsim_core_t *c, int ok)
{
    const hsim_order_t *o = c->cfg->order, *b = c->cfg->backfill_order;
    int rc = 0;
    if (ok && c->order_state && o->report)
        rc = take_report(c);
    if (c->order_state)
        o->destroy(c->order_state);
    if (c->bf_order_state)
        b->destroy(c->bf_order_state);
    c->order_state = c->bf_order_state = NULL;
    return rc;
}

int hsim__order_pass(hsim_core_t *c)
{
    const hsim_order_t *o = c->cfg->order, *b = c->cfg->backfill_order;
    int rc = o->pass ? o->pass(c->order_state, &c->view) : 0;
    if (rc == 0 && b && b->pass)
        rc = b->pass(c->bf_order_state, &c->view);
    return rc;
}

int hsim__order_started(hsim_core_t *c, int32_t job)
{
    const hsim_order_t *o = c->cfg->order, *b = c->cfg->backfill_order;
    int rc = o->started ? o->started(c->order_state, &c->view, job) : 0;
    if (rc == 0 && b && b->started)
        rc = b->started(c->bf_order_state, &c->view, job);
    return rc;
}

int hsim__order_ended(hsim_core_t *c, int32_t job, hsim_time_t start)
{
    const hsim_order_t *o = c->cfg->order, *b = c->cfg->backfill_order;
    int rc = o->ended ? o->ended(c->order_state, &c->view, job, start) : 0;
    if (rc == 0 && b && b->ended)
        rc = b->ended(c->bf_order_state, &c->view, job, start);
    return rc;
}
