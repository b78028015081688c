/*
 * config.c - the INI reader for experiments, on top of inih.
 *
 * inih does not tell its handler the line number, and it does not report
 * sections that hold no key, so the lines are fed to it through a reader of
 * our own that counts them and notes every section header.  The checks of
 * the whole file, once it is read, are in config_check.c.
 */
#include "config_parse.h"

#include "../policies/registry.h"
#include "../workloads/swf.h"
#include "plot.h"
#include "topology.h"

#include <ini.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The [workload] keys' names, by WL_*: for workload_more() and the checks
   of keys a format does not read. */
const char *const hsim__wl_keys[WL_KEYS] = {
    [WL_FORMAT] = "format",             [WL_PATH] = "path",
    [WL_CLEAN] = "clean",               [WL_MAX_JOBS] = "max_jobs",
    [WL_THROUGHPUTS] = "throughputs",   [WL_SKIP_BAD_ROWS] = "skip_bad_rows",
    [WL_JOBS] = "jobs",                 [WL_LOAD] = "load",
    [WL_USERS] = "users",               [WL_ESTIMATE_FACTOR] = "estimate_factor",
    [WL_SCIENTIFIC] = "scientific",     [WL_DL] = "dl",
    [WL_BIGDATA] = "bigdata",           [WL_GPU_SHARE] = "gpu_share",
    [WL_GPUS_PER_JOB] = "gpus_per_job", [WL_FPGA_SHARE] = "fpga_share",
    [WL_CLASS_BY] = "class_by",         [WL_MAX_JOB_CORES] = "max_job_cores",
    [WL_DEPENDENCIES] = "dependencies",
    [WL_DEPENDENCIES_FROM_SWF] = "dependencies_from_swf",
    [WL_WORKFLOW] = "workflow",         [WL_WORKFLOW_WIDTH] = "workflow_width",
    [WL_WORKFLOW_DEPTH] = "workflow_depth",
    [WL_SWF_EXTRA] = "swf_extra"};

/* hsim__fail_at() with a va_list. */
static int vfail_at(parse_t *p, int line, const char *fmt, va_list ap)
{
    if (p->rc && p->err_line <= line)
        return 0; /* keep the first error in the file */
    char what[400];
    vsnprintf(what, sizeof what, fmt, ap);
    p->rc = hsim_errf(p->e, HSIM_EINPUT, "%s:%d: %s", p->c->path, line, what);
    p->err_line = line;
    return 0;
}

int hsim__fail_at(parse_t *p, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail_at(p, line, fmt, ap);
    va_end(ap);
    return 0;
}

int hsim__fail(parse_t *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail_at(p, p->line, fmt, ap);
    va_end(ap);
    return 0;
}

