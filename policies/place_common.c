/*
 * place_common.c - the shared allocator and node walks.  See place_common.h.
 *
 * A request becomes one of two layouts.  Exact layouts (nodes > 0, or one
 * GPU share) need a fixed number of distinct nodes, each with a share; when
 * a total does not divide by the nodes the shares differ by one unit, and
 * because they are nested (each share holds every later one) a node is given
 * the largest open share it fits, which never blocks a layout that exists.
 * Unit layouts (everything else) cut the job into units (a core, or a GPU
 * with its cores); memory and FPGAs are split over the units by cumulative
 * rounding, so that k units hold ceil(total * k / units) and the totals are
 * exact.
 *
 * Assumption: the cluster is not changed while a request is placed; the
 * allocator only reads it and checks every share against the free room
 * minus what the allocation already holds on that node.
 */
#include "place_common.h"

#include <string.h>

/* ---------------------------------------------------------------- helpers */

/* Memory asked of node type t: nothing where memory is not modelled. */
static int64_t mem_on(const hsim_cluster_t *c, size_t t, int64_t mem)
{
    return c->types[t].mem_mb > 0 ? mem : 0;
}

int32_t hsim_place_whole_gpus(const hsim_ask_t *ask)
{
    return ask->gpus > 0 && ask->gpu_milli < 1000 ? 0 : ask->gpus;
}

/* The least primary resource an ask needs. */
static int32_t ask_primary(const hsim_ask_t *ask)
{
    return ask->gpu_job ? hsim_place_whole_gpus(ask) : ask->cores;
}

static int is_share(int32_t gpus, int32_t milli)
{
    return gpus == 1 && milli >= 1 && milli < 1000;
}

int hsim_place_type_ok(const hsim_cluster_t *c, size_t t, const hsim_request_t *r)
{
    return hsim_type_accepts(c, t, r) && hsim_cluster_speed(c, r->job_class, t, r->gpus > 0) > 0;
}

size_t hsim_place_types(const hsim_cluster_t *c, const hsim_request_t *r, uint8_t *types)
{
    size_t n = 0;
    for (size_t t = 0; t < c->n_types; t++)
        if (hsim_place_type_ok(c, t, r))
            types[n++] = (uint8_t)t;
    return n;
}

int hsim_place_fits(const hsim_cluster_t *c, int32_t n, const hsim_ask_t *ask)
{
    size_t t = (size_t)c->nodes[n].type;
    return hsim_node_fits(c, n, ask->cores, mem_on(c, t, ask->mem_mb), ask->gpus,
                          ask->gpus > 0 ? ask->gpu_milli : 1000, ask->fpgas);
}

int32_t hsim_place_lowest_fit(const hsim_cluster_t *c, const hsim_request_t *r,
                             const hsim_ask_t *ask, int32_t from, int32_t to)
{
    for (size_t t = 0; t < c->n_types; t++) {
        int32_t lo = c->idx[t].first, hi = lo + c->idx[t].count;
        if (hi <= from)
            continue;
        if (lo >= to)
            break;
        if (!hsim_place_type_ok(c, t, r))
            continue;
        int32_t n = hsim_cluster_first_fit(c, t, from > lo ? from : lo, ask->cores,
                                           mem_on(c, t, ask->mem_mb), ask->gpus,
                                           ask->gpus > 0 ? ask->gpu_milli : 1000, ask->fpgas);
        if (n >= 0)
            return n < to ? n : -1; /* later types lie further on */
    }
    return -1;
}

/* ------------------------------------------------------------------ walks */

int32_t hsim_place_ring_choose(void *ctx, const hsim_cluster_t *c, const hsim_request_t *r,
                               const hsim_ask_t *ask, const hsim_alloc_t *a)
{
    (void)a;
    hsim_place_ring_t *g = ctx;
    if (ask->first) {
        g->pos = g->start;
        g->wrapped = 0;
    }
    for (;;) {
        int32_t end = g->wrapped ? g->start : g->hi;
        int32_t n = g->pos < end ? hsim_place_lowest_fit(c, r, ask, g->pos, end) : -1;
        if (n >= 0) {
            g->pos = n + 1;
            return n;
        }
        if (g->wrapped) {
            g->pos = end;
            return -1;
        }
        g->wrapped = 1;
        g->pos = g->lo;
    }
}

