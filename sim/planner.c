/*
 * planner.c - the node-level planner.  See planner.h.
 *
 * Every question is answered on a scratch copy of the ledger: the nodes a
 * question changes there (running jobs given back, bookings held) are
 * listed in touched[], and copied back from the ledger before it returns,
 * so between questions the copy equals the ledger (the engine reports
 * every change of the ledger through hsim_planner_sync()).  The placement
 * code reads a cluster and never changes it, so any placement policy can
 * choose among what the scratch copy says is free.
 *
 * Conservative backfilling's plan keeps, beside its bookings, two
 * profiles of the whole cluster (cores and whole GPUs, from policies/
 * profile.h) over the same bookings: a window that the totals cannot hold
 * is passed over without looking at a node.  The totals are a necessary
 * test, not a sufficient one: a window they allow is then checked node by
 * node, and the next one tried starts at the next time something is given
 * back.
 *
 * EASY's head is reserved on the nodes that are not free now before
 * those that are, and only interchangeable choices differ: so on nodes of
 * one unit each the extra room a backfilled job may take is exactly the
 * pool's extra processors (those free at the shadow time beyond the
 * head's), and EASY's schedule is the pool's.
 */
#include "planner.h"

#include "../policies/place_common.h"
#include "../policies/profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct hsim_planner {
    const hsim_cluster_t *c;   /* the ledger (read only) */
    hsim_cluster_t s;          /* scratch copy: equal to c between questions */
    const hsim_placement_t *placement;
    void *place_state;
    hsim_spread_t spread;
    int32_t *touched;          /* nodes of s that differ from c */
    size_t n_touched;
    uint8_t *mark;             /* by node: in touched[] */
    uint8_t *pref;             /* by node: offered first (see prefer_t) */
    int32_t *stale;            /* nodes the ledger changed since the copy
                                  last caught up (see catch_up()) */
    size_t n_stale;
    uint8_t *is_stale;         /* by node: in stale[] */
};

void hsim_booking_free(hsim_booking_t *b)
{
    hsim_alloc_free(&b->alloc);
    hsim_alloc_free(&b->spare);
}

hsim_time_t hsim_time_scaled(hsim_time_t t, double speed)
{
    if (speed == 1.0)
        return t;
    double v = (double)t / speed;
    if (!(v < (double)HSIM_HORIZON))
        return HSIM_HORIZON + 1;
    long long r = llround(v);
    return r < 1 ? 1 : (hsim_time_t)r;
}

int hsim_planner_create(const hsim_cluster_t *c, const hsim_placement_t *placement,
                        void *place_state, hsim_spread_t spread, hsim_planner_t **out)
{
    hsim_planner_t *pl = hsim_calloc(1, sizeof *pl);
    if (!pl)
        return HSIM_ENOMEM;
    pl->c = c;
    pl->placement = placement;
    pl->place_state = place_state;
    pl->spread = spread;
    int rc = hsim_cluster_init(&pl->s, c->types, c->n_types);
    if (rc) {
        hsim_free(pl);
        return rc;
    }
    hsim_cluster_job_trees(&pl->s, c->job_trees);
    pl->touched = hsim_malloc(c->n_nodes * sizeof *pl->touched);
    pl->mark = hsim_calloc(c->n_nodes, sizeof *pl->mark);
    pl->pref = hsim_calloc(c->n_nodes, sizeof *pl->pref);
    pl->stale = hsim_malloc(c->n_nodes * sizeof *pl->stale);
    pl->is_stale = hsim_calloc(c->n_nodes, sizeof *pl->is_stale);
    if (!pl->touched || !pl->mark || !pl->pref || !pl->stale || !pl->is_stale || hsim_cluster_speeds_init(&pl->s, c->speeds.n_classes)) {
        hsim_planner_destroy(pl);
        return HSIM_ENOMEM;
    }
    if (c->speeds.n_classes)
        memcpy(pl->s.speeds.speed, c->speeds.speed,
               c->speeds.n_classes * c->n_types * sizeof(double));
    for (size_t n = 0; n < c->n_nodes; n++)
        if (c->nodes[n].jobs)
            hsim_cluster_copy_node(&pl->s, c, (int32_t)n);
    *out = pl;
    return 0;
}

void hsim_planner_destroy(hsim_planner_t *pl)
{
    if (!pl)
        return;
    hsim_cluster_free(&pl->s);
    hsim_free(pl->touched);
    hsim_free(pl->mark);
    hsim_free(pl->pref);
    hsim_free(pl->stale);
    hsim_free(pl->is_stale);
    hsim_free(pl);
}

void hsim_planner_sync(hsim_planner_t *pl, const hsim_alloc_t *a)
{
    for (size_t i = 0; i < a->n; i++) {
        int32_t n = a->parts[i].node;
        if (!pl->is_stale[n]) {
            pl->is_stale[n] = 1;
            pl->stale[pl->n_stale++] = n;
        }
    }
}