static int valid_name(const char *s)
{
    if (!*s || strlen(s) >= HSIM_NAME_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

/* Reports a name that is empty or too long (note follows the
   expectation); 1 when it did, else 0. */
static int length_refused(parse_t *p, const char *what, const char *name, const char *note)
{
    size_t len = strlen(name);
    if (len > 0 && len < HSIM_NAME_MAX)
        return 0;
    hsim__fail(p, "%s '%.60s%s': expected 1 to %d characters%s", what, name, len > 60 ? "..." : "",
         HSIM_NAME_MAX - 1, note);
    return 1;
}

/* Reports a name that valid_name() refuses, saying which rule it breaks;
   1 when it did, 0 for a valid name. */
static int name_refused(parse_t *p, const char *what, const char *name, const char *note)
{
    if (valid_name(name))
        return 0;
    if (!length_refused(p, what, name, note))
        hsim__fail(p, "%s '%s': expected letters, digits, '-', '_' or '.'%s", what, name, note);
    return 1;
}

/* Reports a policy name that is the name of one of the experiment's own
   files, of the <file>.<pid>.part file it is written to, or of the
   folder's lock file (HSIM_LOCK_NAME), which its results folder
   would take the place of; 1 when it did. */
static int file_name_refused(parse_t *p, const char *name)
{
    static const char *const files[] = {"summary.csv", "classes.csv", "rejected.csv",
                                        "cluster.csv", "summary.png", "shard.txt",
                                        HSIM_LOCK_NAME};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t n = strlen(files[i]), digits = 0;
        if (name[n] == '.') /* <file>.<pid>.part */
            digits = strspn(name + n + 1, "0123456789");
        if (!strncmp(name, files[i], n) &&
            (!name[n] || (digits && !strcmp(name + n + 1 + digits, ".part")))) {
            hsim__fail(p, "policy name '%s': the experiment writes a file of that name beside "
                    "its policies' folders", name);
            return 1;
        }
    }
    return 0;
}

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static void open_nodes(parse_t *p, const char *name)
{
    name = skip_blanks(name);
    hsim_config_t *c = p->c;
    if (name_refused(p, "node type name", name, ""))
        return;
    for (size_t i = 0; i < c->n_nodes; i++)
        if (!strcmp(c->nodes[i].type.name, name)) {
            hsim__fail(p, "node type '%s' is defined twice (first at line %d)", name, c->nodes[i].line);
            return;
        }
    if (c->n_nodes == HSIM_MAX_NODE_TYPES) {
        hsim__fail(p, "too many node types (at most %d)", HSIM_MAX_NODE_TYPES);
        return;
    }
    hsim_nodes_config_t *nc = &c->nodes[c->n_nodes++];
    memset(nc, 0, sizeof *nc);
    hsim_strlcpy(nc->type.name, name, sizeof nc->type.name);
    nc->type.count = 1;
    nc->type.speed = 1.0;
    nc->line = p->line;
    p->nodes = nc;
}

static void open_class(parse_t *p, const char *name)
{
    name = skip_blanks(name);
    hsim_config_t *c = p->c;
    if (length_refused(p, "class name", name, ""))
        return;
    for (size_t i = 0; i < c->n_classes; i++)
        if (!strcmp(c->classes[i].name, name)) {
            hsim__fail(p, "class '%s' is defined twice (first at line %d)", name, c->classes[i].line);
            return;
        }
    if (c->n_classes == HSIM_MAX_CLASS_SECTIONS) {
        hsim__fail(p, "too many classes (at most %d)", HSIM_MAX_CLASS_SECTIONS);
        return;
    }
    hsim_class_config_t *cc = &c->classes[c->n_classes++];
    memset(cc, 0, sizeof *cc);
    hsim_strlcpy(cc->name, name, sizeof cc->name);
    cc->line = p->line;
    p->cls = cc;
}

static void open_failures(parse_t *p, const char *name)
{
    name = skip_blanks(name);
    hsim_config_t *c = p->c;
    if (length_refused(p, "failures name", name, ""))
        return;
    for (size_t i = 0; i < c->n_failures; i++)
        if (!strcmp(c->failures[i].name, name)) {
            hsim__fail(p, "failures '%s' is defined twice (first at line %d)", name,
                 c->failures[i].line);
            return;
        }
    if (c->n_failures == HSIM_MAX_FAILURE_MODELS) {
        hsim__fail(p, "too many [failures] sections (at most %d)", HSIM_MAX_FAILURE_MODELS);
        return;
    }
    hsim_failures_config_t *fc = &c->failures[c->n_failures++];
    memset(fc, 0, sizeof *fc);
    hsim_strlcpy(fc->name, name, sizeof fc->name);
    fc->line = p->line;
    fc->dist = HSIM_FAIL_EXPONENTIAL;
    fc->shape = 0.7;
    p->fails = fc;
}

/* A section header line: checks it and opens the section. */
static void open_section(parse_t *p, const char *line)
{
    const char *s = line + 1;
    const char *close = strchr(s, ']');
    if (!close)
        return; /* inih reports it */
    const char *rest = close + 1; /* inih would drop it without a word */
    while (*rest == ' ' || *rest == '\t')
        rest++;
    if (*rest && *rest != ';') {
        hsim__fail(p, "text after the section header: expected a line break or a ';' comment "
                "after ']', found '%.40s'", rest);
        return;
    }
    size_t len = (size_t)(close - s);
    char name[128];
    if (len >= sizeof name)
        len = sizeof name - 1;
    memcpy(name, s, len);
    name[len] = '\0';
    hsim_strlcpy(p->section, name, sizeof p->section);
    p->policy = NULL;
    p->nodes = NULL;
    p->cls = NULL;
    p->fails = NULL;
    if (!strncmp(name, "failures", 8) && (name[8] == ' ' || name[8] == '\t')) {
        open_failures(p, name + 9);
        return;
    }
    if (!strncmp(name, "nodes", 5) && (name[5] == ' ' || name[5] == '\t')) {
        open_nodes(p, name + 6);
        return;
    }
    if (!strncmp(name, "class", 5) && (name[5] == ' ' || name[5] == '\t')) {
        open_class(p, name + 6);
        return;
    }
    if (!strcmp(name, "workload") && !p->wl_line)
        p->wl_line = p->line;
    if (!strcmp(name, "experiment") || !strcmp(name, "workload") ||
        !strcmp(name, "cluster") || !strcmp(name, "output"))
        return;
    if (!strncmp(name, "policy", 6) && (name[6] == ' ' || name[6] == '\t')) {
        const char *pn = name + 7;
        while (*pn == ' ' || *pn == '\t')
            pn++;
        if (name_refused(p, "policy name", pn, " (it names a results folder)") ||
            file_name_refused(p, pn))
            return;
        hsim_config_t *c = p->c;
        for (size_t i = 0; i < c->n_policies; i++)
            if (!strcmp(c->policies[i].name, pn)) {
                hsim__fail(p, "policy '%s' is defined twice (first at line %d)", pn,
                     c->policies[i].line);
                return;
            }
        if (c->n_policies == HSIM_MAX_POLICIES) {
            hsim__fail(p, "too many policies (at most %d)", HSIM_MAX_POLICIES);
            return;
        }
        hsim_policy_config_t *pc = &c->policies[c->n_policies++];
        memset(pc, 0, sizeof *pc);
        hsim_strlcpy(pc->name, pn, sizeof pc->name);
        pc->line = p->line;
        pc->order = hsim_order_find("fcfs");
        pc->scheduler = hsim_scheduler_find("none");
        pc->predictor = hsim_predictor_find("user");
        pc->placement = hsim_placement_find("first-fit");
        pc->spread = HSIM_PACK;
        pc->estimate_under_weight = 1;
        pc->preempt_grace_s = 60;
        pc->quantum_s = 600;
        p->policy = pc;
        return;
    }
    hsim__fail(p, "unknown section [%s]: expected [experiment], [workload], [cluster], "
            "[nodes NAME], [class NAME], [failures NAME], [output] or [policy NAME]", name);
}

static char *next_line(char *str, int num, void *stream)
{
    parse_t *p = stream;
    if (!*p->text)
        return NULL;
    size_t n = strcspn(p->text, "\n");
    if (p->line == 0) { /* a byte order mark: not passed on, not counted */
        size_t bom = hsim_bom_len(p->text, n);
        p->text += bom;
        n -= bom;
    }
    size_t len = n > 0 && p->text[n - 1] == '\r' ? n - 1 : n; /* CRLF: not the CR */
    size_t room = (size_t)num - 2; /* a line and its newline fill inih's buffer */
    size_t take = len < room ? len : room;
    memcpy(str, p->text, take);
    str[take] = '\0';
    p->text += n;
    if (*p->text == '\n')
        p->text++;
    p->line++;
    if (len > room) /* the line did not fit */
        hsim__fail(p, "line longer than %d bytes", num - 2);
    /* inih skips every isspace() blank before a key or a section, a form
       feed or a carriage return as well as a space */
    const char *s = str;
    while (*s && isspace((unsigned char)*s))
        s++;
    if (s > str && *s && !strchr(";#", *s))
        hsim__fail(p, "indented line: start keys and sections in the first column (an "
                "indented line would be read as more of the value above)");
    if (*s == '[')
        open_section(p, s);
    return str;
}

static int parse_u64(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*v == '-')
        return -1;
    unsigned long long x = strtoull(v, &end, 10);
    if (end == v || *end || errno)
        return -1;
    *out = x;
    return 0;
}

static int parse_double(const char *v, double *out)
{
    char *end;
    errno = 0;
    double x = hsim_strtod(v, &end);
    if (end == v || *end || errno || !isfinite(x))
        return -1;
    *out = x;
    return 0;
}

static int parse_int(const char *v, int32_t lo, int32_t hi, int32_t *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end || errno || x < lo || x > hi)
        return -1;
    *out = (int32_t)x;
    return 0;
}

/* A [nodes] partition: a list of partition numbers ("1" or "1, 4"), which
   bind the jobs of those numbers (SWF field 16) to the type, or a name,
   which binds nothing.  Returns 1 (read) or what hsim__fail() returns. */
