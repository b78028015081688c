/*
 * load.c - an experiment's workload, whatever its format: SWF traces, GPU
 * cluster traces (Gavel/Philly, ElasticFlow, Alibaba) or a synthetic
 * generator; then, on a cluster of nodes, the rules that give SWF jobs a
 * class and accelerators, and the rejection of jobs that no node could
 * ever hold.
 */
#include "experiment.h"
#include "spec.h"

#include "../predictor/trained.h"
#include "../workloads/gpu_traces.h"
#include "../workloads/swf.h"
#include "../workloads/synthetic.h"

#include <errno.h>
#include <fcntl.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int load_swf(const hsim_config_t *c, hsim_workload_t *w, int32_t machine,
                    int32_t *capacity, hsim_err_t *e)
{
    hsim_swf_trace_t t;
    int rc = hsim_swf_read_extra(c->trace, c->max_jobs, c->swf_extra, &t, e);
    if (rc)
        return rc;
    *capacity = machine;
    if (*capacity <= 0) {
        if (t.header.max_procs > 0 && t.header.max_procs <= INT32_MAX)
            *capacity = (int32_t)t.header.max_procs;
        else if (t.header.max_nodes > 0 && t.header.max_nodes <= INT32_MAX)
            *capacity = (int32_t)t.header.max_nodes;
        else {
            hsim_swf_trace_free(&t);
            return hsim_errf(e, HSIM_EINPUT,
                             "%s:%d: trace '%s' gives no machine size (no MaxProcs or MaxNodes "
                             "header above 0): set [cluster] processors", c->path,
                             c->trace_line, c->trace);
        }
    }
    rc = hsim_swf_clean(&t, c->clean, *capacity, w);
    hsim_swf_trace_free(&t);
    return rc;
}

/* The cores and GPUs of c's cluster, over its node types as the spec has
   them.  0, HSIM_EINPUT or HSIM_ENOMEM. */
static int cluster_totals(const hsim_config_t *c, int64_t *cores, int64_t *gpus, hsim_err_t *e)
{
    hsim_node_type_t types[HSIM_MAX_NODE_TYPES];
    size_t nt = 0;
    int rc = hsim_spec_types(c, types, &nt, e);
    *cores = *gpus = 0;
    for (size_t i = 0; rc == 0 && i < nt; i++) {
        *cores += (int64_t)types[i].count * types[i].cores;
        *gpus += (int64_t)types[i].count * types[i].gpus;
    }
    /* the policies count processors in 32 bits, as SWF does */
    if (rc == 0 && (*cores > INT32_MAX || *gpus > INT32_MAX))
        rc = hsim_errf(e, HSIM_EINPUT,
                       "%s: a cluster of %lld cores and %lld GPUs: expected at most "
                       "2147483647 of each (fewer nodes)",
                       c->path, (long long)*cores, (long long)*gpus);
    return rc;
}

static int32_t clamp32(int64_t x) { return x > INT32_MAX ? INT32_MAX : (int32_t)x; }

/* What the generators' models need of the machine, in the INI's words
   (the generators would name their own parameters: cluster_gpus,
   machine_procs, model.gpu_sizes[3], bigdata.cores_max).  0 or
   HSIM_EINPUT. */
