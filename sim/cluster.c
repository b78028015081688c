/*
 * cluster.c - the node ledger and its index.  See cluster.h.
 *
 * The max-trees hold, per node type, the most free cores, GPUs, memory and
 * FPGAs below each tree node: a descent skips every subtree that cannot
 * hold a request (a necessary test; the leaf test is exact).  Min- and
 * max-trees of the nodes' job counts, and min-trees of the job counts of
 * the nodes with at least 1, 2, 4, ... whole GPUs free, serve
 * least-connections.  The buckets
 * are doubly linked lists threaded through the nodes, one per free-cores
 * value and one per free-GPUs value, so moving a node between buckets is
 * O(1).
 */
#include "cluster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void bucket_unlink(hsim_type_index_t *x, hsim_node_t *nodes, int32_t i, int gpus)
{
    hsim_node_t *n = &nodes[i];
    int32_t *prev = gpus ? &n->gprev : &n->cprev, *next = gpus ? &n->gnext : &n->cnext;
    int32_t v = gpus ? n->free_gpus : n->free_cores;
    int32_t *head = gpus ? &x->gbucket[v] : &x->cbucket[v];
    if (*prev >= 0)
        *(gpus ? &nodes[*prev].gnext : &nodes[*prev].cnext) = *next;
    else
        *head = *next;
    if (*next >= 0)
        *(gpus ? &nodes[*next].gprev : &nodes[*next].cprev) = *prev;
    *prev = *next = -1;
}

/* Pushes node i onto the front of its bucket: O(1).  The order within a
   bucket is the order of the changes, which is deterministic. */
static void bucket_link(hsim_type_index_t *x, hsim_node_t *nodes, int32_t i, int gpus)
{
    hsim_node_t *n = &nodes[i];
    int32_t v = gpus ? n->free_gpus : n->free_cores;
    int32_t *head = gpus ? &x->gbucket[v] : &x->cbucket[v];
    int32_t old = *head;
    if (gpus) {
        n->gprev = -1;
        n->gnext = old;
        if (old >= 0)
            nodes[old].gprev = i;
    } else {
        n->cprev = -1;
        n->cnext = old;
        if (old >= 0)
            nodes[old].cprev = i;
    }
    *head = i;
}

/* Takes node i out of its free-cores bucket and, on a type with GPUs, its
   free-GPUs bucket, before its free counts change... */
static void buckets_unlink(hsim_cluster_t *c, int32_t i)
{
    hsim_type_index_t *x = &c->idx[c->nodes[i].type];
    bucket_unlink(x, c->nodes, i, 0);
    if (c->types[c->nodes[i].type].gpus > 0)
        bucket_unlink(x, c->nodes, i, 1);
}

/* ...and puts it back in the buckets of its new counts. */
static void buckets_link(hsim_cluster_t *c, int32_t i)
{
    hsim_type_index_t *x = &c->idx[c->nodes[i].type];
    bucket_link(x, c->nodes, i, 0);
    if (c->types[c->nodes[i].type].gpus > 0)
        bucket_link(x, c->nodes, i, 1);
}

static void tree_pull(hsim_type_index_t *x, size_t k)
{
    size_t a = 2 * k, b = 2 * k + 1;
    x->max_cores[k] = x->max_cores[a] > x->max_cores[b] ? x->max_cores[a] : x->max_cores[b];
    if (x->has_mem)
        x->max_mem[k] = x->max_mem[a] > x->max_mem[b] ? x->max_mem[a] : x->max_mem[b];
    if (x->has_fpgas)
        x->max_fpgas[k] = x->max_fpgas[a] > x->max_fpgas[b] ? x->max_fpgas[a] : x->max_fpgas[b];
    if (x->has_gpus)
        x->max_gpus[k] = x->max_gpus[a] > x->max_gpus[b] ? x->max_gpus[a] : x->max_gpus[b];
    if (!x->has_jobs)
        return;
    x->min_jobs[k] = x->min_jobs[a] < x->min_jobs[b] ? x->min_jobs[a] : x->min_jobs[b];
    x->max_jobs[k] = x->max_jobs[a] > x->max_jobs[b] ? x->max_jobs[a] : x->max_jobs[b];
    for (int l = 0; l < HSIM_GPU_LEVELS && x->min_jobs_gpus[l]; l++) {
        int32_t *m = x->min_jobs_gpus[l];
        m[k] = m[a] < m[b] ? m[a] : m[b];
    }
}

