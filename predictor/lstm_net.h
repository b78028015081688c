/*
 * lstm_net.h - the numerical core of the LSTM runtime predictor: a
 * single-layer LSTM over a fixed-length sequence of feature vectors, then
 * a linear layer on the last hidden state that gives one scalar (the
 * predicted log runtime).  Training is Adam on minibatches of an
 * asymmetric squared loss that can charge under-estimates more than
 * over-estimates.
 *
 * The module knows nothing of jobs: the caller builds the sequences (the
 * features of a user's last jobs, oldest first, then the job to predict as
 * the last step), pads users with a short history, standardises each
 * feature, and keeps targets at a sensible scale (the output layer is
 * linear and unbounded, and its bias starts at 0: targets far from 0, such
 * as uncentred log seconds, take many Adam steps to reach).
 *
 * Everything is deterministic: the same seed gives a byte-identical model,
 * and the same model, data and training seed give byte-identical trained
 * parameters on one build.  A model holds its own scratch space, so
 * predicting allocates nothing, but a model must not be used by two
 * threads at once (two models may).
 */
#ifndef HSIM_LSTM_NET_H
#define HSIM_LSTM_NET_H

#include "../sim/common.h"

#include <stddef.h>
#include <stdint.h>

/* The largest n_in, hidden or steps accepted; a model also has at most
   HSIM_LSTM_MAX_PARAMS parameters (512 MiB of doubles, four times that
   while training). */
#define HSIM_LSTM_MAX_SIZE 65536
#define HSIM_LSTM_MAX_PARAMS ((size_t)1 << 26)
/* The most samples one hsim_lstm_train() call takes (the shuffle draws
   from mt19937's 32 bits). */
#define HSIM_LSTM_MAX_SAMPLES ((size_t)0xffffffffu)
/* The largest magnitude of a parameter that a model file may hold: a gate
   then sums at most 2^17 terms of 1e100 times an input, and the output
   2^16 of 1e100, so a model loaded answers a finite number for any input
   below 1e100 in size.  Trained weights are a few units. */
#define HSIM_LSTM_MAX_PARAM 1e100

typedef struct hsim_lstm hsim_lstm_t;

typedef struct hsim_lstm_options {
    size_t n_in;        /* features per step, 1 to HSIM_LSTM_MAX_SIZE */
    size_t hidden;      /* LSTM cells, 1 to HSIM_LSTM_MAX_SIZE */
    size_t steps;       /* sequence length, 1 to HSIM_LSTM_MAX_SIZE */
    uint64_t seed;      /* initial weights; mt19937 keeps 32 bits, so the
                           seed is folded (seed ^ seed >> 32), and GSL reads
                           0 as 4357 */
} hsim_lstm_options_t;

typedef struct hsim_lstm_train_options {
    size_t epochs;        /* passes over the samples, >= 1 */
    size_t batch;         /* minibatch size, >= 1 (n at most is used) */
    double learning_rate; /* Adam's step, > 0 (1e-3 to 1e-2 usually) */
    double under_weight;  /* >= 1: the weight of the squared error of an
                             under-estimate (prediction below the target);
                             1 is plain MSE */
    double clip;          /* the largest L2 norm of a minibatch's gradient,
                             scaled down to it when over; 0 = no clipping */
    uint64_t seed;        /* the order of the samples in each epoch
                           (folded to 32 bits, as above) */
} hsim_lstm_train_options_t;

/*
 * A new model of the sizes in o, its weights drawn from o->seed: each
 * weight uniform in +-sqrt(6 / (fan_in + fan_out)) (Glorot), with fan_in
 * n_in + hidden and fan_out hidden for a gate's weights, hidden and 1 for
 * the output layer; biases 0 but the forget gate's, 1.  The caller owns
 * *out and frees it with hsim_lstm_free().  0; HSIM_EINPUT when a size is
 * 0 or over the limits above; HSIM_ENOMEM.
 */
int hsim_lstm_create(const hsim_lstm_options_t *o, hsim_lstm_t **out);
/* Frees m and all it holds; NULL is allowed. */
void hsim_lstm_free(hsim_lstm_t *m);

/* The loss that training and the loss functions below use: Welsch's,
   s^2 (1 - exp(-e^2 / 2 s^2)) of the error e, for s > 0 (errors far beyond
   s stop counting, so the model aims at the most likely target, not the
   mean); the squared error e^2 for s = 0, the default.  Not saved with
   the model. */
void hsim_lstm_set_welsch(hsim_lstm_t *m, double s);

/* The sizes m was created (or loaded) with; the seed is 0 after a load. */
hsim_lstm_options_t hsim_lstm_options(const hsim_lstm_t *m);

