/*
 * gpu_alibaba.c - the Alibaba GPU cluster trace 2023 (cluster-trace-gpu-
 * v2023, the FGD paper's "openb" cluster): pods as jobs, nodes as a cluster.
 *
 * A pod asks for CPU in milli-cores, memory, whole GPUs or a share of one
 * GPU (gpu_milli: 460 = 46% of one GPU), and may accept only some GPU models
 * (gpu_spec "V100M16|V100M32").  Times are whole seconds from the trace's
 * start.  The pod held its resources from scheduled_time to deletion_time,
 * so that is its runtime; when it was created is its submission, and the
 * scheduler under test decides its wait.  Pods that never ran (Pending, no
 * scheduled_time) are rejected with the reason, not dropped.  Pods still
 * Running at the end of the trace carry its end as deletion_time: their
 * runtime is cut there, as the trace's own simulator cuts it.
 *
 * hsim_job_t counts whole cores, so a pod's CPU is rounded up:
 * procs = max(1, ceil(cpu_milli / 1000)).  Node capacities keep milli-cores.
 */
#include "gpu_rows.h"
#include "../sim/cluster.h" /* the limits of a node */

#include <stdlib.h>
#include <string.h>

/* "" and pandas' "nan" both mean no value in these files. */
static int is_none(const char *s) { return !*s || !strcmp(s, "nan"); }

/* ---- pods ---- */

enum { POD_NAME, POD_CPU, POD_MEM, POD_GPUS, POD_MILLI, POD_SPEC, POD_PHASE, POD_CREATED,
       POD_DELETED, POD_SCHEDULED, POD_COLUMNS };

static const hsim__column_t pod_columns[POD_COLUMNS] = {
    {"name", 0},          {"cpu_milli", 1},     {"memory_mib", 1},    {"num_gpu", 1},
    {"gpu_milli", 1},     {"gpu_spec", 0},      {"pod_phase", 0},     {"creation_time", 1},
    {"deletion_time", 1}, {"scheduled_time", 1},
};

typedef struct pod_state {
    hsim_gpu_read_options_t o;   /* copy; zeros when the caller gave none */
    hsim_workload_t *w;          /* being filled */
    int col[POD_COLUMNS];        /* field index of each column, -1 absent */
    size_t fields;               /* fields of the header, so of every row */
} pod_state_t;

/* Field i of r, for a column c that is present. */
static size_t fi(const pod_state_t *st, int c) { return (size_t)st->col[c]; }

/* gpu_spec "A|B|A" into a bitmask of workload models.  0 or HSIM_EINPUT. */
static int pod_models(pod_state_t *st, const hsim__row_t *r, uint32_t *mask, char *why,
                      size_t size)
{
    *mask = 0;
    if (st->col[POD_SPEC] < 0)
        return 0;
    size_t i = fi(st, POD_SPEC);
    if (is_none(r->f[i]))
        return 0;
    return hsim__field_models(r, i, "gpu_spec", st->w, mask, why, size);
}

/* Makes row r (whose field count is checked) into j, or writes why it
   cannot: HSIM_EINPUT for a malformed row, 1 for a pod that never ran or
   has no positive runtime. */
