/*
 * core.c - the ledger, the view and the checks on decisions (core.h).
 *
 * The running set is kept sorted by estimated end only for schedulers that
 * read it (EASY); for the others it is an unordered array (a cluster of
 * 100,000 nodes runs tens of thousands of jobs at once) beside a heap of
 * estimated ends that answers "how many processors end by now".  The
 * running set that backfilling reads is kept sorted by (estimated end,
 * start order), with holes: a job that ends leaves a hole that keeps its
 * key, so the array stays sorted and a binary search still finds a place;
 * a job that starts fills a hole beside its place, or moves the entries
 * up or down to the nearest hole; the holes are compacted away once they
 * are half the array, and the view starts at the first job.
 *
 * Reserved starts are kept one per job, a new reservation replacing the
 * old (hsim_reserved_t: the near ones in a heap, the far ones in a pool);
 * the driver asks for the earliest (hsim_core_next_start()).
 *
 * With a predictor that can underpredict, the driver reports a job that
 * outlives its prediction (hsim_core_expire()), which moves its planned
 * end to its requested time (the entry leaves its place and takes a new
 * one).  With one that revises, each user's waiting jobs are kept in a
 * list, and a termination asks again for the predictions of its user's
 * jobs only, telling the policies which changed (hsim_view_t's
 * revised[]).
 *
 * Every per-job table is registered (hsim__keep_table()) and grows with
 * the jobs added, by doubling; so do the policies' (their grow() hooks).
 * Node failures are in core_faults.c; jobs that stop and come back (a
 * failure's or a policy's stop(), suspension, resume), the scheduler's
 * timer and the preemption pass in core_stops.c; the orders' hooks in
 * core_orders.c.
 */
#include "core_run.h"

#include "../policies/place_common.h"
#include "../policies/preempt.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>


/* Processors of the entries of heap h at or below slot i that end by now. */
static int32_t ending_by(const hsim_core_t *c, size_t i, hsim_time_t now)
{
    const hsim_rheap_t *h = &c->ends;
    if (i >= h->n || h->ev[i].time > now)
        return 0;
    return c->vjobs[h->ev[i].job].procs + ending_by(c, 2 * i + 1, now) +
           ending_by(c, 2 * i + 2, now);
}

void hsim__refresh_view(hsim_core_t *c)
{
    c->view.now = c->now;
    c->view.running_procs = c->running_procs;
    c->view.waiting = c->waiting;
    c->view.n_waiting = c->n_waiting;
    c->view.waiting_holes = c->waiting_holes;
    /* (NULL + 0 is undefined: running[] is NULL until a job starts) */
    c->view.running = c->running ? c->running + c->running_first : NULL;
    c->view.n_running = c->n_running - c->running_first;
    c->view.running_unordered = !c->ordered;
    if (!c->ordered)
        c->view.ending_procs = ending_by(c, 0, c->now);
}

/* Position of (est_end, seq) in running[]: first entry not less than it
   (holes keep the key of the job that left). */
static size_t running_lower_bound(const hsim_core_t *c, hsim_time_t est_end, int64_t seq)
{
    size_t lo = 0, hi = c->n_running;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const hsim_running_t *m = &c->running[mid];
        if (m->est_end < est_end || (m->est_end == est_end && c->running_seq[mid] < seq))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Moves entries [from, to) of running[] by one slot: up when up, else
   down. */
static void running_shift(hsim_core_t *c, size_t from, size_t to, int up)
{
    size_t dst = up ? from + 1 : from - 1;
    memmove(&c->running[dst], &c->running[from], (to - from) * sizeof *c->running);
    memmove(&c->running_seq[dst], &c->running_seq[from], (to - from) * sizeof *c->running_seq);
}

#define RUNNING_FAR 64 /* a start that finds no hole this near lays the set
                          out again... */
#define RUNNING_GAP 8  /* ...with a hole after every RUNNING_GAP jobs */

/* Lays running[] out again with a hole after every RUNNING_GAP jobs, each
   keeping the key of the job before it, and room for one more entry:
   jobs end from the front of the set and start anywhere in it, so on a
   cluster with tens of thousands running the nearest hole was often
   thousands of entries away.  0 or HSIM_ENOMEM (then nothing changed).
   O(entries). */
static int running_respread(hsim_core_t *c)
{
    size_t live = c->n_running - c->running_holes, gaps = live / RUNNING_GAP;
    size_t n = live + gaps;
    if (hsim_grow(&c->running, &c->cap_running, n + 1, sizeof *c->running) ||
        hsim_grow(&c->running_seq, &c->cap_running_seq, n + 1, sizeof *c->running_seq))
        return HSIM_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < c->n_running; i++)
        if (c->running[i].job >= 0) {
            c->running[k] = c->running[i];
            c->running_seq[k++] = c->running_seq[i];
        }
    HSIM_ASSERT(k == live);
    for (size_t i = live, w = n; i > 0;) { /* from the back: w >= i */
        i--;
        if ((i + 1) % RUNNING_GAP == 0 && (i + 1) / RUNNING_GAP <= gaps) {
            w--;
            c->running[w] = c->running[i];
            c->running[w].job = -1;
            c->running[w].procs = 0;
            c->running_seq[w] = c->running_seq[i];
        }
        w--;
        c->running[w] = c->running[i];
        c->running_seq[w] = c->running_seq[i];
    }
    c->n_running = n;
    c->running_holes = gaps;
    c->running_first = 0;
    return 0;
}

/* The slot for a job starting with key (est_end, seq), the entries around
   it moved as needed; room for one more entry is there.  *low gets the
   lowest slot that now holds a job (it, or the entries moved down).
   O(log n) plus the entries between its place and the nearest hole. */
static size_t running_slot(hsim_core_t *c, hsim_time_t est_end, int64_t seq, size_t *low)
{
    size_t n = c->n_running, at = running_lower_bound(c, est_end, seq);
    for (size_t d = 0;; d++) {
        if (d == RUNNING_FAR && n > 4 * RUNNING_FAR && running_respread(c) == 0)
            return running_slot(c, est_end, seq, low);
        if (at + d == n) { /* the end: as good as a hole at n */
            running_shift(c, at, n, 1);
            c->n_running++;
            return *low = at;
        }
        if (c->running[at + d].job < 0) {
            running_shift(c, at, at + d, 1);
            c->running_holes--;
            return *low = at;
        }
        if (at > d && c->running[at - d - 1].job < 0) {
            running_shift(c, at - d, at, 0);
            c->running_holes--;
            *low = at - d - 1;
            return at - 1;
        }
    }
}

/* Room in running[] for one more entry.  0 or HSIM_ENOMEM. */
static int running_room(hsim_core_t *c)
{
    if (hsim_grow(&c->running, &c->cap_running, c->n_running + 1, sizeof *c->running) ||
        hsim_grow(&c->running_seq, &c->cap_running_seq, c->n_running + 1,
                  sizeof *c->running_seq))
        return HSIM_ENOMEM;
    return 0;
}

