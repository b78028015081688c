/*
 * features.c - a job's features from its request and its user's history.
 * See features.h.
 */
#include "features.h"

#include "../sim/heap.h"
#include "../workloads/workload.h"

#include <math.h>
#include <string.h>

typedef struct past {
    double run_s, est_s, procs; /* seconds, seconds, processors */
    double hour, weekday;       /* of its submission */
} past_t;

typedef struct user_hist {
    int32_t user;
    int used;                   /* 1: the slot holds a user */
    int32_t running;            /* jobs running now */
    hsim_time_t last_start;     /* when its last job started, -1 none */
    int64_t finished;           /* jobs finished so far */
    size_t head;                /* next slot of last[] to write */
    past_t last[HSIM_HISTORY_K];/* the last finished, a ring */
    struct {
        double run_s;
        hsim_time_t est;
    } runs[HSIM_TYPICAL_SCAN_LONG]; /* a longer ring of runtimes and requests */
    double fit[2];              /* how well the short and the long typical
                                   runtime agreed with the user's last jobs:
                                   a decaying sum of min/max, 0..1/(1-decay) */
    struct {
        int64_t id;             /* a started job, -1 once scored */
        float typical[2];       /* the short and the long window's answer
                                   when it started, seconds */
    } asked[HSIM_TYPICAL_ASKED]; /* a ring: the last jobs started */
    size_t asked_head;          /* next slot of asked[] to write */
} user_hist_t;

struct hsim_history {
    user_hist_t *slots;         /* by user, open addressing, at most half full */
    size_t cap, n;              /* a power of two; users held */
    int64_t origin;             /* seconds to add to a submit time for local
                                   time since an epoch (a Thursday) */
};

static size_t slot_of(const hsim_history_t *h, int32_t user)
{
    uint64_t x = (uint64_t)(uint32_t)user * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(x >> 32) & (h->cap - 1);
    while (h->slots[i].used && h->slots[i].user != user)
        i = (i + 1) & (h->cap - 1);
    return i;
}

int hsim_history_create(int64_t unix_start, int64_t time_zone, hsim_history_t **out)
{
    hsim_history_t *h = hsim_calloc(1, sizeof *h);
    if (!h)
        return HSIM_ENOMEM;
    h->cap = 64;
    h->slots = hsim_calloc(h->cap, sizeof *h->slots);
    if (!h->slots) {
        hsim_free(h);
        return HSIM_ENOMEM;
    }
    h->origin = (unix_start == HSIM_HEADER_ABSENT ? 0 : unix_start) +
                (time_zone == HSIM_HEADER_ABSENT ? 0 : time_zone);
    *out = h;
    return 0;
}

void hsim_history_free(hsim_history_t *h)
{
    if (h)
        hsim_free(h->slots);
    hsim_free(h);
}

/* The user's record, made when new.  NULL when out of memory. */
static user_hist_t *user_of(hsim_history_t *h, int32_t user)
{
    size_t i = slot_of(h, user);
    if (h->slots[i].used)
        return &h->slots[i];
    if (2 * (h->n + 1) > h->cap) {
        user_hist_t *old = h->slots;
        size_t cap = h->cap;
        h->slots = hsim_calloc(2 * cap, sizeof *h->slots);
        if (!h->slots) {
            h->slots = old;
            return NULL;
        }
        h->cap = 2 * cap;
        for (size_t k = 0; k < cap; k++)
            if (old[k].used)
                h->slots[slot_of(h, old[k].user)] = old[k];
        hsim_free(old);
        i = slot_of(h, user);
    }
    h->slots[i].used = 1;
    h->slots[i].user = user;
    h->slots[i].last_start = -1;
    for (size_t k = 0; k < HSIM_TYPICAL_ASKED; k++)
        h->slots[i].asked[k].id = -1;
    h->n++;
    return &h->slots[i];
}

