/*
 * registry.h - every plug-in a [policy] section can name, listed once and
 * found by name: queue orders, schedulers, placements and predictors.
 *
 * The four kinds have descriptors of their own types; the registry reads
 * the fields they share (name, summary, parameters) through one accessor,
 * so finding, listing and printing are written once for all of them.
 */
#ifndef HSIM_REGISTRY_H
#define HSIM_REGISTRY_H

#include "placement.h"
#include "policy.h"

#include "../predictor/predictor.h"

extern const hsim_order_t *const hsim_orders[];         /* NULL-terminated */
extern const hsim_scheduler_t *const hsim_schedulers[]; /* NULL-terminated */

typedef enum hsim_plugin_kind {
    HSIM_PLUGIN_ORDER,
    HSIM_PLUGIN_SCHEDULER,
    HSIM_PLUGIN_PREDICTOR,
    HSIM_PLUGIN_PLACEMENT,
    HSIM_PLUGIN_KINDS
} hsim_plugin_kind_t;

/* What every descriptor has. */
typedef struct hsim_plugin {
    const char *name;
    const char *summary;
    const hsim_param_def_t *params; /* NULL: none */
    const void *desc;               /* the descriptor itself */
} hsim_plugin_t;

/* The i-th plug-in of a kind into *out: 0, or -1 past the last.  O(1). */
int hsim_plugin_at(hsim_plugin_kind_t kind, size_t i, hsim_plugin_t *out);
/* The descriptor of the kind named name, or NULL.  O(plug-ins). */
const void *hsim_plugin_find(hsim_plugin_kind_t kind, const char *name);
/* "a, b, c": the names of a kind, into buf (always terminated). */
void hsim_plugin_names(hsim_plugin_kind_t kind, char *buf, size_t size);
/* Prints every plug-in of a kind, its summary and its parameters. */
void hsim_plugin_help(FILE *out, hsim_plugin_kind_t kind);

static inline const hsim_order_t *hsim_order_find(const char *name)
{
    return hsim_plugin_find(HSIM_PLUGIN_ORDER, name);
}
static inline const hsim_scheduler_t *hsim_scheduler_find(const char *name)
{
    return hsim_plugin_find(HSIM_PLUGIN_SCHEDULER, name);
}
static inline void hsim_order_names(char *buf, size_t size)
{
    hsim_plugin_names(HSIM_PLUGIN_ORDER, buf, size);
}
static inline void hsim_scheduler_names(char *buf, size_t size)
{
    hsim_plugin_names(HSIM_PLUGIN_SCHEDULER, buf, size);
}
static inline void hsim_predictor_names(char *buf, size_t size)
{
    hsim_plugin_names(HSIM_PLUGIN_PREDICTOR, buf, size);
}

/*
 * Whether a [policy] section's plug-ins go together: NULL when they do,
 * else the reason, and *key gets the key to blame ("estimate",
 * "backfill_order", "queue").  The one place where the descriptors' flags
 * (a scheduler's fixed_estimates and reads_backfill_order, a predictor's
 * revises and underpredicts) are checked against each other; bf may be
 * NULL.
 */
const char *hsim_policy_refusal(const hsim_order_t *order, const hsim_order_t *bf,
                                const hsim_scheduler_t *s, const hsim_predictor_t *p,
                                const char **key);

#endif

/*
 * A [policy] key "<plug-in>.<parameter>" (priority.age_weight, say) with
 * its value, into set: 1 when it was read; 0 when key names no order's or
 * scheduler's parameter (not a plug-in key); -1 when it does but is wrong,
 * with why (size bytes) naming the valid parameters or values.  line is
 * kept for later messages.  O(plug-ins + parameters).
 */
int hsim_plugin_param(const char *key, const char *value, int line, hsim_param_set_t *set,
                      char *why, size_t size);
/* The first value of set that none of the plug-ins in use reads (the
   order, bf, the scheduler, or an order that the order's ORDERS
   parameters name), or NULL. */
const hsim_param_value_t *hsim_param_unread(const hsim_param_set_t *set,
                                            const hsim_order_t *order, const hsim_order_t *bf,
                                            const hsim_scheduler_t *s);
