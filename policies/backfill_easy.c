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
 *
 * On a cluster of nodes the same discipline plans node by node with the
 * planner (sim/planner.h): the head's reservation is a time and nodes, the
 * earliest at which it fits in what the running jobs leave by their
 * estimated ends; a later job starts now if it fits now and either ends,
 * on the nodes it gets, by that time, or leaves the head's nodes what the
 * head needs there (on each, no more than its spare).  A job that ends by
 * the shadow time may take the head's nodes, and the reservation is then
 * made again on the nodes that will be free by then: on nodes of one unit
 * each this is the pool's schedule, job for job.
 */
#include "queue.h"

#include "../sim/planner.h"

typedef struct easy {
    hsim_planner_t *planner;       /* on a cluster of nodes, else NULL */
    hsim_booking_t head;           /* there: the head's reservation... */
    int32_t head_job;              /* ...of this job (-1: none) */
    hsim_booking_t prev;           /* there: the one before, for the next */
    hsim_alloc_t place;            /* there: a placement being tried */
    int32_t *gpus;                 /* there: by job index, the whole GPUs
                                      each asks for (the queues' second
                                      size) */
    size_t n_jobs;                 /* room in gpus[] */
    double fastest;                /* there: the highest speed any job
                                      has on any node type */
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
    hsim_queue_init(&s->queue, p->order, p->order_state);
    s->planner = p->planner;
    s->head_job = -1;
    s->bf_order = p->backfill_order;
    if (s->bf_order) {
        hsim_queue_init(&s->bf, s->bf_order, p->backfill_order_state);
        hsim_queue_pair(&s->queue, &s->bf);
    }
    if (s->planner) {
        s->n_jobs = p->n_jobs ? p->n_jobs : 1;
        if (!(s->gpus = hsim_calloc(s->n_jobs, sizeof *s->gpus))) {
            hsim_free(s);
            return HSIM_ENOMEM;
        }
        s->queue.key2 = s->bf.key2 = s->gpus;
        s->fastest = hsim_planner_fastest(s->planner);
    }
    *state = s;
    return 0;
}

static int easy_grow(void *state, size_t n_jobs)
{
    easy_t *s = state;
    if (!s->gpus || n_jobs <= s->n_jobs)
        return 0;
    if (hsim_grow_zeroed(&s->gpus, s->n_jobs, n_jobs, sizeof *s->gpus))
        return HSIM_ENOMEM;
    s->n_jobs = n_jobs;
    s->queue.key2 = s->gpus; /* it moved */
    if (s->bf_order)
        s->bf.key2 = s->gpus;
    return 0;
}

static void easy_destroy(void *state)
{
    easy_t *s = state;
    hsim_queue_free(&s->queue);
    hsim_queue_free(&s->bf);
    hsim_booking_free(&s->head);
    hsim_booking_free(&s->prev);
    hsim_alloc_free(&s->place);
    hsim_free(s->gpus);
    hsim_free(s);
}