static int machine_fits_models(const hsim_config_t *c, int32_t machine, int64_t cores,
                               int64_t gpus, hsim_err_t *e)
{
    int mix = !strcmp(c->format, "mix");
    const char *with = mix ? " with a dl share" : "", *or_not = mix ? ", or dl = 0" : "";
    if (!strcmp(c->format, "dl") || (mix && c->share[HSIM_MIX_DL] > 0)) {
        if (gpus == 0)
            return hsim_errf(e, HSIM_EINPUT, "%s: format %s%s needs GPUs: expected [nodes NAME] "
                             "sections with gpus%s", c->path, c->format, with, or_not);
        hsim_dl_model_t m;
        hsim_dl_model_defaults(&m);
        int32_t largest = 0;
        for (size_t i = 0; i < m.n_sizes; i++)
            largest = m.gpu_sizes[i] > largest ? m.gpu_sizes[i] : largest;
        if (gpus < largest)
            return hsim_errf(e, HSIM_EINPUT, "%s: format %s%s draws jobs of up to %d GPUs: "
                             "expected a cluster of at least %d GPUs%s, found %lld", c->path,
                             c->format, with, largest, largest, or_not, (long long)gpus);
    }
    if (!strcmp(c->format, "lublin") || (mix && c->share[HSIM_MIX_SCIENTIFIC] > 0)) {
        hsim_lublin_model_t m;
        hsim_lublin_model_defaults(&m);
        int64_t least = (int64_t)floor(exp2(m.u_low)) + 1, most = HSIM_LUBLIN_MAX_MACHINE;
        int64_t size = !mix ? machine : c->max_job_cores ? c->max_job_cores : cores;
        char what[64];
        if (!mix)
            snprintf(what, sizeof what, "a machine of %lld processors", (long long)size);
        else if (c->max_job_cores)
            snprintf(what, sizeof what, "max_job_cores = %lld", (long long)size);
        else
            snprintf(what, sizeof what, "a cluster of %lld cores", (long long)size);
        if (size < least || size > most)
            return hsim_errf(e, HSIM_EINPUT, "%s: the Lublin model%s sizes jobs for %lld to "
                             "%lld processors: found %s%s", c->path,
                             mix ? " of mix's scientific jobs" : "", (long long)least,
                             (long long)most, what, mix ? " (or scientific = 0)" : "");
    }
    if (mix && c->share[HSIM_MIX_BIGDATA] > 0) {
        hsim_bigdata_model_t m;
        hsim_bigdata_model_defaults(&m);
        if (cores < m.cores_max)
            return hsim_errf(e, HSIM_EINPUT, "%s: format mix draws big-data jobs of up to %d "
                             "cores: expected a cluster of at least %d cores, or bigdata = 0, "
                             "found %lld", c->path, m.cores_max, m.cores_max, (long long)cores);
    }
    return 0;
}

/* A generated workload for a machine of 'machine' processors, or a
   cluster of cores and gpus. */
static int generate(const hsim_config_t *c, hsim_workload_t *w, int32_t machine,
                    int64_t cores, int64_t gpus, hsim_err_t *e)
{
    int rc = machine_fits_models(c, machine, cores, gpus, e);
    if (rc)
        return rc;
    size_t n = c->max_jobs && c->max_jobs < c->jobs ? c->max_jobs : c->jobs;
    hsim_estimate_rule_t est = {.factor = c->estimate_factor, .round_up = 0};
    hsim_err_t ge = {{0}};
    if (!strcmp(c->format, "lublin")) {
        hsim_lublin_params_t p;
        hsim_lublin_defaults(&p);
        p.n_jobs = n;
        p.machine_procs = machine;
        p.load = c->load;
        p.n_users = c->users;
        p.estimate = est;
        rc = hsim_gen_lublin(&p, c->seed, w, &ge);
    } else if (!strcmp(c->format, "dl")) {
        hsim_dl_params_t p;
        hsim_dl_defaults(&p);
        p.n_jobs = n;
        p.cluster_gpus = clamp32(gpus);
        p.load = c->load;
        p.n_users = c->users;
        rc = hsim_gen_dl(&p, c->seed, w, &ge);
    } else {
        if (c->max_job_cores > cores) /* the INI's mistake, at its line */
            return hsim_errf(e, HSIM_EINPUT, "%s:%d: max_job_cores: expected at most the "
                             "cluster's %lld cores (or 0 for that many), found %d", c->path,
                             c->max_job_cores_line, (long long)cores, c->max_job_cores);
        hsim_mix_params_t p;
        hsim_mix_defaults(&p);
        p.n_jobs = n;
        p.cluster_cpus = clamp32(cores);
        p.cluster_gpus = clamp32(gpus);
        p.max_job_cores = c->max_job_cores;
        p.load = c->load;
        p.n_users = c->users;
        p.estimate = est;
        for (int k = 0; k < 3; k++)
            p.share[k] = c->share[k];
        rc = hsim_gen_mix(&p, c->seed, w, &ge);
    }
    if (rc == 0 && c->workflow != HSIM_WORKFLOW_NONE)
        rc = hsim_gen_workflows(w, c->workflow, c->workflow_width, c->workflow_depth, c->seed,
                                &ge);
    if (rc == HSIM_ENOMEM)
        return rc; /* the caller says so */
    if (rc)
        return hsim_errf(e, rc, "%s: [workload] format %s: %s", c->path, c->format, ge.msg);
    return 0;
}

