/*
 * ref.c - the reference schedulers (ref.h), brute force.  They read the
 * view afresh at every call and keep nothing between passes but
 * conservative's reservations, so what they compute depends only on what
 * DESIGN.md says, not on any cache or index of the real schedulers.
 * Allocations go through malloc(), not hsim's wrapper: a test that injects
 * allocation failures into hsim never fails a reference.
 */
#include "ref.h"

#include <stdlib.h>
#include <string.h>

/* The live waiting jobs of v, sorted by order (insertion sort). */
static size_t waiting_sorted(const hsim_view_t *v, const hsim_order_t *o, const void *st,
                             int32_t *ids)
{
    size_t n = 0;
    for (size_t i = 0; i < v->n_waiting; i++) {
        int32_t j = v->waiting[i];
        if (j < 0)
            continue;
        size_t k = n++;
        while (k > 0 && o->compare(st, v->jobs, j, ids[k - 1], v->now) < 0) {
            ids[k] = ids[k - 1];
            k--;
        }
        ids[k] = j;
    }
    return n;
}

typedef struct ref {
    const hsim_order_t *order, *bf_order;
    const void *order_state, *bf_state;
    int32_t capacity;
    size_t n_jobs;
    hsim_time_t *at;   /* conservative: reservation, -1 none */
    int32_t *ids, *ids2;
} ref_t;

static int ref_create(const hsim_policy_params_t *p, void **state)
{
    ref_t *r = calloc(1, sizeof *r);
    r->order = p->order;
    r->bf_order = p->backfill_order;
    r->order_state = p->order_state;
    r->bf_state = p->backfill_order_state;
    r->capacity = p->capacity;
    r->n_jobs = p->n_jobs;
    r->at = malloc((p->n_jobs + 1) * sizeof *r->at);
    r->ids = malloc((p->n_jobs + 1) * sizeof *r->ids);
    r->ids2 = malloc((p->n_jobs + 1) * sizeof *r->ids2);
    for (size_t i = 0; i < p->n_jobs; i++)
        r->at[i] = -1;
    *state = r;
    return 0;
}

static void ref_destroy(void *state)
{
    ref_t *r = state;
    free(r->at);
    free(r->ids);
    free(r->ids2);
    free(r);
}

/* Shadow time and extra processors for a head of need processors, from
   scratch: walks the running jobs' estimated ends. */
static void ref_shadow(const hsim_view_t *v, int32_t need, hsim_time_t *shadow,
                       int32_t *extra)
{
    int32_t avail = hsim_view_free_now(v);
    for (size_t i = 0; i < v->n_running; i++) {
        hsim_time_t t = v->running[i].est_end;
        if (t <= v->now)
            continue;
        avail += v->running[i].procs;
        if (i + 1 < v->n_running && v->running[i + 1].est_end == t)
            continue;
        if (avail >= need) {
            *shadow = t;
            *extra = avail - need;
            return;
        }
    }
    *shadow = HSIM_TIME_MAX;
    *extra = 0;
}

