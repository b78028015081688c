/*
 * features.c - a job's features from its request and its user's history.
 * See features.h.
 */
#include "features.h"

#include "../sim/heap.h"
#include "../sim/idmap.h"
#include "../workloads/workload.h"

#include <math.h>
#include <string.h>

typedef struct past {
    double run_s, est_s, procs; /* seconds, seconds, processors */
    double hour, weekday;       /* of its submission */
} past_t;

typedef struct user_hist {
    int32_t user;
    int32_t running;            /* jobs running now */
    hsim_time_t last_start;     /* when its last job started, -1 none */
    int64_t finished;           /* jobs finished so far */
    size_t head;                /* next slot of last[] to write */
    past_t last[HSIM_HISTORY_K];/* the last finished, a ring */
} user_hist_t;

/* The runtimes of one user's jobs that asked for one time: the last
   HSIM_TYPICAL_K, sorted by runtime, and their typical runtime. */
typedef struct run {
    double run_s;
    int64_t seq;                /* the series' count when it finished */
} run_t;

typedef struct series {
    int32_t user;
    int used;
    hsim_time_t est;
    int64_t n;                  /* runtimes seen (the next one's seq) */
    size_t len, cap;            /* held in runs[], at most HSIM_TYPICAL_K */
    run_t *runs;                /* ascending runtime, then seq */
    double typical;             /* seconds, as of the last runtime */
} series_t;

struct hsim_history {
    hsim_idmap_t users;         /* users numbered as they come... */
    user_hist_t *user;          /* ...their histories by number */
    size_t user_cap;            /* room in user[] */
    series_t *series;           /* by user and request, open addressing, at
                                   most half full */
    size_t series_cap, n_series;
    double weight[HSIM_TYPICAL_K]; /* of the k-th most recent runtime */
    int64_t origin;             /* seconds to add to a submit time for local
                                   time since an epoch (a Thursday) */
};

int hsim_history_create(int64_t unix_start, int64_t time_zone, hsim_history_t **out)
{
    hsim_history_t *h = hsim_calloc(1, sizeof *h);
    if (!h)
        return HSIM_ENOMEM;
    h->series_cap = 64;
    h->series = hsim_calloc(h->series_cap, sizeof *h->series);
    if (!h->series) {
        hsim_history_free(h);
        return HSIM_ENOMEM;
    }
    for (size_t k = 0; k < HSIM_TYPICAL_K; k++)
        h->weight[k] = pow(HSIM_TYPICAL_RECENCY, (double)k) + HSIM_TYPICAL_FLOOR;
    h->origin = (unix_start == HSIM_HEADER_ABSENT ? 0 : unix_start) +
                (time_zone == HSIM_HEADER_ABSENT ? 0 : time_zone);
    *out = h;
    return 0;
}

void hsim_history_free(hsim_history_t *h)
{
    if (!h)
        return;
    for (size_t k = 0; h->series && k < h->series_cap; k++)
        hsim_free(h->series[k].runs);
    hsim_free(h->series);
    hsim_idmap_free(&h->users);
    hsim_free(h->user);
    hsim_free(h);
}

/* The user's record, made when new.  NULL when out of memory. */
static user_hist_t *user_of(hsim_history_t *h, int32_t user)
{
    size_t known = h->users.n;
    int32_t u;
    /* room first: a user numbered has its record */
    if (hsim_grow(&h->user, &h->user_cap, known + 1, sizeof *h->user) ||
        hsim_idmap_number(&h->users, user, &u))
        return NULL;
    if ((size_t)u == known)
        h->user[u] = (user_hist_t){.user = user, .last_start = -1};
    return &h->user[u];
}

static const user_hist_t *user_seen(const hsim_history_t *h, int32_t user)
{
    int32_t u = hsim_idmap_find(&h->users, user);
    return u < 0 ? NULL : &h->user[u];
}

static void clock_of(const hsim_history_t *h, hsim_time_t submit, double *hour, double *weekday)
{
    int64_t t = h->origin + submit / HSIM_SECOND;
    int64_t day = t >= 0 ? t / 86400 : (t - 86399) / 86400;
    *hour = (double)(t - day * 86400) / 3600.0;
    *weekday = (double)(((day + 4) % 7 + 7) % 7); /* 1970-01-01 was a Thursday: 0 = Sunday */
}

