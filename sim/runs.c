/*
 * runs.c - many experiments, their repeats and shards, replayed on threads.
 *
 * The work is a list of units (experiment, seed) in command-line order,
 * each of tasks (its policies, those of this shard).  The calling thread
 * loads units ahead of the one it writes (the head) while the threads
 * would otherwise run out of tasks, and writes the head's policies in file
 * order as their replays end; the threads take tasks in order.  So the
 * files and the table come out in the order of -j 1, and what is written
 * depends on nothing but the inputs.  Peak memory: up to -j + 1 loaded
 * workloads, each with its replays' outcomes.
 *
 * A unit's folder, lock and first files are made when it becomes the head
 * (hsim_unit_begin), so a run stopped by bad input leaves the later
 * experiments' folders as -j 1 would: untouched.
 */
#include "runs.h"

#include "progress.h"
#include "repeat.h"
#include "report.h"
#include "plot.h"
#include "shard.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef char dir_t[HSIM_PATH_MAX * 2];

/* One experiment of the list. */
typedef struct exp {
    const hsim_runs_input_t *in;
    hsim_config_t *c;             /* parsed when its first unit loads, freed
                                     after its last is written */
    size_t repeat;                /* its units (seeds) */
    size_t first_unit, units_left;/* of this run (a shard may skip some) */
    dir_t dir;                    /* <output>[/shard-i-of-n]/<name> */
    int lock;                     /* repeat > 1: dir's lock, -1 none */
    int rc;                       /* its first failure, 0 none */
    hsim_err_t err;
    char **rows;                  /* [n_rows = repeat * policies]: summary
                                     rows (repeat > 1, whole runs) */
    size_t n_rows;
    char *header;                 /* summary.csv's header (repeat > 1) */
    int cluster, gpus;
    hsim_report_t manifest;       /* a shard's shard.txt */
    char manifest_path[HSIM_PATH_MAX * 2 + 16];
} exp_t;

/* One experiment under one seed. */
typedef struct unit {
    size_t exp, seed_index;
    hsim_config_t *c;             /* the experiment's, with the unit's seed */
    hsim_unit_t *u;               /* loaded, NULL before or on failure */
    int rc;                       /* loading's */
    hsim_err_t err;
    unsigned char sel[HSIM_MAX_POLICIES]; /* its policies this run replays */
    size_t first_task, n_tasks;
    dir_t dir;
} unit_t;

typedef struct task {
    size_t unit, policy;
    int finished;                 /* under the lock when threaded */
} task_t;

typedef struct runs {
    const hsim_runs_options_t *o;
    exp_t *exps;
    size_t n_exps;
    unit_t *units;
    size_t n_units, opened;       /* units loaded (or failed to) so far */
    task_t *tasks;
    size_t n_tasks, ready, next;  /* tasks of loaded units; the next to take */
    size_t width;                 /* -j */
    int threaded;
    pthread_mutex_t lock;
    pthread_cond_t changed;       /* a task was published or ended */
    pthread_t threads[HSIM_MAX_THREADS];
    size_t n_threads;
    int closing;
    int load_failed;              /* a unit failed to load: none after it
                                     loads ahead (-j 1 would stop there) */
} runs_t;

/* Replays task t (on any thread), with a progress line when asked. */
static void run_task(runs_t *R, task_t *t)
{
    unit_t *u = &R->units[t->unit];
    if (!u->u)
        return; /* its unit failed to load */
    hsim_progress_slot_t *slot = NULL;
    char label[2 * HSIM_NAME_MAX + 32];
    const exp_t *x = &R->exps[u->exp];
    if (R->o->progress) {
        if (x->repeat > 1)
            snprintf(label, sizeof label, "%s/%s/seed-%llu", u->c->name,
                     u->c->policies[t->policy].name, (unsigned long long)u->c->seed);
        else
            snprintf(label, sizeof label, "%s/%s", u->c->name, u->c->policies[t->policy].name);
        slot = hsim_progress_begin(R->o->progress, label, hsim_unit_jobs(u->u));
    }
    hsim_unit_progress_t hook = {hsim_progress_tick, slot, HSIM_PROGRESS_EVERY};
    hsim_unit_replay(u->u, t->policy, slot ? &hook : NULL);
    if (slot)
        hsim_progress_end(R->o->progress, slot);
}