static int parse_partitions(parse_t *p, hsim_node_type_t *t, const char *v)
{
    char buf[HSIM_TYPE_NAME_MAX];
    hsim_strlcpy(buf, v, sizeof buf);
    t->n_part_ids = 0;
    int numbers = 0, names = 0;
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        while (*item == ' ' || *item == '\t')
            item++;
        size_t n = strlen(item);
        while (n > 0 && (item[n - 1] == ' ' || item[n - 1] == '\t'))
            item[--n] = '\0';
        int32_t id;
        if (parse_int(item, 0, INT32_MAX, &id)) {
            names++;
            continue;
        }
        if (t->n_part_ids == HSIM_TYPE_PARTITIONS)
            return hsim__fail(p, "partition: expected at most %d partition numbers, found more in '%s'",
                        HSIM_TYPE_PARTITIONS, v);
        t->part_ids[t->n_part_ids++] = id;
        numbers++;
    }
    if (numbers && names)
        return hsim__fail(p, "partition: expected partition numbers (the trace's field 16, as "
                       "'1, 4') or one name, found both in '%s'", v);
    return 1;
}

/* "256G", "512M", "1T", "64GiB" or a plain number of MiB, into MiB. */
static int parse_size_mb(const char *v, int64_t *out)
{
    char *end;
    errno = 0;
    double x = hsim_strtod(v, &end);
    if (end == v || errno || !isfinite(x) || x < 0)
        return -1;
    double scale = 1;
    if (*end == 'K' || *end == 'k')
        scale = 1.0 / 1024;
    else if (*end == 'M' || *end == 'm')
        scale = 1;
    else if (*end == 'G' || *end == 'g')
        scale = 1024;
    else if (*end == 'T' || *end == 't')
        scale = 1024 * 1024;
    else if (*end)
        return -1;
    if (*end) {
        end++;
        if (!strcmp(end, "iB") || !strcmp(end, "B"))
            end += strlen(end);
    }
    if (*end || x * scale > (double)HSIM_NODE_MEM_MAX_MB)
        return -1;
    if (x > 0 && x * scale < 1)
        return -1; /* it would round to 0 MiB, which means "none" */
    *out = (int64_t)(x * scale + 0.5);
    return 0;
}

static int parse_bool(const char *v, int *out)
{
    if (!strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "1"))
        *out = 1;
    else if (!strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "0"))
        *out = 0;
    else
        return -1;
    return 0;
}

/* Marks key k (named key) in *seen and, unless lines is NULL, notes its
   line at lines[k], for the checks that come after the whole file (see
   not_read()); complains on a repeat. */
static int first_time(parse_t *p, unsigned *seen, int *lines, int k, const char *key)
{
    if (*seen & KEY_BIT(k)) {
        hsim__fail(p, "key '%s' is given twice in [%s]", key, p->section);
        return 0;
    }
    *seen |= KEY_BIT(k);
    if (lines)
        lines[k] = p->line;
    return 1;
}

static int experiment_key(parse_t *p, const char *key, const char *v)
{
    hsim_config_t *c = p->c;
    if (!strcmp(key, "name")) {
        if (!first_time(p, &p->seen_exp, NULL, EXP_NAME, key))
            return 0;
        if (name_refused(p, "name", v, " (it names the results folder)"))
            return 0;
        hsim_strlcpy(c->name, v, sizeof c->name);
    } else if (!strcmp(key, "output")) {
        if (!first_time(p, &p->seen_exp, NULL, EXP_OUTPUT, key))
            return 0;
        if (!*v)
            return hsim__fail(p, "output: expected a folder, found nothing");
        size_t len = hsim_strlcpy(c->output, v, sizeof c->output);
        if (len >= sizeof c->output)
            return hsim__fail(p, "output: longer than %zu characters", sizeof c->output - 1);
        while (len > 1 && c->output[len - 1] == '/')
            c->output[--len] = '\0'; /* results/ is results: one spelling in messages */
    } else if (!strcmp(key, "seed")) {
        if (!first_time(p, &p->seen_exp, NULL, EXP_SEED, key))
            return 0;
        if (parse_u64(v, &c->seed))
            return hsim__fail(p, "seed: expected an integer in 0..18446744073709551615, found '%s'", v);
    } else if (!strcmp(key, "repeat")) {
        int32_t r;
        if (!first_time(p, &p->seen_exp, NULL, EXP_REPEAT, key))
            return 0;
        if (parse_int(v, 1, HSIM_MAX_REPEAT, &r))
            return hsim__fail(p, "repeat: expected a number of seeds in 1..%d, found '%s'",
                        HSIM_MAX_REPEAT, v);
        c->repeat = (uint32_t)r;
        p->repeat_line = p->line;
    } else {
        return hsim__fail(p, "unknown key '%s' in [experiment]: expected name, output, seed or "
                       "repeat", key);
    }
    return 1;
}

/* [output] charts and formats: the lists plot.h reads. */
static int output_key(parse_t *p, const char *key, const char *v)
{
    int formats = !strcmp(key, "formats");
    if (!formats && strcmp(key, "charts"))
        return hsim__fail(p, "unknown key '%s' in [output]: expected charts or formats", key);
    if (!first_time(p, &p->seen_out, NULL, formats, key))
        return 0;
    char why[300];
    unsigned *mask = formats ? &p->c->formats : &p->c->charts;
    if (hsim_plot_parse_list(v, formats, mask, why, sizeof why))
        return hsim__fail(p, "%s", why);
    if (formats && !*mask)
        return hsim__fail(p, "formats: expected at least one of png, svg, pdf, found nothing");
    return 1;
}

static const char *const formats[] = {"swf", "gavel", "elasticflow", "alibaba", "csv",
                                      "lublin", "dl", "mix", NULL};

/* Resolves v, a file's path (what: "a file", "a trace file"), against the
   INI's folder into dst; *line gets this line and *relative whether v was
   relative, for messages about the file. */
static int resolve_path(parse_t *p, const char *key, const char *v, const char *what, char *dst,
                        size_t size, int *line, int *relative)
{
    if (!*v)
        return hsim__fail(p, "%s: expected %s, found nothing", key, what);
    size_t need = v[0] == '/' ? strlen(v) : strlen(p->c->dir) + 1 + strlen(v);
    if (need >= size)
        return hsim__fail(p, "%s: longer than %zu characters", key, size - 1);
    if (v[0] == '/')
        hsim_strlcpy(dst, v, size);
    else
        snprintf(dst, size, "%s/%s", p->c->dir, v);
    *line = p->line;
    *relative = v[0] != '/';
    return 1;
}

