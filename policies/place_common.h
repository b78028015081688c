/*
 * place_common.h - the allocator every placement policy shares, and the
 * node walks policies build their choices from.
 *
 * A policy decides only the order in which nodes are tried: it supplies a
 * chooser, an iterator that answers "the next node that could take at least
 * this much".  hsim_place_request() turns a request into per-node shares
 * (whole nodes, a GPU share, or units spread over nodes), asks the chooser
 * for nodes one at a time and lays the job out, packed or spread.  The
 * policies therefore differ in one thing only, and every one of them honours
 * the same request semantics.
 *
 * Assumption: the cluster does not change during one hsim_place_request()
 * (placement only reads it), so a chooser may walk a cursor over the trees or
 * the buckets and never meet a node twice.
 */
#ifndef HSIM_PLACE_COMMON_H
#define HSIM_PLACE_COMMON_H

#include "placement.h"

/*
 * What the allocator asks a chooser for: the least a node must hold to be
 * of any use now (one unit of the job, or the smallest open per-node share),
 * and a hint of what it would like on one node.
 */
typedef struct hsim_ask {
    int32_t cores;      /* free cores needed, >= 0 */
    int64_t mem_mb;     /* free memory needed, MiB, >= 0 (ignored on node types
                           that do not model memory: mem_mb == 0) */
    int32_t gpus;       /* whole free GPUs needed, >= 0 */
    int32_t gpu_milli;  /* < 1000 with gpus == 1: a free share of one GPU
                           instead of a whole GPU; else 1000 */
    int32_t fpgas;      /* free FPGAs needed, >= 0 */
    int gpu_job;        /* 1: the primary resource is GPUs, else cores */
    int32_t want;       /* primary amount (GPUs or cores) the allocator would
                           like on one node: the whole job (or per-node
                           share) when packing, one unit when spreading.
                           Constant over one walk. */
    int first;          /* 1 on the first call of a walk: start over */
} hsim_ask_t;

/*
 * A chooser: returns the global index of the next node, of a type that
 * hsim_place_type_ok() accepts, that fits ask (hsim_place_fits()), or -1
 * when there is none.  ctx is the policy's; a is what the allocator has
 * chosen so far in this walk.
 *
 * The allocator promises, within one walk (from a call with ask->first == 1
 * to the next one): the cluster does not change; the ask only grows (each
 * field non-decreasing, want constant); every node returned is added to a.
 * So a chooser that never returns a node twice in one walk never returns a
 * node already in a, and a cursor that moves past nodes that did not fit
 * loses nothing.
 */
typedef int32_t (*hsim_chooser_cb)(void *ctx, const hsim_cluster_t *c,
                                   const hsim_request_t *r, const hsim_ask_t *ask,
                                   const hsim_alloc_t *a);

/*
 * Places r by asking choose for nodes, and appends the parts to a (which
 * must be empty).  Returns 0 (a holds r's resources, see below), HSIM_NOFIT
 * (a is left empty) or HSIM_ENOMEM (a is left empty).  Never changes the
 * cluster: every share is checked against the node's free resources minus
 * what a already holds there.  The caller owns a's parts.
 *
 * Layouts, by request:
 *  - nodes > 0: exactly `nodes` distinct nodes, each with cores_per_node
 *    cores (ceil(procs / nodes) when cores_per_node < 1) and mem_mb, gpus,
 *    fpgas divided by nodes.  A total that does not divide goes one unit
 *    each to the first nodes of the allocation that can hold it (greedy: a
 *    node gets the largest open share it fits, which is complete because
 *    the shares are nested).
 *  - gpus == 1 and 1 <= gpu_milli < 1000: one node, with procs cores (or
 *    cores_per_node when nodes == 1), all memory and FPGAs, and a share of
 *    one GPU: the fullest GPU that still fits (part.gpu, part.gpu_milli,
 *    part.gpus = 0).  With nodes >= 2 the share is one node's remainder
 *    (see above): the first chosen node that can hold it gets it.
 *    gpu_milli < 1000 with gpus >= 2 is taken as whole GPUs.
 *  - other GPU jobs, nodes == 0: units of one GPU with ceil(procs / gpus)
 *    cores each (so the job may hold up to gpus - 1 cores more than procs),
 *    spanning nodes.
 *  - CPU jobs, nodes == 0: units of one core (procs < 1 counts as 1).
 *  In the two unit layouts memory and FPGAs follow the units: the first k
 *  units hold ceil(total * k / units), so the totals are exact; a node is
 *  chosen only if it holds the largest unit, ceil(total / units) (the ask
 *  never shrinks within a walk), so a job with fewer FPGAs than units
 *  still needs a free FPGA on each node it first takes a unit on.
 *  HSIM_SPREAD's nodes take their units one per round, so the units are
 *  laid out at the end, each node's side by side, in the order the nodes
 *  were chosen; a node that holds k takes one more when it holds what the
 *  first k + 1 units hold, the most that any k + 1 side by side do.
 *  HSIM_PACK first looks for one node that takes the whole job, then lets
 *  each chosen node take as many units as it can (fewest nodes).
 *  HSIM_SPREAD gives one unit to each chosen node until the job is met or
 *  no node is left, then goes round the chosen nodes again, one unit each.
 *  spread does not matter when nodes > 0 or for GPU shares.
 *  On a node type with mem_mb == 0 (memory not modelled) a part holds no
 *  memory and memory never stops a placement.
 *
 * Cost: the chooser's calls plus O(parts) (O(log units) per node for the
 * memory split); phase two of HSIM_SPREAD is O(units + parts).
 */
