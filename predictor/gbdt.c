/*
 * gbdt.c - gradient-boosted trees: XGBoost trains, hsim evaluates.  See
 * gbdt.h.
 */
#include "gbdt.h"
#include "trained.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xgboost/c_api.h>

typedef struct node {
    int32_t feature;        /* -1: a leaf */
    float threshold;        /* go to yes when x[feature] < threshold */
    int32_t yes, no, missing; /* indices into nodes (of this model) */
    float value;            /* a leaf's */
} node_t;

struct hsim_gbdt {
    size_t nf;              /* features */
    double base;            /* the constant every answer starts from */
    size_t n_trees;
    size_t *root;           /* [n_trees]: index of each tree's root */
    node_t *nodes;
    size_t n_nodes;
};

hsim_gbdt_params_t hsim_gbdt_defaults(void)
{
    return (hsim_gbdt_params_t){.rounds = 120, .max_depth = 6, .eta = 0.1, .subsample = 0.8,
                                .seed = 1, .threads = 1};
}

void hsim_gbdt_free(hsim_gbdt_t *m)
{
    if (!m)
        return;
    hsim_free(m->root);
    hsim_free(m->nodes);
    hsim_free(m);
}

size_t hsim_gbdt_features(const hsim_gbdt_t *m) { return m->nf; }

double hsim_gbdt_eval(const hsim_gbdt_t *m, const double *x)
{
    double sum = m->base;
    for (size_t t = 0; t < m->n_trees; t++) {
        const node_t *n = &m->nodes[m->root[t]];
        while (n->feature >= 0) {
            double v = x[n->feature];
            /* XGBoost compares in float */
            int32_t next = isnan(v) ? n->missing : (float)v < n->threshold ? n->yes : n->no;
            n = &m->nodes[next];
        }
        sum += n->value;
    }
    return sum;
}

/* An empty model for n_trees trees of n_nodes nodes in all. */
static hsim_gbdt_t *model_new(size_t nf, size_t n_trees, size_t n_nodes)
{
    hsim_gbdt_t *m = hsim_calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->nf = nf;
    m->n_trees = n_trees;
    m->n_nodes = n_nodes;
    m->root = hsim_calloc(n_trees ? n_trees : 1, sizeof *m->root);
    m->nodes = hsim_calloc(n_nodes ? n_nodes : 1, sizeof *m->nodes);
    if (!m->root || !m->nodes) {
        hsim_gbdt_free(m);
        return NULL;
    }
    return m;
}

/* ---- reading XGBoost's text dump ---- */

/* The nodes of one tree's dump, "ID:[fK<T] yes=A,no=B,missing=C" and
   "ID:leaf=V" lines, into nodes[base...]; *count gets 1 + the largest id.
   With nodes NULL, only counts.  0, or -1 for a line it cannot read. */
static int parse_tree(const char *text, node_t *nodes, size_t base, size_t *count)
{
    *count = 0;
    for (const char *s = text; *s;) {
        while (*s == '\t' || *s == ' ' || *s == '\n')
            s++;
        if (!*s)
            break;
        char *end;
        long id = strtol(s, &end, 10);
        if (end == s || *end != ':' || id < 0 || id > 1 << 24)
            return -1;
        s = end + 1;
        node_t n = {.feature = -1};
        if (!strncmp(s, "leaf=", 5)) {
            n.value = strtof(s + 5, &end);
            if (end == s + 5)
                return -1;
        } else {
            int f, yes, no, miss, len = 0;
            float thr;
            if (sscanf(s, "[f%d<%g] yes=%d,no=%d,missing=%d%n", &f, &thr, &yes, &no, &miss,
                       &len) != 5 || f < 0 || yes < 0 || no < 0 || miss < 0)
                return -1;
            n = (node_t){.feature = f, .threshold = thr, .yes = (int32_t)(base + (size_t)yes),
                         .no = (int32_t)(base + (size_t)no),
                         .missing = (int32_t)(base + (size_t)miss)};
        }
        if ((size_t)id + 1 > *count)
            *count = (size_t)id + 1;
        if (nodes)
            nodes[base + (size_t)id] = n;
        s += strcspn(s, "\n");
    }
    return 0;
}

