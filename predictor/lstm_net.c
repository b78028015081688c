/*
 * lstm_net.c - a single-layer LSTM and its linear output, trained by
 * backpropagation through time and Adam (see lstm_net.h for the contract).
 *
 * One forward and one backward routine serve every caller, over a batch of
 * B samples at once: at step t the batch's inputs and previous hidden
 * states are the rows of one B x (n_in + hidden) matrix XH_t, so the four
 * gates of every sample come from a single product XH_t W^T, and the
 * backward pass's weight gradient and hidden-state gradient are products
 * too (GSL's BLAS).  A prediction is the batch of one, with the matrix-
 * vector product; training uses minibatches; the gradient check tests the
 * batch of one, and hsim_lstm_batch_loss_grad() lets a test compare the
 * minibatch path with it.
 *
 * The forward pass keeps what the backward pass needs, for every step and
 * sample: XH_t, the gates after their activation, the cell state and its
 * tanh.  That is steps * (n_in + 7 hidden) doubles per sample, small next
 * to the weights for the sizes the predictor uses (hidden 16, steps 6).
 *
 * Determinism: sums run in a fixed order (BLAS's, then over steps from the
 * last to the first), the shuffling has its own seeded stream, and nothing
 * depends on addresses or on the clock.
 */
#include "lstm_net.h"
#include "trained.h"

#include <errno.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ADAM_BETA1 0.9
#define ADAM_BETA2 0.999
#define ADAM_EPSILON 1e-8
#define CHUNK 256         /* hsim_lstm_batch_loss_grad()'s minibatch */
#define FORMAT "hsim-lstm" /* the saved file's first word, then */
#define VERSION_TEXT_(v) #v
#define VERSION_TEXT(v) VERSION_TEXT_(v)
#define FORMAT_VERSION VERSION_TEXT(HSIM_MODEL_VERSION) /* its version (trained.h) */

/* Scratch for a forward and a backward pass over up to cap samples. */
typedef struct work {
    size_t cap;     /* samples, >= 1 */
    double *xh;     /* steps blocks of cap rows of n_in + hidden: the
                       step's features, then the previous hidden state */
    double *gates;  /* steps blocks of cap rows of 4 hidden: the input,
                       forget, output and candidate gates, activated */
    double *c;      /* steps blocks of cap rows of hidden: the cell state */
    double *tc;     /* the same, of tanh(c) */
    double *hlast;  /* cap rows of hidden: the last hidden state */
    double *out;    /* cap: the predictions */
    double *dout;   /* cap: the loss's derivatives by them, scaled */
    double *dz;     /* cap rows of 4 hidden: by the gates' pre-activations */
    double *dh;     /* cap rows of hidden: by the hidden state */
    double *dc;     /* cap rows of hidden: by the cell state */
} work_t;

struct hsim_lstm {
    size_t n_in;      /* features per step, 1 to HSIM_LSTM_MAX_SIZE */
    size_t hidden;    /* cells, 1 to HSIM_LSTM_MAX_SIZE */
    size_t steps;     /* sequence length, 1 to HSIM_LSTM_MAX_SIZE */
    uint64_t seed;    /* the initial weights', 0 after a load */
    size_t n_params;  /* 4 hidden (n_in + hidden + 1) + hidden + 1 */
    double *theta;    /* n_params, in hsim_lstm_params()'s order */
    double welsch;    /* > 0: the loss is Welsch's at this scale, else the
                         squared error (hsim_lstm_set_welsch()) */
    work_t one;       /* scratch of one sample: predictions, loss_grad */
};

/* The doubles of a work_t of cap samples; 0 when that overflows. */
static size_t work_doubles(const hsim_lstm_t *m, size_t cap)
{
    size_t h = m->hidden;
    size_t per = m->steps * (m->n_in + 7 * h) + 7 * h + 2;
    return cap <= SIZE_MAX / sizeof(double) / per ? cap * per : 0;
}

/* Carves w's arrays for cap samples out of p (work_doubles() long). */
static void work_init(const hsim_lstm_t *m, work_t *w, double *p, size_t cap)
{
    size_t h = m->hidden, d = m->n_in + h, t = m->steps;
    w->cap = cap;
    w->xh = p;
    w->gates = w->xh + t * cap * d;
    w->c = w->gates + t * cap * 4 * h;
    w->tc = w->c + t * cap * h;
    w->hlast = w->tc + t * cap * h;
    w->out = w->hlast + cap * h;
    w->dout = w->out + cap;
    w->dz = w->dout + cap;
    w->dh = w->dz + cap * 4 * h;
    w->dc = w->dh + cap * h;
}

