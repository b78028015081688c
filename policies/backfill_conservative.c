/*
 * backfill_conservative.c - conservative backfilling (Mu'alem and Feitelson
 * 2001; pyss semantics).
 *
 * At its submission a job is placed at the earliest time at which it fits
 * for its whole estimate in the profile of running jobs and of all earlier
 * reservations; it starts when that time comes (a start event, even when
 * the time is now).  After each termination the job's unused estimate is
 * released and every waiting job, in queue order, is taken out and placed
 * again at its earliest fit: never later than before, so no reservation is
 * ever delayed.  (Under an order that changes with time the plan is made
 * again at every pass instead: backfill_conservative_rebuild.c.)
 *
 * Taking a job out and placing it again is the costly way to ask "can it
 * start earlier?".  With its reservation at 'at', a window [t, t + dur),
 * t < at, either ends by at, and is then a window of the whole profile
 * (its own reservation is not in the way), or it runs on into its own slot,
 * and then needs only the processors free from t to at.  So the earliest
 * new start is the earlier of (a) the earliest window for the job's shape
 * in the whole profile, if it ends by at, and (b) the start of the run of
 * free processors that ends at at, if there is one.  (a) depends on the
 * shape and the profile only, and the jobs of one array share their shape
 * and sit together in the queue, so it is cached; a change of the profile
 * touches an entry only where a window of its shape could use it.
 *
 * Job arrays help three times more: after a job could not move, the next
 * one at the same start that needs no less is not looked at; such runs of
 * jobs are noted by queue slot, so the next pass skips a run in one step
 * when its first job cannot move again (see run_note_t); after one moved,
 * the next one of its shape at the same start moves to the same time when
 * one more fits there, and the profile changes once for the lot (see
 * batch_t).
 *
 * Cost: a placement is O(breakpoints).  A termination visits the queue's
 * runs, at O(1) each for those passed over and most often O(1) for the
 * others too (a cached shape, and a lookup from the hint each job keeps
 * for the step before its reservation, most often right); only moves touch
 * the profile, O(breakpoints).  A pass's cost thus follows the runs of the
 * queue, not its jobs, and the moves (see book_move()).  Nearly all moves
 * are (b): a chain of reservations, each waiting for the one before it to
 * end, moves up, most often by a few seconds, one link at a time, each
 * link into the slot the one before it left (see slide() in profile.c).
 * docs/performance.md counts each of these on RICC-2010.
 */
#include "backfill_nodes.h"
#include "profile.h"
#include "queue.h"

#include <stdlib.h>
#include <string.h>

#define SHAPE_CACHE 256 /* entries in the shape cache, direct-mapped */

/* What is known of the earliest window of one job shape in the profile
   as it was after 'seen' give-backs (see catch_up()). */
typedef struct shape_fit {
    int32_t procs;            /* the shape: processors (0 = empty entry)... */
    hsim_time_t dur;          /* ...and estimate */
    hsim_time_t earliest;     /* no window [t, t + dur) with procs free
                                 starts in [now, earliest) */
    int exact;                /* and there is one at earliest */
    uint64_t seen;            /* give-backs already taken into account */
    hsim_ppos_t end;          /* a hint for the end of the last window
                                 looked at */
} shape_fit_t;

/* Processors given back from 'from' on, the n-th give-back since the
   shape cache was emptied. */
typedef struct given {
    uint64_t n;
    hsim_time_t from;
} given_t;

/* What a pass found out about the jobs from one queue slot on, for the
   next pass (see cons_ended()). */
typedef struct run_note {
    uint32_t pass;       /* the pass that found that... */
    uint32_t end : 31;   /* ...the jobs in slots [slot, end) cannot move
                            while the first one cannot; good for the next
                            pass only */
    uint32_t same : 1;   /* they all have the first one's shape */
} run_note_t;

