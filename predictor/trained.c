/*
 * trained.c - the trained predictors: 'regression', 'gbdt' and 'lstm'
 * behind the predictor interface.
 *
 * Each keeps its user's history (features.h) as the replay starts and ends
 * jobs, and the input vector of every job it was asked about, as it was
 * then (at the job's submission); when the job ends, that vector and its
 * log runtime become a sample, so it learns from what it will be asked.  With estimate.model, it starts from the model hsim train wrote;
 * with estimate.retrain = N it trains a new model every N completions on
 * the last HSIM_TRAIN_WINDOW samples, finished jobs only.  Until it has a
 * model, it answers the requested time.  Each job is asked about once, at
 * its submission (revising a user's waiting jobs at each of their ends
 * would cost a prediction per waiting job: on RICC-2010, hundreds of
 * millions), and an answer may fall short of the runtime (underpredicts:
 * the engine plans the job on its request from then on).
 */
#include "predictor.h"
#include "trained.h"

#include <stdlib.h>
#include <string.h>

int hsim_model_header(FILE *f, const char *path, const char *name, const char *model,
                      hsim_err_t *e)
{
    char magic[32] = "";
    int version = 0;
    if (fscanf(f, "%31s %d ", magic, &version) != 2 || strcmp(magic, name))
        return hsim_errf(e, HSIM_EINPUT, "%s:1: expected '%s %d' (a model hsim train writes "
                         "with --model %s)", path, name, HSIM_MODEL_VERSION, model);
    if (version != HSIM_MODEL_VERSION)
        return hsim_errf(e, HSIM_EINPUT, "%s:1: expected '%s %d', found version %d: "
                         HSIM_MODEL_VERSION_HINT, path, name, HSIM_MODEL_VERSION, version);
    return 0;
}

typedef struct pending {
    int64_t id;                 /* job number; the slot is free when !used */
    int used;
    double *x;                  /* its input vector when it started */
} pending_t;

typedef struct trained {
    const hsim_model_kind_t *kind;
    hsim_history_t *h;
    void *model;                /* NULL until one is loaded or trained */
    size_t retrain, since;      /* train every retrain completions; since the last */
    double under_weight;        /* an under-estimate's weight in training, >= 1 */
    uint64_t trainings;         /* models trained so far (their seeds) */
    pending_t *pend;            /* running jobs by id, open addressing */
    size_t cap_pend, n_pend;
    double *pool;               /* cap_pend input vectors, one per slot */
    double *X, *y;              /* the window of samples, a ring */
    size_t n, head;             /* samples held; where the next one goes */
    double *x;                  /* scratch: one input vector */
    hsim_err_t *e;
} trained_t;

static size_t pend_slot(const trained_t *s, int64_t id)
{
    uint64_t k = (uint64_t)id * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(k >> 32) & (s->cap_pend - 1);
    while (s->pend[i].used && s->pend[i].id != id)
        i = (i + 1) & (s->cap_pend - 1);
    return i;
}

/* Room for one more running job.  0 or HSIM_ENOMEM. */
static int pend_room(trained_t *s)
{
    if (2 * (s->n_pend + 1) <= s->cap_pend)
        return 0;
    size_t cap = s->cap_pend ? 2 * s->cap_pend : 256, dim = s->kind->inputs;
    pending_t *old = s->pend;
    double *old_pool = s->pool;
    size_t old_cap = s->cap_pend;
    s->pend = hsim_calloc(cap, sizeof *s->pend);
    s->pool = hsim_malloc(cap * dim * sizeof *s->pool);
    if (!s->pend || !s->pool) {
        hsim_free(s->pend);
        hsim_free(s->pool);
        s->pend = old, s->pool = old_pool;
        return HSIM_ENOMEM;
    }
    s->cap_pend = cap;
    for (size_t i = 0; i < cap; i++)
        s->pend[i].x = s->pool + i * dim;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].used) {
            size_t at = pend_slot(s, old[i].id);
            s->pend[at].used = 1;
            s->pend[at].id = old[i].id;
            memcpy(s->pend[at].x, old[i].x, dim * sizeof *s->pool);
        }
    hsim_free(old);
    hsim_free(old_pool);
    return 0;
}

static void trained_destroy(void *state)
{
    trained_t *s = state;
    if (!s)
        return;
    if (s->model)
        s->kind->free(s->model);
    hsim_history_free(s->h);
    hsim_free(s->pend);
    hsim_free(s->pool);
    hsim_free(s->X);
    hsim_free(s->y);
    hsim_free(s->x);
    hsim_free(s);
}

