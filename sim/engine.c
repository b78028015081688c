/*
 * engine.c - the event loop, the job ledger and the checks on decisions.
 *
 * Submissions are not pushed onto the heap: the workload is already sorted by
 * (submit, line), which is the order of submission events, so the loop
 * merges that array with the heap of created events and with the store of
 * reserved starts, one per job, that a new reservation replaces (see
 * hsim_reserved_t: the near ones in a heap, the far ones in a pool).
 * The running set is kept sorted by estimated end only for schedulers that
 * read it (EASY); for the others it is an unordered array (a cluster of
 * 100,000 nodes runs tens of thousands of jobs at once) beside a heap of
 * estimated ends that answers "how many processors end by now".  The running set
 * that backfilling reads is kept sorted by (estimated end, start order),
 * with holes: a job that ends leaves a hole that keeps its key, so the
 * array stays sorted and a binary search still finds a place; a job that
 * starts fills a hole beside its place, or moves the entries up or down to
 * the nearest hole; the holes are compacted away once they are half the
 * array, and the view starts at the first job.
 *
 * With a predictor that can underpredict, a job that will outlive its
 * prediction gets an expiry event at its planned end, which moves that end
 * to its requested time (the entry leaves its place and takes a new one).
 * With one that revises, each user's waiting jobs are kept in a list, and
 * a termination asks again for the predictions of its user's jobs only,
 * telling the policies which changed (hsim_view_t's revised[]).
 * Node failures and dependencies are in engine_faults.c; jobs that stop
 * and come back (a failure's or a policy's stop(), suspension, resume),
 * the scheduler's timer and the preemption pass in engine_preempt.c.
 */
#include "engine_run.h"

#include "../policies/place_common.h"
#include "../workloads/deps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


/* Processors of the entries of heap h at or below slot i that end by now. */
static int32_t ending_by(const run_t *r, size_t i, hsim_time_t now)
{
    const hsim_rheap_t *h = &r->ends;
    if (i >= h->n || h->ev[i].time > now)
        return 0;
    return r->vjobs[h->ev[i].job].procs + ending_by(r, 2 * i + 1, now) +
           ending_by(r, 2 * i + 2, now);
}

void hsim__refresh_view(run_t *r)
{
    r->view.now = r->now;
    r->view.running_procs = r->running_procs;
    r->view.waiting = r->waiting;
    r->view.n_waiting = r->n_waiting;
    r->view.waiting_holes = r->waiting_holes;
    /* (NULL + 0 is undefined: running[] is NULL until a job starts) */
    r->view.running = r->running ? r->running + r->running_first : NULL;
    r->view.n_running = r->n_running - r->running_first;
    r->view.running_unordered = !r->ordered;
    if (!r->ordered)
        r->view.ending_procs = ending_by(r, 0, r->now);
}

/* Position of (est_end, seq) in running[]: first entry not less than it
   (holes keep the key of the job that left). */