static void *worker(void *arg)
{
    runs_t *R = arg;
    pthread_mutex_lock(&R->lock);
    for (;;) {
        while (R->next == R->ready && !R->closing)
            pthread_cond_wait(&R->changed, &R->lock);
        if (R->next == R->ready)
            break;
        task_t *t = &R->tasks[R->next++];
        pthread_cond_broadcast(&R->changed); /* one fewer waits: load more */
        if (t->finished)
            continue;
        pthread_mutex_unlock(&R->lock);
        run_task(R, t);
        pthread_mutex_lock(&R->lock);
        t->finished = 1;
        pthread_cond_broadcast(&R->changed);
    }
    pthread_mutex_unlock(&R->lock);
    return NULL;
}

static void pool_start(runs_t *R)
{
    size_t width = R->width < R->n_tasks ? R->width : R->n_tasks;
    if (width < 2 || pthread_mutex_init(&R->lock, NULL))
        return;
    if (pthread_cond_init(&R->changed, NULL)) {
        pthread_mutex_destroy(&R->lock);
        return;
    }
    for (size_t k = 0; k < width; k++)
        if (pthread_create(&R->threads[R->n_threads], NULL, worker, R) == 0)
            R->n_threads++;
    R->threaded = R->n_threads > 0;
    if (!R->threaded) { /* replays then run on this thread */
        pthread_cond_destroy(&R->changed);
        pthread_mutex_destroy(&R->lock);
    }
}

/* Lets the replays under way end, skips the others, joins the threads. */
static void pool_stop(runs_t *R)
{
    if (!R->threaded)
        return;
    pthread_mutex_lock(&R->lock);
    for (size_t t = R->next; t < R->ready; t++)
        R->tasks[t].finished = 1;
    R->closing = 1;
    pthread_cond_broadcast(&R->changed);
    pthread_mutex_unlock(&R->lock);
    for (size_t k = 0; k < R->n_threads; k++)
        pthread_join(R->threads[k], NULL);
    pthread_cond_destroy(&R->changed);
    pthread_mutex_destroy(&R->lock);
    R->threaded = 0;
}

/* Parses experiment x's configuration into x->c, once. */
static int exp_config(exp_t *x, hsim_err_t *e)
{
    if (x->c)
        return 0;
    x->c = hsim_malloc(sizeof *x->c);
    if (!x->c)
        return HSIM_ENOMEM;
    if (!x->in->text) {
        *x->c = *x->in->config;
        return 0;
    }
    return hsim_config_parse_string(x->in->text, x->in->file, x->c, e);
}

/* Loads the next unit (on the calling thread) and publishes its tasks. */
static void open_next(runs_t *R)
{
    unit_t *u = &R->units[R->opened];
    exp_t *x = &R->exps[u->exp];
    int rc = exp_config(x, &u->err);
    if (rc == 0 && !(u->c = hsim_malloc(sizeof *u->c)))
        rc = HSIM_ENOMEM;
    if (rc == 0) {
        *u->c = *x->c;
        u->c->seed = x->c->seed + u->seed_index;
        if (x->repeat > 1)
            snprintf(u->dir, sizeof u->dir, "%s/seed-%llu", x->dir,
                     (unsigned long long)u->c->seed);
        else
            hsim_strlcpy(u->dir, x->dir, sizeof u->dir);
        hsim_unit_options_t uo = {.dir = u->dir, .title = x->c->name};
        hsim_progress_hold(R->o->progress); /* loading may warn on stderr */
        rc = hsim_unit_open(&u->u, u->c, &uo, &u->err);
        hsim_progress_release(R->o->progress);
    }
    u->rc = rc;
    R->load_failed |= rc == HSIM_EINPUT || rc == HSIM_ENOMEM; /* they stop the run */
    if (R->threaded)
        pthread_mutex_lock(&R->lock);
    for (size_t t = u->first_task; rc && t < u->first_task + u->n_tasks; t++)
        R->tasks[t].finished = 1;
    R->ready = u->first_task + u->n_tasks;
    R->opened++;
    if (R->threaded) {
        pthread_cond_broadcast(&R->changed);
        pthread_mutex_unlock(&R->lock);
    }
}

/* Whether to load another unit now: while the threads would run out of
   tasks, up to width units ahead of the head. */
static int load_more(const runs_t *R, size_t head)
{
    return !R->load_failed && R->opened < R->n_units && R->opened - head <= R->width &&
           R->ready - R->next < R->width;
}

/* Waits until task t has ended, loading units ahead meanwhile; without
   threads, replays it. */