void hsim_place_walk_init(hsim_place_walk_t *w, const hsim_cluster_t *c,
                          const hsim_request_t *r, int dir)
{
    memset(w, 0, sizeof *w);
    w->n_order = hsim_place_types(c, r, w->order);
    w->dir = dir;
    w->phase = 3;
    w->node = -1;
}

static int32_t walk_bucket(const hsim_place_walk_t *w, const hsim_cluster_t *c)
{
    return hsim_cluster_bucket(c, w->order[w->k], w->by_gpus, w->v);
}

static void walk_start(hsim_place_walk_t *w, const hsim_cluster_t *c, const hsim_ask_t *ask)
{
    w->by_gpus = ask->gpu_job;
    w->vmin = ask_primary(ask);
    w->vmax = -1;
    for (size_t k = 0; k < w->n_order; k++) {
        const hsim_node_type_t *ty = &c->types[w->order[k]];
        int32_t cap = w->by_gpus ? ty->gpus : ty->cores;
        if (cap > w->vmax)
            w->vmax = cap;
    }
    w->k = 0;
    w->node = -1;
    if (w->n_order == 0 || w->vmin > w->vmax) {
        w->phase = 3;
        return;
    }
    w->phase = 1;
    if (w->dir > 0) {
        int32_t v0 = ask->want;
        w->v0 = v0 < w->vmin ? w->vmin : v0 > w->vmax ? w->vmax : v0;
        w->v = w->v0;
    } else {
        w->v = w->vmax;
    }
    w->node = walk_bucket(w, c);
}

/* Moves to the next free value; 0 when the walk is over. */
static int walk_next_value(hsim_place_walk_t *w)
{
    w->k = 0;
    if (w->phase == 1 && w->dir > 0) {
        if (w->v < w->vmax) {
            w->v++;
            return 1;
        }
        w->phase = 2;
        w->v = w->v0 - 1;
    } else {
        w->v--;
    }
    if (w->v < w->vmin) {
        w->phase = 3;
        return 0;
    }
    return 1;
}

int32_t hsim_place_walk_choose(void *ctx, const hsim_cluster_t *c, const hsim_request_t *r,
                               const hsim_ask_t *ask, const hsim_alloc_t *a)
{
    (void)r;
    (void)a;
    hsim_place_walk_t *w = ctx;
    if (ask->first)
        walk_start(w, c, ask);
    else if (ask_primary(ask) > w->vmin)
        w->vmin = ask_primary(ask); /* the ask grew: smaller buckets are useless */
    while (w->phase != 3) {
        while (w->node >= 0) {
            int32_t n = w->node;
            w->node = w->by_gpus ? c->nodes[n].gnext : c->nodes[n].cnext;
            if (hsim_place_fits(c, n, ask))
                return n;
        }
        if (++w->k >= w->n_order && !walk_next_value(w))
            break;
        w->node = walk_bucket(w, c);
    }
    return -1;
}

int hsim_place_plain_create(const hsim_cluster_t *c, hsim_spread_t spread, void **state)
{
    (void)c;
    hsim_place_plain_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    s->spread = spread;
    *state = s;
    return 0;
}

void hsim_place_plain_destroy(void *state) { hsim_free(state); }

/* ---------------------------------------------------------- exact layouts */

/* Nested per-node shares: group i's share holds every later group's. */
typedef struct exact {
    hsim_ask_t share[4];    /* at most 4 distinct shares (3 remainders) */
    int32_t count[4];       /* open slots of each share */
    int n;                  /* groups */
} exact_t;

