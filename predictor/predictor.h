/*
 * predictor.h - runtime predictors behind one interface.
 *
 * A predictor estimates a job's runtime from its features and learns only
 * from jobs that have finished.  It is handed the whole job record, but only
 * 'oracle' reads the actual runtime: it exists to measure upper bounds.
 * Answers are clamped by the engine to the requested time at most, and
 * those of a predictor that underpredicts to 1 s at least (when the
 * request is that long): 'oracle' plans a 0.6 s job as 0.6 s.
 */
#ifndef HSIM_PREDICTOR_H
#define HSIM_PREDICTOR_H

#include "../sim/job.h"

typedef struct hsim_predictor {
    const char *name;
    const char *summary;
    /* Per-run state for a run of n_jobs jobs; NULL state is allowed. */
    int (*create)(size_t n_jobs, void **state);
    void (*destroy)(void *state);
    /* Runtime estimate for job at time now. */
    hsim_time_t (*predict)(void *state, const hsim_job_t *job, hsim_time_t now);
    /* job finished at now after running for 'ran'.  0 or HSIM_ENOMEM.  May
       be NULL. */
    int (*learn)(void *state, const hsim_job_t *job, hsim_time_t ran, hsim_time_t now);
    int revises;      /* 1: after learn() of a job, its answers for the
                         waiting jobs of that job's user may change (and no
                         others'), so the engine asks again for those (0:
                         each job is asked once, at its submission) */
    int underpredicts; /* 1: its answer can be below the actual runtime; a
                          running job that outlives it gets the requested
                          time instead (a prediction expiry event) */
} hsim_predictor_t;

/* The registry: NULL-terminated, in the order the help lists them. */
extern const hsim_predictor_t *const hsim_predictors[];
const hsim_predictor_t *hsim_predictor_find(const char *name);

#endif
