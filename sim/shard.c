/*
 * shard.c - a shard's manifest and hsim merge (shard.h).
 */
#define _POSIX_C_SOURCE 200809L /* fileno() */
#include "shard.h"

#include "plot.h"
#include "repeat.h"
#include "results.h"
#include "workflows.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MANIFEST_VERSION 1

int hsim_shard_begin(hsim_report_t *r, const char *path, const hsim_config_t *c, int i, int n,
                     hsim_err_t *e)
{
    int rc = hsim_report_open(r, path, NULL, e);
    if (rc)
        return rc;
    fprintf(r->f, "hsim-shard %d\nshard %d %d\nexperiment %s\nseed %llu\nrepeat %zu\n",
            MANIFEST_VERSION, i, n, c->name, (unsigned long long)c->seed,
            c->repeat ? (size_t)c->repeat : 1);
    for (size_t k = 0; k < c->n_policies; k++)
        fprintf(r->f, "policy %s\n", c->policies[k].name);
    return 0;
}

void hsim_shard_unit(FILE *f, size_t s, const char *header, int cluster, int gpus,
                     int workflows)
{
    fprintf(f, "unit %zu %d %d %d %zu\n%s", s, cluster, gpus, workflows, strlen(header), header);
}

void hsim_shard_record(FILE *f, size_t s, size_t k, const hsim_unit_record_t *rec)
{
    fprintf(f, "run %zu %zu %zu %zu %zu", s, k, strlen(rec->summary), strlen(rec->classes),
            strlen(rec->workflows));
    for (size_t i = 0; i < HSIM_FIGS; i++)
        fprintf(f, " %a", rec->fig[i]); /* exact: the chart's bars */
    fprintf(f, "\n%s%s%s", rec->summary, rec->classes, rec->workflows);
}


/* ---- hsim merge ---- */

typedef char path_t[HSIM_PATH_MAX * 2];

/* A unit (experiment, seed) as a shard wrote it. */
typedef struct munit {
    int present, cluster, gpus, workflows;
    char *header;                 /* summary.csv's header line */
    path_t from;                  /* the shard's folder of the unit */
} munit_t;

/* A triple (experiment, seed, policy) as its shard wrote it. */
typedef struct mrun {
    int present;
    char *summary, *classes, *workflows;
    double fig[HSIM_FIGS];
    path_t from;                  /* the shard's folder of the unit */
} mrun_t;

/* An experiment, from the manifests of its shards. */
typedef struct mexp {
    char name[HSIM_NAME_MAX];
    unsigned long long seed;
    size_t repeat, n_policies;
    char policies[HSIM_MAX_POLICIES][HSIM_NAME_MAX];
    int shards;
    path_t shard_from[64];        /* the first manifests seen, by shard (for messages) */
    char *seen;                   /* [shards]: shard i's manifest read */
    munit_t *units;               /* [repeat] */
    mrun_t *runs;                 /* [repeat * n_policies] */
} mexp_t;

typedef struct merge {
    mexp_t *exps;
    size_t n, cap;
    hsim_err_t e;
} merge_t;

/* A manifest being read: the text, where we are, the line. */
typedef struct reader {
    const char *path;
    char *text;
    size_t len, at;
    int line;
    char buf[512];                /* the line read */
} reader_t;

static int bad(reader_t *r, hsim_err_t *e, const char *what)
{
    return hsim_errf(e, HSIM_EINPUT, "%s:%d: %s", r->path, r->line, what);
}

/* The next line, its newline cut, copied into r->buf (*out); 0, or -1 at
   the end or for a line too long for a record.  The text is left as it
   is, so that a line can be read again. */
static int next_line(reader_t *r, char **out)
{
    if (r->at >= r->len)
        return -1;
    const char *s = r->text + r->at, *nl = memchr(s, '\n', r->len - r->at);
    if (!nl || (size_t)(nl - s) >= sizeof r->buf)
        return -1;
    memcpy(r->buf, s, (size_t)(nl - s));
    r->buf[nl - s] = '\0';
    r->at = (size_t)(nl - r->text) + 1;
    r->line++;
    *out = r->buf;
    return 0;
}

/* The next n bytes, a copy into *out (the caller frees it). */
static int take(reader_t *r, size_t n, char **out, hsim_err_t *e)
{
    if (n > r->len - r->at)
        return bad(r, e, "a text shorter than its length says: the file is cut short");
    if (!(*out = hsim_malloc(n + 1)))
        return HSIM_ENOMEM;
    memcpy(*out, r->text + r->at, n);
    (*out)[n] = '\0';
    for (size_t i = 0; i < n; i++)
        r->line += r->text[r->at + i] == '\n';
    r->at += n;
    return 0;
}