/*
 * The model's output for one sequence x: steps rows of n_in doubles, the
 * oldest step first.  O(steps * hidden * (hidden + n_in)); allocates
 * nothing (it writes m's scratch space: one thread at a time).
 */
double hsim_lstm_predict(hsim_lstm_t *m, const double *x);

/*
 * Trains m on n samples: X holds n sequences as hsim_lstm_predict() reads
 * them, one after the other (n * steps * n_in doubles), y their n targets.
 * Each epoch visits the samples in a fresh order drawn from o->seed, in
 * minibatches of o->batch (the last one shorter), and takes one Adam step
 * (beta1 0.9, beta2 0.999, epsilon 1e-8) on each minibatch's mean loss.
 * Adam's moments start at 0 on each call: a second call goes on from the
 * weights, not from the optimiser's state.  *loss (when not NULL) gets the
 * last epoch's mean weighted loss, as its minibatches met it (each before
 * its step).  Allocates O(n + params + batch * steps * hidden) and frees
 * it before returning.  n is at most HSIM_LSTM_MAX_SAMPLES; X and y must
 * be finite (a NaN spreads to every weight).  0; HSIM_EINPUT when an
 * option or n is out of its range; HSIM_ENOMEM; m is unchanged on an
 * error.  n = 0 changes nothing and gives a loss of 0.  The result
 * depends only on m, the data and o.
 */
int hsim_lstm_train(hsim_lstm_t *m, const double *X, const double *y, size_t n,
                    const hsim_lstm_train_options_t *o, double *loss);

/*
 * The weighted squared loss of one sample, w * (prediction - y)^2 with
 * w = under_weight when the prediction is below y and 1 otherwise, and its
 * gradient with respect to every parameter into grad (as many doubles as
 * hsim_lstm_params() counts, in its order).  The loss has a continuous
 * gradient (0 at prediction = y on both sides).  Allocates nothing; same
 * cost as a prediction, times about three.
 */
double hsim_lstm_loss_grad(hsim_lstm_t *m, const double *x, double y, double under_weight,
                           double *grad);

/*
 * The mean weighted loss of n samples (laid out as for hsim_lstm_train())
 * into *loss, and its gradient into grad, computed in minibatches of up to
 * 256 samples as training does: the minibatch code beside the one-sample
 * one, and a validation loss.  Allocates O(256 * steps * hidden) for the
 * call.  0 or HSIM_ENOMEM (grad and *loss are then unchanged).
 */
int hsim_lstm_batch_loss_grad(hsim_lstm_t *m, const double *X, const double *y, size_t n,
                              double under_weight, double *grad, double *loss);

/*
 * The parameters, flattened, into which the caller may read and write; *n
 * (when not NULL) gets their count.  The order: the gate weights, a
 * matrix of 4 * hidden rows (the input, forget, output and candidate
 * gates' rows, hidden each) of n_in + hidden columns (the weights of the
 * step's features, then of the previous hidden state), row after row; the
 * 4 * hidden gate biases in the same order; the hidden output weights; the
 * output bias.  The pointer lives as long as m.
 */
double *hsim_lstm_params(hsim_lstm_t *m, size_t *n);

/*
 * Writes m to path as text: a header line "hsim-lstm 2", the lines
 * "n_in N", "hidden N", "steps N", "params N", then each parameter on its
 * own line (17 significant digits: it reads back exactly), then "end".
 * The file takes its name only when whole (hsim_publish()).  0;
 * HSIM_EINPUT when a parameter is not finite or over HSIM_LSTM_MAX_PARAM
 * in size (a diverged training: the file could not be loaded), nothing
 * written; HSIM_EIO.  Errors come with a message naming path.
 */
int hsim_lstm_save(const hsim_lstm_t *m, const char *path, hsim_err_t *e);

/*
 * Reads a model written by hsim_lstm_save() into a new *out, which the
 * caller owns.  Every line is checked: the header, sizes within the
 * limits, the parameter count that the sizes give (and that the file is
 * long enough to hold them, before the model is allocated: its scratch
 * space grows with the steps), each parameter a number of at most
 * HSIM_LSTM_MAX_PARAM in size, the "end" line and nothing after it.  0;
 * HSIM_EIO when path cannot be read; HSIM_EINPUT for a truncated or
 * corrupt file, with a message "path:line: what was expected, what was
 * found"; HSIM_ENOMEM.
 * *out is untouched on an error.
 */
int hsim_lstm_load(const char *path, hsim_lstm_t **out, hsim_err_t *e);

#endif
