/*
 * engine_orders.c - the queue orders' per-run state and hooks (policy.h):
 * the engine creates the state of the queue order and of the backfilling
 * order, hands it to the scheduler (hsim_policy_params_t) and calls the
 * orders' hooks, so that an order can keep usage tables or a plan of its
 * own.  An order without create() has no state and costs nothing here.
 */
#include "engine_run.h"

#include <stdlib.h>
#include <string.h>

int hsim__orders_create(run_t *r)
{
    hsim_order_ctx_t c = {
        .n_jobs = r->n_jobs,
        .capacity = r->cfg->capacity,
        .values = r->cfg->values,
        .seed = r->cfg->seed,
    };
    const hsim_order_t *o = r->cfg->order, *b = r->cfg->backfill_order;
    int rc = o->create ? o->create(&c, &r->order_state) : 0;
    if (rc == 0 && b && b->create)
        rc = b->create(&c, &r->bf_order_state);
    return rc;
}

/* The order's report into r->stats (its own buffer).  0 or HSIM_ENOMEM,
   HSIM_EIO when the memory stream fails. */
static int take_report(run_t *r)
{
    const hsim_order_t *o = r->cfg->order;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return HSIM_ENOMEM;
    int rc = o->report(r->order_state, f);
    if (fclose(f) && rc == 0)
        rc = HSIM_EIO;
    if (rc == 0) {
        r->stats.order_report = hsim_malloc(len + 1);
        if (!r->stats.order_report)
            rc = HSIM_ENOMEM;
        else {
            memcpy(r->stats.order_report, text, len + 1);
            r->stats.order_report_len = len;
        }
    }
    free(text); /* open_memstream's own allocation */
    return rc;
}

int hsim__orders_destroy(run_t *r, int ok)
{
    const hsim_order_t *o = r->cfg->order, *b = r->cfg->backfill_order;
    int rc = 0;
    if (ok && r->order_state && o->report)
        rc = take_report(r);
    if (r->order_state)
        o->destroy(r->order_state);
    if (r->bf_order_state)
        b->destroy(r->bf_order_state);
    r->order_state = r->bf_order_state = NULL;
    return rc;
}

int hsim__order_pass(run_t *r)
{
    const hsim_order_t *o = r->cfg->order, *b = r->cfg->backfill_order;
    int rc = o->pass ? o->pass(r->order_state, &r->view) : 0;
    if (rc == 0 && b && b->pass)
        rc = b->pass(r->bf_order_state, &r->view);
    return rc;
}

int hsim__order_started(run_t *r, int32_t job)
{
    const hsim_order_t *o = r->cfg->order, *b = r->cfg->backfill_order;
    int rc = o->started ? o->started(r->order_state, &r->view, job) : 0;
    if (rc == 0 && b && b->started)
        rc = b->started(r->bf_order_state, &r->view, job);
    return rc;
}

int hsim__order_ended(run_t *r, int32_t job, hsim_time_t start)
{
    const hsim_order_t *o = r->cfg->order, *b = r->cfg->backfill_order;
    int rc = o->ended ? o->ended(r->order_state, &r->view, job, start) : 0;
    if (rc == 0 && b && b->ended)
        rc = b->ended(r->bf_order_state, &r->view, job, start);
    return rc;
}