/* running_slot(), keeping the view's first entry. */
static size_t running_slot_in_view(hsim_core_t *c, hsim_time_t est_end, int64_t seq)
{
    size_t low, at = running_slot(c, est_end, seq, &low);
    if (low < c->running_first)
        c->running_first = low; /* the view starts at it */
    return at;
}

/* Removes the holes of running[].  O(n). */
static void running_compact(hsim_core_t *c)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n_running; i++)
        if (c->running[i].job >= 0) {
            c->running[k] = c->running[i];
            c->running_seq[k++] = c->running_seq[i];
        }
    HSIM_ASSERT(c->n_running - k == c->running_holes);
    c->n_running = k;
    c->running_holes = 0;
    c->running_first = 0;
}

static void remove_waiting(hsim_core_t *c, int32_t job)
{
    c->waiting[c->wslot[job]] = -1;
    c->waiting_holes++;
    if (c->user_of) { /* out of its user's list */
        int32_t next = c->wnext[job], prev = c->wprev[job];
        if (prev >= 0)
            c->wnext[prev] = next;
        else
            c->user_first[c->user_of[job]] = next;
        if (next >= 0)
            c->wprev[next] = prev;
        else
            c->user_last[c->user_of[job]] = prev;
    }
}

/* Squeezes the holes out of waiting[]; only between passes.  O(n). */
static void compact_waiting(hsim_core_t *c)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n_waiting; i++) {
        int32_t job = c->waiting[i];
        if (job >= 0) {
            c->wslot[job] = k;
            c->waiting[k++] = job;
        }
    }
    c->n_waiting = k;
    c->waiting_holes = 0;
}

/* The error for a job whose start, end or reservation would pass
   HSIM_HORIZON. */
int hsim_past_horizon(hsim_err_t *e, int64_t id, const char *what)
{
    return hsim_errf(e, HSIM_EINPUT,
                     "job %lld: its %s would pass hsim's horizon of %lld s of simulated "
                     "time (73,000 years): check its run and requested times and the "
                     "nodes' speeds",
                     (long long)id, what, (long long)(HSIM_HORIZON / HSIM_SECOND));
}

int hsim__past_horizon(hsim_core_t *c, int32_t job, const char *what)
{
    return hsim_past_horizon(c->e, c->job[job]->id, what);
}

void hsim_core_request(const hsim_job_t *j, size_t n_models, const uint32_t *model_map,
                       hsim_request_t *q)
{
    uint64_t models = 0;
    for (size_t m = 0; m < n_models && m < HSIM_MAX_MODELS; m++)
        if (j->gpu_models & (1u << m))
            models |= model_map[m];
    *q = (hsim_request_t){
        .procs = j->procs,
        .nodes = j->nodes,
        .cores_per_node = j->cores_per_node ? j->cores_per_node
                                            : (j->nodes ? (j->procs + j->nodes - 1) / j->nodes : 0),
        .mem_mb = j->mem_mb,
        .gpus = j->gpus,
        .gpu_milli = j->gpus ? (j->gpu_milli > 0 ? j->gpu_milli : 1000) : 0,
        .gpu_models = models,
        .fpgas = j->fpgas,
        .job_class = j->job_class,
        .user = j->user,
        .partition = j->partition,
    };
    /* a model constraint naming no model of this cluster can never be met */
    if (j->gpu_models && !models)
        q->gpu_models = HSIM_MODEL_ABSENT;
}

void hsim_core_model_map(const char (*models)[HSIM_LABEL_MAX], size_t n_models,
                         const hsim_cluster_t *c, uint32_t *model_map)
{
    for (size_t m = 0; m < n_models; m++) {
        int cm = hsim_cluster_model(c, models[m]);
        model_map[m] = cm >= 0 ? 1u << cm : 0;
    }
    /* a cluster model no job names exactly ("Tesla V100-SXM2-32GB", from
       a topology) serves the one job model that is a word of its name */
    for (size_t cm = 0; cm < c->n_models; cm++) {
        int named = 0, worded = -1, words = 0;
        for (size_t m = 0; m < n_models; m++) {
            if (!strcasecmp(c->models[cm], models[m]))
                named = 1;
            else if (hsim_model_matches(c->models[cm], models[m]))
                worded = (int)m, words++;
        }
        if (!named && words == 1)
            model_map[worded] |= 1u << cm;
    }
}

/* What is left of reference time t (a run or a requested time) for job's
   next attempt: t less the work a checkpoint kept, plus the restart cost;
   t itself for a job no failure stopped.  At least 1 us. */
hsim_time_t hsim_core_work_left(const hsim_core_t *c, int32_t job, hsim_time_t t)
{
    if (!c->stops)
        return t;
    hsim_time_t left = t - c->done[job] + c->cost[job];
    return left > 0 ? left : 1;
}

/* Has running job finished now, its end still to be reported? */
static int finished(const hsim_core_t *c, int32_t job)
{
    return c->drv.finished && c->drv.finished(c->drv.arg, job);
}

/* Releases the jobs of heap c->ends at or below slot i that end by now,
   as ending_by() counts them (see hsim__settle_ending()). */
static void settle_heap(hsim_core_t *c, size_t i)
{
    const hsim_rheap_t *h = &c->ends;
    if (i >= h->n || h->ev[i].time > c->now)
        return;
    if (finished(c, h->ev[i].job))
        hsim__release_job(c, h->ev[i].job); /* nothing when released already */
    settle_heap(c, 2 * i + 1);
    settle_heap(c, 2 * i + 2);
}

/* Releases, ahead of their termination events, the resources of the
   running jobs whose planned end is now at the latest: the scheduler
   already counts them free (pyss's convention), and those jobs end now,
   their terminations still to come in this instant (a job is released
   only if it does end now).  So every placement sees them free: first-fit
   takes the lowest nodes, pack the fewest.  O(jobs ending now). */
void hsim__settle_ending(hsim_core_t *c)
{
    if (!c->ordered) {
        settle_heap(c, 0);
        return;
    }
    for (size_t i = c->running_first; i < c->n_running && c->running[i].est_end <= c->now; i++) {
        int32_t job = c->running[i].job;
        if (job >= 0 && finished(c, job))
            hsim__release_job(c, job);
    }
}

static int by_int32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* Appends text to the run's ranges.  0 or HSIM_ENOMEM. */
static int ranges_put(hsim_core_t *c, const char *text, size_t n)
{
    hsim_run_stats_t *st = &c->stats;
    if (hsim_grow(&st->ranges, &st->cap_ranges, st->n_ranges + n, 1))
        return HSIM_ENOMEM;
    memcpy(st->ranges + st->n_ranges, text, n);
    st->n_ranges += n;
    return 0;
}