static int trained_create(const hsim_model_kind_t *kind, const hsim_predictor_ctx_t *ctx,
                          void **state)
{
    trained_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    s->kind = kind;
    s->retrain = ctx->retrain;
    s->under_weight = ctx->under_weight >= 1 ? ctx->under_weight : 1;
    s->e = ctx->e;
    int rc = hsim_history_create(ctx->unix_start, ctx->time_zone, &s->h);
    size_t dim = kind->inputs;
    if (rc == 0 && !(s->x = hsim_malloc(dim * sizeof *s->x)))
        rc = HSIM_ENOMEM;
    if (rc == 0 && ctx->model && ctx->model[0])
        rc = kind->load(ctx->model, &s->model, ctx->e);
    if (rc == 0 && !s->model && !s->retrain)
        rc = hsim_errf(ctx->e, HSIM_EINPUT,
                       "estimate = %s needs a trained model (estimate.model = FILE, which "
                       "hsim train writes) or training as it goes (estimate.retrain = N)",
                       kind->name);
    if (rc == 0 && s->retrain &&
        (!(s->X = hsim_malloc(HSIM_TRAIN_WINDOW * dim * sizeof *s->X)) ||
         !(s->y = hsim_malloc(HSIM_TRAIN_WINDOW * sizeof *s->y))))
        rc = HSIM_ENOMEM;
    if (rc) {
        trained_destroy(s);
        return rc == HSIM_EIO ? HSIM_EINPUT : rc;
    }
    *state = s;
    return 0;
}

static hsim_time_t trained_predict(void *state, const hsim_job_t *job, hsim_time_t now)
{
    (void)now;
    trained_t *s = state;
    double *x = s->x;
    if (s->retrain && pend_room(s) == 0) { /* kept for learning (without room, not) */
        size_t at = pend_slot(s, job->id);
        if (!s->pend[at].used) {
            s->pend[at].used = 1;
            s->pend[at].id = job->id;
            s->n_pend++;
        }
        x = s->pend[at].x;
    }
    s->kind->input(s->h, job, x);
    if (!s->model)
        return job->estimate;
    return hsim_runtime_from_target(s->kind->eval(s->model, x));
}

static int trained_started(void *state, const hsim_job_t *job, hsim_time_t now)
{
    (void)now;
    trained_t *s = state;
    return hsim_history_started(s->h, job);
}

/* Takes slot i out of the table, moving later entries of its run back. */
static void pend_remove(trained_t *s, size_t i)
{
    size_t mask = s->cap_pend - 1, dim = s->kind->inputs;
    s->pend[i].used = 0;
    s->n_pend--;
    for (size_t j = (i + 1) & mask; s->pend[j].used; j = (j + 1) & mask) {
        int64_t id = s->pend[j].id;
        s->pend[j].used = 0;
        size_t k = pend_slot(s, id);
        s->pend[k].used = 1;
        s->pend[k].id = id;
        if (k != j)
            memcpy(s->pend[k].x, s->pend[j].x, dim * sizeof *s->pool);
    }
}

static int trained_learn(void *state, const hsim_job_t *job, hsim_time_t ran, hsim_time_t now)
{
    (void)now;
    trained_t *s = state;
    size_t at = s->cap_pend ? pend_slot(s, job->id) : 0;
    if (s->cap_pend && s->pend[at].used) {
        size_t dim = s->kind->inputs;
        memcpy(s->X + s->head * dim, s->pend[at].x, dim * sizeof *s->X);
        s->y[s->head] = hsim_runtime_target(ran);
        s->head = (s->head + 1) % HSIM_TRAIN_WINDOW;
        if (s->n < HSIM_TRAIN_WINDOW)
            s->n++;
    }
    if (s->cap_pend && s->pend[at].used)
        pend_remove(s, at);
    int rc = hsim_history_finished(s->h, job, ran);
    if (rc || !s->retrain || ++s->since < s->retrain)
        return rc;
    s->since = 0;
    void *model = NULL;
    rc = s->kind->train(s->X, s->y, s->n, s->under_weight, ++s->trainings, &model, s->e);
    if (rc == 0) {
        if (s->model)
            s->kind->free(s->model);
        s->model = model;
    }
    return rc;
}

#define TRAINED(kind_var, pname, psummary)                                                    \
    static int pname##_create(const hsim_predictor_ctx_t *ctx, void **state)                \
    {                                                                                        \
        return trained_create(&kind_var, ctx, state);                                       \
    }                                                                                        \
    const hsim_predictor_t hsim_predictor_##pname = {                                        \
        .name = #pname,                                                                      \
        .summary = psummary,                                                                 \
        .create = pname##_create,                                                            \
        .destroy = trained_destroy,                                                          \
        .predict = trained_predict,                                                          \
        .started = trained_started,                                                          \
        .learn = trained_learn,                                                              \
        .revises = 0,                                                                        \
        .underpredicts = 1,                                                                  \
        .uses_model = 1,                                                                     \
    };

extern const hsim_model_kind_t hsim_model_gbdt, hsim_model_regression, hsim_model_lstm;

TRAINED(hsim_model_regression, regression,
        "least squares on log features (GSL), trained on finished jobs")
TRAINED(hsim_model_gbdt, gbdt, "gradient-boosted trees (XGBoost), trained on finished jobs")
TRAINED(hsim_model_lstm, lstm, "an LSTM over the user's last jobs, trained on finished jobs")

const hsim_model_kind_t *const hsim_model_kinds[] = {&hsim_model_regression, &hsim_model_gbdt,
                                                     &hsim_model_lstm, NULL};

const hsim_model_kind_t *hsim_model_kind_find(const char *name)
{
    for (size_t i = 0; hsim_model_kinds[i]; i++)
        if (!strcmp(hsim_model_kinds[i]->name, name))
            return hsim_model_kinds[i];
    return NULL;
}
