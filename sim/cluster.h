/*
 * cluster.h - the heterogeneous cluster model: node types (CPU, GPU, FPGA
 * nodes), the ledger of what is free on each node, and the allocations of
 * running jobs.
 *
 * A cluster is a list of node types ([nodes NAME] sections), each with a
 * count of identical nodes.  The ledger keeps, per node, free cores, memory,
 * whole GPUs (and each GPU's free share in thousandths, for fractional GPU
 * jobs) and FPGAs.  Per node type, a max-tree over its nodes finds the first
 * node, from a given one on, that could hold a request in O(log nodes), and
 * the nodes are kept in buckets by free cores and by free GPUs, so that
 * best-fit and worst-fit need not scan every node (100,000 nodes, 1,000,000
 * jobs).  Placement policies read the cluster and write an allocation; only
 * the engine applies it.
 */
#ifndef HSIM_CLUSTER_H
#define HSIM_CLUSTER_H

#include "common.h"

#define HSIM_MAX_NODE_TYPES 32
/* GPU models in a cluster: one per node type at most, so every model has a
   bit of a request's gpu_models below HSIM_MODEL_ABSENT. */
#define HSIM_MAX_GPU_MODELS HSIM_MAX_NODE_TYPES
/* A request's gpu_models when the job accepts only models the cluster
   lacks: a bit that no model of the cluster has, so no node fits. */
#define HSIM_MODEL_ABSENT (UINT64_C(1) << HSIM_MAX_GPU_MODELS)
#define HSIM_GPU_LEVELS 8 /* whole-GPU thresholds 1, 2, 4, ... 128 */
#define HSIM_TYPE_NAME_MAX 64
#define HSIM_NODE_MEM_MAX_MB INT64_C(1000000000000000) /* a petabyte of MiB: past any node */
#define HSIM_NODE_DEVICES_MAX 1024 /* GPUs or FPGAs on one node */
#define HSIM_TYPE_PARTITIONS 8 /* partition numbers one node type serves */

/* One [nodes NAME] section, resolved. */
typedef struct hsim_node_type {
    char name[HSIM_TYPE_NAME_MAX];   /* from [nodes NAME] */
    int32_t count;          /* nodes of this type, >= 1 */
    int32_t cores;          /* cores per node, >= 1 */
    int64_t mem_mb;         /* memory per node, MiB, >= 0 (0 = not modelled) */
    int32_t gpus;           /* GPUs per node, >= 0 */
    char gpu_model[HSIM_TYPE_NAME_MAX]; /* GPU model name, "" when no GPUs */
    int64_t gpu_mem_mb;     /* memory per GPU, MiB, >= 0 */
    int32_t fpgas;          /* FPGAs per node, >= 0 */
    char fpga_model[HSIM_TYPE_NAME_MAX]; /* "" when none */
    double speed;           /* relative CPU speed, > 0 (1 = reference) */
    char partition[HSIM_TYPE_NAME_MAX]; /* "" = the default partition */
    int32_t part_ids[HSIM_TYPE_PARTITIONS]; /* the partition numbers (SWF
                               field 16) it serves, when partition is a
                               list of them... */
    int32_t n_part_ids;     /* ...and how many; 0 when partition is a name
                               or empty */
} hsim_node_type_t;

/* What a job asks for, as placement sees it (never its runtime). */
typedef struct hsim_request {
    int32_t procs;          /* cores in total, >= 1 */
    int32_t nodes;          /* whole nodes, 0 = spread cores as needed */
    int32_t cores_per_node; /* with nodes > 0: cores on each, >= 1 */
    int64_t mem_mb;         /* memory in total, MiB, >= 0 */
    int32_t gpus;           /* GPUs in total, >= 0 */
    int32_t gpu_milli;      /* share of each GPU, 1..1000 (< 1000: one GPU) */
    uint64_t gpu_models;    /* acceptable models: bit i = cluster model i;
                               0 = any; HSIM_MODEL_ABSENT = none there */
    int32_t fpgas;          /* FPGAs in total, >= 0 */
    int32_t job_class;      /* class index for speeds, -1 = none */
    int32_t user;           /* user id, -1 unknown (source-hash) */
    int32_t partition;      /* partition number, -1 = any: on a cluster
                               whose types list partition numbers, only the
                               types that list it may hold the job */
} hsim_request_t;

/* A piece of an allocation: what one job holds on one node. */
typedef struct hsim_part {
    int32_t node;           /* node index */
    int32_t cores;          /* cores held, >= 0 */
    int64_t mem_mb;         /* memory held, MiB */
    int32_t gpus;           /* whole GPUs held */
    int32_t gpu;            /* for a fractional share: the GPU, else -1 */
    int32_t gpu_milli;      /* the share held on that GPU, 0 if none */
    int32_t fpgas;          /* FPGAs held */
} hsim_part_t;

typedef struct hsim_alloc {
    hsim_part_t *parts;     /* owned: hsim_free() */
    size_t n;
    size_t cap;
} hsim_alloc_t;

