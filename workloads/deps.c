/*
 * deps.c - resolving a workload's dependencies: job numbers to indices,
 * rejected parents, cycles, workflows.
 *
 * The graph is small beside the workload (an edge per dependent job, or a
 * few), so it is resolved once, at load, into arrays by job index that the
 * engine and the workflow report only read.  Job numbers are looked up by
 * binary search in a sorted copy of (id, index): a trace's numbers need
 * not be dense, nor in order.
 */
#include "deps.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct id_index {
    int64_t id;
    int32_t index;          /* into w->jobs, or -1 - k for w->rejected[k] */
} id_index_t;

/* An edge by index while resolving. */
typedef struct edge {
    int32_t child, parent;  /* job indices (into w->jobs) */
    hsim_time_t think;
    int64_t line;           /* edges' file line, 0 = SWF field or generator */
    uint8_t from_swf;
} edge_t;

typedef struct resolver {
    hsim_workload_t *w;
    const char *shown;      /* the edges' file as messages name it */
    id_index_t *ids;        /* jobs then rejections, sorted by id */
    size_t n_ids;
    edge_t *edges;
    size_t n_edges, cap_edges;
    uint8_t *doomed;        /* [n_jobs] to be rejected: a parent was */
    int64_t *doomed_by;     /* [n_jobs] the rejected parent's number */
    hsim_err_t *e;
} resolver_t;

static int by_id(const void *a, const void *b)
{
    const id_index_t *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->index < y->index) - (x->index > y->index); /* jobs (>= 0) first */
}

/* The entry for job number id: a job (index >= 0) before a rejection with
   the same number; NULL when neither has it.  O(log n). */
static const id_index_t *find_id(const resolver_t *r, int64_t id)
{
    size_t lo = 0, hi = r->n_ids;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->ids[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->n_ids && r->ids[lo].id == id ? &r->ids[lo] : NULL;
}

static int make_ids(resolver_t *r)
{
    const hsim_workload_t *w = r->w;
    size_t n = w->n_jobs + w->n_rejected;
    r->ids = hsim_malloc((n ? n : 1) * sizeof *r->ids);
    if (!r->ids)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < w->n_jobs; i++)
        r->ids[r->n_ids++] = (id_index_t){w->jobs[i].id, (int32_t)i};
    for (size_t k = 0; k < w->n_rejected; k++)
        if (w->rejected[k].id >= 0)
            r->ids[r->n_ids++] = (id_index_t){w->rejected[k].id, -1 - (int32_t)k};
    qsort(r->ids, r->n_ids, sizeof *r->ids, by_id);
    return 0;
}

static int add_edge(resolver_t *r, const edge_t *x)
{
    if (hsim_grow(&r->edges, &r->cap_edges, r->n_edges + 1, sizeof *r->edges))
        return HSIM_ENOMEM;
    r->edges[r->n_edges++] = *x;
    return 0;
}

/* Where an edge was given, for messages: "deps.csv:12" or "the generator"
   or "SWF field 17". */
static const char *edge_origin(const resolver_t *r, const edge_t *x, char *buf, size_t size)
{
    if (x->line > 0)
        snprintf(buf, size, "%s:%lld", r->shown, (long long)x->line);
    else
        snprintf(buf, size, "%s", x->from_swf ? "SWF field 17" : "the workflow generator");
    return buf;
}

/* Adds the edge job <- parent by numbers.  A job or parent that is
   rejected already: the child is doomed (or nothing, when it is the child
   that was rejected).  Missing numbers: ignored when lenient (an SWF
   predecessor outside the excerpt), else an error at where. */
static int edge_by_ids(resolver_t *r, int64_t job, int64_t parent, hsim_time_t think,
                       int64_t line, int from_swf, int lenient)
{
    const id_index_t *c = find_id(r, job), *p = find_id(r, parent);
    edge_t x = {.line = line, .from_swf = (uint8_t)from_swf, .think = think};
    char at[1100];
    if (!c || !p) {
        if (lenient)
            return 0;
        return hsim_errf(r->e, HSIM_EINPUT,
                         "%s: job %lld depends on job %lld, but job %lld is not in the workload "
                         "(neither run nor rejected)",
                         edge_origin(r, &x, at, sizeof at), (long long)job, (long long)parent,
                         (long long)(c ? parent : job));
    }
    if (c->index < 0)
        return 0; /* the child is rejected already: nothing waits */
    if (p->index < 0) {
        if (!r->doomed[c->index]) {
            r->doomed[c->index] = 1;
            r->doomed_by[c->index] = parent;
        }
        return 0;
    }
    x.child = c->index;
    x.parent = p->index;
    return add_edge(r, &x);
}