/* The [workload] keys beyond format, path, clean and max_jobs. */
static int workload_more(parse_t *p, const char *key, const char *v)
{
    hsim_config_t *c = p->c;
    int k = WL_THROUGHPUTS;
    while (k < WL_KEYS && strcmp(hsim__wl_keys[k], key))
        k++;
    if (k == WL_KEYS)
        return hsim__fail(p, "unknown key '%s' in [workload]: expected format, path, clean, "
                       "max_jobs, throughputs, skip_bad_rows, jobs, load, users, "
                       "estimate_factor, scientific, dl, bigdata, gpu_share, "
                       "gpus_per_job, fpga_share, class_by, max_job_cores, dependencies, "
                       "dependencies_from_swf, workflow, workflow_width, workflow_depth or "
                       "swf_extra", key);
    if (!first_time(p, &p->seen_wl, p->wl_lines, k, key))
        return 0;
    double x;
    switch (k) {
    case WL_THROUGHPUTS:
        return resolve_path(p, key, v, "a file", c->throughputs, sizeof c->throughputs,
                            &c->throughputs_line, &c->throughputs_relative);
    case WL_SKIP_BAD_ROWS:
        if (parse_bool(v, &c->skip_bad_rows))
            return hsim__fail(p, "skip_bad_rows: expected true or false, found '%s'", v);
        return 1;
    case WL_JOBS:
        if (parse_u64(v, &c->jobs) || c->jobs < 1 || c->jobs > INT32_MAX)
            return hsim__fail(p, "jobs: expected an integer in 1..2147483647, found '%s'", v);
        return 1;
    case WL_LOAD:
        if (parse_double(v, &c->load) || !(c->load >= 1e-3 && c->load <= 1e3))
            return hsim__fail(p, "load: expected a number in [0.001, 1000], found '%s'", v);
        return 1;
    case WL_USERS:
        if (parse_int(v, 0, INT32_MAX, &c->users))
            return hsim__fail(p, "users: expected an integer in 0..2147483647, found '%s'", v);
        return 1;
    case WL_ESTIMATE_FACTOR:
        if (parse_double(v, &c->estimate_factor) ||
            !(c->estimate_factor >= 1 && c->estimate_factor <= 1e3))
            return hsim__fail(p, "estimate_factor: expected a number in [1, 1000], found '%s'", v);
        return 1;
    case WL_SCIENTIFIC: case WL_DL: case WL_BIGDATA:
        if (parse_double(v, &x) || x < 0 || x > 1)
            return hsim__fail(p, "%s: expected a share in [0, 1], found '%s'", key, v);
        c->share[k - WL_SCIENTIFIC] = x;
        return 1;
    case WL_GPU_SHARE: case WL_FPGA_SHARE:
        if (parse_double(v, &x) || x < 0 || x > 1)
            return hsim__fail(p, "%s: expected a share in [0, 1], found '%s'", key, v);
        *(k == WL_GPU_SHARE ? &c->gpu_share : &c->fpga_share) = x;
        return 1;
    case WL_GPUS_PER_JOB:
        if (parse_int(v, 1, 1024, &c->gpus_per_job))
            return hsim__fail(p, "gpus_per_job: expected an integer in 1..1024, found '%s'", v);
        return 1;
    case WL_MAX_JOB_CORES:
        if (parse_int(v, 0, INT32_MAX, &c->max_job_cores))
            return hsim__fail(p, "max_job_cores: expected an integer in 0..2147483647, found '%s'", v);
        c->max_job_cores_line = p->line;
        return 1;
    case WL_DEPENDENCIES:
        return resolve_path(p, key, v, "a file", c->dependencies, sizeof c->dependencies,
                            &c->dependencies_line, &c->dependencies_relative);
    case WL_DEPENDENCIES_FROM_SWF:
        if (parse_bool(v, &c->dependencies_from_swf))
            return hsim__fail(p, "dependencies_from_swf: expected true or false, found '%s'", v);
        return 1;
    case WL_WORKFLOW:
        if (hsim_workflow_shape_parse(v, &c->workflow))
            return hsim__fail(p, "workflow '%s': expected one of none, chain, fork-join, dag", v);
        return 1;
    case WL_WORKFLOW_WIDTH: case WL_WORKFLOW_DEPTH:
        if (parse_int(v, 1, 100000, k == WL_WORKFLOW_WIDTH ? &c->workflow_width
                                                          : &c->workflow_depth))
            return hsim__fail(p, "%s: expected an integer in 1..100000, found '%s'", key, v);
        return 1;
    case WL_SWF_EXTRA:
        if (hsim_swf_extra_parse(v, &c->swf_extra))
            return hsim__fail(p, "swf_extra '%s': expected one of detect, ignore, error", v);
        return 1;
    default: /* WL_CLASS_BY */
        if (!strcmp(v, "none"))
            c->class_by = HSIM_CLASS_BY_NONE;
        else if (!strcmp(v, "app"))
            c->class_by = HSIM_CLASS_BY_APP;
        else if (!strcmp(v, "queue"))
            c->class_by = HSIM_CLASS_BY_QUEUE;
        else if (!strcmp(v, "partition"))
            c->class_by = HSIM_CLASS_BY_PARTITION;
        else
            return hsim__fail(p, "class_by '%s': expected one of none, app, queue, partition", v);
        return 1;
    }
}

static int workload_key(parse_t *p, const char *key, const char *v)
{
    hsim_config_t *c = p->c;
    if (!strcmp(key, "format")) {
        if (!first_time(p, &p->seen_wl, p->wl_lines, WL_FORMAT, key))
            return 0;
        size_t k = 0;
        while (formats[k] && strcmp(formats[k], v))
            k++;
        if (!formats[k])
            return hsim__fail(p, "format '%s': expected one of swf, gavel, elasticflow, alibaba, csv, "
                           "lublin, dl, mix", v);
        hsim_strlcpy(c->format, v, sizeof c->format);
    } else if (!strcmp(key, "path")) {
        if (!first_time(p, &p->seen_wl, p->wl_lines, WL_PATH, key))
            return 0;
        return resolve_path(p, key, v, "a trace file", c->trace, sizeof c->trace,
                            &c->trace_line, &c->trace_relative);
    } else if (!strcmp(key, "clean")) {
        if (!first_time(p, &p->seen_wl, p->wl_lines, WL_CLEAN, key))
            return 0;
        if (hsim_clean_preset_parse(v, &c->clean))
            return hsim__fail(p, "clean '%s': expected one of pyss, standard", v);
    } else if (!strcmp(key, "max_jobs")) {
        if (!first_time(p, &p->seen_wl, p->wl_lines, WL_MAX_JOBS, key))
            return 0;
        if (parse_u64(v, &c->max_jobs))
            return hsim__fail(p, "max_jobs: expected a non-negative integer (0 = all), found '%s'", v);
    } else {
        return workload_more(p, key, v);
    }
    return 1;
}