/* Records in job's outcome what its allocation holds, and its nodes as
   ranges.  0 or HSIM_ENOMEM.  O(parts log parts). */
static int note_held(hsim_core_t *c, int32_t job)
{
    const hsim_alloc_t *a = &c->allocs[job];
    hsim_held_t *o = &c->stats.held[job];
    o->cores = o->fpgas = 0;
    o->mem_mb = o->gpu_milli = 0;
    int32_t *nodes = hsim_malloc(a->n * sizeof *nodes);
    if (!nodes)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < a->n; i++) {
        const hsim_part_t *p = &a->parts[i];
        o->cores += p->cores;
        o->fpgas += p->fpgas;
        o->mem_mb += p->mem_mb;
        o->gpu_milli += 1000 * (int64_t)p->gpus + (p->gpu >= 0 ? p->gpu_milli : 0);
        nodes[i] = p->node;
    }
    size_t sorted = 1;
    while (sorted < a->n && nodes[sorted - 1] < nodes[sorted])
        sorted++;
    if (sorted < a->n) /* most placements list their nodes in order */
        qsort(nodes, a->n, sizeof *nodes, by_int32);
    o->ranges = (int64_t)c->stats.n_ranges;
    int rc = 0;
    for (size_t i = 0; i < a->n && rc == 0;) {
        size_t k = i;
        while (k + 1 < a->n && nodes[k + 1] <= nodes[k] + 1)
            k++;
        char text[32];
        int n = nodes[k] > nodes[i]
                    ? snprintf(text, sizeof text, "%s%d-%d", i ? ";" : "", nodes[i], nodes[k])
                    : snprintf(text, sizeof text, "%s%d", i ? ";" : "", nodes[i]);
        rc = ranges_put(c, text, (size_t)n);
        i = k + 1;
    }
    hsim_free(nodes);
    return rc ? rc : ranges_put(c, "", 1);
}

/* The ledger has just taken job's allocation: the planner told, its
   nodes noted.  0 or HSIM_ENOMEM. */
int hsim__placed(hsim_core_t *c, int32_t job)
{
    const hsim_alloc_t *a = &c->allocs[job];
    HSIM_ASSERT(a->n > 0);
    if (c->planner)
        hsim_planner_sync(c->planner, a);
    c->n_placed++;
    return note_held(c, job);
}

/* Takes the parts of given from the ledger into a if every one fits (two
   parts on one node add up) on a node type q may use; else takes
   nothing.  0, HSIM_NOFIT or HSIM_ENOMEM. */
static int take_given(hsim_core_t *c, const hsim_request_t *q, const hsim_alloc_t *given,
                      hsim_alloc_t *a)
{
    hsim_cluster_t *cl = &c->cluster;
    size_t i;
    for (i = 0; i < given->n; i++) {
        const hsim_part_t *p = &given->parts[i];
        if (p->node < 0 || (size_t)p->node >= cl->n_nodes)
            break;
        const hsim_node_t *n = &cl->nodes[p->node];
        if (!hsim_place_type_ok(cl, (size_t)n->type, q) || p->cores < 0 || p->mem_mb < 0 ||
            p->gpus < 0 || p->fpgas < 0 || p->gpu >= cl->types[n->type].gpus ||
            !hsim_part_fits(cl, p))
            break;
        hsim_alloc_t one = {.parts = (hsim_part_t *)p, .n = 1};
        hsim_cluster_take(cl, &one, c->now);
    }
    if (i < given->n || given->n == 0) { /* undo */
        while (i-- > 0) {
            hsim_alloc_t one = {.parts = &given->parts[i], .n = 1};
            hsim_cluster_give(cl, &one, c->now);
        }
        return HSIM_NOFIT;
    }
    for (i = 0; i < given->n; i++)
        if (hsim_alloc_add(a, &given->parts[i]))
            return HSIM_ENOMEM;
    return 0;
}

/* Places job on the cluster and takes its resources: on given when it is
   not NULL (and fits), else where the placement policy chooses; *speed
   gets the speed of its slowest part.  0, HSIM_NOFIT or HSIM_ENOMEM. */
static int place_job(hsim_core_t *c, int32_t job, const hsim_alloc_t *given, double *speed)
{
    const hsim_job_t *j = c->job[job];
    const hsim_request_t *q = &c->requests[job];
    hsim_alloc_t *a = &c->allocs[job];
    hsim__settle_ending(c); /* placement sees what the scheduler saw free */
    if (c->susp && c->susp[job].n) { /* it resumes on its own nodes... */
        int rc = hsim__resume_job(c, job);
        *speed = rc ? 1.0 : hsim_cluster_alloc_speed(&c->cluster, j->job_class, j->gpus > 0, a);
        if (rc != HSIM_NOFIT || !given)
            return rc;
        hsim__drop_hold(c, job, -1); /* ...or where a plan on nodes put it */
    }
    a->n = 0;
    if (given) {
        int rc = take_given(c, q, given, a);
        if (rc)
            return rc;
        *speed = hsim_cluster_alloc_speed(&c->cluster, j->job_class, j->gpus > 0, a);
        return hsim__placed(c, job);
    }
    int rc = c->cfg->placement->place(c->place_state, &c->cluster, q, a);
    if (rc == HSIM_NOFIT && c->n_placed == 0) {
        /* A layout the policy cannot find even on the idle cluster (a
           memory split that its node order cannot fit): the one the
           rejection check found, hsim_spec_reject_impossible()'s, so that a
           job that passed it never waits for ever. */
        a->n = 0;
        rc = c->fallback->place(c->fallback_state, &c->cluster, q, a);
    }
    if (rc)
        return rc;
    for (size_t i = 0; i < a->n; i++) {
        const hsim_part_t *p = &a->parts[i];
        HSIM_ASSERT(hsim_node_fits(&c->cluster, p->node, p->cores, p->mem_mb, p->gpus,
                                   p->gpu >= 0 ? p->gpu_milli : 1000, p->fpgas));
    }
    hsim_cluster_take(&c->cluster, a, c->now);
    *speed = hsim_cluster_alloc_speed(&c->cluster, j->job_class, j->gpus > 0, a);
    return hsim__placed(c, job);
}

/* Gives the job's resources back and counts what it used; nothing when
   hsim__settle_ending() gave them back already. */
void hsim__release_job(hsim_core_t *c, int32_t job)
{
    hsim_alloc_t *a = &c->allocs[job];
    if (a->n == 0)
        return;
    hsim__count_use(c, job);
    for (size_t i = 0; i < a->n; i++)
        c->stats.node_jobs[a->parts[i].node]++;
    hsim_cluster_give(&c->cluster, a, c->now);
    if (c->planner)
        hsim_planner_sync(c->planner, a);
    c->n_placed--;
    hsim_alloc_free(a);
}

/* Adds what job's allocation used since its last start to the run's
   resource-seconds. */