/* The experiment named name, made when new from the preamble's values. */
static int find_exp(merge_t *m, const mexp_t *pre, mexp_t **out)
{
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->exps[i].name, pre->name)) {
            *out = &m->exps[i];
            return 0;
        }
    if (hsim_grow(&m->exps, &m->cap, m->n + 1, sizeof *m->exps))
        return HSIM_ENOMEM;
    mexp_t *x = &m->exps[m->n];
    *x = *pre;
    x->seen = hsim_calloc((size_t)pre->shards, 1);
    x->units = hsim_calloc(pre->repeat, sizeof *x->units);
    x->runs = hsim_calloc(pre->repeat * pre->n_policies, sizeof *x->runs);
    m->n++; /* freed whole by merge_free() even when short */
    if (!x->seen || !x->units || !x->runs)
        return HSIM_ENOMEM;
    *out = x;
    return 0;
}

/* The preamble: version, shard, experiment, seed, repeat, policies. */
static int preamble(reader_t *r, mexp_t *pre, int *shard, hsim_err_t *e)
{
    char *l;
    int version = 0;
    unsigned long long repeat = 0;
    memset(pre, 0, sizeof *pre);
    if (next_line(r, &l) || sscanf(l, "hsim-shard %d", &version) != 1 ||
        version != MANIFEST_VERSION)
        return bad(r, e, "expected 'hsim-shard 1': not a manifest of this hsim");
    if (next_line(r, &l) || sscanf(l, "shard %d %d", shard, &pre->shards) != 2 ||
        *shard < 1 || *shard > pre->shards)
        return bad(r, e, "expected 'shard I N' with 1 <= I <= N");
    if (next_line(r, &l) || strncmp(l, "experiment ", 11) || !l[11] ||
        strlen(l + 11) >= sizeof pre->name)
        return bad(r, e, "expected 'experiment NAME'");
    hsim_strlcpy(pre->name, l + 11, sizeof pre->name);
    if (next_line(r, &l) || sscanf(l, "seed %llu", &pre->seed) != 1)
        return bad(r, e, "expected 'seed S'");
    if (next_line(r, &l) || sscanf(l, "repeat %llu", &repeat) != 1 || repeat < 1 ||
        repeat > HSIM_MAX_REPEAT)
        return bad(r, e, "expected 'repeat R' with 1 <= R <= 10000");
    pre->repeat = (size_t)repeat;
    size_t save_at = r->at;
    int save_line = r->line;
    while (next_line(r, &l) == 0 && !strncmp(l, "policy ", 7)) {
        if (pre->n_policies == HSIM_MAX_POLICIES || strlen(l + 7) >= HSIM_NAME_MAX || !l[7])
            return bad(r, e, "expected at most 64 policies, each named");
        hsim_strlcpy(pre->policies[pre->n_policies++], l + 7, HSIM_NAME_MAX);
        save_at = r->at;
        save_line = r->line;
    }
    r->at = save_at; /* the line after the policies is read again */
    r->line = save_line;
    return pre->n_policies ? 0 : bad(r, e, "expected 'policy NAME' lines");
}

static int same_preamble(const mexp_t *a, const mexp_t *b)
{
    int same = a->seed == b->seed && a->repeat == b->repeat &&
               a->n_policies == b->n_policies && a->shards == b->shards;
    for (size_t k = 0; same && k < a->n_policies; k++)
        same = !strcmp(a->policies[k], b->policies[k]);
    return same;
}

/* The folder of seed index s of x under top. */
static void unit_dir(const mexp_t *x, const char *top, size_t s, char *out, size_t size)
{
    if (x->repeat > 1)
        snprintf(out, size, "%s/seed-%llu", top, x->seed + s);
    else
        snprintf(out, size, "%s", top);
}