static void wait_task(runs_t *R, size_t head, task_t *t)
{
    if (!R->threaded) {
        if (!t->finished)
            run_task(R, t);
        t->finished = 1;
        return;
    }
    pthread_mutex_lock(&R->lock);
    while (!t->finished) {
        if (load_more(R, head)) {
            pthread_mutex_unlock(&R->lock);
            open_next(R);
            pthread_mutex_lock(&R->lock);
        } else {
            pthread_cond_wait(&R->changed, &R->lock);
        }
    }
    pthread_mutex_unlock(&R->lock);
}

static void fail(runs_t *R, exp_t *x, int rc, const hsim_err_t *e)
{
    if (!x->rc) {
        x->rc = rc;
        x->err = *e;
    }
    (void)R;
}

/* The experiment's start, at its first unit's turn: a repeat's folder and
   lock, a shard's manifest. */
static int exp_begin(runs_t *R, exp_t *x, hsim_err_t *e)
{
    const hsim_runs_options_t *o = R->o;
    int rc = 0;
    if (x->repeat > 1 && !o->shards) {
        x->rows = hsim_calloc(x->repeat * x->c->n_policies, sizeof *x->rows);
        if (!x->rows)
            return HSIM_ENOMEM;
        x->n_rows = x->repeat * x->c->n_policies;
        if ((rc = hsim_mkdirs(x->dir, e)) == 0) {
            const char *none[1] = {NULL};
            rc = hsim_results_lock(x->dir, none, 0, &x->lock, e);
        }
    }
    if (rc == 0 && o->shards) {
        snprintf(x->manifest_path, sizeof x->manifest_path, "%s/%s", x->dir, HSIM_SHARD_FILE);
        if ((rc = hsim_mkdirs(x->dir, e)) == 0)
            rc = hsim_shard_begin(&x->manifest, x->manifest_path, x->c, o->shard, o->shards, e);
    }
    if (rc == HSIM_ERUN || rc == HSIM_EIO)
        hsim_experiment_name(e, x->c->path);
    return rc;
}

/* What a written unit leaves to its experiment: a repeat's rows, a shard's
   records. */
static int unit_keep(exp_t *x, unit_t *u)
{
    const hsim_config_t *c = x->c;
    if (x->manifest.f)
        hsim_shard_unit(x->manifest.f, u->seed_index, hsim_unit_header(u->u),
                        hsim_unit_cluster(u->u), hsim_unit_gpus(u->u),
                        hsim_unit_workflows(u->u));
    if (x->repeat > 1 && !x->header) {
        x->cluster = hsim_unit_cluster(u->u);
        x->gpus = hsim_unit_gpus(u->u);
        if (!(x->header = hsim_strdup(hsim_unit_header(u->u))))
            return HSIM_ENOMEM;
    }
    for (size_t k = 0; k < c->n_policies; k++) {
        if (!u->sel[k])
            continue;
        const hsim_unit_record_t *rec = hsim_unit_record(u->u, k);
        if (x->manifest.f)
            hsim_shard_record(x->manifest.f, u->seed_index, k, rec);
        if (x->rows && !(x->rows[u->seed_index * c->n_policies + k] = hsim_strdup(rec->summary)))
            return HSIM_ENOMEM;
    }
    return 0;
}

/* The experiment's end, after its last unit: a repeat's means (not in a
   shard: hsim merge writes them), the manifest, the lock. */
static void exp_end(runs_t *R, exp_t *x)
{
    hsim_err_t e = {{0}};
    int rc = 0;
    if (x->rows && !x->rc && !R->o->shards) {
        const char *names[HSIM_MAX_POLICIES];
        for (size_t k = 0; k < x->c->n_policies; k++)
            names[k] = x->c->policies[k].name;
        hsim_repeat_t rp = {
            .dir = x->dir, .title = x->c->name, .path = x->c->path, .names = names,
            .n_policies = x->c->n_policies, .repeats = x->repeat, .header = x->header,
            .rows = x->rows, .cluster = x->cluster, .gpus = x->gpus,
        };
        hsim_progress_hold(R->o->progress);
        rc = hsim_repeat_write(&rp, R->o->quiet ? NULL : stdout, &e);
        hsim_report_table_flush(stdout);
        hsim_progress_release(R->o->progress);
        char first[sizeof x->dir + 32]; /* the charts of the means, with error bars */
        snprintf(first, sizeof first, "%s/seed-%llu", x->dir, (unsigned long long)x->c->seed);
        if (rc == 0)
            rc = hsim_plot_from(x->dir, first, &e);
    }
    if (x->manifest.f) {
        if (rc || x->rc)
            hsim_report_discard(&x->manifest);
        else
            rc = hsim_report_close(&x->manifest, &e);
    }
    if (rc == HSIM_EIO)
        hsim_experiment_name(&e, x->c->path);
    if (rc)
        fail(R, x, rc, &e);
    if (x->lock >= 0)
        hsim_results_unlock(x->dir, x->lock);
    x->lock = -1;
}