typedef struct cons {
    hsim_cons_rebuild_t *rebuild; /* under a time-dependent order: all of
                                 the state (the plan is made again at each
                                 pass); NULL otherwise */
    hsim_cons_nodes_t *nodes; /* on a cluster of nodes: all of the state
                                 (backfill_conservative_nodes.c); NULL on
                                 a pool, where the rest is */
    hsim_profile_t profile;   /* running jobs and reservations */
    hsim_queue_t queue;       /* waiting jobs, in queue order: those reserved
                                 in the future, and those whose start has
                                 come until a pass or sweep() takes them out */
    hsim_time_t *at;          /* reserved start, by job index */
    size_t n_jobs;            /* room in at[] and before[] */
    hsim_ppos_t *before;      /* by job index: a hint for the profile step
                                 just before its reservation starts (where
                                 (b) looks first) */
    int ready;                /* profile initialised */
    shape_fit_t fits[SHAPE_CACHE]; /* by hash of the shape */
    uint16_t live[SHAPE_CACHE];    /* slots of the non-empty entries... */
    int32_t live_procs[SHAPE_CACHE];   /* ...and their shapes, packed for */
    hsim_time_t live_dur[SHAPE_CACHE]; /* the scan of shape_window_before() */
    uint16_t live_of[SHAPE_CACHE]; /* by slot: its place in live[] */
    uint64_t maybe_exact[SHAPE_CACHE / 64]; /* a bit for each slot whose
                                               entry may be exact (a few) */
    uint64_t n_given;         /* give-backs since the cache was emptied... */
    given_t *given;           /* ...those that start earlier than every later
                                 one (suffix minima), in order */
    size_t n_kept, cap_kept;
    hsim_time_t vacated_lo;   /* processors given back by moves in the last */
    hsim_time_t vacated_hi;   /* compression pass lie in [lo, hi); lo > hi
                                 when none */
    size_t n_live;
    run_note_t *notes;        /* by queue slot */
    size_t notes_cap;         /* slots it holds */
    size_t swept;             /* jobs queued after the last sweep() */
    uint32_t pass;            /* passes so far, plus 2 at each change of
                                 the queue's layout seen here (modulo 2^32:
                                 at a wrap every note is voided) */
    uint64_t layout;          /* the queue's layout at the last pass */
    hsim_ppos_t chain;        /* the step before the end of the last
                                 give-back made (see give_held()) */
    hsim_time_t held_from;    /* give-backs of moves not yet made in the */
    hsim_time_t held_to;      /* profile: held_procs more free over */
    int32_t held_procs;       /* [from, to); 0 when none (see book_move()) */
    int check;                /* HSIM_CHECK set: check the profile's
                                 invariants after every change of it */
} cons_t;

static int cons_create(const hsim_policy_params_t *p, void **state)
{
    cons_t *s = hsim_calloc(1, sizeof *s);
    if (!s)
        return HSIM_ENOMEM;
    if (p->order->time_dependent || p->planner) {
        int rc = p->order->time_dependent ? hsim_cons_rebuild_create(p, &s->rebuild)
                                          : hsim_cons_nodes_create(p, &s->nodes);
        if (rc) {
            hsim_free(s);
            return rc;
        }
        *state = s;
        return 0;
    }
    s->n_jobs = p->n_jobs ? p->n_jobs : 1;
    s->at = hsim_calloc(s->n_jobs, sizeof *s->at);
    s->before = hsim_calloc(s->n_jobs, sizeof *s->before);
    if (!s->at || !s->before || hsim_profile_init(&s->profile, p->capacity, 0)) {
        hsim_free(s->at);
        hsim_free(s->before);
        hsim_free(s);
        return HSIM_ENOMEM;
    }
    hsim_queue_init(&s->queue, p->order, p->order_state);
    s->pass = 1; /* so that no zeroed note is ever of the last pass */
    s->vacated_lo = HSIM_TIME_MAX;
    s->vacated_hi = -1;
    s->check = getenv("HSIM_CHECK") != NULL;
    *state = s;
    return 0;
}

/* With HSIM_CHECK set, aborts when the profile breaks an invariant (a
   programming error); O(breakpoints). */
static void check_profile(const cons_t *s)
{
    const char *why = s->check ? hsim_profile_check(&s->profile) : NULL;
    if (why)
        hsim_assert_fail(why, __FILE__, __LINE__);
}