static int xgb_failed(hsim_err_t *e, const char *what)
{
    return hsim_errf(e, HSIM_ERUN, "gbdt: XGBoost %s: %s", what, XGBGetLastError());
}

int hsim_gbdt_train(const double *X, const double *y, size_t n, size_t nf,
                    const hsim_gbdt_params_t *p, hsim_gbdt_t **out, hsim_err_t *e)
{
    *out = NULL;
    if (n == 0 || nf == 0)
        return hsim_errf(e, HSIM_EINPUT, "gbdt: no sample to train on");
    float *fx = hsim_malloc(n * nf * sizeof *fx), *fy = hsim_malloc(n * sizeof *fy);
    if (!fx || !fy) {
        hsim_free(fx);
        hsim_free(fy);
        return HSIM_ENOMEM;
    }
    double mean = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < nf; k++)
            fx[i * nf + k] = (float)X[i * nf + k];
        fy[i] = (float)y[i];
        mean += y[i];
    }
    mean /= (double)n;
    DMatrixHandle d = NULL;
    BoosterHandle b = NULL;
    int rc = 0;
    char v[64];
    if (XGDMatrixCreateFromMat(fx, n, nf, NAN, &d))
        rc = xgb_failed(e, "cannot hold the samples");
    else if (XGDMatrixSetFloatInfo(d, "label", fy, n) || XGBoosterCreate(&d, 1, &b))
        rc = xgb_failed(e, "cannot start");
    const struct {
        const char *key;
        double value;
        int integer;
    } params[] = {
        {"max_depth", p->max_depth, 1}, {"eta", p->eta, 0}, {"subsample", p->subsample, 0},
        {"seed", (double)(p->seed % 2147483647u), 1}, {"nthread", p->threads, 1},
        {"base_score", p->robust > 0 ? 0 : mean, 0},
    };
    if (rc == 0 && (XGBoosterSetParam(b, "objective", "reg:squarederror") ||
                    XGBoosterSetParam(b, "tree_method", "hist") ||
                    XGBoosterSetParam(b, "verbosity", "0")))
        rc = xgb_failed(e, "refused a parameter");
    for (size_t i = 0; rc == 0 && i < sizeof params / sizeof params[0]; i++) {
        if (params[i].integer)
            snprintf(v, sizeof v, "%lld", (long long)params[i].value);
        else
            snprintf(v, sizeof v, "%.17g", params[i].value);
        if (XGBoosterSetParam(b, params[i].key, v))
            rc = xgb_failed(e, "refused a parameter");
    }
    float *grad = NULL, *hess = NULL;
    if (rc == 0 && p->robust > 0 && (!(grad = hsim_malloc(n * sizeof *grad)) ||
                                     !(hess = hsim_malloc(n * sizeof *hess))))
        rc = HSIM_ENOMEM;
    for (int it = 0; rc == 0 && it < p->rounds; it++) {
        if (p->robust <= 0) {
            if (XGBoosterUpdateOneIter(b, it, d))
                rc = xgb_failed(e, "failed to train");
            continue;
        }
        /* Welsch's loss: gradient d w, and w as the curvature (its own,
           w (1 - d^2 / s^2), is negative far out) */
        bst_ulong len = 0;
        const float *pred = NULL;
        if (XGBoosterPredict(b, d, 0, 0, 1, &len, &pred) || len != n) {
            rc = xgb_failed(e, "cannot predict");
            break;
        }
        double s2 = p->robust * p->robust;
        for (size_t i = 0; i < n; i++) {
            double dd = (double)pred[i] - y[i], w = exp(-dd * dd / (2 * s2));
            if (dd < 0 && p->under_weight > 1)
                w *= p->under_weight;
            grad[i] = (float)(dd * w);
            hess[i] = (float)(w + 1e-6);
        }
        if (XGBoosterBoostOneIter(b, d, grad, hess, n))
            rc = xgb_failed(e, "failed to train");
    }
    hsim_free(grad);
    hsim_free(hess);
    bst_ulong n_trees = 0;
    const char **dump = NULL;
    if (rc == 0 && XGBoosterDumpModelEx(b, "", 0, "text", &n_trees, &dump))
        rc = xgb_failed(e, "cannot dump its trees");
    size_t total = 0;
    for (bst_ulong t = 0; rc == 0 && t < n_trees; t++) {
        size_t c;
        if (parse_tree(dump[t], NULL, 0, &c))
            rc = hsim_errf(e, HSIM_ERUN, "gbdt: XGBoost's tree %llu cannot be read",
                           (unsigned long long)t);
        total += c;
    }
    hsim_gbdt_t *m = rc == 0 ? model_new(nf, n_trees, total) : NULL;
    if (rc == 0 && !m)
        rc = HSIM_ENOMEM;
    for (size_t t = 0, at = 0; rc == 0 && t < n_trees; t++) {
        size_t c;
        m->root[t] = at;
        parse_tree(dump[t], m->nodes, at, &c);
        at += c;
    }
    if (m)
        m->base = p->robust > 0 ? 0 : mean;
    if (b)
        XGBoosterFree(b);
    if (d)
        XGDMatrixFree(d);
    hsim_free(fx);
    hsim_free(fy);
    if (rc)
        hsim_gbdt_free(m);
    else
        *out = m;
    return rc;
}

