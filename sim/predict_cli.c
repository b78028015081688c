/*
 * predict_cli.c - hsim train and hsim predict-eval: the trained predictors
 * offline, on the time-ordered jobs of a trace.  See predict_cli.h.
 */
#include "predict_cli.h"

#include "../predictor/predictor.h"
#include "../predictor/trained.h"
#include "../workloads/gpu_traces.h"
#include "../workloads/swf.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct options {
    const char *trace, *format, *model, *out, *clean;
    double fraction;              /* --until or --from */
    double under_weight;
    size_t retrain;               /* predict-eval: --retrain, 0 none */
    int have_fraction;
} options_t;

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

/* The trace's jobs, sorted by submission.  0 or an hsim error (e). */
static int load_trace(const options_t *o, hsim_workload_t *w, hsim_err_t *e)
{
    hsim_workload_init(w);
    const char *f = o->format;
    if (!f)
        f = ends_with(o->trace, ".swf") || ends_with(o->trace, ".swf.gz") ? "swf" : "csv";
    if (!strcmp(f, "swf")) {
        hsim_clean_preset_t preset = HSIM_CLEAN_STANDARD;
        if (o->clean && hsim_clean_preset_parse(o->clean, &preset))
            return hsim_errf(e, HSIM_EINPUT, "--clean '%s': expected pyss or standard",
                             o->clean);
        hsim_swf_trace_t t;
        int rc = hsim_swf_read(o->trace, 0, &t, e);
        if (rc)
            return rc;
        int64_t procs = t.header.max_procs > 0 ? t.header.max_procs : t.header.max_nodes;
        rc = hsim_swf_clean(&t, preset, procs > 0 && procs <= INT32_MAX ? (int32_t)procs
                                                                          : INT32_MAX, w);
        hsim_swf_trace_free(&t);
        return rc;
    }
    if (!strcmp(f, "elasticflow"))
        return hsim_elasticflow_read(o->trace, NULL, w, e);
    if (!strcmp(f, "alibaba"))
        return hsim_alibaba_pods_read(o->trace, NULL, w, e);
    if (!strcmp(f, "csv"))
        return hsim_csv_jobs_read(o->trace, NULL, w, e);
    return hsim_errf(e, HSIM_EINPUT, "--format '%s': expected swf, elasticflow, alibaba or csv",
                     f);
}

/* ---- samples for training ---- */

typedef struct samples {
    const hsim_model_kind_t *kind;
    const hsim_workload_t *w;
    double *X, *y;
} samples_t;

static int take_sample(void *ctx, size_t i, const hsim_history_t *h)
{
    samples_t *s = ctx;
    hsim_job_t asked = s->w->jobs[i];
    asked.runtime = 0; /* what is known at submission */
    s->kind->input(h, &asked, s->X + i * s->kind->inputs);
    s->y[i] = hsim_runtime_target(s->w->jobs[i].runtime);
    return 0;
}

/* Trains a model of kind on w's first n jobs.  0 or an hsim error. */
static int train_on(const hsim_model_kind_t *kind, const hsim_workload_t *w, size_t n,
                    double under_weight, void **model, hsim_err_t *e)
{
    samples_t s = {.kind = kind, .w = w};
    s.X = hsim_malloc((n ? n : 1) * kind->inputs * sizeof *s.X);
    s.y = hsim_malloc((n ? n : 1) * sizeof *s.y);
    int rc = s.X && s.y ? hsim_history_walk(w, n, take_sample, &s) : HSIM_ENOMEM;
    if (rc == 0)
        rc = kind->train(s.X, s.y, n, under_weight, 1, model, e);
    hsim_free(s.X);
    hsim_free(s.y);
    return rc;
}

static int parse_fraction(const char *v, const char *opt, double *out)
{
    char *end;
    double x = hsim_strtod(v, &end);
    if (end == v || *end || !(x > 0 && x < 1)) {
        fprintf(stderr, "hsim: %s: expected a fraction between 0 and 1, found '%s'\n", opt, v);
        return -1;
    }
    *out = x;
    return 0;
}

/* --retrain N: completions between two trainings, 1..HSIM_TRAIN_WINDOW. */
static int parse_retrain(const char *v, size_t *out)
{
    char *end;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end || x < 1 || x > HSIM_TRAIN_WINDOW) {
        fprintf(stderr, "hsim: --retrain: expected a number of completions in 1..%d, found "
                        "'%s'\n", HSIM_TRAIN_WINDOW, v);
        return -1;
    }
    *out = (size_t)x;
    return 0;
}

