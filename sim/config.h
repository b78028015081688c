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

#define HSIM_MAX_POLICIES 64
#define HSIM_NAME_MAX 64
#define HSIM_PATH_MAX 1024

typedef struct hsim_policy_config {
    char name[HSIM_NAME_MAX];                /* from [policy NAME] */
    int line;                                /* line of the section header */
    const hsim_order_t *order;               /* queue = ... (default fcfs) */
    const hsim_order_t *backfill_order;      /* backfill_order = ... (NULL) */
    const hsim_scheduler_t *scheduler;       /* backfill = ... (default none) */
    const hsim_predictor_t *predictor;       /* estimate = ... (default user) */
    unsigned seen;                           /* keys already given (bits) */
} hsim_policy_config_t;

typedef struct hsim_config {
    char path[HSIM_PATH_MAX];        /* the INI file */
    char dir[HSIM_PATH_MAX];         /* its folder: relative paths start here */
    char name[HSIM_NAME_MAX];        /* [experiment] name (default: file stem) */
    char output[HSIM_PATH_MAX];      /* [experiment] output (default results,
                                        relative to the current directory) */
    uint64_t seed;                   /* [experiment] seed (default 1) */
    char format[16];                 /* [workload] format: swf */
    char trace[HSIM_PATH_MAX];       /* [workload] path, resolved */
    int trace_line;                  /* where path was given, for messages */
    hsim_clean_preset_t clean;       /* [workload] clean (default standard) */
    uint64_t max_jobs;               /* [workload] max_jobs (0 = all) */
    int32_t processors;              /* [cluster] processors (0 = header) */
    hsim_policy_config_t policies[HSIM_MAX_POLICIES];
    size_t n_policies;
} hsim_config_t;

/* Reads path into c.  0, HSIM_EIO or HSIM_EINPUT (e has file:line: what). */
int hsim_config_load(const char *path, hsim_config_t *c, hsim_err_t *e);
/* Same from a string; path is used for messages and relative paths. */
int hsim_config_parse_string(const char *text, const char *path, hsim_config_t *c,
                             hsim_err_t *e);

#endif