/* 1 when the sizes are allowed, with their parameter count in *n. */
static int sizes_ok(size_t n_in, size_t hidden, size_t steps, size_t *n)
{
    if (n_in < 1 || hidden < 1 || steps < 1 || n_in > HSIM_LSTM_MAX_SIZE ||
        hidden > HSIM_LSTM_MAX_SIZE || steps > HSIM_LSTM_MAX_SIZE)
        return 0;
    *n = 4 * hidden * (n_in + hidden + 1) + hidden + 1; /* < 2^36 */
    return *n <= HSIM_LSTM_MAX_PARAMS;
}

/* mt19937 keeps 32 bits of its seed: fold the other 32 into them. */
static unsigned long fold_seed(uint64_t seed)
{
    return (unsigned long)((seed ^ (seed >> 32)) & 0xffffffffu);
}

/* A model of valid sizes, its parameters 0.  NULL when out of memory. */
static hsim_lstm_t *alloc_model(size_t n_in, size_t hidden, size_t steps, size_t n_params)
{
    hsim_lstm_t *m = hsim_calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->n_in = n_in;
    m->hidden = hidden;
    m->steps = steps;
    m->n_params = n_params;
    size_t scratch = work_doubles(m, 1);
    if (scratch && scratch <= SIZE_MAX / sizeof(double) - n_params)
        m->theta = hsim_calloc(n_params + scratch, sizeof(double));
    if (!m->theta) {
        hsim_free(m);
        return NULL;
    }
    work_init(m, &m->one, m->theta + n_params, 1);
    return m;
}

int hsim_lstm_create(const hsim_lstm_options_t *o, hsim_lstm_t **out)
{
    size_t n_params;
    if (!sizes_ok(o->n_in, o->hidden, o->steps, &n_params))
        return HSIM_EINPUT;
    hsim_lstm_t *m = alloc_model(o->n_in, o->hidden, o->steps, n_params);
    if (!m)
        return HSIM_ENOMEM;
    m->seed = o->seed;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng) {
        hsim_lstm_free(m);
        return HSIM_ENOMEM;
    }
    gsl_rng_set(rng, fold_seed(o->seed));
    size_t h = m->hidden, d = m->n_in + h;
    double gate_limit = sqrt(6.0 / (double)(d + h));
    double out_limit = sqrt(6.0 / (double)(h + 1));
    double *w = m->theta, *b = w + 4 * h * d, *v = b + 4 * h;
    for (size_t k = 0; k < 4 * h * d; k++)
        w[k] = gate_limit * (2 * gsl_rng_uniform(rng) - 1);
    for (size_t j = 0; j < h; j++)
        b[h + j] = 1; /* forget gate: remember by default */
    for (size_t j = 0; j < h; j++)
        v[j] = out_limit * (2 * gsl_rng_uniform(rng) - 1);
    gsl_rng_free(rng);
    *out = m;
    return 0;
}

void hsim_lstm_free(hsim_lstm_t *m)
{
    if (!m)
        return;
    hsim_free(m->theta);
    hsim_free(m);
}

void hsim_lstm_set_welsch(hsim_lstm_t *m, double s) { m->welsch = s > 0 ? s : 0; }

hsim_lstm_options_t hsim_lstm_options(const hsim_lstm_t *m)
{
    return (hsim_lstm_options_t){
        .n_in = m->n_in, .hidden = m->hidden, .steps = m->steps, .seed = m->seed};
}

double *hsim_lstm_params(hsim_lstm_t *m, size_t *n)
{
    if (n)
        *n = m->n_params;
    return m->theta;
}

static double sigmoid(double x) { return 1 / (1 + exp(-x)); }

/* Sample r of a batch: the r-th of X, or the idx[r]-th when idx is set. */
static size_t sample_of(const size_t *idx, size_t r) { return idx ? idx[r] : r; }

/*
 * The forward pass of samples X (through idx, see sample_of()) 0 to B - 1
 * into w, predictions in w->out.  O(B * steps * 4 hidden * (n_in + hidden)).
 */
