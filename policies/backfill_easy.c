/*
 * backfill_easy.c - EASY backfilling (Lifka 1995; pyss semantics).
 *
 * Start jobs in queue order while the head fits.  When it does not, the
 * head's reservation is the shadow time: the earliest estimated end at which
 * enough processors are free.  The extra processors are those free at the
 * shadow time (every job whose estimated end is at or before it counts as
 * gone) minus the head's.  A later job starts now if it fits now and either
 * ends by its estimate no later than the shadow time, or uses no more than
 * the extra processors, which it then consumes.  Starting a job never moves
 * the shadow time, so the pass keeps shadow and extra up to date instead of
 * recomputing them.
 *
 * Jobs are tried in queue order, or in a backfilling order of their own
 * (backfill_order, e.g. shortest first): a second queue then holds the same
 * jobs in that order, kept as jobs come and go, instead of a sort of the
 * whole queue at every pass.
 *
 * Cost per pass: O(running) to find the shadow time, and O(log queue) per
 * job that is narrow enough to fit now (the queue's min-tree skips the rest).
 */
#include "queue.h"

typedef struct easy {
    hsim_queue_t queue;            /* queue order */
    const hsim_order_t *bf_order;  /* backfilling order, NULL = queue order */
    hsim_queue_t bf;               /* with bf_order: the same jobs in that
                                      order (paired with queue) */
} easy_t;

static int easy_create(const hsim_policy_params_t *p, void **state)
{
    easy_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    hsim_queue_init(&s->queue, p->order);
    s->bf_order = p->backfill_order;
    if (s->bf_order) {
        hsim_queue_init(&s->bf, s->bf_order);
        hsim_queue_pair(&s->queue, &s->bf);
    }
    *state = s;
    return 0;
}

static void easy_destroy(void *state)
{
    easy_t *s = state;
    hsim_queue_free(&s->queue);
    hsim_queue_free(&s->bf);
    hsim_free(s);
}

static int easy_submitted(void *state, const hsim_view_t *v, int32_t job,
                          const hsim_decide_t *d)
{
    (void)d;
    easy_t *s = state;
    int rc = hsim_queue_insert(&s->queue, v->jobs, job, v->now);
    if (rc == 0 && s->bf_order)
        rc = hsim_queue_insert(&s->bf, v->jobs, job, v->now);
    return rc;
}

/*
 * The head needs need processors and free_now are free now: finds the shadow
 * time and the extra processors from the running jobs' estimated ends.
 */
static void shadow_of(const hsim_view_t *v, int32_t need, int32_t free_now,
                      hsim_time_t *shadow, int32_t *extra)
{
    int32_t avail = free_now;
    size_t i = 0, n = v->n_running;
    while (i < n && v->running[i].est_end <= v->now)
        i++; /* already counted in free_now */
    while (i < n) {
        if (v->running[i].job < 0) {
            i++; /* a hole */
            continue;
        }
        hsim_time_t t = v->running[i].est_end;
        while (i < n && v->running[i].est_end == t)
            avail += v->running[i++].procs; /* a hole adds 0 */
        if (avail >= need) {
            *shadow = t;
            *extra = avail - need;
            return;
        }
    }
    /* On a cluster of nodes the head can be blocked with enough processors
       free (no node holds its GPUs, say): reserve it now and backfill only
       into what it leaves. */
    *shadow = v->now;
    *extra = avail >= need ? avail - need : 0;
}

static int try_backfill(const hsim_view_t *v, const hsim_decide_t *d, int32_t job,
                        int32_t *free_now, hsim_time_t shadow, int32_t *extra,
                        int *started)
{
    const hsim_vjob_t *j = &v->jobs[job];
    *started = 0;
    if (j->procs > *free_now)
        return 0;
    int ends_in_time = v->now + j->estimate <= shadow;
    if (!ends_in_time && j->procs > *extra)
        return 0;
    int rc = d->start(d->ctx, job);
    if (rc == HSIM_NOFIT)
        return 0; /* no node can hold it now */
    if (rc)
        return rc;
    *free_now -= j->procs;
    if (!ends_in_time)
        *extra -= j->procs;
    *started = 1;
    return 0;
}

/* Tries the jobs of q after its first slot in q's order: the main queue
   (its head is the first slot), or the same jobs in the backfilling order
   (the head is wherever that order puts it, and is passed over). */
static int backfill(hsim_queue_t *q, int32_t head, const hsim_view_t *v,
                    const hsim_decide_t *d, int32_t free_now, hsim_time_t shadow,
                    int32_t extra)
{
    int rc;
    size_t from = q->ids[q->first] == head ? q->first + 1 : q->first;
    long i = hsim_queue_find_backfill(q, from, free_now, extra, shadow - v->now, &rc);
    while (i >= 0) {
        int32_t job = q->ids[i];
        if (job != head) {
            int started;
            if ((rc = try_backfill(v, d, job, &free_now, shadow, &extra, &started)))
                return rc;
            if (started) /* else the cluster could not place it */
                hsim_queue_remove_at(q, (size_t)i);
            if (free_now == 0)
                break;
        }
        i = hsim_queue_find_backfill(q, (size_t)i + 1, free_now, extra, shadow - v->now, &rc);
    }
    return rc;
}

static int easy_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    easy_t *s = state;
    hsim_queue_t *q = &s->queue;
    int32_t free_now;
    int rc;
    if (s->bf_order) { /* at every pass, so that it sees every revision */
        hsim_queue_tidy(&s->bf);
        if ((rc = hsim_queue_refresh(&s->bf, v)))
            return rc;
    }
    if ((rc = hsim_queue_start_head(q, v, d, &free_now)))
        return rc;
    if (hsim_queue_size(q) < 2 || free_now == 0)
        return 0;
    int32_t head = q->ids[q->first];
    hsim_time_t shadow = HSIM_TIME_MAX;
    int32_t extra = 0;
    shadow_of(v, v->jobs[head].procs, free_now, &shadow, &extra);
    return backfill(s->bf_order ? &s->bf : q, head, v, d, free_now, shadow, extra);
}

const hsim_scheduler_t hsim_sched_easy = {
    .name = "easy",
    .summary = "EASY backfilling: later jobs may start if they do not delay the head",
    .create = easy_create,
    .destroy = easy_destroy,
    .submitted = easy_submitted,
    .schedule = easy_schedule,
    .reads_backfill_order = 1,
};
