/*
 * progress.h - the progress line on a terminal: for each replay under way,
 * its jobs ended, its rate and the time it has left, on one line of
 * standard error redrawn at most HSIM_PROGRESS_HZ times a second.
 *
 * One line for every replay at once (with -j, several run side by side),
 * cut to the terminal's width, so that no redraw leaves a line behind
 * whatever the terminal does with long lines; it is erased before the
 * table prints a row (hold/release) and at the end.  The engine calls
 * hsim_progress_tick() every HSIM_PROGRESS_EVERY events; a tick costs a
 * lock and a clock read, so a run with a line is as fast as one without.
 * Wall-clock time is read here only, never by the simulation.
 */
#ifndef HSIM_PROGRESS_H
#define HSIM_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

#define HSIM_PROGRESS_EVERY 1024 /* events between ticks */
#define HSIM_PROGRESS_HZ 4       /* redraws a second, at most */

typedef struct hsim_progress hsim_progress_t;
typedef struct hsim_progress_slot hsim_progress_slot_t;

/* A progress line on f (a terminal), for up to slots replays at once:
   NULL when out of memory (then there is no line).  Free with
   hsim_progress_free(), which erases the line. */
hsim_progress_t *hsim_progress_new(FILE *f, size_t slots);
void hsim_progress_free(hsim_progress_t *p);
/* A replay starts: its label (cut to 63 bytes) and its jobs.  NULL when
   p is NULL or every slot is taken (the replay then shows no progress). */
hsim_progress_slot_t *hsim_progress_begin(hsim_progress_t *p, const char *label,
                                          size_t jobs);
/* The replay of slot ended. */
void hsim_progress_end(hsim_progress_t *p, hsim_progress_slot_t *slot);
/* The engine's hook (engine.h): arg is the slot, jobs_ended its count. */
void hsim_progress_tick(void *arg, size_t jobs_ended);
/* Erases the line and keeps it off until hsim_progress_release(), while
   something else prints (the table).  p may be NULL. */
void hsim_progress_hold(hsim_progress_t *p);
void hsim_progress_release(hsim_progress_t *p);

#endif
