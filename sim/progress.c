/*
 * progress.c - the progress line (progress.h).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime() */
#include "progress.h"

#include "common.h"

#include <pthread.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

struct hsim_progress_slot {
    hsim_progress_t *p;
    char label[64];
    size_t jobs, ended;           /* the workload's jobs; those ended */
    double started;               /* seconds, monotonic clock */
    int used;
};

struct hsim_progress {
    FILE *f;
    pthread_mutex_t lock;
    hsim_progress_slot_t *slots;  /* [n] */
    size_t n;
    double drawn_at;              /* when the line was last drawn, 0 never */
    int shown;                    /* a line is on the terminal */
    int held;
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

hsim_progress_t *hsim_progress_new(FILE *f, size_t slots)
{
    hsim_progress_t *p = hsim_calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->slots = hsim_calloc(slots ? slots : 1, sizeof *p->slots);
    if (!p->slots || pthread_mutex_init(&p->lock, NULL)) {
        hsim_free(p->slots);
        hsim_free(p);
        return NULL;
    }
    p->f = f;
    p->n = slots ? slots : 1;
    return p;
}

/* Erases the line (under the lock). */
static void erase(hsim_progress_t *p)
{
    if (!p->shown)
        return;
    fputs("\r\033[K", p->f);
    fflush(p->f);
    p->shown = 0;
}

void hsim_progress_free(hsim_progress_t *p)
{
    if (!p)
        return;
    erase(p);
    pthread_mutex_destroy(&p->lock);
    hsim_free(p->slots);
    hsim_free(p);
}

/* A count, short: 950, 12.3k, 4.56M. */
static void count(char *buf, size_t size, double v)
{
    if (v < 1e3)
        snprintf(buf, size, "%.0f", v);
    else if (v < 1e6)
        snprintf(buf, size, "%.1fk", v / 1e3);
    else
        snprintf(buf, size, "%.2fM", v / 1e6);
}

/* One replay's part of the line: "name 12.3k/28.0k jobs 4.1k/s 0:07 left". */
static void slot_text(const hsim_progress_slot_t *s, double now, char *buf, size_t size)
{
    char done[16], all[16], rate[16], left[24] = "";
    double elapsed = now - s->started;
    double per_s = elapsed > 0 ? (double)s->ended / elapsed : 0;
    count(done, sizeof done, (double)s->ended);
    count(all, sizeof all, (double)s->jobs);
    count(rate, sizeof rate, per_s);
    if (per_s > 0) {
        long eta = (long)((double)(s->jobs - s->ended) / per_s + 0.5);
        snprintf(left, sizeof left, " %ld:%02ld left", eta / 60, eta % 60);
    }
    snprintf(buf, size, "%s %s/%s jobs %s/s%s", s->label, done, all, rate, left);
}

/* The terminal's width, 80 when it does not say. */
static size_t width(FILE *f)
{
    struct winsize ws;
    if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

/* Draws the line (under the lock): every slot in use, cut to the width
   less one column (a full line would wrap on some terminals). */
static void draw(hsim_progress_t *p, double now)
{
    char line[1024];
    size_t len = 0, max = width(p->f) - 1;
    if (max >= sizeof line)
        max = sizeof line - 1;
    for (size_t i = 0; i < p->n && len < max; i++) {
        if (!p->slots[i].used)
            continue;
        char part[160];
        slot_text(&p->slots[i], now, part, sizeof part);
        len += (size_t)snprintf(line + len, sizeof line - len, "%s%s", len ? " | " : "", part);
    }
    if (len > max)
        len = max;
    line[len] = '\0';
    fprintf(p->f, "\r%s\033[K", line);
    fflush(p->f);
    p->shown = len > 0;
    p->drawn_at = now;
}

hsim_progress_slot_t *hsim_progress_begin(hsim_progress_t *p, const char *label, size_t jobs)
{
    if (!p)
        return NULL;
    pthread_mutex_lock(&p->lock);
    hsim_progress_slot_t *s = NULL;
    for (size_t i = 0; i < p->n && !s; i++)
        if (!p->slots[i].used)
            s = &p->slots[i];
    if (s) {
        *s = (hsim_progress_slot_t){.p = p, .jobs = jobs, .started = now_s(), .used = 1};
        hsim_strlcpy(s->label, label, sizeof s->label);
        if (!p->held && p->drawn_at == 0)
            draw(p, s->started); /* at once: the first replay shows */
    }
    pthread_mutex_unlock(&p->lock);
    return s;
}

void hsim_progress_end(hsim_progress_t *p, hsim_progress_slot_t *slot)
{
    if (!p || !slot)
        return;
    pthread_mutex_lock(&p->lock);
    slot->used = 0;
    pthread_mutex_unlock(&p->lock);
}

void hsim_progress_tick(void *arg, size_t jobs_ended)
{
    hsim_progress_slot_t *s = arg;
    hsim_progress_t *p = s->p;
    pthread_mutex_lock(&p->lock);
    s->ended = jobs_ended;
    double now = now_s();
    if (!p->held && (p->drawn_at == 0 || now - p->drawn_at >= 1.0 / HSIM_PROGRESS_HZ))
        draw(p, now);
    pthread_mutex_unlock(&p->lock);
}

void hsim_progress_hold(hsim_progress_t *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    erase(p);
    p->held = 1;
    pthread_mutex_unlock(&p->lock);
}

void hsim_progress_release(hsim_progress_t *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->held = 0;
    pthread_mutex_unlock(&p->lock);
}
