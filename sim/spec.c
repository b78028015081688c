/*
 * spec.c - resolving the cluster of an experiment.  See spec.h.
 */
#include "spec.h"

#include "experiment.h"

#include "../workloads/gpu_traces.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Speeds from a throughput table in Gavel's format ([workload] throughputs,
   any format) for the classes named "<job type>@<scale>", on the node types
   whose GPU model is k80, p100 or v100; [class] sections come after and
   override them. */
static int gavel_speeds(const hsim_config_t *c, const hsim_workload_t *w, hsim_spec_t *s,
                        hsim_err_t *e)
{
    hsim_throughputs_t t = {0};
    int rc = hsim_throughputs_read(c->throughputs, &t, e);
    if (rc)
        return rc == HSIM_EIO ? HSIM_EINPUT : rc;
    size_t nt = s->spec.n_types;
    for (size_t k = 0; k < w->n_classes; k++)
        for (size_t ty = 0; ty < nt; ty++)
            for (int m = 0; m < HSIM_GAVEL_MODELS; m++) {
                if (!hsim_model_matches(s->types[ty].gpu_model, hsim_gavel_model_name(m)))
                    continue;
                double v;
                if (hsim_gavel_class_speed(&t, w->classes[k], m, &v) == 0)
                    s->class_speed[k * nt + ty] = v > 0 ? v : -1;
            }
    hsim_throughputs_free(&t);
    return 0;
}

/* Reads c's Alibaba node list ([cluster] alibaba_nodes) into *nodes (the
   caller frees it with hsim_free()): a file that cannot be read is bad
   input, named with the INI.  0, HSIM_EINPUT or HSIM_ENOMEM. */
static int read_node_list(const hsim_config_t *c, hsim_alibaba_node_t **nodes, size_t *n,
                          hsim_err_t *e)
{
    int rc = hsim_alibaba_nodes_read(c->alibaba_nodes, nodes, n, e);
    if (rc == HSIM_EIO)
        hsim_experiment_name(e, c->path); /* which experiment's file */
    return rc == HSIM_EIO ? HSIM_EINPUT : rc;
}

/* A listed node's cores, as its node type gets them: milli-cores rounded
   down, at least 1. */
static int32_t node_cores(const hsim_alibaba_node_t *a)
{
    int32_t cores = a->cpu_milli / 1000;
    return cores > 0 ? cores : 1;
}

/*
 * Node types from the Alibaba 2023 node list, after the [nodes] types: nodes
 * of one shape (cores as node_cores() makes them, memory, GPUs,
 * and their model) make one type, named after it, e.g. "G2-8gpu-96c-384G"
 * (memory in MiB when it is not whole GiB), in the order the shapes first
 * appear.
 */
static int alibaba_types(const hsim_config_t *c, hsim_node_type_t *types, size_t *nt,
                         hsim_err_t *e)
{
    hsim_alibaba_node_t *nodes = NULL;
    size_t n = 0;
    int rc = read_node_list(c, &nodes, &n, e);
    if (rc)
        return rc;
    size_t listed = *nt; /* the first type of the list's */
    for (size_t i = 0; i < n && rc == 0; i++) {
        const hsim_alibaba_node_t *a = &nodes[i];
        int32_t cores = node_cores(a);
        const char *model = a->gpus ? a->model : ""; /* a node without GPUs has no model */
        size_t t = listed;
        while (t < *nt && !(types[t].cores == cores && types[t].mem_mb == a->memory_mib &&
                            types[t].gpus == a->gpus &&
                            !strcmp(types[t].gpu_model, model)))
            t++;
        if (t == *nt) {
            if (t == HSIM_MAX_NODE_TYPES) {
                rc = hsim_errf(e, HSIM_EINPUT, "%s:%lld: this node's shape would be node type "
                               "%zu: expected at most %d node types in all ([nodes] sections "
                               "and the list's shapes)", c->alibaba_nodes,
                               (long long)a->line, t + 1, HSIM_MAX_NODE_TYPES);
                break;
            }
            hsim_node_type_t *ty = &types[t];
            memset(ty, 0, sizeof *ty);
            int gib = a->memory_mib % 1024 == 0;
            snprintf(ty->name, sizeof ty->name, "%s-%dgpu-%dc-%lld%s", a->gpus ? model : "cpu",
                     a->gpus, cores, (long long)(gib ? a->memory_mib / 1024 : a->memory_mib),
                     gib ? "G" : "M");
            ty->cores = cores;
            ty->mem_mb = a->memory_mib;
            ty->gpus = a->gpus;
            hsim_strlcpy(ty->gpu_model, model, sizeof ty->gpu_model);
            ty->speed = 1.0;
            (*nt)++;
        }
        types[t].count++;
    }
    hsim_free(nodes);
    return rc;
}