static int cons_grow(void *state, size_t n_jobs)
{
    cons_t *s = state;
    if (!s->at || n_jobs <= s->n_jobs) /* (planning on nodes or rebuilding:
                                           nothing by job) */
        return 0;
    if (hsim_grow_zeroed(&s->at, s->n_jobs, n_jobs, sizeof *s->at) ||
        hsim_grow_zeroed(&s->before, s->n_jobs, n_jobs, sizeof *s->before))
        return HSIM_ENOMEM;
    s->n_jobs = n_jobs;
    return 0;
}

static void cons_destroy(void *state)
{
    cons_t *s = state;
    if (s->rebuild)
        hsim_cons_rebuild_destroy(s->rebuild);
    if (s->nodes)
        hsim_cons_nodes_destroy(s->nodes);
    hsim_profile_free(&s->profile);
    hsim_queue_free(&s->queue);
    hsim_free(s->at);
    hsim_free(s->before);
    hsim_free(s->given);
    hsim_free(s->notes);
    hsim_free(s);
}

/*
 * The shape cache is kept true as the profile changes.  Fewer processors
 * cannot open a window: an exact entry whose window they overlap becomes a
 * bound (shapes_taken(), over the few exact entries).  More, given back
 * from 'from' on, can open one that starts before the known bound only if
 * it reaches past from, so the bound drops to the first start that does,
 * from - dur + 1.  Every move gives back, and there are dozens of entries,
 * so that is done lazily: of the give-backs an entry has not seen only the
 * earliest matters; shapes_given() keeps those that start earlier than
 * every later one, and catch_up() finds it by a search from the newest.
 */
static void shapes_taken(cons_t *s, hsim_time_t from, hsim_time_t to)
{
    uint64_t any = 0;
    for (size_t w = 0; w < SHAPE_CACHE / 64; w++)
        any |= s->maybe_exact[w];
    if (!any)
        return; /* most often: no entry is exact */
    for (size_t w = 0; w < SHAPE_CACHE / 64; w++) {
        for (uint64_t bits = s->maybe_exact[w]; bits; bits &= bits - 1) {
            unsigned slot = (unsigned)(w * 64) + (unsigned)__builtin_ctzll(bits);
            shape_fit_t *f = &s->fits[slot];
            if (f->exact && from < f->earliest + f->dur && to > f->earliest)
                f->exact = 0;
            if (!f->exact)
                s->maybe_exact[w] &= ~(1ull << (slot % 64));
        }
    }
}

/* Records a give-back from 'from' on.  0 or HSIM_ENOMEM. */
static int shapes_given(cons_t *s, hsim_time_t from)
{
    s->n_given++;
    while (s->n_kept && s->given[s->n_kept - 1].from >= from)
        s->n_kept--;
    if (hsim_grow(&s->given, &s->cap_kept, s->n_kept + 1, sizeof *s->given))
        return HSIM_ENOMEM;
    s->given[s->n_kept++] = (given_t){s->n_given, from};
    return 0;
}

/* catch_up() when f has give-backs to see. */
static void see_given(cons_t *s, shape_fit_t *f)
{
    /* the first kept give-back after seen: the earliest of them */
    size_t hi = s->n_kept - 1, step = 1; /* the newest is kept */
    while (hi >= step && s->given[hi - step].n > f->seen) {
        hi -= step;
        step *= 2;
    }
    size_t lo = hi >= step ? hi - step + 1 : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->given[mid].n > f->seen)
            hi = mid;
        else
            lo = mid + 1;
    }
    hsim_time_t first = s->given[lo].from - f->dur + 1;
    if (first < f->earliest) {
        f->earliest = first;
        f->exact = 0;
    }
    f->seen = s->n_given;
}

/* Brings entry f up to date with the give-backs it has not seen, and with
   now (windows cannot start before it). */
static inline void catch_up(cons_t *s, shape_fit_t *f, hsim_time_t now)
{
    if (f->seen < s->n_given)
        see_given(s, f);
    if (f->earliest < now) {
        f->earliest = now;
        f->exact = 0;
    }
}

