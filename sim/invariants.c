/*
 * invariants.c - the check of a replay's state (see invariants.h).  It
 * recomputes from the allocations what the ledger keeps incrementally, and
 * compares; nothing here is on the path of a normal run.
 */
#include "invariants.h"

#include <string.h>

/* Marks the jobs listed in v[0..n) (holes < 0 skipped) with bit, checks
   each has state want and is listed once; *count gets how many.  0 or
   HSIM_ERUN. */
static int mark_listed(const hsim_run_state_t *s, uint8_t *marks, const int32_t *jobs,
                       size_t stride, size_t n, uint8_t bit, int want, const char *list,
                       size_t *count, hsim_err_t *e)
{
    *count = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t j = *(const int32_t *)((const char *)jobs + i * stride);
        if (j < 0)
            continue;
        if ((size_t)j >= s->n_jobs)
            return hsim_errf(e, HSIM_ERUN, "%s entry %zu is job index %d, of %zu jobs", list, i, j,
                             s->n_jobs);
        if (marks[j] & bit)
            return hsim_errf(e, HSIM_ERUN, "job %lld is listed twice in %s",
                             (long long)s->jobs[j].id, list);
        if (s->state[j] != want)
            return hsim_errf(e, HSIM_ERUN, "job %lld is in %s but in state %d",
                             (long long)s->jobs[j].id, list, s->state[j]);
        marks[j] |= bit;
        (*count)++;
    }
    return 0;
}

/* Clears the marks mark_listed() set. */
static void unmark(uint8_t *marks, const int32_t *jobs, size_t stride, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int32_t j = *(const int32_t *)((const char *)jobs + i * stride);
        if (j >= 0)
            marks[j] = 0;
    }
}

/* What the running jobs hold on one node, summed from their parts. */
typedef struct held {
    int64_t cores, mem, gpus, fpgas;
    int64_t jobs;   /* parts held there: the ledger's count of jobs */
} held_t;

/* Adds the parts of a to held and share.  0, or HSIM_ERUN for a node out
   of range. */
static int add_parts(const hsim_run_state_t *s, int32_t j, const hsim_alloc_t *a, held_t *held,
                     int32_t *share, hsim_err_t *e)
{
    const hsim_cluster_t *c = s->cluster;
    for (size_t k = 0; k < a->n; k++) {
        const hsim_part_t *p = &a->parts[k];
        if (p->node < 0 || (size_t)p->node >= c->n_nodes)
            return hsim_errf(e, HSIM_ERUN, "job %lld holds node %d of %zu",
                             (long long)s->jobs[j].id, p->node, c->n_nodes);
        held_t *h = &held[p->node];
        h->cores += p->cores;
        h->mem += p->mem_mb;
        h->gpus += p->gpus;
        h->fpgas += p->fpgas;
        h->jobs++; /* the ledger counts parts (a job's two parts: two) */
        if (p->gpu >= 0)
            share[c->gpu_first[p->node] + (size_t)p->gpu] += p->gpu_milli;
    }
    return 0;
}

/* The suspended jobs among the waiting: each holds memory alone (its
   hold), counted in held; *placed counts those that hold some. */
static int add_holds(const hsim_run_state_t *s, held_t *held, int32_t *share, size_t *placed,
                     hsim_err_t *e)
{
    const hsim_view_t *v = s->view;
    for (size_t i = 0; i < v->n_waiting; i++) {
        int32_t j = v->waiting[i];
        if (j < 0 || s->allocs[j].n == 0)
            continue;
        const hsim_alloc_t *a = &s->allocs[j];
        for (size_t k = 0; k < a->n; k++)
            if (a->parts[k].cores || a->parts[k].gpus || a->parts[k].gpu_milli ||
                a->parts[k].fpgas)
                return hsim_errf(e, HSIM_ERUN, "waiting job %lld holds more than memory on "
                                 "node %d", (long long)s->jobs[j].id, a->parts[k].node);
        (*placed)++;
        int rc = add_parts(s, j, a, held, share, e);
        if (rc)
            return rc;
    }
    return 0;
}

/* The ledger against the allocations of the running jobs and the holds
   of the suspended ones.  held is scratch of one held_t per node, zeroed;
   share of one int32 per GPU. */
