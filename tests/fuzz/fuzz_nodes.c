/*
 * fuzz_nodes.c - libFuzzer target for the cluster built from an Alibaba node
 * list ([cluster] alibaba_nodes = FILE): the list's reader, the node types
 * made of its shapes, a generated workload sized for them, and replays.
 *
 * Input layout: byte 0 picks the workload (modulo 3: lublin, dl, mix),
 * the rest is the node list, written to a temporary file of this process.
 * What must hold for every input:
 *   - hsim_alibaba_nodes_read() returns 0 or HSIM_EINPUT, and a list it
 *     reads has at least one node (a header alone made a cluster of none);
 *   - the INI that names the list parses, and hsim_spec_types() agrees with
 *     the reader: an error when it failed, else node types (one per shape,
 *     each with cores >= 1) of as many nodes as the list has rows, or an
 *     error for more shapes than HSIM_MAX_NODE_TYPES;
 *   - the workload loads or fails with HSIM_EINPUT (a cluster too small for
 *     the generator); when it loads, hsim_spec_build() and
 *     hsim_spec_reject_impossible() work and, on clusters of at most
 *     MAX_CORES cores, FCFS with first-fit, EASY with best-fit and
 *     conservative with heterogeneity-aware placement (spread) replay it
 *     with every job started after its submission (and, as the fuzz build
 *     has HSIM_INVARIANTS on, the engine's invariants after every event);
 *   - hsim's live allocations are back where they were.
 */
#include "fuzz.h"

#include "sim/cluster.h"
#include "sim/config.h"
#include "sim/experiment.h"
#include "sim/spec.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const formats[] = {"lublin", "dl", "mix"};

/* Larger clusters are built, not replayed: a lublin job sized for a
   640,000-core node spread one core per node takes seconds (not a hang). */
#define MAX_CORES 20000

/* The experiment: format's 20 jobs on the node list at path. */
static void make_ini(char *buf, size_t size, const char *format, const char *path)
{
    snprintf(buf, size,
             "[experiment]\nname = fuzz\n[workload]\nformat = %s\njobs = 20\nusers = 3\n"
             "%s[cluster]\nalibaba_nodes = %s\n"
             "[policy fcfs]\nplacement = first-fit\n"
             "[policy easy]\nbackfill = easy\nplacement = best-fit\n"
             "[policy cons]\nbackfill = conservative\nplacement = heterogeneity-aware\n"
             "spread = spread\n",
             format, strcmp(format, "mix") ? "" : "max_job_cores = 3\n", path);
}

/* The list read alone: its rc, and its rows in *rows. */
static int read_list(const char *path, size_t *rows)
{
    hsim_alibaba_node_t *nodes;
    hsim_err_t e = {{0}};
    int rc = hsim_alibaba_nodes_read(path, &nodes, rows, &e);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "nodes_read rc %d: %s", rc, e.msg);
    FUZZ_CHECK(rc || *rows >= 1, "a node list of no nodes read without an error");
    for (size_t i = 0; i < *rows; i++)
        FUZZ_CHECK(nodes[i].cpu_milli >= 0 && nodes[i].memory_mib >= 0 && nodes[i].gpus >= 0,
                   "node %zu: cpu_milli %d memory %lld GPUs %d", i, nodes[i].cpu_milli,
                   (long long)nodes[i].memory_mib, nodes[i].gpus);
    hsim_free(nodes);
    return rc;
}

/* The node types of c against the list's rc and rows. */
static int check_types(const hsim_config_t *c, int list_rc, size_t rows)
{
    hsim_node_type_t types[HSIM_MAX_NODE_TYPES];
    size_t nt = 0;
    hsim_err_t e = {{0}};
    int rc = hsim_spec_types(c, types, &nt, &e);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "spec_types rc %d: %s", rc, e.msg);
    FUZZ_CHECK(!list_rc || rc, "the list failed, its types did not");
    if (rc)
        return rc;
    int64_t nodes = 0;
    FUZZ_CHECK(nt >= 1 && nt <= HSIM_MAX_NODE_TYPES, "%zu node types", nt);
    for (size_t i = 0; i < nt; i++) {
        FUZZ_CHECK(types[i].count >= 1 && types[i].cores >= 1 && types[i].mem_mb >= 0 &&
                       types[i].gpus >= 0,
                   "type %s: count %d cores %d memory %lld GPUs %d", types[i].name,
                   types[i].count, types[i].cores, (long long)types[i].mem_mb, types[i].gpus);
        nodes += types[i].count;
    }
    FUZZ_CHECK(nodes == (int64_t)rows, "%lld nodes in the types, %zu rows", (long long)nodes,
               rows);
    return 0;
}

/* Loads the workload, builds the cluster and replays every policy. */
static void check_runs(hsim_config_t *c)
{
    hsim_workload_t w;
    int32_t capacity = 0;
    hsim_err_t e = {{0}};
    int rc = hsim_experiment_load(c, &w, &capacity, &e);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "experiment_load rc %d: %s", rc, e.msg);
    if (rc)
        return;
    hsim_spec_t s;
    memset(&s, 0, sizeof s);
    rc = hsim_spec_build(c, &w, &s, &e);
    FUZZ_CHECK(rc == 0, "spec_build rc %d: %s (the types built before)", rc, e.msg);
    FUZZ_CHECK(hsim_spec_reject_impossible(&s, &w) == 0, "reject_impossible: out of memory");
    hsim_cluster_t cl;
    FUZZ_CHECK(hsim_cluster_init(&cl, s.types, s.spec.n_types) == 0, "out of memory");
    int32_t cores = cl.total_cores > INT32_MAX ? INT32_MAX : (int32_t)cl.total_cores;
    int replay = cl.total_cores <= MAX_CORES;
    hsim_cluster_free(&cl);
    hsim_outcome_t *out = calloc(w.n_jobs ? w.n_jobs : 1, sizeof *out);
    FUZZ_CHECK(out, "out of memory");
    for (size_t i = 0; i < c->n_policies && w.n_jobs && replay; i++) {
        const hsim_policy_config_t *p = &c->policies[i];
        hsim_run_config_t cfg = {
            .capacity = cores,
            .order = p->order,
            .backfill_order = p->backfill_order,
            .scheduler = p->scheduler,
            .predictor = p->predictor,
            .cluster = &s.spec,
            .placement = p->placement,
            .spread = p->spread,
        };
        rc = fuzz_replay(&w, &cfg, p->name, out, &e);
        FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "policy %s: engine rc %d: %s", p->name, rc,
                   e.msg);
    }
    free(out);
    hsim_spec_free(&s);
    hsim_workload_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    long live = hsim_alloc_live();
    char path[512], ini[1024];
    fuzz_temp_path(path, sizeof path, "nodes.csv");
    fuzz_write_file(path, data + 1, size - 1);
    size_t rows = 0;
    int list_rc = read_list(path, &rows);
    make_ini(ini, sizeof ini, formats[data[0] % 3], path);
    hsim_config_t *c = calloc(1, sizeof *c);
    FUZZ_CHECK(c, "out of memory");
    hsim_err_t e = {{0}};
    FUZZ_CHECK(hsim_config_parse_string(ini, "fuzz.ini", c, &e) == 0, "the INI: %s", e.msg);
    if (check_types(c, list_rc, rows) == 0)
        check_runs(c);
    free(c);
    unlink(path);
    fuzz_check_no_leak(live);
    return 0;
}