/* The k-th most recent finished job of u (k = 0 the last), or NULL. */
static const past_t *recent(const user_hist_t *u, size_t k)
{
    if (!u || k >= HSIM_HISTORY_K || (int64_t)k >= u->finished)
        return NULL;
    return &u->last[(u->head + HSIM_HISTORY_K - 1 - k) % HSIM_HISTORY_K];
}

static double lg(double x) { return log1p(x > 0 ? x : 0); }

static size_t series_slot(const series_t *table, size_t cap, int32_t user, hsim_time_t est)
{
    uint64_t x = ((uint64_t)(uint32_t)user * 0x9E3779B97F4A7C15ull) ^
                 ((uint64_t)est * 0xC2B2AE3D27D4EB4Full);
    size_t i = (size_t)(x >> 32) & (cap - 1);
    while (table[i].used && (table[i].user != user || table[i].est != est))
        i = (i + 1) & (cap - 1);
    return i;
}

/* The series of user's jobs that asked est, made when new.  NULL when out
   of memory. */
static series_t *series_of(hsim_history_t *h, int32_t user, hsim_time_t est)
{
    size_t i = series_slot(h->series, h->series_cap, user, est);
    if (h->series[i].used)
        return &h->series[i];
    if (2 * (h->n_series + 1) > h->series_cap) {
        size_t cap = 2 * h->series_cap;
        series_t *grown = hsim_calloc(cap, sizeof *grown);
        if (!grown)
            return NULL;
        for (size_t k = 0; k < h->series_cap; k++)
            if (h->series[k].used)
                grown[series_slot(grown, cap, h->series[k].user, h->series[k].est)] =
                    h->series[k];
        hsim_free(h->series);
        h->series = grown;
        h->series_cap = cap;
        i = series_slot(h->series, cap, user, est);
    }
    h->series[i] = (series_t){.user = user, .used = 1, .est = est};
    h->n_series++;
    return &h->series[i];
}

static const series_t *series_seen(const hsim_history_t *h, int32_t user, hsim_time_t est)
{
    const series_t *s = &h->series[series_slot(h->series, h->series_cap, user, est)];
    return s->used && s->len ? s : NULL;
}

/* The most typical of n runtimes sorted ascending, the k-th most recent
   weighing weight[k]: the one whose weighted sum of min/max ratios to all
   of them is the largest (the smaller on a tie; a runtime of 0 agrees
   only with another 0).  With the runtimes sorted, the sum for v_i > 0 is
   (sum over 0 < v_j <= v_i of w_j v_j) / v_i + v_i (sum over v_j > v_i of
   w_j / v_j): O(n). */
static double weighted_medoid(const run_t *runs, size_t n, int64_t newest, const double *weight)
{
    double zeros = 0, above = 0, below = 0;
    for (size_t i = 0; i < n; i++) {
        double w = weight[newest - runs[i].seq];
        if (runs[i].run_s > 0)
            above += w / runs[i].run_s;
        else
            zeros += w;
    }
    double best = zeros > 0 ? zeros : -1, pick = runs[0].run_s;
    for (size_t i = 0; i < n; i++) {
        double v = runs[i].run_s, w = weight[newest - runs[i].seq];
        if (!(v > 0))
            continue;
        below += w * v;
        above -= w / v;
        double sum = below / v + v * fmax(above, 0);
        if (sum > best) {
            best = sum;
            pick = v;
        }
    }
    return pick;
}

static int by_run(const run_t *a, const run_t *b)
{
    return a->run_s != b->run_s ? (a->run_s > b->run_s) - (a->run_s < b->run_s)
                                : (a->seq > b->seq) - (a->seq < b->seq);
}

/* r into runs[0..len), sorted by runtime then seq, which has room for it. */
static void insert_run(run_t *runs, size_t len, run_t r)
{
    size_t at = len;
    while (at > 0 && by_run(&runs[at - 1], &r) > 0)
        at--;
    memmove(&runs[at + 1], &runs[at], (len - at) * sizeof *runs);
    runs[at] = r;
}

/* A runtime into s's sorted runs, the oldest leaving once HSIM_TYPICAL_K
   are held, and s's typical runtime anew.  0 or HSIM_ENOMEM. */
