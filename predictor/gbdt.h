/*
 * gbdt.h - gradient-boosted regression trees: trained by XGBoost's C
 * library, evaluated here.
 *
 * XGBoost builds the trees (reg:squarederror on the features of
 * features.h, histogram method); the model is then read out of XGBoost
 * into flat arrays and evaluated by a plain tree walk, which costs far
 * less per job than a call into XGBoost would, and is the same on every
 * machine.  A model is saved in hsim's own text format ("hsim-gbdt 2"),
 * which hsim train writes and estimate.model reads.
 */
#ifndef HSIM_GBDT_H
#define HSIM_GBDT_H

#include "../sim/common.h"

typedef struct hsim_gbdt hsim_gbdt_t;

typedef struct hsim_gbdt_params {
    int rounds;             /* trees, >= 1 */
    int max_depth;          /* >= 1 */
    double eta;             /* learning rate, (0, 1] */
    double subsample;       /* rows per tree, (0, 1] */
    uint64_t seed;
    int threads;            /* XGBoost's nthread, >= 1 (1: the same model
                               on every machine) */
    double robust;          /* 0: squared error; s > 0: Welsch's loss
                               s^2 (1 - exp(-d^2 / 2 s^2)), which stops
                               counting errors far beyond s: the trees
                               then aim at the most likely value, not the
                               mean (what an accuracy min(p, a)/max(p, a)
                               rewards); the answers start from 0 */
    double under_weight;    /* with robust: an answer below its target
                               weighs this much more (>= 1; 0 is 1) */
} hsim_gbdt_params_t;

/* The defaults: 120 trees of depth 6, eta 0.1, subsample 0.8, 1 thread,
   squared error. */
hsim_gbdt_params_t hsim_gbdt_defaults(void);

/* Trains on n rows of nf features (X row-major) and targets y.  0,
   HSIM_EINPUT (n == 0), HSIM_ENOMEM, or HSIM_ERUN when XGBoost fails (e
   gets its message). */
int hsim_gbdt_train(const double *X, const double *y, size_t n, size_t nf,
                    const hsim_gbdt_params_t *p, hsim_gbdt_t **out, hsim_err_t *e);
void hsim_gbdt_free(hsim_gbdt_t *m);

/* The model's answer for x (nf features).  O(trees x depth). */
double hsim_gbdt_eval(const hsim_gbdt_t *m, const double *x);
/* Features the model was trained on. */
size_t hsim_gbdt_features(const hsim_gbdt_t *m);

/* 0, or HSIM_EIO / HSIM_EINPUT (e names the file, and the line for a
   malformed one) / HSIM_ENOMEM. */
int hsim_gbdt_save(const hsim_gbdt_t *m, const char *path, hsim_err_t *e);
int hsim_gbdt_load(const char *path, hsim_gbdt_t **out, hsim_err_t *e);

#endif
