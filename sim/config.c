/*
 * config.c - the INI reader for experiments, on top of inih.
 *
 * inih does not tell its handler the line number, and it does not report
 * sections that hold no key, so the lines are fed to it through a reader of
 * our own that counts them and notes every section header.
 */
#include "config.h"

#include "../policies/registry.h"
#include "../workloads/swf.h"

#include <ini.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct parse {
    hsim_config_t *c;
    hsim_err_t *e;
    int rc;                    /* first error */
    int line;                  /* line being parsed */
    const char *text;          /* string input, or NULL */
    FILE *file;                /* file input, or NULL */
    hsim_policy_config_t *policy; /* current [policy X], or NULL */
    char section[128];         /* current section header text */
    unsigned seen_exp, seen_wl, seen_cl; /* keys given, per section */
} parse_t;

static int fail(parse_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(parse_t *p, const char *fmt, ...)
{
    if (p->rc)
        return 0; /* keep the first error */
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    p->rc = hsim_errf(p->e, HSIM_EINPUT, "%s:%d: %s", p->c->path, p->line, what);
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

/* A section header line: checks it and opens the section. */
static void open_section(parse_t *p, const char *line)
{
    const char *s = line + 1;
    const char *close = strchr(s, ']');
    if (!close)
        return; /* inih reports it */
    size_t len = (size_t)(close - s);
    char name[128];
    if (len >= sizeof name)
        len = sizeof name - 1;
    memcpy(name, s, len);
    name[len] = '\0';
    hsim_strlcpy(p->section, name, sizeof p->section);
    p->policy = NULL;
    if (!strcmp(name, "experiment") || !strcmp(name, "workload") ||
        !strcmp(name, "cluster"))
        return;
    if (!strncmp(name, "policy", 6) && (name[6] == ' ' || name[6] == '\t')) {
        const char *pn = name + 7;
        while (*pn == ' ' || *pn == '\t')
            pn++;
        if (!valid_name(pn)) {
            fail(p, "policy name '%s': expected letters, digits, '-', '_' or '.' "
                    "(it names a results folder)", pn);
            return;
        }
        hsim_config_t *c = p->c;
        for (size_t i = 0; i < c->n_policies; i++)
            if (!strcmp(c->policies[i].name, pn)) {
                fail(p, "policy '%s' is defined twice (first at line %d)", pn,
                     c->policies[i].line);
                return;
            }
        if (c->n_policies == HSIM_MAX_POLICIES) {
            fail(p, "too many policies (at most %d)", HSIM_MAX_POLICIES);
            return;
        }
        hsim_policy_config_t *pc = &c->policies[c->n_policies++];
        memset(pc, 0, sizeof *pc);
        hsim_strlcpy(pc->name, pn, sizeof pc->name);
        pc->line = p->line;
        pc->order = hsim_order_find("fcfs");
        pc->scheduler = hsim_scheduler_find("none");
        pc->predictor = hsim_predictor_find("user");
        p->policy = pc;
        return;
    }
    fail(p, "unknown section [%s]: expected [experiment], [workload], [cluster] "
            "or [policy NAME]", name);
}

static char *next_line(char *str, int num, void *stream)
{
    parse_t *p = stream;
    char *got;
    if (p->file) {
        got = fgets(str, num, p->file);
    } else {
        if (!*p->text)
            return NULL;
        size_t n = strcspn(p->text, "\n");
        size_t take = n < (size_t)num - 1 ? n : (size_t)num - 1;
        memcpy(str, p->text, take);
        str[take] = '\0';
        p->text += take;
        if (*p->text == '\n')
            p->text++;
        got = str;
    }
    if (!got)
        return NULL;
    p->line++;
    int cut = 0; /* the line did not fit inih's buffer */
    if (p->file) {
        if (!strchr(str, '\n') && !feof(p->file)) {
            cut = 1;
            int ch;
            while ((ch = fgetc(p->file)) != EOF && ch != '\n')
                ;
        }
    } else if (*p->text && p->text[-1] != '\n') {
        cut = 1;
        p->text += strcspn(p->text, "\n");
        if (*p->text)
            p->text++;
    }
    if (cut)
        fail(p, "line longer than %d characters", num - 2);
    const char *s = str;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '[')
        open_section(p, s);
    return got;
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

/* Marks key bit in *seen; complains on a repeat. */
static int first_time(parse_t *p, unsigned *seen, unsigned bit, const char *key)
{
    if (*seen & bit) {
        fail(p, "key '%s' is given twice in [%s]", key, p->section);
        return 0;
    }
    *seen |= bit;
    return 1;
}

static int experiment_key(parse_t *p, const char *key, const char *v)
{
    hsim_config_t *c = p->c;
    if (!strcmp(key, "name")) {
        if (!first_time(p, &p->seen_exp, 1, key))
            return 0;
        if (!valid_name(v))
            return fail(p, "name '%s': expected letters, digits, '-', '_' or '.'", v);
        hsim_strlcpy(c->name, v, sizeof c->name);
    } else if (!strcmp(key, "output")) {
        if (!first_time(p, &p->seen_exp, 2, key))
            return 0;
        if (!*v)
            return fail(p, "output: expected a folder, found nothing");
        if (hsim_strlcpy(c->output, v, sizeof c->output) >= sizeof c->output)
            return fail(p, "output: longer than %zu characters", sizeof c->output - 1);
    } else if (!strcmp(key, "seed")) {
        if (!first_time(p, &p->seen_exp, 4, key))
            return 0;
        if (parse_u64(v, &c->seed))
            return fail(p, "seed: expected a non-negative integer, found '%s'", v);
    } else {
        return fail(p, "unknown key '%s' in [experiment]: expected name, output or seed", key);
    }
    return 1;
}

static int workload_key(parse_t *p, const char *key, const char *v)
{
    hsim_config_t *c = p->c;
    if (!strcmp(key, "format")) {
        if (!first_time(p, &p->seen_wl, 1, key))
            return 0;
        if (strcmp(v, "swf"))
            return fail(p, "format '%s': expected swf", v);
        hsim_strlcpy(c->format, v, sizeof c->format);
    } else if (!strcmp(key, "path")) {
        if (!first_time(p, &p->seen_wl, 2, key))
            return 0;
        if (!*v)
            return fail(p, "path: expected a trace file, found nothing");
        size_t need = v[0] == '/' ? strlen(v) : strlen(c->dir) + 1 + strlen(v);
        if (need >= sizeof c->trace)
            return fail(p, "path: longer than %zu characters", sizeof c->trace - 1);
        if (v[0] == '/')
            hsim_strlcpy(c->trace, v, sizeof c->trace);
        else
            snprintf(c->trace, sizeof c->trace, "%s/%s", c->dir, v);
        c->trace_line = p->line;
    } else if (!strcmp(key, "clean")) {
        if (!first_time(p, &p->seen_wl, 4, key))
            return 0;
        if (hsim_clean_preset_parse(v, &c->clean))
            return fail(p, "clean '%s': expected one of pyss, standard", v);
    } else if (!strcmp(key, "max_jobs")) {
        if (!first_time(p, &p->seen_wl, 8, key))
            return 0;
        if (parse_u64(v, &c->max_jobs))
            return fail(p, "max_jobs: expected a non-negative integer (0 = all), found '%s'", v);
    } else {
        return fail(p, "unknown key '%s' in [workload]: expected format, path, clean or max_jobs", key);
    }
    return 1;
}

static int cluster_key(parse_t *p, const char *key, const char *v)
{
    if (!strcmp(key, "processors")) {
        if (!first_time(p, &p->seen_cl, 1, key))
            return 0;
        uint64_t x;
        if (parse_u64(v, &x) || x < 1 || x > INT32_MAX)
            return fail(p, "processors: expected a positive integer, found '%s'", v);
        p->c->processors = (int32_t)x;
        return 1;
    }
    return fail(p, "unknown key '%s' in [cluster]: expected processors", key);
}

static int policy_key(parse_t *p, const char *key, const char *v)
{
    hsim_policy_config_t *pc = p->policy;
    char names[256];
    if (!strcmp(key, "queue")) {
        if (!first_time(p, &pc->seen, 1, key))
            return 0;
        pc->order = hsim_order_find(v);
        if (!pc->order) {
            hsim_order_names(names, sizeof names);
            return fail(p, "unknown queue order '%s': expected one of %s", v, names);
        }
    } else if (!strcmp(key, "backfill")) {
        if (!first_time(p, &pc->seen, 2, key))
            return 0;
        pc->scheduler = hsim_scheduler_find(v);
        if (!pc->scheduler) {
            hsim_scheduler_names(names, sizeof names);
            return fail(p, "unknown backfill '%s': expected one of %s", v, names);
        }
    } else if (!strcmp(key, "estimate")) {
        if (!first_time(p, &pc->seen, 4, key))
            return 0;
        pc->predictor = hsim_predictor_find(v);
        if (!pc->predictor) {
            hsim_predictor_names(names, sizeof names);
            return fail(p, "unknown estimate '%s': expected one of %s", v, names);
        }
    } else if (!strcmp(key, "backfill_order")) {
        if (!first_time(p, &pc->seen, 8, key))
            return 0;
        pc->backfill_order = hsim_order_find(v);
        if (!pc->backfill_order) {
            hsim_order_names(names, sizeof names);
            return fail(p, "unknown backfill_order '%s': expected one of %s", v, names);
        }
    } else {
        return fail(p, "unknown key '%s' in [policy %s]: expected queue, backfill, "
                       "backfill_order or estimate", key, pc->name);
    }
    return 1;
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
    parse_t *p = user;
    (void)section; /* we track sections ourselves, with their lines */
    if (p->rc)
        return 1; /* already failed: inih goes on, we don't */
    if (!p->section[0])
        return fail(p, "key '%s' before any section: expected [experiment] first", key);
    if (!strcmp(p->section, "experiment"))
        return experiment_key(p, key, value);
    if (!strcmp(p->section, "workload"))
        return workload_key(p, key, value);
    if (!strcmp(p->section, "cluster"))
        return cluster_key(p, key, value);
    if (p->policy)
        return policy_key(p, key, value);
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
    size_t len = strcspn(base, ".");
    snprintf(c->name, sizeof c->name, "%.*s", (int)(len < HSIM_NAME_MAX - 1 ? len : HSIM_NAME_MAX - 1), base);
    if (!valid_name(c->name))
        snprintf(c->name, sizeof c->name, "experiment");
    snprintf(c->output, sizeof c->output, "results");
    c->seed = 1;
    snprintf(c->format, sizeof c->format, "swf");
    c->clean = HSIM_CLEAN_STANDARD;
}

static int finish(parse_t *p, int ini_rc)
{
    hsim_config_t *c = p->c;
    if (p->rc)
        return p->rc;
    if (ini_rc > 0) {
        p->line = ini_rc;
        fail(p, "expected 'key = value', '[section]' or a ';' comment");
        return p->rc;
    }
    if (ini_rc < 0)
        return hsim_errf(p->e, HSIM_ENOMEM, "%s: out of memory", c->path);
    p->line = 0;
    if (!c->trace[0])
        return hsim_errf(p->e, HSIM_EINPUT, "%s: [workload] path is missing: expected a trace file",
                         c->path);
    if (!c->n_policies)
        return hsim_errf(p->e, HSIM_EINPUT,
                         "%s: no [policy NAME] section: expected at least one", c->path);
    return 0;
}

int hsim_config_load(const char *path, hsim_config_t *c, hsim_err_t *e)
{
    set_defaults(c, path);
    FILE *f = fopen(path, "r");
    if (!f)
        return hsim_errf(e, HSIM_EIO, "%s: cannot open: %s", path, strerror(errno));
    parse_t p = {.c = c, .e = e, .file = f};
    int rc = ini_parse_stream(next_line, &p, on_key, &p);
    fclose(f);
    return finish(&p, rc);
}

int hsim_config_parse_string(const char *text, const char *path, hsim_config_t *c,
                             hsim_err_t *e)
{
    set_defaults(c, path);
    parse_t p = {.c = c, .e = e, .text = text};
    int rc = ini_parse_stream(next_line, &p, on_key, &p);
    return finish(&p, rc);
}
