/*
 * order_sa.c - simulated annealing over the order of the first K waiting
 * jobs (search.h).  A step swaps two jobs of the window; a worse order is
 * accepted with probability exp(-(worse by) / T).  T starts at
 * temperature x the starting order's cost and is multiplied by cooling
 * at each step; the best order seen is kept.  One plan per step: the
 * budget is the number of steps.
 */
#include "search.h"

#include <math.h>
#include <string.h>

static const hsim_param_def_t sa_params[] = {
    HSIM_SEARCH_PARAMS,
    {"temperature", HSIM_PARAM_REAL, 0.05, 0, 100, NULL,
     "the first temperature, as a fraction of the starting order's cost"},
    {"cooling", HSIM_PARAM_REAL, 0.99, 0.5, 1, NULL, "the temperature's factor per step"},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

typedef struct sa {
    hsim_search_t x; /* first: its scores come first */
    double temperature, cooling;
    int32_t *cur, *best;
    size_t cap;
} sa_t;

static void sa_destroy(void *state)
{
    sa_t *a = state;
    hsim_search_free(&a->x);
    hsim_free(a->cur);
    hsim_free(a->best);
    hsim_free(a);
}

static int sa_create(const hsim_order_ctx_t *c, void **state)
{
    sa_t *a = hsim_calloc(1, sizeof *a);
    if (!a)
        return HSIM_ENOMEM;
    if (hsim_search_init(&a->x, c, "sa", sa_params)) {
        hsim_free(a);
        return HSIM_ENOMEM;
    }
    a->temperature = hsim_param_num(c->values, "sa", sa_params, "temperature");
    a->cooling = hsim_param_num(c->values, "sa", sa_params, "cooling");
    *state = a;
    return 0;
}

static int anneal(hsim_search_t *x, void *state, int32_t *perm, size_t k)
{
    sa_t *a = state;
    size_t cap = a->cap;
    if (hsim_grow(&a->cur, &cap, k, sizeof *a->cur) ||
        hsim_grow(&a->best, &a->cap, k, sizeof *a->best))
        return HSIM_ENOMEM;
    memcpy(a->cur, perm, k * sizeof *perm);
    memcpy(a->best, perm, k * sizeof *perm);
    double cost = hsim_search_cost(&x->plan, perm, k), best = cost;
    double t = a->temperature * cost;
    for (long e = 1; e < x->evaluations; e++, t *= a->cooling) {
        size_t i = gsl_rng_uniform_int(x->rng, k), j = gsl_rng_uniform_int(x->rng, k - 1);
        j += j >= i; /* another position */
        int32_t tmp = a->cur[i];
        a->cur[i] = a->cur[j];
        a->cur[j] = tmp;
        double c = hsim_search_cost(&x->plan, a->cur, k);
        double u = gsl_rng_uniform(x->rng); /* drawn at every step: the
                                               stream does not depend on
                                               the costs' rounding */
        if (c <= cost || (t > 0 && u < exp(-(c - cost) / t))) {
            cost = c;
            if (c < best) {
                best = c;
                memcpy(a->best, a->cur, k * sizeof *perm);
            }
        } else { /* undo */
            a->cur[j] = a->cur[i];
            a->cur[i] = tmp;
        }
    }
    memcpy(perm, a->best, k * sizeof *perm);
    return 0;
}

static int sa_pass(void *state, const hsim_view_t *v)
{
    sa_t *a = state;
    return hsim_search_pass(&a->x, a, v, anneal);
}

const hsim_order_t hsim_order_sa = {
    .name = "sa",
    .summary = "simulated annealing over the first K waiting jobs' order, on a plan of "
               "their estimates",
    .params = sa_params,
    .time_dependent = 1,
    .draws_random = 1,
    .compare = hsim_scores_compare,
    .create = sa_create,
    .destroy = sa_destroy,
    .grow = hsim_scores_grow,
    .pass = sa_pass,
};
