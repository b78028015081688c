/*
 * lstm.c - the 'lstm' model kind (trained.h): the paper's LSTM over each
 * user's recent jobs (lstm_net.h), on the sequence features.h makes: the
 * user's last HSIM_SEQ_STEPS - 1 finished jobs, then the job asked about.
 * It learns what to add to a baseline read off the same sequence (the
 * gbdt model's baseline feature, which the sequence carries in the last
 * step's runtime), so its targets are centred near 0.
 */
#include "lstm_net.h"
#include "trained.h"

#include <math.h>

#define LSTM_HIDDEN 16
#define LSTM_EPOCHS 4
#define LSTM_WELSCH 0.35 /* the loss's scale, as gbdt's (log runtime) */

/* The baseline of a sequence x (HSIM_SEQ_STEPS x HSIM_SEQ_IN). */
static double baseline(const double *x)
{
    return x[(HSIM_SEQ_STEPS - 1) * HSIM_SEQ_IN + 1];
}

static int lstm_train(const double *X, const double *y, size_t n, double under_weight,
                      uint64_t seed, void **model, hsim_err_t *e)
{
    *model = NULL;
    if (n == 0)
        return hsim_errf(e, HSIM_EINPUT, "lstm: no sample to train on");
    const size_t dim = HSIM_SEQ_STEPS * HSIM_SEQ_IN;
    double *r = hsim_malloc(n * sizeof *r);
    if (!r)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < n; i++)
        r[i] = y[i] - baseline(X + i * dim);
    hsim_lstm_options_t o = {.n_in = HSIM_SEQ_IN, .hidden = LSTM_HIDDEN,
                             .steps = HSIM_SEQ_STEPS, .seed = seed};
    hsim_lstm_train_options_t t = {.epochs = LSTM_EPOCHS, .batch = 64, .learning_rate = 3e-3,
                                   .under_weight = under_weight, .clip = 1.0, .seed = seed};
    hsim_lstm_t *m = NULL;
    int rc = hsim_lstm_create(&o, &m);
    if (rc == 0) {
        hsim_lstm_set_welsch(m, LSTM_WELSCH);
        rc = hsim_lstm_train(m, X, r, n, &t, NULL);
    }
    hsim_free(r);
    if (rc) {
        hsim_lstm_free(m);
        return rc == HSIM_EINPUT ? hsim_errf(e, HSIM_EINPUT, "lstm: cannot train") : rc;
    }
    *model = m;
    return 0;
}

static double lstm_eval(void *model, const double *x)
{
    return baseline(x) + hsim_lstm_predict(model, x);
}

static void lstm_free(void *model) { hsim_lstm_free(model); }

static int lstm_save(const void *model, const char *path, hsim_err_t *e)
{
    return hsim_lstm_save(model, path, e);
}

static int lstm_load(const char *path, void **model, hsim_err_t *e)
{
    hsim_lstm_t *m = NULL;
    int rc = hsim_lstm_load(path, &m, e);
    if (rc)
        return rc;
    hsim_lstm_options_t o = hsim_lstm_options(m);
    if (o.n_in != HSIM_SEQ_IN || o.steps != HSIM_SEQ_STEPS) {
        hsim_lstm_free(m);
        return hsim_errf(e, HSIM_EINPUT, "%s: an LSTM of %zu steps of %zu inputs: expected %d "
                         "of %d (a model of another hsim version?)", path, o.steps, o.n_in,
                         HSIM_SEQ_STEPS, HSIM_SEQ_IN);
    }
    *model = m;
    return 0;
}

const hsim_model_kind_t hsim_model_lstm = {
    .name = "lstm",
    .inputs = HSIM_SEQ_STEPS * HSIM_SEQ_IN,
    .input = hsim_history_sequence,
    .train = lstm_train,
    .eval = lstm_eval,
    .free = lstm_free,
    .save = lstm_save,
    .load = lstm_load,
};