int hsim_spec_types(const hsim_config_t *c, hsim_node_type_t *types, size_t *nt,
                    hsim_err_t *e)
{
    *nt = c->n_nodes;
    for (size_t i = 0; i < *nt; i++)
        types[i] = c->nodes[i].type;
    return c->alibaba_nodes[0] ? alibaba_types(c, types, nt, e) : 0;
}

int hsim_spec_build(const hsim_config_t *c, const hsim_workload_t *w, hsim_spec_t *s,
                    hsim_err_t *e)
{
    memset(s, 0, sizeof *s);
    size_t nt;
    int rc = hsim_spec_types(c, s->types, &nt, e);
    if (rc)
        return rc;
    size_t nc = w->n_classes;
    s->class_speed = hsim_calloc(nc ? nc * nt : 1, sizeof *s->class_speed);
    if (!s->class_speed)
        return HSIM_ENOMEM;
    s->spec = (hsim_cluster_spec_t){.types = s->types, .n_types = nt,
                                    .class_speed = s->class_speed, .n_classes = nc};
    if (c->throughputs[0] && (rc = gavel_speeds(c, w, s, e)))
        return rc;
    for (size_t k = 0; k < c->n_classes; k++) {
        const hsim_class_config_t *cc = &c->classes[k];
        size_t cls = 0;
        while (cls < nc && strcmp(w->classes[cls], cc->name))
            cls++;
        if (cls == nc)
            return hsim_errf(e, HSIM_EINPUT,
                             "%s:%d: [class %s] names no job class of the workload",
                             c->path, cc->line, cc->name);
        for (size_t i = 0; i < cc->n_speeds; i++) {
            const hsim_class_speed_t *sp = &cc->speeds[i];
            int hit = 0;
            for (size_t ty = 0; ty < nt; ty++)
                if (!strcmp(s->types[ty].name, sp->target) ||
                    (s->types[ty].gpus > 0 && hsim_model_matches(s->types[ty].gpu_model, sp->target))) {
                    s->class_speed[cls * nt + ty] = sp->speed;
                    hit = 1;
                }
            if (!hit)
                return hsim_errf(e, HSIM_EINPUT,
                                 "%s:%d: speed.%s: expected the name of a [nodes] section or "
                                 "of a GPU model of one", c->path, sp->line, sp->target);
        }
    }
    return 0;
}

void hsim_spec_free(hsim_spec_t *s)
{
    hsim_free(s->class_speed);
    memset(s, 0, sizeof *s);
}

/* What the job asks for, for a rejection message. */
static void describe(const hsim_job_t *j, const hsim_workload_t *w, const hsim_cluster_t *c,
                     char *buf, size_t size)
{
    if (c->partitioned && j->partition >= 0) {
        int served = 0;
        for (size_t t = 0; t < c->n_types; t++)
            served |= hsim_type_serves(&c->types[t], j->partition);
        if (!served) {
            snprintf(buf, size, "its partition %d has no nodes ([nodes] partition = lists "
                                "the numbers each type serves)", j->partition);
            return;
        }
    }
    int n = snprintf(buf, size, "no node type can hold it: %d cores", j->procs);
    if (j->nodes && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " on %d nodes", j->nodes);
    if (j->mem_mb && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ", %lld MiB", (long long)j->mem_mb);
    if (j->gpus && n >= 0 && (size_t)n < size) {
        n += snprintf(buf + n, size - (size_t)n, ", %d GPU%s", j->gpus, j->gpus == 1 ? "" : "s");
        for (size_t m = 0; m < w->n_models && n >= 0 && (size_t)n < size; m++)
            if (j->gpu_models & (1u << m))
                n += snprintf(buf + n, size - (size_t)n, " %s", w->models[m]);
    }
    if (j->fpgas && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ", %d FPGA%s", j->fpgas, j->fpgas == 1 ? "" : "s");
}