static int series_add(const hsim_history_t *h, series_t *s, double run_s)
{
    if (s->len == HSIM_TYPICAL_K) {
        size_t old = 0;
        while (s->runs[old].seq != s->n - HSIM_TYPICAL_K)
            old++;
        memmove(&s->runs[old], &s->runs[old + 1], (s->len - old - 1) * sizeof *s->runs);
        s->len--;
    } else if (s->len == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4;
        if (cap > HSIM_TYPICAL_K)
            cap = HSIM_TYPICAL_K;
        run_t *runs = hsim_realloc(s->runs, cap * sizeof *runs);
        if (!runs)
            return HSIM_ENOMEM;
        s->runs = runs;
        s->cap = cap;
    }
    insert_run(s->runs, s->len++, (run_t){.run_s = run_s, .seq = s->n++});
    s->typical = weighted_medoid(s->runs, s->len, s->n - 1, h->weight);
    return 0;
}

/* Feature 22's runtime in seconds, or -1 without history: the typical
   runtime of the user's jobs that asked est, or, when none did, of the
   user's last HSIM_HISTORY_K jobs whatever they asked. */
static double typical_runtime(const hsim_history_t *h, const user_hist_t *u, hsim_time_t est)
{
    if (!u || u->finished == 0)
        return -1;
    const series_t *s = series_seen(h, u->user, est);
    if (s)
        return s->typical;
    run_t runs[HSIM_HISTORY_K];
    size_t n = 0;
    for (const past_t *p; (p = recent(u, n)); n++)
        insert_run(runs, n, (run_t){.run_s = p->run_s, .seq = -(int64_t)n}); /* the last: 0 */
    return weighted_medoid(runs, n, 0, h->weight);
}

int hsim_history_started(hsim_history_t *h, const hsim_job_t *j)
{
    user_hist_t *u = user_of(h, j->user);
    if (!u)
        return HSIM_ENOMEM;
    u->running++;
    u->last_start = j->submit; /* hsim_history_features() reads it at a
                                  submission: the replay's start comes
                                  later, and is not known then */
    return 0;
}

int hsim_history_finished(hsim_history_t *h, const hsim_job_t *j, hsim_time_t ran)
{
    series_t *s = series_of(h, j->user, j->estimate);
    user_hist_t *u = s ? user_of(h, j->user) : NULL;
    if (!u || series_add(h, s, (double)ran / HSIM_SECOND))
        return HSIM_ENOMEM;
    if (u->running > 0)
        u->running--;
    past_t *p = &u->last[u->head];
    p->run_s = (double)ran / HSIM_SECOND;
    p->est_s = (double)j->estimate / HSIM_SECOND;
    p->procs = j->procs;
    clock_of(h, j->submit, &p->hour, &p->weekday);
    u->head = (u->head + 1) % HSIM_HISTORY_K;
    u->finished++;
    return 0;
}

void hsim_history_features(const hsim_history_t *h, const hsim_job_t *j, double *x)
{
    const user_hist_t *u = user_seen(h, j->user);
    x[0] = lg((double)j->estimate / HSIM_SECOND);
    x[1] = lg(j->procs);
    x[2] = lg(j->gpus);
    x[3] = j->user;
    x[4] = j->group;
    x[5] = j->app;
    x[6] = j->queue;
    x[7] = j->partition;
    x[8] = j->job_class;
    clock_of(h, j->submit, &x[9], &x[10]);
    const past_t *p0 = recent(u, 0), *p1 = recent(u, 1);
    x[11] = p0 ? lg(p0->run_s) : -1;
    x[12] = p1 ? lg(p1->run_s) : -1;
    x[13] = x[15] = -1;
    x[14] = p0 && p0->est_s > 0 ? p0->run_s / p0->est_s : -1;
    double sum = 0, ratio = 0;
    size_t n = 0;
    for (size_t k = 0; recent(u, k); k++, n++) {
        const past_t *p = recent(u, k);
        sum += lg(p->run_s);
        ratio += p->est_s > 0 ? p->run_s / p->est_s : 1;
    }
    if (n) {
        x[13] = sum / (double)n;
        x[15] = ratio / (double)n;
    }
    x[16] = u ? u->running : 0;
    x[17] = u ? lg((double)u->finished) : 0;
    x[18] = p1 ? (x[11] + x[12]) / 2 : p0 ? x[11] : x[0];
    if (x[18] > x[0])
        x[18] = x[0]; /* no job runs past its request */
    x[19] = p1 ? fabs(x[11] - x[12]) : -1;
    x[20] = u && u->last_start >= 0 && j->submit >= u->last_start
                ? lg((double)(j->submit - u->last_start) / HSIM_SECOND)
                : -1;
    x[21] = p0 ? (p0->procs == j->procs && p0->est_s == (double)j->estimate / HSIM_SECOND) : -1;
    double typical = typical_runtime(h, u, j->estimate);
    x[22] = typical < 0 ? x[0] : lg(typical);
    if (x[22] > x[0])
        x[22] = x[0]; /* no job runs past its request */
}