/* Reads the options of train (until = 1) or predict-eval.  0, or 2 after
   a message. */
static int parse(int argc, char **argv, int until, options_t *o)
{
    static const struct option longs[] = {
        {"trace", required_argument, NULL, 't'}, {"format", required_argument, NULL, 'f'},
        {"model", required_argument, NULL, 'm'}, {"until", required_argument, NULL, 'u'},
        {"from", required_argument, NULL, 'r'},  {"out", required_argument, NULL, 'o'},
        {"clean", required_argument, NULL, 'c'}, {"under-weight", required_argument, NULL, 'w'},
        {"retrain", required_argument, NULL, 'n'}, {NULL, 0, NULL, 0},
    };
    *o = (options_t){.under_weight = 1};
    optind = 1;
    opterr = 0;
    for (int ch; (ch = getopt_long(argc - 1, argv + 1, "", longs, NULL)) != -1;) {
        char *end;
        switch (ch) {
        case 't': o->trace = optarg; break;
        case 'f': o->format = optarg; break;
        case 'm': o->model = optarg; break;
        case 'o': o->out = optarg; break;
        case 'c': o->clean = optarg; break;
        case 'u':
        case 'r':
            if ((ch == 'u') != until) {
                fprintf(stderr, "hsim %s: --%s is not one of its options\n", argv[1],
                        ch == 'u' ? "until" : "from");
                return 2;
            }
            if (parse_fraction(optarg, ch == 'u' ? "--until" : "--from", &o->fraction))
                return 2;
            o->have_fraction = 1;
            break;
        case 'w':
            o->under_weight = hsim_strtod(optarg, &end);
            if (end == optarg || *end || !(o->under_weight >= 1 && o->under_weight <= 1000)) {
                fprintf(stderr, "hsim: --under-weight: expected a number in 1..1000, found '%s'\n",
                        optarg);
                return 2;
            }
            break;
        case 'n':
            if (until) {
                fprintf(stderr, "hsim train: --retrain is not one of its options (it is "
                                "predict-eval's)\n");
                return 2;
            }
            if (parse_retrain(optarg, &o->retrain))
                return 2;
            break;
        default:
            fprintf(stderr, "hsim %s: unknown option or missing value '%s'\n", argv[1],
                    argv[optind]);
            return 2;
        }
    }
    if (optind + 1 < argc) {
        fprintf(stderr, "hsim %s: unexpected argument '%s'\n", argv[1], argv[optind + 1]);
        return 2;
    }
    if (!o->trace || !o->have_fraction || (until && (!o->model || !o->out))) {
        fprintf(stderr, until ? "usage: hsim train --trace T --model regression|gbdt|lstm "
                                "--until FRACTION --out FILE [--format F] [--clean C] "
                                "[--under-weight W]\n"
                              : "usage: hsim predict-eval --trace T --from FRACTION "
                                "[--out FILE.csv] [--format F] [--clean C] [--under-weight W] "
                                "[--retrain N]\n");
        return 2;
    }
    return 0;
}

int hsim_train_main(int argc, char **argv)
{
    options_t o;
    int st = parse(argc, argv, 1, &o);
    if (st)
        return st;
    const hsim_model_kind_t *kind = hsim_model_kind_find(o.model);
    if (!kind) {
        fprintf(stderr, "hsim train: --model '%s': expected regression, gbdt or lstm\n",
                o.model);
        return 2;
    }
    hsim_err_t e = {{0}};
    hsim_workload_t w;
    int rc = load_trace(&o, &w, &e);
    size_t n = (size_t)floor(o.fraction * (double)w.n_jobs);
    void *model = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (rc == 0 && n == 0)
        rc = hsim_errf(&e, HSIM_EINPUT, "%s: no job to train on before %g of its %zu jobs",
                       o.trace, o.fraction, w.n_jobs);
    if (rc == 0)
        rc = train_on(kind, &w, n, o.under_weight, &model, &e);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc == 0)
        rc = kind->save(model, o.out, &e);
    if (rc == 0)
        fprintf(stderr, "%s: %s trained on the first %zu of %zu jobs in %.2f s -> %s\n",
                o.trace, kind->name, n, w.n_jobs,
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
                o.out);
    else if (rc == HSIM_ENOMEM)
        fprintf(stderr, "hsim: out of memory\n");
    else
        fprintf(stderr, "hsim: %s\n", e.msg);
    if (model)
        kind->free(model);
    hsim_workload_free(&w);
    return rc == 0 ? 0 : rc == HSIM_ENOMEM || rc == HSIM_ERUN || rc == HSIM_EIO ? 1 : 2;
}

