/*
 * shard.h - a shard's manifest and hsim merge.
 *
 * hsim --shard i/n runs every n-th (experiment, seed, policy) triple
 * (runs.h) and writes each experiment's share under
 * <output>/shard-i-of-n/<name>/: the files of its own policies as a whole
 * run writes them, and HSIM_SHARD_FILE, the manifest: which triples it
 * ran, and for each what it added to the experiment's files (its
 * summary.csv row, its classes.csv and workflows.csv rows, its bars of
 * summary.png as exact numbers).  hsim merge OUT SHARD_DIR... joins the
 * shards of each experiment into OUT/<name>/, byte for byte what one run
 * would have written: the policies' folders and the per-seed files
 * (rejected.csv, cluster.csv) copied, the rest put together from the
 * manifests in file order.
 *
 * The manifest is text: a line of words per record, each text it holds
 * (a row, a header) after its line, its length in bytes given on it.
 */
#ifndef HSIM_SHARD_H
#define HSIM_SHARD_H

#include "experiment.h"
#include "report.h"

#define HSIM_SHARD_FILE "shard.txt"

/* Opens r on path and writes the manifest's preamble for c (its name,
   seed, repeat and policies) as shard i of n.  0 or HSIM_EIO. */
int hsim_shard_begin(hsim_report_t *r, const char *path, const hsim_config_t *c, int i, int n,
                     hsim_err_t *e);
/* A unit (seed s) of the experiment: summary.csv's header, whether the
   machine is a cluster (with GPUs), whether it writes workflows.csv. */
void hsim_shard_unit(FILE *f, size_t s, const char *header, int cluster, int gpus,
                     int workflows);
/* Policy k under seed s, written. */
void hsim_shard_record(FILE *f, size_t s, size_t k, const hsim_unit_record_t *rec);

/* hsim merge OUT SHARD_DIR...: the exit status (0, 1 a write failed, 2
   bad usage or shards that do not make one whole run). */
int hsim_merge_main(int argc, char **argv);

#endif