void hsim_history_sequence(const hsim_history_t *h, const hsim_job_t *j, double *x)
{
    const user_hist_t *u = user_seen(h, j->user);
    memset(x, 0, sizeof *x * HSIM_SEQ_STEPS * HSIM_SEQ_IN);
    for (size_t s = 0; s + 1 < HSIM_SEQ_STEPS; s++) {
        /* step s holds the (HSIM_SEQ_STEPS - 2 - s)-th most recent */
        const past_t *p = recent(u, HSIM_SEQ_STEPS - 2 - s);
        if (!p)
            continue;
        double *v = x + s * HSIM_SEQ_IN;
        v[0] = 1;
        v[1] = lg(p->run_s);
        v[2] = lg(p->est_s);
        v[3] = lg(p->procs);
        v[4] = p->est_s > 0 ? p->run_s / p->est_s : 1;
        v[5] = p->hour / 24;
        v[6] = p->weekday / 7;
    }
    double *v = x + (HSIM_SEQ_STEPS - 1) * HSIM_SEQ_IN;
    double hour, weekday;
    clock_of(h, j->submit, &hour, &weekday);
    v[0] = 1;
    v[2] = lg((double)j->estimate / HSIM_SECOND);
    double typical = typical_runtime(h, u, j->estimate);
    v[1] = typical < 0 ? v[2] : lg(typical); /* feature 22, the baseline */
    if (v[1] > v[2])
        v[1] = v[2];
    v[3] = lg(j->procs);
    v[5] = hour / 24;
    v[6] = weekday / 7;
    v[7] = 1;
}

double hsim_runtime_target(hsim_time_t run) { return lg((double)run / HSIM_SECOND); }

hsim_time_t hsim_runtime_from_target(double y)
{
    double s = expm1(y);
    if (!(s > 0))
        return HSIM_SECOND;
    if (s > 1e10)
        s = 1e10;
    return (hsim_time_t)llround(s * HSIM_SECOND);
}

int hsim_jobs_walk(const hsim_workload_t *w, size_t n, int (*ended)(void *ctx, size_t i),
                   int (*submitted)(void *ctx, size_t i), void *ctx)
{
    hsim_heap_t ends;
    hsim_heap_init(&ends);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const hsim_job_t *j = &w->jobs[i];
        const hsim_event_t *top;
        while (rc == 0 && (top = hsim_heap_peek(&ends)) && top->time <= j->submit) {
            hsim_event_t ev;
            hsim_heap_pop(&ends, &ev);
            rc = ended(ctx, (size_t)ev.job);
        }
        if (rc == 0)
            rc = submitted(ctx, i);
        hsim_event_t end = {.time = j->submit + j->runtime, .seq = (int64_t)i,
                            .job = (int32_t)i, .kind = HSIM_EV_END};
        if (rc == 0)
            rc = hsim_heap_push(&ends, &end);
    }
    hsim_heap_free(&ends);
    return rc;
}

typedef struct history_walk {
    const hsim_workload_t *w;
    hsim_history_t *h;
    int (*sample)(void *ctx, size_t i, const hsim_history_t *h);
    void *ctx;
} history_walk_t;

static int history_ended(void *ctx, size_t i)
{
    history_walk_t *hw = ctx;
    const hsim_job_t *done = &hw->w->jobs[i];
    return hsim_history_finished(hw->h, done, done->runtime);
}

static int history_submitted(void *ctx, size_t i)
{
    history_walk_t *hw = ctx;
    int rc = hw->sample(hw->ctx, i, hw->h);
    return rc ? rc : hsim_history_started(hw->h, &hw->w->jobs[i]);
}

int hsim_history_walk(const hsim_workload_t *w, size_t n,
                      int (*sample)(void *ctx, size_t i, const hsim_history_t *h), void *ctx)
{
    history_walk_t hw = {.w = w, .sample = sample, .ctx = ctx};
    int rc = hsim_history_create(w->header.unix_start_time, w->header.time_zone, &hw.h);
    if (rc == 0)
        rc = hsim_jobs_walk(w, n, history_ended, history_submitted, &hw);
    hsim_history_free(hw.h);
    return rc;
}
