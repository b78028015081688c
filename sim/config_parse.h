/*
 * config_parse.h - internal to the INI reader (config.c, config_check.c):
 * the state of one parse and what the two files share.  Not part of
 * hsim's API: the hsim__ prefix marks them.
 */
#ifndef HSIM_CONFIG_PARSE_H
#define HSIM_CONFIG_PARSE_H

#include "config.h"

/* The keys of [experiment], [workload] and [cluster], by index: a key's bit
   in its section's seen mask is 1u << index, and a [workload] or [cluster]
   key's line is wl_lines[index] or cl_lines[index] (those of [policy] and
   [nodes] are in config.h). */
enum { EXP_NAME, EXP_OUTPUT, EXP_SEED, EXP_REPEAT };
enum {
    WL_FORMAT, /* workload_key() reads these four */
    WL_PATH,
    WL_CLEAN,
    WL_MAX_JOBS,
    WL_THROUGHPUTS, /* workload_more() reads the others */
    WL_SKIP_BAD_ROWS,
    WL_JOBS,
    WL_LOAD,
    WL_USERS,
    WL_ESTIMATE_FACTOR,
    WL_SCIENTIFIC, /* the three mix shares, in the order of share[] */
    WL_DL,
    WL_BIGDATA,
    WL_GPU_SHARE,
    WL_GPUS_PER_JOB,
    WL_FPGA_SHARE,
    WL_CLASS_BY,
    WL_MAX_JOB_CORES,
    WL_DEPENDENCIES, /* dependencies and workflows (workloads/deps.h) */
    WL_DEPENDENCIES_FROM_SWF,
    WL_WORKFLOW,
    WL_WORKFLOW_WIDTH,
    WL_WORKFLOW_DEPTH,
    WL_SWF_EXTRA,
    WL_KEYS
};
enum { CL_PROCESSORS, CL_ALIBABA_NODES, CL_KEYS };

/* The [workload] keys' names, by WL_* (config.c). */
extern const char *const hsim__wl_keys[WL_KEYS];
#define KEY_BIT(k) (1u << (k))

typedef struct parse {
    hsim_config_t *c;
    hsim_err_t *e;
    int rc;                    /* first error */
    int err_line;              /* its line */
    int line;                  /* line being parsed */
    const char *text;          /* the input, read up to here */
    hsim_policy_config_t *policy; /* current [policy X], or NULL */
    hsim_nodes_config_t *nodes;   /* current [nodes X], or NULL */
    hsim_class_config_t *cls;     /* current [class X], or NULL */
    hsim_failures_config_t *fails; /* current [failures X], or NULL */
    char section[128];         /* current section header text */
    unsigned seen_exp, seen_wl, seen_cl, seen_out; /* keys given, per section */
    int wl_line;               /* line of [workload], 0 if none */
    int wl_lines[WL_KEYS];     /* line of [workload] key k, 0 if not given */
    int cl_lines[CL_KEYS];     /* line of [cluster] key k, 0 if not given */
    int repeat_line;           /* line of [experiment] repeat, 0 if not given */
} parse_t;

/* Records an error at line, unless one at an earlier or the same line is
   recorded already; returns 0 (for on_key()). */
int hsim__fail_at(parse_t *p, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same at the line being parsed. */
int hsim__fail(parse_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* config_check.c: what the whole file says, once it is read.  Each 0 or
   the first error (HSIM_EINPUT), at the line to blame. */
/* Keys given that nothing reads (a format's, a policy's, a node type's),
   and plug-ins that do not go together. */
int hsim__not_read(parse_t *p);
/* [failures] against the policies that name them. */
int hsim__failures_check(parse_t *p);
/* The preemption keys against the scheduler. */
int hsim__preempt_check(parse_t *p);
/* repeat against what draws from the seed (generated: the workload is a
   generator's). */
int hsim__repeat_check(parse_t *p, int generated);

#endif