/* Brings the scratch copy up to the ledger on the nodes that changed
   since: lazily, so that runs whose questions never need the copy (a
   queue of jobs that ask for cores alone) do not keep it.  O(changed
   nodes x log nodes). */
static void catch_up(hsim_planner_t *pl)
{
    hsim_cluster_copy_nodes(&pl->s, pl->c, pl->stale, pl->n_stale);
    for (size_t i = 0; i < pl->n_stale; i++)
        pl->is_stale[pl->stale[i]] = 0;
    pl->n_stale = 0;
}

/* Node n is about to differ from the ledger in the scratch copy. */
static void touch(hsim_planner_t *pl, int32_t n)
{
    if (!pl->mark[n]) {
        pl->mark[n] = 1;
        pl->touched[pl->n_touched++] = n;
    }
}

/* Makes the scratch copy equal to the ledger again. */
static void restore(hsim_planner_t *pl)
{
    hsim_cluster_copy_nodes(&pl->s, pl->c, pl->touched, pl->n_touched);
    for (size_t i = 0; i < pl->n_touched; i++)
        pl->mark[pl->touched[i]] = 0;
    pl->n_touched = 0;
}

/* Gives back, in the scratch copy, what the running jobs from slot *i of
   running[] on hold, while their estimated ends are at most t; *i moves
   past them. */
static void release_until(hsim_planner_t *pl, const hsim_view_t *v, size_t *i, hsim_time_t t)
{
    for (; *i < v->n_running && v->running[*i].est_end <= t; (*i)++) {
        int32_t job = v->running[*i].job;
        if (job < 0)
            continue; /* a hole */
        const hsim_alloc_t *a = &v->allocs[job];
        for (size_t k = 0; k < a->n; k++)
            touch(pl, a->parts[k].node);
        hsim_cluster_give(&pl->s, a, v->now);
    }
}

/* Holds, in the scratch copy, what alloc a takes. */
static void hold(hsim_planner_t *pl, const hsim_alloc_t *a)
{
    for (size_t k = 0; k < a->n; k++)
        touch(pl, a->parts[k].node);
    hsim_cluster_hold_all(&pl->s, a);
}

double hsim_planner_speed(const hsim_planner_t *pl, const hsim_view_t *v, int32_t job,
                          const hsim_alloc_t *a)
{
    const hsim_request_t *r = &v->requests[job];
    return hsim_cluster_alloc_speed(pl->c, r->job_class, r->gpus > 0, a);
}

void hsim_planner_span(const hsim_planner_t *pl, const hsim_view_t *v, int32_t job,
                       hsim_time_t *shortest, hsim_time_t *longest)
{
    const hsim_request_t *r = &v->requests[job];
    double lo = HUGE_VAL, hi = 0;
    for (size_t t = 0; t < pl->c->n_types; t++) {
        if (!hsim_place_type_ok(pl->c, t, r))
            continue;
        double s = hsim_cluster_speed(pl->c, r->job_class, t, r->gpus > 0);
        if (s < lo)
            lo = s;
        if (s > hi)
            hi = s;
    }
    hsim_time_t est = v->jobs[job].estimate;
    if (hi <= 0) /* no type: the placement will say so */
        lo = hi = 1.0;
    if (shortest)
        *shortest = hsim_time_scaled(est, hi);
    if (longest)
        *longest = hsim_time_scaled(est, lo);
}

/* Could the scratch copy's totals hold r at all?  A necessary test. */
static int totals_allow(const hsim_cluster_t *s, const hsim_request_t *r)
{
    return s->free_cores >= r->procs &&
           (r->gpus == 0 || (r->gpu_milli < 1000 && r->gpus < 2) || s->free_gpus >= r->gpus);
}

/* ------------------------------------------------------------ EASY's head */

/* A chooser over the scratch copy: the nodes of a list first (in its
   order; flagged by node in flag[]), then the others from the lowest. */
typedef struct prefer {
    const int32_t *list;  /* nodes offered first... */
    size_t n;             /* ...and how many */
    const uint8_t *flag;  /* by node: 1 for the nodes of list */
    size_t i;             /* next entry of list */
    int32_t pos;          /* next node of the sweep after them */
} prefer_t;

static int32_t prefer_choose(void *ctx, const hsim_cluster_t *c, const hsim_request_t *r,
                             const hsim_ask_t *ask, const hsim_alloc_t *a)
{
    (void)a;
    prefer_t *w = ctx;
    if (ask->first) {
        w->i = 0;
        w->pos = 0;
    }
    while (w->i < w->n) {
        int32_t n = w->list[w->i++];
        if (hsim_place_type_ok(c, (size_t)c->nodes[n].type, r) && hsim_place_fits(c, n, ask))
            return n;
    }
    int32_t end = (int32_t)c->n_nodes;
    while (w->pos < end) {
        int32_t n = hsim_place_lowest_fit(c, r, ask, w->pos, end);
        if (n < 0)
            break;
        w->pos = n + 1;
        if (!w->flag[n])
            return n;
    }
    w->pos = end;
    return -1;
}