static int by_line(const void *a, const void *b)
{
    const hsim_rejection_t *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* The answers already found, by request (the user aside: first-fit does
   not read it): many jobs ask alike, and a wide job's walk over an empty
   cluster costs its nodes.  Open addressing, at most half full. */
typedef struct fit_memo {
    hsim_request_t *keys;
    int8_t *fit;        /* -1 empty slot, else the answer: 0 or 1 */
    size_t cap, n;
} fit_memo_t;

static uint64_t request_hash(const hsim_request_t *q)
{
    uint64_t h = 1469598103934665603u;
    const int64_t v[] = {q->procs, q->nodes, q->cores_per_node, q->mem_mb, q->gpus,
                         q->gpu_milli, (int64_t)q->gpu_models, q->fpgas, q->job_class,
                         q->partition};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        h = (h ^ (uint64_t)v[i]) * 1099511628211u;
    return h ^ h >> 29;
}

static int same_request(const hsim_request_t *a, const hsim_request_t *b)
{
    return a->procs == b->procs && a->nodes == b->nodes &&
           a->cores_per_node == b->cores_per_node && a->mem_mb == b->mem_mb &&
           a->gpus == b->gpus && a->gpu_milli == b->gpu_milli &&
           a->gpu_models == b->gpu_models && a->fpgas == b->fpgas &&
           a->job_class == b->job_class && a->partition == b->partition;
}

/* The slot of q in m: its answer's, or the empty one it would take. */
static size_t memo_slot(const fit_memo_t *m, const hsim_request_t *q)
{
    size_t i = request_hash(q) & (m->cap - 1);
    while (m->fit[i] >= 0 && !same_request(&m->keys[i], q))
        i = (i + 1) & (m->cap - 1);
    return i;
}

static int memo_put(fit_memo_t *m, const hsim_request_t *q, int fit)
{
    if (2 * (m->n + 1) > m->cap) {
        fit_memo_t g = {.cap = m->cap ? 2 * m->cap : 1024};
        g.keys = hsim_malloc(g.cap * sizeof *g.keys);
        g.fit = hsim_malloc(g.cap);
        if (!g.keys || !g.fit) {
            hsim_free(g.keys);
            hsim_free(g.fit);
            return HSIM_ENOMEM;
        }
        memset(g.fit, -1, g.cap);
        for (size_t i = 0; i < m->cap; i++)
            if (m->fit[i] >= 0) {
                size_t k = memo_slot(&g, &m->keys[i]);
                g.keys[k] = m->keys[i];
                g.fit[k] = m->fit[i];
            }
        g.n = m->n;
        hsim_free(m->keys);
        hsim_free(m->fit);
        *m = g;
    }
    size_t k = memo_slot(m, q);
    m->keys[k] = *q;
    m->fit[k] = (int8_t)fit;
    m->n++;
    return 0;
}

/* Does q fit the empty cluster c?  1, 0, or a negative code. */
static int fits_empty(const hsim_placement_t *ff, void *state, const hsim_cluster_t *c,
                      const hsim_request_t *q, fit_memo_t *memo, hsim_alloc_t *a)
{
    if (memo->cap) {
        size_t k = memo_slot(memo, q);
        if (memo->fit[k] >= 0)
            return memo->fit[k];
    }
    a->n = 0;
    int rc = ff->place(state, c, q, a);
    if (rc != 0 && rc != HSIM_NOFIT)
        return rc;
    int fit = rc == 0;
    return (rc = memo_put(memo, q, fit)) ? rc : fit;
}

int hsim_spec_reject_impossible(const hsim_spec_t *s, hsim_workload_t *w)
{
    hsim_cluster_t c;
    int rc = hsim_cluster_init(&c, s->types, s->spec.n_types);
    if (rc)
        return rc;
    if ((rc = hsim_cluster_speeds_init(&c, s->spec.n_classes))) {
        hsim_cluster_free(&c);
        return rc;
    }
    memcpy(c.speeds.speed, s->class_speed, s->spec.n_classes * s->spec.n_types * sizeof(double));
    const hsim_placement_t *ff = hsim_placement_find("first-fit");
    void *state = NULL;
    if ((rc = ff->create(&c, HSIM_PACK, &state))) {
        hsim_cluster_free(&c);
        return rc;
    }
    uint32_t map[HSIM_MAX_MODELS] = {0};
    hsim_engine_model_map(w, &c, map);
    hsim_alloc_t a = {0};
    fit_memo_t memo = {0};
    size_t kept = 0, rejected = w->n_rejected;
    for (size_t i = 0; i < w->n_jobs && rc == 0; i++) {
        const hsim_job_t *j = &w->jobs[i];
        hsim_request_t q;
        hsim_engine_request(w, j, map, &q);
        int fit = fits_empty(ff, state, &c, &q, &memo, &a);
        if (fit == 1) {
            w->jobs[kept++] = *j;
        } else if (fit == 0) {
            char why[sizeof w->rejected->reason];
            describe(j, w, &c, why, sizeof why);
            rc = hsim_workload_reject(w, j->id, j->line, why);
            if (rc == 0)
                w->rejected[w->n_rejected - 1].name = j->name;
        } else {
            rc = fit;
        }
    }
    if (rc == 0)
        w->n_jobs = kept;
    if (rc == 0 && w->n_rejected > rejected) /* back in input order */
        qsort(w->rejected, w->n_rejected, sizeof *w->rejected, by_line);
    hsim_alloc_free(&a);
    hsim_free(memo.keys);
    hsim_free(memo.fit);
    ff->destroy(state);
    hsim_cluster_free(&c);
    return rc;
}