static int check_ledger(const hsim_run_state_t *s, const int32_t *running, size_t stride,
                        size_t n_running, held_t *held, int32_t *share, hsim_err_t *e)
{
    const hsim_cluster_t *c = s->cluster;
    size_t placed = 0;
    int rc = add_holds(s, held, share, &placed, e);
    if (rc)
        return rc;
    for (size_t i = 0; i < n_running; i++) {
        int32_t j = *(const int32_t *)((const char *)running + i * stride);
        if (j < 0)
            continue;
        const hsim_alloc_t *a = &s->allocs[j];
        if (a->n == 0) { /* given back ahead of its end: only when it ends now */
            if (s->out[j].end > s->now)
                return hsim_errf(e, HSIM_ERUN, "running job %lld holds nothing before its "
                                 "end at %lld us", (long long)s->jobs[j].id,
                                 (long long)s->out[j].end);
            continue;
        }
        placed++;
        if ((rc = add_parts(s, j, a, held, share, e)))
            return rc;
    }
    if (placed != s->n_placed)
        return hsim_errf(e, HSIM_ERUN, "%zu jobs hold allocations, the engine counts %zu",
                         placed, s->n_placed);
    for (size_t n = 0; s->down_since && n < c->n_nodes; n++) {
        if (s->down_since[n] < 0)
            continue;
        const hsim_node_type_t *t = &c->types[c->nodes[n].type];
        held_t *h = &held[n]; /* a down node: held whole, as one part */
        h->cores += t->cores;
        h->mem += t->mem_mb;
        h->gpus += t->gpus;
        h->fpgas += t->fpgas;
        h->jobs++;
    }
    int64_t free_cores = 0, free_gpus = 0;
    for (size_t n = 0; n < c->n_nodes; n++) {
        const hsim_node_t *node = &c->nodes[n];
        const hsim_node_type_t *t = &c->types[node->type];
        const held_t *h = &held[n];
        if (h->cores > t->cores || h->mem > t->mem_mb || h->gpus > t->gpus || h->fpgas > t->fpgas)
            return hsim_errf(e, HSIM_ERUN,
                             "node %zu (%s) holds %lld cores, %lld MiB, %lld GPUs, %lld FPGAs: "
                             "it has %d, %lld, %d, %d",
                             n, t->name, (long long)h->cores, (long long)h->mem,
                             (long long)h->gpus, (long long)h->fpgas, t->cores,
                             (long long)t->mem_mb, t->gpus, t->fpgas);
        if (node->free_cores != t->cores - h->cores || node->free_mem != t->mem_mb - h->mem ||
            node->free_fpgas != t->fpgas - h->fpgas || node->jobs != h->jobs)
            return hsim_errf(e, HSIM_ERUN,
                             "node %zu (%s): the ledger has %d cores, %lld MiB, %d FPGAs free "
                             "and %d jobs; the allocations leave %lld, %lld, %lld and %lld",
                             n, t->name, node->free_cores, (long long)node->free_mem,
                             node->free_fpgas, node->jobs, (long long)(t->cores - h->cores),
                             (long long)(t->mem_mb - h->mem), (long long)(t->fpgas - h->fpgas),
                             (long long)h->jobs);
        int32_t whole_free = 0, whole_held = 0;
        for (int32_t g = 0; g < t->gpus; g++) {
            size_t at = c->gpu_first[n] + (size_t)g;
            int16_t left = c->gpu_milli[at];
            whole_held += left < 0;
            whole_free += left == 1000;
            if (left >= 0 && left != 1000 - share[at])
                return hsim_errf(e, HSIM_ERUN, "node %zu GPU %d: %d thousandths free, the "
                                 "allocations leave %d", n, g, left, 1000 - share[at]);
            if (left < 0 && share[at])
                return hsim_errf(e, HSIM_ERUN, "node %zu GPU %d: held whole and shared", n, g);
            share[at] = 0;
        }
        if (whole_held != h->gpus || whole_free != node->free_gpus)
            return hsim_errf(e, HSIM_ERUN, "node %zu: %d GPUs held whole and %d free in the "
                             "ledger (free_gpus %d); the allocations hold %lld",
                             n, whole_held, whole_free, node->free_gpus, (long long)h->gpus);
        free_cores += node->free_cores;
        free_gpus += node->free_gpus;
    }
    if (free_cores != c->free_cores || free_gpus != c->free_gpus)
        return hsim_errf(e, HSIM_ERUN, "the cluster counts %lld cores and %lld GPUs free, its "
                         "nodes %lld and %lld", (long long)c->free_cores,
                         (long long)c->free_gpus, (long long)free_cores, (long long)free_gpus);
    for (size_t t = 0; t < c->n_types; t++) { /* the index's roots */
        const hsim_type_index_t *x = &c->idx[t];
        int32_t max_cores = 0, max_gpus = 0;
        for (int32_t k = 0; k < x->count; k++) {
            const hsim_node_t *node = &c->nodes[x->first + k];
            max_cores = node->free_cores > max_cores ? node->free_cores : max_cores;
            max_gpus = node->free_gpus > max_gpus ? node->free_gpus : max_gpus;
        }
        if (x->max_cores[1] != max_cores || x->max_gpus[1] != max_gpus)
            return hsim_errf(e, HSIM_ERUN, "node type %s: the index's most free cores and GPUs "
                             "are %d and %d, its nodes' %d and %d", c->types[t].name,
                             x->max_cores[1], x->max_gpus[1], max_cores, max_gpus);
    }
    return 0;
}