void hsim__count_use(hsim_core_t *c, int32_t job)
{
    const hsim_alloc_t *a = &c->allocs[job];
    double secs = (double)(c->now - c->start[job]) / HSIM_SECOND;
    for (size_t i = 0; i < a->n; i++) {
        const hsim_part_t *p = &a->parts[i];
        c->stats.core_s += secs * p->cores;
        c->stats.mem_s += secs * (double)p->mem_mb;
        c->stats.fpga_s += secs * p->fpgas;
        double gpu_s = secs * (p->gpus + p->gpu_milli / 1000.0);
        c->stats.all_gpu_s += gpu_s;
        int m = c->cluster.type_model[c->cluster.nodes[p->node].type];
        if (m >= 0)
            c->stats.gpu_s[m] += gpu_s;
    }
}

/* Starts job now, on given when not NULL: the decision callbacks and the
   reserved-start event. */
static int start_job_on(hsim_core_t *c, int32_t job, const hsim_alloc_t *given)
{
    if (job < 0 || (size_t)job >= c->n_jobs || c->state[job] != JOB_WAITING)
        return hsim_errf(c->e, HSIM_EINPUT,
                         "policy error: job index %d is not waiting", job);
    const hsim_job_t *j = c->job[job];
    double speed = 1.0;
    if (c->has_cluster) {
        int rc = place_job(c, job, given, &speed);
        if (rc)
            return rc; /* HSIM_NOFIT: the policy treats it as not fitting */
    } else {
        int32_t free_now = hsim_view_free_now(&c->view);
        if (j->procs > free_now)
            return hsim_errf(c->e, HSIM_EINPUT,
                             "policy error: job %lld needs %d processors, %d are free at %lld s",
                             (long long)j->id, j->procs, free_now,
                             (long long)(c->now / HSIM_SECOND));
    }
    remove_waiting(c, job);
    if (running_room(c))
        return HSIM_ENOMEM;
    int64_t seq = c->starts++;
    hsim_time_t est_end = c->now + hsim_time_scaled(c->vjobs[job].estimate, speed);
    if (est_end > HSIM_HORIZON)
        return hsim__past_horizon(c, job, "estimated end");
    c->est_end[job] = est_end;
    size_t at = c->n_running;
    if (c->ordered) {
        at = running_slot_in_view(c, est_end, seq);
    } else {
        c->rpos[job] = at;
        hsim_event_t ev = {.time = est_end, .seq = seq, .job = job};
        hsim_rheap_set(&c->ends, &ev);
    }
    c->running[at] = (hsim_running_t){.job = job, .procs = j->procs,
                                      .start = c->now, .est_end = est_end};
    c->running_seq[at] = seq;
    if (!c->ordered)
        c->n_running++;
    c->running_procs += j->procs;
    c->start_seq[job] = seq;
    c->state[job] = JOB_RUNNING;
    hsim_reserved_remove(&c->reservations, job);
    if (c->resv_at)
        c->resv_at[job] = -1;

    c->start[job] = c->now;
    c->speed[job] = (float)speed;
    if (c->stops)
        c->stats.starts[job]++;
    hsim__refresh_view(c);
    int orc = hsim__order_started(c, job);
    if (orc)
        return orc;
    const hsim_predictor_t *pred = c->cfg->predictor;
    if (pred->started) {
        int rc = pred->started(c->pred_state, j, c->now);
        if (rc)
            return rc;
    }
    hsim_time_t expiry = -1; /* with a predictor that can underpredict: */
    if (c->full_end) {
        expiry = est_end;
        c->full_end[job] =
            c->now + hsim_time_scaled(hsim_core_work_left(c, job, j->estimate), speed);
    }
    return c->drv.started(c->drv.arg, job, speed, expiry);
}

static int start_job(hsim_core_t *c, int32_t job) { return start_job_on(c, job, NULL); }

static int decide_start(void *ctx, int32_t job) { return start_job(ctx, job); }

static int decide_start_on(void *ctx, int32_t job, const hsim_alloc_t *a)
{
    hsim_core_t *c = ctx;
    if (!c->has_cluster || !a)
        return hsim_errf(c->e, HSIM_EINPUT, "policy error: start_on() without a cluster");
    return start_job_on(c, job, a);
}

/* A reserved start due now: on the reservation's nodes when it has some
   and they are free, else where the placement policy finds room. */
static int start_reserved(hsim_core_t *c, int32_t job)
{
    hsim_alloc_t *given = c->resv_alloc ? &c->resv_alloc[job] : NULL;
    int rc = HSIM_NOFIT;
    if (given && given->n)
        rc = start_job_on(c, job, given);
    if (rc == HSIM_NOFIT)
        rc = start_job(c, job);
    if (given)
        hsim_alloc_free(given);
    return rc;
}

static int decide_reserve(void *ctx, int32_t job, hsim_time_t at)
{
    hsim_core_t *c = ctx;
    if (job < 0 || (size_t)job >= c->n_jobs || c->state[job] != JOB_WAITING)
        return hsim_errf(c->e, HSIM_EINPUT,
                         "policy error: reservation for job index %d, which is not waiting", job);
    if (at < c->now)
        return hsim_errf(c->e, HSIM_EINPUT,
                         "policy error: reservation in the past for job %lld",
                         (long long)c->job[job]->id);
    if (at > HSIM_HORIZON)
        return hsim__past_horizon(c, job, "reservation");
    hsim_event_t ev = {.time = at, .seq = c->seq++, .job = job, .kind = HSIM_EV_START};
    hsim_reserved_set(&c->reservations, &ev);
    if (c->resv_alloc) {
        c->resv_alloc[job].n = 0; /* a plain reservation has no nodes */
        c->resv_at[job] = at;
    }
    return 0;
}

static int decide_reserve_on(void *ctx, int32_t job, hsim_time_t at, const hsim_alloc_t *a)
{
    hsim_core_t *c = ctx;
    if (!c->has_cluster || !a)
        return hsim_errf(c->e, HSIM_EINPUT, "policy error: reserve_on() without a cluster");
    if (!c->resv_alloc) { /* the first reservation on nodes */
        if (hsim__keep_table(c, &c->resv_alloc, sizeof *c->resv_alloc) ||
            hsim__keep_table(c, &c->resv_at, sizeof *c->resv_at))
            return HSIM_ENOMEM;
        for (size_t i = 0; i < c->n_jobs; i++)
            c->resv_at[i] = -1;
    }
    /* new nodes for the same start keep its place among the starts due
       then (the sequence of its event) */
    int rc = job >= 0 && (size_t)job < c->n_jobs && c->resv_at[job] == at &&
                     c->state[job] == JOB_WAITING
                 ? 0
                 : decide_reserve(ctx, job, at);
    if (rc)
        return rc;
    hsim_alloc_t *mine = &c->resv_alloc[job];
    mine->n = 0;
    for (size_t i = 0; i < a->n; i++)
        if (hsim_alloc_add(mine, &a->parts[i]))
            return HSIM_ENOMEM;
    return 0;
}