static int pod_job(pod_state_t *st, const hsim__row_t *r, hsim_job_t *j, char *why,
                   size_t size)
{
    int64_t cpu, mem, gpus, milli;
    hsim_time_t deleted = 0, scheduled = 0;
    int has_deleted = !is_none(r->f[fi(st, POD_DELETED)]);
    int has_scheduled = !is_none(r->f[fi(st, POD_SCHEDULED)]);
    if (hsim__field_int(r, fi(st, POD_CPU), "cpu_milli", 0, INT32_MAX, &cpu, why, size) ||
        hsim__field_int(r, fi(st, POD_MEM), "memory_mib", 0, HSIM_NODE_MEM_MAX_MB, &mem, why,
                        size) ||
        hsim__field_int(r, fi(st, POD_GPUS), "num_gpu", 0, INT32_MAX, &gpus, why, size) ||
        hsim__field_int(r, fi(st, POD_MILLI), "gpu_milli", 0, 1000, &milli, why, size) ||
        pod_models(st, r, &j->gpu_models, why, size) ||
        hsim__field_seconds(r, fi(st, POD_CREATED), "creation_time", &j->submit, why, size) ||
        (has_deleted && hsim__field_seconds(r, fi(st, POD_DELETED), "deletion_time",
                                            &deleted, why, size)) ||
        (has_scheduled && hsim__field_seconds(r, fi(st, POD_SCHEDULED), "scheduled_time",
                                              &scheduled, why, size)))
        return HSIM_EINPUT;
    size_t mi = fi(st, POD_MILLI);
    if (gpus == 0 && milli != 0) {
        snprintf(why, size, "field %zu (gpu_milli): expected 0 for a pod without GPUs, "
                            "found '%.40s'", mi + 1, r->f[mi]);
        return HSIM_EINPUT;
    }
    if (gpus > 0 && milli == 0) {
        snprintf(why, size, "field %zu (gpu_milli): expected 1 to 1000 for a pod with GPUs, "
                            "found '0'", mi + 1);
        return HSIM_EINPUT;
    }
    if (!has_scheduled) {
        const char *phase = st->col[POD_PHASE] >= 0 ? r->f[fi(st, POD_PHASE)] : "";
        snprintf(why, size, "never ran: no scheduled_time (pod_phase '%.20s')", phase);
        return 1;
    }
    if (!has_deleted) {
        snprintf(why, size, "no deletion_time: the end of the pod is unknown");
        return 1;
    }
    j->runtime = deleted - scheduled;
    if (j->runtime <= 0) {
        char buf[32];
        snprintf(why, size, "runtime deletion_time - scheduled_time = %s s, expected > 0",
                 hsim_format_time(buf, sizeof buf, j->runtime));
        return 1;
    }
    j->estimate = j->runtime;
    j->procs = (int32_t)((cpu + 999) / 1000);
    if (j->procs < 1)
        j->procs = 1;
    j->mem_mb = mem;
    j->gpus = (int32_t)gpus;
    j->gpu_milli = (int32_t)milli;
    return 0;
}

static int pod_row(void *ctx, const hsim__row_t *r, hsim_err_t *e)
{
    pod_state_t *st = ctx;
    if (r->index == 0) {
        st->fields = r->n;
        int rc = hsim__header_find(r, pod_columns, POD_COLUMNS, st->col, e);
        int times = 0;
        for (size_t i = 0; i < r->n; i++)
            times += strstr(r->f[i], "_time") != NULL;
        if (rc == HSIM_EINPUT && !times && e) {
            /* openb_pod_list_multigpu50 and its like: pods to pack, no times */
            size_t n = strlen(e->msg);
            snprintf(e->msg + n, sizeof e->msg - n,
                     ": a pod list without creation_time, scheduled_time and "
                     "deletion_time lists pods to place at one instant, not a workload "
                     "to replay (the release's default and gpuspec33 lists have them)");
        }
        return rc;
    }
    hsim_workload_t *w = st->w;
    w->n_input++;
    hsim_job_t j;
    hsim_job_init(&j);
    j.id = r->index; /* data row number: openb-pod-0000 is row 1 */
    j.line = r->line;
    char why[192];
    int rc;
    /* the row may lack fields: check the count before reading any */
    int kind = hsim__row_fields(r, st->fields, why, sizeof why);
    if (!kind && st->col[POD_NAME] >= 0)
        kind = hsim_workload_name(w, r->f[fi(st, POD_NAME)], &j.name);
    if (kind == HSIM_ENOMEM)
        return kind;
    size_t rejected = w->n_rejected;
    if (!kind)
        kind = pod_job(st, r, &j, why, sizeof why);
    if (kind == HSIM_EINPUT)
        rc = hsim__row_bad(r, j.id, st->o.skip_bad_rows, why, w, e);
    else if (kind == 1)
        rc = hsim_workload_reject(w, j.id, j.line, why);
    else
        rc = hsim_workload_add(w, &j);
    if (rc)
        return rc;
    if (w->n_rejected > rejected)
        w->rejected[rejected].name = j.name;
    return st->o.max_jobs && w->n_input >= st->o.max_jobs;
}

