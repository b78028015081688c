/*
 * config.h - an experiment as its INI file describes it (format version 1).
 *
 * Parsing checks every section, key and value and reports the first mistake
 * as "file:line: ..."; names of policies, orders and predictors are looked
 * up in the registries, and an unknown one is reported with the valid ones.
 */
#ifndef HSIM_CONFIG_H
#define HSIM_CONFIG_H

#include "engine.h"
#include "failures.h"
#include "../workloads/deps.h"
#include "../workloads/swf.h"

#define HSIM_MAX_POLICIES 64
#define HSIM_NAME_MAX 64
#define HSIM_PATH_MAX 1024

/* The keys of a [policy X] section, by index: bit k of seen, lines[k]. */
enum {
    HSIM_POLICY_QUEUE,
    HSIM_POLICY_BACKFILL,
    HSIM_POLICY_ESTIMATE,
    HSIM_POLICY_BACKFILL_ORDER,
    HSIM_POLICY_PLACEMENT,
    HSIM_POLICY_SPREAD,
    HSIM_POLICY_ESTIMATE_MODEL,
    HSIM_POLICY_ESTIMATE_RETRAIN,
    HSIM_POLICY_ESTIMATE_UNDER_WEIGHT,
    HSIM_POLICY_FAILURES,     /* failures = NAME of a [failures NAME] */
    HSIM_POLICY_ON_FAILURE,
    HSIM_POLICY_RESTART_COST,
    HSIM_POLICY_PREEMPT,      /* preempt = off | requeue | suspend | checkpoint */
    HSIM_POLICY_PREEMPT_GRACE,
    HSIM_POLICY_SWITCH_COST,
    HSIM_POLICY_QUANTUM,      /* backfill = rr's slice */
    HSIM_POLICY_KEYS
};

typedef struct hsim_policy_config {
    char name[HSIM_NAME_MAX];                /* from [policy NAME] */
    int line;                                /* line of the section header */
    const hsim_order_t *order;               /* queue = ... (default fcfs) */
    const hsim_order_t *backfill_order;      /* backfill_order = ... (NULL) */
    const hsim_scheduler_t *scheduler;       /* backfill = ... (default none) */
    const hsim_predictor_t *predictor;       /* estimate = ... (default user) */
    const hsim_placement_t *placement;       /* placement = ... (default first-fit) */
    hsim_spread_t spread;                    /* spread = pack | spread (pack) */
    char estimate_model[HSIM_PATH_MAX];      /* estimate.model = FILE ("") */
    size_t estimate_retrain;                 /* estimate.retrain = N (0) */
    double estimate_under_weight;            /* estimate.under_weight = W, 1..1000 (1) */
    char failures_name[HSIM_NAME_MAX];       /* failures = NAME ("" none) */
    int failures;                            /* 1 + its index in the config's
                                                failures[]; 0 = none */
    hsim_on_failure_t on_failure;            /* on_failure = requeue |
                                                checkpoint (requeue) */
    double restart_cost_s;                   /* restart_cost, seconds (0) */
    int preempt;                             /* preempt: 0 off, else an
                                                hsim_stop_mode_t (off) */
    double preempt_grace_s;                  /* preempt_grace, seconds (60) */
    double switch_cost_s;                    /* switch_cost, seconds (0) */
    double quantum_s;                        /* quantum, seconds (600) */
    hsim_param_set_t values;                 /* <plug-in>.<parameter> = ... */
    unsigned seen;                           /* keys given: bit k = key k */
    int lines[HSIM_POLICY_KEYS];             /* line of key k, if given */
} hsim_policy_config_t;

/* The keys of a [failures NAME] section, by index. */
enum {
    HSIM_FAILURES_MTBF,
    HSIM_FAILURES_MTTR,
    HSIM_FAILURES_DISTRIBUTION,
    HSIM_FAILURES_WEIBULL_SHAPE,
    HSIM_FAILURES_TRACE,
    HSIM_FAILURES_NODES,
    HSIM_FAILURES_KEYS
};

#define HSIM_MAX_FAILURE_MODELS 16