/* The node's free GPU capacity for the tree: whole GPUs, or, for nodes
   with only shares left, enough to let a share search look inside. */
/* Sets node i's leaf of its type's trees; returns the leaf. */
static size_t leaf_set(hsim_cluster_t *c, int32_t i)
{
    const hsim_node_t *n = &c->nodes[i];
    hsim_type_index_t *x = &c->idx[n->type];
    size_t k = x->leaves + (size_t)(i - x->first);
    x->max_cores[k] = n->free_cores;
    x->max_mem[k] = n->free_mem;
    x->max_fpgas[k] = n->free_fpgas;
    x->max_gpus[k] = n->free_gpus;
    if (!x->has_jobs)
        return k;
    x->min_jobs[k] = n->jobs;
    x->max_jobs[k] = n->jobs;
    for (int l = 0; l < HSIM_GPU_LEVELS && x->min_jobs_gpus[l]; l++)
        x->min_jobs_gpus[l][k] = n->free_gpus >= 1 << l ? n->jobs : INT32_MAX;
    return k;
}

static void tree_set(hsim_cluster_t *c, int32_t i)
{
    hsim_type_index_t *x = &c->idx[c->nodes[i].type];
    for (size_t k = leaf_set(c, i) / 2; k >= 1; k /= 2)
        tree_pull(x, k);
}

static int by_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Sets the trees after n nodes changed (nodes[i], or parts[i].node when
   nodes is NULL): the leaves, then their ancestors level by level, each
   once.  m nodes side by side cost O(m + log nodes) instead of
   O(m log nodes). */
static void trees_settle(hsim_cluster_t *c, const int32_t *nodes, const hsim_part_t *parts,
                         size_t n)
{
#define NODE_AT(i) (nodes ? nodes[i] : parts[i].node)
    if (n < 4 || hsim_grow(&c->pull, &c->cap_pull, n, sizeof *c->pull)) {
        for (size_t i = 0; i < n; i++)
            tree_set(c, NODE_AT(i));
        return;
    }
    uint64_t types = 0;
    for (size_t i = 0; i < n; i++)
        types |= UINT64_C(1) << c->nodes[NODE_AT(i)].type;
    for (size_t t = 0; t < c->n_types; t++) {
        if (!(types & (UINT64_C(1) << t)))
            continue;
        hsim_type_index_t *x = &c->idx[t];
        size_t m = 0;
        int sorted = 1;
        for (size_t i = 0; i < n; i++)
            if ((size_t)c->nodes[NODE_AT(i)].type == t) {
                c->pull[m] = leaf_set(c, NODE_AT(i)) / 2;
                sorted &= m == 0 || c->pull[m - 1] <= c->pull[m];
                m++;
            }
        if (!sorted)
            qsort(c->pull, m, sizeof *c->pull, by_size);
        while (m > 0 && c->pull[0] >= 1) {
            size_t k = 0, prev = 0; /* prev: the last pulled (pull[] is
                                       overwritten as the level is read) */
            for (size_t i = 0; i < m; i++) {
                size_t at = c->pull[i];
                if (at == prev)
                    continue;
                tree_pull(x, at);
                prev = at;
                c->pull[k++] = at / 2; /* the next level, in order */
            }
            m = k;
        }
    }
#undef NODE_AT
}

static void trees_after(hsim_cluster_t *c, const hsim_alloc_t *a)
{
    trees_settle(c, NULL, a->parts, a->n);
}