/* The records of a manifest, after its preamble. */
static int records(reader_t *r, mexp_t *x, const char *dir, hsim_err_t *e)
{
    char *l;
    while (next_line(r, &l) == 0) {
        size_t s, k, n[3];
        int cl, gp, wf;
        if (sscanf(l, "unit %zu %d %d %d %zu", &s, &cl, &gp, &wf, &n[0]) == 5) {
            if (s >= x->repeat)
                return bad(r, e, "a unit past the experiment's repeat");
            munit_t *u = &x->units[s];
            char *h;
            int rc = take(r, n[0], &h, e);
            if (rc)
                return rc;
            if (u->present) {
                int same = !strcmp(u->header, h) && u->workflows == wf;
                hsim_free(h);
                if (!same)
                    return bad(r, e, "this shard's summary columns differ from another's: "
                                     "shards of different runs?");
                continue;
            }
            *u = (munit_t){.present = 1, .cluster = cl, .gpus = gp, .workflows = wf, .header = h};
            unit_dir(x, dir, s, u->from, sizeof u->from);
            continue;
        }
        mrun_t t;
        memset(&t, 0, sizeof t);
        char f[HSIM_FIGS][64];
        if (sscanf(l, "run %zu %zu %zu %zu %zu %63s %63s %63s %63s %63s", &s, &k, &n[0], &n[1],
                   &n[2], f[0], f[1], f[2], f[3], f[4]) != 10 || s >= x->repeat ||
            k >= x->n_policies)
            return bad(r, e, "expected 'unit ...' or 'run SEED POLICY ...' of the experiment");
        mrun_t *run = &x->runs[s * x->n_policies + k];
        if (run->present)
            return hsim_errf(e, HSIM_EINPUT, "%s: policy '%s' under seed %llu is in two shards "
                             "(%s too): expected each shard once", r->path, x->policies[k],
                             x->seed + s, run->from);
        for (int i = 0; i < HSIM_FIGS; i++)
            t.fig[i] = strtod(f[i], NULL);
        int rc = take(r, n[0], &t.summary, e);
        if (rc == 0)
            rc = take(r, n[1], &t.classes, e);
        if (rc == 0)
            rc = take(r, n[2], &t.workflows, e);
        t.present = 1;
        unit_dir(x, dir, s, t.from, sizeof t.from);
        *run = t; /* freed by merge_free() */
        if (rc)
            return rc;
    }
    return 0;
}

/* Reads dir/HSIM_SHARD_FILE, a shard's folder of one experiment. */
static int read_manifest(merge_t *m, const char *dir, hsim_err_t *e)
{
    path_t path;
    snprintf(path, sizeof path, "%s/%s", dir, HSIM_SHARD_FILE);
    reader_t r = {.path = path};
    int rc = hsim_read_file(path, &r.text, &r.len, e);
    if (rc)
        return rc;
    mexp_t pre, *x = NULL;
    int shard = 0;
    rc = preamble(&r, &pre, &shard, e);
    if (rc == 0)
        rc = find_exp(m, &pre, &x);
    if (rc == 0 && !same_preamble(x, &pre))
        rc = hsim_errf(e, HSIM_EINPUT, "%s: experiment '%s' differs from its other shards' "
                       "(seed, repeat, policies or shard count): shards of different runs?",
                       path, pre.name);
    if (rc == 0 && x->seen[shard - 1])
        rc = hsim_errf(e, HSIM_EINPUT, "%s: shard %d of %d of experiment '%s' is given twice "
                       "(%s too)", path, shard, pre.shards, pre.name,
                       shard <= 64 ? x->shard_from[shard - 1] : "another folder");
    if (rc == 0) {
        x->seen[shard - 1] = 1;
        if (shard <= 64)
            hsim_strlcpy(x->shard_from[shard - 1], dir, sizeof x->shard_from[0]);
        rc = records(&r, x, dir, e);
    }
    hsim_free(r.text);
    return rc;
}

/* Every shard folder's experiments: SHARD_DIR/<name>/shard.txt. */
static int read_shard_dir(merge_t *m, const char *dir, hsim_err_t *e)
{
    DIR *d = opendir(dir);
    if (!d)
        return hsim_errf(e, HSIM_EINPUT, "%s: cannot open the shard's folder: %s", dir,
                         strerror(errno));
    int rc = 0, found = 0;
    for (struct dirent *de; rc == 0 && (de = readdir(d));) {
        path_t sub, file;
        struct stat st;
        snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name);
        snprintf(file, sizeof file, "%s/%s", sub, HSIM_SHARD_FILE);
        if (de->d_name[0] == '.' || stat(file, &st) || !S_ISREG(st.st_mode))
            continue;
        found = 1;
        rc = read_manifest(m, sub, e);
    }
    closedir(d);
    if (rc == 0 && !found)
        rc = hsim_errf(e, HSIM_EINPUT, "%s: no experiment folder with a %s in it: expected a "
                       "folder that hsim --shard I/N wrote (<output>/shard-I-of-N)", dir,
                       HSIM_SHARD_FILE);
    return rc;
}