/*
 * SWF jobs on a cluster of nodes.  class_by names each job's class after its
 * application, queue or partition number ("app7", "queue2", "partition1");
 * gpu_share and fpga_share turn that share of the jobs, drawn with the
 * experiment's seed (one random stream for this purpose), into GPU jobs of
 * gpus_per_job GPUs (one core each, procs unchanged when larger) or FPGA jobs
 * of one FPGA.  A job gets at most one of the two: the GPU draw comes first.
 */
static int swf_on_nodes(const hsim_config_t *c, hsim_workload_t *w, hsim_err_t *e)
{
    gsl_rng *rng = NULL;
    if (c->gpu_share > 0 || c->fpga_share > 0) {
        if (hsim_synth_stream(&rng, c->seed, HSIM_STREAM_ACCELERATORS))
            return HSIM_ENOMEM;
    }
    for (size_t i = 0; i < w->n_jobs; i++) {
        hsim_job_t *j = &w->jobs[i];
        int32_t key = -1;
        const char *prefix = NULL;
        switch (c->class_by) {
        case HSIM_CLASS_BY_APP: key = j->app; prefix = "app"; break;
        case HSIM_CLASS_BY_QUEUE: key = j->queue; prefix = "queue"; break;
        case HSIM_CLASS_BY_PARTITION: key = j->partition; prefix = "partition"; break;
        default: break;
        }
        if (prefix) {
            char name[HSIM_LABEL_MAX];
            if (key >= 0)
                snprintf(name, sizeof name, "%s%d", prefix, key);
            else
                snprintf(name, sizeof name, "%s-unknown", prefix);
            int cls = hsim_workload_class(w, name);
            if (cls < 0) {
                gsl_rng_free(rng);
                return hsim_errf(e, HSIM_EINPUT,
                                 "%s:%lld: class_by %s gives this job the class %s: expected at "
                                 "most %d classes in all", c->trace, (long long)j->line, prefix,
                                 name, HSIM_MAX_CLASSES);
            }
            j->job_class = (int16_t)cls;
        }
        if (rng) {
            double u_gpu = gsl_rng_uniform(rng), u_fpga = gsl_rng_uniform(rng);
            if (u_gpu < c->gpu_share) {
                j->gpus = c->gpus_per_job;
                j->gpu_milli = 1000;
                if (j->procs < j->gpus)
                    j->procs = j->gpus;
            } else if (u_fpga < c->fpga_share) {
                j->fpgas = 1;
            }
        }
    }
    gsl_rng_free(rng);
    return 0;
}

/* An input file that cannot be opened or read ("<file>: cannot open: ...",
   a folder, say) is bad input, and its message names the INI's line that
   names the file: the trace, the throughputs or the node list.  A read
   error at a line of the file (a gzip stream cut short) names that line,
   as a malformed line does, and the experiment.  Returns HSIM_EINPUT. */