static int cluster_key(parse_t *p, const char *key, const char *v)
{
    if (!strcmp(key, "alibaba_nodes")) {
        if (!first_time(p, &p->seen_cl, p->cl_lines, CL_ALIBABA_NODES, key))
            return 0;
        return resolve_path(p, key, v, "a file", p->c->alibaba_nodes,
                            sizeof p->c->alibaba_nodes, &p->c->alibaba_nodes_line,
                            &p->c->alibaba_nodes_relative);
    }
    if (!strcmp(key, "processors")) {
        if (!first_time(p, &p->seen_cl, p->cl_lines, CL_PROCESSORS, key))
            return 0;
        uint64_t x;
        if (parse_u64(v, &x) || x < 1 || x > INT32_MAX)
            return hsim__fail(p, "processors: expected an integer in 1..2147483647, found '%s'", v);
        p->c->processors = (int32_t)x;
        return 1;
    }
    return hsim__fail(p, "unknown key '%s' in [cluster]: expected processors or alibaba_nodes", key);
}

/* A seconds value of key in [lo, hi] into *x.  1, or 0 after an error. */
static int seconds_key(parse_t *p, const char *key, const char *v, double lo, double hi,
                       double *x)
{
    if (parse_double(v, x) || !(*x >= lo && *x <= hi))
        return hsim__fail(p, "%s: expected seconds in [%g, %g], found '%s'", key, lo, hi, v);
    return 1;
}

/* The keys of preemption and round robin: 1 when key is one (0 after an
   error in its value), -1 when it is none of them. */
static int preempt_key(parse_t *p, const char *key, const char *v)
{
    static const char *const keys[] = {"preempt", "preempt_grace", "switch_cost", "quantum"};
    static const char *const modes[] = {"off", "requeue", "suspend", "checkpoint"};
    hsim_policy_config_t *pc = p->policy;
    int k = 0;
    while (k < 4 && strcmp(key, keys[k]))
        k++;
    if (k == 4)
        return -1;
    if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_PREEMPT + k, key))
        return 0;
    if (k == 1)
        return seconds_key(p, key, v, 0, 1e9, &pc->preempt_grace_s);
    if (k == 2)
        return seconds_key(p, key, v, 0, 1e9, &pc->switch_cost_s);
    if (k == 3)
        return seconds_key(p, key, v, 1e-6, 1e9, &pc->quantum_s);
    int m = 0; /* the index is the hsim_stop_mode_t */
    while (m < 4 && strcmp(v, modes[m]))
        m++;
    if (m == 4)
        return hsim__fail(p, "preempt '%s': expected off, requeue, suspend or checkpoint", v);
    pc->preempt = m;
    return 1;
}

static int policy_key(parse_t *p, const char *key, const char *v)
{
    hsim_policy_config_t *pc = p->policy;
    char names[256];
    int known;
    if (!strcmp(key, "queue")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_QUEUE, key))
            return 0;
        pc->order = hsim_order_find(v);
        if (!pc->order) {
            hsim_order_names(names, sizeof names);
            return hsim__fail(p, "unknown queue order '%s': expected one of %s", v, names);
        }
    } else if (!strcmp(key, "backfill")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_BACKFILL, key))
            return 0;
        pc->scheduler = hsim_scheduler_find(v);
        if (!pc->scheduler) {
            hsim_scheduler_names(names, sizeof names);
            return hsim__fail(p, "unknown backfill '%s': expected one of %s", v, names);
        }
    } else if (!strcmp(key, "estimate")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_ESTIMATE, key))
            return 0;
        pc->predictor = hsim_predictor_find(v);
        if (!pc->predictor) {
            hsim_predictor_names(names, sizeof names);
            return hsim__fail(p, "unknown estimate '%s': expected one of %s", v, names);
        }
    } else if (!strcmp(key, "backfill_order")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_BACKFILL_ORDER, key))
            return 0;
        pc->backfill_order = hsim_order_find(v);
        if (!pc->backfill_order) {
            hsim_order_names(names, sizeof names);
            return hsim__fail(p, "unknown backfill_order '%s': expected one of %s", v, names);
        }
    } else if (!strcmp(key, "placement")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_PLACEMENT, key))
            return 0;
        pc->placement = hsim_placement_find(v);
        if (!pc->placement) {
            hsim_placement_names(names, sizeof names);
            return hsim__fail(p, "unknown placement '%s': expected one of %s", v, names);
        }
    } else if (!strcmp(key, "spread")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_SPREAD, key))
            return 0;
        if (!strcmp(v, "pack"))
            pc->spread = HSIM_PACK;
        else if (!strcmp(v, "spread"))
            pc->spread = HSIM_SPREAD;
        else
            return hsim__fail(p, "spread '%s': expected pack or spread", v);
    } else if (!strcmp(key, "estimate.model")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_ESTIMATE_MODEL, key))
            return 0;
        int line, relative;
        return resolve_path(p, key, v, "a model file (hsim train writes one)",
                            pc->estimate_model, sizeof pc->estimate_model, &line, &relative);
    } else if (!strcmp(key, "estimate.retrain")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_ESTIMATE_RETRAIN, key))
            return 0;
        uint64_t x;
        if (parse_u64(v, &x) || x > 100000000)
            return hsim__fail(p, "estimate.retrain: expected a number of completions in 0..100000000 "
                           "(0 = never), found '%s'", v);
        pc->estimate_retrain = (size_t)x;
    } else if (!strcmp(key, "estimate.under_weight")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_ESTIMATE_UNDER_WEIGHT, key))
            return 0;
        if (parse_double(v, &pc->estimate_under_weight) ||
            !(pc->estimate_under_weight >= 1 && pc->estimate_under_weight <= 1000))
            return hsim__fail(p, "estimate.under_weight: expected a number in 1..1000 (how many times "
                           "an under-estimate's error counts), found '%s'", v);
    } else if (!strcmp(key, "failures")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_FAILURES, key))
            return 0;
        if (length_refused(p, "failures name", v, ""))
            return 0;
        hsim_strlcpy(pc->failures_name, v, sizeof pc->failures_name);
    } else if (!strcmp(key, "on_failure")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_ON_FAILURE, key))
            return 0;
        if (hsim_on_failure_parse(v, &pc->on_failure))
            return hsim__fail(p, "on_failure '%s': expected requeue or checkpoint", v);
    } else if (!strcmp(key, "restart_cost")) {
        if (!first_time(p, &pc->seen, pc->lines, HSIM_POLICY_RESTART_COST, key))
            return 0;
        if (parse_double(v, &pc->restart_cost_s) ||
            !(pc->restart_cost_s >= 0 && pc->restart_cost_s <= 1e9))
            return hsim__fail(p, "restart_cost: expected seconds in [0, 1e9], found '%s'", v);
    } else if ((known = preempt_key(p, key, v)) >= 0) {
        return known;
    } else {
        char why[768];
        int got = hsim_plugin_param(key, v, p->line, &pc->values, why, sizeof why);
        if (got < 0)
            return hsim__fail(p, "[policy %s] %s", pc->name, why);
        if (got == 0)
            return hsim__fail(p, "unknown key '%s' in [policy %s]: expected queue, backfill, "
                           "backfill_order, estimate, estimate.model, estimate.retrain, "
                           "estimate.under_weight, placement, spread, failures, on_failure, "
                           "restart_cost, preempt, preempt_grace, switch_cost, quantum or "
                           "<order>.<parameter> (hsim help policies lists them)", key, pc->name);
    }
    return 1;
}