static int by_node(const void *x, const void *y)
{
    const hsim_part_t *a = x, *b = y;
    return (a->node > b->node) - (a->node < b->node);
}

/* Sorts b's parts by node, merges parts of one node, and records what
   each node has left in the scratch copy beyond them. */
static int note_spare(hsim_planner_t *pl, hsim_booking_t *b)
{
    hsim_alloc_t *a = &b->alloc;
    qsort(a->parts, a->n, sizeof *a->parts, by_node);
    size_t k = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (k && a->parts[k - 1].node == a->parts[i].node) {
            hsim_part_t *p = &a->parts[k - 1];
            p->cores += a->parts[i].cores;
            p->mem_mb += a->parts[i].mem_mb;
            p->gpus += a->parts[i].gpus;
            p->fpgas += a->parts[i].fpgas;
            continue;
        }
        a->parts[k++] = a->parts[i];
    }
    a->n = k;
    b->spare.n = 0;
    for (size_t i = 0; i < a->n; i++) {
        const hsim_part_t *p = &a->parts[i];
        const hsim_node_t *n = &pl->s.nodes[p->node];
        int32_t share = p->gpu >= 0 && p->gpu_milli > 0;
        hsim_part_t sp = {
            .node = p->node,
            .cores = n->free_cores - p->cores,
            .mem_mb = n->free_mem > p->mem_mb ? n->free_mem - p->mem_mb : 0,
            .gpus = n->free_gpus > p->gpus + share ? n->free_gpus - p->gpus - share : 0,
            .gpu = -1,
            .fpgas = n->free_fpgas - p->fpgas,
        };
        if (hsim_alloc_add(&b->spare, &sp))
            return HSIM_ENOMEM;
    }
    return 0;
}

/* Does r ask for cores alone, in units, that any node type may give?
   Then it fits wherever the total of free cores holds it.  O(types). */
static int by_totals(const hsim_cluster_t *c, const hsim_request_t *r)
{
    if (r->gpus || r->fpgas || r->nodes)
        return 0;
    for (size_t t = 0; t < c->n_types; t++)
        if (!hsim_place_type_ok(c, t, r) || (r->mem_mb > 0 && c->types[t].mem_mb > 0))
            return 0;
    return 1;
}

/* EASY's reservation for a request that by_totals() accepts: the pool's
   shadow time and extra processors, in cores.  O(running jobs ending by
   then x their parts). */
static int shadow_by_totals(hsim_planner_t *pl, const hsim_view_t *v, int32_t job,
                            hsim_booking_t *b)
{
    int64_t need = v->requests[job].procs, avail = pl->c->free_cores;
    hsim_time_t t = v->now;
    for (size_t i = 0; avail < need; i++) {
        while (i < v->n_running && v->running[i].job < 0)
            i++;
        if (i == v->n_running)
            return HSIM_NOFIT;
        t = v->running[i].est_end;
        for (; i < v->n_running && v->running[i].est_end == t; i++) {
            int32_t other = v->running[i].job;
            if (other < 0)
                continue;
            const hsim_alloc_t *a = &v->allocs[other];
            for (size_t k = 0; k < a->n; k++)
                avail += a->parts[k].cores;
        }
        i--; /* the loop steps on */
    }
    b->at = t;
    b->by_totals = 1;
    b->extra_cores = avail - need;
    b->speed = 1.0;
    b->end = t + v->jobs[job].estimate;
    return 0;
}

/* Does every part of a fit the free room of c (parts on distinct nodes)? */
static int alloc_fits(const hsim_cluster_t *c, const hsim_alloc_t *a)
{
    for (size_t k = 0; k < a->n; k++)
        if (!hsim_part_fits(c, &a->parts[k]))
            return 0;
    return 1;
}