static int unreadable(const hsim_config_t *c, hsim_err_t *e)
{
    static const char *const verbs[] = {"open", "read"};
    if (!e)
        return HSIM_EINPUT;
    const struct {
        const char *path, *what;
        int line, relative;
    } files[] = {
        {c->trace, "trace", c->trace_line, c->trace_relative},
        {c->throughputs, "throughputs", c->throughputs_line, c->throughputs_relative},
        {c->alibaba_nodes, "node list", c->alibaba_nodes_line, c->alibaba_nodes_relative},
        {c->dependencies, "dependencies", c->dependencies_line, c->dependencies_relative},
    };
    const hsim_err_t was = *e;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t n = strlen(files[f].path);
        for (size_t i = 0; n && i < 2; i++) {
            char head[32];
            int len = snprintf(head, sizeof head, ": cannot %s: ", verbs[i]);
            if (strncmp(was.msg, files[f].path, n) || strncmp(was.msg + n, head, (size_t)len))
                continue;
            const char *why = was.msg + n + (size_t)len;
            /* an INI copied elsewhere: its relative paths moved with it */
            int moved = files[f].relative && !strcmp(why, strerror(ENOENT));
            return hsim_errf(e, HSIM_EINPUT, "%s:%d: cannot %s %s '%s': %s%s", c->path,
                             files[f].line, verbs[i], files[f].what, files[f].path, why,
                             moved ? " (a relative path starts at the INI file's folder)" : "");
        }
    }
    hsim_experiment_name(e, c->path);
    return HSIM_EINPUT;
}

/* Whether path can be opened for reading, without reading it: a missing
   file or a folder is an error, worded as the readers word it.  Only a
   regular file is opened: a named pipe's writer would see its reader
   come and go. */