/* One node's free resources. */
typedef struct hsim_node {
    int32_t type;           /* node type index */
    int32_t free_cores;     /* 0..cores */
    int64_t free_mem;       /* 0..mem_mb */
    int32_t free_gpus;      /* whole GPUs free (share 1000 free), 0..gpus */
    int32_t free_fpgas;     /* 0..fpgas */
    int32_t jobs;           /* jobs holding something here */
    hsim_time_t busy;       /* time with >= 1 job, up to busy_since */
    hsim_time_t busy_since; /* when jobs last became >= 1, -1 when idle */
    int32_t cprev, cnext;   /* neighbours in its free-cores bucket, -1 */
    int32_t gprev, gnext;   /* neighbours in its free-GPUs bucket, -1 */
} hsim_node_t;

/* Per node type: the index. */
typedef struct hsim_type_index {
    int32_t first;          /* index of its first node */
    int32_t count;          /* its nodes */
    size_t leaves;          /* power of two >= count */
    int32_t *max_cores;     /* max-trees over its nodes: [1] = root */
    int32_t *max_gpus;
    int64_t *max_mem;
    int32_t *max_fpgas;
    int32_t *min_jobs;      /* min- and max-trees of the nodes' job counts */
    int32_t *max_jobs;      /* (hsim_node_t.jobs; padding: INT32_MAX, -1) */
    int32_t *min_jobs_gpus[HSIM_GPU_LEVELS]; /* min-trees of the job counts of
                               the nodes with at least 2^l whole GPUs free
                               (INT32_MAX: none), for 2^l <= the type's
                               GPUs; NULL above */
    int32_t *cbucket;       /* head node of each free-cores value, -1 */
    uint8_t has_gpus, has_mem, has_fpgas; /* the type has them: else their
                               free counts stay 0 and their trees too */
    uint8_t has_jobs;       /* the job-count trees are kept (see
                               hsim_cluster_job_trees()) */
    int32_t *gbucket;       /* head node of each free-GPUs value, -1 */
} hsim_type_index_t;

/* Speeds of job classes, per node type: duration = runtime / speed. */
typedef struct hsim_speeds {
    size_t n_classes;       /* rows */
    double *speed;          /* [class * n_types + type]: > 0 the speed,
                               < 0 cannot run there, 0 = the default: the
                               node type's CPU speed (GPU jobs: 1) */
} hsim_speeds_t;

typedef struct hsim_cluster {
    hsim_node_type_t types[HSIM_MAX_NODE_TYPES];
    size_t n_types;
    char models[HSIM_MAX_GPU_MODELS][HSIM_TYPE_NAME_MAX]; /* GPU model names (request bits) */
    size_t n_models;
    int32_t type_model[HSIM_MAX_NODE_TYPES]; /* model index of a type, -1 */
    hsim_node_t *nodes;     /* all nodes, type by type */
    size_t n_nodes;
    int16_t *gpu_milli;     /* free share of every GPU, in thousandths;
                               -1 when held whole by one job */
    size_t *gpu_first;      /* first GPU of each node in gpu_milli */
    hsim_type_index_t idx[HSIM_MAX_NODE_TYPES];
    hsim_speeds_t speeds;
    int64_t total_cores;    /* sums over all nodes */
    int64_t total_gpus;
    double total_mem;       /* MiB, in a double: 10^7 nodes of up to
                               HSIM_NODE_MEM_MAX_MB would pass int64_t */
    int64_t total_fpgas;
    int64_t free_cores;     /* sums of the nodes' free_cores... */
    int64_t free_gpus;      /* ...and free_gpus (whole GPUs) */
    int partitioned;        /* some type lists partition numbers */
    int job_trees;          /* the job-count trees are kept: 1 by default */
    size_t *pull;           /* scratch of hsim_cluster_take() and _give():
                               tree nodes to pull, level by level */
    size_t cap_pull;
} hsim_cluster_t;

/* Builds the ledger for types[0..n) (all resources free).  0 or HSIM_ENOMEM.
   Free with hsim_cluster_free(). */
int hsim_cluster_init(hsim_cluster_t *c, const hsim_node_type_t *types, size_t n);
void hsim_cluster_free(hsim_cluster_t *c);
/* Index of a GPU model name, or -1. */
int hsim_cluster_model(const hsim_cluster_t *c, const char *name);
/*
 * Whether a node's GPU model 'have' is the model 'want' that a job, a
 * throughput table or a speed key names: the same name, ignoring case, or
 * failing that a whole word of 'have' (words end at blanks, '-', '_', '/',
 * '(' and ')'), so that the topology's "Tesla V100-SXM2-32GB" is a "v100"
 * and not a "v10".  O(length).
 */
int hsim_model_matches(const char *have, const char *want);

/* The GPU of node n to give a share of milli thousandths to: the fullest
   that still has milli free, so whole GPUs stay whole; -1 when none has.
   O(GPUs of the node). */
