/*
 * metrics.h - the figures of one run: wait, turnaround, bounded slowdown,
 * utilization, makespan, throughput and fairness.  Definitions (τ = 10 s):
 * wait = start - submit; turnaround = end - submit; run = end - start;
 * bsld = max(1, turnaround / max(run, τ)); utilization = sum(run x procs) /
 * (capacity x (last end - first submit)); throughput = jobs per hour over
 * the same span; fairness = Jain's index over users' average bsld.
 */
#ifndef HSIM_METRICS_H
#define HSIM_METRICS_H

#include "engine.h"

#define HSIM_BSLD_TAU_S 10.0

/* A distribution, in seconds (bsld: a ratio). */
typedef struct hsim_dist {
    double avg;      /* arithmetic mean */
    double median;   /* 50th percentile (linear interpolation, GSL) */
    double p95;      /* 95th percentile (linear interpolation, GSL) */
    double max;      /* largest */
} hsim_dist_t;

typedef struct hsim_summary {
    size_t jobs;            /* jobs that ran (killed ones included) */
    size_t killed;          /* jobs killed at their requested time */
    hsim_dist_t wait;       /* seconds */
    hsim_dist_t turnaround; /* seconds */
    hsim_dist_t bsld;       /* ratio >= 1 */
    double utilization;     /* 0..1 */
    double makespan;        /* seconds: last end - first submit */
    double throughput;      /* jobs per hour over the makespan */
    double fairness;        /* Jain's index over users' average bsld, 0..1 */
} hsim_summary_t;

/* Figures of a run on a cluster of nodes. */
typedef struct hsim_cluster_metrics {
    double util_cores;      /* core-seconds used / (cores x makespan), 0..1 */
    double util_mem;        /* MiB-seconds used / (memory x makespan), 0..1 */
    double util_fpgas;      /* FPGA-seconds used / (FPGAs x makespan) */
    double util_all_gpus;   /* GPU-seconds used / (GPUs x makespan), all
                               GPUs, those of no named model included */
    double util_gpus[HSIM_MAX_GPU_MODELS]; /* per GPU model of the cluster, likewise */
    double load_imbalance;  /* coefficient of variation (population) of the
                               nodes' busy time: 0 = perfectly even */
} hsim_cluster_metrics_t;

/* From a run's stats on cluster c (its totals) over makespan seconds; every
   figure NaN when makespan is not > 0 (no job ran). */
void hsim_cluster_metrics_compute(const hsim_run_stats_t *st, const hsim_cluster_t *c,
                                  double makespan, hsim_cluster_metrics_t *m);

/* Bounded slowdown of one job (τ = 10 s). */
double hsim_bsld(hsim_time_t submit, hsim_time_t start, hsim_time_t end);

/* Sorts key[0..n) into increasing order, and val[0..n) with it when val is
   not NULL; tk and tv have room for n each (tv when val is not NULL).  An
   LSD radix sort, 11 bits a pass, so stable: equal keys keep their order,
   as in a merge sort; a pass whose digit all keys share is skipped.  O(n).
   0 or HSIM_ENOMEM. */
int hsim_radix_sort(uint64_t *key, double *val, size_t n, uint64_t *tk, double *tv);

/* Computes s from the outcomes of a run of w on capacity processors; when
   no job ran, every figure but the counts is NaN (none is defined).  0 or
   HSIM_ENOMEM.  O(n). */
int hsim_metrics_compute(const hsim_workload_t *w, const hsim_outcome_t *out,
                         int32_t capacity, hsim_summary_t *s);
/* The same for a run whose stops cut runs short (the run's attempts,
   hsim_run_stats_t's): the utilization counts those runs too, the time
   the machine was held; the rest reads each job's last run. */
int hsim_metrics_compute_runs(const hsim_workload_t *w, const hsim_outcome_t *out,
                              const hsim_attempt_t *attempts, size_t n_attempts,
                              int32_t capacity, hsim_summary_t *s);

#endif