/* A [failures NAME] section: how nodes fail (failures.h). */
typedef struct hsim_failures_config {
    char name[HSIM_NAME_MAX];
    int line;                        /* line of the section header */
    double mtbf_s, mttr_s;           /* means, seconds, > 0 */
    hsim_fail_dist_t dist;           /* distribution (exponential) */
    double shape;                    /* weibull_shape (0.7) */
    char trace[HSIM_PATH_MAX];       /* trace = FILE, resolved; "" none */
    int trace_relative;
    char nodes[HSIM_NAME_MAX];       /* nodes = TYPE that fails; "" = all */
    unsigned seen;                   /* keys given: bit k = key k */
    int lines[HSIM_FAILURES_KEYS];   /* line of key k, if given */
} hsim_failures_config_t;

/* The keys of a [nodes NAME] section, by index: bit k of seen, lines[k]. */
enum {
    HSIM_NODES_COUNT,
    HSIM_NODES_TOPOLOGY,
    HSIM_NODES_CORES,
    HSIM_NODES_MEMORY,
    HSIM_NODES_GPUS,
    HSIM_NODES_GPU_MODEL,
    HSIM_NODES_GPU_MEMORY,
    HSIM_NODES_FPGAS,
    HSIM_NODES_FPGA_MODEL,
    HSIM_NODES_SPEED,
    HSIM_NODES_PARTITION,
    HSIM_NODES_KEYS
};

/* A [nodes NAME] section: a node type. */
typedef struct hsim_nodes_config {
    hsim_node_type_t type;           /* resolved: topology, then the keys */
    char topology[HSIM_PATH_MAX];    /* the XML file of topology = xml:..., resolved;
                                        "" for none */
    int line;                        /* line of the section header */
    unsigned seen;                   /* keys given: bit k = key k */
    int lines[HSIM_NODES_KEYS];      /* line of key k, if given */
} hsim_nodes_config_t;

/* One "speed.TARGET = x" of a [class NAME] section. */
typedef struct hsim_class_speed {
    char target[HSIM_NAME_MAX];      /* a node type or a GPU model name */
    double speed;                    /* > 0, or -1 = cannot run there */
    int line;
} hsim_class_speed_t;

#define HSIM_MAX_CLASS_SPEEDS 32

/* A [class NAME] section: speeds of one job class. */
typedef struct hsim_class_config {
    char name[HSIM_NAME_MAX];
    int line;
    hsim_class_speed_t speeds[HSIM_MAX_CLASS_SPEEDS];
    size_t n_speeds;
} hsim_class_config_t;

#define HSIM_MAX_CLASS_SECTIONS 64

/* How SWF jobs on a heterogeneous cluster get a class and accelerators. */
typedef enum hsim_class_by {
    HSIM_CLASS_BY_NONE, HSIM_CLASS_BY_APP, HSIM_CLASS_BY_QUEUE, HSIM_CLASS_BY_PARTITION,
} hsim_class_by_t;

#define HSIM_MAX_REPEAT 10000