/* Empties the cache: a compression pass starts by giving back processors
   from now on, which leaves little of it. */
static void clear_shapes(cons_t *s)
{
    for (size_t i = 0; i < s->n_live; i++)
        s->fits[s->live[i]].procs = 0;
    memset(s->maybe_exact, 0, sizeof s->maybe_exact);
    s->n_live = s->n_kept = 0;
    s->n_given = 0;
}

/* A hint for the step before the one at 'start' (-1 at a chunk's first
   step: a wrong hint, which costs only a search). */
static hsim_ppos_t step_before(hsim_ppos_t start)
{
    return (hsim_ppos_t){start.k, start.i - 1};
}

/* Reserves [t, t + dur) for procs processors.  *before gets a hint for
   the step just before t. */
static int book(cons_t *s, hsim_time_t t, hsim_time_t dur, int32_t procs,
                hsim_ppos_t *before)
{
    shapes_taken(s, t, t + dur);
    hsim_ppos_t where[2];
    int rc = hsim_profile_add_near(&s->profile, t, t + dur, -procs, HSIM_PPOS_NONE, where);
    if (rc == 0) {
        *before = step_before(where[0]);
        check_profile(s);
    }
    return rc;
}

/* Gives back [t, t + dur) of a reservation of procs processors. */
static int unbook(cons_t *s, hsim_time_t t, hsim_time_t dur, int32_t procs)
{
    int rc = shapes_given(s, t);
    if (rc == 0)
        rc = hsim_profile_add(&s->profile, t, t + dur, procs);
    if (rc == 0)
        check_profile(s);
    return rc;
}

/* A reservation for dur moved from at to t < at takes [t, this) that it
   did not hold before: up to at when the two slots overlap. */
static hsim_time_t taken_end(hsim_time_t at, hsim_time_t t, hsim_time_t dur)
{
    return t + dur > at ? at : t + dur;
}

/* ...and gives back [this, at + dur) of its old slot: from t + dur when the
   two overlap. */
static hsim_time_t given_from(hsim_time_t at, hsim_time_t t, hsim_time_t dur)
{
    return t + dur > at ? t + dur : at;
}

/* Makes the held give-back in the profile, if there is one, looking for
   its start from the end of the last one made (a pass's moves give back
   further and further up the profile).  0 or HSIM_ENOMEM. */
static int give_held(cons_t *s)
{
    if (!s->held_procs)
        return 0;
    hsim_ppos_t gave[2];
    int rc = shapes_given(s, s->held_from);
    if (rc == 0)
        rc = hsim_profile_add_near(&s->profile, s->held_from, s->held_to, s->held_procs,
                                   s->chain, gave);
    s->held_procs = 0;
    if (rc == 0) {
        s->chain = step_before(gave[1]);
        check_profile(s);
    }
    return rc;
}

/*
 * Moves a reservation of procs processors for dur from at to t < at.  When
 * the two overlap only their differences change: [t, at) loses the
 * processors and [t + dur, at + dur) gets them back (nearly every move).  near: the step of t or a guess (see hsim_profile_add_near()).
 *
 * The give-back is held back rather than made: a chain of moves of one
 * width gives back stretches that each start where the last one ended, and
 * held together they take one change of the profile instead of one each
 * (more than half of the give-backs on a long trace).  Additions commute, so holding
 * one back changes nothing that is read before it is made: cons_ended()
 * makes it before it looks at a job that could read past its start (a
 * job's look, and the room for the jobs of its batch, which share its
 * start, read the profile only before that start), and at the end of the
 * pass.  The shape cache hears of it only when it is made, so that the
 * cache always describes the profile as it is.
 */
