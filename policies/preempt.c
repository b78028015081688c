/*
 * preempt.c - preemption by rank (see preempt.h).  The pass is greedy: the
 * cheapest set of victims is not searched for (a knapsack), only
 * approached by taking the cheapest first and then giving back those the
 * head does not need.  Anti-thrashing: only jobs ranked strictly below the
 * head are stopped, so two jobs never stop each other under an order that
 * does not change with time, and a job runs at least the grace time
 * between two stops under one that does (aging).
 */
#include "preempt.h"

#include "../sim/cluster.h"

#include <stdlib.h>

typedef struct victim {
    double cost;     /* processors x seconds since its last start */
    int32_t job;
    int32_t procs;   /* processors (cores) it frees */
    int32_t gpus;    /* whole GPUs it frees (on a cluster) */
    int32_t taken;   /* 1 when in the set */
} victim_t;

struct hsim_preempt {
    victim_t *c;     /* [n_jobs]: the candidates of a pass */
    size_t n_jobs;
};

int hsim_preempt_create(size_t n_jobs, hsim_preempt_t **out)
{
    hsim_preempt_t *p = hsim_calloc(1, sizeof *p);
    if (!p || !(p->c = hsim_malloc((n_jobs ? n_jobs : 1) * sizeof *p->c))) {
        hsim_free(p);
        return HSIM_ENOMEM;
    }
    p->n_jobs = n_jobs ? n_jobs : 1;
    *out = p;
    return 0;
}

int hsim_preempt_grow(hsim_preempt_t *p, size_t n_jobs)
{
    if (n_jobs <= p->n_jobs)
        return 0;
    if (hsim_grow_zeroed(&p->c, p->n_jobs, n_jobs, sizeof *p->c))
        return HSIM_ENOMEM;
    p->n_jobs = n_jobs;
    return 0;
}

void hsim_preempt_destroy(hsim_preempt_t *p)
{
    if (p)
        hsim_free(p->c);
    hsim_free(p);
}

/* Cheapest first; equal costs, the latest submitted (highest index)
   first. */
static int by_cost(const void *x, const void *y)
{
    const victim_t *a = x, *b = y;
    if (a->cost != b->cost)
        return a->cost < b->cost ? -1 : 1;
    return (a->job < b->job) - (a->job > b->job);
}

/* The waiting job order ranks first now, or -1.  O(waiting). */
static int32_t head_of(const hsim_order_t *order, const void *state, const hsim_view_t *v)
{
    int32_t head = -1;
    for (size_t i = 0; i < v->n_waiting; i++) {
        int32_t j = v->waiting[i];
        if (j >= 0 && (head < 0 || order->compare(state, v->jobs, j, head, v->now) < 0))
            head = j;
    }
    return head;
}

/* Whole GPUs a running job holds (0 on a pool). */
static int32_t gpus_held(const hsim_view_t *v, int32_t job)
{
    if (!v->cluster)
        return 0;
    const hsim_alloc_t *a = &v->allocs[job];
    int32_t g = 0;
    for (size_t i = 0; i < a->n; i++)
        g += a->parts[i].gpus;
    return g;
}

int hsim_preempt_pass(hsim_preempt_t *p, const hsim_order_t *order, const void *state,
                      int mode, hsim_time_t grace, const hsim_view_t *v,
                      const hsim_decide_t *d)
{
    int32_t head = head_of(order, state, v);
    if (head < 0)
        return 0;
    int64_t need = v->jobs[head].procs, need_gpus = 0;
    if (v->cluster) {
        need -= v->cluster->free_cores;
        need_gpus = v->requests[head].gpus - v->cluster->free_gpus;
    } else {
        need -= hsim_view_free_now(v);
    }
    if (need <= 0 && need_gpus <= 0)
        return 0; /* it fits: the scheduler starts it */
    size_t n = 0;
    int64_t procs = 0, gpus = 0;
    for (size_t i = 0; i < v->n_running; i++) {
        const hsim_running_t *e = &v->running[i];
        if (e->job < 0 || e->est_end <= v->now || v->now - e->start < grace ||
            order->compare(state, v->jobs, head, e->job, v->now) >= 0)
            continue;
        victim_t *c = &p->c[n++];
        *c = (victim_t){.cost = (double)e->procs * (double)(v->now - e->start),
                        .job = e->job, .procs = e->procs, .gpus = gpus_held(v, e->job)};
        procs += c->procs;
        gpus += c->gpus;
    }
    if (procs < need || gpus < need_gpus)
        return 0; /* stopping them all would not make room */
    qsort(p->c, n, sizeof *p->c, by_cost);
    size_t last = 0;
    procs = gpus = 0;
    while (procs < need || gpus < need_gpus) {
        procs += p->c[last].procs;
        gpus += p->c[last].gpus;
        p->c[last++].taken = 1;
    }
    for (size_t k = last; k-- > 0;) /* those it fits without */
        if (procs - p->c[k].procs >= need && gpus - p->c[k].gpus >= need_gpus) {
            procs -= p->c[k].procs;
            gpus -= p->c[k].gpus;
            p->c[k].taken = 0;
        }
    for (size_t k = 0; k < last; k++)
        if (p->c[k].taken) {
            int rc = d->stop(d->ctx, p->c[k].job, mode);
            if (rc)
                return rc;
        }
    return 0;
}