static int probe(const char *path, hsim_err_t *e)
{
    struct stat st;
    if (stat(path, &st))
        return hsim_errf(e, HSIM_EIO, "%s: cannot open: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return hsim_errf(e, HSIM_EIO, "%s: cannot read: %s", path, strerror(EISDIR));
    if (!S_ISREG(st.st_mode))
        return 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return hsim_errf(e, HSIM_EIO, "%s: cannot open: %s", path, strerror(errno));
    close(fd);
    return 0;
}

/* The trained predictors' models: each estimate.model is read as its
   kind reads it, so a missing, foreign or corrupt model is bad input
   found before anything runs, named with its INI line; a trained
   predictor with neither a model nor estimate.retrain is too. */
static int check_models(const hsim_config_t *c, hsim_err_t *e)
{
    for (size_t k = 0; k < c->n_policies; k++) {
        const hsim_policy_config_t *pc = &c->policies[k];
        if (!pc->predictor->uses_model)
            continue;
        const hsim_model_kind_t *kind = hsim_model_kind_find(pc->predictor->name);
        if (!pc->estimate_model[0]) {
            if (pc->estimate_retrain)
                continue;
            int line = pc->lines[HSIM_POLICY_ESTIMATE] ? pc->lines[HSIM_POLICY_ESTIMATE]
                                                       : pc->line;
            return hsim_errf(e, HSIM_EINPUT,
                             "%s:%d: [policy %s] estimate = %s needs a trained model "
                             "(estimate.model = FILE, which hsim train writes) or training as "
                             "it goes (estimate.retrain = N)",
                             c->path, line, pc->name, pc->predictor->name);
        }
        void *model = NULL;
        hsim_err_t why = {{0}};
        int rc = kind ? kind->load(pc->estimate_model, &model, &why) : HSIM_EINPUT;
        if (model)
            kind->free(model);
        if (rc == HSIM_ENOMEM)
            return rc;
        if (rc)
            return hsim_errf(e, HSIM_EINPUT, "%s:%d: [policy %s] estimate.model: %s", c->path,
                             pc->lines[HSIM_POLICY_ESTIMATE_MODEL], pc->name, why.msg);
    }
    return 0;
}

int hsim_experiment_check_inputs(const hsim_config_t *c, hsim_err_t *e)
{
    const char *files[] = {c->throughputs, c->trace, c->alibaba_nodes, /* as loaded */
                           c->dependencies};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (files[i][0] && probe(files[i], e))
            return unreadable(c, e);
    return check_models(c, e);
}

/* The workload's jobs, by format, for a machine of 'machine' processors
   (on a cluster, its cores and gpus). */
static int read_jobs(const hsim_config_t *c, hsim_workload_t *w, int32_t machine, int64_t cores,
                     int64_t gpus, int32_t *capacity, hsim_err_t *e)
{
    hsim_gpu_read_options_t o = {.max_jobs = c->max_jobs, .skip_bad_rows = c->skip_bad_rows};
    if (!strcmp(c->format, "swf")) {
        int rc = load_swf(c, w, machine, capacity, e);
        if (rc == 0 && (c->n_nodes || c->alibaba_nodes[0]))
            rc = swf_on_nodes(c, w, e);
        return rc;
    }
    if (!strcmp(c->format, "gavel")) {
        hsim_throughputs_t t = {0};
        int rc = hsim_throughputs_read(c->throughputs, &t, e);
        if (rc == 0)
            rc = hsim_gavel_read(c->trace, &t, &o, w, e);
        hsim_throughputs_free(&t);
        return rc;
    }
    if (!strcmp(c->format, "elasticflow"))
        return hsim_elasticflow_read(c->trace, &o, w, e);
    if (!strcmp(c->format, "alibaba"))
        return hsim_alibaba_pods_read(c->trace, &o, w, e);
    if (!strcmp(c->format, "csv"))
        return hsim_csv_jobs_read(c->trace, &o, w, e);
    return generate(c, w, machine, cores, gpus, e);
}

int hsim_experiment_load(const hsim_config_t *c, hsim_workload_t *w,
                         int32_t *capacity, hsim_err_t *e)
{
    hsim_workload_init(w);
    int64_t cores = 0, gpus = 0;
    int nodes = c->n_nodes || c->alibaba_nodes[0];
    int rc = nodes ? cluster_totals(c, &cores, &gpus, e) : 0;
    int32_t machine = nodes ? clamp32(cores) : c->processors;
    *capacity = machine;
    if (rc == 0)
        rc = read_jobs(c, w, machine, cores, gpus, capacity, e);
    if (rc == HSIM_EIO)
        rc = unreadable(c, e);
    if (rc == 0 && *capacity <= 0 && !c->alibaba_nodes[0]) /* else the cluster says */
        rc = hsim_errf(e, HSIM_EINPUT, "%s: no machine size: set [cluster] processors", c->path);
    if (rc)
        hsim_workload_free(w);
    return rc;
}

int hsim_experiment_dependencies(const hsim_config_t *c, hsim_workload_t *w, hsim_err_t *e)
{
    hsim_deps_options_t o = {
        .from_swf = c->dependencies_from_swf && (!strcmp(c->format, "swf") ||
                                                 !strcmp(c->format, "csv")),
        .path = c->dependencies,
    };
    int rc = hsim_deps_resolve(w, &o, e);
    return rc == HSIM_EIO ? unreadable(c, e) : rc;
}

/* A rejection's reason with every run of digits as '#': one key for
   "needs 9 GPUs" and "needs 12 GPUs". */
static void reason_key(const char *why, char *key, size_t size)
{
    size_t n = 0;
    for (const char *s = why; *s && n + 1 < size; s++) {
        if (*s >= '0' && *s <= '9') {
            key[n++] = '#';
            while (s[1] >= '0' && s[1] <= '9')
                s++;
        } else {
            key[n++] = *s;
        }
    }
    key[n] = '\0';
}

typedef struct keyed {
    char key[sizeof ((hsim_rejection_t *)0)->reason];
    size_t first;                 /* the rejection it came from */
} keyed_t;

static int by_key_then_first(const void *a, const void *b)
{
    const keyed_t *x = a, *y = b;
    int d = strcmp(x->key, y->key);
    return d ? d : (x->first > y->first) - (x->first < y->first);
}

static int by_count_then_first(const void *a, const void *b)
{
    const hsim_reason_t *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return (x->first > y->first) - (x->first < y->first);
}

size_t hsim_experiment_reasons(const hsim_workload_t *w, hsim_reason_t *out, size_t max)
{
    if (w->n_rejected == 0 || max == 0)
        return 0;
    keyed_t *k = hsim_malloc(w->n_rejected * sizeof *k);
    if (!k) { /* no room to count: the first reason stands for all */
        out[0] = (hsim_reason_t){w->n_rejected, 0};
        return 1;
    }
    for (size_t i = 0; i < w->n_rejected; i++) {
        reason_key(w->rejected[i].reason, k[i].key, sizeof k[i].key);
        k[i].first = i;
    }
    qsort(k, w->n_rejected, sizeof *k, by_key_then_first);
    /* each run of one key becomes a reason; the max most common are kept,
       in out[0..max) as a heap would, then sorted */
    size_t n = 0;
    for (size_t i = 0, run = 1; i < w->n_rejected; i++, run++) {
        if (i + 1 < w->n_rejected && !strcmp(k[i].key, k[i + 1].key))
            continue;
        hsim_reason_t r = {run, k[i + 1 - run].first}; /* the run's earliest */
        if (n < max) {
            out[n++] = r;
        } else {
            size_t worst = 0; /* max is small: a scan */
            for (size_t j = 1; j < n; j++)
                if (by_count_then_first(&out[j], &out[worst]) > 0)
                    worst = j;
            if (by_count_then_first(&r, &out[worst]) < 0)
                out[worst] = r;
        }
        run = 0;
    }
    qsort(out, n, sizeof *out, by_count_then_first);
    hsim_free(k);
    return n;
}

size_t hsim_experiment_top_reason(const hsim_workload_t *w, char *buf, size_t size)
{
    hsim_reason_t r;
    if (size)
        buf[0] = '\0';
    if (hsim_experiment_reasons(w, &r, 1) == 0)
        return 0;
    hsim_strlcpy(buf, w->rejected[r.first].reason, size);
    return r.count;
}

int hsim_experiment_check_meaning(const hsim_config_t *c, const hsim_workload_t *w, FILE *f,
                                  hsim_err_t *e)
{
    size_t input = w->n_jobs + w->n_rejected;
    int many = (double)w->n_rejected > HSIM_WARN_SHARE * (double)input;
    char why[sizeof w->rejected->reason] = "";
    size_t top = 0; /* counted only for a message: it sorts every rejection */
    if (w->n_jobs == 0 || many)
        top = hsim_experiment_top_reason(w, why, sizeof why);
    if (w->n_jobs == 0)
        return input == 0
                   ? hsim_errf(e, HSIM_EINPUT, "%s: no job to run: the workload is empty",
                               c->path)
                   : hsim_errf(e, HSIM_EINPUT,
                               "%s: no job left to run: all %zu rejected; the most common reason "
                               "(%zu jobs): %s (hsim describe %s lists them all)",
                               c->path, w->n_rejected, top, why, c->path);
    if (many)
        fprintf(f, "hsim: warning: %s: %zu of %zu jobs rejected (%.1f%%); the most common "
                   "reason (%zu jobs): %s\n",
                c->path, w->n_rejected, input, 100.0 * (double)w->n_rejected / (double)input,
                top, why);
    if ((double)w->n_rewritten > HSIM_WARN_SHARE * (double)input) {
        size_t k = 0;
        for (size_t i = 1; i < w->n_rewrites; i++)
            if (w->rewrites[i].count > w->rewrites[k].count)
                k = i;
        fprintf(f, "hsim: warning: %s: cleaning (clean = %s) rewrote %zu of %zu jobs "
                   "(%.1f%%); the most common reason (%zu jobs): %s\n",
                c->path, c->clean == HSIM_CLEAN_PYSS ? "pyss" : "standard", w->n_rewritten,
                input, 100.0 * (double)w->n_rewritten / (double)input, w->rewrites[k].count,
                w->rewrites[k].why);
    }
    return 0;
}