int hsim_planner_shadow(hsim_planner_t *pl, const hsim_view_t *v, int32_t job,
                        const hsim_booking_t *hint, hsim_booking_t *b)
{
    const hsim_request_t *r = &v->requests[job];
    b->by_totals = 0;
    if (by_totals(pl->c, r)) {
        b->alloc.n = b->spare.n = 0;
        return shadow_by_totals(pl, v, job, b);
    }
    catch_up(pl);
    size_t i = 0;
    hsim_time_t t = v->now;
    int rc = HSIM_NOFIT;
    b->alloc.n = b->spare.n = 0;
    release_until(pl, v, &i, t);
    for (;;) {
        if (totals_allow(&pl->s, r)) {
            /* the nodes given back by then, before those free now */
            prefer_t w = {.list = pl->touched, .n = pl->n_touched, .flag = pl->mark};
            rc = hsim_place_request(&pl->s, r, pl->spread, prefer_choose, &w, &b->alloc);
            if (rc != HSIM_NOFIT)
                break;
        }
        if (hint && hint->alloc.n && t >= hint->at && alloc_fits(&pl->s, &hint->alloc)) {
            b->alloc.n = 0;
            for (size_t k = 0; k < hint->alloc.n && rc != HSIM_ENOMEM; k++)
                rc = hsim_alloc_add(&b->alloc, &hint->alloc.parts[k]);
            if (rc != HSIM_ENOMEM)
                rc = 0;
            break;
        }
        while (i < v->n_running && v->running[i].job < 0)
            i++;
        if (i == v->n_running)
            break; /* it fits nowhere, even on what all of them leave */
        t = v->running[i].est_end;
        release_until(pl, v, &i, t);
    }
    if (rc == 0) {
        b->at = t;
        b->speed = hsim_planner_speed(pl, v, job, &b->alloc);
        b->end = t + hsim_time_scaled(v->jobs[job].estimate, b->speed);
        rc = note_spare(pl, b);
    }
    restore(pl);
    return rc;
}

/* The slot of node n among b's parts (sorted by node), or -1. */
static long booking_slot(const hsim_booking_t *b, int32_t n)
{
    size_t lo = 0, hi = b->alloc.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->alloc.parts[mid].node < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->alloc.n && b->alloc.parts[lo].node == n ? (long)lo : -1;
}


void hsim_booking_consume(hsim_booking_t *b, const hsim_alloc_t *a)
{
    for (size_t k = 0; k < a->n; k++) {
        const hsim_part_t *p = &a->parts[k];
        long i = booking_slot(b, p->node);
        if (i < 0)
            continue;
        hsim_part_t *sp = &b->spare.parts[i];
        sp->cores = (int32_t)hsim_sub_floor(sp->cores, p->cores);
        sp->mem_mb = hsim_sub_floor(sp->mem_mb, p->mem_mb);
        sp->gpus = (int32_t)hsim_sub_floor(sp->gpus, p->gpus + (p->gpu >= 0 && p->gpu_milli > 0));
        sp->fpgas = (int32_t)hsim_sub_floor(sp->fpgas, p->fpgas);
    }
}

void hsim_planner_held(const hsim_view_t *v, const hsim_booking_t *b, int64_t *cores,
                       int64_t *gpus)
{
    *cores = *gpus = 0;
    for (size_t k = 0; k < b->spare.n; k++) {
        const hsim_part_t *sp = &b->spare.parts[k];
        const hsim_node_t *n = &v->cluster->nodes[sp->node];
        *cores += (int32_t)hsim_sub_floor(n->free_cores, sp->cores);
        *gpus += (int32_t)hsim_sub_floor(n->free_gpus, sp->gpus);
    }
}

double hsim_planner_fastest(const hsim_planner_t *pl)
{
    const hsim_cluster_t *c = pl->c;
    double most = 1.0; /* GPU jobs' default */
    for (size_t t = 0; t < c->n_types; t++)
        if (c->types[t].speed > most)
            most = c->types[t].speed;
    for (size_t i = 0; i < c->speeds.n_classes * c->n_types; i++)
        if (c->speeds.speed[i] > most)
            most = c->speeds.speed[i];
    return most;
}

int hsim_planner_place_now(hsim_planner_t *pl, const hsim_view_t *v, int32_t job,
                           const hsim_booking_t *keep, hsim_alloc_t *a, double *speed)
{
    const hsim_request_t *r = &v->requests[job];
    const hsim_cluster_t *c = pl->c;
    if (keep && !keep->by_totals && keep->alloc.n > 0 && keep->spare.n == keep->alloc.n) {
        catch_up(pl);
        /* what the totals keep back for it first: most jobs that do not
           fit beside it fail here, without a change of the scratch copy */
        int64_t held_cores, held_gpus;
        hsim_planner_held(v, keep, &held_cores, &held_gpus);
        if (c->free_cores - held_cores < r->procs ||
            (r->gpus > 0 && (r->gpu_milli == 1000 || r->gpus > 1) &&
             c->free_gpus - held_gpus < r->gpus))
            return HSIM_NOFIT;
        /* on each of keep's nodes, hold what is free beyond its spare */
        for (size_t k = 0; k < keep->alloc.n; k++) {
            const hsim_part_t *sp = &keep->spare.parts[k];
            const hsim_node_t *n = &c->nodes[sp->node];
            hsim_part_t h = {
                .node = sp->node,
                .cores = (int32_t)hsim_sub_floor(n->free_cores, sp->cores),
                .mem_mb = hsim_sub_floor(n->free_mem, sp->mem_mb),
                .gpus = (int32_t)hsim_sub_floor(n->free_gpus, sp->gpus),
                .gpu = -1,
                .fpgas = (int32_t)hsim_sub_floor(n->free_fpgas, sp->fpgas),
            };
            touch(pl, sp->node);
            hsim_cluster_hold(&pl->s, &h);
        }
        c = &pl->s;
    }
    int rc = totals_allow(c, r) ? pl->placement->place(pl->place_state, c, r, a) : HSIM_NOFIT;
    restore(pl);
    if (rc == 0)
        *speed = hsim_planner_speed(pl, v, job, a);
    return rc;
}