static int parse_id(const char *s, int64_t *v)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    char *end;
    long long x = strtoll(s, &end, 10);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

/* One line of the edges' file, for hsim_read_lines(). */
typedef struct edges_read {
    resolver_t *r;
    int seen_header;
} edges_read_t;

static int edge_line(void *ctx, int64_t line, char **fields, size_t n, const char *s)
{
    edges_read_t *er = ctx;
    resolver_t *r = er->r;
    if (!er->seen_header) {
        er->seen_header = 1;
        if (n >= 1 && !isdigit((unsigned char)fields[0][0])) {
            if (n != 2 || strcmp(fields[0], "job") || strcmp(fields[1], "depends_on"))
                return hsim_errf(r->e, HSIM_EINPUT,
                                 "%s:%lld: expected the header 'job,depends_on', found '%s'",
                                 r->shown, (long long)line, s);
            return 0;
        }
    }
    int64_t job, parent;
    if (n != 2)
        return hsim_errf(r->e, HSIM_EINPUT, "%s:%lld: expected 2 fields (job,depends_on), "
                         "found %zu", r->shown, (long long)line, n);
    if (parse_id(fields[0], &job))
        return hsim_errf(r->e, HSIM_EINPUT, "%s:%lld: field 1 (job): expected a job number, "
                         "found '%s'", r->shown, (long long)line, fields[0]);
    if (parse_id(fields[1], &parent))
        return hsim_errf(r->e, HSIM_EINPUT, "%s:%lld: field 2 (depends_on): expected a job "
                         "number, found '%s'", r->shown, (long long)line, fields[1]);
    return edge_by_ids(r, job, parent, 0, line, 0, 0);
}

/* Reads the CSV of edges at r's path. */
static int read_edges(resolver_t *r, const char *path)
{
    edges_read_t er = {.r = r};
    return hsim_read_lines(path, r->shown, 1022, edge_line, &er, r->e);
}

static int by_parent(const void *a, const void *b)
{
    const edge_t *x = a, *y = b;
    if (x->parent != y->parent)
        return x->parent < y->parent ? -1 : 1;
    return (x->child > y->child) - (x->child < y->child);
}

/* The error for a cycle among the jobs left with parents after a
   topological sort (left[i] > 0): from one of them, follow parents that
   are left until one repeats, and name that loop with its edges'
   origins. */
static int cycle_error(resolver_t *r, const int32_t *left)
{
    const hsim_workload_t *w = r->w;
    size_t n = w->n_jobs;
    int32_t *next = hsim_malloc(n * sizeof *next);  /* a parent left, by edge */
    size_t *via = hsim_malloc(n * sizeof *via);
    int32_t *mark = hsim_calloc(n, sizeof *mark);
    if (!next || !via || !mark) {
        hsim_free(next);
        hsim_free(via);
        hsim_free(mark);
        return HSIM_ENOMEM;
    }
    int32_t start = -1;
    for (size_t i = 0; i < n; i++)
        next[i] = -1;
    for (size_t k = 0; k < r->n_edges; k++) {
        const edge_t *x = &r->edges[k];
        if (left[x->child] > 0 && left[x->parent] > 0 && next[x->child] < 0) {
            next[x->child] = x->parent;
            via[x->child] = k;
            if (start < 0)
                start = x->child;
        }
    }
    HSIM_ASSERT(start >= 0);
    int32_t v = start;
    while (!mark[v]) { /* every job left has a parent left: this ends */
        mark[v] = 1;
        v = next[v];
    }
    char msg[900], at[1100];
    size_t len = (size_t)snprintf(msg, sizeof msg, "a cycle of dependencies:");
    int32_t u = v;
    do {
        const edge_t *x = &r->edges[via[u]];
        if (len < sizeof msg)
            len += (size_t)snprintf(msg + len, sizeof msg - len, "%s job %lld waits for job %lld (%s)",
                                    u == v ? "" : ",", (long long)w->jobs[u].id,
                                    (long long)w->jobs[next[u]].id, edge_origin(r, x, at, sizeof at));
        u = next[u];
    } while (u != v);
    hsim_free(next);
    hsim_free(via);
    hsim_free(mark);
    return hsim_errf(r->e, HSIM_EINPUT, "%s: %s", r->shown, msg);
}

/* Kahn's sort of the jobs by r's edges (sorted by parent, with first[]
   their CSR offsets) into order[].  0, or the cycle's error. */