int hsim_place_request(const hsim_cluster_t *c, const hsim_request_t *r,
                       hsim_spread_t spread, hsim_chooser_cb choose, void *ctx,
                       hsim_alloc_t *a);

/* May r run on node type t: hsim_type_accepts() and a speed for its job
   class above 0 (a speed below 0 in the table means "cannot run there", and
   the engine refuses a part with speed 0).  O(1). */
int hsim_place_type_ok(const hsim_cluster_t *c, size_t t, const hsim_request_t *r);
/* The types r may use, in type order, into types[] (HSIM_MAX_NODE_TYPES
   entries); returns how many.  O(types). */
size_t hsim_place_types(const hsim_cluster_t *c, const hsim_request_t *r, uint8_t *types);
/* Does node n's free room hold ask (memory only where modelled)?  O(1),
   O(GPUs of the node) for a GPU share. */
int hsim_place_fits(const hsim_cluster_t *c, int32_t n, const hsim_ask_t *ask);
/* Whole free GPUs ask needs on a node: none for a share of one GPU. */
int32_t hsim_place_whole_gpus(const hsim_ask_t *ask);
/* The lowest node in [from, to) of a type r may use that fits ask, or -1.
   O(types + log nodes) plus the tree's misses (see hsim_cluster_first_fit). */
int32_t hsim_place_lowest_fit(const hsim_cluster_t *c, const hsim_request_t *r,
                             const hsim_ask_t *ask, int32_t from, int32_t to);

/*
 * A ring walk over the nodes [lo, hi): first fit at or after start, then
 * wrapping round to lo, each node at most once per walk.  First-fit is the
 * ring [0, nodes) from 0; round-robin and source-hash start elsewhere;
 * weighted round-robin walks one type's range.  Set the four fields, then
 * pass hsim_place_ring_choose with the ring as ctx.
 */
typedef struct hsim_place_ring {
    int32_t lo, hi;     /* the global node range walked, lo <= hi */
    int32_t start;      /* first node tried, lo <= start <= hi */
    int32_t pos;        /* cursor: next node to try (set by the walk) */
    int wrapped;        /* cursor: 1 once the walk went round to lo */
} hsim_place_ring_t;

/* hsim_chooser_cb over a ring (ctx: hsim_place_ring_t *).  O(types +
   log nodes) per call (see hsim_place_lowest_fit). */
int32_t hsim_place_ring_choose(void *ctx, const hsim_cluster_t *c, const hsim_request_t *r,
                               const hsim_ask_t *ask, const hsim_alloc_t *a);

/*
 * A walk over the buckets of nodes by free primary resource (free cores,
 * or free GPUs for GPU jobs), for best-fit (dir +1) and worst-fit (dir -1).
 * At each free value the types are taken in order[] and each bucket in its
 * list order.  dir +1 walks from max(want, least the ask needs) upward to
 * the largest capacity, then from just below want downward (a job larger
 * than any node takes the largest nodes first: fewest nodes); dir -1 walks
 * from the largest capacity downward.  The order is fixed when the walk
 * starts: a job that spans nodes does not re-aim at what is left.
 */
typedef struct hsim_place_walk {
    uint8_t order[HSIM_MAX_NODE_TYPES]; /* types walked, in this order */
    size_t n_order;     /* 0..HSIM_MAX_NODE_TYPES */
    int dir;            /* +1 best-fit, -1 worst-fit */
    /* the cursor, set by the walk */
    int phase;          /* 1 main sweep, 2 below want (dir +1), 3 done */
    int by_gpus;        /* buckets by free GPUs, else by free cores */
    int32_t v, v0, vmin, vmax; /* current value; where sweeps start and end */
    size_t k;           /* position in order[] */
    int32_t node;       /* next node in the current bucket, -1 */
} hsim_place_walk_t;

/* Sets w to walk the types r may use (in type order) in direction dir. */
void hsim_place_walk_init(hsim_place_walk_t *w, const hsim_cluster_t *c,
                          const hsim_request_t *r, int dir);
/* hsim_chooser_cb over a bucket walk (ctx: hsim_place_walk_t *).  Cost per
   call: the empty buckets crossed (at most capacity x types per walk) plus
   the nodes met that do not fit (other resources short): worst case every
   node of the walked types, typically a few. */
int32_t hsim_place_walk_choose(void *ctx, const hsim_cluster_t *c, const hsim_request_t *r,
                               const hsim_ask_t *ask, const hsim_alloc_t *a);

/* The state of the policies that keep nothing but the layout.  *state gets
   an hsim_place_plain_t owned by the caller, freed with hsim_free(). */
typedef struct hsim_place_plain {
    hsim_spread_t spread;
} hsim_place_plain_t;
int hsim_place_plain_create(const hsim_cluster_t *c, hsim_spread_t spread, void **state);
void hsim_place_plain_destroy(void *state);

#endif
