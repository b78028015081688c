/*
 * repeat.h - an experiment run under several seeds ([experiment] repeat =
 * R): the mean of each figure over the seeds and the half-width of its 95%
 * confidence interval (Student's t with R - 1 degrees of freedom), from
 * the seeds' summary.csv rows as printed, so that anyone can recompute
 * them from the seed-S/summary.csv files.
 */
#ifndef HSIM_REPEAT_H
#define HSIM_REPEAT_H

#include "config.h"

/* The mean of v[0..n) and the half-width of its 95% confidence interval,
   t(0.975, n - 1) s / sqrt(n) with s the sample standard deviation; NaN
   for both when a value is NaN, the half-width NaN when n < 2.  O(n). */
void hsim_repeat_mean_ci(const double *v, size_t n, double *mean, double *ci95);

/* Splits one CSV line (RFC 4180: quoted fields, their quotes doubled; no
   line break inside) into at most max fields, unquoted, in buf (size
   bytes); returns how many, or -1 when it holds more, or buf is too
   small.  O(length). */
int hsim_repeat_split(const char *line, char *buf, size_t size, char **fields, int max);

typedef struct hsim_repeat {
    const char *dir;            /* where summary.csv and summary.png go */
    const char *title;          /* the chart's title */
    const char *path;           /* the INI file, for messages */
    const char *const *names;   /* [n_policies]: the policies, in order */
    size_t n_policies;
    size_t repeats;             /* seeds, >= 2 */
    const char *header;         /* the seeds' summary.csv header line */
    char *const *rows;          /* [repeats * n_policies]: seed s's row of
                                   policy k at s * n_policies + k */
    int cluster, gpus;          /* the chart's panels, the table's columns */
} hsim_repeat_t;

/* Writes r->dir/summary.csv (header: the seeds', then repeats and a
   <column>_ci95 for each figure; a row per policy: the means, R, the
   half-widths) and r->dir/summary.png (the means), and prints the table
   of the means, each policy's followed by a line of half-widths, on
   table unless NULL.  0, HSIM_EIO or HSIM_ENOMEM; HSIM_ERUN when the
   seeds' columns differ. */
int hsim_repeat_write(const hsim_repeat_t *r, FILE *table, hsim_err_t *e);

#endif