/* Every triple of x is in some shard. */
static int complete(const mexp_t *x, hsim_err_t *e)
{
    for (size_t s = 0; s < x->repeat; s++)
        for (size_t k = 0; k < x->n_policies; k++)
            if (!x->runs[s * x->n_policies + k].present)
                return hsim_errf(e, HSIM_EINPUT, "experiment '%s': no shard holds policy '%s' "
                                 "under seed %llu: expected the folders of all %d shards",
                                 x->name, x->policies[k], x->seed + s, x->shards);
    return 0;
}

/* Copies the folder src into dst, recursively: a policy's files. */
static int copy_tree(const char *src, const char *dst, int depth, hsim_err_t *e)
{
    DIR *d = opendir(src);
    if (!d)
        return hsim_errf(e, HSIM_EINPUT, "%s: cannot open: %s", src, strerror(errno));
    int rc = depth > 8 ? hsim_errf(e, HSIM_EINPUT, "%s: folders nested too deep", src)
                       : hsim_mkdirs(dst, e);
    for (struct dirent *de; rc == 0 && (de = readdir(d));) {
        path_t from, to;
        struct stat st;
        if (de->d_name[0] == '.' || hsim_ends_with(de->d_name, ".part"))
            continue; /* the lock, a cut-off file */
        snprintf(from, sizeof from, "%s/%s", src, de->d_name);
        snprintf(to, sizeof to, "%s/%s", dst, de->d_name);
        if (stat(from, &st))
            continue;
        rc = S_ISDIR(st.st_mode) ? copy_tree(from, to, depth + 1, e)
                                 : S_ISREG(st.st_mode) ? hsim_report_copy(from, to, e) : 0;
    }
    closedir(d);
    return rc;
}

/* A text file of the unit: head, then each policy's text in order. */
static int write_joined(const char *path, const char *head, const mexp_t *x, size_t s,
                        size_t which, hsim_err_t *e)
{
    hsim_report_t r;
    int rc = hsim_report_open(&r, path, head, e);
    for (size_t k = 0; rc == 0 && k < x->n_policies; k++) {
        const mrun_t *t = &x->runs[s * x->n_policies + k];
        fputs(which == 0 ? t->summary : which == 1 ? t->classes : t->workflows, r.f);
    }
    return rc ? rc : hsim_report_close(&r, e);
}

/* Writes unit s of x into its folder under top. */
static int write_unit(const mexp_t *x, const char *top, size_t s, hsim_err_t *e)
{
    const munit_t *u = &x->units[s];
    path_t dir, src, dst;
    unit_dir(x, top, s, dir, sizeof dir);
    int rc = hsim_mkdirs(dir, e);
    static const char *const copied[] = {"rejected.csv", "cluster.csv", "run.csv",
                                         "experiment.ini"};
    for (size_t i = 0; rc == 0 && i < sizeof copied / sizeof *copied; i++) {
        struct stat st;
        snprintf(src, sizeof src, "%s/%s", u->from, copied[i]);
        snprintf(dst, sizeof dst, "%s/%s", dir, copied[i]);
        if (stat(src, &st) == 0)
            rc = hsim_report_copy(src, dst, e);
    }
    for (size_t k = 0; rc == 0 && k < x->n_policies; k++) {
        snprintf(src, sizeof src, "%s/%s", x->runs[s * x->n_policies + k].from, x->policies[k]);
        snprintf(dst, sizeof dst, "%s/%s", dir, x->policies[k]);
        rc = copy_tree(src, dst, 0, e);
    }
    snprintf(dst, sizeof dst, "%s/summary.csv", dir);
    if (rc == 0)
        rc = write_joined(dst, u->header, x, s, 0, e);
    snprintf(dst, sizeof dst, "%s/classes.csv", dir);
    if (rc == 0)
        rc = write_joined(dst, HSIM_CLASSES_HEADER, x, s, 1, e);
    snprintf(dst, sizeof dst, "%s/workflows.csv", dir);
    if (rc == 0 && u->workflows)
        rc = write_joined(dst, HSIM_WORKFLOWS_HEADER, x, s, 2, e);
    double(*fig)[HSIM_MAX_POLICIES] = rc ? NULL : hsim_calloc(HSIM_FIGS, sizeof *fig);
    if (rc == 0 && !fig)
        rc = HSIM_ENOMEM;
    const char *labels[HSIM_MAX_POLICIES];
    for (size_t k = 0; rc == 0 && k < x->n_policies; k++) {
        labels[k] = x->policies[k];
        for (size_t f = 0; f < HSIM_FIGS; f++)
            fig[f][k] = x->runs[s * x->n_policies + k].fig[f];
    }
    if (rc == 0)
        rc = hsim_experiment_chart(dir, x->name, labels, x->n_policies, fig, u->cluster,
                                   u->gpus, e);
    hsim_free(fig);
    return rc ? rc : hsim_plot_from(dir, NULL, e);
}