/* The GPUs of cluster c (NULL: 0). */
static size_t cluster_gpus(const hsim_cluster_t *c)
{
    size_t gpus = 0;
    for (size_t n = 0; c && n < c->n_nodes; n++)
        gpus += (size_t)c->types[c->nodes[n].type].gpus;
    return gpus;
}

/* The scratch's parts: marks[n_jobs], then held[nodes], then share[GPUs]. */
static size_t held_offset(size_t n_jobs)
{
    size_t a = _Alignof(held_t);
    return (n_jobs + a - 1) / a * a;
}

size_t hsim_invariants_scratch(size_t n_jobs, const hsim_cluster_t *c)
{
    if (!c)
        return n_jobs ? n_jobs : 1;
    return held_offset(n_jobs) + c->n_nodes * sizeof(held_t) +
           (cluster_gpus(c) + 1) * sizeof(int32_t);
}

int hsim_invariants_check(const hsim_run_state_t *s, void *scratch, hsim_err_t *e)
{
    uint8_t *marks = scratch;
    const hsim_view_t *v = s->view;
    const int32_t *running = v->n_running ? &v->running[0].job : NULL;
    size_t stride = sizeof *v->running, n_waiting, n_running;
    int rc = mark_listed(s, marks, v->waiting, sizeof *v->waiting, v->n_waiting, 1,
                         HSIM_JOB_WAITING, "waiting[]", &n_waiting, e);
    if (rc == 0)
        rc = mark_listed(s, marks, running, stride, v->n_running, 2, HSIM_JOB_RUNNING,
                         "running[]", &n_running, e);
    unmark(marks, v->waiting, sizeof *v->waiting, v->n_waiting);
    unmark(marks, running, stride, v->n_running);
    if (rc)
        return rc;
    if (n_waiting + n_running + s->n_done != s->n_submitted)
        return hsim_errf(e, HSIM_ERUN, "%zu jobs submitted: %zu waiting, %zu running and %zu done",
                         s->n_submitted, n_waiting, n_running, s->n_done);
    if (v->n_waiting - v->waiting_holes != n_waiting)
        return hsim_errf(e, HSIM_ERUN, "waiting[] has %zu entries and %zu holes, and %zu jobs",
                         v->n_waiting, v->waiting_holes, n_waiting);
    int64_t procs = 0, busy = 0;
    for (size_t i = 0; i < v->n_running; i++) {
        const hsim_running_t *r = &v->running[i];
        if (r->job < 0)
            continue;
        if (r->procs != s->jobs[r->job].procs)
            return hsim_errf(e, HSIM_ERUN, "running job %lld holds %d processors, asked for %d",
                             (long long)s->jobs[r->job].id, r->procs, s->jobs[r->job].procs);
        procs += r->procs;
        if (s->out[r->job].end > s->now)
            busy += r->procs;
    }
    if (procs != v->running_procs)
        return hsim_errf(e, HSIM_ERUN, "the view counts %d processors running, its jobs %lld",
                         v->running_procs, (long long)procs);
    if (!s->cluster && busy > v->capacity)
        return hsim_errf(e, HSIM_ERUN, "jobs that run past now hold %lld processors of %d",
                         (long long)busy, v->capacity);
    if (!s->cluster)
        return 0;
    held_t *held = (held_t *)((char *)scratch + held_offset(s->n_jobs));
    int32_t *share = (int32_t *)(held + s->cluster->n_nodes);
    rc = check_ledger(s, running, stride, v->n_running, held, share, e);
    memset(held, 0, s->cluster->n_nodes * sizeof *held);
    memset(share, 0, cluster_gpus(s->cluster) * sizeof *share); /* as they were */
    return rc;
}
