/*
 * runs.h - runs many experiments: each experiment under each of its seeds
 * ([experiment] repeat) is a unit, each unit's policies are its replays.
 * The replays run on up to -j threads, across units and experiments; the
 * units are loaded and written on the calling thread, in command-line
 * order, so the files and the table are the same for every -j.  A shard
 * (--shard i/n) runs every n-th (experiment, seed, policy) triple and
 * writes, beside its files, the manifest that hsim merge joins (shard.h).
 */
#ifndef HSIM_RUNS_H
#define HSIM_RUNS_H

#include "experiment.h"

struct hsim_progress;

typedef struct hsim_runs_options {
    int quiet;                  /* no table on stdout */
    int threads;                /* replays at once, >= 1 (0 = 1) */
    int shard, shards;          /* this run's shard, 1..shards; 0 0 = all */
    struct hsim_progress *progress; /* a progress line, NULL none */
    /* called on the calling thread for each experiment that failed,
       with its INI file and error (rc: HSIM_E*) */
    void (*failed)(void *arg, const char *file, int rc, const hsim_err_t *e);
    void *failed_arg;
} hsim_runs_options_t;

/* One experiment to run: its INI text (parsed when it runs), or its
   configuration given whole (text NULL). */
typedef struct hsim_runs_input {
    const char *file;           /* the INI file, for messages */
    const char *text;
    const hsim_config_t *config;
} hsim_runs_input_t;

/* Runs in[0..n) in order.  A run that fails does not stop the others
   (o->failed is told, and the result is 1); bad input found when a
   workload loads stops there (2), and so does a lack of memory (1).
   Returns the exit status: 0, 1 or 2. */
int hsim_runs(const hsim_runs_input_t *in, size_t n, const hsim_runs_options_t *o);

/* The triple's shard, 1..shards: the triples are numbered in order
   (experiment, seed, policy) from 0, and triple t goes to shard
   t % shards + 1. */
static inline int hsim_runs_shard_of(uint64_t triple, int shards)
{
    return (int)(triple % (uint64_t)shards) + 1;
}

#endif