int hsim_cluster_init(hsim_cluster_t *c, const hsim_node_type_t *types, size_t n)
{
    memset(c, 0, sizeof *c);
    HSIM_ASSERT(n >= 1 && n <= HSIM_MAX_NODE_TYPES);
    size_t nodes = 0, gpus = 0;
    for (size_t t = 0; t < n; t++) {
        c->types[t] = types[t];
        nodes += (size_t)types[t].count;
        gpus += (size_t)types[t].count * (size_t)types[t].gpus;
        c->type_model[t] = -1;
        if (types[t].n_part_ids > 0)
            c->partitioned = 1;
        if (types[t].gpus > 0 && types[t].gpu_model[0]) {
            int m = hsim_cluster_model(c, types[t].gpu_model);
            if (m < 0 && c->n_models < HSIM_MAX_GPU_MODELS) {
                m = (int)c->n_models++;
                hsim_strlcpy(c->models[m], types[t].gpu_model, HSIM_TYPE_NAME_MAX);
            }
            c->type_model[t] = m;
        }
    }
    c->n_types = n;
    c->n_nodes = nodes;
    c->nodes = hsim_calloc(nodes, sizeof *c->nodes);
    c->gpu_milli = hsim_calloc(gpus ? gpus : 1, sizeof *c->gpu_milli);
    c->gpu_first = hsim_calloc(nodes, sizeof *c->gpu_first);
    if (!c->nodes || !c->gpu_milli || !c->gpu_first)
        goto nomem;
    size_t node = 0, gpu = 0;
    for (size_t t = 0; t < n; t++) {
        const hsim_node_type_t *ty = &types[t];
        hsim_type_index_t *x = &c->idx[t];
        x->first = (int32_t)node;
        x->count = ty->count;
        x->leaves = 1;
        x->has_gpus = ty->gpus > 0;
        x->has_mem = ty->mem_mb > 0;
        x->has_fpgas = ty->fpgas > 0;
        x->has_jobs = 1;
        while (x->leaves < (size_t)ty->count)
            x->leaves *= 2;
        x->max_cores = hsim_calloc(2 * x->leaves, sizeof *x->max_cores);
        x->max_gpus = hsim_calloc(2 * x->leaves, sizeof *x->max_gpus);
        x->max_mem = hsim_calloc(2 * x->leaves, sizeof *x->max_mem);
        x->max_fpgas = hsim_calloc(2 * x->leaves, sizeof *x->max_fpgas);
        x->min_jobs = hsim_malloc(2 * x->leaves * sizeof *x->min_jobs);
        x->max_jobs = hsim_malloc(2 * x->leaves * sizeof *x->max_jobs);
        x->cbucket = hsim_malloc(((size_t)ty->cores + 1) * sizeof *x->cbucket);
        x->gbucket = hsim_malloc(((size_t)ty->gpus + 1) * sizeof *x->gbucket);
        if (!x->max_cores || !x->max_gpus || !x->max_mem || !x->max_fpgas || !x->min_jobs ||
            !x->max_jobs || !x->cbucket || !x->gbucket)
            goto nomem;
        for (int l = 0; l < HSIM_GPU_LEVELS && 1 << l <= ty->gpus; l++)
            if (!(x->min_jobs_gpus[l] = hsim_malloc(2 * x->leaves * sizeof *x->min_jobs)))
                goto nomem;
        for (size_t k = 0; k < 2 * x->leaves; k++) {
            int pad = k >= x->leaves + (size_t)ty->count;
            x->min_jobs[k] = pad ? INT32_MAX : 0;
            x->max_jobs[k] = pad ? -1 : 0;
            for (int l = 0; l < HSIM_GPU_LEVELS && x->min_jobs_gpus[l]; l++)
                x->min_jobs_gpus[l][k] = pad ? INT32_MAX : 0;
        }
        for (int32_t v = 0; v <= ty->cores; v++)
            x->cbucket[v] = -1;
        for (int32_t v = 0; v <= ty->gpus; v++)
            x->gbucket[v] = -1;
        for (int32_t k = ty->count - 1; k >= 0; k--) { /* buckets start ascending */
            int32_t i = x->first + k;
            hsim_node_t *nd = &c->nodes[i];
            nd->type = (int32_t)t;
            nd->free_cores = ty->cores;
            nd->free_mem = ty->mem_mb;
            nd->free_gpus = ty->gpus;
            nd->free_fpgas = ty->fpgas;
            nd->busy_since = -1;
            bucket_link(x, c->nodes, i, 0);
            if (ty->gpus > 0)
                bucket_link(x, c->nodes, i, 1);
            else
                nd->gprev = nd->gnext = -1;
        }
        for (int32_t k = 0; k < ty->count; k++) {
            c->gpu_first[node + (size_t)k] = gpu;
            for (int32_t g = 0; g < ty->gpus; g++)
                c->gpu_milli[gpu++] = 1000;
            size_t leaf = x->leaves + (size_t)k;
            x->max_cores[leaf] = ty->cores;
            x->max_gpus[leaf] = ty->gpus;
            x->max_mem[leaf] = ty->mem_mb;
            x->max_fpgas[leaf] = ty->fpgas;
        }
        for (size_t k = x->leaves - 1; k >= 1; k--)
            tree_pull(x, k);
        node += (size_t)ty->count;
        c->total_cores += (int64_t)ty->count * ty->cores;
        c->total_gpus += (int64_t)ty->count * ty->gpus;
        c->total_mem += (double)ty->count * (double)ty->mem_mb;
        c->total_fpgas += (int64_t)ty->count * ty->fpgas;
    }
    c->free_cores = c->total_cores;
    c->free_gpus = c->total_gpus;
    c->job_trees = 1;
    return 0;
nomem:
    hsim_cluster_free(c);
    return HSIM_ENOMEM;
}

