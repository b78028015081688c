/*
 * test_lstm.c - the LSTM's numerical core (predictor/lstm_net.c): its
 * gradient against central finite differences for every parameter, the
 * minibatch path against the one-sample one, learning a known function of
 * the sequence, the asymmetric loss, determinism, the saved file and its
 * checks, and allocation failures.  A last test prints what a prediction
 * and a training epoch cost (HSIM_LSTM_BENCH=1 for the full measure).
 */
#include "harness.h"

#include "predictor/lstm_net.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static hsim_lstm_t *model(size_t n_in, size_t hidden, size_t steps, uint64_t seed)
{
    hsim_lstm_options_t o = {.n_in = n_in, .hidden = hidden, .steps = steps, .seed = seed};
    hsim_lstm_t *m = NULL;
    CU_ASSERT_EQUAL_FATAL(hsim_lstm_create(&o, &m), 0);
    return m;
}

static void fill_uniform(gsl_rng *rng, double *a, size_t n, double lo, double hi)
{
    for (size_t k = 0; k < n; k++)
        a[k] = lo + (hi - lo) * gsl_rng_uniform(rng);
}

/* A task: n sequences of steps x n_in uniform in [-1, 1], with targets
   2 * (last step's feature 0) + (first step's feature 0), plus Gaussian
   noise of standard deviation sd.  The caller frees *X and *y. */
static void make_task(unsigned long seed, size_t n, size_t n_in, size_t steps, double sd,
                      double **X, double **y)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    *X = malloc(n * steps * n_in * sizeof **X);
    *y = malloc(n * sizeof **y);
    fill_uniform(rng, *X, n * steps * n_in, -1, 1);
    for (size_t i = 0; i < n; i++) {
        const double *x = *X + i * steps * n_in;
        (*y)[i] = 2 * x[(steps - 1) * n_in] + x[0] + (sd > 0 ? gsl_ran_gaussian(rng, sd) : 0);
    }
    gsl_rng_free(rng);
}

/* The mean squared error of m on n samples. */
static double mse(hsim_lstm_t *m, const double *X, const double *y, size_t n, size_t len)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        double err = hsim_lstm_predict(m, X + i * len) - y[i];
        sum += err * err;
    }
    return sum / (double)n;
}

