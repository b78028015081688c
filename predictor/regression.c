/*
 * regression.c - the 'regression' model: least squares of the log runtime
 * on the numeric features of features.h (the request, the size, the clock,
 * the user's recent runtimes and their ratios to the requests, the user's
 * running and finished jobs), standardised, with a small ridge term, by
 * GSL's weighted least squares.
 *
 * With under_weight w > 1 the fit weighs the error of an answer below its
 * target w times (an asymmetric, E-loss-like cost, after Gaussier et al.,
 * SC'15, where an under-estimate costs a backfilled job its place): the
 * weights are found by iterating the fit (each answer below its target
 * gets weight w), a few times.
 */
#include "trained.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The features it reads (ids are no numbers to fit on). */
static const int used[] = {0, 1, 2, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21};
#define P (sizeof used / sizeof used[0] + 2) /* and a constant, and "has history" */
#define IRLS_ROUNDS 4
/* The largest mean, spread or coefficient a model file may hold, and the
   inverse of the smallest spread but 0: a standardised column is then
   below 2e200 in size for features below 1e100, a term below 2e300, and
   the answer finite (a spread of 1e-300 or a coefficient of 1e300 made
   it infinite).  Trained values are far inside. */
#define MAX_VALUE 1e100

typedef struct regression {
    double mean[P], sd[P];      /* of each column, for standardising */
    double coef[P];
} regression_t;

/* The model's columns for features x: standardised, constant first. */
static void columns(const regression_t *m, const double *x, double *c)
{
    c[0] = 1;
    for (size_t k = 0; k + 2 < P; k++)
        c[k + 1] = x[used[k]];
    c[P - 1] = x[11] >= 0; /* the user has history */
    for (size_t k = 1; k < P; k++)
        c[k] = m->sd[k] > 0 ? (c[k] - m->mean[k]) / m->sd[k] : 0;
}

static double reg_eval(void *model, const double *x)
{
    const regression_t *m = model;
    double c[P], y = 0;
    columns(m, x, c);
    for (size_t k = 0; k < P; k++)
        y += m->coef[k] * c[k];
    return y;
}

static int reg_train(const double *X, const double *y, size_t n, double under_weight,
                     uint64_t seed, void **model, hsim_err_t *e)
{
    (void)seed;
    *model = NULL;
    if (n < P)
        return hsim_errf(e, HSIM_EINPUT, "regression: %zu samples, expected at least %zu", n,
                         (size_t)P);
    regression_t *m = hsim_calloc(1, sizeof *m);
    if (!m)
        return HSIM_ENOMEM;
    /* the columns' means and spreads, for standardising */
    double c[P];
    for (size_t i = 0; i < n; i++) {
        const double *x = X + i * HSIM_FEATURES;
        for (size_t k = 0; k + 2 < P; k++)
            m->mean[k + 1] += x[used[k]];
        m->mean[P - 1] += x[11] >= 0;
    }
    for (size_t k = 1; k < P; k++)
        m->mean[k] /= (double)n;
    for (size_t i = 0; i < n; i++) {
        const double *x = X + i * HSIM_FEATURES;
        for (size_t k = 0; k + 2 < P; k++) {
            double d = x[used[k]] - m->mean[k + 1];
            m->sd[k + 1] += d * d;
        }
        double d = (x[11] >= 0) - m->mean[P - 1];
        m->sd[P - 1] += d * d;
    }
    for (size_t k = 1; k < P; k++)
        m->sd[k] = sqrt(m->sd[k] / (double)n);
    /* a ridge term as P extra rows: sqrt(lambda) on each non-constant column */
    size_t rows = n + P - 1;
    gsl_matrix *A = gsl_matrix_alloc(rows, P);
    gsl_vector *b = gsl_vector_alloc(rows), *w = gsl_vector_alloc(rows), *beta = gsl_vector_alloc(P);
    gsl_matrix *cov = gsl_matrix_alloc(P, P);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(rows, P);
    int rc = 0;
    if (!A || !b || !w || !beta || !cov || !ws)
        rc = HSIM_ENOMEM;
    if (rc == 0) {
        for (size_t i = 0; i < n; i++) {
            columns(m, X + i * HSIM_FEATURES, c);
            for (size_t k = 0; k < P; k++)
                gsl_matrix_set(A, i, k, c[k]);
            gsl_vector_set(b, i, y[i]);
            gsl_vector_set(w, i, 1);
        }
        const double ridge = sqrt(1e-3 * (double)n);
        for (size_t k = 1; k < P; k++) {
            for (size_t j = 0; j < P; j++)
                gsl_matrix_set(A, n + k - 1, j, j == k ? ridge : 0);
            gsl_vector_set(b, n + k - 1, 0);
            gsl_vector_set(w, n + k - 1, 1);
        }
        gsl_error_handler_t *was = gsl_set_error_handler_off();
        int rounds = under_weight > 1 ? IRLS_ROUNDS : 1;
        for (int r = 0; r < rounds && rc == 0; r++) {
            double chisq;
            if (gsl_multifit_wlinear(A, w, b, beta, cov, &chisq, ws))
                rc = hsim_errf(e, HSIM_ERUN, "regression: the least-squares fit failed");
            for (size_t i = 0; rc == 0 && i < n; i++) { /* the next round's weights */
                double fit = 0;
                for (size_t k = 0; k < P; k++)
                    fit += gsl_matrix_get(A, i, k) * gsl_vector_get(beta, k);
                gsl_vector_set(w, i, fit < y[i] ? under_weight : 1);
            }
        }
        gsl_set_error_handler(was);
        for (size_t k = 0; rc == 0 && k < P; k++)
            m->coef[k] = gsl_vector_get(beta, k);
    }
    gsl_multifit_linear_free(ws);
    gsl_matrix_free(cov);
    gsl_vector_free(beta);
    gsl_vector_free(w);
    gsl_vector_free(b);
    gsl_matrix_free(A);
    if (rc)
        hsim_free(m);
    else
        *model = m;
    return rc;
}