/* The predictor's estimate for a job now: at most the requested time, and
   a guess at least 1 s. */
static hsim_time_t predict(hsim_core_t *c, int32_t job)
{
    const hsim_job_t *j = c->job[job];
    const hsim_predictor_t *pred = c->cfg->predictor;
    hsim_job_t asked = *j; /* what is known of the job before it runs */
    if (!pred->reads_runtime) {
        asked.runtime = 0;
        asked.killed_at_estimate = 0;
    }
    hsim_time_t p = pred->predict(c->pred_state, &asked, c->now);
    if (p > j->estimate)
        p = j->estimate;
    /* a guess, not a knowledge of the runtime: at least a second (pyss) */
    if (pred->underpredicts && p < HSIM_SECOND && j->estimate >= HSIM_SECOND)
        p = HSIM_SECOND;
    if (p <= 0)
        p = j->estimate;
    return p;
}

/* Takes a running job out of the ordered running[], leaving a hole;
   returns its entry as it was. */
static hsim_running_t running_hole(hsim_core_t *c, int32_t job)
{
    size_t at = running_lower_bound(c, c->est_end[job], c->start_seq[job]);
    HSIM_ASSERT(at < c->n_running && c->running[at].job == job);
    hsim_running_t entry = c->running[at];
    c->running[at].job = -1; /* a hole: it keeps its key */
    c->running[at].procs = 0;
    while (c->running_first < c->n_running && c->running[c->running_first].job < 0)
        c->running_first++; /* the view starts at the first job */
    if (++c->running_holes > 32 && 2 * c->running_holes > c->n_running)
        running_compact(c);
    return entry;
}

/* A running job reached its prediction without ending: it is planned on
   its requested time from now on (no scheduling pass follows).  0,
   HSIM_ENOMEM, or HSIM_EINPUT for a job that is not running with an
   expiry. */
int hsim_core_expire(hsim_core_t *c, int32_t job)
{
    if (job < 0 || (size_t)job >= c->n_jobs || c->state[job] != JOB_RUNNING || !c->full_end)
        return hsim_errf(c->e, HSIM_EINPUT, "driver error: expiry of job index %d, which is "
                         "not running with a prediction", job);
    hsim__refresh_view(c);
    hsim_time_t est_end = c->full_end[job];
    c->vjobs[job].estimate = c->job[job]->estimate;
    if (c->ordered) {
        if (running_room(c))
            return HSIM_ENOMEM;
        hsim_running_t entry = running_hole(c, job);
        entry.est_end = est_end;
        size_t at = running_slot_in_view(c, est_end, c->start_seq[job]);
        c->running[at] = entry;
        c->running_seq[at] = c->start_seq[job];
    } else {
        c->running[c->rpos[job]].est_end = est_end;
        hsim_event_t ev = {.time = est_end, .seq = c->start_seq[job], .job = job};
        hsim_rheap_set(&c->ends, &ev);
    }
    c->est_end[job] = est_end;
    c->stats.expiries++;
    hsim__refresh_view(c);
    return 0;
}

/* Asks the predictor again for the waiting jobs of the user of a job that
   has just ended; the view's revision changes when an answer does, and
   its revised[] lists the jobs whose answer did. */
static void revise_user(hsim_core_t *c, int32_t ended)
{
    size_t n = 0;
    for (int32_t job = c->user_first[c->user_of[ended]]; job >= 0; job = c->wnext[job]) {
        hsim_time_t p = predict(c, job);
        if (p != c->vjobs[job].estimate) {
            c->vjobs[job].estimate = p;
            c->revised[n++] = job;
        }
    }
    if (n) {
        c->view.revision++;
        c->view.revised = c->revised;
        c->view.n_revised = n;
    }
}

/* Takes a running job out of the running set and its processors out of
   the count (not its resources out of the ledger: hsim__release_job()). */
void hsim__leave_running(hsim_core_t *c, int32_t job)
{
    if (c->ordered) {
        (void)running_hole(c, job);
    } else { /* the last entry fills the hole */
        size_t at = c->rpos[job], last = c->n_running - 1;
        HSIM_ASSERT(c->running[at].job == job);
        c->running[at] = c->running[last];
        c->running_seq[at] = c->running_seq[last];
        c->rpos[c->running[at].job] = at;
        hsim_rheap_remove(&c->ends, job);
        c->n_running--;
    }
    c->running_procs -= c->vjobs[job].procs;
}

int hsim_core_end(hsim_core_t *c, int32_t job, hsim_time_t ran)
{
    if (job < 0 || (size_t)job >= c->n_jobs || c->state[job] != JOB_RUNNING)
        return hsim_errf(c->e, HSIM_EINPUT, "driver error: end of job index %d, which is "
                         "not running", job);
    hsim__refresh_view(c);
    const hsim_vjob_t *vj = &c->vjobs[job];
    hsim_time_t start = c->start[job];
    hsim__leave_running(c, job);
    if (c->stats.ran)
        c->stats.ran[job] += c->now - start;
    c->state[job] = JOB_DONE;
    c->n_done++;
    if (c->has_cluster)
        hsim__release_job(c, job);
    if (c->drv.ended) {
        int rc = c->drv.ended(c->drv.arg, job);
        if (rc)
            return rc;
    }
    /* the scheduler planned with the unscaled estimate */
    hsim_time_t est_end = start + vj->estimate;
    hsim__refresh_view(c);
    const hsim_predictor_t *p = c->cfg->predictor;
    if (p->learn) {
        /* what it ran on the reference machine: predictions are of that,
           and start_job_on() scales them to the allocation's speed */
        int rc = p->learn(c->pred_state, c->job[job], ran, c->now);
        if (rc)
            return rc;
    }
    if (p->revises)
        revise_user(c, job);
    if (c->planner)
        hsim__settle_ending(c); /* the planner sees the ledger as the scheduler does */
    int orc = hsim__order_ended(c, job, start);
    if (orc == 0)
        orc = hsim__order_pass(c);
    if (orc)
        return orc;
    const hsim_scheduler_t *s = c->cfg->scheduler;
    if (s->ended) {
        int rc = s->ended(c->sched_state, &c->view, job, start, est_end, &c->decide);
        if (rc)
            return rc;
    }
    int rc = hsim__schedule_pass(c);
    return rc == 0 && c->n_deferred ? hsim__retry_deferred(c) : rc;
}

