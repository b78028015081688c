/*
 * ref.h - reference schedulers: each discipline of DESIGN.md written the
 * plain way, from scratch at every pass, for differential tests.  They
 * plan on a pool of processors (view->capacity), never on nodes.
 *
 * Each is a registered-style descriptor (hsim_scheduler_t) that the engine
 * runs like the real one, so a test replays one workload under the real
 * scheduler and under its reference and compares every job's start and
 * end.  Their cost is what makes them references: EASY recomputes the
 * shadow time after every backfilled job, O(waiting x running) a pass;
 * conservative rebuilds the whole usage profile for every placement,
 * O(steps^2) each.  Use them on a few hundred to a few thousand jobs.
 *
 * A new scheduler gets its reference here, and one line in hsim_ref_for(),
 * and the differential tests (test_schedulers*.c, test_registry.c) check
 * it on random workloads from then on.
 */
#ifndef HSIM_TEST_REF_H
#define HSIM_TEST_REF_H

#include "sim/engine.h"

/* No backfilling: the waiting jobs in queue order while they fit. */
extern const hsim_scheduler_t hsim_ref_none;
/* EASY: the head's shadow time and extra processors recomputed from the
   running jobs' estimated ends before each backfilling candidate. */
extern const hsim_scheduler_t hsim_ref_easy;
/* Conservative: each job placed at its earliest fit in the profile of the
   running jobs and every other reservation, rebuilt each time; after a
   termination every waiting job, in queue order, placed again. */
extern const hsim_scheduler_t hsim_ref_conservative;

/* The reference for the registered scheduler s (by name), or NULL when
   none is written yet. */
const hsim_scheduler_t *hsim_ref_for(const hsim_scheduler_t *s);

/* FCFS without backfilling in closed form: job i starts at the first time
   >= max(submit, previous job's start) when its processors are free.
   Writes start, end and fate of each of w's jobs into out.  O(n^3). */
void hsim_ref_fcfs(const hsim_workload_t *w, int32_t capacity, hsim_outcome_t *out);

#endif
