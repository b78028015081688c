/*
 * policy.c - what a policy computes from the view alone.
 *
 * The view is all a policy may read; these helpers read nothing else, so a
 * test's hand-built view, the event engine's and the live driver's give the
 * same answers.
 */
#include "policy.h"

int32_t hsim_view_free_now(const hsim_view_t *v)
{
    int32_t busy = v->running_procs;
    if (v->running_unordered)
        return v->capacity - busy + v->ending_procs;
    for (size_t i = 0; i < v->n_running && v->running[i].est_end <= v->now; i++)
        busy -= v->running[i].procs; /* a hole holds 0 */
    return v->capacity - busy;
}