/* Copies a topology's shape into the type, except the keys given by hand. */
static void apply_shape(hsim_nodes_config_t *nc, const hsim_node_shape_t *sh)
{
    hsim_node_type_t *t = &nc->type;
    if (!(nc->seen & KEY_BIT(HSIM_NODES_CORES)))
        t->cores = sh->cores;
    if (!(nc->seen & KEY_BIT(HSIM_NODES_MEMORY)))
        t->mem_mb = sh->memory_mb;
    if (!(nc->seen & KEY_BIT(HSIM_NODES_GPUS)))
        t->gpus = sh->gpus;
    if (!(nc->seen & KEY_BIT(HSIM_NODES_GPU_MODEL)))
        hsim_strlcpy(t->gpu_model, sh->gpu_model, sizeof t->gpu_model);
    if (!(nc->seen & KEY_BIT(HSIM_NODES_GPU_MEMORY)))
        t->gpu_mem_mb = sh->gpu_memory_mb;
    if (!(nc->seen & KEY_BIT(HSIM_NODES_FPGAS)))
        t->fpgas = sh->fpgas;
    if (!(nc->seen & KEY_BIT(HSIM_NODES_FPGA_MODEL)))
        hsim_strlcpy(t->fpga_model, sh->fpga_model, sizeof t->fpga_model);
}

static int nodes_key(parse_t *p, const char *key, const char *v)
{
    static const char *const keys[HSIM_NODES_KEYS] = {
        [HSIM_NODES_COUNT] = "count",           [HSIM_NODES_TOPOLOGY] = "topology",
        [HSIM_NODES_CORES] = "cores",           [HSIM_NODES_MEMORY] = "memory",
        [HSIM_NODES_GPUS] = "gpus",             [HSIM_NODES_GPU_MODEL] = "gpu_model",
        [HSIM_NODES_GPU_MEMORY] = "gpu_memory", [HSIM_NODES_FPGAS] = "fpgas",
        [HSIM_NODES_FPGA_MODEL] = "fpga_model", [HSIM_NODES_SPEED] = "speed",
        [HSIM_NODES_PARTITION] = "partition"};
    hsim_nodes_config_t *nc = p->nodes;
    hsim_node_type_t *t = &nc->type;
    int k = 0;
    while (k < HSIM_NODES_KEYS && strcmp(keys[k], key))
        k++;
    if (k == HSIM_NODES_KEYS)
        return hsim__fail(p, "unknown key '%s' in [nodes %s]: expected count, topology, cores, "
                       "memory, gpus, gpu_model, gpu_memory, fpgas, fpga_model, speed or "
                       "partition", key, t->name);
    if (!first_time(p, &nc->seen, nc->lines, k, key))
        return 0;
    switch (k) {
    case HSIM_NODES_COUNT:
        if (parse_int(v, 1, 10000000, &t->count))
            return hsim__fail(p, "count: expected an integer in 1..10000000, found '%s'", v);
        return 1;
    case HSIM_NODES_TOPOLOGY: {
        char where[HSIM_PATH_MAX + 16];
        snprintf(where, sizeof where, "%s:%d", p->c->path, p->line);
        hsim_node_shape_t sh;
        hsim_err_t e;
        int rc = hsim_topology_load(v, p->c->dir, where, &sh, &e);
        if (!rc)
            rc = hsim_topology_file(v, p->c->dir, nc->topology, sizeof nc->topology);
        if (rc) {
            if (!p->rc) {
                p->rc = hsim_errf(p->e, rc == HSIM_ENOMEM ? HSIM_ENOMEM : HSIM_EINPUT, "%s",
                                  e.msg);
                p->err_line = p->line;
            }
            return 0;
        }
        apply_shape(nc, &sh);
        return 1;
    }
    case HSIM_NODES_MEMORY:
        if (parse_size_mb(v, &t->mem_mb))
            return hsim__fail(p, "memory: expected 0 or a size of at least 1M such as 256G or "
                           "512M (MiB when bare), found '%s'", v);
        return 1;
    case HSIM_NODES_GPUS:
        if (parse_int(v, 0, HSIM_NODE_DEVICES_MAX, &t->gpus))
            return hsim__fail(p, "gpus: expected an integer in 0..%d, found '%s'",
                        HSIM_NODE_DEVICES_MAX, v);
        return 1;
    case HSIM_NODES_GPU_MODEL:
        if (hsim_strlcpy(t->gpu_model, v, sizeof t->gpu_model) >= sizeof t->gpu_model)
            return hsim__fail(p, "gpu_model: longer than %zu characters", sizeof t->gpu_model - 1);
        return 1;
    case HSIM_NODES_GPU_MEMORY:
        if (parse_size_mb(v, &t->gpu_mem_mb))
            return hsim__fail(p, "gpu_memory: expected 0 or a size of at least 1M such as 32G, "
                           "found '%s'", v);
        return 1;
    case HSIM_NODES_FPGAS:
        if (parse_int(v, 0, HSIM_NODE_DEVICES_MAX, &t->fpgas))
            return hsim__fail(p, "fpgas: expected an integer in 0..%d, found '%s'",
                        HSIM_NODE_DEVICES_MAX, v);
        return 1;
    case HSIM_NODES_FPGA_MODEL:
        if (hsim_strlcpy(t->fpga_model, v, sizeof t->fpga_model) >= sizeof t->fpga_model)
            return hsim__fail(p, "fpga_model: longer than %zu characters", sizeof t->fpga_model - 1);
        return 1;
    case HSIM_NODES_SPEED:
        if (parse_double(v, &t->speed) || t->speed <= 0)
            return hsim__fail(p, "speed: expected a number > 0, found '%s'", v);
        return 1;
    case HSIM_NODES_PARTITION:
        if (hsim_strlcpy(t->partition, v, sizeof t->partition) >= sizeof t->partition)
            return hsim__fail(p, "partition: longer than %zu characters", sizeof t->partition - 1);
        return parse_partitions(p, t, v);
    default: /* HSIM_NODES_CORES */
        if (parse_int(v, 1, 1 << 20, &t->cores))
            return hsim__fail(p, "cores: expected an integer in 1..1048576, found '%s'", v);
        return 1;
    }
}