void hsim_cluster_job_trees(hsim_cluster_t *c, int on)
{
    int was = c->job_trees;
    c->job_trees = on != 0;
    for (size_t t = 0; t < c->n_types; t++) {
        hsim_type_index_t *x = &c->idx[t];
        x->has_jobs = (uint8_t)c->job_trees;
        if (!on || was)
            continue;
        for (int32_t k = 0; k < x->count; k++)
            leaf_set(c, x->first + k);
        for (size_t k = x->leaves - 1; k >= 1; k--)
            tree_pull(x, k);
    }
}

void hsim_cluster_free(hsim_cluster_t *c)
{
    for (size_t t = 0; t < HSIM_MAX_NODE_TYPES; t++) {
        hsim_type_index_t *x = &c->idx[t];
        hsim_free(x->max_cores);
        hsim_free(x->max_gpus);
        hsim_free(x->max_mem);
        hsim_free(x->max_fpgas);
        hsim_free(x->min_jobs);
        hsim_free(x->max_jobs);
        for (int l = 0; l < HSIM_GPU_LEVELS; l++)
            hsim_free(x->min_jobs_gpus[l]);
        hsim_free(x->cbucket);
        hsim_free(x->gbucket);
    }
    hsim_free(c->nodes);
    hsim_free(c->gpu_milli);
    hsim_free(c->gpu_first);
    hsim_free(c->speeds.speed);
    hsim_free(c->pull);
    memset(c, 0, sizeof *c);
}

int hsim_cluster_model(const hsim_cluster_t *c, const char *name)
{
    for (size_t m = 0; m < c->n_models; m++)
        if (!strcasecmp(c->models[m], name))
            return (int)m;
    return -1;
}

int hsim_model_matches(const char *have, const char *want)
{
    size_t n = strlen(want);
    if (!strcasecmp(have, want))
        return 1;
    if (n == 0)
        return 0;
    static const char ends[] = " \t-_/()";
    for (const char *w = have; *w; w += strcspn(w, ends)) {
        w += strspn(w, ends);
        if (strcspn(w, ends) == n && !strncasecmp(w, want, n))
            return 1;
    }
    return 0;
}

int32_t hsim_cluster_share_gpu(const hsim_cluster_t *c, int32_t n, int32_t milli)
{
    const hsim_node_type_t *ty = &c->types[c->nodes[n].type];
    size_t g0 = c->gpu_first[n];
    int32_t best = -1;
    for (int32_t g = 0; g < ty->gpus; g++) {
        int16_t f = c->gpu_milli[g0 + (size_t)g];
        /* the fullest GPU that still fits: keep whole GPUs whole */
        if (f >= milli && (best < 0 || f < c->gpu_milli[g0 + (size_t)best]))
            best = g;
    }
    return best;
}

int hsim_node_fits(const hsim_cluster_t *c, int32_t n, int32_t cores, int64_t mem,
                   int32_t gpus, int32_t gpu_milli, int32_t fpgas)
{
    const hsim_node_t *nd = &c->nodes[n];
    if (nd->free_cores < cores || nd->free_mem < mem || nd->free_fpgas < fpgas)
        return 0;
    if (gpus > 0 && gpu_milli < 1000)
        return hsim_cluster_share_gpu(c, n, gpu_milli) >= 0;
    return nd->free_gpus >= gpus;
}