static void forward(const hsim_lstm_t *m, work_t *w, const double *X, const size_t *idx,
                    size_t B)
{
    size_t n_in = m->n_in, h = m->hidden, d = n_in + h, g4 = 4 * h, T = m->steps, cap = w->cap;
    const double *bias = m->theta + g4 * d, *v = bias + g4;
    gsl_matrix_const_view W = gsl_matrix_const_view_array(m->theta, g4, d);
    for (size_t t = 0; t < T; t++) {
        double *xh = w->xh + t * cap * d, *z = w->gates + t * cap * g4;
        double *c = w->c + t * cap * h, *tc = w->tc + t * cap * h;
        const double *c_prev = t ? c - cap * h : NULL;
        /* h_t goes where the next step reads it, or to hlast */
        double *h_next = t + 1 < T ? xh + cap * d + n_in : w->hlast;
        size_t h_stride = t + 1 < T ? d : h;
        for (size_t r = 0; r < B; r++) {
            memcpy(xh + r * d, X + (sample_of(idx, r) * T + t) * n_in, n_in * sizeof *xh);
            if (t == 0)
                memset(xh + r * d + n_in, 0, h * sizeof *xh);
        }
        if (B == 1) {
            gsl_vector_const_view x1 = gsl_vector_const_view_array(xh, d);
            gsl_vector_view z1 = gsl_vector_view_array(z, g4);
            gsl_blas_dgemv(CblasNoTrans, 1.0, &W.matrix, &x1.vector, 0.0, &z1.vector);
        } else {
            gsl_matrix_const_view XH = gsl_matrix_const_view_array(xh, B, d);
            gsl_matrix_view Z = gsl_matrix_view_array(z, B, g4);
            gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, &XH.matrix, &W.matrix, 0.0, &Z.matrix);
        }
        for (size_t r = 0; r < B; r++) {
            double *zr = z + r * g4;
            for (size_t j = 0; j < h; j++) {
                double in = sigmoid(zr[j] + bias[j]);
                double forget = sigmoid(zr[h + j] + bias[h + j]);
                double outg = sigmoid(zr[2 * h + j] + bias[2 * h + j]);
                double cand = tanh(zr[3 * h + j] + bias[3 * h + j]);
                zr[j] = in;
                zr[h + j] = forget;
                zr[2 * h + j] = outg;
                zr[3 * h + j] = cand;
                double cv = in * cand + (c_prev ? forget * c_prev[r * h + j] : 0);
                double tv = tanh(cv);
                c[r * h + j] = cv;
                tc[r * h + j] = tv;
                h_next[r * h_stride + j] = outg * tv;
            }
        }
    }
    gsl_matrix_const_view HL = gsl_matrix_const_view_array(w->hlast, B, h);
    gsl_vector_const_view V = gsl_vector_const_view_array(v, h);
    gsl_vector_view OUT = gsl_vector_view_array(w->out, B);
    gsl_blas_dgemv(CblasNoTrans, 1.0, &HL.matrix, &V.vector, 0.0, &OUT.vector);
    for (size_t r = 0; r < B; r++)
        w->out[r] += v[h];
}

/*
 * After forward() of the same samples: adds to grad the gradient of
 * scale times the sum of their weighted losses, and returns that sum
 * (unscaled).  Costs about twice forward().
 */