static void test_create_checks_sizes(void)
{
    hsim_lstm_t *m = NULL;
    hsim_lstm_options_t bad[] = {
        {.n_in = 0, .hidden = 4, .steps = 3},
        {.n_in = 3, .hidden = 0, .steps = 3},
        {.n_in = 3, .hidden = 4, .steps = 0},
        {.n_in = HSIM_LSTM_MAX_SIZE + 1, .hidden = 4, .steps = 3},
        {.n_in = 3, .hidden = 4, .steps = (size_t)1 << 40},
        {.n_in = 3, .hidden = SIZE_MAX, .steps = 3},
        {.n_in = 4096, .hidden = 4096, .steps = 1}, /* 2^27 parameters */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        CU_ASSERT_EQUAL(hsim_lstm_create(&bad[k], &m), HSIM_EINPUT);
    CU_ASSERT_PTR_NULL(m);

    m = model(3, 4, 3, 1);
    size_t n;
    const double *p = hsim_lstm_params(m, &n);
    CU_ASSERT_EQUAL(n, 4 * 4 * (3 + 4 + 1) + 4 + 1);
    hsim_lstm_options_t o = hsim_lstm_options(m);
    CU_ASSERT_TRUE(o.n_in == 3 && o.hidden == 4 && o.steps == 3 && o.seed == 1);
    /* Glorot's bounds; biases 0 but the forget gate's, 1 */
    double gate = sqrt(6.0 / 11), out = sqrt(6.0 / 5);
    int in_bounds = 1;
    for (size_t k = 0; k < 16 * 7; k++)
        in_bounds &= fabs(p[k]) <= gate && p[k] != 0;
    for (size_t k = 0; k < 16; k++)
        in_bounds &= p[16 * 7 + k] == (k >= 4 && k < 8 ? 1.0 : 0.0);
    for (size_t k = 0; k < 4; k++)
        in_bounds &= fabs(p[16 * 8 + k]) <= out && p[16 * 8 + k] != 0;
    in_bounds &= p[n - 1] == 0;
    CU_ASSERT_TRUE(in_bounds);

    /* the seed: the same gives the same bytes, another others */
    hsim_lstm_t *same = model(3, 4, 3, 1), *other = model(3, 4, 3, 2);
    CU_ASSERT_EQUAL(memcmp(p, hsim_lstm_params(same, NULL), n * sizeof *p), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(p, hsim_lstm_params(other, NULL), n * sizeof *p), 0);
    hsim_lstm_free(m);
    hsim_lstm_free(same);
    hsim_lstm_free(other);
    hsim_lstm_free(NULL);
}

/* The worst disagreement between the analytic gradient of one sample and
   central differences; *bad gets the parameters out of tolerance. */
static double check_gradient(hsim_lstm_t *m, const double *x, double y, double w, int *bad)
{
    size_t n;
    double *p = hsim_lstm_params(m, &n);
    double *grad = malloc(n * sizeof *grad), *scratch = malloc(n * sizeof *scratch);
    hsim_lstm_loss_grad(m, x, y, w, grad);
    double worst = 0;
    const double eps = 1e-6;
    for (size_t k = 0; k < n; k++) {
        double keep = p[k];
        p[k] = keep + eps;
        double up = hsim_lstm_loss_grad(m, x, y, w, scratch);
        p[k] = keep - eps;
        double down = hsim_lstm_loss_grad(m, x, y, w, scratch);
        p[k] = keep;
        double num = (up - down) / (2 * eps), diff = fabs(num - grad[k]);
        double rel = diff / fmax(fabs(num), fabs(grad[k]));
        if (diff > 1e-8 && rel > 1e-5) {
            if (*bad < 5)
                fprintf(stderr, "\nparameter %zu: analytic %.10g, numerical %.10g\n", k,
                        grad[k], num);
            (*bad)++;
        }
        if (diff > 1e-8 && rel > worst)
            worst = rel;
    }
    free(grad);
    free(scratch);
    return worst;
}

/*
 * Every parameter's derivative, for plain and asymmetric losses, with the
 * prediction under the target and over it (a margin of 1 keeps the finite
 * differences on one side of the kink).  The weights are pulled away from
 * their initial values so that no gate sits where its derivative is
 * special.
 */
static void test_gradient_matches_finite_differences(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    hsim_lstm_t *m = model(3, 4, 3, 5);
    size_t n;
    double *p = hsim_lstm_params(m, &n);
    for (size_t k = 0; k < n; k++)
        p[k] += gsl_rng_uniform(rng) - 0.5;
    double x[9], *g1 = malloc(n * sizeof *g1), *g3 = malloc(n * sizeof *g3);
    int bad = 0, checked = 0;
    double worst = 0;
    for (int sample = 0; sample < 3; sample++) {
        fill_uniform(rng, x, 9, -2, 2);
        double pred = hsim_lstm_predict(m, x);
        for (int side = -1; side <= 1; side += 2) {
            double y = pred - side; /* side -1: under the target */
            for (int w = 1; w <= 3; w += 2) {
                worst = fmax(worst, check_gradient(m, x, y, w, &bad));
                checked++;
            }
            /* an under-estimate costs 3 times as much, and so its gradient */
            double l1 = hsim_lstm_loss_grad(m, x, y, 1, g1);
            double l3 = hsim_lstm_loss_grad(m, x, y, 3, g3);
            CU_ASSERT_DOUBLE_EQUAL(l1, 1, 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(l3, side < 0 ? 3 : 1, 1e-9);
            int scaled = 1;
            for (size_t k = 0; k < n; k++)
                scaled &= fabs(g3[k] - (side < 0 ? 3 : 1) * g1[k]) <= 1e-12 * (1 + fabs(g3[k]));
            CU_ASSERT_TRUE(scaled);
        }
    }
    CU_ASSERT_EQUAL(checked, 12);
    CU_ASSERT_EQUAL(bad, 0);
    if (bad)
        fprintf(stderr, "\n%d parameter(s) out of tolerance, worst relative error %g\n", bad,
                worst);
    free(g1);
    free(g3);
    hsim_lstm_free(m);
    gsl_rng_free(rng);
}

/* Welsch's loss: its gradient matches central differences too, on errors
   inside and far outside its scale, and its loss is s^2 (1 - exp(-e^2 /
   2 s^2)) of the error e. */
static void test_welsch_gradient(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 12);
    hsim_lstm_t *m = model(3, 4, 3, 6);
    hsim_lstm_set_welsch(m, 0.35);
    size_t n;
    double *p = hsim_lstm_params(m, &n);
    for (size_t k = 0; k < n; k++)
        p[k] += gsl_rng_uniform(rng) - 0.5;
    double x[9], *g = malloc(n * sizeof *g);
    int bad = 0;
    double worst = 0;
    const double errors[] = {-0.2, 0.1, 0.5, -1.5};
    for (int sample = 0; sample < 2; sample++) {
        fill_uniform(rng, x, 9, -2, 2);
        double pred = hsim_lstm_predict(m, x);
        for (size_t i = 0; i < sizeof errors / sizeof *errors; i++) {
            double y = pred - errors[i];
            worst = fmax(worst, check_gradient(m, x, y, 2, &bad));
            double e = errors[i], k = e < 0 ? 2 : 1;
            CU_ASSERT_DOUBLE_EQUAL(hsim_lstm_loss_grad(m, x, y, 2, g),
                                   k * 0.35 * 0.35 * (1 - exp(-e * e / (2 * 0.35 * 0.35))), 1e-9);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    if (bad)
        fprintf(stderr, "\n%d parameter(s) out of tolerance, worst relative error %g\n", bad,
                worst);
    free(g);
    hsim_lstm_free(m);
    gsl_rng_free(rng);
}

/* The minibatch path (several samples per matrix product, in chunks of
   256) against the mean of the one-sample losses and gradients. */
static void test_batch_matches_single(void)
{
    const size_t n_in = 3, steps = 4, len = n_in * steps;
    double *X, *y;
    make_task(3, 300, n_in, steps, 0.5, &X, &y);
    hsim_lstm_t *m = model(n_in, 5, steps, 9);
    size_t n;
    hsim_lstm_params(m, &n);
    double *gb = malloc(n * sizeof *gb), *g1 = malloc(n * sizeof *g1);
    double *sum = calloc(n, sizeof *sum);
    const size_t counts[] = {1, 7, 300};
    for (size_t c = 0; c < 3; c++) {
        size_t count = counts[c];
        double loss = -1, want = 0;
        CU_ASSERT_EQUAL(hsim_lstm_batch_loss_grad(m, X, y, count, 2.5, gb, &loss), 0);
        memset(sum, 0, n * sizeof *sum);
        for (size_t i = 0; i < count; i++) {
            want += hsim_lstm_loss_grad(m, X + i * len, y[i], 2.5, g1);
            for (size_t k = 0; k < n; k++)
                sum[k] += g1[k];
        }
        want /= (double)count;
        CU_ASSERT_DOUBLE_EQUAL(loss, want, 1e-12 * want);
        int same = 1;
        for (size_t k = 0; k < n; k++)
            same &= fabs(gb[k] - sum[k] / (double)count) <= 1e-12 * (1e-3 + fabs(gb[k]));
        CU_ASSERT_TRUE(same);
    }
    double loss = -1;
    CU_ASSERT_EQUAL(hsim_lstm_batch_loss_grad(m, X, y, 0, 1, gb, &loss), 0);
    CU_ASSERT_EQUAL(loss, 0);
    free(gb);
    free(g1);
    free(sum);
    free(X);
    free(y);
    hsim_lstm_free(m);
}

/*
 * y = 2 * (last step's feature 0) + (first step's): the model must carry
 * the first step through the sequence.  Training takes the loss down at
 * least 10 times, and the held-out samples' root mean squared error is
 * under 0.1 (the targets' standard deviation is 1.29).
 */
static void test_learns_a_function_of_the_sequence(void)
{
    const size_t n_in = 3, steps = 4, len = n_in * steps, n = 512, held = 256;
    double *X, *y, *Xt, *yt;
    make_task(21, n, n_in, steps, 0, &X, &y);
    make_task(22, held, n_in, steps, 0, &Xt, &yt);
    hsim_lstm_t *m = model(n_in, 8, steps, 3);
    double before = mse(m, X, y, n, len);
    hsim_lstm_train_options_t o = {.epochs = 60, .batch = 16, .learning_rate = 0.01,
                                   .under_weight = 1, .clip = 5, .seed = 4};
    double loss = -1;
    CU_ASSERT_EQUAL(hsim_lstm_train(m, X, y, n, &o, &loss), 0);
    double after = mse(m, X, y, n, len), test = mse(m, Xt, yt, held, len);
    printf("\n  learning: training MSE %.4f -> %.5f (last epoch %.5f), held-out RMSE %.4f\n",
           before, after, loss, sqrt(test));
    CU_ASSERT_TRUE(after * 10 <= before);
    CU_ASSERT_TRUE(loss * 10 <= before);
    CU_ASSERT_TRUE(sqrt(test) < 0.1);
    free(X);
    free(y);
    free(Xt);
    free(yt);
    hsim_lstm_free(m);
}

/* The fraction of held-out samples that m predicts under their target. */
static double under_fraction(hsim_lstm_t *m, const double *X, const double *y, size_t n,
                             size_t len)
{
    size_t under = 0;
    for (size_t i = 0; i < n; i++)
        under += hsim_lstm_predict(m, X + i * len) < y[i];
    return (double)under / (double)n;
}

/*
 * A noisy target (noise of standard deviation 0.5): plain MSE learns the
 * mean, under about half the time; weighting under-estimates 5 times
 * moves the predictions up (to the 5/6 expectile, 0.64 standard
 * deviations above the mean for Gaussian noise: under 26% of the time).
 * Asked: at least 10 points fewer under-estimates than with weight 1.
 */
static void test_under_weight_raises_predictions(void)
{
    const size_t n_in = 2, steps = 3, len = n_in * steps, n = 1024, held = 1024;
    double *X, *y, *Xt, *yt;
    make_task(31, n, n_in, steps, 0.5, &X, &y);
    make_task(32, held, n_in, steps, 0.5, &Xt, &yt);
    double frac[2];
    const double weights[2] = {1, 5};
    for (int k = 0; k < 2; k++) {
        hsim_lstm_t *m = model(n_in, 6, steps, 8);
        hsim_lstm_train_options_t o = {.epochs = 25, .batch = 32, .learning_rate = 0.01,
                                       .under_weight = weights[k], .seed = 9};
        CU_ASSERT_EQUAL(hsim_lstm_train(m, X, y, n, &o, NULL), 0);
        frac[k] = under_fraction(m, Xt, yt, held, len);
        hsim_lstm_free(m);
    }
    printf("\n  asymmetric loss: under-estimates %.1f%% (weight 1), %.1f%% (weight 5)\n",
           100 * frac[0], 100 * frac[1]);
    CU_ASSERT_TRUE(frac[0] > 0.35 && frac[0] < 0.65);
    CU_ASSERT_TRUE(frac[1] < frac[0] - 0.1);
    free(X);
    free(y);
    free(Xt);
    free(yt);
}

/* Same seeds, same data: the same bytes; another shuffling seed: others. */
static void test_training_is_deterministic(void)
{
    const size_t n_in = 3, steps = 3, n = 100;
    double *X, *y;
    make_task(41, n, n_in, steps, 0.3, &X, &y);
    hsim_lstm_train_options_t o = {.epochs = 3, .batch = 8, .learning_rate = 0.01,
                                   .under_weight = 2, .clip = 1, .seed = 77};
    hsim_lstm_t *a = model(n_in, 5, steps, 12), *b = model(n_in, 5, steps, 12);
    hsim_lstm_t *c = model(n_in, 5, steps, 12);
    double la, lb, lc;
    CU_ASSERT_EQUAL(hsim_lstm_train(a, X, y, n, &o, &la), 0);
    CU_ASSERT_EQUAL(hsim_lstm_train(b, X, y, n, &o, &lb), 0);
    o.seed = 78;
    CU_ASSERT_EQUAL(hsim_lstm_train(c, X, y, n, &o, &lc), 0);
    size_t np;
    const double *pa = hsim_lstm_params(a, &np);
    CU_ASSERT_EQUAL(memcmp(pa, hsim_lstm_params(b, NULL), np * sizeof *pa), 0);
    CU_ASSERT_EQUAL(memcmp(&la, &lb, sizeof la), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(pa, hsim_lstm_params(c, NULL), np * sizeof *pa), 0);
    free(X);
    free(y);
    hsim_lstm_free(a);
    hsim_lstm_free(b);
    hsim_lstm_free(c);
}

/* Options out of range change nothing; no samples change nothing. */
static void test_train_checks_options(void)
{
    hsim_lstm_t *m = model(2, 3, 2, 1);
    size_t np;
    const double *p = hsim_lstm_params(m, &np);
    double *keep = malloc(np * sizeof *keep);
    memcpy(keep, p, np * sizeof *keep);
    double X[4] = {1, 2, 3, 4}, y = 1, loss = -1;
    const hsim_lstm_train_options_t good = {.epochs = 1, .batch = 1, .learning_rate = 0.1,
                                            .under_weight = 1};
    hsim_lstm_train_options_t bad[6];
    for (int k = 0; k < 6; k++)
        bad[k] = good;
    bad[0].epochs = 0;
    bad[1].batch = 0;
    bad[2].learning_rate = 0;
    bad[3].learning_rate = NAN;
    bad[4].under_weight = 0.5;
    bad[5].clip = -1;
    for (int k = 0; k < 6; k++)
        CU_ASSERT_EQUAL(hsim_lstm_train(m, X, &y, 1, &bad[k], &loss), HSIM_EINPUT);
    CU_ASSERT_EQUAL(hsim_lstm_train(m, X, &y, 0, &good, &loss), 0);
    CU_ASSERT_EQUAL(loss, 0);
    CU_ASSERT_EQUAL(memcmp(p, keep, np * sizeof *keep), 0);
    CU_ASSERT_EQUAL(hsim_lstm_train(m, X, &y, 1, &good, &loss), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(p, keep, np * sizeof *keep), 0);
    free(keep);
    hsim_lstm_free(m);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char *buf = malloc(1 << 16);
    *len = fread(buf, 1, (1 << 16) - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

static void write_bytes(const char *path, const char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(bytes, 1, len, f);
    fclose(f);
}

/* Loads path, which must be refused with HSIM_EINPUT and a message that
   starts with prefix and holds needle; 1 when so. */
static int refused(const char *path, const char *prefix, const char *needle)
{
    hsim_lstm_t *m = NULL;
    hsim_err_t e = {{0}};
    int rc = hsim_lstm_load(path, &m, &e);
    if (rc != HSIM_EINPUT || m) {
        fprintf(stderr, "\nloaded with %d: '%s'\n", rc, e.msg);
        hsim_lstm_free(m);
        return 0;
    }
    return hsim_test_message_ok(e.msg, prefix, needle, NULL, NULL);
}

/* Replaces the first 'from' of text with 'to' and writes it to path. */
static void write_edited(const char *path, const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    char *out = malloc(strlen(text) + strlen(to) + 1);
    size_t head = (size_t)(at - text);
    memcpy(out, text, head);
    strcpy(out + head, to);
    strcat(out, at + strlen(from));
    write_bytes(path, out, strlen(out));
    free(out);
}

static void test_save_load_round_trip(void)
{
    char *dir = hsim_test_tmpdir("lstm");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char path[600], bad[600], prefix[620];
    snprintf(path, sizeof path, "%s/model.txt", dir);
    snprintf(bad, sizeof bad, "%s/bad.txt", dir);
    hsim_lstm_t *m = model(3, 4, 3, 5), *back = NULL;
    double X[40 * 9], y[40];
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 2);
    fill_uniform(rng, X, 40 * 9, -1, 1);
    fill_uniform(rng, y, 40, -1, 1);
    gsl_rng_free(rng);
    hsim_lstm_train_options_t o = {.epochs = 2, .batch = 4, .learning_rate = 0.05,
                                   .under_weight = 1, .seed = 1};
    CU_ASSERT_EQUAL(hsim_lstm_train(m, X, y, 40, &o, NULL), 0);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_lstm_save(m, path, &e), 0);
    CU_ASSERT_EQUAL_FATAL(hsim_lstm_load(path, &back, &e), 0);
    size_t n;
    const double *p = hsim_lstm_params(m, &n);
    CU_ASSERT_EQUAL(memcmp(p, hsim_lstm_params(back, NULL), n * sizeof *p), 0);
    hsim_lstm_options_t ob = hsim_lstm_options(back);
    CU_ASSERT_TRUE(ob.n_in == 3 && ob.hidden == 4 && ob.steps == 3);
    int same = 1;
    for (int i = 0; i < 40; i++)
        same &= hsim_lstm_predict(m, X + 9 * i) == hsim_lstm_predict(back, X + 9 * i);
    CU_ASSERT_TRUE(same);
    hsim_lstm_free(back);

    /* a cut anywhere but before the last newline is refused: every cut
       in the sizes and the last lines, every 29th byte in between (a file
       written takes a millisecond on the shared machine) */
    size_t len;
    char *text = read_all(path, &len);
    CU_ASSERT_TRUE(len > 1000 && strncmp(text, "hsim-lstm 2\nn_in 3\nhidden 4\n", 28) == 0);
    snprintf(prefix, sizeof prefix, "%s:", bad);
    int cuts_refused = 1;
    for (size_t cut = 0; cut + 1 < len; cut += cut < 80 || cut + 60 > len ? 1 : 29) {
        write_bytes(bad, text, cut);
        cuts_refused &= refused(bad, prefix, "expected");
    }
    CU_ASSERT_TRUE(cuts_refused);
    write_bytes(bad, text, len / 2);
    CU_ASSERT_TRUE(refused(bad, prefix, "truncated"));
    write_bytes(bad, text, len - 1); /* "end" without its newline */
    CU_ASSERT_EQUAL(hsim_lstm_load(bad, &back, &e), 0);
    hsim_lstm_free(back);

    /* wrong sizes, and other damage */
    write_edited(bad, text, "hidden 4", "hidden 5");
    CU_ASSERT_TRUE(refused(bad, prefix, "expected 'params 186'"));
    write_edited(bad, text, "params 133", "params 132");
    CU_ASSERT_TRUE(refused(bad, prefix, "expected 'params 133'"));
    write_edited(bad, text, "n_in 3", "n_in 0");
    CU_ASSERT_TRUE(refused(bad, prefix, "found 'n_in 0'"));
    write_edited(bad, text, "steps 3", "steps 3x");
    CU_ASSERT_TRUE(refused(bad, prefix, "found 'steps 3x'"));
    write_edited(bad, text, "n_in 3", "n_in 100000");
    CU_ASSERT_TRUE(refused(bad, prefix, "from 1 to 65536"));
    write_edited(bad, text, "hsim-lstm 2", "hsim-lstm 3");
    CU_ASSERT_TRUE(refused(bad, prefix, "version 2"));
    write_edited(bad, text, "hsim-lstm 2", "PNG");
    CU_ASSERT_TRUE(refused(bad, prefix, "header"));
    write_edited(bad, text, "\nend\n", "\n1\nend\n");
    CU_ASSERT_TRUE(refused(bad, prefix, "'end' after the 133 parameters"));
    write_edited(bad, text, "\nend\n", "\nend\n\n0.5\n");
    CU_ASSERT_TRUE(refused(bad, prefix, "nothing after 'end'"));
    snprintf(prefix, sizeof prefix, "%s:7:", bad);
    write_edited(bad, text, "\nparams 133\n", "\nparams 133\n0\nnan\n");
    CU_ASSERT_TRUE(refused(bad, prefix, "parameter 2 of 133"));
    write_edited(bad, text, "\nparams 133\n", "\nparams 133\n0\n1e999\n");
    CU_ASSERT_TRUE(refused(bad, prefix, "found '1e999'"));
    write_edited(bad, text, "\nparams 133\n", "\nparams 133\n0\n0x1p3\n");
    CU_ASSERT_TRUE(refused(bad, prefix, "a finite number"));
    /* finite, but large enough to make an answer infinite
       (tests/fuzz/regress/model/lstm-huge-weights.txt) */
    write_edited(bad, text, "\nparams 133\n", "\nparams 133\n0\n1e101\n");
    CU_ASSERT_TRUE(refused(bad, prefix, "at most 1e+100 in size"));
    /* sizes of 64 million parameters in a file of a few: refused before
       the model (and its scratch space) is allocated
       (tests/fuzz/regress/model/lstm-80-bytes-for-15-GB.txt) */
    write_edited(bad, "hsim-lstm 2\nn_in 3\nhidden 4000\nsteps 3\nparams 64068001\n0\nend\n",
                 "steps 3", "steps 65536");
    snprintf(prefix, sizeof prefix, "%s:6:", bad);
    CU_ASSERT_TRUE(refused(bad, prefix, "(a truncated file?)"));

    /* files that cannot be read or written */
    int rc = hsim_lstm_load(dir, &back, &e); /* a folder opens, but cannot be read */
    CU_ASSERT_TRUE(rc == HSIM_EIO || rc == HSIM_EINPUT);
    snprintf(bad, sizeof bad, "%s/none.txt", dir);
    CU_ASSERT_EQUAL(hsim_lstm_load(bad, &back, &e), HSIM_EIO);
    CU_ASSERT_TRUE(hsim_test_message_ok(e.msg, bad, "cannot open", NULL, NULL));
    snprintf(bad, sizeof bad, "%s/no/such/dir.txt", dir);
    CU_ASSERT_EQUAL(hsim_lstm_save(m, bad, &e), HSIM_EIO);
    hsim_lstm_params(m, NULL)[7] = NAN;
    snprintf(bad, sizeof bad, "%s/nan.txt", dir);
    CU_ASSERT_EQUAL(hsim_lstm_save(m, bad, &e), HSIM_EINPUT);
    CU_ASSERT_TRUE(hsim_test_message_ok(e.msg, bad, "parameter 8 of 133", NULL, NULL));
    CU_ASSERT_PTR_NULL(fopen(bad, "r"));
    hsim_lstm_params(m, NULL)[7] = 1e101; /* the loader would refuse it */
    CU_ASSERT_EQUAL(hsim_lstm_save(m, bad, &e), HSIM_EINPUT);
    CU_ASSERT_PTR_NULL(fopen(bad, "r"));
    CU_ASSERT_EQUAL(hsim_part_pending(), 0);

    free(text);
    hsim_lstm_free(m);
    snprintf(bad, sizeof bad, "%s/bad.txt", dir);
    remove(bad);
    remove(path);
    remove(dir);
    free(dir);
}

/* Each allocation in turn fails: an error, nothing leaked, the model as
   it was; then the run that succeeds matches one never interrupted. */
static void test_allocation_failures(void)
{
    const hsim_lstm_options_t mo = {.n_in = 2, .hidden = 3, .steps = 2, .seed = 6};
    long live = hsim_alloc_live();
    int failures = 0;
    hsim_lstm_t *m = NULL;
    for (long k = 1; k < 100; k++) {
        hsim_alloc_fail_after(k);
        int rc = hsim_lstm_create(&mo, &m);
        hsim_alloc_fail_after(0);
        if (rc == 0)
            break;
        CU_ASSERT_EQUAL(rc, HSIM_ENOMEM);
        CU_ASSERT_EQUAL(hsim_alloc_live(), live);
        failures++;
    }
    CU_ASSERT_EQUAL(failures, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);

    double X[20 * 4], y[20];
    for (int i = 0; i < 80; i++)
        X[i] = sin(i);
    for (int i = 0; i < 20; i++)
        y[i] = cos(i);
    hsim_lstm_train_options_t o = {.epochs = 2, .batch = 6, .learning_rate = 0.01,
                                   .under_weight = 2, .seed = 3};
    size_t np;
    double *p = hsim_lstm_params(m, &np);
    double *keep = malloc(np * sizeof *keep);
    memcpy(keep, p, np * sizeof *keep);
    live = hsim_alloc_live();
    failures = 0;
    for (long k = 1; k < 100; k++) {
        double loss = 7;
        hsim_alloc_fail_after(k);
        int rc = hsim_lstm_train(m, X, y, 20, &o, &loss);
        hsim_alloc_fail_after(0);
        if (rc == 0)
            break;
        CU_ASSERT_EQUAL(rc, HSIM_ENOMEM);
        CU_ASSERT_EQUAL(loss, 7);
        CU_ASSERT_EQUAL(memcmp(p, keep, np * sizeof *keep), 0);
        CU_ASSERT_EQUAL(hsim_alloc_live(), live);
        failures++;
    }
    CU_ASSERT_EQUAL(failures, 2);
    hsim_lstm_t *fresh = NULL;
    CU_ASSERT_EQUAL_FATAL(hsim_lstm_create(&mo, &fresh), 0);
    CU_ASSERT_EQUAL(hsim_lstm_train(fresh, X, y, 20, &o, NULL), 0);
    CU_ASSERT_EQUAL(memcmp(p, hsim_lstm_params(fresh, NULL), np * sizeof *p), 0);

    double *grad = malloc(np * sizeof *grad), loss = 7;
    hsim_alloc_fail_after(1);
    CU_ASSERT_EQUAL(hsim_lstm_batch_loss_grad(m, X, y, 20, 1, grad, &loss), HSIM_ENOMEM);
    hsim_alloc_fail_after(0);
    CU_ASSERT_EQUAL(loss, 7);

    /* a load that runs out of memory */
    char *dir = hsim_test_tmpdir("lstm-nomem");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char path[600];
    snprintf(path, sizeof path, "%s/m.txt", dir);
    hsim_err_t e;
    CU_ASSERT_EQUAL(hsim_lstm_save(m, path, &e), 0);
    live = hsim_alloc_live();
    for (long k = 1; k <= 2; k++) {
        hsim_lstm_t *back = NULL;
        hsim_alloc_fail_after(k);
        CU_ASSERT_EQUAL(hsim_lstm_load(path, &back, &e), HSIM_ENOMEM);
        hsim_alloc_fail_after(0);
        CU_ASSERT_PTR_NULL(back);
        CU_ASSERT_EQUAL(hsim_alloc_live(), live);
    }
    remove(path);
    remove(dir);
    free(dir);
    free(grad);
    free(keep);
    hsim_lstm_free(m);
    hsim_lstm_free(fresh);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/*
 * Prints (asserts nothing about) the cost of a prediction and the training
 * throughput at the predictor's size: hidden 16, steps 6, n_in 12.  A
 * short measure by default; HSIM_LSTM_BENCH=1 for 100,000 predictions and
 * 3 epochs of 4,096 samples.
 */
static void test_benchmark_prints_costs(void)
{
    int full = getenv("HSIM_LSTM_BENCH") != NULL;
    const size_t n_in = 12, steps = 6, len = n_in * steps;
    size_t predictions = full ? 100000 : 2000, n = full ? 4096 : 256, epochs = full ? 3 : 1;
    double *X, *y;
    make_task(51, n, n_in, steps, 0.1, &X, &y);
    hsim_lstm_t *m = model(n_in, 16, steps, 1);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double sink = 0;
    for (size_t i = 0; i < predictions; i++)
        sink += hsim_lstm_predict(m, X + (i % n) * len);
    double predict_s = seconds_since(&t0);
    hsim_lstm_train_options_t o = {.epochs = epochs, .batch = 32, .learning_rate = 0.001,
                                   .under_weight = 2, .clip = 1, .seed = 1};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CU_ASSERT_EQUAL(hsim_lstm_train(m, X, y, n, &o, NULL), 0);
    double train_s = seconds_since(&t0);
    printf("\n  cost (hidden 16, steps 6, n_in 12): %.2f us a prediction (%zu), "
           "%.0f samples/s training (batch 32, %zu epoch(s) of %zu)%s\n",
           1e6 * predict_s / (double)predictions, predictions,
           (double)(n * epochs) / train_s, epochs, n, isfinite(sink) ? "" : " (not finite)");
    free(X);
    free(y);
    hsim_lstm_free(m);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("lstm");
    HSIM_TEST(s, test_create_checks_sizes);
    HSIM_TEST(s, test_gradient_matches_finite_differences);
    HSIM_TEST(s, test_welsch_gradient);
    HSIM_TEST(s, test_batch_matches_single);
    HSIM_TEST(s, test_learns_a_function_of_the_sequence);
    HSIM_TEST(s, test_under_weight_raises_predictions);
    HSIM_TEST(s, test_training_is_deterministic);
    HSIM_TEST(s, test_train_checks_options);
    HSIM_TEST(s, test_save_load_round_trip);
    HSIM_TEST(s, test_allocation_failures);
    HSIM_TEST(s, test_benchmark_prints_costs);
}