int hsim_part_fits(const hsim_cluster_t *c, const hsim_part_t *p)
{
    if (p->gpu >= 0 && c->gpu_milli[c->gpu_first[p->node] + (size_t)p->gpu] < p->gpu_milli)
        return 0;
    return hsim_node_fits(c, p->node, p->cores, p->mem_mb, p->gpus, 1000, p->fpgas);
}

double hsim_cluster_alloc_speed(const hsim_cluster_t *c, int32_t cls, int gpu_job,
                                const hsim_alloc_t *a)
{
    double slowest = HUGE_VAL;
    for (size_t i = 0; i < a->n; i++) {
        double s = hsim_cluster_speed(c, cls, (size_t)c->nodes[a->parts[i].node].type, gpu_job);
        if (s < slowest)
            slowest = s;
    }
    return slowest;
}

int hsim_type_serves(const hsim_node_type_t *t, int32_t partition)
{
    for (int32_t i = 0; i < t->n_part_ids; i++)
        if (t->part_ids[i] == partition)
            return 1;
    return 0;
}

int hsim_type_accepts(const hsim_cluster_t *c, size_t t, const hsim_request_t *r)
{
    const hsim_node_type_t *ty = &c->types[t];
    if (r->gpus > 0) {
        if (ty->gpus == 0)
            return 0;
        int m = c->type_model[t];
        if (r->gpu_models && (m < 0 || !(r->gpu_models & (UINT64_C(1) << m))))
            return 0;
    }
    if (r->fpgas > 0 && ty->fpgas == 0)
        return 0;
    if (c->partitioned && r->partition >= 0 && !hsim_type_serves(ty, r->partition))
        return 0;
    /* a class that cannot run on this type (speed < 0) */
    if (r->job_class >= 0 && (size_t)r->job_class < c->speeds.n_classes &&
        c->speeds.speed[(size_t)r->job_class * c->n_types + t] < 0)
        return 0;
    return 1;
}

static int32_t descend(const hsim_cluster_t *c, const hsim_type_index_t *x, size_t k,
                       size_t lo, size_t hi, size_t from, int32_t cores, int64_t mem,
                       int32_t gpus_tree, int32_t gpus, int32_t milli, int32_t fpgas)
{
    if (hi <= from || lo >= (size_t)x->count)
        return -1;
    /* an ask of 0 needs no look (each tree is an array of its own) */
    if (x->max_cores[k] < cores || (mem > 0 && x->max_mem[k] < mem) ||
        (gpus_tree > 0 && x->max_gpus[k] < gpus_tree) || (fpgas > 0 && x->max_fpgas[k] < fpgas))
        return -1;
    if (k >= x->leaves) {
        int32_t n = x->first + (int32_t)lo;
        return hsim_node_fits(c, n, cores, mem, gpus, milli, fpgas) ? n : -1;
    }
    size_t mid = lo + (hi - lo) / 2;
    int32_t r = descend(c, x, 2 * k, lo, mid, from, cores, mem, gpus_tree, gpus, milli, fpgas);
    if (r < 0)
        r = descend(c, x, 2 * k + 1, mid, hi, from, cores, mem, gpus_tree, gpus, milli, fpgas);
    return r;
}

int32_t hsim_cluster_first_fit(const hsim_cluster_t *c, size_t t, int32_t from,
                               int32_t cores, int64_t mem, int32_t gpus,
                               int32_t gpu_milli, int32_t fpgas)
{
    const hsim_type_index_t *x = &c->idx[t];
    size_t rel = from > x->first ? (size_t)(from - x->first) : 0;
    /* the node asked about first: a wide job's walk over free nodes finds
       each in O(1), not in a descent from the root */
    if (rel < (size_t)x->count &&
        hsim_node_fits(c, x->first + (int32_t)rel, cores, mem, gpus, gpu_milli, fpgas))
        return x->first + (int32_t)rel;
    if (rel >= (size_t)x->count)
        return -1;
    /* a share needs no whole GPU, so the tree cannot prune on GPUs then */
    int32_t gpus_tree = gpus > 0 && gpu_milli < 1000 ? 0 : gpus;
    /* up from the leaf: each right sibling on the way covers the nodes
       just after those seen, so a fit d nodes on costs O(log d), not a
       descent from the root */
    for (size_t k = x->leaves + rel, span = 1; k > 1; k /= 2, span *= 2) {
        if (k & 1)
            continue;
        size_t lo = (k + 1) * span - x->leaves;
        int32_t n = descend(c, x, k + 1, lo, lo + span, rel, cores, mem, gpus_tree, gpus,
                            gpu_milli, fpgas);
        if (n >= 0)
            return n;
    }
    return -1;
}

