/*
 * search.c - the window, the list-scheduling plan and the pass that the
 * search orders share.  See search.h.
 */
#include "search.h"

#include "queue.h"
#include "registry.h"

#include <stdlib.h>
#include <string.h>

int hsim_search_init(hsim_search_t *s, const hsim_order_ctx_t *c, const char *me,
                     const hsim_param_def_t *defs)
{
    memset(s, 0, sizeof *s);
    if (hsim_scores_init(&s->s, c->n_jobs))
        return HSIM_ENOMEM;
    s->base = hsim_order_find(hsim_param_text(c->values, me, defs, "base"));
    HSIM_ASSERT(s->base && !s->base->create); /* checked by the INI reader */
    s->window = (size_t)hsim_param_num(c->values, me, defs, "window");
    s->evaluations = (long)hsim_param_num(c->values, me, defs, "evaluations");
    s->plan.objective = (int)hsim_param_num(c->values, me, defs, "objective");
    s->rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!s->rng) {
        hsim_scores_free(&s->s);
        return HSIM_ENOMEM;
    }
    gsl_rng_set(s->rng, (unsigned long)c->seed);
    return 0;
}

void hsim_search_free(hsim_search_t *s)
{
    hsim_scores_free(&s->s);
    if (s->rng)
        gsl_rng_free(s->rng);
    hsim_free(s->plan.rel_at);
    hsim_free(s->plan.rel_procs);
    hsim_free(s->plan.heap_at);
    hsim_free(s->plan.heap_procs);
    hsim_free(s->ids);
}

/* Min-heap of (at, procs) by at, in p's scratch arrays. */
static void heap_push(hsim_search_plan_t *p, size_t *n, hsim_time_t at, int32_t procs)
{
    size_t i = (*n)++;
    while (i > 0 && p->heap_at[(i - 1) / 2] > at) {
        p->heap_at[i] = p->heap_at[(i - 1) / 2];
        p->heap_procs[i] = p->heap_procs[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    p->heap_at[i] = at;
    p->heap_procs[i] = procs;
}

static void heap_pop(hsim_search_plan_t *p, size_t *n)
{
    hsim_time_t at = p->heap_at[--*n];
    int32_t procs = p->heap_procs[*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && p->heap_at[c + 1] < p->heap_at[c])
            c++;
        if (p->heap_at[c] >= at)
            break;
        p->heap_at[i] = p->heap_at[c];
        p->heap_procs[i] = p->heap_procs[c];
        i = c;
    }
    p->heap_at[i] = at;
    p->heap_procs[i] = procs;
}

double hsim_search_cost(hsim_search_plan_t *p, const int32_t *perm, size_t k)
{
    hsim_time_t t = p->now;
    hsim_time_t last_end = t;
    int32_t free = p->free_now;
    size_t r = 0, nh = 0;
    double sum = 0;
    for (size_t i = 0; i < k; i++) {
        const hsim_vjob_t *j = &p->jobs[perm[i]];
        while (free < j->procs) { /* the next end, running or planned */
            int from_heap = nh && (r == p->n_rel || p->heap_at[0] < p->rel_at[r]);
            HSIM_ASSERT(from_heap || r < p->n_rel);
            if (from_heap) {
                t = p->heap_at[0] > t ? p->heap_at[0] : t;
                free += p->heap_procs[0];
                heap_pop(p, &nh);
            } else {
                t = p->rel_at[r] > t ? p->rel_at[r] : t;
                free += p->rel_procs[r++];
            }
        }
        free -= j->procs;
        hsim_time_t end = t + j->estimate;
        heap_push(p, &nh, end, j->procs);
        if (end > last_end)
            last_end = end;
        double wait = (double)(t > j->submit ? t - j->submit : 0) / HSIM_SECOND;
        double run = (double)j->estimate / HSIM_SECOND;
        if (p->objective == HSIM_OBJ_BSLD) {
            double b = (wait + run) / (run > 10 ? run : 10);
            sum += b > 1 ? b : 1;
        } else {
            sum += wait;
        }
    }
    if (p->objective == HSIM_OBJ_MAKESPAN)
        return (double)(last_end - p->now) / HSIM_SECOND;
    return k ? sum / (double)k : 0;
}

/* by (est_end, procs) for qsort: the running jobs' ends. */
static int by_end(const void *x, const void *y)
{
    const hsim_running_t *a = x, *b = y;
    return (a->est_end > b->est_end) - (a->est_end < b->est_end);
}

/* The plan's fixed part from the view: the processors free now and the
   running jobs' ends after now, ascending.  0 or HSIM_ENOMEM. */
static int plan_from_view(hsim_search_plan_t *p, const hsim_view_t *v, size_t k)
{
    p->now = v->now;
    p->capacity = v->capacity;
    p->jobs = v->jobs;
    p->free_now = hsim_view_free_now(v);
    hsim_running_t *tmp = hsim_malloc((v->n_running + 1) * sizeof *tmp);
    size_t cap = p->cap_rel;
    if (!tmp || hsim_grow(&p->rel_at, &cap, v->n_running + 1, sizeof *p->rel_at) ||
        hsim_grow(&p->rel_procs, &p->cap_rel, v->n_running + 1, sizeof *p->rel_procs)) {
        hsim_free(tmp);
        return HSIM_ENOMEM;
    }
    size_t n = 0;
    for (size_t i = 0; i < v->n_running; i++)
        if (v->running[i].job >= 0 && v->running[i].est_end > v->now)
            tmp[n++] = v->running[i];
    qsort(tmp, n, sizeof *tmp, by_end); /* stable enough: only times matter */
    for (size_t i = 0; i < n; i++) {
        p->rel_at[i] = tmp[i].est_end;
        p->rel_procs[i] = tmp[i].procs;
    }
    p->n_rel = n;
    hsim_free(tmp);
    cap = p->cap_heap;
    if (hsim_grow(&p->heap_at, &cap, k + 1, sizeof *p->heap_at) ||
        hsim_grow(&p->heap_procs, &p->cap_heap, k + 1, sizeof *p->heap_procs))
        return HSIM_ENOMEM;
    return 0;
}

int hsim_search_pass(hsim_search_t *s, void *state, const hsim_view_t *v, hsim_search_fn *fn)
{
    size_t n = 0;
    int rc = hsim_waiting_sorted(v, s->base, NULL, &s->ids, &s->cap_ids, &n);
    if (rc)
        return rc;
    size_t k = n < s->window ? n : s->window;
    if (rc == 0 && k > 1 && (rc = plan_from_view(&s->plan, v, k)) == 0)
        rc = fn(s, state, s->ids, k);
    for (size_t i = 0; i < n; i++)
        s->s.score[s->ids[i]] = -(double)i; /* the first, the highest */
    return rc;
}