static int topo_sort(resolver_t *r, const size_t *first, int32_t *order)
{
    size_t n = r->w->n_jobs, head = 0, tail = 0;
    int32_t *left = hsim_calloc(n ? n : 1, sizeof *left);
    if (!left)
        return HSIM_ENOMEM;
    for (size_t k = 0; k < r->n_edges; k++)
        left[r->edges[k].child]++;
    for (size_t i = 0; i < n; i++)
        if (left[i] == 0)
            order[tail++] = (int32_t)i;
    while (head < tail) {
        int32_t v = order[head++];
        for (size_t k = first[v]; k < first[v + 1]; k++)
            if (--left[r->edges[k].child] == 0)
                order[tail++] = r->edges[k].child;
    }
    int rc = tail == n ? 0 : cycle_error(r, left);
    hsim_free(left);
    return rc;
}

/* Moves the doomed jobs (and, in topological order, their descendants)
   to w->rejected and renumbers the edges that remain.  0 or
   HSIM_ENOMEM. */
static int reject_doomed(resolver_t *r, const size_t *first, const int32_t *order)
{
    hsim_workload_t *w = r->w;
    size_t n = w->n_jobs, any = 0;
    for (size_t k = 0; k < n; k++) {
        int32_t v = order[k];
        if (!r->doomed[v])
            continue;
        any++;
        for (size_t x = first[v]; x < first[v + 1]; x++) {
            int32_t c = r->edges[x].child;
            if (!r->doomed[c]) {
                r->doomed[c] = 1;
                r->doomed_by[c] = w->jobs[v].id;
            }
        }
    }
    if (!any)
        return 0;
    int32_t *renum = hsim_malloc(n * sizeof *renum);
    if (!renum)
        return HSIM_ENOMEM;
    size_t kept = 0;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (!r->doomed[i]) {
            renum[i] = (int32_t)kept;
            w->jobs[kept++] = w->jobs[i];
            continue;
        }
        renum[i] = -1;
        char why[96];
        snprintf(why, sizeof why, "its parent %lld was rejected", (long long)r->doomed_by[i]);
        if (!rc && (rc = hsim_workload_reject(w, w->jobs[i].id, w->jobs[i].line, why)) == 0)
            w->rejected[w->n_rejected - 1].name = w->jobs[i].name;
    }
    w->n_jobs = kept;
    size_t m = 0;
    for (size_t k = 0; k < r->n_edges; k++) {
        edge_t x = r->edges[k];
        if (renum[x.child] < 0 || renum[x.parent] < 0)
            continue;
        x.child = renum[x.child];
        x.parent = renum[x.parent];
        r->edges[m++] = x;
    }
    r->n_edges = m;
    hsim_free(renum);
    return rc;
}

static int32_t find_root(int32_t *up, int32_t v)
{
    while (up[v] != v) {
        up[v] = up[up[v]];
        v = up[v];
    }
    return v;
}

/* Numbers the workflows: weakly connected components with an edge, in
   the order of their first job. */
static int number_workflows(hsim_deps_t *d)
{
    size_t n = d->n_jobs;
    int32_t *up = hsim_malloc((n ? n : 1) * sizeof *up);
    if (!up)
        return HSIM_ENOMEM;
    for (size_t i = 0; i < n; i++)
        up[i] = (int32_t)i;
    for (size_t p = 0; p < n; p++)
        for (size_t k = d->child_first[p]; k < d->child_first[p + 1]; k++) {
            int32_t a = find_root(up, (int32_t)p), b = find_root(up, d->child[k]);
            if (a != b)
                up[a > b ? a : b] = a < b ? a : b; /* the first job is the root */
        }
    for (size_t i = 0; i < n; i++)
        d->workflow[i] = -1;
    for (size_t i = 0; i < n; i++) {
        int32_t root = find_root(up, (int32_t)i);
        int linked = d->n_parents[i] > 0 || d->child_first[i + 1] > d->child_first[i];
        if (!linked)
            continue;
        if (d->workflow[root] < 0)
            d->workflow[root] = (int32_t)d->n_workflows++;
        d->workflow[i] = d->workflow[root];
    }
    hsim_free(up);
    return 0;
}