/* ---- hsim's file format ---- */

int hsim_gbdt_save(const hsim_gbdt_t *m, const char *path, hsim_err_t *e)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path, strerror(errno));
    fprintf(f, "hsim-gbdt %d\nfeatures %zu\nbase %.17g\ntrees %zu\nnodes %zu\n",
            HSIM_MODEL_VERSION, m->nf, m->base, m->n_trees, m->n_nodes);
    for (size_t t = 0; t < m->n_trees; t++)
        fprintf(f, "%zu%c", m->root[t], t + 1 < m->n_trees ? ' ' : '\n');
    for (size_t i = 0; i < m->n_nodes; i++) {
        const node_t *n = &m->nodes[i];
        if (n->feature < 0)
            fprintf(f, "L %.9g\n", n->value);
        else
            fprintf(f, "S %d %.9g %d %d %d\n", n->feature, n->threshold, n->yes, n->no,
                    n->missing);
    }
    int bad = ferror(f);
    if (fclose(f) || bad)
        return hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path, strerror(errno));
    return 0;
}

int hsim_gbdt_load(const char *path, hsim_gbdt_t **out, hsim_err_t *e)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return hsim_errf(e, HSIM_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t nf = 0, nt = 0, nn = 0;
    double base = 0;
    int line = 1, rc = 0;
    if (hsim_model_header(f, path, "hsim-gbdt", "gbdt", e))
        rc = HSIM_EINPUT; /* e says why */
    else if (line = 2, fscanf(f, "features %zu ", &nf) != 1 || nf == 0 || nf > 4096)
        rc = hsim_errf(e, HSIM_EINPUT, "%s:2: expected 'features N', N in 1..4096", path);
    else if (line = 3, fscanf(f, "base %lf ", &base) != 1 || !isfinite(base))
        rc = hsim_errf(e, HSIM_EINPUT, "%s:3: expected 'base X', a finite number", path);
    else if (line = 4, fscanf(f, "trees %zu ", &nt) != 1 || nt > 1000000)
        rc = hsim_errf(e, HSIM_EINPUT, "%s:4: expected 'trees N', N in 0..1000000", path);
    else if (line = 5, fscanf(f, "nodes %zu ", &nn) != 1 || nn > 100000000 || (nt && !nn))
        rc = hsim_errf(e, HSIM_EINPUT, "%s:5: expected 'nodes N', N in 1..100000000", path);
    /* a root or a node takes 2 bytes at least ("0 ", "L0"): a file too
       short for them is truncated, and allocating for it first would let
       60 bytes ask for 2.4 GB */
    struct stat st;
    if (rc == 0 && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size / 2 < nt + nn)
        rc = hsim_errf(e, HSIM_EINPUT, "%s:6: expected %zu tree roots and %zu nodes, found a file "
                       "of %lld bytes (a truncated file?)", path, nt, nn, (long long)st.st_size);
    hsim_gbdt_t *m = rc == 0 ? model_new(nf, nt, nn) : NULL;
    if (rc == 0 && !m)
        rc = HSIM_ENOMEM;
    if (m)
        m->base = base;
    for (size_t t = 0; rc == 0 && t < nt; t++)
        if (fscanf(f, "%zu", &m->root[t]) != 1 || m->root[t] >= nn)
            rc = hsim_errf(e, HSIM_EINPUT, "%s:6: expected %zu tree roots below %zu", path, nt,
                           nn);
    for (size_t i = 0; rc == 0 && i < nn; i++) {
        node_t *n = &m->nodes[i];
        char kind[2];
        int fe = 0, ok;
        long long yes = 0, no = 0, miss = 0;
        if ((ok = fscanf(f, " %1s", kind)) == 1 && kind[0] == 'L') {
            n->feature = -1;
            ok = fscanf(f, "%g", &n->value) == 1 && isfinite(n->value);
        } else if (ok == 1 && kind[0] == 'S') {
            ok = fscanf(f, "%d %g %lld %lld %lld", &fe, &n->threshold, &yes, &no, &miss) == 5 &&
                 fe >= 0 && (size_t)fe < nf && yes >= 0 && no >= 0 && miss >= 0 &&
                 (size_t)yes < nn && (size_t)no < nn && (size_t)miss < nn &&
                 (size_t)yes > i && (size_t)no > i && (size_t)miss > i; /* children after:
                                                                            no cycle */
            n->feature = fe;
            n->yes = (int32_t)yes, n->no = (int32_t)no, n->missing = (int32_t)miss;
        } else {
            ok = 0;
        }
        if (!ok)
            rc = hsim_errf(e, HSIM_EINPUT, "%s:%zu: expected a node 'L value' or 'S feature "
                                           "threshold yes no missing' (children after it)",
                           path, i + 7);
    }
    (void)line;
    fclose(f);
    if (rc)
        hsim_gbdt_free(m);
    else
        *out = m;
    return rc;
}