/* ------------------------------------------------------------------ plans */

struct hsim_plan {
    hsim_planner_t *pl;
    hsim_booking_t *book;    /* by job index */
    uint8_t *booked;         /* by job index: book[] holds its booking */
    size_t cap;              /* job indices the two hold */
    int32_t *live;           /* jobs whose bookings may still hold nodes
                                (their start not yet passed) */
    size_t n_live, cap_live;
    size_t *live_at;         /* by job index: its slot in live[] */
    size_t cap_live_at;
    hsim_profile_t cores;    /* free cores over time, every booking in */
    hsim_profile_t gpus;     /* free whole GPUs, likewise (unused if the
                                cluster has none) */
    hsim_time_t trimmed;     /* the profiles start here */
    /* Scratch of repin(): */
    struct later { hsim_time_t at; int32_t job; } *later; /* bookings moved */
    size_t cap_later;
    hsim_alloc_t *fresh;     /* their new nodes, by their place in later[] */
    size_t cap_fresh;
    struct give { hsim_time_t t; const hsim_alloc_t *a; } *gives; /* a heap */
    size_t n_gives, cap_gives;
    int32_t *old_nodes;      /* a booking's old nodes, offered first */
    size_t cap_old;
    int32_t *repinned;       /* jobs whose nodes the last question changed */
    size_t n_repinned, cap_repinned;
};

int hsim_plan_create(hsim_planner_t *pl, hsim_plan_t **out)
{
    hsim_plan_t *p = hsim_calloc(1, sizeof *p);
    if (!p)
        return HSIM_ENOMEM;
    p->pl = pl;
    int32_t gpus = pl->c->total_gpus > 0 ? (int32_t)pl->c->total_gpus : 1;
    if (hsim_profile_init(&p->cores, (int32_t)pl->c->total_cores, 0) ||
        hsim_profile_init(&p->gpus, gpus, 0)) {
        hsim_plan_destroy(p);
        return HSIM_ENOMEM;
    }
    *out = p;
    return 0;
}

void hsim_plan_destroy(hsim_plan_t *p)
{
    if (!p)
        return;
    for (size_t j = 0; j < p->cap; j++)
        hsim_booking_free(&p->book[j]);
    hsim_free(p->book);
    hsim_free(p->booked);
    for (size_t k = 0; k < p->cap_fresh; k++)
        hsim_alloc_free(&p->fresh[k]);
    hsim_free(p->fresh);
    hsim_free(p->later);
    hsim_free(p->gives);
    hsim_free(p->old_nodes);
    hsim_free(p->repinned);
    hsim_free(p->live);
    hsim_free(p->live_at);
    hsim_profile_free(&p->cores);
    hsim_profile_free(&p->gpus);
    hsim_free(p);
}

/* Room for job index job in the tables by job.  0 or HSIM_ENOMEM. */
static int plan_room(hsim_plan_t *p, int32_t job)
{
    size_t need = (size_t)job + 1;
    if (need <= p->cap)
        return 0;
    size_t cap = p->cap ? p->cap : 64;
    while (cap < need)
        cap *= 2;
    hsim_booking_t *book = hsim_realloc(p->book, cap * sizeof *book);
    if (!book)
        return HSIM_ENOMEM;
    p->book = book;
    uint8_t *booked = hsim_realloc(p->booked, cap * sizeof *booked);
    if (!booked)
        return HSIM_ENOMEM;
    p->booked = booked;
    size_t *live_at = hsim_realloc(p->live_at, cap * sizeof *live_at);
    if (!live_at)
        return HSIM_ENOMEM;
    p->live_at = live_at;
    memset(&p->book[p->cap], 0, (cap - p->cap) * sizeof *book);
    memset(&p->booked[p->cap], 0, cap - p->cap);
    p->cap = cap;
    return 0;
}

/* Cores and whole GPUs a booking takes.  Shares of GPUs are left out of
   the totals, which are then a necessary test still (they may only say
   that more is free than the nodes have). */
static void booking_size(const hsim_alloc_t *a, int32_t *cores, int32_t *gpus)
{
    *cores = *gpus = 0;
    for (size_t k = 0; k < a->n; k++) {
        *cores += a->parts[k].cores;
        *gpus += a->parts[k].gpus;
    }
}

/* Adds sign x a booking over what is left of [at, end) to the profiles. */
static int profile_book(hsim_plan_t *p, const hsim_booking_t *b, int sign)
{
    hsim_time_t from = b->at > p->trimmed ? b->at : p->trimmed;
    if (b->end <= from)
        return 0;
    int32_t cores, gpus;
    booking_size(&b->alloc, &cores, &gpus);
    int rc = 0;
    if (cores)
        rc = hsim_profile_add(&p->cores, from, b->end, -sign * cores);
    if (rc == 0 && gpus)
        rc = hsim_profile_add(&p->gpus, from, b->end, -sign * gpus);
    return rc;
}