int32_t hsim_cluster_bucket(const hsim_cluster_t *c, size_t t, int by_gpus, int32_t v)
{
    const hsim_type_index_t *x = &c->idx[t];
    if (v < 0 || v > (by_gpus ? c->types[t].gpus : c->types[t].cores))
        return -1;
    return by_gpus ? x->gbucket[v] : x->cbucket[v];
}

hsim_time_t hsim_node_busy(const hsim_node_t *n, hsim_time_t now)
{
    return n->busy + (n->busy_since >= 0 ? now - n->busy_since : 0);
}

/* gpu_milli of a GPU held whole by one job: below any share, so share
   searches skip it, and distinct from a GPU filled by shares. */
#define GPU_HELD ((int16_t)-1)

/* Applies one part with sign +1 (take) or -1 (give); the caller sets the
   trees (trees_after()). */
static void apply(hsim_cluster_t *c, const hsim_part_t *p, int sign, hsim_time_t now)
{
    hsim_node_t *n = &c->nodes[p->node];
    buckets_unlink(c, p->node);
    int32_t gpus_was = n->free_gpus;
    n->free_cores -= sign * p->cores;
    c->free_cores -= sign * p->cores;
    n->free_mem -= sign * p->mem_mb;
    n->free_fpgas -= sign * p->fpgas;
    size_t g0 = c->gpu_first[p->node];
    if (p->gpu >= 0) {
        int16_t *share = &c->gpu_milli[g0 + (size_t)p->gpu];
        int was_whole = *share == 1000;
        *share = (int16_t)(*share - sign * p->gpu_milli);
        n->free_gpus += (*share == 1000) - was_whole;
    }
    if (p->gpus > 0) {
        /* whole GPUs: take the first free ones, give back the first taken.
           A GPU held whole is marked GPU_HELD, not 0: a GPU whose shares
           add up to 0 free belongs to share jobs and must not be given
           back in place of this one. */
        int32_t left = p->gpus;
        for (int32_t g = 0; g < c->types[n->type].gpus && left > 0; g++) {
            int16_t *share = &c->gpu_milli[g0 + (size_t)g];
            if (sign > 0 && *share == 1000) {
                *share = GPU_HELD;
                left--;
            } else if (sign < 0 && *share == GPU_HELD) {
                *share = 1000;
                left--;
            }
        }
        HSIM_ASSERT(left == 0);
        n->free_gpus -= sign * p->gpus;
    }
    c->free_gpus += n->free_gpus - gpus_was;
    HSIM_ASSERT(n->free_cores >= 0 && n->free_mem >= 0 && n->free_gpus >= 0 &&
                n->free_fpgas >= 0);
    if (sign > 0 && n->jobs++ == 0)
        n->busy_since = now;
    if (sign < 0 && --n->jobs == 0) {
        n->busy += now - n->busy_since;
        n->busy_since = -1;
    }
    buckets_link(c, p->node);
}

void hsim_cluster_take(hsim_cluster_t *c, const hsim_alloc_t *a, hsim_time_t now)
{
    for (size_t i = 0; i < a->n; i++)
        apply(c, &a->parts[i], +1, now);
    trees_after(c, a);
}

void hsim_cluster_give(hsim_cluster_t *c, const hsim_alloc_t *a, hsim_time_t now)
{
    for (size_t i = 0; i < a->n; i++)
        apply(c, &a->parts[i], -1, now);
    trees_after(c, a);
}