static double backward(const hsim_lstm_t *m, work_t *w, const double *y, const size_t *idx,
                       size_t B, double under_weight, double scale, double *grad)
{
    size_t n_in = m->n_in, h = m->hidden, d = n_in + h, g4 = 4 * h, T = m->steps, cap = w->cap;
    const double *v = m->theta + g4 * d + g4;
    double *g_w = grad, *g_b = grad + g4 * d, *g_v = g_b + g4, *g_out_bias = g_v + h;
    double loss = 0;
    double s2 = m->welsch * m->welsch;
    for (size_t r = 0; r < B; r++) {
        double err = w->out[r] - y[sample_of(idx, r)];
        double k = err < 0 ? under_weight : 1;
        if (s2 > 0) { /* s^2 (1 - exp(-err^2 / 2 s^2)): far errors stop counting */
            double g = exp(-err * err / (2 * s2));
            loss += k * s2 * (1 - g);
            w->dout[r] = k * err * g * scale;
        } else {
            loss += k * err * err;
            w->dout[r] = 2 * k * err * scale;
        }
        *g_out_bias += w->dout[r];
        for (size_t j = 0; j < h; j++) {
            w->dh[r * h + j] = w->dout[r] * v[j];
            w->dc[r * h + j] = 0;
        }
    }
    gsl_matrix_const_view HL = gsl_matrix_const_view_array(w->hlast, B, h);
    gsl_vector_const_view DOUT = gsl_vector_const_view_array(w->dout, B);
    gsl_vector_view GV = gsl_vector_view_array(g_v, h);
    gsl_blas_dgemv(CblasTrans, 1.0, &HL.matrix, &DOUT.vector, 1.0, &GV.vector);

    gsl_matrix_const_view W = gsl_matrix_const_view_array(m->theta, g4, d);
    gsl_matrix_const_view W_h = gsl_matrix_const_submatrix(&W.matrix, 0, n_in, g4, h);
    gsl_matrix_view GW = gsl_matrix_view_array(g_w, g4, d);
    gsl_matrix_view DZ = gsl_matrix_view_array(w->dz, B, g4);
    gsl_matrix_view DH = gsl_matrix_view_array(w->dh, B, h);
    for (size_t t = T; t-- > 0;) {
        const double *xh = w->xh + t * cap * d, *z = w->gates + t * cap * g4;
        const double *tc = w->tc + t * cap * h;
        const double *c_prev = t ? w->c + (t - 1) * cap * h : NULL;
        for (size_t r = 0; r < B; r++) {
            const double *zr = z + r * g4;
            double *dz = w->dz + r * g4;
            for (size_t j = 0; j < h; j++) {
                double in = zr[j], forget = zr[h + j], outg = zr[2 * h + j];
                double cand = zr[3 * h + j], tv = tc[r * h + j];
                double dh = w->dh[r * h + j];
                double dc = w->dc[r * h + j] + dh * outg * (1 - tv * tv);
                double cp = c_prev ? c_prev[r * h + j] : 0;
                dz[j] = dc * cand * in * (1 - in);
                dz[h + j] = dc * cp * forget * (1 - forget);
                dz[2 * h + j] = dh * tv * outg * (1 - outg);
                dz[3 * h + j] = dc * in * (1 - cand * cand);
                w->dc[r * h + j] = dc * forget;
            }
            for (size_t k = 0; k < g4; k++)
                g_b[k] += dz[k];
        }
        if (B == 1) {
            gsl_vector_const_view x1 = gsl_vector_const_view_array(xh, d);
            gsl_vector_view dz1 = gsl_vector_view_array(w->dz, g4);
            gsl_blas_dger(1.0, &dz1.vector, &x1.vector, &GW.matrix);
            if (t) {
                gsl_vector_view dh1 = gsl_vector_view_array(w->dh, h);
                gsl_blas_dgemv(CblasTrans, 1.0, &W_h.matrix, &dz1.vector, 0.0, &dh1.vector);
            }
        } else {
            gsl_matrix_const_view XH = gsl_matrix_const_view_array(xh, B, d);
            gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, &DZ.matrix, &XH.matrix, 1.0,
                           &GW.matrix);
            if (t)
                gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &DZ.matrix, &W_h.matrix, 0.0,
                               &DH.matrix);
        }
    }
    return loss;
}

double hsim_lstm_predict(hsim_lstm_t *m, const double *x)
{
    forward(m, &m->one, x, NULL, 1);
    return m->one.out[0];
}

double hsim_lstm_loss_grad(hsim_lstm_t *m, const double *x, double y, double under_weight,
                           double *grad)
{
    memset(grad, 0, m->n_params * sizeof *grad);
    forward(m, &m->one, x, NULL, 1);
    return backward(m, &m->one, &y, NULL, 1, under_weight, 1.0, grad);
}

/* Scratch of cap samples in one block (the caller frees w->xh), with
   extra doubles before it at *extra_at when extra > 0.  0 or HSIM_ENOMEM. */
static int work_alloc(const hsim_lstm_t *m, work_t *w, size_t cap, size_t extra,
                      double **extra_at)
{
    size_t n = work_doubles(m, cap);
    if (!n || n > SIZE_MAX / sizeof(double) - extra)
        return HSIM_ENOMEM;
    double *p = hsim_malloc((n + extra) * sizeof *p);
    if (!p)
        return HSIM_ENOMEM;
    if (extra_at)
        *extra_at = p;
    work_init(m, w, p + extra, cap);
    return 0;
}