static void live_remove(hsim_plan_t *p, int32_t job)
{
    size_t at = p->live_at[job];
    if (at >= p->n_live || p->live[at] != job)
        return;
    int32_t last = p->live[--p->n_live];
    p->live[at] = last;
    p->live_at[last] = at;
}

/* The first time after t at which something is given back: a running
   job's estimated end or a live booking's end (not job's own).  Also
   drops from live[] the bookings whose start has passed (their jobs
   run: the ledger has them).  HSIM_TIME_MAX when none. */
static hsim_time_t next_release(hsim_plan_t *p, const hsim_view_t *v, int32_t job, hsim_time_t t)
{
    hsim_time_t next = HSIM_TIME_MAX;
    size_t lo = 0, hi = v->n_running; /* holes keep their keys: sorted */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->running[mid].est_end <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < v->n_running)
        next = v->running[lo].est_end;
    for (size_t i = 0; i < p->n_live; i++) {
        const hsim_booking_t *b = &p->book[p->live[i]];
        if (p->live[i] != job && b->end > t && b->end < next)
            next = b->end;
    }
    return next;
}

/* Does job fit over [t, t + dur) node by node?  b->alloc gets the nodes
   the placement policy chose.  0, HSIM_NOFIT or HSIM_ENOMEM. */
static int fits_window(hsim_plan_t *p, const hsim_view_t *v, int32_t job, hsim_time_t t,
                       hsim_time_t dur, hsim_booking_t *b)
{
    hsim_planner_t *pl = p->pl;
    size_t i = 0;
    release_until(pl, v, &i, t);
    for (size_t k = 0; k < p->n_live;) {
        int32_t other = p->live[k];
        const hsim_booking_t *o = &p->book[other];
        if (o->at < v->now) { /* started: the ledger has it */
            live_remove(p, other);
            continue;
        }
        if (other != job && o->at < t + dur && o->end > t)
            hold(pl, &o->alloc);
        k++;
    }
    const hsim_request_t *r = &v->requests[job];
    int rc = totals_allow(&pl->s, r)
                 ? pl->placement->place(pl->place_state, &pl->s, r, &b->alloc)
                 : HSIM_NOFIT;
    restore(pl);
    return rc;
}

/* Takes allocation a in the scratch copy if exactly what it names is free
   there.  0 or HSIM_NOFIT (then some of it may be taken: restore()). */
static int scratch_take(hsim_planner_t *pl, const hsim_alloc_t *a)
{
    for (size_t k = 0; k < a->n; k++)
        touch(pl, a->parts[k].node);
    return hsim_cluster_take_exact(&pl->s, a, 0);
}

/* The heap of give-backs to come, by time. */
static int give_push(hsim_plan_t *p, hsim_time_t t, const hsim_alloc_t *a)
{
    if (hsim_grow(&p->gives, &p->cap_gives, p->n_gives + 1, sizeof *p->gives))
        return HSIM_ENOMEM;
    size_t i = p->n_gives++;
    while (i > 0 && p->gives[(i - 1) / 2].t > t) {
        p->gives[i] = p->gives[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    p->gives[i] = (struct give){t, a};
    return 0;
}

static struct give give_pop(hsim_plan_t *p)
{
    struct give top = p->gives[0], last = p->gives[--p->n_gives];
    size_t i = 0, n = p->n_gives;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && p->gives[c + 1].t < p->gives[c].t)
            c++;
        if (p->gives[c].t >= last.t)
            break;
        p->gives[i] = p->gives[c];
        i = c;
    }
    if (n)
        p->gives[i] = last;
    return top;
}

static int by_start(const void *x, const void *y)
{
    const struct later *a = x, *b = y;
    if (a->at != b->at)
        return a->at < b->at ? -1 : 1;
    return (a->job > b->job) - (a->job < b->job);
}

/* Gives back, in the scratch copy, everything due by t. */
static void give_until(hsim_plan_t *p, const hsim_view_t *v, size_t *i, hsim_time_t t)
{
    release_until(p->pl, v, i, t);
    while (p->n_gives && p->gives[0].t <= t) {
        struct give g = give_pop(p);
        for (size_t k = 0; k < g.a->n; k++)
            touch(p->pl, g.a->parts[k].node);
        hsim_cluster_give(&p->pl->s, g.a, 0);
    }
}

/* Places booking m of later[] afresh in the scratch copy (its old nodes
   offered first) and takes it there.  0, HSIM_NOFIT or HSIM_ENOMEM. */