/* Writes the head unit h: its policies in order as their replays end. */
static void write_unit(runs_t *R, size_t h)
{
    unit_t *u = &R->units[h];
    exp_t *x = &R->exps[u->exp];
    const hsim_runs_options_t *o = R->o;
    hsim_err_t e = {{0}};
    int rc = u->rc;
    if (rc)
        e = u->err;
    if (rc == 0 && h == x->first_unit)
        rc = exp_begin(R, x, &e);
    if (rc == 0)
        rc = hsim_unit_begin(u->u, &e);
    if (rc == 0 && !o->quiet && h == x->first_unit) {
        char note[64] = "";
        if (x->repeat > 1)
            snprintf(note, sizeof note, " (means of %zu seeds, %llu to %llu)", x->repeat,
                     (unsigned long long)x->c->seed,
                     (unsigned long long)(x->c->seed + x->repeat - 1));
        hsim_progress_hold(o->progress);
        hsim_unit_print_header(u->u, stdout, x->dir, note, x->repeat == 1);
        hsim_report_table_flush(stdout);
        hsim_progress_release(o->progress);
    }
    for (size_t t = u->first_task; t < u->first_task + u->n_tasks; t++) {
        wait_task(R, h, &R->tasks[t]); /* after a failure too: it reads the unit */
        size_t k = R->tasks[t].policy;
        if (rc == 0 && (rc = hsim_unit_write(u->u, k, &e)) == 0 && !o->quiet &&
            x->repeat == 1) {
            hsim_progress_hold(o->progress);
            hsim_unit_print_row(u->u, k, stdout);
            hsim_report_table_flush(stdout);
            hsim_progress_release(o->progress);
        }
    }
    if (rc == 0)
        rc = unit_keep(x, u);
    if (u->u) {
        hsim_err_t later = {{0}};
        int rc2 = hsim_unit_close(u->u, rc == 0, rc ? &later : &e);
        rc = rc ? rc : rc2;
        u->u = NULL;
    }
    if (rc)
        fail(R, x, rc, &e);
    hsim_free(u->c);
    u->c = NULL;
}

/* Numbers the units and tasks of this run (of its shard). */
static int plan(runs_t *R, const hsim_runs_input_t *in, hsim_err_t *e)
{
    const hsim_runs_options_t *o = R->o;
    for (int pass = 0; pass < 2; pass++) {
        uint64_t triple = 0;
        R->n_units = R->n_tasks = 0;
        for (size_t i = 0; i < R->n_exps; i++) {
            exp_t *x = &R->exps[i];
            if (pass == 0) {
                x->in = &in[i];
                x->lock = -1;
                int rc = exp_config(x, e);
                if (rc)
                    return rc;
                x->repeat = x->c->repeat ? x->c->repeat : 1;
                if (o->shards)
                    snprintf(x->dir, sizeof x->dir, "%s/shard-%d-of-%d/%s", x->c->output,
                             o->shard, o->shards, x->c->name);
                else
                    snprintf(x->dir, sizeof x->dir, "%s/%s", x->c->output, x->c->name);
            }
            x->first_unit = R->n_units;
            size_t P = x->c->n_policies;
            for (size_t s = 0; s < x->repeat; s++) {
                size_t n = 0;
                unsigned char sel[HSIM_MAX_POLICIES];
                for (size_t k = 0; k < P; k++, triple++) {
                    sel[k] = !o->shards || hsim_runs_shard_of(triple, o->shards) == o->shard;
                    if (sel[k] && pass == 1)
                        R->tasks[R->n_tasks + n] = (task_t){R->n_units, k, 0};
                    n += sel[k];
                }
                if (n == 0)
                    continue;
                if (pass == 1)
                    R->units[R->n_units] = (unit_t){.exp = i, .seed_index = s,
                                                    .first_task = R->n_tasks, .n_tasks = n};
                if (pass == 1)
                    memcpy(R->units[R->n_units].sel, sel, P);
                R->n_units++;
                R->n_tasks += n;
            }
            x->units_left = R->n_units - x->first_unit;
            if (pass == 1) {
                hsim_free(x->c); /* parsed again when its turn comes */
                x->c = NULL;
            }
        }
        if (pass == 0) {
            R->units = hsim_calloc(R->n_units ? R->n_units : 1, sizeof *R->units);
            R->tasks = hsim_calloc(R->n_tasks ? R->n_tasks : 1, sizeof *R->tasks);
            if (!R->units || !R->tasks)
                return HSIM_ENOMEM;
        }
    }
    return 0;
}