static void exact_plan(const hsim_request_t *r, exact_t *x)
{
    memset(x, 0, sizeof *x);
    int32_t nodes = r->nodes > 0 ? r->nodes : 1;
    int32_t procs = r->procs > 0 ? r->procs : 1;
    int32_t cpn = r->nodes > 0 && r->cores_per_node >= 1 ? r->cores_per_node
                  : r->nodes > 0                         ? (procs + nodes - 1) / nodes
                                                         : procs;
    int share = is_share(r->gpus, r->gpu_milli);
    int64_t rem[3] = {r->mem_mb % nodes, r->gpus % nodes, r->fpgas % nodes};
    /* group starts: 0 and each remainder, sorted, distinct, below nodes */
    int64_t start[4] = {0};
    int n = 1;
    for (int i = 0; i < 3; i++) {
        int64_t s = rem[i];
        int dup = s == 0;
        for (int j = 0; j < n; j++)
            dup |= start[j] == s;
        if (dup)
            continue;
        int j = n++;
        while (j > 0 && start[j - 1] > s) {
            start[j] = start[j - 1];
            j--;
        }
        start[j] = s;
    }
    for (int i = 0; i < n; i++) {
        int64_t s = start[i];
        hsim_ask_t *a = &x->share[i];
        a->cores = cpn;
        a->mem_mb = r->mem_mb / nodes + (s < rem[0]);
        a->gpus = r->gpus / nodes + (s < rem[1]);
        a->gpu_milli = share && a->gpus == 1 ? r->gpu_milli : 1000;
        a->fpgas = r->fpgas / nodes + (s < rem[2]);
        a->gpu_job = r->gpus > 0;
        x->count[i] = (int32_t)((i + 1 < n ? start[i + 1] : nodes) - s);
    }
    x->n = n;
    int32_t want = ask_primary(&x->share[0]);
    for (int i = 0; i < n; i++)
        x->share[i].want = want;
}

static int place_exact(const hsim_cluster_t *c, const hsim_request_t *r,
                       hsim_chooser_cb choose, void *ctx, hsim_alloc_t *a)
{
    exact_t x;
    exact_plan(r, &x);
    int first = 1;
    for (;;) {
        int last = x.n - 1;
        while (last >= 0 && x.count[last] == 0)
            last--;
        if (last < 0)
            return 0;
        hsim_ask_t ask = x.share[last];
        ask.first = first;
        first = 0;
        int32_t n = choose(ctx, c, r, &ask, a);
        if (n < 0)
            return HSIM_NOFIT;
        size_t t = (size_t)c->nodes[n].type;
        HSIM_ASSERT(hsim_place_type_ok(c, t, r) && hsim_place_fits(c, n, &ask));
        int g = 0;          /* both walks end by last at the latest: n fits it */
        while (g < last && !hsim_place_fits(c, n, &x.share[g]))
            g++;
        while (g < last && x.count[g] == 0)
            g++;
        const hsim_ask_t *s = &x.share[g];
        hsim_part_t p = {.node = n, .cores = s->cores, .mem_mb = mem_on(c, t, s->mem_mb),
                         .gpus = s->gpus, .gpu = -1, .fpgas = s->fpgas};
        if (s->gpus > 0 && s->gpu_milli < 1000) {
            p.gpus = 0;
            p.gpu = hsim_cluster_share_gpu(c, n, s->gpu_milli);
            p.gpu_milli = s->gpu_milli;
            HSIM_ASSERT(p.gpu >= 0);
        }
        if (hsim_alloc_add(a, &p))
            return HSIM_ENOMEM;
        x.count[g]--;
    }
}

/* ----------------------------------------------------------- unit layouts */

typedef struct units {
    int32_t n;          /* units in the job, >= 1 */
    int32_t cores;      /* cores per unit, >= 0 */
    int32_t gpus;       /* whole GPUs per unit: 0 or 1 */
    int64_t mem;        /* memory in total, split over the units */
    int64_t fpgas;      /* FPGAs in total, split over the units */
} units_t;

/* What the first k units hold of total: ceil(total * k / n), without
   overflow (total = q n + m, m < n < 2^31). */
static int64_t split(int64_t total, int32_t n, int64_t k)
{
    int64_t q = total / n, m = total % n;
    return q * k + (m * k + n - 1) / n;
}

static void units_plan(const hsim_request_t *r, units_t *u)
{
    int32_t procs = r->procs > 0 ? r->procs : 1;
    if (r->gpus > 0) {
        u->n = r->gpus;
        u->cores = (int32_t)(((int64_t)procs + r->gpus - 1) / r->gpus);
        u->gpus = 1;
    } else {
        u->n = procs;
        u->cores = 1;
        u->gpus = 0;
    }
    u->mem = r->mem_mb;
    u->fpgas = r->fpgas;
}

/* The ask for one unit: the largest share of memory and FPGAs a unit holds. */
static hsim_ask_t unit_ask(const units_t *u, int gpu_job)
{
    return (hsim_ask_t){.cores = u->cores, .mem_mb = split(u->mem, u->n, 1), .gpus = u->gpus,
                        .gpu_milli = 1000, .fpgas = split(u->fpgas, u->n, 1),
                        .gpu_job = gpu_job, .want = 1};
}