static int class_key(parse_t *p, const char *key, const char *v)
{
    hsim_class_config_t *cc = p->cls;
    if (strncmp(key, "speed.", 6) || !key[6])
        return hsim__fail(p, "unknown key '%s' in [class %s]: expected speed.<node type or GPU "
                       "model> = <number > 0, or none>", key, cc->name);
    const char *target = key + 6;
    for (size_t i = 0; i < cc->n_speeds; i++)
        if (!strcmp(cc->speeds[i].target, target))
            return hsim__fail(p, "key '%s' is given twice in [class %s]", key, cc->name);
    if (cc->n_speeds == HSIM_MAX_CLASS_SPEEDS)
        return hsim__fail(p, "too many speeds in [class %s] (at most %d)", cc->name,
                    HSIM_MAX_CLASS_SPEEDS);
    hsim_class_speed_t *sp = &cc->speeds[cc->n_speeds];
    if (hsim_strlcpy(sp->target, target, sizeof sp->target) >= sizeof sp->target)
        return hsim__fail(p, "'%s': name longer than %zu characters", key, sizeof sp->target - 1);
    if (!strcmp(v, "none"))
        sp->speed = -1;
    else if (parse_double(v, &sp->speed) || sp->speed <= 0)
        return hsim__fail(p, "%s: expected a number > 0 or none, found '%s'", key, v);
    sp->line = p->line;
    cc->n_speeds++;
    return 1;
}

static int failures_key(parse_t *p, const char *key, const char *v)
{
    static const char *const keys[HSIM_FAILURES_KEYS] = {
        "mtbf", "mttr", "distribution", "weibull_shape", "trace", "nodes"};
    hsim_failures_config_t *fc = p->fails;
    int k = 0;
    while (k < HSIM_FAILURES_KEYS && strcmp(keys[k], key))
        k++;
    if (k == HSIM_FAILURES_KEYS)
        return hsim__fail(p, "unknown key '%s' in [failures %s]: expected mtbf, mttr, distribution, "
                       "weibull_shape, trace or nodes", key, fc->name);
    if (!first_time(p, &fc->seen, fc->lines, k, key))
        return 0;
    int line;
    switch (k) {
    case HSIM_FAILURES_MTBF: case HSIM_FAILURES_MTTR: {
        double *x = k == HSIM_FAILURES_MTBF ? &fc->mtbf_s : &fc->mttr_s;
        if (parse_double(v, x) || !(*x >= 1 && *x <= 1e9))
            return hsim__fail(p, "%s: expected seconds in [1, 1e9], found '%s'", key, v);
        return 1;
    }
    case HSIM_FAILURES_DISTRIBUTION:
        if (hsim_fail_dist_parse(v, &fc->dist))
            return hsim__fail(p, "distribution '%s': expected exponential or weibull", v);
        return 1;
    case HSIM_FAILURES_WEIBULL_SHAPE:
        if (parse_double(v, &fc->shape) || !(fc->shape >= 0.05 && fc->shape <= 20))
            return hsim__fail(p, "weibull_shape: expected a number in [0.05, 20], found '%s'", v);
        return 1;
    case HSIM_FAILURES_TRACE:
        return resolve_path(p, key, v, "a file", fc->trace, sizeof fc->trace, &line,
                            &fc->trace_relative);
    default: /* HSIM_FAILURES_NODES */
        if (length_refused(p, "node type", v, ""))
            return 0;
        hsim_strlcpy(fc->nodes, v, sizeof fc->nodes);
        return 1;
    }
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
    parse_t *p = user;
    (void)section; /* we track sections ourselves, with their lines */
    if (p->rc)
        return 1; /* already failed: inih goes on, we don't */
    if (!p->section[0])
        return hsim__fail(p, "key '%s' before any section: expected [experiment] first", key);
    if (!strcmp(p->section, "experiment"))
        return experiment_key(p, key, value);
    if (!strcmp(p->section, "workload"))
        return workload_key(p, key, value);
    if (!strcmp(p->section, "cluster"))
        return cluster_key(p, key, value);
    if (!strcmp(p->section, "output"))
        return output_key(p, key, value);
    if (p->policy)
        return policy_key(p, key, value);
    if (p->nodes)
        return nodes_key(p, key, value);
    if (p->cls)
        return class_key(p, key, value);
    if (p->fails)
        return failures_key(p, key, value);
    return 1; /* unknown section: already reported */
}

static void set_defaults(hsim_config_t *c, const char *path)
{
    memset(c, 0, sizeof *c);
    hsim_strlcpy(c->path, path, sizeof c->path);
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(c->dir, sizeof c->dir, "%.*s", (int)(slash - path), path);
    else
        snprintf(c->dir, sizeof c->dir, ".");
    if (slash && slash == path)
        snprintf(c->dir, sizeof c->dir, "/");
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.'); /* the name is the file's, less its
                                             extension: sweep.1.ini is sweep.1 */
    size_t len = dot ? (size_t)(dot - base) : strlen(base);
    if (len > HSIM_NAME_MAX - 1)
        len = HSIM_NAME_MAX - 1;
    snprintf(c->name, sizeof c->name, "%.*s", (int)len, base);
    if (!valid_name(c->name))
        snprintf(c->name, sizeof c->name, "experiment");
    snprintf(c->output, sizeof c->output, "results");
    c->seed = 1;
    c->repeat = 1;
    c->charts = HSIM_CHART_ALL;
    c->formats = HSIM_FORMAT_PNG;
    snprintf(c->format, sizeof c->format, "swf");
    c->clean = HSIM_CLEAN_STANDARD;
    c->jobs = 10000;
    c->load = 0.8;
    c->estimate_factor = 1.0;
    c->share[0] = 0.5;
    c->share[1] = 0.3;
    c->share[2] = 0.2;
    c->gpus_per_job = 1;
    c->dependencies_from_swf = 1;
    c->workflow_width = 4;
    c->workflow_depth = 4;
}

