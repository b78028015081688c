/*
 * trained.h - the models behind the trained predictors (regression, gbdt,
 * lstm), as the replay's predictors and hsim train / predict-eval use
 * them: each turns a job and its user's history into an input vector,
 * trains on vectors and targets (log runtimes), answers, and is saved to
 * and loaded from a file.
 */
#ifndef HSIM_TRAINED_H
#define HSIM_TRAINED_H

#include "features.h"

#include <stdio.h>

typedef struct hsim_model_kind {
    const char *name;            /* "regression", "gbdt", "lstm" */
    size_t inputs;               /* doubles per input vector */
    /* The input vector of job j given history h, into x[inputs]. */
    void (*input)(const hsim_history_t *h, const hsim_job_t *j, double *x);
    /* Trains a model on n vectors X (row-major) and targets y (log(1 +
       runtime in s)); under_weight >= 1 weighs the error of an answer
       below its target that much more.  0, HSIM_EINPUT, HSIM_ENOMEM or
       HSIM_ERUN (e says why). */
    int (*train)(const double *X, const double *y, size_t n, double under_weight,
                 uint64_t seed, void **model, hsim_err_t *e);
    double (*eval)(void *model, const double *x);
    void (*free)(void *model);
    int (*save)(const void *model, const char *path, hsim_err_t *e);
    int (*load)(const char *path, void **model, hsim_err_t *e);
} hsim_model_kind_t;

/* The version of every model file's format, its first line's number
   after the format's name: 2 since feature 22 (the baseline) changed
   meaning, so that a model of version 1, which learnt corrections to
   another baseline, is refused.  What a message about another version
   adds: */
#define HSIM_MODEL_VERSION 2
#define HSIM_MODEL_VERSION_HINT                                                                \
    "a model another version of hsim wrote, for features that have changed since; train it " \
    "again (hsim train)"

/* Reads a model file's first line, "NAME HSIM_MODEL_VERSION" (path in
   messages; model, the --model of hsim train that writes it).  0 or
   HSIM_EINPUT. */
int hsim_model_header(FILE *f, const char *path, const char *name, const char *model,
                      hsim_err_t *e);

/* The kinds, NULL-terminated; by name (NULL when unknown). */
extern const hsim_model_kind_t *const hsim_model_kinds[];
const hsim_model_kind_t *hsim_model_kind_find(const char *name);

/* Samples a trained predictor learns from during a replay: the last this
   many finished jobs. */
#define HSIM_TRAIN_WINDOW 20000

#endif