static size_t running_lower_bound(const run_t *r, hsim_time_t est_end, int64_t seq)
{
    size_t lo = 0, hi = r->n_running;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const hsim_running_t *m = &r->running[mid];
        if (m->est_end < est_end || (m->est_end == est_end && r->running_seq[mid] < seq))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Moves entries [from, to) of running[] by one slot: up when up, else
   down. */
static void running_shift(run_t *r, size_t from, size_t to, int up)
{
    size_t dst = up ? from + 1 : from - 1;
    memmove(&r->running[dst], &r->running[from], (to - from) * sizeof *r->running);
    memmove(&r->running_seq[dst], &r->running_seq[from], (to - from) * sizeof *r->running_seq);
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
static int running_respread(run_t *r)
{
    size_t live = r->n_running - r->running_holes, gaps = live / RUNNING_GAP;
    size_t n = live + gaps;
    if (hsim_grow(&r->running, &r->cap_running, n + 1, sizeof *r->running) ||
        hsim_grow(&r->running_seq, &r->cap_running_seq, n + 1, sizeof *r->running_seq))
        return HSIM_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < r->n_running; i++)
        if (r->running[i].job >= 0) {
            r->running[k] = r->running[i];
            r->running_seq[k++] = r->running_seq[i];
        }
    HSIM_ASSERT(k == live);
    for (size_t i = live, w = n; i > 0;) { /* from the back: w >= i */
        i--;
        if ((i + 1) % RUNNING_GAP == 0 && (i + 1) / RUNNING_GAP <= gaps) {
            w--;
            r->running[w] = r->running[i];
            r->running[w].job = -1;
            r->running[w].procs = 0;
            r->running_seq[w] = r->running_seq[i];
        }
        w--;
        r->running[w] = r->running[i];
        r->running_seq[w] = r->running_seq[i];
    }
    r->n_running = n;
    r->running_holes = gaps;
    r->running_first = 0;
    return 0;
}

/* The slot for a job starting with key (est_end, seq), the entries around
   it moved as needed; room for one more entry is there.  *low gets the
   lowest slot that now holds a job (it, or the entries moved down).
   O(log n) plus the entries between its place and the nearest hole. */
static size_t running_slot(run_t *r, hsim_time_t est_end, int64_t seq, size_t *low)
{
    size_t n = r->n_running, at = running_lower_bound(r, est_end, seq);
    for (size_t d = 0;; d++) {
        if (d == RUNNING_FAR && n > 4 * RUNNING_FAR && running_respread(r) == 0)
            return running_slot(r, est_end, seq, low);
        if (at + d == n) { /* the end: as good as a hole at n */
            running_shift(r, at, n, 1);
            r->n_running++;
            return *low = at;
        }
        if (r->running[at + d].job < 0) {
            running_shift(r, at, at + d, 1);
            r->running_holes--;
            return *low = at;
        }
        if (at > d && r->running[at - d - 1].job < 0) {
            running_shift(r, at - d, at, 0);
            r->running_holes--;
            *low = at - d - 1;
            return at - 1;
        }
    }
}

/* Room in running[] for one more entry.  0 or HSIM_ENOMEM. */
static int running_room(run_t *r)
{
    if (hsim_grow(&r->running, &r->cap_running, r->n_running + 1, sizeof *r->running) ||
        hsim_grow(&r->running_seq, &r->cap_running_seq, r->n_running + 1,
                  sizeof *r->running_seq))
        return HSIM_ENOMEM;
    return 0;
}

/* running_slot(), keeping the view's first entry. */
static size_t running_slot_in_view(run_t *r, hsim_time_t est_end, int64_t seq)
{
    size_t low, at = running_slot(r, est_end, seq, &low);
    if (low < r->running_first)
        r->running_first = low; /* the view starts at it */
    return at;
}

/* Removes the holes of running[].  O(n). */
static void running_compact(run_t *r)
{
    size_t k = 0;
    for (size_t i = 0; i < r->n_running; i++)
        if (r->running[i].job >= 0) {
            r->running[k] = r->running[i];
            r->running_seq[k++] = r->running_seq[i];
        }
    HSIM_ASSERT(r->n_running - k == r->running_holes);
    r->n_running = k;
    r->running_holes = 0;
    r->running_first = 0;
}

int hsim__push_event(run_t *r, hsim_time_t t, int kind, int32_t job)
{
    hsim_event_t ev = {.time = t, .seq = r->seq++, .job = job, .kind = kind};
    return hsim_heap_push(&r->heap, &ev);
}

static void remove_waiting(run_t *r, int32_t job)
{
    r->waiting[r->wslot[job]] = -1;
    r->waiting_holes++;
    if (r->user_of) { /* out of its user's list */
        int32_t next = r->wnext[job], prev = r->wprev[job];
        if (prev >= 0)
            r->wnext[prev] = next;
        else
            r->user_first[r->user_of[job]] = next;
        if (next >= 0)
            r->wprev[next] = prev;
        else
            r->user_last[r->user_of[job]] = prev;
    }
}

/* Squeezes the holes out of waiting[]; only between passes.  O(n). */
static void compact_waiting(run_t *r)
{
    size_t k = 0;
    for (size_t i = 0; i < r->n_waiting; i++) {
        int32_t job = r->waiting[i];
        if (job >= 0) {
            r->wslot[job] = k;
            r->waiting[k++] = job;
        }
    }
    r->n_waiting = k;
    r->waiting_holes = 0;
}

/* How long job j runs on the reference machine: its runtime, never past
   its requested time (it is killed there). */
hsim_time_t hsim__reference_run(const hsim_job_t *j)
{
    return j->runtime < j->estimate ? j->runtime : j->estimate;
}

/* The error for a job whose start, end or reservation would pass
   HSIM_HORIZON. */
int hsim__past_horizon(run_t *r, int32_t job, const char *what)
{
    return hsim_errf(r->e, HSIM_EINPUT,
                     "job %lld: its %s would pass hsim's horizon of %lld s of simulated "
                     "time (73,000 years): check its run and requested times and the "
                     "nodes' speeds",
                     (long long)r->w->jobs[job].id, what,
                     (long long)(HSIM_HORIZON / HSIM_SECOND));
}

void hsim_engine_request(const hsim_workload_t *w, const hsim_job_t *j,
                         const uint32_t *model_map, hsim_request_t *q)
{
    uint64_t models = 0;
    for (size_t m = 0; m < w->n_models && m < HSIM_MAX_MODELS; m++)
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

void hsim_engine_model_map(const hsim_workload_t *w, const hsim_cluster_t *c,
                           uint32_t *model_map)
{
    for (size_t m = 0; m < w->n_models; m++) {
        int cm = hsim_cluster_model(c, w->models[m]);
        model_map[m] = cm >= 0 ? 1u << cm : 0;
    }
    /* a cluster model no job names exactly ("Tesla V100-SXM2-32GB", from
       a topology) serves the one job model that is a word of its name */
    for (size_t cm = 0; cm < c->n_models; cm++) {
        int named = 0, worded = -1, words = 0;
        for (size_t m = 0; m < w->n_models; m++) {
            if (!strcasecmp(c->models[cm], w->models[m]))
                named = 1;
            else if (hsim_model_matches(c->models[cm], w->models[m]))
                worded = (int)m, words++;
        }
        if (!named && words == 1)
            model_map[worded] |= 1u << cm;
    }
}

/* What is left of reference time t (a run or a requested time) for job's
   next attempt: t less the work a checkpoint kept, plus the restart cost;
   t itself for a job no failure stopped.  At least 1 us. */
hsim_time_t hsim__work_left(const run_t *r, int32_t job, hsim_time_t t)
{
    hsim_time_t left = t - r->done[job] + r->cost[job];
    return left > 0 ? left : 1;
}

/* Releases the jobs of heap r->ends at or below slot i that end by now,
   as ending_by() counts them (see hsim__settle_ending()). */
static void settle_heap(run_t *r, size_t i)
{
    const hsim_rheap_t *h = &r->ends;
    if (i >= h->n || h->ev[i].time > r->now)
        return;
    if (r->out[h->ev[i].job].end <= r->now)
        hsim__release_job(r, h->ev[i].job); /* nothing when released already */
    settle_heap(r, 2 * i + 1);
    settle_heap(r, 2 * i + 2);
}

/* Releases, ahead of their termination events, the resources of the
   running jobs whose planned end is now at the latest: the scheduler
   already counts them free (pyss's convention), and those jobs end now,
   their terminations still to come in this instant (a job is released
   only if it does end now).  So every placement sees them free: first-fit
   takes the lowest nodes, pack the fewest.  O(jobs ending now). */
void hsim__settle_ending(run_t *r)
{
    if (!r->ordered) {
        settle_heap(r, 0);
        return;
    }
    for (size_t i = r->running_first; i < r->n_running && r->running[i].est_end <= r->now; i++) {
        int32_t job = r->running[i].job;
        if (job >= 0 && r->out[job].end <= r->now)
            hsim__release_job(r, job);
    }
}

static int by_int32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* Appends text to the run's ranges.  0 or HSIM_ENOMEM. */
static int ranges_put(run_t *r, const char *text, size_t n)
{
    hsim_run_stats_t *st = &r->stats;
    if (hsim_grow(&st->ranges, &st->cap_ranges, st->n_ranges + n, 1))
        return HSIM_ENOMEM;
    memcpy(st->ranges + st->n_ranges, text, n);
    st->n_ranges += n;
    return 0;
}

/* Records in job's outcome what its allocation holds, and its nodes as
   ranges.  0 or HSIM_ENOMEM.  O(parts log parts). */
static int note_held(run_t *r, int32_t job)
{
    const hsim_alloc_t *a = &r->allocs[job];
    hsim_held_t *o = &r->stats.held[job];
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
    o->ranges = (int64_t)r->stats.n_ranges;
    int rc = 0;
    for (size_t i = 0; i < a->n && rc == 0;) {
        size_t k = i;
        while (k + 1 < a->n && nodes[k + 1] <= nodes[k] + 1)
            k++;
        char text[32];
        int n = nodes[k] > nodes[i]
                    ? snprintf(text, sizeof text, "%s%d-%d", i ? ";" : "", nodes[i], nodes[k])
                    : snprintf(text, sizeof text, "%s%d", i ? ";" : "", nodes[i]);
        rc = ranges_put(r, text, (size_t)n);
        i = k + 1;
    }
    hsim_free(nodes);
    return rc ? rc : ranges_put(r, "", 1);
}

/* The ledger has just taken job's allocation: the planner told, its
   nodes noted.  0 or HSIM_ENOMEM. */
int hsim__placed(run_t *r, int32_t job)
{
    const hsim_alloc_t *a = &r->allocs[job];
    HSIM_ASSERT(a->n > 0);
    if (r->planner)
        hsim_planner_sync(r->planner, a);
    r->n_placed++;
    r->out[job].node = a->parts[0].node;
    r->out[job].nodes = (int32_t)a->n;
    return note_held(r, job);
}

/* Takes the parts of given from the ledger into a if every one fits (two
   parts on one node add up) on a node type q may use; else takes
   nothing.  0, HSIM_NOFIT or HSIM_ENOMEM. */
static int take_given(run_t *r, const hsim_request_t *q, const hsim_alloc_t *given,
                      hsim_alloc_t *a)
{
    hsim_cluster_t *c = &r->cluster;
    size_t i;
    for (i = 0; i < given->n; i++) {
        const hsim_part_t *p = &given->parts[i];
        if (p->node < 0 || (size_t)p->node >= c->n_nodes)
            break;
        const hsim_node_t *n = &c->nodes[p->node];
        if (!hsim_place_type_ok(c, (size_t)n->type, q) || p->cores < 0 || p->mem_mb < 0 ||
            p->gpus < 0 || p->fpgas < 0 || p->gpu >= c->types[n->type].gpus ||
            !hsim_part_fits(c, p))
            break;
        hsim_alloc_t one = {.parts = (hsim_part_t *)p, .n = 1};
        hsim_cluster_take(c, &one, r->now);
    }
    if (i < given->n || given->n == 0) { /* undo */
        while (i-- > 0) {
            hsim_alloc_t one = {.parts = &given->parts[i], .n = 1};
            hsim_cluster_give(c, &one, r->now);
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
static int place_job(run_t *r, int32_t job, const hsim_alloc_t *given, double *speed)
{
    const hsim_job_t *j = &r->w->jobs[job];
    const hsim_request_t *q = &r->requests[job];
    hsim_alloc_t *a = &r->allocs[job];
    hsim__settle_ending(r); /* placement sees what the scheduler saw free */
    if (r->susp && r->susp[job].n) { /* it resumes on its own nodes... */
        int rc = hsim__resume_job(r, job);
        *speed = rc ? 1.0 : hsim_cluster_alloc_speed(&r->cluster, j->job_class, j->gpus > 0, a);
        if (rc != HSIM_NOFIT || !given)
            return rc;
        hsim__drop_hold(r, job, -1); /* ...or where a plan on nodes put it */
    }
    a->n = 0;
    if (given) {
        int rc = take_given(r, q, given, a);
        if (rc)
            return rc;
        *speed = hsim_cluster_alloc_speed(&r->cluster, j->job_class, j->gpus > 0, a);
        return hsim__placed(r, job);
    }
    int rc = r->cfg->placement->place(r->place_state, &r->cluster, q, a);
    if (rc == HSIM_NOFIT && r->n_placed == 0) {
        /* A layout the policy cannot find even on the idle cluster (a
           memory split that its node order cannot fit): the one the
           rejection check found, hsim_spec_reject_impossible()'s, so that a
           job that passed it never waits for ever. */
        a->n = 0;
        rc = r->fallback->place(r->fallback_state, &r->cluster, q, a);
    }
    if (rc)
        return rc;
    for (size_t i = 0; i < a->n; i++) {
        const hsim_part_t *p = &a->parts[i];
        HSIM_ASSERT(hsim_node_fits(&r->cluster, p->node, p->cores, p->mem_mb, p->gpus,
                                   p->gpu >= 0 ? p->gpu_milli : 1000, p->fpgas));
    }
    hsim_cluster_take(&r->cluster, a, r->now);
    *speed = hsim_cluster_alloc_speed(&r->cluster, j->job_class, j->gpus > 0, a);
    return hsim__placed(r, job);
}

/* Gives the job's resources back and counts what it used; nothing when
   hsim__settle_ending() gave them back already. */
void hsim__release_job(run_t *r, int32_t job)
{
    hsim_alloc_t *a = &r->allocs[job];
    if (a->n == 0)
        return;
    hsim__count_use(r, job);
    for (size_t i = 0; i < a->n; i++)
        r->stats.node_jobs[a->parts[i].node]++;
    hsim_cluster_give(&r->cluster, a, r->now);
    if (r->planner)
        hsim_planner_sync(r->planner, a);
    r->n_placed--;
    hsim_alloc_free(a);
}

/* Adds what job's allocation used since its last start to the run's
   resource-seconds. */
void hsim__count_use(run_t *r, int32_t job)
{
    const hsim_alloc_t *a = &r->allocs[job];
    double secs = (double)(r->now - r->out[job].start) / HSIM_SECOND;
    for (size_t i = 0; i < a->n; i++) {
        const hsim_part_t *p = &a->parts[i];
        r->stats.core_s += secs * p->cores;
        r->stats.mem_s += secs * (double)p->mem_mb;
        r->stats.fpga_s += secs * p->fpgas;
        double gpu_s = secs * (p->gpus + p->gpu_milli / 1000.0);
        r->stats.all_gpu_s += gpu_s;
        int m = r->cluster.type_model[r->cluster.nodes[p->node].type];
        if (m >= 0)
            r->stats.gpu_s[m] += gpu_s;
    }
}

/* Starts job now, on given when not NULL: the decision callbacks and the
   reserved-start event. */
static int start_job_on(run_t *r, int32_t job, const hsim_alloc_t *given)
{
    if (job < 0 || (size_t)job >= r->n_jobs || r->state[job] != JOB_WAITING)
        return hsim_errf(r->e, HSIM_EINPUT,
                         "policy error: job index %d is not waiting", job);
    const hsim_job_t *j = &r->w->jobs[job];
    double speed = 1.0;
    if (r->has_cluster) {
        int rc = place_job(r, job, given, &speed);
        if (rc)
            return rc; /* HSIM_NOFIT: the policy treats it as not fitting */
    } else {
        int32_t free_now = hsim_view_free_now(&r->view);
        if (j->procs > free_now)
            return hsim_errf(r->e, HSIM_EINPUT,
                             "policy error: job %lld needs %d processors, %d are free at %lld s",
                             (long long)j->id, j->procs, free_now,
                             (long long)(r->now / HSIM_SECOND));
    }
    remove_waiting(r, job);
    if (running_room(r))
        return HSIM_ENOMEM;
    int64_t seq = r->starts++;
    hsim_time_t est_end = r->now + hsim_time_scaled(r->vjobs[job].estimate, speed);
    if (est_end > HSIM_HORIZON)
        return hsim__past_horizon(r, job, "estimated end");
    r->est_end[job] = est_end;
    size_t at = r->n_running;
    if (r->ordered) {
        at = running_slot_in_view(r, est_end, seq);
    } else {
        r->rpos[job] = at;
        hsim_event_t ev = {.time = est_end, .seq = seq, .job = job};
        hsim_rheap_set(&r->ends, &ev);
    }
    r->running[at] = (hsim_running_t){.job = job, .procs = j->procs,
                                      .start = r->now, .est_end = est_end};
    r->running_seq[at] = seq;
    if (!r->ordered)
        r->n_running++;
    r->running_procs += j->procs;
    r->start_seq[job] = seq;
    r->state[job] = JOB_RUNNING;
    hsim_reserved_remove(&r->reservations, job);
    if (r->resv_at)
        r->resv_at[job] = -1;

    hsim_outcome_t *o = &r->out[job];
    o->start = r->now;
    o->speed = (float)speed;
    hsim_time_t run = hsim__reference_run(j);
    o->fate = j->killed_at_estimate || run < j->runtime ? HSIM_FATE_KILLED : HSIM_FATE_RAN;
    if (r->stops) {
        run = hsim__work_left(r, job, run);
        r->stats.starts[job]++;
    }
    run = hsim_time_scaled(run, speed);
    o->end = r->now + run;
    if (o->end > HSIM_HORIZON)
        return hsim__past_horizon(r, job, "end");
    hsim__refresh_view(r);
    int orc = hsim__order_started(r, job);
    if (orc)
        return orc;
    const hsim_predictor_t *pred = r->cfg->predictor;
    if (pred->started) {
        int rc = pred->started(r->pred_state, j, r->now);
        if (rc)
            return rc;
    }
    if (o->end > est_end && r->full_end) { /* it will outlive its prediction */
        hsim_time_t req = r->stops ? hsim__work_left(r, job, j->estimate) : j->estimate;
        r->full_end[job] = r->now + hsim_time_scaled(req, speed);
        int rc = hsim__push_event(r, est_end, HSIM_EV_EXPIRY, job);
        if (rc)
            return rc;
        if (r->expiry_seq)
            r->expiry_seq[job] = r->seq - 1;
    }
    if (r->end_seq)
        r->end_seq[job] = r->seq;
    return hsim__push_event(r, o->end, HSIM_EV_END, job);
}

static int start_job(run_t *r, int32_t job) { return start_job_on(r, job, NULL); }

static int decide_start(void *ctx, int32_t job) { return start_job(ctx, job); }

static int decide_start_on(void *ctx, int32_t job, const hsim_alloc_t *a)
{
    run_t *r = ctx;
    if (!r->has_cluster || !a)
        return hsim_errf(r->e, HSIM_EINPUT, "policy error: start_on() without a cluster");
    return start_job_on(r, job, a);
}

/* A reserved start due now: on the reservation's nodes when it has some
   and they are free, else where the placement policy finds room. */
static int start_reserved(run_t *r, int32_t job)
{
    hsim_alloc_t *given = r->resv_alloc ? &r->resv_alloc[job] : NULL;
    int rc = HSIM_NOFIT;
    if (given && given->n)
        rc = start_job_on(r, job, given);
    if (rc == HSIM_NOFIT)
        rc = start_job(r, job);
    if (given)
        hsim_alloc_free(given);
    return rc;
}

static int decide_reserve(void *ctx, int32_t job, hsim_time_t at)
{
    run_t *r = ctx;
    if (job < 0 || (size_t)job >= r->n_jobs || r->state[job] != JOB_WAITING)
        return hsim_errf(r->e, HSIM_EINPUT,
                         "policy error: reservation for job index %d, which is not waiting", job);
    if (at < r->now)
        return hsim_errf(r->e, HSIM_EINPUT,
                         "policy error: reservation in the past for job %lld",
                         (long long)r->w->jobs[job].id);
    if (at > HSIM_HORIZON)
        return hsim__past_horizon(r, job, "reservation");
    hsim_event_t ev = {.time = at, .seq = r->seq++, .job = job, .kind = HSIM_EV_START};
    hsim_reserved_set(&r->reservations, &ev);
    if (r->resv_alloc) {
        r->resv_alloc[job].n = 0; /* a plain reservation has no nodes */
        r->resv_at[job] = at;
    }
    return 0;
}

static int decide_reserve_on(void *ctx, int32_t job, hsim_time_t at, const hsim_alloc_t *a)
{
    run_t *r = ctx;
    if (!r->has_cluster || !a)
        return hsim_errf(r->e, HSIM_EINPUT, "policy error: reserve_on() without a cluster");
    if (!r->resv_alloc) {
        r->resv_alloc = hsim_calloc(r->n_jobs, sizeof *r->resv_alloc);
        r->resv_at = hsim_malloc(r->n_jobs * sizeof *r->resv_at);
        if (!r->resv_alloc || !r->resv_at)
            return HSIM_ENOMEM;
        for (size_t i = 0; i < r->n_jobs; i++)
            r->resv_at[i] = -1;
    }
    /* new nodes for the same start keep its place among the starts due
       then (the sequence of its event) */
    int rc = job >= 0 && (size_t)job < r->n_jobs && r->resv_at[job] == at &&
                     r->state[job] == JOB_WAITING
                 ? 0
                 : decide_reserve(ctx, job, at);
    if (rc)
        return rc;
    hsim_alloc_t *mine = &r->resv_alloc[job];
    mine->n = 0;
    for (size_t i = 0; i < a->n; i++)
        if (hsim_alloc_add(mine, &a->parts[i]))
            return HSIM_ENOMEM;
    return 0;
}

/* The predictor's estimate for a job now: at most the requested time, and
   a guess at least 1 s. */
static hsim_time_t predict(run_t *r, int32_t job)
{
    const hsim_job_t *j = &r->w->jobs[job];
    const hsim_predictor_t *pred = r->cfg->predictor;
    hsim_job_t asked = *j; /* what is known of the job before it runs */
    if (!pred->reads_runtime) {
        asked.runtime = 0;
        asked.killed_at_estimate = 0;
    }
    hsim_time_t p = pred->predict(r->pred_state, &asked, r->now);
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
static hsim_running_t running_hole(run_t *r, int32_t job)
{
    size_t at = running_lower_bound(r, r->est_end[job], r->start_seq[job]);
    HSIM_ASSERT(at < r->n_running && r->running[at].job == job);
    hsim_running_t entry = r->running[at];
    r->running[at].job = -1; /* a hole: it keeps its key */
    r->running[at].procs = 0;
    while (r->running_first < r->n_running && r->running[r->running_first].job < 0)
        r->running_first++; /* the view starts at the first job */
    if (++r->running_holes > 32 && 2 * r->running_holes > r->n_running)
        running_compact(r);
    return entry;
}

/* A running job reached its prediction without ending: it is planned on
   its requested time from now on (no scheduling pass follows).  0 or
   HSIM_ENOMEM. */
static int expire_job(run_t *r, int32_t job)
{
    HSIM_ASSERT(r->state[job] == JOB_RUNNING && r->full_end);
    hsim_time_t est_end = r->full_end[job];
    r->vjobs[job].estimate = r->w->jobs[job].estimate;
    if (r->ordered) {
        if (running_room(r))
            return HSIM_ENOMEM;
        hsim_running_t entry = running_hole(r, job);
        entry.est_end = est_end;
        size_t at = running_slot_in_view(r, est_end, r->start_seq[job]);
        r->running[at] = entry;
        r->running_seq[at] = r->start_seq[job];
    } else {
        r->running[r->rpos[job]].est_end = est_end;
        hsim_event_t ev = {.time = est_end, .seq = r->start_seq[job], .job = job};
        hsim_rheap_set(&r->ends, &ev);
    }
    r->est_end[job] = est_end;
    r->stats.expiries++;
    hsim__refresh_view(r);
    return 0;
}

/* Asks the predictor again for the waiting jobs of the user of a job that
   has just ended; the view's revision changes when an answer does, and
   its revised[] lists the jobs whose answer did. */
static void revise_user(run_t *r, int32_t ended)
{
    size_t n = 0;
    for (int32_t job = r->user_first[r->user_of[ended]]; job >= 0; job = r->wnext[job]) {
        hsim_time_t p = predict(r, job);
        if (p != r->vjobs[job].estimate) {
            r->vjobs[job].estimate = p;
            r->revised[n++] = job;
        }
    }
    if (n) {
        r->view.revision++;
        r->view.revised = r->revised;
        r->view.n_revised = n;
    }
}

/* Takes a running job out of the running set and its processors out of
   the count (not its resources out of the ledger: hsim__release_job()). */
void hsim__leave_running(run_t *r, int32_t job)
{
    if (r->ordered) {
        (void)running_hole(r, job);
    } else { /* the last entry fills the hole */
        size_t at = r->rpos[job], last = r->n_running - 1;
        HSIM_ASSERT(r->running[at].job == job);
        r->running[at] = r->running[last];
        r->running_seq[at] = r->running_seq[last];
        r->rpos[r->running[at].job] = at;
        hsim_rheap_remove(&r->ends, job);
        r->n_running--;
    }
    r->running_procs -= r->vjobs[job].procs;
}

static int finish_job(run_t *r, int32_t job)
{
    const hsim_vjob_t *vj = &r->vjobs[job];
    hsim_time_t start = r->out[job].start;
    hsim__leave_running(r, job);
    if (r->stats.ran)
        r->stats.ran[job] += r->now - start;
    r->jobs_left--;
    r->state[job] = JOB_DONE;
    r->n_done++;
    if (r->has_cluster)
        hsim__release_job(r, job);
    if (r->parents_left) {
        int rc = hsim__release_children(r, job);
        if (rc)
            return rc;
    }
    /* the scheduler planned with the unscaled estimate */
    hsim_time_t est_end = start + vj->estimate;
    hsim__refresh_view(r);
    const hsim_predictor_t *p = r->cfg->predictor;
    if (p->learn) {
        /* what it ran on the reference machine: predictions are of that,
           and start_job() scales them to the allocation's speed */
        const hsim_job_t *j = &r->w->jobs[job];
        int rc = p->learn(r->pred_state, j, hsim__reference_run(j), r->now);
        if (rc)
            return rc;
    }
    if (p->revises)
        revise_user(r, job);
    if (r->planner)
        hsim__settle_ending(r); /* the planner sees the ledger as the scheduler does */
    int orc = hsim__order_ended(r, job, start);
    if (orc == 0)
        orc = hsim__order_pass(r);
    if (orc)
        return orc;
    const hsim_scheduler_t *s = r->cfg->scheduler;
    if (s->ended) {
        int rc = s->ended(r->sched_state, &r->view, job, start, est_end, &r->decide);
        if (rc)
            return rc;
    }
    return hsim__schedule_pass(r);
}

/* The engine's half of a submission: the job joins waiting[]. */
int hsim__enqueue_job(run_t *r, int32_t job)
{
    r->vjobs[job].estimate = predict(r, job);
    if (r->stops) /* a job that was stopped: what is left of it */
        r->vjobs[job].estimate = hsim__work_left(r, job, r->vjobs[job].estimate);
    if (r->waiting_holes > r->n_waiting / 2)
        compact_waiting(r);
    if (hsim_grow(&r->waiting, &r->cap_waiting, r->n_waiting + 1, sizeof *r->waiting))
        return HSIM_ENOMEM;
    r->wslot[job] = r->n_waiting;
    r->waiting[r->n_waiting++] = job;
    if (r->n_waiting - r->waiting_holes > r->stats.max_waiting)
        r->stats.max_waiting = r->n_waiting - r->waiting_holes;
    r->state[job] = JOB_WAITING;
    if (r->user_of) { /* last in its user's list, which stays in
                         submission order (the order revised[] lists) */
        int32_t u = r->user_of[job], last = r->user_last[u];
        r->wprev[job] = last;
        r->wnext[job] = -1;
        if (last >= 0)
            r->wnext[last] = job;
        else
            r->user_first[u] = job;
        r->user_last[u] = job;
    }
    return 0;
}

/* The policy's half: it is told, and runs a pass. */
int hsim__announce_job(run_t *r, int32_t job)
{
    hsim__refresh_view(r);
    if (r->planner)
        hsim__settle_ending(r); /* the planner sees the ledger as the scheduler does */
    int orc = hsim__order_pass(r);
    if (orc)
        return orc;
    const hsim_scheduler_t *s = r->cfg->scheduler;
    if (s->submitted) {
        int rc = s->submitted(r->sched_state, &r->view, job, &r->decide);
        if (rc)
            return rc;
    }
    return hsim__schedule_pass(r);
}

int hsim__submit_job(run_t *r, int32_t job)
{
    r->n_submitted++;
    int rc = hsim__enqueue_job(r, job);
    return rc ? rc : hsim__announce_job(r, job);
}

static int setup_cluster(run_t *r)
{
    const hsim_cluster_spec_t *spec = r->cfg->cluster;
    int rc = hsim_cluster_init(&r->cluster, spec->types, spec->n_types);
    if (rc)
        return rc;
    r->has_cluster = 1;
    hsim_cluster_job_trees(&r->cluster, r->cfg->placement->reads_job_counts);
    size_t n = r->w->n_jobs;
    if ((rc = hsim_cluster_speeds_init(&r->cluster, spec->n_classes)))
        return rc;
    if (spec->class_speed)
        memcpy(r->cluster.speeds.speed, spec->class_speed,
               spec->n_classes * spec->n_types * sizeof(double));
    r->allocs = hsim_calloc(n, sizeof *r->allocs);
    r->model_map = hsim_calloc(HSIM_MAX_MODELS, sizeof *r->model_map);
    r->stats.n_nodes = r->cluster.n_nodes;
    r->stats.node_busy = hsim_calloc(r->cluster.n_nodes, sizeof *r->stats.node_busy);
    r->stats.node_jobs = hsim_calloc(r->cluster.n_nodes, sizeof *r->stats.node_jobs);
    r->stats.held = hsim_calloc(n ? n : 1, sizeof *r->stats.held);
    if (!r->allocs || !r->model_map || !r->stats.node_busy || !r->stats.node_jobs ||
        !r->stats.held)
        return HSIM_ENOMEM;
    hsim_engine_model_map(r->w, &r->cluster, r->model_map);
    r->requests = hsim_calloc(n ? n : 1, sizeof *r->requests);
    if (!r->requests)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < n; i++)
        hsim_engine_request(r->w, &r->w->jobs[i], r->model_map, &r->requests[i]);
    r->fallback = hsim_placement_find("first-fit");
    if ((rc = r->fallback->create(&r->cluster, HSIM_PACK, &r->fallback_state)))
        return rc;
    if ((rc = r->cfg->placement->create(&r->cluster, r->cfg->spread, &r->place_state)))
        return rc;
    if (r->cfg->scheduler->plans_on_nodes &&
        (rc = hsim_planner_create(&r->cluster, r->cfg->placement, r->place_state,
                                  r->cfg->spread, &r->planner)))
        return rc;
    r->view.cluster = &r->cluster;
    r->view.requests = r->requests;
    r->view.allocs = r->allocs;
    r->view.planner = r->planner;
    return 0;
}

typedef struct user_job {
    int32_t user, job;
} user_job_t;

static int by_user(const void *a, const void *b)
{
    const user_job_t *x = a, *y = b;
    if (x->user != y->user)
        return x->user < y->user ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

/* Numbers the users 0.. in id order and makes their lists of waiting jobs
   (empty).  0 or HSIM_ENOMEM. */
static int setup_users(run_t *r)
{
    size_t n = r->n_jobs, m = n ? n : 1;
    user_job_t *key = hsim_malloc(m * sizeof *key);
    r->user_of = hsim_malloc(m * sizeof *r->user_of);
    r->user_first = hsim_malloc(m * sizeof *r->user_first);
    r->user_last = hsim_malloc(m * sizeof *r->user_last);
    r->wnext = hsim_malloc(m * sizeof *r->wnext);
    r->wprev = hsim_malloc(m * sizeof *r->wprev);
    r->revised = hsim_malloc(m * sizeof *r->revised);
    if (!key || !r->user_of || !r->user_first || !r->user_last || !r->wnext || !r->wprev ||
        !r->revised) {
        hsim_free(key);
        return HSIM_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        key[i] = (user_job_t){r->w->jobs[i].user, (int32_t)i};
    qsort(key, n, sizeof *key, by_user);
    int32_t users = 0;
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && key[k].user != key[k - 1].user)
            users++;
        r->user_of[key[k].job] = users;
        r->user_first[users] = r->user_last[users] = -1;
    }
    hsim_free(key);
    return 0;
}

static int setup(run_t *r)
{
    size_t n = r->n_jobs = r->w->n_jobs;
    r->vjobs = hsim_calloc(n, sizeof *r->vjobs);
    r->state = hsim_calloc(n, sizeof *r->state);
    r->start_seq = hsim_calloc(n, sizeof *r->start_seq);
    r->wslot = hsim_calloc(n, sizeof *r->wslot);
    r->est_end = hsim_calloc(n, sizeof *r->est_end);
    if (!r->vjobs || !r->state || !r->start_seq || !r->wslot || !r->est_end)
        return HSIM_ENOMEM;
    if (r->cfg->predictor->underpredicts && !(r->full_end = hsim_calloc(n, sizeof *r->full_end)))
        return HSIM_ENOMEM;
    if (r->cfg->predictor->revises) {
        int rc = setup_users(r);
        if (rc)
            return rc;
    }
    r->ordered = !r->cfg->scheduler->running_any_order ||
                 (r->cfg->cluster && r->cfg->scheduler->plans_on_nodes);
    if (!r->ordered) {
        r->rpos = hsim_calloc(n, sizeof *r->rpos);
        if (!r->rpos || hsim_rheap_init(&r->ends, n))
            return HSIM_ENOMEM;
    }
    if (r->cfg->cluster) {
        int rc = setup_cluster(r);
        if (rc)
            return rc;
    }
    for (size_t i = 0; i < n; i++) {
        const hsim_job_t *j = &r->w->jobs[i];
        if (!r->has_cluster && j->procs > r->cfg->capacity)
            return hsim_errf(r->e, HSIM_EINPUT,
                             "job %lld (line %lld) needs %d processors, the machine has %d",
                             (long long)j->id, (long long)j->line, j->procs, r->cfg->capacity);
        r->vjobs[i] = (hsim_vjob_t){.submit = j->submit, .estimate = j->estimate,
                                    .requested = j->estimate, .procs = j->procs,
                                    .user = j->user, .group = j->group, .queue = j->queue,
                                    .partition = j->partition, .app = j->app};
        r->out[i] = (hsim_outcome_t){.start = -1, .end = -1, .fate = HSIM_FATE_PENDING,
                                     .node = -1, .speed = 1.0f};
        if (r->stats.held)
            r->stats.held[i] = (hsim_held_t){.ranges = -1};
    }
    if (r->w->deps && hsim__setup_deps(r))
        return HSIM_ENOMEM;
    r->jobs_left = n;
    r->view.capacity = r->cfg->capacity;
    r->view.jobs = r->vjobs;
    r->decide = (hsim_decide_t){.ctx = r, .start = decide_start, .reserve = decide_reserve,
                                .start_on = decide_start_on, .reserve_on = decide_reserve_on,
                                .stop = hsim__decide_stop, .wake = hsim__decide_wake};
    hsim_heap_init(&r->heap);
    if (hsim_reserved_init(&r->reservations, n))
        return HSIM_ENOMEM;
    if (r->cfg->failures) {
        if (!r->has_cluster)
            return hsim_errf(r->e, HSIM_EINPUT, "node failures need a cluster of nodes");
        int frc = hsim__setup_failures(r);
        if (frc)
            return frc;
    }
    if ((r->cfg->preempt || r->cfg->scheduler->stops_jobs) && hsim__setup_stops(r))
        return HSIM_ENOMEM;
#ifdef HSIM_INVARIANTS
    r->inv_scratch = hsim_calloc(hsim_invariants_scratch(n, r->has_cluster ? &r->cluster : NULL),
                                 1);
    if (!r->inv_scratch)
        return HSIM_ENOMEM;
#endif
    int orc = hsim__orders_create(r);
    if (orc)
        return orc;
    hsim_policy_params_t params = {
        .capacity = r->cfg->capacity,
        .n_jobs = n,
        .order = r->cfg->order,
        .order_state = r->order_state,
        .backfill_order = r->cfg->backfill_order,
        .backfill_order_state = r->bf_order_state,
        .planner = r->planner,
        .quantum = r->cfg->quantum,
        .values = r->cfg->values,
    };
    hsim_predictor_ctx_t pctx = {
        .n_jobs = n,
        .unix_start = r->w->header.unix_start_time,
        .time_zone = r->w->header.time_zone,
        .model = r->cfg->predictor_model ? r->cfg->predictor_model : "",
        .retrain = r->cfg->predictor_retrain,
        .under_weight = r->cfg->predictor_under_weight,
        .e = r->e,
    };
    int rc = r->cfg->predictor->create(&pctx, &r->pred_state);
    if (rc)
        return rc;
    return r->cfg->scheduler->create(&params, &r->sched_state);
}

static int teardown(run_t *r, int ok)
{
    if (r->has_cluster) {
        for (size_t i = 0; r->stats.node_busy && i < r->cluster.n_nodes; i++)
            r->stats.node_busy[i] = hsim_node_busy(&r->cluster.nodes[i], r->now);
        if (r->fail && r->down_since && r->down_total)
            hsim__close_failures(r);
        hsim__close_stops(r);
        if (r->place_state)
            r->cfg->placement->destroy(r->place_state);
        if (r->fallback_state)
            r->fallback->destroy(r->fallback_state);
        for (size_t i = 0; r->allocs && i < r->w->n_jobs; i++)
            hsim_alloc_free(&r->allocs[i]);
        for (size_t i = 0; r->resv_alloc && i < r->w->n_jobs; i++)
            hsim_alloc_free(&r->resv_alloc[i]);
        hsim_planner_destroy(r->planner);
        hsim_cluster_free(&r->cluster);
    }
    if (!r->has_cluster)
        hsim__close_stops(r);
    hsim_free(r->parents_left);
    hsim_free(r->ready_at);
    if (r->fail_rng)
        gsl_rng_free(r->fail_rng);
    hsim_free(r->fail_k);
    hsim_free(r->down_since);
    hsim_free(r->down_total);
    hsim_free(r->end_seq);
    hsim_free(r->expiry_seq);
    hsim_free(r->done);
    hsim_free(r->cost);
    hsim_free(r->victims);
    hsim_free(r->victim_start);
    hsim_free(r->victim_est);
    hsim_free(r->allocs);
    hsim_free(r->resv_alloc);
    hsim_free(r->resv_at);
    hsim_free(r->requests);
    hsim_free(r->deferred);
    hsim_free(r->model_map);
    hsim_free(r->est_end);
    hsim_free(r->full_end);
    hsim_free(r->user_of);
    hsim_free(r->user_first);
    hsim_free(r->user_last);
    hsim_free(r->wnext);
    hsim_free(r->wprev);
    hsim_free(r->revised);
    if (r->sched_state)
        r->cfg->scheduler->destroy(r->sched_state);
    int rc = hsim__orders_destroy(r, ok); /* after the scheduler's queues */
    if (r->pred_state)
        r->cfg->predictor->destroy(r->pred_state);
    hsim_heap_free(&r->heap);
    hsim_reserved_free(&r->reservations);
    hsim_free(r->vjobs);
    hsim_free(r->state);
    hsim_free(r->start_seq);
    hsim_free(r->wslot);
    hsim_free(r->waiting);
    hsim_free(r->running);
    hsim_free(r->running_seq);
    hsim_free(r->rpos);
    hsim_rheap_free(&r->ends);
#ifdef HSIM_INVARIANTS
    hsim_free(r->inv_scratch);
#endif
    return rc;
}

/* A reserved start the cluster could not place: it waits for resources. */
static int defer(run_t *r, int32_t job)
{
    if (hsim_grow(&r->deferred, &r->cap_deferred, r->n_deferred + 1, sizeof *r->deferred))
        return HSIM_ENOMEM;
    r->deferred[r->n_deferred++] = job;
    return 0;
}

/* Starts the deferred jobs that fit now, in the order they were due. */
int hsim__retry_deferred(run_t *r)
{
    size_t k = 0;
    for (size_t i = 0; i < r->n_deferred; i++) {
        int32_t job = r->deferred[i];
        int rc = start_job(r, job);
        if (rc == HSIM_NOFIT)
            r->deferred[k++] = job;
        else if (rc)
            return rc;
    }
    r->n_deferred = k;
    return 0;
}

/* A scheduler's timer is due: a pass, as after a submission. */
static int wake_pass(run_t *r)
{
    if (r->wake_last == r->now)
        r->wake_last = -1;
    if (r->planner)
        hsim__settle_ending(r);
    return hsim__schedule_pass(r);
}

/* Where an event comes from: the engine merges three sources. */
enum event_source {
    FROM_SUBMISSIONS, /* the workload's jobs, sorted by (submit, line) */
    FROM_HEAP,        /* created events: terminations, prediction expiries */
    FROM_RESERVED,    /* reserved starts (hsim_reserved_t) */
};

/* The next event of the three sources.  Returns 0 when there is none. */
static int next_event(run_t *r, size_t next_submit, hsim_event_t *ev, enum event_source *source)
{
    const hsim_event_t *best = NULL;
    hsim_event_t sub;
    if (next_submit < r->w->n_jobs) { /* (never a job that waits for parents) */
        sub = (hsim_event_t){.time = r->w->jobs[next_submit].submit, .seq = -1,
                             .job = (int32_t)next_submit, .kind = HSIM_EV_SUBMIT};
        best = &sub;
        *source = FROM_SUBMISSIONS;
    }
    const hsim_event_t *h = hsim_heap_peek(&r->heap);
    if (h && (!best || hsim_event_less(h, best))) {
        best = h;
        *source = FROM_HEAP;
    }
    const hsim_event_t *s = hsim_reserved_peek(&r->reservations);
    if (s && (!best || hsim_event_less(s, best))) {
        best = s;
        *source = FROM_RESERVED;
    }
    if (!best)
        return 0;
    *ev = *best;
    return 1;
}

#ifdef HSIM_INVARIANTS
/* The whole state checked after an event (invariants.h): a broken
   invariant is a programming error, which aborts with what broke.
   O(waiting + running + nodes) per event: built in with
   -DHSIM_INVARIANTS=ON only. */
static void check_invariants(run_t *r, const hsim_event_t *ev)
{
    hsim__refresh_view(r);
    hsim_run_state_t s = {
        .now = r->now,
        .n_jobs = r->n_jobs,
        .jobs = r->w->jobs,
        .state = r->state,
        .out = r->out,
        .n_submitted = r->n_submitted,
        .n_done = r->n_done,
        .view = &r->view,
        .cluster = r->has_cluster ? &r->cluster : NULL,
        .allocs = r->allocs,
        .n_placed = r->n_placed,
        .down_since = r->fail ? r->down_since : NULL,
    };
    hsim_err_t e = {{0}};
    if (hsim_invariants_check(&s, r->inv_scratch, &e) == 0)
        return;
    fprintf(stderr, "hsim: internal error: an invariant broke after the event of kind %d of "
            "job %lld at %lld us: %s\n", ev->kind,
            ev->job >= 0 && (size_t)ev->job < r->n_jobs ? (long long)r->w->jobs[ev->job].id : -1,
            (long long)ev->time, e.msg);
    abort();
}
#endif

static int loop(run_t *r)
{
    size_t next_submit = 0;
    hsim_event_t ev;
    enum event_source source;
    for (;;) {
        if (r->fail && r->jobs_left == 0)
            break; /* failures go on for ever: the run ends with its jobs */
        if (r->parents_left) /* those are submitted when their parents end */
            while (next_submit < r->n_jobs && r->w->deps->n_parents[next_submit] > 0)
                next_submit++;
        if (!next_event(r, next_submit, &ev, &source))
            break;
        int rc;
        r->stats.events++;
        r->now = ev.time;
        if (r->cfg->progress && r->stats.events % r->cfg->progress_every == 0)
            r->cfg->progress(r->cfg->progress_arg, r->n_done);
        if (source == FROM_SUBMISSIONS) {
            next_submit++;
            rc = hsim__submit_job(r, ev.job);
        } else if (source == FROM_HEAP) {
            hsim_heap_pop(&r->heap, &ev);
            if (r->stops && hsim__stale_event(r, &ev)) {
                r->stats.events--;
                continue;
            }
            hsim__refresh_view(r);
            rc = ev.kind == HSIM_EV_EXPIRY   ? expire_job(r, ev.job)
                 : ev.kind == HSIM_EV_SUBMIT ? hsim__submit_dependent(r, ev.job)
                 : ev.kind == HSIM_EV_FAIL   ? hsim__fail_node(r, ev.job)
                 : ev.kind == HSIM_EV_REPAIR ? hsim__repair_node(r, ev.job)
                 : ev.kind == HSIM_EV_WAKE   ? wake_pass(r)
                                             : finish_job(r, ev.job);
        } else {
            hsim_reserved_remove(&r->reservations, ev.job);
            if (r->resv_at)
                r->resv_at[ev.job] = -1;
            hsim__refresh_view(r);
            rc = start_reserved(r, ev.job);
            if (rc == HSIM_NOFIT) /* planned on processors, not placeable yet */
                rc = defer(r, ev.job);
        }
        if (rc == 0 && source == FROM_HEAP && ev.kind == HSIM_EV_END && r->n_deferred)
            rc = hsim__retry_deferred(r);
        if (rc)
            return rc;
#ifdef HSIM_INVARIANTS
        check_invariants(r, &ev);
#endif
    }
    compact_waiting(r);
    if (r->n_waiting)
        return hsim_errf(r->e, HSIM_EINPUT,
                         "policy error: %zu jobs still wait after the last event (job %lld first)",
                         r->n_waiting, (long long)r->w->jobs[r->waiting[0]].id);
    return 0;
}

int hsim_engine_run(const hsim_workload_t *w, const hsim_run_config_t *cfg,
                    hsim_outcome_t *out, hsim_run_stats_t *stats, hsim_err_t *e)
{
    run_t r;
    memset(&r, 0, sizeof r);
    r.w = w;
    r.cfg = cfg;
    r.out = out;
    r.e = e;
    int rc = setup(&r);
    if (rc == 0)
        rc = loop(&r);
    int trc = teardown(&r, rc == 0);
    if (rc == 0)
        rc = trc;
    if (stats)
        *stats = r.stats;
    else
        hsim_run_stats_free(&r.stats);
    return rc;
}

void hsim_run_stats_free(hsim_run_stats_t *st)
{
    hsim_free(st->node_busy);
    hsim_free(st->node_jobs);
    hsim_free(st->held);
    hsim_free(st->ranges);
    hsim_free(st->starts);
    hsim_free(st->lost);
    hsim_free(st->ran);
    hsim_free(st->order_report);
    memset(st, 0, sizeof *st);
}
