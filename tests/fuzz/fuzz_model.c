/*
 * fuzz_model.c - libFuzzer target for the files of trained models
 * (estimate.model = FILE): hsim_gbdt_load() (predictor/gbdt.h),
 * hsim_lstm_load() (predictor/lstm_net.h), and the loaders of the model
 * kinds 'regression', 'gbdt' and 'lstm' (predictor/trained.h).
 *
 * Input layout: byte 0 picks the loader (modulo 5: 0 hsim_gbdt_load,
 * 1 hsim_lstm_load, 2 regression, 3 gbdt, 4 lstm, the last three through
 * hsim_model_kind_find(name)->load), the rest is the file.
 *
 * What must hold for every input:
 *   - the loader returns 0 or HSIM_EINPUT, never crashes, and allocates
 *     no more than the file can fill (no 2 GiB model from 60 bytes);
 *   - a model loaded answers a finite number for each of a few fixed
 *     inputs (an LSTM whose answer costs more than MAX_WORK is not asked): zeros, ones, a row of -1, a row of large values
 *     (1e9) and, for trees, a row of NaN (a missing value);
 *   - saved and loaded again, it answers the same;
 *   - hsim's live allocations are back where they were.
 */
#include "fuzz.h"

#include "predictor/gbdt.h"
#include "predictor/lstm_net.h"
#include "predictor/trained.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { GBDT, LSTM, KIND_REGRESSION, KIND_GBDT, KIND_LSTM, LOADERS };

#define INPUTS 5
/* Inputs larger than this many doubles are not evaluated (an LSTM of 65,536
   steps of 65,536 inputs would need 32 GiB of them). */
#define MAX_INPUT ((size_t)1 << 20)
/* Nor LSTMs whose answer costs more than about this many operations (4 KiB
   of parameters run over 65,536 steps: seconds under the sanitizers, slow
   but not a hang). */
#define MAX_WORK ((size_t)1 << 24)

/* Fixed input k of n doubles into a fresh array (free()). */
static double *input(size_t k, size_t n, int nan_ok)
{
    static const double value[INPUTS] = {0, 1, -1, 1e9, 0};
    double *x = malloc((n ? n : 1) * sizeof *x);
    FUZZ_CHECK(x, "out of memory");
    for (size_t i = 0; i < n; i++)
        x[i] = k == 4 ? (nan_ok ? NAN : (double)(i % 7) - 3) : value[k];
    return x;
}

static void check_gbdt(const char *path, const char *again)
{
    hsim_gbdt_t *m = NULL, *m2 = NULL;
    hsim_err_t e = {{0}};
    int rc = hsim_gbdt_load(path, &m, &e);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "rc %d: %s", rc, e.msg);
    if (rc) {
        FUZZ_CHECK(!m, "a model on error");
        return;
    }
    FUZZ_CHECK(hsim_gbdt_save(m, again, &e) == 0, "save: %s", e.msg);
    FUZZ_CHECK(hsim_gbdt_load(again, &m2, &e) == 0, "the model saved does not load: %s", e.msg);
    size_t nf = hsim_gbdt_features(m);
    for (size_t k = 0; k < INPUTS; k++) {
        double *x = input(k, nf, 1);
        double y = hsim_gbdt_eval(m, x), y2 = hsim_gbdt_eval(m2, x);
        FUZZ_CHECK(isfinite(y), "input %zu: the model answers %g", k, y);
        FUZZ_CHECK(y == y2, "input %zu: %.17g, saved and loaded %.17g", k, y, y2);
        free(x);
    }
    hsim_gbdt_free(m);
    hsim_gbdt_free(m2);
}

static void check_lstm(const char *path, const char *again)
{
    hsim_lstm_t *m = NULL, *m2 = NULL;
    hsim_err_t e = {{0}};
    int rc = hsim_lstm_load(path, &m, &e);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "rc %d: %s", rc, e.msg);
    if (rc) {
        FUZZ_CHECK(!m, "a model on error");
        return;
    }
    FUZZ_CHECK(hsim_lstm_save(m, again, &e) == 0, "save: %s", e.msg);
    FUZZ_CHECK(hsim_lstm_load(again, &m2, &e) == 0, "the model saved does not load: %s", e.msg);
    hsim_lstm_options_t o = hsim_lstm_options(m);
    size_t n = o.n_in * o.steps, params;
    hsim_lstm_params(m, &params);
    int cheap = n <= MAX_INPUT && o.steps * params <= MAX_WORK;
    for (size_t k = 0; k < INPUTS && cheap; k++) {
        double *x = input(k, n, 0);
        double y = hsim_lstm_predict(m, x), y2 = hsim_lstm_predict(m2, x);
        FUZZ_CHECK(isfinite(y), "input %zu: the model answers %g", k, y);
        FUZZ_CHECK(y == y2, "input %zu: %.17g, saved and loaded %.17g", k, y, y2);
        free(x);
    }
    hsim_lstm_free(m);
    hsim_lstm_free(m2);
}

static void check_kind(const char *name, const char *path, const char *again)
{
    const hsim_model_kind_t *kind = hsim_model_kind_find(name);
    FUZZ_CHECK(kind, "no model kind %s", name);
    void *m = NULL, *m2 = NULL;
    hsim_err_t e = {{0}};
    int rc = kind->load(path, &m, &e);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "%s: rc %d: %s", name, rc, e.msg);
    if (rc) {
        FUZZ_CHECK(!m, "%s: a model on error", name);
        return;
    }
    FUZZ_CHECK(kind->save(m, again, &e) == 0, "%s: save: %s", name, e.msg);
    FUZZ_CHECK(kind->load(again, &m2, &e) == 0, "%s: the model saved does not load: %s", name,
               e.msg);
    for (size_t k = 0; k < INPUTS; k++) {
        /* the kinds' inputs are features (features.h): finite */
        double *x = input(k, kind->inputs, 0);
        double y = kind->eval(m, x), y2 = kind->eval(m2, x);
        FUZZ_CHECK(isfinite(y), "%s: input %zu: the model answers %g", name, k, y);
        FUZZ_CHECK(y == y2, "%s: input %zu: %.17g, saved and loaded %.17g", name, k, y, y2);
        free(x);
    }
    kind->free(m);
    kind->free(m2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    long live = hsim_alloc_live();
    char path[512], again[512];
    fuzz_temp_path(path, sizeof path, "model");
    fuzz_temp_path(again, sizeof again, "model-again");
    fuzz_write_file(path, data + 1, size - 1);
    switch (data[0] % LOADERS) {
    case GBDT:
        check_gbdt(path, again);
        break;
    case LSTM:
        check_lstm(path, again);
        break;
    case KIND_REGRESSION:
        check_kind("regression", path, again);
        break;
    case KIND_GBDT:
        check_kind("gbdt", path, again);
        break;
    default:
        check_kind("lstm", path, again);
        break;
    }
    unlink(path);
    unlink(again);
    fuzz_check_no_leak(live);
    return 0;
}