static int replace_one(hsim_plan_t *p, const hsim_view_t *v, size_t m)
{
    hsim_planner_t *pl = p->pl;
    int32_t job = p->later[m].job;
    const hsim_alloc_t *old = &p->book[job].alloc;
    if (hsim_grow(&p->old_nodes, &p->cap_old, old->n + 1, sizeof *p->old_nodes))
        return HSIM_ENOMEM;
    for (size_t k = 0; k < old->n; k++) {
        p->old_nodes[k] = old->parts[k].node;
        pl->pref[old->parts[k].node] = 1;
    }
    prefer_t w = {.list = p->old_nodes, .n = old->n, .flag = pl->pref};
    hsim_alloc_t *a = &p->fresh[m];
    a->n = 0;
    int rc = hsim_place_request(&pl->s, &v->requests[job], pl->spread, prefer_choose, &w, a);
    for (size_t k = 0; k < old->n; k++)
        pl->pref[old->parts[k].node] = 0;
    /* on nodes of another speed it would end at another time */
    if (rc == 0 && hsim_planner_speed(pl, v, job, a) != p->book[job].speed)
        rc = HSIM_NOFIT;
    if (rc == 0)
        rc = scratch_take(pl, a);
    if (rc == 0)
        rc = give_push(p, p->book[job].end, a);
    return rc;
}

/* Adopts the new nodes of the bookings of later[], noting in repinned[]
   those whose nodes changed.  0 or HSIM_ENOMEM. */
static int adopt(hsim_plan_t *p, const hsim_view_t *v, size_t n)
{
    for (size_t m = 0; m < n; m++) {
        int32_t job = p->later[m].job;
        hsim_booking_t *b = &p->book[job];
        hsim_alloc_t *a = &p->fresh[m];
        if (a->n == b->alloc.n && !memcmp(a->parts, b->alloc.parts, a->n * sizeof *a->parts))
            continue;
        int rc = profile_book(p, b, -1);
        if (rc)
            return rc;
        hsim_alloc_t keep = b->alloc; /* swap the buffers */
        b->alloc = *a;
        *a = keep;
        if ((rc = profile_book(p, b, +1)))
            return rc;
        if (hsim_grow(&p->repinned, &p->cap_repinned, p->n_repinned + 1, sizeof *p->repinned))
            return HSIM_ENOMEM;
        p->repinned[p->n_repinned++] = job;
    }
    return 0;
}

/*
 * Does job fit at t if the bookings that start at or after t take other
 * nodes?  Booked nodes are provisional: like intervals on interchangeable
 * machines, the bookings are laid out again in the order of their starts
 * (the running jobs and the bookings that start before t keep theirs), job
 * at t with them, each on what is free when it starts, its old nodes first.
 * On nodes of one unit each this finds room whenever the totals do (an
 * interval graph needs no more colours than its largest clique).  On
 * success b->alloc gets job's nodes and the moved bookings take their new
 * ones.  0, HSIM_NOFIT or HSIM_ENOMEM.  O(running + bookings x (log +
 * one placement)).
 */
static int repin(hsim_plan_t *p, const hsim_view_t *v, int32_t job, hsim_time_t t,
                 hsim_booking_t *b)
{
    hsim_planner_t *pl = p->pl;
    size_t i = 0, n_later = 0;
    int rc = 0;
    p->n_gives = 0;
    release_until(pl, v, &i, t);
    for (size_t k = 0; k < p->n_live && rc == 0; k++) {
        int32_t other = p->live[k];
        const hsim_booking_t *o = &p->book[other];
        if (other == job || o->at < v->now)
            continue;
        if (o->at < t) {
            if (o->end > t && (rc = scratch_take(pl, &o->alloc)) == 0)
                rc = give_push(p, o->end, &o->alloc);
            continue;
        }
        if (hsim_grow(&p->later, &p->cap_later, n_later + 1, sizeof *p->later))
            rc = HSIM_ENOMEM;
        else
            p->later[n_later++] = (struct later){o->at, other};
    }
    if (rc == 0 && p->cap_fresh < n_later) {
        hsim_alloc_t *f = hsim_realloc(p->fresh, n_later * sizeof *f);
        if (!f) {
            rc = HSIM_ENOMEM;
        } else {
            memset(&f[p->cap_fresh], 0, (n_later - p->cap_fresh) * sizeof *f);
            p->fresh = f;
            p->cap_fresh = n_later;
        }
    }
    b->alloc.n = 0;
    if (rc == 0)
        rc = pl->placement->place(pl->place_state, &pl->s, &v->requests[job], &b->alloc);
    if (rc == 0 && (rc = scratch_take(pl, &b->alloc)) == 0) {
        double speed = hsim_planner_speed(pl, v, job, &b->alloc);
        rc = give_push(p, t + hsim_time_scaled(v->jobs[job].estimate, speed), &b->alloc);
    }
    if (rc == 0)
        qsort(p->later, n_later, sizeof *p->later, by_start);
    for (size_t m = 0; m < n_later && rc == 0; m++) {
        give_until(p, v, &i, p->later[m].at);
        rc = replace_one(p, v, m);
    }
    restore(pl);
    if (rc == 0)
        return adopt(p, v, n_later);
    b->alloc.n = 0;
    return rc;
}

