/*
 * topology.h - the shape of one compute node (cores, memory, GPUs, FPGAs),
 * read through hwloc from a synthetic description or an XML export.
 *
 * hsim never inspects the machine it runs on: a node type in an experiment
 * names a topology, `synthetic:<hwloc synthetic description>` or
 * `xml:<file>` (an `lstopo --of xml` export, possibly edited), and this
 * module reduces it to the few numbers the cluster model and the placement
 * policies use.  The hwloc topology lives only for the duration of one call.
 */
#ifndef HSIM_TOPOLOGY_H
#define HSIM_TOPOLOGY_H

#include "common.h"

#define HSIM_GPU_MODEL_MAX 64     /* bytes of gpu_model, terminator included */
#define HSIM_SHAPE_DESC_MAX 192   /* bytes of desc, terminator included */

/*
 * One node as hsim sees it.  Counts come from hwloc's objects; GPUs and
 * FPGAs are counted once per physical card (see topology.c for the rules).
 */
typedef struct hsim_node_shape {
    int cores;              /* physical cores, >= 1 (PUs when there is no Core level) */
    int pus;                /* hardware threads (hwloc PUs), >= cores */
    int numa;               /* NUMA nodes, >= 1 */
    int packages;           /* processor packages (sockets), >= 1 */
    int64_t memory_mb;      /* total memory of the NUMA nodes, MiB, >= 0; 0 = unknown */
    int gpus;               /* GPU cards, >= 0 */
    char gpu_model[HSIM_GPU_MODEL_MAX]; /* model of the first GPU, "" if none or unknown */
    int64_t gpu_memory_mb;  /* memory of the first GPU, MiB, >= 0; 0 = unknown */
    int fpgas;              /* FPGA cards, >= 0 */
    char fpga_model[HSIM_GPU_MODEL_MAX]; /* model of the first FPGA card: its PCI
                               device name without "(... function)", else its
                               OS device's model; "" if none or unknown */
    char desc[HSIM_SHAPE_DESC_MAX]; /* one-line summary for messages, from hsim_node_shape_describe() */
} hsim_node_shape_t;

/*
 * Reads the topology named by spec into *out.
 *   spec      "synthetic:<description>", read by hwloc_topology_set_synthetic()
 *             (e.g. "synthetic:pack:2 numa:1(memory=128GiB) core:16 pu:2"), or
 *             "xml:<file>", read by hwloc_topology_set_xml() with every I/O
 *             object kept; a relative file is taken relative to base_dir.
 *   base_dir  folder of the file that named spec (usually the INI file's);
 *             NULL or "" means the current directory.
 *   where     "file:line" of the key that named spec; it starts every message.
 * Returns 0, HSIM_EINPUT (unknown prefix, bad synthetic string or one of
 * more than 4,096 processing units (hwloc would take seconds), missing,
 * unreadable or malformed XML, a topology without PUs: e->msg says what was
 * expected and what was found, with hwloc's errno text when it gave one) or
 * HSIM_ENOMEM.  On error *out is zeroed.  The caller owns out and e; nothing
 * stays allocated after the call.  Cost: one hwloc load (an XML parse, about
 * a millisecond for the shipped files) plus O(P^2) in the number P of PCI
 * functions to group functions into cards.
 */
int hsim_topology_load(const char *spec, const char *base_dir, const char *where,
                       hsim_node_shape_t *out, hsim_err_t *e);
/* The file an "xml:<file>" spec reads, resolved as hsim_topology_load()
   does, into out (size bytes, cut to fit); "" for any other spec.  0 or
   HSIM_ENOMEM. */
int hsim_topology_file(const char *spec, const char *base_dir, char *out, size_t size);

/*
 * Writes a one-line summary of s into buf (size bytes, always terminated) and
 * returns buf, e.g. "32 cores/64 PUs, 2 packages, 2 NUMA, 384 GiB, 4 GPUs
 * (Tesla V100-SXM2-32GB, 32 GiB)".  hsim_topology_load() stores it in
 * s->desc; call it again after changing a shape by hand.  O(1).
 */
char *hsim_node_shape_describe(const hsim_node_shape_t *s, char *buf, size_t size);

#endif