typedef struct hsim_config {
    char path[HSIM_PATH_MAX];        /* the INI file */
    char dir[HSIM_PATH_MAX];         /* its folder: relative paths start here */
    char name[HSIM_NAME_MAX];        /* [experiment] name (default: file stem) */
    char output[HSIM_PATH_MAX];      /* [experiment] output (default results,
                                        relative to the current directory) */
    uint64_t seed;                   /* [experiment] seed (default 1) */
    uint32_t repeat;                 /* [experiment] repeat: seeds seed..
                                        seed+repeat-1, 1..HSIM_MAX_REPEAT */
    unsigned charts;                 /* [output] charts: plot.h's HSIM_CHART_*
                                        bits (default all) */
    unsigned formats;                /* [output] formats: HSIM_FORMAT_* bits,
                                        at least one (default png) */
    char format[16];                 /* [workload] format: swf */
    char trace[HSIM_PATH_MAX];       /* [workload] path, resolved */
    int trace_line;                  /* where path was given, for messages */
    int trace_relative;              /* path was relative: trace starts at dir */
    hsim_clean_preset_t clean;       /* [workload] clean (default standard) */
    hsim_swf_extra_t swf_extra;      /* [workload] swf_extra (default detect) */
    uint64_t max_jobs;               /* [workload] max_jobs (0 = all) */
    char throughputs[HSIM_PATH_MAX]; /* [workload] throughputs (gavel), resolved */
    int throughputs_line;            /* where it was given... */
    int throughputs_relative;        /* ...and whether relative, for messages */
    int skip_bad_rows;               /* [workload] skip_bad_rows (GPU traces) */
    uint64_t jobs;                   /* [workload] jobs (generators, default 10000) */
    double load;                     /* [workload] load (generators, default 0.8) */
    int32_t users;                   /* [workload] users (generators, default 0) */
    double estimate_factor;          /* [workload] estimate_factor (generators, 1) */
    int32_t max_job_cores;           /* [workload] max_job_cores (mix; 0 = cluster) */
    int max_job_cores_line;          /* where it was given, for messages */
    double share[3];                 /* [workload] scientific/dl/bigdata shares (mix) */
    double gpu_share;                /* [workload] gpu_share: SWF jobs made GPU jobs */
    int32_t gpus_per_job;            /* [workload] gpus_per_job (default 1) */
    double fpga_share;               /* [workload] fpga_share: SWF jobs given an FPGA */
    hsim_class_by_t class_by;        /* [workload] class_by */
    char dependencies[HSIM_PATH_MAX]; /* [workload] dependencies: CSV of
                                        edges, resolved; "" for none */
    int dependencies_line;           /* where it was given... */
    int dependencies_relative;       /* ...and whether relative */
    int dependencies_from_swf;       /* [workload] dependencies_from_swf
                                        (default on): SWF fields 17, 18 */
    hsim_workflow_shape_t workflow;  /* [workload] workflow (generators) */
    int32_t workflow_width;          /* [workload] workflow_width (4) */
    int32_t workflow_depth;          /* [workload] workflow_depth (4) */
    int32_t processors;              /* [cluster] processors (0 = header) */
    char alibaba_nodes[HSIM_PATH_MAX]; /* [cluster] alibaba_nodes: node types
                                        from the Alibaba 2023 node list, resolved */
    int alibaba_nodes_line;          /* where it was given... */
    int alibaba_nodes_relative;      /* ...and whether relative, for messages */
    hsim_policy_config_t policies[HSIM_MAX_POLICIES];
    size_t n_policies;
    hsim_nodes_config_t nodes[HSIM_MAX_NODE_TYPES]; /* [nodes NAME], in order */
    size_t n_nodes;
    hsim_class_config_t classes[HSIM_MAX_CLASS_SECTIONS]; /* [class NAME] */
    size_t n_classes;
    hsim_failures_config_t failures[HSIM_MAX_FAILURE_MODELS]; /* [failures NAME] */
    size_t n_failures;
} hsim_config_t;

#define HSIM_INI_MAX_BYTES (4 << 20) /* an INI file's size, at most: lines
                                        hold 198 characters, and the
                                        sections are few */

/* Reads the INI file at path whole into *text, NUL-terminated, so that it
   can be parsed twice (checked before any experiment runs, then run) even
   when it is a pipe (hsim <(sed ... x.ini)).  The caller frees *text with
   hsim_free().  0; HSIM_EIO when it cannot be opened or read (a folder);
   HSIM_EINPUT for a path longer than HSIM_PATH_MAX - 1, a NUL byte (not a
   text file) or more than HSIM_INI_MAX_BYTES; HSIM_ENOMEM.  O(size). */
int hsim_config_read(const char *path, char **text, hsim_err_t *e);
/* Reads path into c: hsim_config_read(), then hsim_config_parse_string().
   0, HSIM_EIO, HSIM_EINPUT (e has file:line: what) or HSIM_ENOMEM. */
int hsim_config_load(const char *path, hsim_config_t *c, hsim_err_t *e);
/* Parses text into c; path is used for messages and relative paths. */
int hsim_config_parse_string(const char *text, const char *path, hsim_config_t *c,
                             hsim_err_t *e);

#endif