/* How many units, at most max, node n can add to what p holds there (p may
   be NULL) when done units are already placed.  O(log max). */
static int32_t units_fit(const hsim_cluster_t *c, int32_t n, const hsim_part_t *p,
                         const units_t *u, int32_t done, int32_t max)
{
    static const hsim_part_t none = {0};
    if (!p)
        p = &none;
    const hsim_node_t *nd = &c->nodes[n];
    int64_t lim = max;
    if (u->cores > 0 && (nd->free_cores - p->cores) / u->cores < lim)
        lim = (nd->free_cores - p->cores) / u->cores;
    if (u->gpus > 0 && nd->free_gpus - p->gpus < lim)
        lim = nd->free_gpus - p->gpus;
    if (lim <= 0)
        return 0;
    int64_t room_mem = c->types[nd->type].mem_mb > 0 ? nd->free_mem - p->mem_mb : INT64_MAX;
    int64_t room_fpga = nd->free_fpgas - p->fpgas;
    if (u->mem == 0 && u->fpgas == 0) /* the split below is all zeros */
        return room_mem >= 0 && room_fpga >= 0 ? (int32_t)lim : 0;
    int64_t base_mem = split(u->mem, u->n, done), base_fpga = split(u->fpgas, u->n, done);
    int64_t lo = 0, hi = lim; /* largest k in [0, lim] whose split fits: monotone */
    while (lo < hi) {
        int64_t k = lo + (hi - lo + 1) / 2;
        if (split(u->mem, u->n, done + k) - base_mem <= room_mem &&
            split(u->fpgas, u->n, done + k) - base_fpga <= room_fpga)
            lo = k;
        else
            hi = k - 1;
    }
    return (int32_t)lo;
}

/* Adds k units, placed as units done.. done+k-1, to part p of node n. */
static void units_add(const hsim_cluster_t *c, hsim_part_t *p, const units_t *u,
                      int32_t done, int32_t k)
{
    p->cores += k * u->cores;
    p->gpus += k * u->gpus;
    if (c->types[c->nodes[p->node].type].mem_mb > 0)
        p->mem_mb += split(u->mem, u->n, done + k) - split(u->mem, u->n, done);
    p->fpgas += (int32_t)(split(u->fpgas, u->n, done + k) - split(u->fpgas, u->n, done));
}

/* HSIM_PACK's first try: one node that takes the whole job.  0 or
   HSIM_NOFIT or HSIM_ENOMEM. */
static int place_whole(const hsim_cluster_t *c, const hsim_request_t *r, const units_t *u,
                       hsim_chooser_cb choose, void *ctx, hsim_alloc_t *a)
{
    int64_t cores = (int64_t)u->n * u->cores;
    hsim_ask_t ask = {.cores = cores > INT32_MAX ? INT32_MAX : (int32_t)cores,
                      .mem_mb = u->mem, .gpus = u->n * u->gpus, .gpu_milli = 1000,
                      .fpgas = (int32_t)u->fpgas, .gpu_job = r->gpus > 0, .first = 1};
    ask.want = ask_primary(&ask);
    int32_t n = choose(ctx, c, r, &ask, a);
    if (n < 0)
        return HSIM_NOFIT;
    HSIM_ASSERT(hsim_place_type_ok(c, (size_t)c->nodes[n].type, r) &&
                units_fit(c, n, NULL, u, 0, u->n) == u->n);
    hsim_part_t p = {.node = n, .gpu = -1};
    units_add(c, &p, u, 0, u->n);
    return hsim_alloc_add(a, &p) ? HSIM_ENOMEM : 0;
}

/* Units under HSIM_SPREAD: a node's units are not side by side (it takes
   one each round), so while the layout grows a part holds what its first
   k units would, the most any k side-by-side units hold (split() rounds
   up), and the memory and FPGAs are laid out at the end, each part's k
   units side by side in part order: exact totals, and no part more than it
   was checked for. */
static int32_t part_units(const hsim_part_t *p, const units_t *u)
{
    return p->cores / u->cores; /* a unit holds at least one core */
}

