/*
 * clean.c - turning raw SWF records into jobs, under a named preset.
 *
 * Real logs hold jobs that cannot be replayed as written: no runtime, zero
 * processors, more processors than the machine, a runtime past the requested
 * time.  Each preset states what it does with each case; whatever it cannot
 * repair becomes a rejection with a reason, so no input job is ever lost.
 */
#include "swf.h"

#include <string.h>

int hsim_clean_preset_parse(const char *name, hsim_clean_preset_t *out)
{
    if (!strcmp(name, "pyss"))
        *out = HSIM_CLEAN_PYSS;
    else if (!strcmp(name, "standard"))
        *out = HSIM_CLEAN_STANDARD;
    else
        return -1;
    return 0;
}

static hsim_time_t tmax(hsim_time_t a, hsim_time_t b) { return a > b ? a : b; }
static hsim_time_t tmin(hsim_time_t a, hsim_time_t b) { return a < b ? a : b; }

static void job_from_record(const hsim_swf_record_t *r, hsim_job_t *j)
{
    hsim_job_init(j);
    j->id = r->id;
    j->line = r->line;
    j->user = r->user;
    j->group = r->group;
    j->app = r->app;
    j->queue = r->queue;
    j->partition = r->partition;
    j->after = r->preceding > 0 ? r->preceding : -1;
    j->think = r->think >= 0 ? r->think : -1; /* -1: unknown, as SWF writes it */
}

/*
 * pyss: a job with runtime <= 0, allocated processors <= 0 or submit < 0 is
 * replayed as a 1 s job (estimate 1 s) of max(1, allocated) processors, at
 * most the machine, submitted at max(submit, 1 s); otherwise processors =
 * max(1, min(allocated, machine)), estimate = max(requested, runtime, 1 s),
 * runtime = max(1 s, min(requested, runtime)), and a job so cut short of its
 * trace runtime by a positive requested time is reported killed (the
 * schedule is pyss's either way).  Nothing is rejected.
 */
static const char *clean_pyss(const hsim_swf_record_t *r, int32_t machine, hsim_job_t *j)
{
    const hsim_time_t one = HSIM_SECOND;
    const char *rewrite = NULL;
    if (r->run <= 0 || r->alloc_procs <= 0 || r->submit < 0) {
        j->submit = tmax(r->submit, one);
        j->runtime = j->estimate = one;
        j->procs = r->alloc_procs > 1 ? r->alloc_procs : 1;
        rewrite = "no runtime, processors or submit time (fields 2, 4, 5): replayed as a "
                  "1 s job";
    } else {
        j->submit = r->submit;
        j->procs = r->alloc_procs < machine ? r->alloc_procs : machine;
        j->estimate = tmax(tmax(r->req_time, r->run), one);
        j->runtime = tmax(one, tmin(r->req_time, r->run));
        /* cut at a requested time it ran past in the trace */
        j->killed_at_estimate = r->req_time > 0 && j->runtime < r->run;
        if (r->req_time <= 0 && r->run > one)
            rewrite = "no requested time (field 9): pyss runs min(requested, runtime), "
                      "so 1 s (clean = standard keeps the runtime)";
        else if (r->alloc_procs > machine)
            rewrite = "more processors than the machine: cut to the machine's";
    }
    if (j->procs > machine)
        j->procs = machine;
    if (j->procs < 1)
        j->procs = 1;
    return rewrite;
}

/*
 * standard: processors from field 8 when positive, else field 5; estimate =
 * requested time, or the runtime when the request is missing; a job that ran
 * past its request is cut at it and reported killed.  Rejected: no runtime,
 * zero runtime, no processor count, more processors than the machine, a
 * negative submit time.  Returns NULL or the reason for a rejection.
 */
static const char *clean_standard(const hsim_swf_record_t *r, int32_t machine,
                                  hsim_job_t *j, char *why, size_t why_size)
{
    if (r->submit < 0)
        return "negative submit time";
    if (r->run < 0)
        return r->run == -HSIM_SECOND ? "unknown runtime (field 4 is -1)" : "negative runtime";
    if (r->run == 0)
        return "zero runtime";
    int32_t procs = r->req_procs > 0 ? r->req_procs : r->alloc_procs;
    if (procs <= 0)
        return "no processor count (fields 5 and 8 are not positive)";
    if (procs > machine) {
        snprintf(why, why_size, "asks for %d processors, the machine has %d",
                 procs, machine);
        return why;
    }
    j->submit = r->submit;
    j->procs = procs;
    j->estimate = r->req_time > 0 ? r->req_time : r->run;
    j->runtime = r->run;
    if (j->runtime > j->estimate) {
        j->runtime = j->estimate;
        j->killed_at_estimate = 1;
    }
    return NULL;
}

int hsim_swf_clean(const hsim_swf_trace_t *t, hsim_clean_preset_t preset,
                   int32_t machine_procs, hsim_workload_t *w)
{
    w->header = t->header;
    /* room for every record at once: growing by doubling would write the
       jobs twice over */
    if (hsim_grow(&w->jobs, &w->cap_jobs, t->n_records, sizeof *w->jobs))
        return HSIM_ENOMEM;
    for (size_t i = 0; i < t->n_records; i++) {
        const hsim_swf_record_t *r = &t->records[i];
        hsim_job_t j;
        char why[96];
        const char *reason = NULL;
        job_from_record(r, &j);
        const char *rewrite = NULL;
        if (preset == HSIM_CLEAN_PYSS)
            rewrite = clean_pyss(r, machine_procs, &j);
        else
            reason = clean_standard(r, machine_procs, &j, why, sizeof why);
        int rc = reason ? hsim_workload_reject(w, r->id, r->line, reason)
                        : hsim_workload_add(w, &j);
        if (rc == 0 && rewrite)
            hsim_workload_rewritten(w, rewrite);
        if (rc)
            return rc;
    }
    w->n_input = t->n_records;
    hsim_workload_sort(w);
    return 0;
}