/* Frees what the experiments and the units ahead of the head hold. */
static void cleanup(runs_t *R)
{
    for (size_t h = 0; R->units && h < R->opened; h++) {
        if (R->units[h].u)
            hsim_unit_close(R->units[h].u, 0, NULL); /* never begun: no files */
        hsim_free(R->units[h].c);
    }
    for (size_t i = 0; i < R->n_exps; i++) {
        exp_t *x = &R->exps[i];
        if (x->lock >= 0)
            hsim_results_unlock(x->dir, x->lock);
        hsim_report_discard(&x->manifest);
        for (size_t k = 0; k < x->n_rows; k++)
            hsim_free(x->rows[k]);
        hsim_free(x->rows);
        hsim_free(x->header);
        hsim_free(x->c);
    }
    hsim_free(R->units);
    hsim_free(R->tasks);
    hsim_free(R->exps);
}

/* The exit status of a failure: 2 for bad input, 1 otherwise. */
static int status_of(int rc) { return rc == HSIM_EINPUT ? 2 : 1; }

int hsim_runs(const hsim_runs_input_t *in, size_t n, const hsim_runs_options_t *o)
{
    runs_t R;
    memset(&R, 0, sizeof R);
    R.o = o;
    R.n_exps = n;
    R.width = o->threads > 1 ? (size_t)o->threads : 1;
    hsim_err_t e = {{0}};
    R.exps = hsim_calloc(n ? n : 1, sizeof *R.exps);
    int rc = R.exps ? plan(&R, in, &e) : HSIM_ENOMEM;
    if (rc) {
        if (o->failed)
            o->failed(o->failed_arg, n ? in[0].file : "", rc, &e);
        if (R.exps)
            cleanup(&R);
        return status_of(rc);
    }
    pool_start(&R);
    int status = 0, printed = 0, stop = 0;
    for (size_t h = 0; h < R.n_units && !stop; h++) {
        if (R.opened == h)
            open_next(&R);
        unit_t *u = &R.units[h];
        exp_t *x = &R.exps[u->exp];
        if (h == x->first_unit && !o->quiet && printed++) {
            hsim_progress_hold(o->progress);
            putchar('\n');
            hsim_progress_release(o->progress);
        }
        write_unit(&R, h);
        /* bad input (a trace line) and a lack of memory stop the run */
        stop = u->rc == HSIM_EINPUT || x->rc == HSIM_ENOMEM;
        if (--x->units_left && !stop)
            continue;
        if (!stop || x->rc != HSIM_ENOMEM)
            exp_end(&R, x);
        if (x->rc) {
            status = status_of(x->rc) > status ? status_of(x->rc) : status;
            hsim_progress_hold(o->progress);
            if (o->failed)
                o->failed(o->failed_arg, x->in->file, x->rc, &x->err);
            hsim_progress_release(o->progress);
        }
        hsim_free(x->c);
        x->c = NULL;
    }
    pool_stop(&R);
    cleanup(&R);
    return status;
}

/* hsim_experiment_run()'s failure: the first. */
typedef struct first_failure {
    int rc;
    hsim_err_t *e;
} first_failure_t;

static void keep_failure(void *arg, const char *file, int rc, const hsim_err_t *e)
{
    first_failure_t *f = arg;
    (void)file;
    if (!f->rc) {
        f->rc = rc;
        *f->e = *e;
    }
}

int hsim_experiment_run(const hsim_config_t *c, const hsim_experiment_options_t *o,
                        hsim_err_t *e)
{
    first_failure_t f = {0, e};
    hsim_runs_input_t in = {.file = c->path, .config = c};
    hsim_runs_options_t ro = {.quiet = o->quiet, .threads = o->threads,
                              .failed = keep_failure, .failed_arg = &f};
    int status = hsim_runs(&in, 1, &ro);
    return status && !f.rc ? HSIM_ENOMEM : f.rc;
}