static int book_move(cons_t *s, hsim_time_t at, hsim_time_t t,
                     hsim_time_t dur, int32_t procs, hsim_ppos_t near)
{
    hsim_time_t taken = taken_end(at, t, dur);   /* taken over [t, taken) */
    hsim_time_t back = given_from(at, t, dur);   /* back over [back, at + dur) */
    shapes_taken(s, t, taken);
    int rc = hsim_profile_add_near(&s->profile, t, taken, -procs, near, NULL);
    if (rc)
        return rc;
    check_profile(s);
    if (s->held_procs == procs && s->held_to == back) {
        s->held_to = at + dur; /* it carries on the held one */
        return 0;
    }
    if ((rc = give_held(s)))
        return rc;
    s->held_from = back;
    s->held_to = at + dur;
    s->held_procs = procs;
    return 0;
}

static int place(cons_t *s, const hsim_view_t *v, int32_t job, const hsim_decide_t *d)
{
    const hsim_vjob_t *j = &v->jobs[job];
    hsim_time_t t = hsim_profile_earliest(&s->profile, v->now, j->procs, j->estimate);
    int rc = book(s, t, j->estimate, j->procs, &s->before[job]);
    if (rc)
        return rc;
    s->at[job] = t;
    return d->reserve(d->ctx, job, t);
}

/*
 * A job whose reserved start has come stays queued until a pass reaches
 * it, and passes are skipped while terminations give nothing back (all of
 * them, with exact estimates): the queue would then keep every job ever
 * submitted, and an insertion in shortest-first order would move them all.
 * So once the queue has doubled since it was last swept, a sweep takes
 * those jobs out: O(1) amortised per submission.  It changes no decision:
 * a pass takes them out too, untouched.
 */
static void sweep(cons_t *s, hsim_time_t now)
{
    hsim_queue_t *q = &s->queue;
    if (hsim_queue_size(q) <= 2 * s->swept + 64)
        return;
    for (size_t i = q->first; i < q->n; i++)
        if (q->ids[i] >= 0 && s->at[q->ids[i]] <= now)
            hsim_queue_remove_at(q, i);
    hsim_queue_tidy(q);
    s->swept = hsim_queue_size(q);
}

static int cons_submitted(void *state, const hsim_view_t *v, int32_t job,
                          const hsim_decide_t *d)
{
    cons_t *s = state;
    if (s->rebuild)
        return 0; /* placed by the pass that follows */
    if (s->nodes)
        return hsim_cons_nodes_submitted(s->nodes, v, job, d);
    if (!s->ready) {
        /* the profile starts at the first submission: times may be < 0 */
        hsim_profile_free(&s->profile);
        if (hsim_profile_init(&s->profile, v->capacity, v->now))
            return HSIM_ENOMEM;
        s->ready = 1;
    }
    hsim_profile_trim(&s->profile, v->now);
    sweep(s, v->now);
    int rc = hsim_queue_insert(&s->queue, v->jobs, job, v->now);
    if (rc)
        return rc;
    return place(s, v, job, d);
}

/* (a): does a window for the shape lie wholly before at?  If so, its start;
   else at.  Only windows that start before 'until' are looked for: no
   other can have opened for the job (see cons_ended()).  Cached: the scan
   resumes where it stopped. */