/* Builds w->deps from r's edges (by index, after the rejections). */
static int build(resolver_t *r)
{
    hsim_workload_t *w = r->w;
    size_t n = w->n_jobs, m = r->n_edges, nn = n ? n : 1;
    hsim_deps_t *d = hsim_calloc(1, sizeof *d);
    if (!d)
        return HSIM_ENOMEM;
    w->deps = d;
    d->n_jobs = n;
    d->n_edges = m;
    d->n_parents = hsim_calloc(nn, sizeof *d->n_parents);
    d->child_first = hsim_calloc(n + 1, sizeof *d->child_first);
    d->child = hsim_malloc((m ? m : 1) * sizeof *d->child);
    d->think = hsim_malloc((m ? m : 1) * sizeof *d->think);
    d->feedback = hsim_calloc(nn, sizeof *d->feedback);
    d->order = hsim_malloc(nn * sizeof *d->order);
    d->workflow = hsim_malloc(nn * sizeof *d->workflow);
    if (!d->n_parents || !d->child_first || !d->child || !d->think || !d->feedback ||
        !d->order || !d->workflow)
        return HSIM_ENOMEM;
    if (m) /* (edges is NULL without any: qsort wants a pointer) */
        qsort(r->edges, m, sizeof *r->edges, by_parent);
    for (size_t k = 0; k < m; k++) {
        const edge_t *x = &r->edges[k];
        d->child_first[x->parent + 1]++;
        d->n_parents[x->child]++;
        d->child[k] = x->child;
        d->think[k] = x->think;
        if (x->from_swf)
            d->feedback[x->child] = 1;
    }
    for (size_t i = 0; i < n; i++)
        d->child_first[i + 1] += d->child_first[i];
    int rc = topo_sort(r, d->child_first, d->order);
    return rc ? rc : number_workflows(d);
}

int hsim_deps_resolve(hsim_workload_t *w, const hsim_deps_options_t *o, hsim_err_t *e)
{
    HSIM_ASSERT(!w->deps);
    int has_file = o->path && o->path[0];
    int swf = 0;
    for (size_t i = 0; o->from_swf && i < w->n_jobs && !swf; i++)
        swf = w->jobs[i].after > 0;
    if (!has_file && !swf && w->n_dep_edges == 0)
        return 0; /* nothing waits: no graph at all */
    resolver_t r = {.w = w, .e = e, .shown = o->shown ? o->shown : o->path};
    if (!r.shown)
        r.shown = "dependencies";
    size_t n = w->n_jobs;
    r.doomed = hsim_calloc(n ? n : 1, 1);
    r.doomed_by = hsim_calloc(n ? n : 1, sizeof *r.doomed_by);
    int rc = r.doomed && r.doomed_by ? make_ids(&r) : HSIM_ENOMEM;
    for (size_t i = 0; rc == 0 && swf && i < n; i++) {
        const hsim_job_t *j = &w->jobs[i];
        if (j->after > 0)
            rc = edge_by_ids(&r, j->id, j->after, j->think > 0 ? j->think : 0, 0, 1, 1);
    }
    for (size_t k = 0; rc == 0 && k < w->n_dep_edges; k++) {
        const hsim_dep_edge_t *x = &w->dep_edges[k];
        rc = edge_by_ids(&r, x->job, x->parent, x->think, x->line, 0, 0);
    }
    if (rc == 0 && has_file)
        rc = read_edges(&r, o->path);
    /* a first sort finds cycles and the order in which rejections pass
       from parent to child; build() sorts again what is left */
    int32_t *order = NULL;
    size_t *first = NULL;
    if (rc == 0) {
        order = hsim_malloc((n ? n : 1) * sizeof *order);
        first = hsim_calloc(n + 1, sizeof *first);
        rc = order && first ? 0 : HSIM_ENOMEM;
    }
    if (rc == 0) {
        if (r.n_edges) /* (edges is NULL without any: qsort wants a pointer) */
            qsort(r.edges, r.n_edges, sizeof *r.edges, by_parent);
        for (size_t k = 0; k < r.n_edges; k++)
            first[r.edges[k].parent + 1]++;
        for (size_t i = 0; i < n; i++)
            first[i + 1] += first[i];
        rc = topo_sort(&r, first, order);
    }
    if (rc == 0)
        rc = reject_doomed(&r, first, order);
    if (rc == 0)
        rc = build(&r);
    hsim_free(order);
    hsim_free(first);
    hsim_free(r.ids);
    hsim_free(r.edges);
    hsim_free(r.doomed);
    hsim_free(r.doomed_by);
    hsim_free(w->dep_edges);
    w->dep_edges = NULL;
    w->n_dep_edges = w->cap_dep_edges = 0;
    if (rc) {
        hsim_deps_free(w->deps);
        w->deps = NULL;
    }
    return rc;
}

void hsim_deps_free(hsim_deps_t *d)
{
    if (!d)
        return;
    hsim_free(d->n_parents);
    hsim_free(d->child_first);
    hsim_free(d->child);
    hsim_free(d->think);
    hsim_free(d->feedback);
    hsim_free(d->order);
    hsim_free(d->workflow);
    hsim_free(d);
}

int hsim_deps_add_edge(hsim_workload_t *w, const hsim_dep_edge_t *edge)
{
    if (hsim_grow(&w->dep_edges, &w->cap_dep_edges, w->n_dep_edges + 1, sizeof *w->dep_edges))
        return HSIM_ENOMEM;
    w->dep_edges[w->n_dep_edges++] = *edge;
    return 0;
}