int hsim_alibaba_pods_read(const char *path, const hsim_gpu_read_options_t *o,
                           hsim_workload_t *w, hsim_err_t *e)
{
    pod_state_t st = {.w = w};
    if (o)
        st.o = *o;
    int rc = hsim__rows_read(path, ',', pod_row, &st, e);
    if (!rc && st.fields == 0)
        rc = hsim_errf(e, HSIM_EINPUT, "%s:1: expected a header (name,cpu_milli,memory_mib,"
                                       "num_gpu,gpu_milli,...), found an empty file", path);
    return hsim__workload_finish(w, rc);
}

/* ---- nodes ---- */

enum { NODE_NAME, NODE_CPU, NODE_MEM, NODE_GPUS, NODE_MODEL, NODE_COLUMNS };

static const hsim__column_t node_columns[NODE_COLUMNS] = {
    {"sn", 1}, {"cpu_milli", 1}, {"memory_mib", 1}, {"gpu", 1}, {"model", 0},
};

typedef struct node_state {
    hsim_alibaba_node_t *nodes;  /* being filled */
    size_t n, cap;               /* nodes read / allocated */
    int col[NODE_COLUMNS];       /* field index of each column, -1 absent */
    size_t fields;               /* fields of the header, so of every row */
} node_state_t;

static int node_row(void *ctx, const hsim__row_t *r, hsim_err_t *e)
{
    node_state_t *st = ctx;
    if (r->index == 0) {
        st->fields = r->n;
        return hsim__header_find(r, node_columns, NODE_COLUMNS, st->col, e);
    }
    hsim_alibaba_node_t node;
    memset(&node, 0, sizeof node);
    int64_t cpu, mem, gpus;
    char why[192];
    const int *c = st->col;
    if (hsim__row_fields(r, st->fields, why, sizeof why) ||
        hsim__field_text(r, (size_t)c[NODE_NAME], "sn", node.name, sizeof node.name, why,
                         sizeof why) ||
        hsim__field_int(r, (size_t)c[NODE_CPU], "cpu_milli", 0, INT32_MAX, &cpu, why,
                        sizeof why) ||
        hsim__field_int(r, (size_t)c[NODE_MEM], "memory_mib", 0, HSIM_NODE_MEM_MAX_MB, &mem, why,
                        sizeof why) ||
        hsim__field_int(r, (size_t)c[NODE_GPUS], "gpu", 0, HSIM_NODE_DEVICES_MAX, &gpus, why,
                        sizeof why) ||
        (c[NODE_MODEL] >= 0 && !is_none(r->f[c[NODE_MODEL]]) &&
         hsim__field_text(r, (size_t)c[NODE_MODEL], "model", node.model, sizeof node.model,
                          why, sizeof why)))
        return hsim_errf(e, HSIM_EINPUT, "%s:%lld: %s", r->path, (long long)r->line, why);
    node.cpu_milli = (int32_t)cpu;
    node.memory_mib = mem;
    node.gpus = (int32_t)gpus;
    node.line = r->line;
    if (hsim_grow(&st->nodes, &st->cap, st->n + 1, sizeof *st->nodes))
        return HSIM_ENOMEM;
    st->nodes[st->n++] = node;
    return 0;
}

int hsim_alibaba_nodes_read(const char *path, hsim_alibaba_node_t **nodes,
                            size_t *n, hsim_err_t *e)
{
    node_state_t st = {0};
    int rc = hsim__rows_read(path, ',', node_row, &st, e);
    if (!rc && st.fields == 0)
        rc = hsim_errf(e, HSIM_EINPUT, "%s:1: expected a header (sn,cpu_milli,memory_mib,"
                                       "gpu,model), found an empty file", path);
    else if (!rc && st.n == 0) /* a cluster of no nodes: nothing could run */
        rc = hsim_errf(e, HSIM_EINPUT, "%s:1: no nodes: expected a row per node after the "
                                       "header, found the header alone", path);
    if (rc) {
        hsim_free(st.nodes);
        st.nodes = NULL;
        st.n = 0;
    }
    *nodes = st.nodes;
    *n = st.n;
    return rc;
}