static const user_hist_t *user_seen(const hsim_history_t *h, int32_t user)
{
    const user_hist_t *u = &h->slots[slot_of(h, user)];
    return u->used ? u : NULL;
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

static double agreement(double a, double b)
{
    double lo = a < b ? a : b, hi = a < b ? b : a;
    return hi > 0 ? lo / hi : 1;
}

/* The windows of the typical runtime: the last k runtimes among the last
   scan finished jobs. */
static const struct {
    size_t k, scan;
} windows[2] = {{HSIM_TYPICAL_K, HSIM_TYPICAL_SCAN},
                {HSIM_TYPICAL_K_LONG, HSIM_TYPICAL_SCAN_LONG}};

/* The most typical of u's last runtimes of jobs that asked for est, in
   seconds, over window 0 (short) or 1 (long) (see features.h), or -1
   without history.  Ties go to the more recent.  O(scan + k^2). */
static double typical_in(const user_hist_t *u, hsim_time_t est, int window)
{
    if (!u || u->finished == 0)
        return -1;
    double pick[HSIM_TYPICAL_K_LONG];
    size_t n = 0, want = windows[window].k;
    int64_t seen = (int64_t)windows[window].scan;
    int64_t scan = u->finished < seen ? u->finished : seen;
    for (int any = 0; any < 2 && n == 0; any++)
        for (int64_t k = 0; k < scan && n < want; k++) {
            size_t r = (size_t)((u->finished - 1 - k) % HSIM_TYPICAL_SCAN_LONG);
            if (any || u->runs[r].est == est)
                pick[n++] = u->runs[r].run_s; /* most recent first */
        }
    double best = pick[0], best_sum = -1;
    for (size_t i = 0; i < n; i++) {
        double sum = 0;
        for (size_t k = 0; k < n; k++)
            sum += agreement(pick[i], pick[k]);
        if (sum > best_sum) {
            best_sum = sum;
            best = pick[i];
        }
    }
    return best;
}

/* Feature 22's runtime in seconds, or -1 without history: the typical
   runtime over the window that agreed better with the user's last jobs
   (the short one on a tie).  A user whose jobs repeat over weeks gains
   from the long window's steadier medoid, one whose runtimes drift from
   the short one's; which is which shows only in their history. */
static double typical_runtime(const user_hist_t *u, hsim_time_t est)
{
    return typical_in(u, est, u && u->fit[1] > u->fit[0]);
}

/* Scores both windows on job j of u, which ran run_s: what each answered
   when it started (from the jobs finished then; scoring them at its end
   instead would favour the short window, which by then holds the job's
   own batch).  A job started more than HSIM_TYPICAL_ASKED starts ago is
   not scored.  O(HSIM_TYPICAL_ASKED). */
static void score_windows(user_hist_t *u, const hsim_job_t *j, double run_s)
{
    for (size_t k = 0; k < HSIM_TYPICAL_ASKED; k++) {
        if (u->asked[k].id != j->id)
            continue;
        for (int w = 0; w < 2; w++) {
            double t = u->asked[k].typical[w], est_s = (double)j->estimate / HSIM_SECOND;
            t = t < 0 || t > est_s ? est_s : t; /* as feature 22 caps it */
            u->fit[w] = HSIM_TYPICAL_DECAY * u->fit[w] + agreement(t, run_s);
        }
        u->asked[k].id = -1;
        return;
    }
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
    u->asked[u->asked_head].id = j->id;
    for (int w = 0; w < 2; w++)
        u->asked[u->asked_head].typical[w] = (float)typical_in(u, j->estimate, w);
    u->asked_head = (u->asked_head + 1) % HSIM_TYPICAL_ASKED;
    return 0;
}

int hsim_history_finished(hsim_history_t *h, const hsim_job_t *j, hsim_time_t ran)
{
    user_hist_t *u = user_of(h, j->user);
    if (!u)
        return HSIM_ENOMEM;
    if (u->running > 0)
        u->running--;
    past_t *p = &u->last[u->head];
    p->run_s = (double)ran / HSIM_SECOND;
    p->est_s = (double)j->estimate / HSIM_SECOND;
    p->procs = j->procs;
    clock_of(h, j->submit, &p->hour, &p->weekday);
    u->head = (u->head + 1) % HSIM_HISTORY_K;
    score_windows(u, j, p->run_s);
    size_t r = (size_t)(u->finished % HSIM_TYPICAL_SCAN_LONG);
    u->runs[r].run_s = p->run_s;
    u->runs[r].est = j->estimate;
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
    double typical = typical_runtime(u, j->estimate);
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
    double typical = typical_runtime(u, j->estimate);
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
