/*
 * order_ga.c - a genetic algorithm over the order of the first K waiting
 * jobs (search.h).  A population of orders, the starting one among them
 * and the rest its random shuffles, evolves by tournament selection (two
 * drawn, the better kept), order crossover (a slice of one parent, the
 * rest in the other's order) and swap mutation; the best order is always
 * kept (elitism).  Every new order costs one plan: the budget is the
 * number of orders evaluated.
 */
#include "search.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

static const hsim_param_def_t ga_params[] = {
    HSIM_SEARCH_PARAMS,
    {"population", HSIM_PARAM_INT, 20, 2, 1000, NULL, "orders in the population"},
    {"mutation", HSIM_PARAM_REAL, 0.3, 0, 1, NULL, "chance that a child gets one swap"},
    {NULL, 0, 0, 0, 0, NULL, NULL},
};

typedef struct ga {
    hsim_search_t x; /* first: its scores come first */
    size_t pop;
    double mutation;
    int32_t *genes;  /* pop x K orders, then pop x K children */
    double *cost;    /* pop, then pop */
    uint8_t *seen;   /* by position: used in crossover */
    size_t cap_genes, cap_cost, cap_seen;
} ga_t;

static void ga_destroy(void *state)
{
    ga_t *g = state;
    hsim_search_free(&g->x);
    hsim_free(g->genes);
    hsim_free(g->cost);
    hsim_free(g->seen);
    hsim_free(g);
}

static int ga_create(const hsim_order_ctx_t *c, void **state)
{
    ga_t *g = hsim_calloc(1, sizeof *g);
    if (!g)
        return HSIM_ENOMEM;
    if (hsim_search_init(&g->x, c, "ga", ga_params)) {
        hsim_free(g);
        return HSIM_ENOMEM;
    }
    g->pop = (size_t)hsim_param_num(c->values, "ga", ga_params, "population");
    g->mutation = hsim_param_num(c->values, "ga", ga_params, "mutation");
    *state = g;
    return 0;
}

/* The better of two drawn members of the population. */
static size_t tournament(ga_t *g)
{
    size_t a = gsl_rng_uniform_int(g->x.rng, g->pop), b = gsl_rng_uniform_int(g->x.rng, g->pop);
    if (g->cost[b] != g->cost[a])
        return g->cost[b] < g->cost[a] ? b : a;
    return b < a ? b : a;
}

/* Order crossover: child = p[lo, hi) in place, the rest of q's genes in
   q's order around it.  Genes are positions 0..k-1. */
static void crossover(ga_t *g, const int32_t *p, const int32_t *q, int32_t *child, size_t k)
{
    size_t lo = gsl_rng_uniform_int(g->x.rng, k), hi = gsl_rng_uniform_int(g->x.rng, k);
    if (lo > hi) {
        size_t t = lo;
        lo = hi;
        hi = t;
    }
    hi++;
    memset(g->seen, 0, k);
    for (size_t i = lo; i < hi; i++) {
        child[i] = p[i];
        g->seen[p[i]] = 1;
    }
    size_t w = hi % k;
    for (size_t i = 0; i < k; i++) {
        int32_t gene = q[(hi + i) % k];
        if (g->seen[gene])
            continue;
        child[w] = gene;
        w = (w + 1) % k;
    }
}

/* The ids of perm in the order of the genes (positions) into out. */
static void decode(const int32_t *genes, const int32_t *perm, int32_t *out, size_t k)
{
    for (size_t i = 0; i < k; i++)
        out[i] = perm[genes[i]];
}

/* The member of the lowest cost among the pop from cost (ties: the
   first). */
static size_t fittest(const double *cost, size_t pop)
{
    size_t best = 0;
    for (size_t m = 1; m < pop; m++)
        if (cost[m] < cost[best])
            best = m;
    return best;
}

static int evolve(hsim_search_t *x, void *state, int32_t *perm, size_t k)
{
    ga_t *g = state;
    size_t pop = g->pop;
    if (hsim_grow(&g->genes, &g->cap_genes, 2 * pop * k + k, sizeof *g->genes) ||
        hsim_grow(&g->cost, &g->cap_cost, 2 * pop, sizeof *g->cost) ||
        hsim_grow(&g->seen, &g->cap_seen, k, 1))
        return HSIM_ENOMEM;
    int32_t *now = g->genes, *next = g->genes + pop * k, *tmp = g->genes + 2 * pop * k;
    long evals = 0;
    for (size_t m = 0; m < pop; m++) { /* the start, then its shuffles */
        int32_t *o = now + m * k;
        for (size_t i = 0; i < k; i++)
            o[i] = (int32_t)i;
        if (m > 0)
            gsl_ran_shuffle(x->rng, o, k, sizeof *o);
        decode(o, perm, tmp, k);
        g->cost[m] = evals++ < x->evaluations ? hsim_search_cost(&x->plan, tmp, k) : HUGE_VAL;
    }
    while (evals < x->evaluations) {
        size_t best = fittest(g->cost, pop);
        memcpy(next, now + best * k, k * sizeof *next); /* elitism */
        g->cost[pop] = g->cost[best];
        for (size_t m = 1; m < pop; m++) {
            int32_t *child = next + m * k;
            if (evals >= x->evaluations) { /* the budget ran out: kept as is */
                memcpy(child, now + m * k, k * sizeof *child);
                g->cost[pop + m] = g->cost[m];
                continue;
            }
            crossover(g, now + tournament(g) * k, now + tournament(g) * k, child, k);
            if (gsl_rng_uniform(x->rng) < g->mutation) {
                size_t i = gsl_rng_uniform_int(x->rng, k), j = gsl_rng_uniform_int(x->rng, k);
                int32_t t = child[i];
                child[i] = child[j];
                child[j] = t;
            }
            decode(child, perm, tmp, k);
            g->cost[pop + m] = hsim_search_cost(&x->plan, tmp, k);
            evals++;
        }
        int32_t *t = now;
        now = next;
        next = t;
        memmove(g->cost, g->cost + pop, pop * sizeof *g->cost);
    }
    decode(now + fittest(g->cost, pop) * k, perm, tmp, k);
    memcpy(perm, tmp, k * sizeof *perm);
    return 0;
}

static int ga_pass(void *state, const hsim_view_t *v)
{
    ga_t *g = state;
    return hsim_search_pass(&g->x, g, v, evolve);
}

const hsim_order_t hsim_order_ga = {
    .name = "ga",
    .summary = "genetic algorithm over the first K waiting jobs' order, on a plan of their "
               "estimates",
    .params = ga_params,
    .time_dependent = 1,
    .draws_random = 1,
    .compare = hsim_scores_compare,
    .create = ga_create,
    .destroy = ga_destroy,
    .grow = hsim_scores_grow,
    .pass = ga_pass,
};