int hsim_lstm_batch_loss_grad(hsim_lstm_t *m, const double *X, const double *y, size_t n,
                              double under_weight, double *grad, double *loss)
{
    work_t w;
    double *block = NULL;
    if (n && work_alloc(m, &w, n < CHUNK ? n : CHUNK, 0, &block))
        return HSIM_ENOMEM;
    memset(grad, 0, m->n_params * sizeof *grad);
    double sum = 0;
    size_t len = m->steps * m->n_in;
    for (size_t at = 0; at < n; at += w.cap) {
        size_t b = n - at < w.cap ? n - at : w.cap;
        forward(m, &w, X + at * len, NULL, b);
        sum += backward(m, &w, y + at, NULL, b, under_weight, 1.0 / (double)n, grad);
    }
    hsim_free(block);
    *loss = n ? sum / (double)n : 0;
    return 0;
}

/* One Adam step on m's parameters; step counts from 1. */
static void adam_step(hsim_lstm_t *m, const double *grad, double *mom1, double *mom2,
                      double rate, unsigned long step)
{
    double fix1 = 1 - pow(ADAM_BETA1, (double)step);
    double fix2 = 1 - pow(ADAM_BETA2, (double)step);
    for (size_t k = 0; k < m->n_params; k++) {
        mom1[k] = ADAM_BETA1 * mom1[k] + (1 - ADAM_BETA1) * grad[k];
        mom2[k] = ADAM_BETA2 * mom2[k] + (1 - ADAM_BETA2) * grad[k] * grad[k];
        m->theta[k] -= rate * (mom1[k] / fix1) / (sqrt(mom2[k] / fix2) + ADAM_EPSILON);
    }
}

/* Scales grad (n) down to an L2 norm of clip when it is longer. */
static void clip_norm(double *grad, size_t n, double clip)
{
    double sq = 0;
    for (size_t k = 0; k < n; k++)
        sq += grad[k] * grad[k];
    if (sq <= clip * clip)
        return;
    double f = clip / sqrt(sq);
    for (size_t k = 0; k < n; k++)
        grad[k] *= f;
}

int hsim_lstm_train(hsim_lstm_t *m, const double *X, const double *y, size_t n,
                    const hsim_lstm_train_options_t *o, double *loss)
{
    if (o->epochs < 1 || o->batch < 1 || !(o->learning_rate > 0) || !isfinite(o->learning_rate) ||
        !(o->under_weight >= 1) || !isfinite(o->under_weight) || !(o->clip >= 0) ||
        !isfinite(o->clip) || n > HSIM_LSTM_MAX_SAMPLES)
        return HSIM_EINPUT;
    if (n == 0) {
        if (loss)
            *loss = 0;
        return 0;
    }
    size_t cap = o->batch < n ? o->batch : n, np = m->n_params;
    work_t w;
    double *grad; /* then Adam's two moments, then w's arrays */
    if (work_alloc(m, &w, cap, 3 * np, &grad))
        return HSIM_ENOMEM;
    size_t *order = hsim_malloc(n * sizeof *order);
    gsl_rng *rng = order ? gsl_rng_alloc(gsl_rng_mt19937) : NULL;
    if (!rng) {
        hsim_free(order);
        hsim_free(grad);
        return HSIM_ENOMEM;
    }
    gsl_rng_set(rng, fold_seed(o->seed));
    double *mom1 = grad + np, *mom2 = mom1 + np;
    memset(mom1, 0, 2 * np * sizeof *mom1);
    for (size_t k = 0; k < n; k++)
        order[k] = k;
    unsigned long step = 0;
    double sum = 0;
    for (size_t epoch = 0; epoch < o->epochs; epoch++) {
        for (size_t k = n - 1; k > 0; k--) { /* Fisher-Yates */
            size_t j = (size_t)gsl_rng_uniform_int(rng, (unsigned long)k + 1);
            size_t tmp = order[k];
            order[k] = order[j];
            order[j] = tmp;
        }
        sum = 0;
        for (size_t at = 0; at < n; at += cap) {
            size_t b = n - at < cap ? n - at : cap;
            memset(grad, 0, np * sizeof *grad);
            forward(m, &w, X, order + at, b);
            sum += backward(m, &w, y, order + at, b, o->under_weight, 1.0 / (double)b, grad);
            if (o->clip > 0)
                clip_norm(grad, np, o->clip);
            adam_step(m, grad, mom1, mom2, o->learning_rate, ++step);
        }
    }
    gsl_rng_free(rng);
    hsim_free(order);
    hsim_free(grad);
    if (loss)
        *loss = sum / (double)n;
    return 0;
}

