/*
 * failures.h - nodes that fail and come back: the failure model of a run
 * and its draws, and failure traces.
 *
 * A node is up, then down for a repair, then up again, and so on.  Times
 * between failures and to repair are drawn from an exponential or a
 * Weibull distribution of given means (GSL's), or read from a trace of
 * outages (node,down_at,up_at).  Draw k of node n comes from a GSL stream
 * seeded by (experiment seed, HSIM_STREAM_FAILURES, n, k) alone: the
 * outages do not depend on the order in which the engine asks for them,
 * so every policy of an experiment sees the same ones (up to its own end).
 * Draws are whole seconds, at least 1 s, so that integer traces keep
 * integer schedules.
 */
#ifndef HSIM_FAILURES_H
#define HSIM_FAILURES_H

#include "common.h"

#include <gsl/gsl_rng.h>

typedef enum hsim_fail_dist {
    HSIM_FAIL_EXPONENTIAL = 0,
    HSIM_FAIL_WEIBULL = 1,
} hsim_fail_dist_t;

/* What happens to a job whose node fails. */
typedef enum hsim_on_failure {
    HSIM_ON_FAILURE_REQUEUE = 0,    /* back to the queue; starts again from
                                       zero */
    HSIM_ON_FAILURE_CHECKPOINT = 1, /* back to the queue; keeps the work
                                       done, pays restart_cost at its next
                                       start */
} hsim_on_failure_t;

/* A job stopped this many times makes the run fail: its nodes fail faster
   than it can run (with requeue, a job on k nodes for L seconds ends an
   attempt with probability exp(-k L / mtbf)), and the run would never
   end. */
#define HSIM_MAX_STOPS 1000

/* One outage of a trace. */
typedef struct hsim_outage {
    int32_t node;           /* node index (cluster order), >= 0 */
    hsim_time_t down, up;   /* down at, up again at; down < up */
} hsim_outage_t;

/* The failures of one run: a model or a trace, and the policy's answer. */
typedef struct hsim_failures {
    hsim_fail_dist_t dist;      /* with a model (trace == NULL) */
    hsim_time_t mtbf;           /* mean time between failures of a node, > 0 */
    hsim_time_t mttr;           /* mean time to repair, > 0 */
    double shape;               /* Weibull's shape k (> 0; 1 = exponential) */
    uint64_t seed;              /* the experiment's seed */
    int32_t type;               /* the node type that fails, -1 = every node */
    const hsim_outage_t *trace; /* or outages, sorted by (down, node), none
                                   overlapping on one node; NULL = model */
    size_t n_trace;
    hsim_on_failure_t on_failure;
    hsim_time_t restart_cost;   /* with checkpoints: added to a restart */
} hsim_failures_t;

/* Draw k of node (even k: time to the next failure; odd k: time to
   repair), whole seconds >= 1 s.  rng is scratch (any GSL generator). */
hsim_time_t hsim_failures_draw(const hsim_failures_t *f, gsl_rng *rng, int32_t node, uint64_t k);

/*
 * Reads a failure trace: CSV with the header node,down_at,up_at (seconds,
 * integers or decimals; blank lines and '#' comments skipped), node an
 * index below n_nodes.  *out (caller frees with hsim_free) gets the
 * outages sorted by (down, node).  A malformed line, a node out of range,
 * up_at <= down_at, or two outages of one node that overlap are errors
 * "PATH:LINE: ...", and so is a line of more than 510 characters or with
 * a NUL byte.  0, HSIM_EINPUT, HSIM_EIO or HSIM_ENOMEM.
 */
int hsim_failures_read(const char *path, int32_t n_nodes, hsim_outage_t **out, size_t *n,
                       hsim_err_t *e);

/* Parses exponential | weibull, requeue | checkpoint.  0 or -1. */
int hsim_fail_dist_parse(const char *s, hsim_fail_dist_t *d);
int hsim_on_failure_parse(const char *s, hsim_on_failure_t *a);

#endif