static hsim_time_t shape_window_before(cons_t *s, hsim_time_t now, int32_t procs,
                                       hsim_time_t dur, hsim_time_t at, hsim_time_t until)
{
    uint64_t h = ((uint64_t)procs * 0x9E3779B97F4A7C15ull) ^ (uint64_t)dur;
    size_t slot = (h ^ (h >> 29)) % SHAPE_CACHE;
    shape_fit_t *f = &s->fits[slot];
    if (f->procs != procs || f->dur != dur) {
        /* A window for this shape holds one for any shape that needs no
           more processors for no longer: where those have none, it has
           none. */
        hsim_time_t bound = now;
        uint16_t under[SHAPE_CACHE]; /* the live entries of such shapes, */
        size_t n_under = 0;          /* picked without a branch: which
                                        shapes they are cannot be guessed */
        for (size_t i = 0; i < s->n_live; i++) {
            under[n_under] = s->live[i];
            n_under += (s->live_procs[i] <= procs) & (s->live_dur[i] <= dur);
        }
        for (size_t i = 0; i < n_under; i++) {
            shape_fit_t *o = &s->fits[under[i]];
            if (o == f)
                continue;
            catch_up(s, o, now);
            if (o->earliest > bound)
                bound = o->earliest;
        }
        if (!f->procs) {
            s->live_of[slot] = (uint16_t)s->n_live;
            s->live[s->n_live++] = (uint16_t)slot;
        }
        s->live_procs[s->live_of[slot]] = procs;
        s->live_dur[s->live_of[slot]] = dur;
        *f = (shape_fit_t){.procs = procs, .dur = dur, .earliest = bound, .exact = 0,
                           .seen = s->n_given, .end = HSIM_PPOS_NONE};
    } else {
        catch_up(s, f, now);
    }
    hsim_time_t limit = at - dur < until ? at - dur : until - 1;
    if (!f->exact && f->earliest <= limit) {
        hsim_time_t t = hsim_profile_earliest_until(&s->profile, f->earliest, procs, dur, limit,
                                                    &f->end);
        f->earliest = t;
        f->exact = t <= limit;
        if (f->exact)
            s->maybe_exact[slot / 64] |= 1ull << (slot % 64);
    }
    return f->exact ? f->earliest : at; /* not exact: earliest may be < at - dur
                                           when the scan stopped at until */
}

/*
 * The earliest start before 'at' for a job reserved at at, as if its own
 * reservation were gone; at when there is none.  See the file comment.
 * (a) windows are looked for only where they start before until.
 */
static hsim_time_t earlier_fit(cons_t *s, hsim_time_t now, hsim_time_t at,
                               int32_t procs, hsim_time_t dur, hsim_time_t until, int b_possible,
                               hsim_ppos_t *before, hsim_ppos_t *near, int32_t *least)
{
    hsim_time_t best = at;
    if (at - dur >= now && until > now) { /* else no window ends by at, or
                                               none opened: (a) cannot be */
        hsim_time_t a = shape_window_before(s, now, procs, dur, at, until);
        if (a + dur <= at)
            best = a;
    }
    /* (b): the run of >= procs free processors that ends at at */
    if (!b_possible)
        return best;
    hsim_ppos_t start;
    hsim_time_t run = hsim_profile_run_back(&s->profile, at, procs, now, before, &start, least);
    if (run < best) {
        *near = start;
        return run;
    }
    return best;
}

/*
 * Moves of jobs of one shape from one start to one earlier start, not yet
 * made in the profile.  The jobs of an array sit together in the queue and
 * often move together; when one has just moved from at to t, the next one
 * reserved at at with the same shape cannot start before t (a window that
 * let it would have let the first), and it can start at t exactly when the
 * processors free over [t, taken_end) hold one more of them.  So a pass
 * answers for each of them with one comparison, and the profile changes
 * once for all.
 */
typedef struct batch {
    hsim_time_t at, t, dur;  /* from at to t, for dur */
    int32_t procs;           /* each job's */
    int32_t first;           /* the first job moved: the others take its
                                hint for the step before their start */
    int32_t n;               /* jobs moved; 0 = none */
    int32_t room;            /* fewest free over [t, taken_end()) before the
                                moves; -1 until needed */
    hsim_ppos_t near;        /* the step of t, or a guess */
} batch_t;

/* Widens [*lo, *hi) to hold [from, to). */
static void widen(hsim_time_t *lo, hsim_time_t *hi, hsim_time_t from, hsim_time_t to)
{
    if (from < *lo)
        *lo = from;
    if (to > *hi)
        *hi = to;
}

/* Makes the batch's moves in the profile. */
static int flush(cons_t *s, batch_t *b)
{
    int rc = book_move(s, b->at, b->t, b->dur, b->procs * b->n, b->near);
    b->n = 0;
    return rc;
}

/* Makes room for notes on every slot of the queue.  0 or HSIM_ENOMEM. */
static int notes_grow(cons_t *s, const hsim_queue_t *q)
{
    size_t old = s->notes_cap;
    if (hsim_grow(&s->notes, &s->notes_cap, q->n, sizeof *s->notes))
        return HSIM_ENOMEM;
    memset(s->notes + old, 0, (s->notes_cap - old) * sizeof *s->notes);
    return 0;
}