static int easy_submitted(void *state, const hsim_view_t *v, int32_t job,
                          const hsim_decide_t *d)
{
    (void)d;
    easy_t *s = state;
    if (s->gpus) { /* a share of one GPU needs no whole one */
        const hsim_request_t *r = &v->requests[job];
        s->gpus[job] = r->gpus < 2 && r->gpu_milli < 1000 ? 0 : r->gpus;
    }
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

/* The reservation of head into s->head, the last one it had as a hint:
   0, HSIM_NOFIT or HSIM_ENOMEM. */
static int reserve_head(easy_t *s, const hsim_view_t *v, int32_t head)
{
    hsim_booking_t old = s->prev; /* swap: s->head becomes the hint */
    s->prev = s->head;
    s->head = old;
    int same = s->head_job == head && s->prev.at != HSIM_TIME_MAX;
    s->head_job = head;
    int rc = hsim_planner_shadow(s->planner, v, head, same ? &s->prev : NULL, &s->head);
    if (rc)
        s->head_job = -1;
    return rc;
}

/* Starts job on the placement in s->place (which it empties). */
static int start_placed(easy_t *s, const hsim_decide_t *d, int32_t job)
{
    int rc = d->start_on(d->ctx, job, &s->place);
    s->place.n = 0;
    return rc;
}

/* Tries to backfill job on a cluster of nodes beside the head's
   reservation s->head (at HSIM_TIME_MAX when the head has none).  *started
   says whether it started. */
static int try_backfill_nodes(easy_t *s, const hsim_view_t *v, const hsim_decide_t *d,
                              int32_t head, int32_t job, int *started)
{
    hsim_time_t shortest, shadow = s->head.at;
    hsim_planner_span(s->planner, v, job, &shortest, NULL);
    double speed;
    int rc;
    *started = 0;
    if (shadow == HSIM_TIME_MAX || v->now + shortest <= shadow) {
        /* it may end by the shadow time: where the policy would put it */
        rc = hsim_planner_place_now(s->planner, v, job, NULL, &s->place, &speed);
        if (rc)
            return rc == HSIM_NOFIT ? 0 : rc;
        if (shadow == HSIM_TIME_MAX ||
            v->now + hsim_time_scaled(v->jobs[job].estimate, speed) <= shadow) {
            if ((rc = start_placed(s, d, job)))
                return rc;
            *started = 1;
            if (shadow == HSIM_TIME_MAX || s->head.by_totals)
                return 0;
            /* it may have taken the head's nodes: reserve them again on
               what will be free by then (the time does not move) */
            rc = reserve_head(s, v, head);
            if (rc == HSIM_NOFIT) {
                s->head.at = HSIM_TIME_MAX;
                return 0;
            }
            return rc;
        }
        s->place.n = 0;
    }
    if (s->head.by_totals) {
        /* it runs past the shadow time: it may hold the extra cores */
        if (v->jobs[job].procs > s->head.extra_cores)
            return 0;
        rc = hsim_planner_place_now(s->planner, v, job, NULL, &s->place, &speed);
        if (rc)
            return rc == HSIM_NOFIT ? 0 : rc;
        int64_t cores = 0;
        for (size_t k = 0; k < s->place.n; k++)
            cores += s->place.parts[k].cores;
        if (cores > s->head.extra_cores) { /* its units took more cores */
            s->place.n = 0;
            return 0;
        }
        s->head.extra_cores -= cores;
        if ((rc = start_placed(s, d, job)))
            return rc;
        *started = 1;
        return 0;
    }
    /* it runs past the shadow time: it must leave the head's nodes alone */
    rc = hsim_planner_place_now(s->planner, v, job, &s->head, &s->place, &speed);
    if (rc)
        return rc == HSIM_NOFIT ? 0 : rc;
    hsim_booking_consume(&s->head, &s->place);
    if ((rc = start_placed(s, d, job)))
        return rc;
    *started = 1;
    return 0;
}

/* The next job of q from slot 'from' on that may be backfilled: the
   queue's min-trees rule out those that ask more cores or whole GPUs than
   are free, and those that would run past the shadow time and ask more
   than the totals have beside the head's nodes' needs. */
static long next_candidate(easy_t *s, const hsim_view_t *v, hsim_queue_t *q, size_t from,
                           int32_t free_now, int *rc)
{
    const hsim_cluster_t *c = v->cluster;
    int64_t free_cores = c->free_cores < free_now ? c->free_cores : free_now;
    hsim_queue_room_t room = {
        .free_cores = (int32_t)free_cores,
        .free_gpus = (int32_t)c->free_gpus,
        .extra_cores = (int32_t)free_cores,
        .extra_gpus = (int32_t)c->free_gpus,
        .max_est = HSIM_TIME_MAX,
    };
    if (s->head.at != HSIM_TIME_MAX) {
        int64_t held_cores = 0, held_gpus = 0;
        if (s->head.by_totals)
            held_cores = free_cores - (s->head.extra_cores < free_cores ? s->head.extra_cores
                                                                       : free_cores);
        else
            hsim_planner_held(v, &s->head, &held_cores, &held_gpus);
        room.extra_cores = (int32_t)(free_cores - held_cores);
        room.extra_gpus = (int32_t)(c->free_gpus - held_gpus);
        /* a job that may end by then, on the fastest nodes (a bound: the
           scaled estimate is rounded to the microsecond) */
        double most = ((double)(s->head.at - v->now) + 1.0) * s->fastest;
        room.max_est = most < (double)HSIM_HORIZON ? (hsim_time_t)most : HSIM_TIME_MAX;
    }
    return hsim_queue_find_backfill2(q, from, &room, rc);
}

/* EASY on a cluster of nodes (see the top of the file). */
static int schedule_nodes(easy_t *s, const hsim_view_t *v, const hsim_decide_t *d)
{
    hsim_queue_t *q = &s->queue;
    int32_t free_now, head;
    int rc;
    for (;;) {
        if ((rc = hsim_queue_start_head(q, v, d, &free_now)))
            return rc;
        if (hsim_queue_size(q) == 0)
            return 0;
        head = q->ids[q->first];
        rc = reserve_head(s, v, head);
        if (rc == HSIM_NOFIT) {
            s->head.at = HSIM_TIME_MAX; /* no reservation: nothing to protect */
            break;
        }
        if (rc)
            return rc;
        if (s->head.at > v->now || s->head.alloc.n == 0)
            break;
        /* Its reservation is due, but the policy found no room: the
           resources kept for it are on the reserved nodes, so it starts
           there (jobs that run past the reservation left them alone). */
        if ((rc = d->start_on(d->ctx, head, &s->head.alloc)) == HSIM_NOFIT)
            break;
        if (rc)
            return rc;
        hsim_queue_remove_at(q, q->first);
    }
    if (hsim_queue_size(q) < 2 || free_now == 0 || v->cluster->free_cores == 0)
        return 0;
    hsim_queue_t *bq = s->bf_order ? &s->bf : q;
    size_t from = bq->ids[bq->first] == head ? bq->first + 1 : bq->first;
    long i = next_candidate(s, v, bq, from, free_now, &rc);
    while (i >= 0) {
        int32_t job = bq->ids[i];
        if (job != head) {
            int started;
            if ((rc = try_backfill_nodes(s, v, d, head, job, &started)))
                return rc;
            if (started) {
                hsim_queue_remove_at(bq, (size_t)i);
                free_now -= v->jobs[job].procs;
                if (free_now <= 0 || v->cluster->free_cores == 0)
                    break;
            }
        }
        i = next_candidate(s, v, bq, (size_t)i + 1, free_now, &rc);
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
    if (s->planner)
        return schedule_nodes(s, v, d);
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
    .grow = easy_grow,
    .submitted = easy_submitted,
    .schedule = easy_schedule,
    .reads_backfill_order = 1,
    .plans_on_nodes = 1,
};
