/*
 * describe.h - hsim describe FILE.ini: what a run of the experiment would
 * see, printed without running it: the jobs loaded and rejected (by
 * reason), those cleaning rewrote, the submission span, the users, the job
 * classes and the GPU models the jobs name (with the node types' models
 * that serve each), the cluster's node types as resolved, the offered load
 * and the policies.  The names an INI's [class] sections and speed keys
 * must use are there to copy.
 */
#ifndef HSIM_DESCRIBE_H
#define HSIM_DESCRIBE_H

#include "config.h"

#include <stdio.h>

/* Loads c's workload and cluster and writes the description to f.  0, or
   the loader's HSIM_EINPUT / HSIM_EIO / HSIM_ENOMEM (e says why). */
int hsim_describe(const hsim_config_t *c, FILE *f, hsim_err_t *e);

#endif
