/*
 * workload.c - the job array of a loaded workload.
 */
#include "workload.h"

#include "deps.h"

#include <stdlib.h>
#include <string.h>

void hsim_workload_init(hsim_workload_t *w)
{
    memset(w, 0, sizeof *w);
    hsim_swf_header_t *h = &w->header;
    h->max_procs = h->max_nodes = h->max_jobs = h->max_records = -1;
    h->unix_start_time = h->time_zone = HSIM_HEADER_ABSENT;
}

void hsim_workload_free(hsim_workload_t *w)
{
    hsim_free(w->jobs);
    hsim_free(w->rejected);
    hsim_free(w->names);
    hsim_free(w->dep_edges);
    hsim_deps_free(w->deps);
    hsim_workload_init(w);
}

int hsim_workload_add(hsim_workload_t *w, const hsim_job_t *job)
{
    if (hsim_grow(&w->jobs, &w->cap_jobs, w->n_jobs + 1, sizeof *w->jobs))
        return HSIM_ENOMEM;
    w->jobs[w->n_jobs++] = *job;
    return 0;
}

int hsim_workload_reject(hsim_workload_t *w, int64_t id, int64_t line,
                         const char *reason)
{
    if (hsim_grow(&w->rejected, &w->cap_rejected, w->n_rejected + 1,
                  sizeof *w->rejected))
        return HSIM_ENOMEM;
    hsim_rejection_t *r = &w->rejected[w->n_rejected++];
    r->id = id;
    r->line = line;
    r->name = 0;
    snprintf(r->reason, sizeof r->reason, "%s", reason);
    return 0;
}

void hsim_workload_rewritten(hsim_workload_t *w, const char *why)
{
    size_t k = 0;
    while (k < w->n_rewrites && w->rewrites[k].why != why)
        k++;
    if (k == w->n_rewrites && k < sizeof w->rewrites / sizeof w->rewrites[0])
        w->rewrites[w->n_rewrites++] = (struct hsim_rewrite){why, 0};
    if (k < w->n_rewrites)
        w->rewrites[k].count++;
    w->n_rewritten++;
}

int hsim_workload_name(hsim_workload_t *w, const char *name, uint32_t *ref)
{
    size_t n = strlen(name);
    *ref = 0;
    if (n == 0)
        return 0;
    if (w->names_len + n + 1 >= UINT32_MAX)
        return HSIM_ENOMEM; /* 4 GiB of names: more than any trace */
    if (hsim_grow(&w->names, &w->cap_names, w->names_len + n + 1, 1))
        return HSIM_ENOMEM;
    memcpy(w->names + w->names_len, name, n + 1);
    *ref = (uint32_t)(w->names_len + 1);
    w->names_len += n + 1;
    return 0;
}

const char *hsim_workload_job_name(const hsim_workload_t *w, uint32_t name)
{
    return name && name <= w->names_len ? w->names + name - 1 : "";
}

static int by_id_then_line(const void *a, const void *b)
{
    const hsim_id_line_t *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

int hsim_id_repeat(hsim_id_line_t *v, size_t n, int64_t *id, int64_t *line, int64_t *first)
{
    size_t i = 1;
    while (i < n && v[i].id > v[i - 1].id)
        i++;
    if (i >= n)
        return 0;
    qsort(v, n, sizeof *v, by_id_then_line);
    size_t again = 0; /* the repeat with the earliest line; 0 = none */
    for (size_t k = 1; k < n; k++)
        if (v[k].id == v[k - 1].id && (!again || v[k].line < v[again].line))
            again = k;
    if (!again)
        return 0;
    size_t f = again;
    while (f > 0 && v[f - 1].id == v[again].id)
        f--;
    *id = v[again].id;
    *line = v[again].line;
    *first = v[f].line;
    return 1;
}

static int by_submit_then_line(const void *a, const void *b)
{
    const hsim_job_t *x = a, *y = b;
    if (x->submit != y->submit)
        return x->submit < y->submit ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

void hsim_workload_sort(hsim_workload_t *w)
{
    /* Traces are most often in order already (SWF asks for it): then one
       pass says so.  (line, id) is unique (a reader's row number is its id
       when one line can hold several rows), so qsort's instability cannot
       show. */
    size_t i = 1;
    while (i < w->n_jobs && by_submit_then_line(&w->jobs[i - 1], &w->jobs[i]) < 0)
        i++;
    if (i < w->n_jobs)
        qsort(w->jobs, w->n_jobs, sizeof *w->jobs, by_submit_then_line);
}


static int intern(char table[][HSIM_LABEL_MAX], size_t *n, size_t max, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(table[i], name))
            return (int)i;
    if (*n == max || strlen(name) >= HSIM_LABEL_MAX)
        return -1;
    hsim_strlcpy(table[*n], name, HSIM_LABEL_MAX);
    return (int)(*n)++;
}

int hsim_workload_model(hsim_workload_t *w, const char *name)
{
    return intern(w->models, &w->n_models, HSIM_MAX_MODELS, name);
}

int hsim_workload_class(hsim_workload_t *w, const char *name)
{
    return intern(w->classes, &w->n_classes, HSIM_MAX_CLASSES, name);
}

void hsim_job_init(hsim_job_t *j)
{
    memset(j, 0, sizeof *j);
    j->user = j->group = j->app = j->queue = j->partition = -1;
    j->after = -1;
    j->think = -1; /* unknown */
    j->job_class = -1;
}