/* The core's half of a submission: the job joins waiting[]. */
int hsim__enqueue_job(hsim_core_t *c, int32_t job)
{
    c->vjobs[job].estimate = predict(c, job);
    if (c->stops) /* a job that was stopped: what is left of it */
        c->vjobs[job].estimate = hsim_core_work_left(c, job, c->vjobs[job].estimate);
    if (c->waiting_holes > c->n_waiting / 2)
        compact_waiting(c);
    if (hsim_grow(&c->waiting, &c->cap_waiting, c->n_waiting + 1, sizeof *c->waiting))
        return HSIM_ENOMEM;
    c->wslot[job] = c->n_waiting;
    c->waiting[c->n_waiting++] = job;
    if (c->n_waiting - c->waiting_holes > c->stats.max_waiting)
        c->stats.max_waiting = c->n_waiting - c->waiting_holes;
    c->state[job] = JOB_WAITING;
    if (c->user_of) { /* last in its user's list, which stays in
                         submission order (the order revised[] lists) */
        int32_t u = c->user_of[job], last = c->user_last[u];
        c->wprev[job] = last;
        c->wnext[job] = -1;
        if (last >= 0)
            c->wnext[last] = job;
        else
            c->user_first[u] = job;
        c->user_last[u] = job;
    }
    return 0;
}

/* The policy's half: it is told, and runs a pass. */
int hsim__announce_job(hsim_core_t *c, int32_t job)
{
    hsim__refresh_view(c);
    if (c->planner)
        hsim__settle_ending(c); /* the planner sees the ledger as the scheduler does */
    int orc = hsim__order_pass(c);
    if (orc)
        return orc;
    const hsim_scheduler_t *s = c->cfg->scheduler;
    if (s->submitted) {
        int rc = s->submitted(c->sched_state, &c->view, job, &c->decide);
        if (rc)
            return rc;
    }
    return hsim__schedule_pass(c);
}

int hsim_core_submit(hsim_core_t *c, int32_t job)
{
    if (job < 0 || (size_t)job >= c->n_jobs || c->state[job] != JOB_FUTURE)
        return hsim_errf(c->e, HSIM_EINPUT, "driver error: submission of job index %d, "
                         "which is not new", job);
    c->vjobs[job].submit = c->now; /* later than its own when it waited */
    c->n_submitted++;
    int rc = hsim__enqueue_job(c, job);
    return rc ? rc : hsim__announce_job(c, job);
}


/* ---- the per-job tables ---- */

/* Registers *table, a per-job table of size bytes per job, and makes its
   room (every entry 0): from now on it grows with the jobs.  0 or
   HSIM_ENOMEM. */
int hsim__keep_table(hsim_core_t *c, void *table, size_t size)
{
    HSIM_ASSERT(c->n_tables < sizeof c->tables / sizeof c->tables[0]);
    void **p = table;
    *p = hsim_calloc(c->cap_jobs ? c->cap_jobs : 1, size);
    if (!*p)
        return HSIM_ENOMEM;
    c->tables[c->n_tables++] = (struct job_table){.p = p, .size = size};
    return 0;
}

/* The policies' and the queues' room for n jobs. */
static int grow_others(hsim_core_t *c, size_t n)
{
    if (!c->ordered && hsim_rheap_grow(&c->ends, n))
        return HSIM_ENOMEM;
    if (hsim_reserved_grow(&c->reservations, n))
        return HSIM_ENOMEM;
    if (c->preempt_state && hsim_preempt_grow(c->preempt_state, n))
        return HSIM_ENOMEM;
#ifdef HSIM_INVARIANTS
    hsim_free(c->inv_scratch);
    c->inv_scratch = hsim_calloc(hsim_invariants_scratch(n, c->has_cluster ? &c->cluster : NULL),
                                 1);
    if (!c->inv_scratch)
        return HSIM_ENOMEM;
#endif
    int rc = hsim__orders_grow(c, n);
    const hsim_scheduler_t *s = c->cfg->scheduler;
    if (rc == 0 && s->grow && c->sched_state)
        rc = s->grow(c->sched_state, n);
    return rc;
}

/* Room for n jobs in every per-job table (doubling), the new entries 0.
   0, HSIM_ENOMEM or a policy's error. */
int hsim__grow_jobs(hsim_core_t *c, size_t n)
{
    if (n <= c->cap_jobs)
        return 0;
    size_t cap = c->cap_jobs < 8 ? 16 : 2 * c->cap_jobs;
    if (cap < n)
        cap = n;
    for (size_t t = 0; t < c->n_tables; t++)
        if (hsim_grow_zeroed(c->tables[t].p, c->cap_jobs, cap, c->tables[t].size))
            return HSIM_ENOMEM;
    c->cap_jobs = cap;
    c->view.jobs = c->vjobs; /* the view's tables have moved */
    c->view.requests = c->requests;
    c->view.allocs = c->allocs;
    if (c->view.revised)
        c->view.revised = c->revised;
    return grow_others(c, cap);
}

/* ---- setting up ---- */

static int setup_cluster(hsim_core_t *c, const hsim_core_setup_t *su)
{
    const hsim_cluster_spec_t *spec = c->cfg->cluster;
    int rc = hsim_cluster_init(&c->cluster, spec->types, spec->n_types);
    if (rc)
        return rc;
    c->has_cluster = 1;
    hsim_cluster_job_trees(&c->cluster, c->cfg->placement->reads_job_counts);
    if ((rc = hsim_cluster_speeds_init(&c->cluster, spec->n_classes)))
        return rc;
    if (spec->class_speed)
        memcpy(c->cluster.speeds.speed, spec->class_speed,
               spec->n_classes * spec->n_types * sizeof(double));
    c->model_map = hsim_calloc(HSIM_MAX_MODELS, sizeof *c->model_map);
    c->stats.n_nodes = c->cluster.n_nodes;
    c->stats.node_busy = hsim_calloc(c->cluster.n_nodes, sizeof *c->stats.node_busy);
    c->stats.node_jobs = hsim_calloc(c->cluster.n_nodes, sizeof *c->stats.node_jobs);
    if (!c->model_map || !c->stats.node_busy || !c->stats.node_jobs ||
        hsim__keep_table(c, &c->allocs, sizeof *c->allocs) ||
        hsim__keep_table(c, &c->requests, sizeof *c->requests) ||
        hsim__keep_table(c, &c->stats.held, sizeof *c->stats.held))
        return HSIM_ENOMEM;
    c->n_models = su->n_models;
    hsim_core_model_map(su->models, su->n_models, &c->cluster, c->model_map);
    c->fallback = hsim_placement_find("first-fit");
    if ((rc = c->fallback->create(&c->cluster, HSIM_PACK, &c->fallback_state)))
        return rc;
    if ((rc = c->cfg->placement->create(&c->cluster, c->cfg->spread, &c->place_state)))
        return rc;
    if (c->cfg->scheduler->plans_on_nodes &&
        (rc = hsim_planner_create(&c->cluster, c->cfg->placement, c->place_state,
                                  c->cfg->spread, &c->planner)))
        return rc;
    c->view.cluster = &c->cluster;
    c->view.planner = c->planner;
    return 0;
}

/* The tables every run keeps, and those of its predictor.  0 or
   HSIM_ENOMEM. */