/* ---- the gbdt model kind (trained.h) ---- */

#ifndef HSIM_GBDT_ROBUST
#define HSIM_GBDT_ROBUST 0.35 /* Welsch's s, in log(1 + seconds) */
#endif

static int kind_train(const double *X, const double *y, size_t n, double under_weight,
                      uint64_t seed, void **model, hsim_err_t *e)
{
    hsim_gbdt_params_t p = hsim_gbdt_defaults();
    p.seed = seed;
    p.robust = HSIM_GBDT_ROBUST;
    p.under_weight = under_weight;
    hsim_gbdt_t *m = NULL;
    /* the trees learn what to add to the baseline feature */
    double *r = hsim_malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < n; i++)
        r[i] = y[i] - X[i * HSIM_FEATURES + HSIM_BASELINE];
    int rc = hsim_gbdt_train(X, r, n, HSIM_FEATURES, &p, &m, e);
    hsim_free(r);
    *model = rc ? NULL : m;
    return rc;
}

static double kind_eval(void *model, const double *x)
{
    return x[HSIM_BASELINE] + hsim_gbdt_eval(model, x);
}
static void kind_free(void *model) { hsim_gbdt_free(model); }
static int kind_save(const void *model, const char *path, hsim_err_t *e)
{
    return hsim_gbdt_save(model, path, e);
}
static int kind_load(const char *path, void **model, hsim_err_t *e)
{
    hsim_gbdt_t *m;
    int rc = hsim_gbdt_load(path, &m, e);
    if (rc == 0 && hsim_gbdt_features(m) != HSIM_FEATURES) {
        size_t nf = hsim_gbdt_features(m);
        hsim_gbdt_free(m);
        return hsim_errf(e, HSIM_EINPUT, "%s:2: a model of %zu features: expected %d (a model "
                         "of another hsim version?)", path, nf, HSIM_FEATURES);
    }
    *model = rc ? NULL : m;
    return rc;
}

const hsim_model_kind_t hsim_model_gbdt = {
    .name = "gbdt",
    .inputs = HSIM_FEATURES,
    .input = hsim_history_features,
    .train = kind_train,
    .eval = kind_eval,
    .free = kind_free,
    .save = kind_save,
    .load = kind_load,
};