int32_t hsim_cluster_share_gpu(const hsim_cluster_t *c, int32_t n, int32_t milli);
/* Does node n have room for this per-node share (whole GPUs, or one GPU's
   share when gpu_milli < 1000)?  O(GPUs of the node) for shares, else O(1). */
int hsim_node_fits(const hsim_cluster_t *c, int32_t n, int32_t cores, int64_t mem,
                   int32_t gpus, int32_t gpu_milli, int32_t fpgas);
/* Does part p fit the free room of its node exactly as it names it (a
   share on the very GPU it names)?  O(1). */
int hsim_part_fits(const hsim_cluster_t *c, const hsim_part_t *p);
/* Speed of a job of class cls (gpu_job: a GPU job) on allocation a: that
   of its slowest part (see hsim_cluster_speed()); HUGE_VAL when a is
   empty.  O(parts). */
double hsim_cluster_alloc_speed(const hsim_cluster_t *c, int32_t cls, int gpu_job,
                                const hsim_alloc_t *a);
/* Does node type t list partition number partition?  O(its list). */
int hsim_type_serves(const hsim_node_type_t *t, int32_t partition);
/* Does node type t offer what the request needs (GPU model, FPGAs, its
   partition)? */
int hsim_type_accepts(const hsim_cluster_t *c, size_t t, const hsim_request_t *r);
/* First node of type t, index >= from (a global node index), that fits the
   per-node share; -1 if none.  O(log nodes of t) plus misses in the tree. */
int32_t hsim_cluster_first_fit(const hsim_cluster_t *c, size_t t, int32_t from,
                               int32_t cores, int64_t mem, int32_t gpus,
                               int32_t gpu_milli, int32_t fpgas);
/* Head of the bucket of nodes of type t with exactly v free cores (by_gpus:
   free GPUs); follow hsim_node_t.cnext (gnext).  -1 when empty. */
int32_t hsim_cluster_bucket(const hsim_cluster_t *c, size_t t, int by_gpus, int32_t v);

/* Takes / gives back what a has on each node; now keeps busy times.  The
   caller (the engine) checked that it fits. */
void hsim_cluster_take(hsim_cluster_t *c, const hsim_alloc_t *a, hsim_time_t now);
void hsim_cluster_give(hsim_cluster_t *c, const hsim_alloc_t *a, hsim_time_t now);
/* Makes node i of dst, a cluster built from the same types, what it is in
   src: free resources, GPU shares, job count and busy time (a planner's
   scratch copy catching up with the ledger).  O(log nodes + the node's
   GPUs). */
void hsim_cluster_copy_node(hsim_cluster_t *dst, const hsim_cluster_t *src, int32_t i);
/* The same for n nodes at once: O(n + log nodes) for nodes side by side. */
void hsim_cluster_copy_nodes(hsim_cluster_t *dst, const hsim_cluster_t *src,
                             const int32_t *nodes, size_t n);
/* Takes what part p holds from its node, never below nothing: a planner's
   scratch copy books reservations that may add up past the node over a
   window.  A share of a GPU is booked as its whole GPU.  Changes no job
   count or busy time.  O(log nodes + the node's GPUs). */
void hsim_cluster_hold(hsim_cluster_t *c, const hsim_part_t *p);
/* hsim_cluster_hold() for every part of a, the trees set once. */
void hsim_cluster_hold_all(hsim_cluster_t *c, const hsim_alloc_t *a);
/* Takes a's parts in turn while each fits its node exactly as it names it
   (hsim_part_fits()): 0 when all did, else HSIM_NOFIT with the parts
   before the first that did not taken. */
int hsim_cluster_take_exact(hsim_cluster_t *c, const hsim_alloc_t *a, hsim_time_t now);
/* Busy time of node n up to now. */
hsim_time_t hsim_node_busy(const hsim_node_t *n, hsim_time_t now);

/* Keeps (on = 1, the default) or drops the min- and max-trees of the
   nodes' job counts, which only a placement that reads them needs (see
   hsim_placement_t.reads_job_counts): without them a job's start and end
   set one tree per resource the node has, not three or more.  Turning
   them on rebuilds them: O(nodes). */
void hsim_cluster_job_trees(hsim_cluster_t *c, int on);
/* Speed of a job of class cls on node type t (see hsim_speeds_t); 0 when
   the class cannot run there. */
double hsim_cluster_speed(const hsim_cluster_t *c, int32_t cls, size_t t, int gpu_job);
/* Sets the speeds table to n_classes rows, all 0 = "use the default".
   0 or HSIM_ENOMEM. */
int hsim_cluster_speeds_init(hsim_cluster_t *c, size_t n_classes);

/* Appends a part to a.  0 or HSIM_ENOMEM. */
int hsim_alloc_add(hsim_alloc_t *a, const hsim_part_t *p);
void hsim_alloc_free(hsim_alloc_t *a);

#endif