static void copy_node(hsim_cluster_t *dst, const hsim_cluster_t *src, int32_t i)
{
    hsim_node_t *d = &dst->nodes[i];
    const hsim_node_t *s = &src->nodes[i];
    buckets_unlink(dst, i);
    dst->free_cores += s->free_cores - d->free_cores;
    dst->free_gpus += s->free_gpus - d->free_gpus;
    d->free_cores = s->free_cores;
    d->free_mem = s->free_mem;
    d->free_gpus = s->free_gpus;
    d->free_fpgas = s->free_fpgas;
    d->jobs = s->jobs;
    d->busy = s->busy;
    d->busy_since = s->busy_since;
    size_t g0 = dst->gpu_first[i];
    memcpy(&dst->gpu_milli[g0], &src->gpu_milli[g0],
           (size_t)dst->types[d->type].gpus * sizeof *dst->gpu_milli);
    buckets_link(dst, i);
}

void hsim_cluster_copy_node(hsim_cluster_t *dst, const hsim_cluster_t *src, int32_t i)
{
    copy_node(dst, src, i);
    tree_set(dst, i);
}

void hsim_cluster_copy_nodes(hsim_cluster_t *dst, const hsim_cluster_t *src,
                             const int32_t *nodes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        copy_node(dst, src, nodes[i]);
    trees_settle(dst, nodes, NULL, n);
}

static void hold_part(hsim_cluster_t *c, const hsim_part_t *p)
{
    hsim_node_t *n = &c->nodes[p->node];
    buckets_unlink(c, p->node);
    int32_t cores = (int32_t)hsim_sub_floor(n->free_cores, p->cores);
    c->free_cores += cores - n->free_cores;
    n->free_cores = cores;
    n->free_mem = hsim_sub_floor(n->free_mem, p->mem_mb);
    n->free_fpgas = (int32_t)hsim_sub_floor(n->free_fpgas, p->fpgas);
    /* a share held counts as its whole GPU: a planner books no fractions */
    int32_t left = p->gpus + (p->gpu >= 0 && p->gpu_milli > 0);
    size_t g0 = c->gpu_first[p->node];
    for (int32_t g = 0; g < c->types[n->type].gpus && left > 0; g++)
        if (c->gpu_milli[g0 + (size_t)g] == 1000) {
            c->gpu_milli[g0 + (size_t)g] = GPU_HELD;
            n->free_gpus--;
            c->free_gpus--;
            left--;
        }
    buckets_link(c, p->node);
}

void hsim_cluster_hold(hsim_cluster_t *c, const hsim_part_t *p)
{
    hold_part(c, p);
    tree_set(c, p->node);
}

void hsim_cluster_hold_all(hsim_cluster_t *c, const hsim_alloc_t *a)
{
    for (size_t i = 0; i < a->n; i++)
        hold_part(c, &a->parts[i]);
    trees_after(c, a);
}

int hsim_cluster_take_exact(hsim_cluster_t *c, const hsim_alloc_t *a, hsim_time_t now)
{
    size_t k = 0;
    while (k < a->n && hsim_part_fits(c, &a->parts[k]))
        apply(c, &a->parts[k++], +1, now);
    trees_settle(c, NULL, a->parts, k);
    return k == a->n ? 0 : HSIM_NOFIT;
}

int hsim_cluster_speeds_init(hsim_cluster_t *c, size_t n_classes)
{
    hsim_free(c->speeds.speed);
    c->speeds.n_classes = n_classes;
    c->speeds.speed = hsim_calloc(n_classes ? n_classes * c->n_types : 1, sizeof(double));
    return c->speeds.speed ? 0 : HSIM_ENOMEM;
}

double hsim_cluster_speed(const hsim_cluster_t *c, int32_t cls, size_t t, int gpu_job)
{
    if (cls >= 0 && (size_t)cls < c->speeds.n_classes) {
        double s = c->speeds.speed[(size_t)cls * c->n_types + t];
        if (s != 0)
            return s < 0 ? 0 : s; /* < 0 marks "cannot run there" */
    }
    return gpu_job ? 1.0 : c->types[t].speed;
}

int hsim_alloc_add(hsim_alloc_t *a, const hsim_part_t *p)
{
    if (hsim_grow(&a->parts, &a->cap, a->n + 1, sizeof *a->parts))
        return HSIM_ENOMEM;
    a->parts[a->n++] = *p;
    return 0;
}

void hsim_alloc_free(hsim_alloc_t *a)
{
    hsim_free(a->parts);
    a->parts = NULL;
    a->n = a->cap = 0;
}