int hsim_lstm_save(const hsim_lstm_t *m, const char *path, hsim_err_t *e)
{
    for (size_t k = 0; k < m->n_params; k++)
        if (!(fabs(m->theta[k]) <= HSIM_LSTM_MAX_PARAM))
            return hsim_errf(e, HSIM_EINPUT,
                             "%s: not written: parameter %zu of %zu is %g (did the training "
                             "diverge? a lower learning rate or a clip may help)",
                             path, k + 1, m->n_params, m->theta[k]);
    char part[HSIM_PART_PATH_MAX]; /* written whole, then renamed */
    if (hsim_part_path(part, sizeof part, path, e))
        return HSIM_EIO;
    FILE *f = fopen(part[0] ? part : path, "w");
    if (!f)
        return hsim_publish(
            part, path, hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path, strerror(errno)), e);
    fprintf(f, "%s %s\nn_in %zu\nhidden %zu\nsteps %zu\nparams %zu\n", FORMAT, FORMAT_VERSION,
            m->n_in, m->hidden, m->steps, m->n_params);
    for (size_t k = 0; k < m->n_params; k++)
        fprintf(f, "%.17g\n", m->theta[k]);
    fputs("end\n", f);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    int rc = bad ? hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path, strerror(errno)) : 0;
    return hsim_publish(part, path, rc, e);
}

/* The reader of a saved model: one line at a time, with its number. */
typedef struct reader {
    FILE *f;
    const char *path;
    long line;       /* of buf, from 1 */
    int state;       /* of buf: 1 a line, 0 the end of the file, -1 a line
                        longer than buf holds */
    char buf[128];   /* the line, without its newline */
    hsim_err_t *e;
} reader_t;

/* Reads the next line into r->buf; returns r->state. */
static int next_line(reader_t *r)
{
    r->line++;
    if (!fgets(r->buf, sizeof r->buf, r->f)) {
        r->buf[0] = '\0';
        return r->state = 0;
    }
    if (r->line == 1) {
        size_t bom = hsim_bom_len(r->buf, strlen(r->buf));
        memmove(r->buf, r->buf + bom, strlen(r->buf + bom) + 1);
    }
    size_t len = strlen(r->buf);
    if (len && r->buf[len - 1] == '\n') {
        r->buf[--len] = '\0';
        if (len && r->buf[len - 1] == '\r')
            r->buf[--len] = '\0';
        return r->state = 1;
    }
    if (feof(r->f))
        return r->state = 1; /* a last line without its newline */
    int ch;
    while ((ch = fgetc(r->f)) != EOF && ch != '\n')
        ;
    return r->state = -1;
}

/* The error for the line just read, which is not what was expected. */
static int bad_line(const reader_t *r, const char *expected)
{
    if (ferror(r->f))
        return hsim_errf(r->e, HSIM_EIO, "%s: cannot read: %s", r->path, strerror(errno));
    if (r->state == 0)
        return hsim_errf(r->e, HSIM_EINPUT,
                         "%s:%ld: expected %s, found the end of the file (a truncated file?)",
                         r->path, r->line, expected);
    if (r->state < 0)
        return hsim_errf(r->e, HSIM_EINPUT,
                         "%s:%ld: expected %s, found a line of more than %zu characters",
                         r->path, r->line, expected, sizeof r->buf - 2);
    return hsim_errf(r->e, HSIM_EINPUT, "%s:%ld: expected %s, found '%.60s'", r->path, r->line,
                     expected, r->buf);
}

/* Reads the line "<key> <whole number from 1 to max>" into *v. */
static int read_size(reader_t *r, const char *key, size_t max, size_t *v)
{
    char expected[96];
    snprintf(expected, sizeof expected, "'%s' and a whole number from 1 to %zu", key, max);
    size_t klen = strlen(key);
    if (next_line(r) != 1 || strncmp(r->buf, key, klen) || r->buf[klen] != ' ')
        return bad_line(r, expected);
    const char *s = r->buf + klen + 1;
    size_t value = 0, digits = 0;
    for (; *s >= '0' && *s <= '9' && digits < 12; s++, digits++)
        value = 10 * value + (size_t)(*s - '0');
    if (!digits || *s || value < 1 || value > max)
        return bad_line(r, expected);
    *v = value;
    return 0;
}