static int setup_tables(hsim_core_t *c)
{
    if (hsim__keep_table(c, &c->job, sizeof *c->job) ||
        hsim__keep_table(c, &c->vjobs, sizeof *c->vjobs) ||
        hsim__keep_table(c, &c->state, sizeof *c->state) ||
        hsim__keep_table(c, &c->start_seq, sizeof *c->start_seq) ||
        hsim__keep_table(c, &c->start, sizeof *c->start) ||
        hsim__keep_table(c, &c->speed, sizeof *c->speed) ||
        hsim__keep_table(c, &c->wslot, sizeof *c->wslot) ||
        hsim__keep_table(c, &c->est_end, sizeof *c->est_end))
        return HSIM_ENOMEM;
    if (c->cfg->predictor->underpredicts &&
        hsim__keep_table(c, &c->full_end, sizeof *c->full_end))
        return HSIM_ENOMEM;
    if (c->cfg->predictor->revises && /* each user's waiting jobs */
        (hsim__keep_table(c, &c->user_of, sizeof *c->user_of) ||
         hsim__keep_table(c, &c->wnext, sizeof *c->wnext) ||
         hsim__keep_table(c, &c->wprev, sizeof *c->wprev) ||
         hsim__keep_table(c, &c->revised, sizeof *c->revised)))
        return HSIM_ENOMEM;
    if (!c->ordered && hsim__keep_table(c, &c->rpos, sizeof *c->rpos))
        return HSIM_ENOMEM;
    return 0;
}

/* The policies: the orders, the predictor and the scheduler, each made
   with room for the jobs of the hint. */
static int setup_policies(hsim_core_t *c, const hsim_core_setup_t *su)
{
    int rc = hsim__orders_create(c);
    if (rc)
        return rc;
    hsim_policy_params_t params = {
        .capacity = c->cfg->capacity,
        .n_jobs = c->cap_jobs,
        .order = c->cfg->order,
        .order_state = c->order_state,
        .backfill_order = c->cfg->backfill_order,
        .backfill_order_state = c->bf_order_state,
        .planner = c->planner,
        .quantum = c->cfg->quantum,
        .values = c->cfg->values,
    };
    hsim_predictor_ctx_t pctx = {
        .n_jobs = c->cap_jobs,
        .unix_start = su->unix_start,
        .time_zone = su->time_zone,
        .model = c->cfg->predictor_model ? c->cfg->predictor_model : "",
        .retrain = c->cfg->predictor_retrain,
        .under_weight = c->cfg->predictor_under_weight,
        .e = c->e,
    };
    if ((rc = c->cfg->predictor->create(&pctx, &c->pred_state)))
        return rc;
    return c->cfg->scheduler->create(&params, &c->sched_state);
}

static int setup(hsim_core_t *c, const hsim_core_setup_t *su)
{
    c->cap_jobs = su->jobs_hint ? su->jobs_hint : 16;
    c->fail_origin = su->origin;
    c->ordered = !c->cfg->scheduler->running_any_order ||
                 (c->cfg->cluster && c->cfg->scheduler->plans_on_nodes);
    int rc = setup_tables(c);
    if (rc)
        return rc;
    if (!c->ordered && hsim_rheap_init(&c->ends, c->cap_jobs))
        return HSIM_ENOMEM;
    if (c->cfg->cluster && (rc = setup_cluster(c, su)))
        return rc;
    c->view.capacity = c->cfg->capacity;
    c->view.jobs = c->vjobs;
    c->view.requests = c->requests;
    c->view.allocs = c->allocs;
    c->decide = (hsim_decide_t){.ctx = c, .start = decide_start, .reserve = decide_reserve,
                                .start_on = decide_start_on, .reserve_on = decide_reserve_on,
                                .stop = hsim__decide_stop, .wake = hsim__decide_wake};
    if (hsim_reserved_init(&c->reservations, c->cap_jobs))
        return HSIM_ENOMEM;
    if (c->cfg->failures) {
        if (!c->has_cluster)
            return hsim_errf(c->e, HSIM_EINPUT, "node failures need a cluster of nodes");
        if ((rc = hsim__setup_failures(c)))
            return rc;
    }
    if ((c->cfg->preempt || c->cfg->scheduler->stops_jobs) && hsim__setup_stops(c))
        return HSIM_ENOMEM;
#ifdef HSIM_INVARIANTS
    c->inv_scratch = hsim_calloc(
        hsim_invariants_scratch(c->cap_jobs, c->has_cluster ? &c->cluster : NULL), 1);
    if (!c->inv_scratch)
        return HSIM_ENOMEM;
#endif
    return setup_policies(c, su);
}

int hsim_core_create(const hsim_core_setup_t *su, hsim_core_t **out)
{
    hsim_core_t *c = hsim_calloc(1, sizeof *c);
    *out = c;
    if (!c)
        return HSIM_ENOMEM;
    c->cfg = su->cfg;
    c->drv = *su->driver;
    c->e = su->e;
    c->wake_last = -1;
    return setup(c, su);
}

/* The per-node figures closed at now. */
static void close_stats(hsim_core_t *c)
{
    if (!c->has_cluster)
        return;
    for (size_t i = 0; c->stats.node_busy && i < c->cluster.n_nodes; i++)
        c->stats.node_busy[i] = hsim_node_busy(&c->cluster.nodes[i], c->now);
    if (c->fail && c->down_since && c->down_total)
        hsim__close_failures(c);
}

/* Is table one of the stats' (theirs to free)? */
static int stats_table(const hsim_core_t *c, const void *table)
{
    const hsim_run_stats_t *st = &c->stats;
    return table && (table == st->held || table == st->starts || table == st->lost ||
                     table == st->ran);
}

int hsim_core_destroy(hsim_core_t *c, int ok, hsim_run_stats_t *stats)
{
    if (!c)
        return 0;
    close_stats(c);
    hsim__close_stops(c);
    if (c->has_cluster) {
        if (c->place_state)
            c->cfg->placement->destroy(c->place_state);
        if (c->fallback_state)
            c->fallback->destroy(c->fallback_state);
        for (size_t i = 0; c->allocs && i < c->n_jobs; i++)
            hsim_alloc_free(&c->allocs[i]);
        for (size_t i = 0; c->resv_alloc && i < c->n_jobs; i++)
            hsim_alloc_free(&c->resv_alloc[i]);
        hsim_planner_destroy(c->planner);
        hsim_cluster_free(&c->cluster);
    }
    hsim_free(c->down_since);
    hsim_free(c->down_total);
    hsim_free(c->deferred);
    hsim_free(c->model_map);
    hsim_free(c->user_first);
    hsim_free(c->user_last);
    hsim_idmap_free(&c->users);
    if (c->sched_state)
        c->cfg->scheduler->destroy(c->sched_state);
    int rc = hsim__orders_destroy(c, ok); /* after the scheduler's queues */
    if (c->pred_state)
        c->cfg->predictor->destroy(c->pred_state);
    hsim_reserved_free(&c->reservations);
    hsim_free(c->waiting);
    hsim_free(c->running);
    hsim_free(c->running_seq);
    hsim_rheap_free(&c->ends);
    for (size_t t = 0; t < c->n_tables; t++)
        if (!stats_table(c, *c->tables[t].p))
            hsim_free(*c->tables[t].p);
#ifdef HSIM_INVARIANTS
    hsim_free(c->inv_scratch);
#endif
    if (stats)
        *stats = c->stats;
    else
        hsim_run_stats_free(&c->stats);
    hsim_free(c);
    return rc;
}