/* Writes experiment x into out/<name>/: each unit, then a repeat's means. */
static int write_exp(const mexp_t *x, const char *out, hsim_err_t *e)
{
    path_t top;
    snprintf(top, sizeof top, "%s/%s", out, x->name);
    int lock = -1, rc = hsim_mkdirs(top, e);
    if (rc == 0) {
        const char *subdirs[HSIM_MAX_POLICIES];
        for (size_t k = 0; k < x->n_policies; k++)
            subdirs[k] = x->policies[k];
        rc = hsim_results_lock(top, subdirs, x->n_policies, &lock, e);
    }
    for (size_t s = 0; rc == 0 && s < x->repeat; s++)
        rc = write_unit(x, top, s, e);
    if (rc == 0 && x->repeat > 1) {
        const char *names[HSIM_MAX_POLICIES];
        for (size_t k = 0; k < x->n_policies; k++)
            names[k] = x->policies[k];
        char **rows = hsim_calloc(x->repeat * x->n_policies, sizeof *rows);
        if (!rows)
            rc = HSIM_ENOMEM;
        for (size_t i = 0; rc == 0 && i < x->repeat * x->n_policies; i++)
            rows[i] = x->runs[i].summary;
        hsim_repeat_t rp = {
            .dir = top, .title = x->name, .path = top, .names = names,
            .n_policies = x->n_policies, .repeats = x->repeat, .header = x->units[0].header,
            .rows = rows, .cluster = x->units[0].cluster, .gpus = x->units[0].gpus,
        };
        if (rc == 0)
            rc = hsim_repeat_write(&rp, NULL, e);
        hsim_free(rows);
        path_t first;
        unit_dir(x, top, 0, first, sizeof first);
        if (rc == 0)
            rc = hsim_plot_from(top, first, e);
    }
    hsim_results_unlock(top, lock);
    return rc;
}

static void merge_free(merge_t *m)
{
    for (size_t i = 0; i < m->n; i++) {
        mexp_t *x = &m->exps[i];
        for (size_t s = 0; x->units && s < x->repeat; s++)
            hsim_free(x->units[s].header);
        for (size_t t = 0; x->runs && t < x->repeat * x->n_policies; t++) {
            hsim_free(x->runs[t].summary);
            hsim_free(x->runs[t].classes);
            hsim_free(x->runs[t].workflows);
        }
        hsim_free(x->units);
        hsim_free(x->runs);
        hsim_free(x->seen);
    }
    hsim_free(m->exps);
}

int hsim_merge_main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: hsim merge OUT SHARD_DIR...\n"
                        "  joins the folders <output>/shard-I-of-N that hsim --shard I/N "
                        "wrote into OUT/<name>/\n");
        return 2;
    }
    merge_t m;
    memset(&m, 0, sizeof m);
    hsim_err_t e = {{0}};
    int rc = 0;
    for (int i = 3; i < argc && rc == 0; i++)
        rc = read_shard_dir(&m, argv[i], &e);
    for (size_t i = 0; i < m.n && rc == 0; i++)
        rc = complete(&m.exps[i], &e);
    for (size_t i = 0; i < m.n && rc == 0; i++) {
        rc = write_exp(&m.exps[i], argv[2], &e);
        if (rc == 0)
            fprintf(stderr, "hsim merge: %s: %d shards -> %s/%s/\n", m.exps[i].name,
                    m.exps[i].shards, argv[2], m.exps[i].name);
    }
    merge_free(&m);
    if (rc == HSIM_ENOMEM)
        fprintf(stderr, "hsim merge: out of memory\n");
    else if (rc)
        fprintf(stderr, "hsim merge: %s\n", e.msg);
    return rc == 0 ? 0 : rc == HSIM_EINPUT ? 2 : 1;
}