/* Reads the header and the sizes, and makes the model they describe. */
static int read_header(reader_t *r, hsim_lstm_t **out)
{
    char expected[160];
    snprintf(expected, sizeof expected, "the header '%s %s' of a model saved by hsim", FORMAT,
             FORMAT_VERSION);
    if (next_line(r) != 1 || strncmp(r->buf, FORMAT " ", strlen(FORMAT) + 1))
        return bad_line(r, expected);
    if (strcmp(r->buf + strlen(FORMAT) + 1, FORMAT_VERSION))
        return hsim_errf(r->e, HSIM_EINPUT,
                         "%s:1: expected version %s of the format, found '%.60s': "
                         HSIM_MODEL_VERSION_HINT, r->path, FORMAT_VERSION, r->buf);
    size_t n_in, hidden, steps, count, want;
    int rc;
    if ((rc = read_size(r, "n_in", HSIM_LSTM_MAX_SIZE, &n_in)) ||
        (rc = read_size(r, "hidden", HSIM_LSTM_MAX_SIZE, &hidden)) ||
        (rc = read_size(r, "steps", HSIM_LSTM_MAX_SIZE, &steps)))
        return rc;
    if (!sizes_ok(n_in, hidden, steps, &want))
        return hsim_errf(r->e, HSIM_EINPUT,
                         "%s:4: n_in %zu, hidden %zu and steps %zu make %zu parameters: expected "
                         "%zu at most",
                         r->path, n_in, hidden, steps, want, HSIM_LSTM_MAX_PARAMS);
    if ((rc = read_size(r, "params", HSIM_LSTM_MAX_PARAMS, &count)))
        return rc;
    if (count != want)
        return hsim_errf(r->e, HSIM_EINPUT,
                         "%s:5: expected 'params %zu' (n_in %zu, hidden %zu, steps %zu), found "
                         "'%.60s' (sizes changed by hand?)",
                         r->path, want, n_in, hidden, steps, r->buf);
    /* a parameter takes 2 bytes at least ("0\n"): a file too short for
       them is truncated, and allocating for it first would let 80 bytes ask
       for gigabytes */
    struct stat st;
    if (fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size / 2 < count)
        return hsim_errf(r->e, HSIM_EINPUT,
                         "%s:6: expected %zu parameters, one a line, found a file of %lld bytes "
                         "(a truncated file?)",
                         r->path, count, (long long)st.st_size);
    *out = alloc_model(n_in, hidden, steps, count);
    if (!*out)
        return hsim_errf(r->e, HSIM_ENOMEM, "%s: out of memory for a model of %zu parameters",
                         r->path, count);
    return 0;
}

/* Reads the parameters, then "end" and nothing more, into m. */
static int read_params(reader_t *r, hsim_lstm_t *m)
{
    char expected[96];
    for (size_t k = 0; k < m->n_params; k++) {
        snprintf(expected, sizeof expected, "parameter %zu of %zu, a finite number of at most "
                 "%g in size", k + 1, m->n_params, HSIM_LSTM_MAX_PARAM);
        char *end;
        if (next_line(r) != 1)
            return bad_line(r, expected);
        double v = hsim_strtod(r->buf, &end);
        if (end == r->buf || *end || !(fabs(v) <= HSIM_LSTM_MAX_PARAM))
            return bad_line(r, expected);
        m->theta[k] = v;
    }
    snprintf(expected, sizeof expected, "'end' after the %zu parameters", m->n_params);
    if (next_line(r) != 1 || strcmp(r->buf, "end"))
        return bad_line(r, expected);
    while (next_line(r) == 1 && !r->buf[0])
        ;
    if (r->state != 0)
        return bad_line(r, "nothing after 'end'");
    if (ferror(r->f))
        return bad_line(r, "");
    return 0;
}

int hsim_lstm_load(const char *path, hsim_lstm_t **out, hsim_err_t *e)
{
    reader_t r = {.path = path, .e = e};
    r.f = fopen(path, "r");
    if (!r.f)
        return hsim_errf(e, HSIM_EIO, "%s: cannot open: %s", path, strerror(errno));
    hsim_lstm_t *m = NULL;
    int rc = read_header(&r, &m);
    if (!rc)
        rc = read_params(&r, m);
    fclose(r.f);
    if (rc) {
        hsim_lstm_free(m);
        return rc;
    }
    *out = m;
    return 0;
}
