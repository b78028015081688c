/*
 * spec.h - the cluster of an experiment, resolved against its workload:
 * node types from the [nodes] sections, and the speed of each job class on
 * each node type from the [class] sections and, for Gavel traces, from the
 * measured throughput table.
 */
#ifndef HSIM_SPEC_H
#define HSIM_SPEC_H

#include "config.h"

#include "../workloads/gpu_traces.h"

typedef struct hsim_spec {
    hsim_node_type_t types[HSIM_MAX_NODE_TYPES];
    double *class_speed;        /* [classes x types], owned */
    hsim_cluster_spec_t spec;   /* points into the above */
} hsim_spec_t;

/* Builds s for c and w (classes of w).  0, HSIM_EINPUT (a [class] that
   names no job class, a speed for an unknown node type or model: e says
   where) or HSIM_ENOMEM.  Free with hsim_spec_free. */
int hsim_spec_build(const hsim_config_t *c, const hsim_workload_t *w, hsim_spec_t *s,
                    hsim_err_t *e);
void hsim_spec_free(hsim_spec_t *s);

/* Reads c's Alibaba node list ([cluster] alibaba_nodes) into *nodes (the
   caller frees it with hsim_free()): a file that cannot be read is bad
   input, named with the INI.  0, HSIM_EINPUT or HSIM_ENOMEM. */
int hsim_spec_read_node_list(const hsim_config_t *c, hsim_alibaba_node_t **nodes, size_t *n,
                             hsim_err_t *e);
/* A listed node's cores, as its node type gets them: milli-cores rounded
   down, at least 1. */
int32_t hsim_spec_node_cores(const hsim_alibaba_node_t *a);

/* Moves every job that no node type could ever hold (on the empty
   cluster, by first-fit) from w->jobs to w->rejected, with the reason;
   w->rejected stays in input order.  0 or HSIM_ENOMEM.  O(jobs x log
   nodes + rejected x log rejected). */
int hsim_spec_reject_impossible(const hsim_spec_t *s, hsim_workload_t *w);

#endif