static int ref_easy_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    ref_t *r = state;
    size_t n = waiting_sorted(v, r->order, r->order_state, r->ids);
    size_t h = 0;
    while (h < n && v->jobs[r->ids[h]].procs <= hsim_view_free_now(v)) {
        int rc = d->start(d->ctx, r->ids[h++]);
        if (rc)
            return rc;
    }
    if (h + 1 >= n)
        return 0;
    int32_t head = r->ids[h];
    /* candidates: the rest, in backfilling order */
    size_t m = 0;
    for (size_t k = h + 1; k < n; k++)
        r->ids2[m++] = r->ids[k];
    if (r->bf_order) /* stable: ties keep queue order */
        for (size_t k = 1; k < m; k++) {
            int32_t j = r->ids2[k];
            size_t q = k;
            while (q > 0 && r->bf_order->compare(r->bf_state, v->jobs, j, r->ids2[q - 1], v->now) < 0) {
                r->ids2[q] = r->ids2[q - 1];
                q--;
            }
            r->ids2[q] = j;
        }
    for (size_t k = 0; k < m; k++) {
        hsim_time_t shadow;
        int32_t extra;
        ref_shadow(v, v->jobs[head].procs, &shadow, &extra); /* recomputed */
        const hsim_vjob_t *j = &v->jobs[r->ids2[k]];
        if (j->procs > hsim_view_free_now(v))
            continue;
        if (v->now + j->estimate <= shadow || j->procs <= extra) {
            int rc = d->start(d->ctx, r->ids2[k]);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* No backfilling: the jobs in queue order while they fit. */
static int ref_none_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    ref_t *r = state;
    size_t n = waiting_sorted(v, r->order, r->order_state, r->ids);
    for (size_t h = 0; h < n && v->jobs[r->ids[h]].procs <= hsim_view_free_now(v); h++) {
        int rc = d->start(d->ctx, r->ids[h]);
        if (rc)
            return rc;
    }
    return 0;
}

/*
 * Conservative, brute force: for each placement the usage profile is
 * rebuilt from the running jobs (until their estimated end) and every other
 * reservation, and the earliest fit is found by trying each step start in
 * turn and checking every step the job would cover.  O(steps^2).
 */
typedef struct ref_ev {
    hsim_time_t t;
    int32_t d;
} ref_ev_t;

static int ref_ev_cmp(const void *a, const void *b)
{
    const ref_ev_t *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

static hsim_time_t ref_earliest(const ref_t *r, const hsim_view_t *v, int32_t job)
{
    size_t cap_ev = 2 * (v->n_running + v->n_waiting) + 2, n = 0;
    ref_ev_t *ev = malloc(cap_ev * sizeof *ev);
    hsim_time_t *st = malloc(cap_ev * sizeof *st);
    int32_t *used = malloc(cap_ev * sizeof *used);
    for (size_t i = 0; i < v->n_running; i++)
        if (v->running[i].est_end > v->now) {
            ev[n++] = (ref_ev_t){v->now, v->running[i].procs};
            ev[n++] = (ref_ev_t){v->running[i].est_end, -v->running[i].procs};
        }
    for (size_t i = 0; i < v->n_waiting; i++) {
        int32_t k = v->waiting[i];
        if (k < 0 || k == job || r->at[k] < 0)
            continue;
        HSIM_ASSERT(r->at[k] >= v->now);
        ev[n++] = (ref_ev_t){r->at[k], v->jobs[k].procs};
        ev[n++] = (ref_ev_t){r->at[k] + v->jobs[k].estimate, -v->jobs[k].procs};
    }
    qsort(ev, n, sizeof *ev, ref_ev_cmp);
    /* steps: st[s] starts a step of usage used[s]; the last one lasts */
    size_t ns = 0;
    int32_t u = 0;
    st[ns] = v->now;
    used[ns++] = 0;
    for (size_t i = 0; i < n;) {
        hsim_time_t t = ev[i].t;
        while (i < n && ev[i].t == t)
            u += ev[i++].d;
        if (t == st[ns - 1])
            used[ns - 1] = u;
        else {
            st[ns] = t;
            used[ns++] = u;
        }
    }
    HSIM_ASSERT(u == 0);
    const hsim_vjob_t *j = &v->jobs[job];
    hsim_time_t best = HSIM_TIME_MAX;
    for (size_t c = 0; c < ns && best == HSIM_TIME_MAX; c++) {
        int ok = 1;
        for (size_t s2 = c; s2 < ns && st[s2] < st[c] + j->estimate; s2++)
            if (used[s2] + j->procs > r->capacity)
                ok = 0;
        if (ok)
            best = st[c];
    }
    free(ev);
    free(st);
    free(used);
    HSIM_ASSERT(best != HSIM_TIME_MAX);
    return best;
}

static int ref_cons_submitted(void *state, const hsim_view_t *v, int32_t job,
                              const hsim_decide_t *d)
{
    ref_t *r = state;
    if (r->order->time_dependent)
        return 0; /* planned again by the pass */
    hsim_time_t t = ref_earliest(r, v, job);
    r->at[job] = t;
    return d->reserve(d->ctx, job, t);
}

static int ref_cons_ended(void *state, const hsim_view_t *v, int32_t job, hsim_time_t start,
                          hsim_time_t est_end, const hsim_decide_t *d)
{
    (void)job;
    (void)start;
    (void)est_end;
    ref_t *r = state;
    if (r->order->time_dependent)
        return 0; /* planned again by the pass */
    size_t n = waiting_sorted(v, r->order, r->order_state, r->ids);
    for (size_t k = 0; k < n; k++) {
        int32_t w = r->ids[k];
        if (r->at[w] <= v->now)
            continue; /* due now: fixed */
        hsim_time_t t = ref_earliest(r, v, w);
        HSIM_ASSERT(t <= r->at[w]);
        if (t < r->at[w]) {
            r->at[w] = t;
            int rc = d->reserve(d->ctx, w, t);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* Under a time-dependent order the plan is made again at every pass: each
   waiting job, in the order as it stands now, at its earliest fit beside
   the running jobs and those placed before it. */
static int ref_cons_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    ref_t *r = state;
    if (!r->order->time_dependent)
        return 0;
    size_t n = waiting_sorted(v, r->order, r->order_state, r->ids);
    for (size_t k = 0; k < n; k++)
        r->at[r->ids[k]] = -1;
    for (size_t k = 0; k < n; k++) {
        int32_t w = r->ids[k];
        r->at[w] = ref_earliest(r, v, w);
        int rc = d->reserve(d->ctx, w, r->at[w]);
        if (rc)
            return rc;
    }
    return 0;
}

const hsim_scheduler_t hsim_ref_none = {
    .name = "ref-none", .create = ref_create, .destroy = ref_destroy,
    .schedule = ref_none_schedule,
};

const hsim_scheduler_t hsim_ref_easy = {
    .name = "ref-easy", .create = ref_create, .destroy = ref_destroy,
    .schedule = ref_easy_schedule,
};

const hsim_scheduler_t hsim_ref_conservative = {
    .name = "ref-conservative", .create = ref_create, .destroy = ref_destroy,
    .submitted = ref_cons_submitted, .ended = ref_cons_ended, .schedule = ref_cons_schedule,
};

const hsim_scheduler_t *hsim_ref_for(const hsim_scheduler_t *s)
{
    static const struct {
        const char *name;
        const hsim_scheduler_t *ref;
    } refs[] = {
        {"none", &hsim_ref_none},
        {"easy", &hsim_ref_easy},
        {"conservative", &hsim_ref_conservative},
    };
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++)
        if (!strcmp(s->name, refs[i].name))
            return refs[i].ref;
    return NULL;
}

void hsim_ref_fcfs(const hsim_workload_t *w, int32_t cap, hsim_outcome_t *out)
{
    for (size_t i = 0; i < w->n_jobs; i++) {
        const hsim_job_t *j = &w->jobs[i];
        hsim_time_t lo = j->submit;
        if (i && out[i - 1].start > lo)
            lo = out[i - 1].start;
        hsim_time_t best = HSIM_TIME_MAX;
        for (size_t c = 0; c <= i; c++) {
            hsim_time_t t = c == i ? lo : out[c].end;
            if (t < lo || t >= best)
                continue;
            int32_t used = 0;
            for (size_t k = 0; k < i; k++)
                if (out[k].start <= t && t < out[k].end)
                    used += w->jobs[k].procs;
            if (used + j->procs <= cap)
                best = t;
        }
        hsim_time_t ran = j->runtime < j->estimate ? j->runtime : j->estimate;
        out[i].start = best;
        out[i].end = best + ran;
        out[i].fate = j->runtime > j->estimate ? HSIM_FATE_KILLED : HSIM_FATE_RAN;
    }
}