/* The earliest t >= from, up to limit, at which the profiles allow cores
   and gpus over [t, t + dur); a value > limit when none. */
static hsim_time_t totals_earliest(hsim_plan_t *p, hsim_time_t from, int32_t cores,
                                   int32_t gpus, hsim_time_t dur, hsim_time_t limit)
{
    hsim_time_t t = from;
    for (;;) {
        hsim_time_t t1 = cores ? hsim_profile_earliest_until(&p->cores, t, cores, dur, limit,
                                                             NULL)
                               : t;
        if (t1 > limit || !gpus)
            return t1;
        hsim_time_t t2 = hsim_profile_earliest_until(&p->gpus, t1, gpus, dur, limit, NULL);
        if (t2 == t1 || t2 > limit)
            return t2;
        t = t2;
    }
}

int hsim_plan_earliest(hsim_plan_t *p, const hsim_view_t *v, int32_t job, hsim_time_t limit,
                       hsim_booking_t *b)
{
    hsim_planner_t *pl = p->pl;
    const hsim_request_t *r = &v->requests[job];
    int rc = plan_room(p, job);
    if (rc)
        return rc;
    catch_up(pl);
    if (v->now > p->trimmed) {
        hsim_profile_trim(&p->cores, v->now);
        hsim_profile_trim(&p->gpus, v->now);
        p->trimmed = v->now;
    }
    hsim_time_t dur;
    hsim_planner_span(pl, v, job, NULL, &dur);
    int own = p->booked[job];
    if (own && (rc = profile_book(p, &p->book[job], -1)))
        return rc;
    int32_t cores = r->procs, gpus = r->gpu_milli < 1000 && r->gpus < 2 ? 0 : r->gpus;
    if (cores > p->cores.capacity)
        cores = p->cores.capacity;
    if (gpus > p->gpus.capacity)
        gpus = p->gpus.capacity;
    b->alloc.n = b->spare.n = 0;
    p->n_repinned = 0;
    hsim_time_t t = v->now;
    rc = HSIM_NOFIT;
    while (t <= limit) {
        t = totals_earliest(p, t, cores, gpus, dur, limit);
        if (t > limit)
            break;
        rc = fits_window(p, v, job, t, dur, b);
        if (rc == HSIM_NOFIT)
            rc = repin(p, v, job, t, b);
        if (rc != HSIM_NOFIT)
            break;
        t = next_release(p, v, job, t);
        if (t == HSIM_TIME_MAX)
            break;
    }
    if (own && rc == 0) { /* the new one replaces it: the caller books it */
        live_remove(p, job);
        hsim_booking_free(&p->book[job]);
        p->booked[job] = 0;
    } else if (own) {
        int rc2 = profile_book(p, &p->book[job], +1);
        if (rc2)
            return rc2;
    }
    if (rc == 0) {
        b->at = t;
        b->speed = hsim_planner_speed(pl, v, job, &b->alloc);
        b->end = t + hsim_time_scaled(v->jobs[job].estimate, b->speed);
    }
    return rc;
}

int hsim_plan_book(hsim_plan_t *p, int32_t job, hsim_booking_t *b)
{
    int rc = plan_room(p, job);
    if (rc)
        return rc;
    hsim_booking_t *old = &p->book[job];
    if (p->booked[job]) {
        if ((rc = profile_book(p, old, -1)))
            return rc;
        live_remove(p, job);
    }
    hsim_booking_free(old);
    *old = *b;
    memset(b, 0, sizeof *b);
    p->booked[job] = 1;
    if ((rc = profile_book(p, old, +1)))
        return rc;
    if (hsim_grow(&p->live, &p->cap_live, p->n_live + 1, sizeof *p->live))
        return HSIM_ENOMEM;
    p->live_at[job] = p->n_live;
    p->live[p->n_live++] = job;
    return 0;
}

size_t hsim_plan_repinned(const hsim_plan_t *p, const int32_t **jobs)
{
    *jobs = p->repinned;
    return p->n_repinned;
}

const hsim_booking_t *hsim_plan_booking(const hsim_plan_t *p, int32_t job)
{
    return (size_t)job < p->cap && p->booked[job] ? &p->book[job] : NULL;
}

int hsim_plan_ended(hsim_plan_t *p, int32_t job, hsim_time_t now)
{
    if ((size_t)job >= p->cap || !p->booked[job])
        return 0;
    hsim_booking_t *b = &p->book[job];
    int rc = 0;
    if (b->end > now) {
        if (b->at < now)
            b->at = now; /* what is left of it */
        rc = profile_book(p, b, -1);
    }
    live_remove(p, job);
    hsim_booking_free(b);
    p->booked[job] = 0;
    return rc;
}