static void spread_layout(const hsim_cluster_t *c, const units_t *u, hsim_alloc_t *a)
{
    int32_t done = 0;
    for (size_t i = 0; i < a->n; i++) {
        hsim_part_t *p = &a->parts[i];
        int32_t k = part_units(p, u);
        p->mem_mb = 0;
        p->fpgas = 0;
        p->cores -= k * u->cores;
        p->gpus -= k * u->gpus;
        units_add(c, p, u, done, k);
        done += k;
    }
}

/* HSIM_SPREAD's second phase: one more unit to each chosen node in turn.
   A node that cannot take one more (with the share of memory and FPGAs
   of its first k + 1 units) is dropped for good.  O(units + parts x log
   units). */
static int spread_round(const hsim_cluster_t *c, const units_t *u, int32_t *done,
                        hsim_alloc_t *a)
{
    int32_t *live = hsim_malloc(a->n * sizeof *live);
    if (!live)
        return HSIM_ENOMEM;
    size_t n_live = a->n;
    for (size_t i = 0; i < a->n; i++)
        live[i] = (int32_t)i;
    while (*done < u->n && n_live > 0) {
        size_t kept = 0;
        for (size_t i = 0; i < n_live && *done < u->n; i++) {
            hsim_part_t *p = &a->parts[live[i]];
            int32_t k = part_units(p, u);
            if (units_fit(c, p->node, p, u, k, 1) < 1)
                continue;
            units_add(c, p, u, k, 1);
            (*done)++;
            live[kept++] = live[i];
        }
        if (*done < u->n)
            n_live = kept;
    }
    hsim_free(live);
    return *done == u->n ? 0 : HSIM_NOFIT;
}

static int place_units(const hsim_cluster_t *c, const hsim_request_t *r, const units_t *u,
                       hsim_spread_t spread, hsim_chooser_cb choose, void *ctx,
                       hsim_alloc_t *a)
{
    hsim_ask_t ask = unit_ask(u, r->gpus > 0);
    ask.want = spread == HSIM_SPREAD ? 1 : u->n;
    ask.first = 1;
    int32_t done = 0;
    while (done < u->n) {
        int32_t n = choose(ctx, c, r, &ask, a);
        ask.first = 0;
        if (n < 0)
            break;
        HSIM_ASSERT(hsim_place_type_ok(c, (size_t)c->nodes[n].type, r));
        /* packed, a node takes the next units; spread, its first one */
        int32_t first = spread == HSIM_SPREAD ? 0 : done;
        int32_t k = units_fit(c, n, NULL, u, first, spread == HSIM_SPREAD ? 1 : u->n - done);
        HSIM_ASSERT(k >= 1); /* the chooser returned a node that fits the ask */
        hsim_part_t p = {.node = n, .gpu = -1};
        units_add(c, &p, u, first, k);
        if (hsim_alloc_add(a, &p))
            return HSIM_ENOMEM;
        done += k;
    }
    if (spread != HSIM_SPREAD)
        return done == u->n ? 0 : HSIM_NOFIT;
    if (done < u->n && a->n > 0) {
        int rc = spread_round(c, u, &done, a);
        if (rc)
            return rc;
    }
    if (done < u->n)
        return HSIM_NOFIT;
    spread_layout(c, u, a);
    return 0;
}

/* ------------------------------------------------------------------ entry */

int hsim_place_request(const hsim_cluster_t *c, const hsim_request_t *r,
                       hsim_spread_t spread, hsim_chooser_cb choose, void *ctx,
                       hsim_alloc_t *a)
{
    HSIM_ASSERT(a->n == 0);
    int rc;
    if (r->nodes > 0 || is_share(r->gpus, r->gpu_milli)) {
        rc = place_exact(c, r, choose, ctx, a);
    } else {
        units_t u;
        units_plan(r, &u);
        rc = HSIM_NOFIT;
        /* more cores or whole GPUs than the whole cluster has free: no
           walk (a queue longer than the cluster asks it of every job) */
        if ((int64_t)u.n * u.cores > c->free_cores || (int64_t)u.n * u.gpus > c->free_gpus)
            return HSIM_NOFIT;
        if (spread == HSIM_PACK && u.n > 1)
            rc = place_whole(c, r, &u, choose, ctx, a);
        if (rc == HSIM_NOFIT) {
            a->n = 0;
            rc = place_units(c, r, &u, spread, choose, ctx, a);
        }
    }
    if (rc)
        a->n = 0;
    return rc;
}
