/*
 * profile.h - a processor availability profile: free processors as a step
 * function of time, built from estimates (running jobs until their
 * estimated end, reservations over their estimated duration).
 *
 * The steps are kept in time order in chunks of at most HSIM_PROFILE_CHUNK
 * (a two-level array, like a B+tree of height two).  Each chunk carries a
 * pending addition for all its steps (lazy) and bounds on its largest
 * and smallest free counts, so adding processors over a stretch of time
 * costs O(chunk + chunks) instead of a walk over every step, inserting a
 * breakpoint is a memmove inside one chunk, and a search for a window of
 * free processors steps over whole chunks that are free enough all
 * through.  On a long trace under conservative backfilling the profile
 * holds a few hundred breakpoints in a few chunks (docs/performance.md
 * has the counts).  The last step extends to infinity and always has
 * every processor free.  Adjacent equal steps are merged within a chunk.
 */
#ifndef HSIM_PROFILE_H
#define HSIM_PROFILE_H

#include "../sim/common.h"

#define HSIM_PROFILE_CHUNK 128

typedef struct hsim_pchunk {
    int32_t n;                          /* steps used, 1..HSIM_PROFILE_CHUNK */
    int32_t lazy;                       /* added to every free[] below */
    int32_t max;                        /* no free[i] is above it (a bound,
                                           made exact when the chunk splits
                                           or is trimmed, and when a lazy
                                           addition would take it past the
                                           capacity) */
    int32_t min;                        /* no free[i] is below it (a bound,
                                           made exact when max is) */
    hsim_time_t t[HSIM_PROFILE_CHUNK];  /* step starts, ascending */
    int32_t free[HSIM_PROFILE_CHUNK];   /* free processors - lazy */
} hsim_pchunk_t;

/* A step's place, kept as a hint for a later lookup: chunk k counted from
   the first chunk the profile ever had (trimming does not move it; packing
   the chunks again makes every earlier hint a wrong one), index i in it.
   Any value works; a near one makes the lookup cheap, even after the
   profile changed around it. */
typedef struct hsim_ppos {
    uint32_t k; /* modulo 2^32: a hint that wrapped is only a wrong one */
    int32_t i;
} hsim_ppos_t;

/* No hint: an addition starts from the profile's last lookup, other
   lookups from its first chunk. */
#define HSIM_PPOS_NONE ((hsim_ppos_t){UINT32_MAX, INT32_MAX})

typedef struct hsim_profile {
    hsim_pchunk_t **c;  /* chunks in time order, >= 1 */
    hsim_time_t *first; /* first[k] = c[k]->t[0]: searched without touching
                           the chunks themselves (one cache miss each) */
    size_t nc;          /* chunks used */
    size_t capc;        /* chunk pointers allocated */
    int32_t capacity;   /* processors in the machine */
    size_t base;        /* chunks trimmed away so far: c[k] is chunk
                           base + k of a hsim_ppos_t */
    hsim_ppos_t finger; /* step of the last lookup: a hint */
    size_t steps;       /* steps in all chunks */
} hsim_profile_t;

/* One step from time 'origin' on, all processors free.  0 or HSIM_ENOMEM. */
int hsim_profile_init(hsim_profile_t *p, int32_t capacity, hsim_time_t origin);
void hsim_profile_free(hsim_profile_t *p);
/* Adds delta processors to the free count over [from, to), from < to, from
   at or after the first breakpoint.  The result must stay within
   0..capacity.  0 or HSIM_ENOMEM.  O(log chunks + chunk + chunks spanned). */
int hsim_profile_add(hsim_profile_t *p, hsim_time_t from, hsim_time_t to, int32_t delta);
/* The same, looking for from near the step 'near' (say, where
   hsim_profile_run_back() left it, or where an earlier addition put a
   breakpoint; HSIM_PPOS_NONE for none): any value works, a right one saves
   a search.  where (may be NULL) gets hints for the steps at from and at
   to. */
int hsim_profile_add_near(hsim_profile_t *p, hsim_time_t from, hsim_time_t to, int32_t delta,
                          hsim_ppos_t near, hsim_ppos_t where[2]);
/* Free processors at time t (t >= the first breakpoint).  O(log). */
int32_t hsim_profile_free_at(hsim_profile_t *p, hsim_time_t t);
/* The fewest free processors at any time in [from, to), from < to, from
   at or after the first breakpoint, looking for from near the step 'near'
   (any value works).  O(log + steps in it). */
int32_t hsim_profile_min(hsim_profile_t *p, hsim_time_t from, hsim_time_t to,
                         hsim_ppos_t near);
/* Earliest t >= from such that procs are free over all of [t, t + dur),
   dur > 0. */
hsim_time_t hsim_profile_earliest(hsim_profile_t *p, hsim_time_t from, int32_t procs,
                                  hsim_time_t dur);
/* Same, but stops looking at limit: returns the earliest t <= limit, or
   some value > limit before which there is no such t.  *near (may be NULL)
   is a hint for the step holding from + dur - 1 (any value works), which
   it updates to the step holding the end of the last window looked at: a
   call that resumes where the last one stopped starts after it.  Each
   window is checked from its end down, and the next one starts after the
   last step in it that has too few processors free: O(log) per window
   tried plus the steps looked at, at most those up to limit + dur, less
   the chunks free enough all through. */
hsim_time_t hsim_profile_earliest_until(hsim_profile_t *p, hsim_time_t from, int32_t procs,
                                        hsim_time_t dur, hsim_time_t limit, hsim_ppos_t *near);
/* The start of the run of >= procs free processors that ends at 'at'
   (clipped to now), or at when the step just before at has fewer.
   at > now.  *before is a hint for that step (any value works), which it
   updates; *start (may be NULL) gets the step the run starts in, and
   *least (may be NULL) the fewest free over the run, when there is one.
   O(log + run length), O(run length) with a right hint. */
hsim_time_t hsim_profile_run_back(hsim_profile_t *p, hsim_time_t at, int32_t procs,
                                  hsim_time_t now, hsim_ppos_t *before, hsim_ppos_t *start,
                                  int32_t *least);
/* Forgets the steps that end at or before now; packs the steps into fewer
   chunks when they have become sparse (O(steps), rare). */
void hsim_profile_trim(hsim_profile_t *p, hsim_time_t now);
/* Steps in the profile (for tests and statistics).  O(1). */
size_t hsim_profile_steps(const hsim_profile_t *p);
/* Checks every invariant above: steps in time order within and across
   chunks, first[] in step with the chunks, no two equal steps side by side
   in a chunk, counts within 0..capacity, each chunk's max and min true
   bounds, the last step all free.  NULL when they hold, else what
   does not.  O(steps); for tests and HSIM_CHECK (backfill_conservative.c). */
const char *hsim_profile_check(const hsim_profile_t *p);

#endif