static void reg_free(void *model) { hsim_free(model); }

static int reg_save(const void *model, const char *path, hsim_err_t *e)
{
    const regression_t *m = model;
    FILE *f = fopen(path, "w");
    if (!f)
        return hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path, strerror(errno));
    fprintf(f, "hsim-regression %d\ncolumns %zu\n", HSIM_MODEL_VERSION, (size_t)P);
    for (size_t k = 0; k < P; k++)
        fprintf(f, "%.17g %.17g %.17g\n", m->mean[k], m->sd[k], m->coef[k]);
    int bad = ferror(f);
    if (fclose(f) || bad)
        return hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path, strerror(errno));
    return 0;
}

static int reg_load(const char *path, void **model, hsim_err_t *e)
{
    *model = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return hsim_errf(e, HSIM_EIO, "%s: cannot open: %s", path, strerror(errno));
    regression_t *m = hsim_calloc(1, sizeof *m);
    size_t cols = 0;
    int rc = 0;
    if (!m)
        rc = HSIM_ENOMEM;
    else if (hsim_model_header(f, path, "hsim-regression", "regression", e))
        rc = HSIM_EINPUT; /* e says why */
    else if (fscanf(f, "columns %zu ", &cols) != 1 || cols != P)
        rc = hsim_errf(e, HSIM_EINPUT, "%s:2: expected 'columns %zu'", path, (size_t)P);
    for (size_t k = 0; rc == 0 && k < P; k++)
        if (fscanf(f, "%lf %lf %lf", &m->mean[k], &m->sd[k], &m->coef[k]) != 3 ||
            !(fabs(m->mean[k]) <= MAX_VALUE) || !(fabs(m->coef[k]) <= MAX_VALUE) ||
            !(m->sd[k] == 0 || (m->sd[k] >= 1 / MAX_VALUE && m->sd[k] <= MAX_VALUE)))
            rc = hsim_errf(e, HSIM_EINPUT, "%s:%zu: expected three numbers: a mean and a "
                           "coefficient from -%g to %g, a spread of 0 or from %g to %g", path,
                           k + 3, MAX_VALUE, MAX_VALUE, 1 / MAX_VALUE, MAX_VALUE);
    fclose(f);
    if (rc)
        hsim_free(m);
    else
        *model = m;
    return rc;
}

const hsim_model_kind_t hsim_model_regression = {
    .name = "regression",
    .inputs = HSIM_FEATURES,
    .input = hsim_history_features,
    .train = reg_train,
    .eval = reg_eval,
    .free = reg_free,
    .save = reg_save,
    .load = reg_load,
};
