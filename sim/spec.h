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
    hsim_cluster_spec_t spec;   /* points into the above: an hsim_spec_t is
                                   not moved or copied once built */
} hsim_spec_t;

/* Builds s for c and w (classes of w).  0, HSIM_EINPUT (a [class] that
   names no job class, a speed for an unknown node type or model: e says
   where) or HSIM_ENOMEM.  Free with hsim_spec_free. */
int hsim_spec_build(const hsim_config_t *c, const hsim_workload_t *w, hsim_spec_t *s,
                    hsim_err_t *e);
void hsim_spec_free(hsim_spec_t *s);

/* c's node types, the first part of hsim_spec_build(): the [nodes]
   sections, then one type per shape of the Alibaba node list ([cluster]
   alibaba_nodes), into types[] (HSIM_MAX_NODE_TYPES entries); *nt gets how
   many.  0, HSIM_EINPUT (the node list: e says why, named with the INI) or
   HSIM_ENOMEM. */
int hsim_spec_types(const hsim_config_t *c, hsim_node_type_t *types, size_t *nt,
                    hsim_err_t *e);

/* Moves every job that no node type could ever hold (on the empty
   cluster, by first-fit) from w->jobs to w->rejected, with the reason;
   w->rejected stays in input order.  0 or HSIM_ENOMEM, after which w's
   jobs are partly moved and w is fit only for hsim_workload_free().
   O(jobs x log nodes + rejected x log rejected). */
int hsim_spec_reject_impossible(const hsim_spec_t *s, hsim_workload_t *w);

#endif