/* ---- jobs coming, timers ---- */

/* Job's user numbered, its list empty when new.  0 or HSIM_ENOMEM. */
static int number_user(hsim_core_t *c, int32_t job)
{
    int32_t u;
    size_t users = c->users.n;
    if (hsim_idmap_number(&c->users, c->job[job]->user, &u))
        return HSIM_ENOMEM;
    if ((size_t)u >= c->cap_users) {
        size_t cap = c->cap_users;
        if (hsim_grow(&c->user_first, &cap, (size_t)u + 1, sizeof *c->user_first) ||
            hsim_grow(&c->user_last, &c->cap_users, cap, sizeof *c->user_last))
            return HSIM_ENOMEM;
        HSIM_ASSERT(c->cap_users == cap);
    }
    if (c->users.n > users) /* a new user */
        c->user_first[u] = c->user_last[u] = -1;
    c->user_of[job] = u;
    return 0;
}

int hsim_core_add(hsim_core_t *c, const hsim_job_t *j, int32_t *out)
{
    if (!c->has_cluster && j->procs > c->cfg->capacity)
        return hsim_errf(c->e, HSIM_EINPUT,
                         "job %lld (line %lld) needs %d processors, the machine has %d",
                         (long long)j->id, (long long)j->line, j->procs, c->cfg->capacity);
    if (c->n_jobs >= INT32_MAX)
        return hsim_errf(c->e, HSIM_EINPUT, "more than %d jobs in one run", INT32_MAX);
    int rc = hsim__grow_jobs(c, c->n_jobs + 1);
    if (rc)
        return rc;
    int32_t job = (int32_t)c->n_jobs;
    c->job[job] = j;
    c->vjobs[job] = (hsim_vjob_t){.submit = j->submit, .estimate = j->estimate,
                                  .requested = j->estimate, .procs = j->procs,
                                  .user = j->user, .group = j->group, .queue = j->queue,
                                  .partition = j->partition, .app = j->app};
    if (c->user_of && (rc = number_user(c, job)))
        return rc;
    if (c->has_cluster) {
        hsim_core_request(j, c->n_models, c->model_map, &c->requests[job]);
        c->stats.held[job] = (hsim_held_t){.ranges = -1};
    }
    if (c->resv_at)
        c->resv_at[job] = -1;
    c->n_jobs++;
    *out = job;
    return 0;
}

int hsim_core_set_now(hsim_core_t *c, hsim_time_t now)
{
    if (now < c->now || now > HSIM_HORIZON)
        return hsim_errf(c->e, HSIM_EINPUT, "driver error: the time went from %lld us to "
                         "%lld us (it only goes forward, up to hsim's horizon)",
                         (long long)c->now, (long long)now);
    c->now = now;
    return 0;
}

/* A reserved start the cluster could not place: it waits for resources. */
static int defer(hsim_core_t *c, int32_t job)
{
    if (hsim_grow(&c->deferred, &c->cap_deferred, c->n_deferred + 1, sizeof *c->deferred))
        return HSIM_ENOMEM;
    c->deferred[c->n_deferred++] = job;
    return 0;
}

/* Starts the deferred jobs that fit now, in the order they were due. */
int hsim__retry_deferred(hsim_core_t *c)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n_deferred; i++) {
        int32_t job = c->deferred[i];
        int rc = start_job(c, job);
        if (rc == HSIM_NOFIT)
            c->deferred[k++] = job;
        else if (rc)
            return rc;
    }
    c->n_deferred = k;
    return 0;
}

const hsim_event_t *hsim_core_next_start(const hsim_core_t *c)
{
    return hsim_reserved_peek((hsim_reserved_t *)&c->reservations);
}

int hsim_core_start_reserved(hsim_core_t *c)
{
    const hsim_event_t *ev = hsim_core_next_start(c);
    HSIM_ASSERT(ev && ev->time == c->now);
    int32_t job = ev->job;
    hsim_reserved_remove(&c->reservations, job);
    if (c->resv_at)
        c->resv_at[job] = -1;
    hsim__refresh_view(c);
    int rc = start_reserved(c, job);
    return rc == HSIM_NOFIT ? defer(c, job) : rc; /* planned on processors,
                                                     not placeable yet */
}

/* A scheduler's timer is due: a pass, as after a submission. */
int hsim_core_wake(hsim_core_t *c)
{
    if (c->wake_last == c->now)
        c->wake_last = -1;
    hsim__refresh_view(c);
    if (c->planner)
        hsim__settle_ending(c);
    return hsim__schedule_pass(c);
}

/* ---- what a driver reads ---- */

const hsim_alloc_t *hsim_core_alloc(const hsim_core_t *c, int32_t job)
{
    return c->has_cluster ? &c->allocs[job] : NULL;
}

const hsim_cluster_t *hsim_core_cluster(const hsim_core_t *c)
{
    return c->has_cluster ? &c->cluster : NULL;
}

size_t hsim_core_jobs(const hsim_core_t *c) { return c->n_jobs; }

size_t hsim_core_ended(const hsim_core_t *c) { return c->n_done; }

size_t hsim_core_waiting(hsim_core_t *c, int32_t *first)
{
    compact_waiting(c);
    *first = c->n_waiting ? c->waiting[0] : -1;
    return c->n_waiting;
}

hsim_run_stats_t *hsim_core_stats(hsim_core_t *c) { return &c->stats; }

#ifdef HSIM_INVARIANTS
int hsim_core_check(hsim_core_t *c, const hsim_job_t *jobs, const hsim_outcome_t *out,
                    hsim_err_t *e)
{
    hsim__refresh_view(c);
    hsim_run_state_t s = {
        .now = c->now,
        .n_jobs = c->n_jobs,
        .jobs = jobs,
        .state = c->state,
        .out = out,
        .n_submitted = c->n_submitted,
        .n_done = c->n_done,
        .view = &c->view,
        .cluster = c->has_cluster ? &c->cluster : NULL,
        .allocs = c->allocs,
        .n_placed = c->n_placed,
        .down_since = c->fail ? c->down_since : NULL,
    };
    return hsim_invariants_check(&s, c->inv_scratch, e);
}
#endif