/* ---- predict-eval ---- */

typedef struct score {
    double acc, abs_err, under, log_res, ns;
    double *errs;                 /* absolute errors, for the median */
    size_t n;
} score_t;

/* The engine's clamp (engine.c, predict()). */
static hsim_time_t clamp(const hsim_predictor_t *p, const hsim_job_t *j, hsim_time_t t)
{
    if (t > j->estimate)
        t = j->estimate;
    if (p->underpredicts && t < HSIM_SECOND && j->estimate >= HSIM_SECOND)
        t = HSIM_SECOND;
    return t <= 0 ? j->estimate : t;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double seconds(hsim_time_t t) { return (double)t / HSIM_SECOND; }

/* One predictor's walk over a trace: its state and score. */
typedef struct eval_walk {
    const hsim_predictor_t *p;
    void *state;
    const hsim_workload_t *w;
    size_t from;                  /* jobs scored: [from, n) */
    score_t *sc;
} eval_walk_t;

static int eval_ended(void *ctx, size_t i)
{
    eval_walk_t *ew = ctx;
    const hsim_job_t *done = &ew->w->jobs[i];
    return ew->p->learn ? ew->p->learn(ew->state, done, done->runtime,
                                       done->submit + done->runtime)
                        : 0;
}

static int eval_submitted(void *ctx, size_t i)
{
    eval_walk_t *ew = ctx;
    const hsim_predictor_t *p = ew->p;
    const hsim_job_t *j = &ew->w->jobs[i];
    hsim_job_t asked = *j;
    if (!p->reads_runtime)
        asked.runtime = 0, asked.killed_at_estimate = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    hsim_time_t guess = p->predict(ew->state, &asked, j->submit);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    guess = clamp(p, j, guess);
    if (i >= ew->from) {
        score_t *sc = ew->sc;
        double a = seconds(j->runtime), g = seconds(guess);
        sc->acc += (a < g ? a : g) / (a > g ? a : g);
        sc->errs[sc->n] = fabs(g - a);
        sc->abs_err += sc->errs[sc->n];
        sc->under += g < a;
        double d = hsim_runtime_target(j->runtime) - hsim_runtime_target(guess);
        sc->log_res += d * d;
        sc->ns += (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
        sc->n++;
    }
    return p->started ? p->started(ew->state, j, j->submit) : 0;
}

/* Runs predictor p over w's jobs in time order (no scheduler: each job
   runs from its submission), scoring its answers for jobs [from, n).
   With o->retrain, a trained predictor also trains anew every that many
   completions, as estimate.retrain does in a replay: learn() hears of a
   job at its end (submit + runtime), before any job submitted then or
   later is asked about, so it learns from finished jobs only. */
static int evaluate(const hsim_predictor_t *p, const char *model, const options_t *o,
                    const hsim_workload_t *w, size_t from, score_t *sc, hsim_err_t *e)
{
    hsim_predictor_ctx_t ctx = {.n_jobs = w->n_jobs, .unix_start = w->header.unix_start_time,
                                .time_zone = w->header.time_zone, .model = model,
                                .retrain = o->retrain, .under_weight = o->under_weight, .e = e};
    eval_walk_t ew = {.p = p, .w = w, .from = from, .sc = sc};
    int rc = p->create(&ctx, &ew.state);
    if (rc)
        return rc;
    memset(sc, 0, sizeof *sc);
    sc->errs = hsim_malloc((w->n_jobs - from + 1) * sizeof *sc->errs);
    rc = sc->errs ? hsim_jobs_walk(w, w->n_jobs, eval_ended, eval_submitted, &ew) : HSIM_ENOMEM;
    p->destroy(ew.state);
    return rc;
}

int hsim_predict_eval_main(int argc, char **argv)
{
    options_t o;
    int st = parse(argc, argv, 0, &o);
    if (st)
        return st;
    hsim_err_t e = {{0}};
    hsim_workload_t w;
    int rc = load_trace(&o, &w, &e);
    size_t from = (size_t)floor(o.fraction * (double)w.n_jobs);
    if (rc == 0 && (from == 0 || from >= w.n_jobs))
        rc = hsim_errf(&e, HSIM_EINPUT, "%s: --from %g leaves no job to train on or to "
                       "evaluate among its %zu", o.trace, o.fraction, w.n_jobs);
    char dir[] = "/tmp/hsim-eval-XXXXXX";
    int have_dir = rc == 0 && mkdtemp(dir) != NULL;
    if (rc == 0 && !have_dir)
        rc = hsim_errf(&e, HSIM_EIO, "cannot make a temporary folder");
    FILE *csv = NULL;
    if (rc == 0 && o.out && !(csv = fopen(o.out, "w")))
        rc = hsim_errf(&e, HSIM_EIO, "%s: cannot write", o.out);
    if (rc == 0) {
        printf("%s: trained on %zu jobs, evaluated on the %zu after them\n", o.trace, from,
               w.n_jobs - from);
        printf("%-12s %9s %12s %12s %7s %8s %9s\n", "predictor", "accuracy", "MAE_s",
               "median_AE_s", "under", "R2_log", "ns/pred");
        if (csv)
            fprintf(csv, "predictor,jobs,accuracy,mae_s,median_ae_s,under_rate,r2_log,"
                         "ns_per_prediction\n");
    }
    /* R^2 of the log runtime: against the evaluated jobs' mean */
    double mean = 0, ss_tot = 0;
    for (size_t i = from; rc == 0 && i < w.n_jobs; i++)
        mean += hsim_runtime_target(w.jobs[i].runtime) / (double)(w.n_jobs - from);
    for (size_t i = from; rc == 0 && i < w.n_jobs; i++) {
        double d = hsim_runtime_target(w.jobs[i].runtime) - mean;
        ss_tot += d * d;
    }
    for (size_t k = 0; rc == 0 && hsim_predictors[k]; k++) {
        const hsim_predictor_t *p = hsim_predictors[k];
        if (p->reads_runtime)
            continue; /* the oracle scores 1 by construction */
        char path[sizeof dir + 32] = "";
        if (p->uses_model) {
            const hsim_model_kind_t *kind = hsim_model_kind_find(p->name);
            void *model = NULL;
            snprintf(path, sizeof path, "%s/%s.model", dir, p->name);
            rc = kind ? train_on(kind, &w, from, o.under_weight, &model, &e) : HSIM_EINPUT;
            if (rc == 0)
                rc = kind->save(model, path, &e);
            if (model)
                kind->free(model);
        }
        score_t sc = {0};
        if (rc == 0)
            rc = evaluate(p, path, &o, &w, from, &sc, &e);
        if (rc == 0) {
            qsort(sc.errs, sc.n, sizeof *sc.errs, by_double);
            double median = sc.n % 2 ? sc.errs[sc.n / 2]
                                     : (sc.errs[sc.n / 2 - 1] + sc.errs[sc.n / 2]) / 2;
            double n = (double)sc.n, r2 = ss_tot > 0 ? 1 - sc.log_res / ss_tot : NAN;
            printf("%-12s %9.3f %12.1f %12.1f %6.1f%% %8.3f %9.0f\n", p->name, sc.acc / n,
                   sc.abs_err / n, median, 100 * sc.under / n, r2, sc.ns / n);
            if (csv)
                fprintf(csv, "%s,%zu,%.6f,%.3f,%.3f,%.6f,%.6f,%.1f\n", p->name, sc.n,
                        sc.acc / n, sc.abs_err / n, median, sc.under / n, r2, sc.ns / n);
        }
        hsim_free(sc.errs);
        if (path[0])
            unlink(path);
    }
    if (have_dir)
        rmdir(dir);
    if (csv && fclose(csv) && rc == 0)
        rc = hsim_errf(&e, HSIM_EIO, "%s: cannot write", o.out);
    if (rc == HSIM_ENOMEM)
        fprintf(stderr, "hsim: out of memory\n");
    else if (rc)
        fprintf(stderr, "hsim: %s\n", e.msg);
    hsim_workload_free(&w);
    return rc == 0 ? 0 : rc == HSIM_EINPUT ? 2 : 1;
}
