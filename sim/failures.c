/*
 * failures.c - failure draws and failure traces (see failures.h).
 *
 * Each draw reseeds one scratch generator from a hash of (seed, stream,
 * node, k): a reseed costs a few hundred operations, and failures are
 * rare beside jobs, so independence from the engine's event order is
 * cheap.
 */
#include "failures.h"

#include "../workloads/synthetic.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

hsim_time_t hsim_failures_draw(const hsim_failures_t *f, gsl_rng *rng, int32_t node, uint64_t k)
{
    uint64_t h = splitmix(f->seed ^ splitmix(HSIM_STREAM_FAILURES));
    h = splitmix(h ^ (uint64_t)(uint32_t)node);
    h = splitmix(h ^ k);
    gsl_rng_set(rng, (unsigned long)(h ^ (h >> 32)));
    double mean = (double)(k % 2 ? f->mttr : f->mtbf) / HSIM_SECOND, x;
    if (f->dist == HSIM_FAIL_WEIBULL)
        x = gsl_ran_weibull(rng, mean / gsl_sf_gamma(1.0 + 1.0 / f->shape), f->shape);
    else
        x = gsl_ran_exponential(rng, mean);
    x = ceil(x);
    if (!(x >= 1)) /* (NaN too) */
        x = 1;
    if (x > (double)(HSIM_HORIZON / HSIM_SECOND))
        x = (double)(HSIM_HORIZON / HSIM_SECOND);
    return (hsim_time_t)x * HSIM_SECOND;
}

int hsim_fail_dist_parse(const char *s, hsim_fail_dist_t *d)
{
    if (!strcmp(s, "exponential"))
        *d = HSIM_FAIL_EXPONENTIAL;
    else if (!strcmp(s, "weibull"))
        *d = HSIM_FAIL_WEIBULL;
    else
        return -1;
    return 0;
}

int hsim_on_failure_parse(const char *s, hsim_on_failure_t *a)
{
    if (!strcmp(s, "requeue"))
        *a = HSIM_ON_FAILURE_REQUEUE;
    else if (!strcmp(s, "checkpoint"))
        *a = HSIM_ON_FAILURE_CHECKPOINT;
    else
        return -1;
    return 0;
}

static int by_down(const void *a, const void *b)
{
    const hsim_outage_t *x = a, *y = b;
    if (x->down != y->down)
        return x->down < y->down ? -1 : 1;
    return (x->node > y->node) - (x->node < y->node);
}

static int by_node(const void *a, const void *b)
{
    const hsim_outage_t *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return (x->down > y->down) - (x->down < y->down);
}

/* A time field in seconds (>= 0, decimals allowed) into *t. */
static int parse_seconds(const char *s, hsim_time_t *t)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end || errno || !(x >= 0) || x > (double)(HSIM_HORIZON / HSIM_SECOND))
        return -1;
    *t = (hsim_time_t)llround(x * HSIM_SECOND);
    return 0;
}

/* The outages read so far, for hsim_read_lines(). */
typedef struct trace_read {
    const char *path;
    int32_t n_nodes;
    hsim_outage_t *o;
    int64_t *lines;             /* the line of each outage */
    size_t cap, cap_lines, m;
    int header;                 /* the header was read */
    hsim_err_t *e;
} trace_read_t;

static int trace_line(void *ctx, int64_t line, char **fl, size_t k, const char *s)
{
    trace_read_t *t = ctx;
    const char *path = t->path;
    hsim_err_t *e = t->e;
    if (!t->header) {
        t->header = 1;
        if (k != 3 || strcmp(fl[0], "node") || strcmp(fl[1], "down_at") ||
            strcmp(fl[2], "up_at"))
            return hsim_errf(e, HSIM_EINPUT, "%s:%lld: expected the header "
                             "'node,down_at,up_at', found '%s'", path, (long long)line, s);
        return 0;
    }
    hsim_outage_t x;
    char *end;
    long long node = k == 3 ? strtoll(fl[0], &end, 10) : -1;
    if (k != 3)
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: expected 3 fields (node,down_at,up_at), "
                         "found %zu", path, (long long)line, k);
    if (!fl[0][0] || *end || node < 0 || node >= t->n_nodes)
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: field 1 (node): expected a node index in "
                         "0..%d, found '%s'", path, (long long)line, t->n_nodes - 1, fl[0]);
    if (parse_seconds(fl[1], &x.down))
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: field 2 (down_at): expected seconds >= 0, "
                         "found '%s'", path, (long long)line, fl[1]);
    if (parse_seconds(fl[2], &x.up) || x.up <= x.down)
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: field 3 (up_at): expected seconds after "
                         "down_at, found '%s'", path, (long long)line, fl[2]);
    x.node = (int32_t)node;
    if (hsim_grow(&t->o, &t->cap, t->m + 1, sizeof *t->o) ||
        hsim_grow(&t->lines, &t->cap_lines, t->m + 1, sizeof *t->lines))
        return HSIM_ENOMEM;
    t->lines[t->m] = line;
    t->o[t->m++] = x;
    return 0;
}

int hsim_failures_read(const char *path, int32_t n_nodes, hsim_outage_t **out, size_t *n,
                       hsim_err_t *e)
{
    *out = NULL;
    *n = 0;
    trace_read_t tr = {.path = path, .n_nodes = n_nodes, .e = e};
    int rc = hsim_read_lines(path, path, 510, trace_line, &tr, e);
    hsim_outage_t *o = tr.o;
    int64_t *lines = tr.lines;
    size_t m = tr.m;
    int header = tr.header;
    if (rc == 0 && !header)
        rc = hsim_errf(e, HSIM_EINPUT, "%s: empty: expected the header 'node,down_at,up_at'",
                       path);
    if (rc == 0) { /* overlaps, node by node: a copy sorted by (node, down)
                      whose up field holds the outage's index */
        hsim_outage_t *t = hsim_malloc((m ? m : 1) * sizeof *t);
        if (!t)
            rc = HSIM_ENOMEM;
        for (size_t i = 0; rc == 0 && i < m; i++)
            t[i] = (hsim_outage_t){.node = o[i].node, .down = o[i].down, .up = (hsim_time_t)i};
        if (rc == 0)
            qsort(t, m, sizeof *t, by_node);
        for (size_t i = 1; rc == 0 && i < m; i++) {
            const hsim_outage_t *a = &o[t[i - 1].up], *b = &o[t[i].up];
            if (a->node == b->node && b->down < a->up)
                rc = hsim_errf(e, HSIM_EINPUT, "%s:%lld: node %d is down already (from line "
                               "%lld, until %g s)", path, (long long)lines[t[i].up], b->node,
                               (long long)lines[t[i - 1].up], (double)a->up / HSIM_SECOND);
        }
        hsim_free(t);
    }
    hsim_free(lines);
    if (rc) {
        hsim_free(o);
        return rc;
    }
    if (m) /* (o is NULL without any outage: qsort wants a pointer) */
        qsort(o, m, sizeof *o, by_down);
    *out = o;
    *n = m;
    return 0;
}