static int finish(parse_t *p, int ini_rc)
{
    hsim_config_t *c = p->c;
    if (ini_rc > 0 && (!p->rc || ini_rc < p->err_line)) {
        /* inih's syntax error comes first in the file */
        p->rc = 0;
        p->line = ini_rc;
        hsim__fail(p, "expected 'key = value', '[section]' or a ';' comment");
        return p->rc;
    }
    if (p->rc)
        return p->rc;
    if (ini_rc < 0)
        return hsim_errf(p->e, HSIM_ENOMEM, "%s: out of memory", c->path);
    int rc = hsim__not_read(p);
    if (rc)
        return rc;
    if ((rc = hsim__failures_check(p)) || (rc = hsim__preempt_check(p)))
        return rc;
    /* Whole-file mistakes: named at the line that is missing something
       (the section, or the key that cannot stand), else at line 1. */
    int wl = p->wl_line ? p->wl_line : 1;
    int fmt = p->wl_lines[WL_FORMAT] ? p->wl_lines[WL_FORMAT] : wl;
    int generated = !strcmp(c->format, "lublin") || !strcmp(c->format, "dl") ||
                    !strcmp(c->format, "mix");
    if (!generated && !c->trace[0])
        return hsim_errf(p->e, HSIM_EINPUT,
                         "%s:%d: [workload] path is missing: expected a trace file", c->path, wl);
    if (!strcmp(c->format, "gavel") && !c->throughputs[0])
        return hsim_errf(p->e, HSIM_EINPUT,
                         "%s:%d: format gavel needs throughputs = <Gavel's throughputs.csv> "
                         "in [workload]", c->path, fmt);
    for (size_t i = 0; i < c->n_nodes; i++) {
        /* a topology's GPU model and memory, of GPUs that gpus = 0 took
           away (given by hand, they are errors above) */
        hsim_node_type_t *t = &c->nodes[i].type;
        if (!t->gpus) {
            t->gpu_model[0] = '\0';
            t->gpu_mem_mb = 0;
        }
        if (!t->fpgas)
            t->fpga_model[0] = '\0';
    }
    for (size_t i = 0; i < c->n_nodes; i++)
        if (c->nodes[i].type.cores < 1)
            return hsim_errf(p->e, HSIM_EINPUT,
                             "%s:%d: [nodes %s] has no cores: expected a topology or cores = N",
                             c->path, c->nodes[i].line, c->nodes[i].type.name);
    int64_t cores = 0, gpus = 0; /* the policies count processors in 32 bits */
    for (size_t i = 0; i < c->n_nodes; i++) {
        const hsim_node_type_t *t = &c->nodes[i].type;
        cores += (int64_t)t->count * t->cores;
        gpus += (int64_t)t->count * t->gpus;
        if (cores > INT32_MAX || gpus > INT32_MAX)
            return hsim_errf(p->e, HSIM_EINPUT,
                             "%s:%d: [nodes %s] takes the cluster to %lld cores and %lld GPUs: "
                             "expected at most 2147483647 of each (fewer nodes)",
                             c->path, c->nodes[i].line, t->name, (long long)cores,
                             (long long)gpus);
    }
    if (c->n_nodes && c->processors)
        return hsim_errf(p->e, HSIM_EINPUT,
                         "%s:%d: [cluster] processors and [nodes] sections exclude each other: "
                         "expected one of them", c->path, p->cl_lines[CL_PROCESSORS]);
    if (c->alibaba_nodes[0] && c->processors)
        return hsim_errf(p->e, HSIM_EINPUT,
                         "%s:%d: [cluster] processors and alibaba_nodes exclude each other",
                         c->path, p->cl_lines[CL_PROCESSORS]);
    if (c->n_nodes == 0 && !c->alibaba_nodes[0] &&
        (!strcmp(c->format, "gavel") || !strcmp(c->format, "elasticflow") ||
         !strcmp(c->format, "alibaba") || !strcmp(c->format, "dl") || !strcmp(c->format, "mix")))
        return hsim_errf(p->e, HSIM_EINPUT,
                         "%s:%d: format %s needs a cluster of nodes: expected [nodes NAME] "
                         "sections or [cluster] alibaba_nodes",
                         c->path, fmt, c->format);
    if (!strcmp(c->format, "lublin") && c->n_nodes == 0 && !c->alibaba_nodes[0] &&
        !c->processors) /* the model's job sizes are drawn for the machine */
        return hsim_errf(p->e, HSIM_EINPUT,
                         "%s:%d: format lublin needs the machine's size: expected [cluster] "
                         "processors or [nodes NAME] sections", c->path, fmt);
    if (!c->n_policies)
        return hsim_errf(p->e, HSIM_EINPUT,
                         "%s:%d: no [policy NAME] section: expected at least one", c->path,
                         p->line > 0 ? p->line : 1);
    return hsim__repeat_check(p, generated);
}

int hsim_config_read(const char *path, char **text, hsim_err_t *e)
{
    *text = NULL;
    size_t len = strlen(path);
    if (len >= HSIM_PATH_MAX) /* its folder would be cut: traces not found */
        return hsim_errf(e, HSIM_EINPUT, "%.60s...%s: a path of %zu characters: expected "
                         "at most %d", path, path + len - 20, len, HSIM_PATH_MAX - 1);
    FILE *f = fopen(path, "rb");
    if (!f)
        return hsim_errf(e, HSIM_EIO, "%s: cannot open: %s", path, strerror(errno));
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (;;) {
        if (n > HSIM_INI_MAX_BYTES) {
            rc = hsim_errf(e, HSIM_EINPUT, "%s: more than %d bytes: expected an INI file "
                           "(not a trace, say)", path, HSIM_INI_MAX_BYTES);
            break;
        }
        if (hsim_grow(&buf, &cap, n + 4096 + 1, 1)) {
            rc = HSIM_ENOMEM;
            break;
        }
        errno = 0;
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) /* a folder, say */
                rc = hsim_errf(e, HSIM_EIO, "%s: cannot read: %s", path,
                               strerror(errno ? errno : EIO));
            break;
        }
    }
    fclose(f);
    const char *nul = rc ? NULL : memchr(buf, '\0', n);
    if (nul) {
        int line = 1;
        for (const char *s = buf; s < nul; s++)
            line += *s == '\n';
        rc = hsim_errf(e, HSIM_EINPUT, "%s:%d: a NUL byte: expected a text file", path, line);
    }
    if (rc) {
        hsim_free(buf);
        return rc;
    }
    buf[n] = '\0';
    *text = buf;
    return 0;
}

int hsim_config_load(const char *path, hsim_config_t *c, hsim_err_t *e)
{
    char *text;
    int rc = hsim_config_read(path, &text, e);
    if (rc == 0)
        rc = hsim_config_parse_string(text, path, c, e);
    hsim_free(text);
    return rc;
}

int hsim_config_parse_string(const char *text, const char *path, hsim_config_t *c,
                             hsim_err_t *e)
{
    set_defaults(c, path);
    parse_t p = {.c = c, .e = e, .text = text};
    int rc = ini_parse_stream(next_line, &p, on_key, &p);
    return finish(&p, rc);
}
