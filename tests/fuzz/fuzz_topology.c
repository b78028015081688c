/*
 * fuzz_topology.c - libFuzzer target for node topologies read from hwloc
 * XML exports (sim/topology.h), and the cluster built on such a node.
 *
 * One input is one XML file ([nodes] topology = xml:FILE), written to a
 * temporary file of this process.  What must hold for every input:
 *   - hsim_topology_load() returns 0 or HSIM_EINPUT, never crashes, and its
 *     message starts with the place that named the file; on error the shape
 *     is zeroed;
 *   - a shape read has what topology.h promises: cores >= 1, PUs >= cores,
 *     NUMA nodes and packages >= 1, memory below 2^63 bytes (a negative
 *     local_memory once read as 2^64 - 1 bytes, 2^44 MiB), GPU memory up to
 *     HSIM_NODE_MEM_MAX_MB, at most HSIM_NODE_DEVICES_MAX GPUs and FPGAs, strings
 *     ended within their arrays;
 *   - loading it twice gives the same shape (hwloc keeps no state);
 *   - a cluster of two such nodes builds, and a job of one node's cores
 *     (and GPUs) fits on it;
 *   - hsim's live allocations are back where they were.
 */
#include "fuzz.h"

#include "sim/cluster.h"
#include "sim/topology.h"

#include <hwloc.h>
#include <string.h>
#include <unistd.h>

#define WHERE "fuzz.ini:3"

/* A topology kept for the whole process, never loaded: while one lives,
   hwloc keeps its plugins loaded (hwloc_xml_libxml.so reads the XML).
   Unloaded after each input, the plugin took libxml2's global state with
   it, which LeakSanitizer reported as a leak of "<unknown module>". */
static hwloc_topology_t keep_plugins;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    FUZZ_CHECK(hwloc_topology_init(&keep_plugins) == 0, "hwloc_topology_init");
    return 0;
}

/* What topology.h promises of a shape read. */
static void check_shape(const hsim_node_shape_t *s)
{
    FUZZ_CHECK(s->cores >= 1 && s->pus >= s->cores && s->numa >= 1 && s->packages >= 1,
               "cores %d PUs %d NUMA %d packages %d", s->cores, s->pus, s->numa, s->packages);
    /* in bytes, below 2^63: a negative local_memory, wrapped, is 2^64 - 1 */
    FUZZ_CHECK(s->memory_mb >= 0 && s->memory_mb <= INT64_MAX / (1 << 20) &&
                   s->gpu_memory_mb >= 0 && s->gpu_memory_mb <= HSIM_NODE_MEM_MAX_MB,
               "memory %lld MiB, GPU memory %lld MiB", (long long)s->memory_mb,
               (long long)s->gpu_memory_mb);
    FUZZ_CHECK(s->gpus >= 0 && s->gpus <= HSIM_NODE_DEVICES_MAX && s->fpgas >= 0 &&
                   s->fpgas <= HSIM_NODE_DEVICES_MAX,
               "%d GPUs, %d FPGAs", s->gpus, s->fpgas);
    FUZZ_CHECK(memchr(s->gpu_model, '\0', sizeof s->gpu_model) &&
                   memchr(s->desc, '\0', sizeof s->desc),
               "a string not ended");
}

/* Two nodes of shape s, as a [nodes] section with no keys makes them. */
static void check_cluster(const hsim_node_shape_t *s)
{
    hsim_node_type_t t;
    memset(&t, 0, sizeof t);
    hsim_strlcpy(t.name, "fuzz", sizeof t.name);
    t.count = 2;
    t.cores = s->cores;
    t.mem_mb = s->memory_mb;
    t.gpus = s->gpus;
    t.fpgas = s->fpgas;
    t.speed = 1;
    if (s->gpus)
        hsim_strlcpy(t.gpu_model, s->gpu_model[0] ? s->gpu_model : "gpu", sizeof t.gpu_model);
    t.gpu_mem_mb = s->gpu_memory_mb;
    hsim_cluster_t c;
    FUZZ_CHECK(hsim_cluster_init(&c, &t, 1) == 0, "out of memory");
    FUZZ_CHECK(c.n_nodes == 2 && c.total_cores == 2 * (int64_t)s->cores &&
                   c.total_gpus == 2 * (int64_t)s->gpus,
               "%zu nodes, %lld cores, %lld GPUs", c.n_nodes, (long long)c.total_cores,
               (long long)c.total_gpus);
    FUZZ_CHECK(hsim_node_fits(&c, 1, s->cores, s->memory_mb, s->gpus, 1000, s->fpgas),
               "a node's own cores, memory, GPUs and FPGAs do not fit on it");
    hsim_cluster_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    long live = hsim_alloc_live();
    char path[512], spec[600];
    fuzz_temp_path(path, sizeof path, "topology.xml");
    snprintf(spec, sizeof spec, "xml:%s", path);
    fuzz_write_file(path, data, size);
    hsim_node_shape_t s, again;
    hsim_err_t e = {{0}};
    int rc = hsim_topology_load(spec, NULL, WHERE, &s, &e);
    FUZZ_CHECK(rc == 0 || rc == HSIM_EINPUT, "rc %d: %s", rc, e.msg);
    if (rc) {
        hsim_node_shape_t zero;
        memset(&zero, 0, sizeof zero);
        FUZZ_CHECK(!memcmp(&s, &zero, sizeof s), "shape not zeroed on error");
        FUZZ_CHECK(!strncmp(e.msg, WHERE ": ", strlen(WHERE) + 2), "message '%s'", e.msg);
    } else {
        check_shape(&s);
        hsim_err_t e2 = {{0}};
        FUZZ_CHECK(hsim_topology_load(spec, NULL, WHERE, &again, &e2) == 0 &&
                       !memcmp(&s, &again, sizeof s),
                   "a second load differs: %s", e2.msg);
        check_cluster(&s);
    }
    unlink(path);
    fuzz_check_no_leak(live);
    return 0;
}