/* A note of the last pass, or NULL. */
static const run_note_t *last_note(const cons_t *s, size_t slot)
{
    const run_note_t *n = &s->notes[slot];
    return n->pass == s->pass - 1 ? n : NULL;
}

static int cons_ended(void *state, const hsim_view_t *v, int32_t job,
                      hsim_time_t start, hsim_time_t est_end, const hsim_decide_t *d)
{
    (void)start;
    (void)est_end;
    cons_t *s = state;
    if (s->rebuild)
        return 0; /* the pass that follows plans again */
    if (s->nodes)
        return hsim_cons_nodes_ended(s->nodes, v, job, d);
    hsim_time_t now = v->now;
    int rc;
    hsim_profile_trim(&s->profile, now);
    /* Give back what is still booked: the job was booked over [at, at +
       estimate), which is [start, est_end) unless a cluster of nodes made
       it start later than its reservation (a deferred start). */
    hsim_time_t booked_end = s->at[job] + v->jobs[job].estimate;
    if (booked_end <= now && s->vacated_lo > s->vacated_hi)
        return 0; /* nothing given back since every job was last placed or
                     looked at, so none can move (with exact estimates,
                     every termination) */
    clear_shapes(s);
    if (booked_end > now && (rc = unbook(s, now, booked_end - now, v->jobs[job].procs)))
        return rc;
    /* (b) holds for a job after it is placed or looked at; it can only
       become true where processors were given back just before its start:
       in this termination's tail, or where a move of the last pass or of
       this one gave some back.  lo/hi bound those stretches. */
    hsim_time_t tail_end = booked_end > now ? booked_end : now;
    hsim_time_t lo = s->vacated_lo, hi = s->vacated_hi;
    s->vacated_lo = HSIM_TIME_MAX;
    s->vacated_hi = -1;
    hsim_queue_t *q = &s->queue;
    hsim_queue_tidy(q);
    /* The last job that could not move, while nothing has moved since.  A
       job reserved at the same start that needs at least as many
       processors for at least as long cannot move either: every window it
       could use, before that start or running into its own slot, would
       hold the other's too.  The jobs of one array sit together in the
       queue with one start: most jobs of a long trace end here. */
    int failed = 0;
    hsim_time_t fail_at = 0, fail_dur = 0;
    int32_t fail_procs = 0;
    /* The slot of that job, and so the start of a run of jobs that the
       same argument passes over.  They are left as they are, so the next
       pass, if that job cannot move either, can skip them all at once; a
       run that a pass skips stays good for the next one. */
    size_t lead = SIZE_MAX;
    int lead_same = 0;        /* its run's jobs all have its shape so far */
    /* A run of the last pass whose first jobs moved in this one: when one
       of the rest cannot, none of them can, if they all have one shape. */
    size_t carry_end = 0;
    if ((rc = notes_grow(s, q)))
        return rc;
    uint32_t pass = s->pass + (q->layout == s->layout ? 1 : 2); /* all void if
                                                                  slots moved */
    if (pass < s->pass) { /* wrapped: no note may pass for one of the last */
        memset(s->notes, 0, s->notes_cap * sizeof *s->notes);
        pass = 2;
    }
    s->pass = pass;
    s->layout = q->layout;
    batch_t b = {.n = 0};
    for (size_t i = q->first; i < q->n; i++) {
        int32_t w = q->ids[i];
        if (w < 0)
            continue;
        hsim_time_t at = s->at[w];
        int32_t procs = q->procs[i];  /* the queue's copies: read in order */
        hsim_time_t dur = q->est[i];
        if (at <= now) {
            /* its start is due now or has happened: fixed */
            hsim_queue_remove_at(q, i);
            continue;
        }
        if (b.n && at == b.at && procs == b.procs && dur == b.dur) {
            if (b.room < 0)
                b.room = hsim_profile_min(&s->profile, b.t, taken_end(b.at, b.t, b.dur), b.near);
            if ((int64_t)(b.n + 1) * b.procs <= b.room) {
                b.n++;
                s->at[w] = b.t;
                s->before[w] = s->before[b.first];
                if ((rc = d->reserve(d->ctx, w, b.t)))
                    return rc;
                continue;
            }
        }
        if (b.n && (rc = flush(s, &b)))
            return rc;
        const run_note_t *note = last_note(s, i);
        if (failed && at == fail_at && procs >= fail_procs && dur >= fail_dur) {
            lead_same &= procs == fail_procs && dur == fail_dur;
            if (note) { /* the run it led in the last pass follows it */
                lead_same &= (int)note->same;
                i = note->end - 1;
            }
            continue;
        }
        if (lead != SIZE_MAX) {
            s->notes[lead] = (run_note_t){s->pass, (uint32_t)i, (uint32_t)lead_same & 1};
            lead = SIZE_MAX;
        }
        if (i >= carry_end)
            carry_end = 0;
        int b_possible = at <= tail_end || (at > lo && at <= hi);
        /* Likewise for (a): the job had no window that ends by at when
           it was placed or last looked at (or one that passed it over had
           none), so a window now must overlap something given back since,
           and start before the end of this termination's tail or of
           [lo, hi).  (Fewer steps of the window searches: see
           docs/performance.md.) */
        hsim_time_t opened = tail_end > hi ? tail_end : hi;
        hsim_ppos_t near = HSIM_PPOS_NONE;
        int32_t least = -1;
        /* the look reads the profile before at only */
        if (s->held_procs && at > s->held_from && (rc = give_held(s)))
            return rc;
        hsim_time_t t = earlier_fit(s, now, at, procs, dur, opened, b_possible, &s->before[w],
                                    &near, &least);
        if (t == at) {
            failed = 1;
            fail_at = at;
            fail_procs = procs;
            fail_dur = dur;
            lead = i;
            lead_same = 1;
            if (note) { /* its run of the last pass */
                lead_same = (int)note->same;
                i = note->end - 1;
            } else if (carry_end) { /* the rest of a run of one shape */
                i = carry_end - 1;
            }
            continue;
        }
        if (note && note->same && note->end > i + 1)
            carry_end = note->end;
        failed = 0;
        HSIM_ASSERT(t < at);
        /* processors come back over [back, at + estimate) */
        hsim_time_t back = given_from(at, t, dur);
        widen(&lo, &hi, back, at + dur);
        widen(&s->vacated_lo, &s->vacated_hi, back, at + dur);
        int b_move = near.k != UINT32_MAX; /* near is its run */
        /* a (b) move that overlaps its old slot takes [t, at), the run just
           walked: the room is the fewest free over it */
        int took_run = b_move && taken_end(at, t, dur) == at;
        b = (batch_t){.at = at, .t = t, .dur = dur, .procs = procs, .first = w, .n = 1,
                      .room = took_run ? least : -1, .near = near};
        s->at[w] = t;
        if (b_move)
            s->before[w] = step_before(near);
        if ((rc = d->reserve(d->ctx, w, t)))
            return rc;
    }
    if (lead != SIZE_MAX)
        s->notes[lead] = (run_note_t){s->pass, (uint32_t)q->n, (uint32_t)lead_same & 1};
    if (b.n && (rc = flush(s, &b)))
        return rc;
    return give_held(s);
}

static int cons_schedule(void *state, const hsim_view_t *v, const hsim_decide_t *d)
{
    cons_t *s = state;
    if (s->rebuild)
        return hsim_cons_rebuild_pass(s->rebuild, v, d);
    return 0; /* every decision is a reservation made on submission or end */
}

const hsim_scheduler_t hsim_sched_conservative = {
    .name = "conservative",
    .summary = "conservative backfilling: every job gets a reservation that never moves later "
               "(planned again at each pass under a time-dependent order)",
    .create = cons_create,
    .destroy = cons_destroy,
    .grow = cons_grow,
    .submitted = cons_submitted,
    .ended = cons_ended,
    .schedule = cons_schedule,
    .running_any_order = 1,
    .fixed_estimates = 1,
    .plans_on_nodes = 1,
};
