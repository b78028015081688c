/*
 * profile.h - a processor availability profile: free processors as a step
 * function of time, built from estimates (running jobs until their
 * estimated end, reservations over their estimated duration).
 *
 * Breakpoints are kept in a sorted array; the last step extends to infinity
 * and always has every processor free.  Adjacent steps of equal height are
 * merged, so the array holds at most two breakpoints per job in it.  Queries
 * and updates are a binary search plus a walk or a memmove: O(breakpoints).
 */
#ifndef HSIM_PROFILE_H
#define HSIM_PROFILE_H

#include "../sim/common.h"

typedef struct hsim_profile {
    hsim_time_t *t;     /* breakpoints, ascending; t[i] starts step i */
    int32_t *free;      /* free processors on [t[i], t[i+1]), 0..capacity */
    size_t n;           /* steps, >= 1 */
    size_t cap;
    int32_t capacity;   /* processors in the machine */
} hsim_profile_t;

/* One step from time 'origin' on, all processors free.  0 or HSIM_ENOMEM. */
int hsim_profile_init(hsim_profile_t *p, int32_t capacity, hsim_time_t origin);
void hsim_profile_free(hsim_profile_t *p);
/* Adds delta processors to the free count over [from, to), from < to.
   The result must stay within 0..capacity.  0 or HSIM_ENOMEM. */
int hsim_profile_add(hsim_profile_t *p, hsim_time_t from, hsim_time_t to, int32_t delta);
/* Free processors at time t (t >= the first breakpoint). */
int32_t hsim_profile_free_at(const hsim_profile_t *p, hsim_time_t t);
/* Index of the step holding t (t >= the first breakpoint), searched from
   *finger outwards (gallop), which it then updates: O(log distance), so a
   run of nearby lookups is cheap.  Any *finger is valid as a hint. */
size_t hsim_profile_step_near(const hsim_profile_t *p, hsim_time_t t, size_t *finger);
/* Earliest t >= from such that procs are free over all of [t, t + dur). */
hsim_time_t hsim_profile_earliest(const hsim_profile_t *p, hsim_time_t from,
                                  int32_t procs, hsim_time_t dur);
/* Same, but stops looking at limit: returns the earliest t <= limit, or
   some value > limit before which there is no such t.  O(breakpoints up
   to limit + dur). */
hsim_time_t hsim_profile_earliest_until(const hsim_profile_t *p, hsim_time_t from,
                                        int32_t procs, hsim_time_t dur, hsim_time_t limit);
/* Forgets the steps that end at or before now. */
void hsim_profile_trim(hsim_profile_t *p, hsim_time_t now);

#endif
