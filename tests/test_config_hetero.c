/*
 * test_config_hetero.c - the INI sections of heterogeneous clusters: [nodes
 * NAME] (sizes, topologies from hwloc, keys that override the topology),
 * [class NAME] speeds, the [workload] keys of GPU traces and generators,
 * placement and spread in [policy NAME], every kind of mistake with the
 * line it must name, and the resolution of class speeds by hsim_spec_build.
 */
#include "harness.h"

#include "policies/placement.h"
#include "sim/spec.h"

#include <stdlib.h>
#include <string.h>

static hsim_config_t cfg; /* large: keep it off the stack */

/* An INI "inside" the source tree, so that relative topology paths such as
   ../traces/topologies/gpu4-node.xml resolve to the shipped files. */
#define SRC_INI HSIM_SOURCE_DIR "/experiments/x.ini"

static int contains(const char *hay, const char *needle)
{
    return strstr(hay, needle) != NULL;
}

static int parse_at(const char *text, const char *path, hsim_err_t *e)
{
    memset(e, 0, sizeof *e);
    int rc = hsim_config_parse_string(text, path, &cfg, e);
    if (rc)
        fprintf(stderr, "\n(parse: %s)\n", e->msg);
    return rc;
}

static int parse(const char *text, hsim_err_t *e)
{
    memset(e, 0, sizeof *e);
    return hsim_config_parse_string(text, "exp/x.ini", &cfg, e);
}

/* Expects text (as exp/x.ini, or path when not NULL) to fail with
   HSIM_EINPUT and a message that starts with "PATH:LINE: " and contains
   every non-NULL needle. */
static void expect_error_in(const char *path, const char *text, int line, const char *n1,
                            const char *n2, const char *n3)
{
    hsim_err_t e = {{0}};
    const char *p = path ? path : "exp/x.ini";
    int rc = hsim_config_parse_string(text, p, &cfg, &e);
    CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
    char prefix[HSIM_PATH_MAX + 32];
    snprintf(prefix, sizeof prefix, "%s:%d: ", p, line);
    if (!hsim_test_message_ok(e.msg, prefix, n1, n2, n3))
        CU_FAIL("error message");
}

static void expect_error_at(const char *text, int line, const char *n1, const char *n2,
                            const char *n3)
{
    expect_error_in(NULL, text, line, n1, n2, n3);
}

/* A mistake found only once the whole file is read: the message names the
   file (no single line is to blame) and contains the needles. */
static void expect_file_error(const char *text, const char *n1, const char *n2)
{
    hsim_err_t e = {{0}};
    int rc = parse(text, &e);
    CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
    int ok = rc == HSIM_EINPUT && strncmp(e.msg, "exp/x.ini:", 10) == 0 &&
             (!n1 || contains(e.msg, n1)) && (!n2 || contains(e.msg, n2));
    if (!ok) {
        fprintf(stderr, "\ngot '%s' (rc %d), wanted 'exp/x.ini:' and '%s', '%s'\n", e.msg, rc,
                n1 ? n1 : "", n2 ? n2 : "");
        CU_FAIL("error message");
    }
}

static const hsim_node_type_t *type_named(const char *name)
{
    for (size_t i = 0; i < cfg.n_nodes; i++)
        if (!strcmp(cfg.nodes[i].type.name, name))
            return &cfg.nodes[i].type;
    return NULL;
}

/* The head of a valid file, 4 lines: a trace and a policy. */
#define HEAD "[workload]\npath = t.swf\n[policy p]\nplacement = first-fit\n"
/* A valid [nodes] section, 2 lines, for files that need one. */
#define NODES "[nodes n]\ncores = 4\n"

/* ---- valid [nodes] ---- */

static void test_nodes_sections(void)
{
    const char *text =
        "[workload]\n"              /* 1 */
        "path = t.swf\n"            /* 2 */
        "[nodes cpu]\n"             /* 3 */
        "count = 16\n"              /* 4 */
        "cores = 32\n"              /* 5 */
        "memory = 256G\n"           /* 6 */
        "speed = 1.5\n"             /* 7 */
        "partition = batch\n"       /* 8 */
        "[nodes gpu]\n"             /* 9 */
        "count = 4\n"               /* 10 */
        "cores = 40\n"              /* 11 */
        "memory = 512M\n"           /* 12 */
        "gpus = 8\n"                /* 13 */
        "gpu_model = A100\n"        /* 14 */
        "gpu_memory = 80GiB\n"      /* 15 */
        "[nodes big.mem_1]\n"       /* 16 */
        "cores = 8\n"               /* 17 */
        "memory = 1T\n"             /* 18 */
        "fpgas = 2\n"               /* 19 */
        "fpga_model = U250\n"       /* 20 */
        "[nodes plain]\n"           /* 21 */
        "cores = 4\n"               /* 22 */
        "memory = 64GiB\n"          /* 23 */
        "[policy p]\n"              /* 24 */
        "placement = best-fit\n"    /* 25 */
        "spread = spread\n"         /* 26 */
        "[policy q]\n"              /* 27 */
        "placement = heterogeneity-aware\n"
        "spread = pack\n"
        "[policy r]\n";
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(parse_at(text, "exp/x.ini", &e), 0);
    CU_ASSERT_EQUAL_FATAL(cfg.n_nodes, 4);
    const hsim_nodes_config_t *n = cfg.nodes;
    CU_ASSERT_STRING_EQUAL(n[0].type.name, "cpu");
    CU_ASSERT_EQUAL(n[0].line, 3);
    CU_ASSERT_EQUAL(n[0].type.count, 16);
    CU_ASSERT_EQUAL(n[0].type.cores, 32);
    CU_ASSERT_EQUAL(n[0].type.mem_mb, 256 * 1024);
    CU_ASSERT_DOUBLE_EQUAL(n[0].type.speed, 1.5, 1e-12);
    CU_ASSERT_STRING_EQUAL(n[0].type.partition, "batch");
    CU_ASSERT_EQUAL(n[0].type.gpus, 0);
    CU_ASSERT_EQUAL(n[0].type.fpgas, 0);

    CU_ASSERT_STRING_EQUAL(n[1].type.name, "gpu");
    CU_ASSERT_EQUAL(n[1].line, 9);
    CU_ASSERT_EQUAL(n[1].type.count, 4);
    CU_ASSERT_EQUAL(n[1].type.cores, 40);
    CU_ASSERT_EQUAL(n[1].type.mem_mb, 512);
    CU_ASSERT_EQUAL(n[1].type.gpus, 8);
    CU_ASSERT_STRING_EQUAL(n[1].type.gpu_model, "A100");
    CU_ASSERT_EQUAL(n[1].type.gpu_mem_mb, 80 * 1024);
    CU_ASSERT_DOUBLE_EQUAL(n[1].type.speed, 1.0, 1e-12); /* default */
    CU_ASSERT_STRING_EQUAL(n[1].type.partition, "");

    CU_ASSERT_STRING_EQUAL(n[2].type.name, "big.mem_1");
    CU_ASSERT_EQUAL(n[2].type.count, 1); /* default */
    CU_ASSERT_EQUAL(n[2].type.mem_mb, 1024 * 1024);
    CU_ASSERT_EQUAL(n[2].type.fpgas, 2);
    CU_ASSERT_STRING_EQUAL(n[2].type.fpga_model, "U250");

    CU_ASSERT_EQUAL(n[3].type.mem_mb, 64 * 1024);
    CU_ASSERT_EQUAL(n[3].line, 21);

    CU_ASSERT_EQUAL_FATAL(cfg.n_policies, 3);
    CU_ASSERT_PTR_EQUAL(cfg.policies[0].placement, hsim_placement_find("best-fit"));
    CU_ASSERT_EQUAL(cfg.policies[0].spread, HSIM_SPREAD);
    CU_ASSERT_PTR_EQUAL(cfg.policies[1].placement, hsim_placement_find("heterogeneity-aware"));
    CU_ASSERT_EQUAL(cfg.policies[1].spread, HSIM_PACK);
    /* defaults: first-fit, pack */
    CU_ASSERT_PTR_EQUAL(cfg.policies[2].placement, hsim_placement_find("first-fit"));
    CU_ASSERT_EQUAL(cfg.policies[2].spread, HSIM_PACK);
}

/* Sizes: K, M, G, T with an optional B or iB, either case; bare = MiB. */
static void test_sizes(void)
{
    static const struct {
        const char *v;
        int64_t mb;
    } cases[] = {
        {"256G", 256 * 1024}, {"512M", 512},        {"1T", 1024 * 1024},
        {"64GiB", 64 * 1024}, {"64GB", 64 * 1024},  {"1000", 1000},
        {"2048K", 2},         {"1.5G", 1536},       {"0", 0},
        {"16g", 16 * 1024},   {"2t", 2 * 1024 * 1024}, {"32MiB", 32},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, HEAD "[nodes n]\ncores = 2\ngpus = 1\nmemory = %s\ngpu_memory = %s\n",
                 cases[i].v, cases[i].v);
        hsim_err_t e;
        CU_ASSERT_EQUAL_FATAL(parse_at(text, "exp/x.ini", &e), 0);
        if (cfg.nodes[0].type.mem_mb != cases[i].mb)
            fprintf(stderr, "\nmemory = %s gave %lld MiB, expected %lld\n", cases[i].v,
                    (long long)cfg.nodes[0].type.mem_mb, (long long)cases[i].mb);
        CU_ASSERT_EQUAL(cfg.nodes[0].type.mem_mb, cases[i].mb);
        CU_ASSERT_EQUAL(cfg.nodes[0].type.gpu_mem_mb, cases[i].mb);
    }
}

/* ---- topologies ---- */

static void test_topology_synthetic(void)
{
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(
        parse_at(HEAD "[nodes s]\ncount = 3\n"
                      "topology = synthetic:pack:2 numa:1(memory=128GiB) core:16 pu:2\n",
                 "exp/x.ini", &e), 0);
    const hsim_node_type_t *t = &cfg.nodes[0].type;
    CU_ASSERT_EQUAL(t->count, 3);
    CU_ASSERT_EQUAL(t->cores, 32); /* cores, not PUs */
    CU_ASSERT_EQUAL(t->mem_mb, 256 * 1024);
    CU_ASSERT_EQUAL(t->gpus, 0);
    CU_ASSERT_EQUAL(t->fpgas, 0);
}

/* The shipped XML files through a path relative to the INI's folder. */
static void test_topology_xml_relative(void)
{
    const char *text =
        "[workload]\npath = t.swf\n"
        "[nodes cpu]\ntopology = xml:../traces/topologies/cpu-node.xml\n"
        "[nodes gpu4]\ntopology = xml:../traces/topologies/gpu4-node.xml\n"
        "[nodes gpu8]\ncount = 2\ntopology = xml:../traces/topologies/gpu8-node.xml\n"
        "[nodes fpga]\ntopology = xml:../traces/topologies/fpga-node.xml\n"
        "[policy p]\n";
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(parse_at(text, SRC_INI, &e), 0);
    const hsim_node_type_t *t = type_named("cpu");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->cores, 32);
    CU_ASSERT_EQUAL(t->mem_mb, 256 * 1024);
    CU_ASSERT_EQUAL(t->gpus, 0);
    t = type_named("gpu4");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->cores, 40);
    CU_ASSERT_EQUAL(t->mem_mb, 384 * 1024);
    CU_ASSERT_EQUAL(t->gpus, 4);
    CU_ASSERT_STRING_EQUAL(t->gpu_model, "Tesla V100-SXM2-32GB");
    CU_ASSERT_EQUAL(t->gpu_mem_mb, 32 * 1024);
    CU_ASSERT_EQUAL(t->fpgas, 0);
    t = type_named("gpu8");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->count, 2);
    CU_ASSERT_EQUAL(t->cores, 64);
    CU_ASSERT_EQUAL(t->mem_mb, 1024 * 1024);
    CU_ASSERT_EQUAL(t->gpus, 8);
    CU_ASSERT_STRING_EQUAL(t->gpu_model, "NVIDIA A100-SXM4-80GB");
    CU_ASSERT_EQUAL(t->gpu_mem_mb, 80 * 1024);
    t = type_named("fpga");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->cores, 24);
    CU_ASSERT_EQUAL(t->mem_mb, 192 * 1024);
    CU_ASSERT_EQUAL(t->fpgas, 1);
    CU_ASSERT_STRING_EQUAL(t->fpga_model, "Alveo U250"); /* the board, not its function */
    CU_ASSERT_EQUAL(t->gpus, 0);
}

/* Keys given by hand win over the topology, before it or after it. */
static void test_keys_override_topology(void)
{
    const char *text =
        "[workload]\npath = t.swf\n"
        "[nodes k80]\n"
        "gpu_model = k80\n"                                     /* before */
        "gpus = 2\n"
        "memory = 128G\n"
        "topology = xml:../traces/topologies/gpu4-node.xml\n"
        "cores = 20\n"                                          /* after */
        "gpu_memory = 12G\n"
        "[nodes f]\n"
        "fpgas = 0\n"
        "topology = xml:../traces/topologies/fpga-node.xml\n"
        "[nodes g]\n"
        "topology = xml:../traces/topologies/gpu8-node.xml\n"
        "gpus = 0\n"
        "[policy p]\n";
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(parse_at(text, SRC_INI, &e), 0);
    const hsim_node_type_t *t = type_named("k80");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t->gpu_model, "k80");
    CU_ASSERT_EQUAL(t->gpus, 2);
    CU_ASSERT_EQUAL(t->mem_mb, 128 * 1024);
    CU_ASSERT_EQUAL(t->cores, 20);
    CU_ASSERT_EQUAL(t->gpu_mem_mb, 12 * 1024);
    t = type_named("f");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->fpgas, 0);
    CU_ASSERT_EQUAL(t->cores, 24); /* not given: from the topology */
    t = type_named("g");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->gpus, 0);
    CU_ASSERT_EQUAL(t->cores, 64);
    /* and the topology's GPU model and memory go with its GPUs (cluster.csv
       named a GPU model for nodes without GPUs) */
    CU_ASSERT_STRING_EQUAL(t->gpu_model, "");
    CU_ASSERT_EQUAL(t->gpu_mem_mb, 0);
    t = type_named("f");
    CU_ASSERT_STRING_EQUAL(t->fpga_model, "");
}

/* ---- [class] and [workload] keys ---- */

static void test_class_sections(void)
{
    const char *text =
        HEAD NODES                        /* 1-6 */
        "[class ResNet-50]\n"             /* 7 */
        "speed.n = 2.5\n"                 /* 8 */
        "speed.V100 = none\n"             /* 9 */
        "[class lm]\n"                    /* 10 */
        "; only a comment\n";             /* 11 */
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(parse_at(text, "exp/x.ini", &e), 0);
    CU_ASSERT_EQUAL_FATAL(cfg.n_classes, 2);
    const hsim_class_config_t *c = &cfg.classes[0];
    CU_ASSERT_STRING_EQUAL(c->name, "ResNet-50");
    CU_ASSERT_EQUAL(c->line, 7);
    CU_ASSERT_EQUAL_FATAL(c->n_speeds, 2);
    CU_ASSERT_STRING_EQUAL(c->speeds[0].target, "n");
    CU_ASSERT_DOUBLE_EQUAL(c->speeds[0].speed, 2.5, 1e-12);
    CU_ASSERT_EQUAL(c->speeds[0].line, 8);
    CU_ASSERT_STRING_EQUAL(c->speeds[1].target, "V100");
    CU_ASSERT_TRUE(c->speeds[1].speed < 0); /* none: cannot run there */
    CU_ASSERT_EQUAL(c->speeds[1].line, 9);
    CU_ASSERT_STRING_EQUAL(cfg.classes[1].name, "lm");
    CU_ASSERT_EQUAL(cfg.classes[1].n_speeds, 0);
}

static void test_workload_keys(void)
{
    const char *text =
        "[workload]\n"
        "format = gavel\n"
        "path = trace.gz\n"
        "throughputs = tp/throughputs.csv\n"
        "skip_bad_rows = true\n"
        "max_jobs = 50\n"
        "[nodes g]\ncores = 4\ngpus = 4\ngpu_model = v100\n"
        "[policy p]\n";
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(parse_at(text, "exp/x.ini", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.format, "gavel");
    CU_ASSERT_STRING_EQUAL(cfg.trace, "exp/trace.gz");
    CU_ASSERT_STRING_EQUAL(cfg.throughputs, "exp/tp/throughputs.csv");
    CU_ASSERT_EQUAL(cfg.skip_bad_rows, 1);

    /* generator keys and their defaults */
    CU_ASSERT_EQUAL_FATAL(parse_at("[workload]\nformat = mix\n" NODES "[policy p]\n",
                                   "exp/x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.jobs, 10000);
    CU_ASSERT_DOUBLE_EQUAL(cfg.load, 0.8, 1e-12);
    CU_ASSERT_EQUAL(cfg.users, 0);
    CU_ASSERT_DOUBLE_EQUAL(cfg.estimate_factor, 1.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cfg.share[0], 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cfg.share[1], 0.3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cfg.share[2], 0.2, 1e-12);
    CU_ASSERT_EQUAL(cfg.gpus_per_job, 1);
    CU_ASSERT_EQUAL(cfg.max_job_cores, 0);
    CU_ASSERT_EQUAL(cfg.class_by, HSIM_CLASS_BY_NONE);
    CU_ASSERT_EQUAL(cfg.trace[0], '\0'); /* a generator needs no path */

    text = "[workload]\nformat = mix\njobs = 500\nload = 1.25\nusers = 7\n"
           "estimate_factor = 2\nscientific = 0.6\ndl = 0.1\nbigdata = 0.3\n"
           "max_job_cores = 64\n" NODES "[policy p]\n";
    CU_ASSERT_EQUAL_FATAL(parse_at(text, "exp/x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.jobs, 500);
    CU_ASSERT_DOUBLE_EQUAL(cfg.load, 1.25, 1e-12);
    CU_ASSERT_EQUAL(cfg.users, 7);
    CU_ASSERT_DOUBLE_EQUAL(cfg.estimate_factor, 2.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cfg.share[0], 0.6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cfg.share[1], 0.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cfg.share[2], 0.3, 1e-12);
    CU_ASSERT_EQUAL(cfg.max_job_cores, 64);

    text = "[workload]\npath = t.swf\ngpu_share = 0.2\ngpus_per_job = 4\nfpga_share = 0.1\n"
           "class_by = queue\n" NODES "[policy p]\n";
    CU_ASSERT_EQUAL_FATAL(parse_at(text, "exp/x.ini", &e), 0);
    CU_ASSERT_DOUBLE_EQUAL(cfg.gpu_share, 0.2, 1e-12);
    CU_ASSERT_EQUAL(cfg.gpus_per_job, 4);
    CU_ASSERT_DOUBLE_EQUAL(cfg.fpga_share, 0.1, 1e-12);
    CU_ASSERT_EQUAL(cfg.class_by, HSIM_CLASS_BY_QUEUE);
    static const struct {
        const char *v;
        hsim_class_by_t by;
    } by[] = {{"app", HSIM_CLASS_BY_APP}, {"partition", HSIM_CLASS_BY_PARTITION},
              {"none", HSIM_CLASS_BY_NONE}};
    for (size_t i = 0; i < 3; i++) {
        char t[400];
        snprintf(t, sizeof t, "[workload]\npath = t.swf\nclass_by = %s\n" NODES "[policy p]\n",
                 by[i].v);
        CU_ASSERT_EQUAL_FATAL(parse_at(t, "exp/x.ini", &e), 0);
        CU_ASSERT_EQUAL(cfg.class_by, by[i].by);
    }

    /* the Alibaba node list as the cluster */
    text = "[workload]\nformat = alibaba\npath = pods.csv\n"
           "[cluster]\nalibaba_nodes = ../nodes.csv\n[policy p]\n";
    CU_ASSERT_EQUAL_FATAL(parse_at(text, "exp/x.ini", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.alibaba_nodes, "exp/../nodes.csv");
    CU_ASSERT_EQUAL(cfg.n_nodes, 0);
}

/* ---- mistakes ---- */

static void test_unknown_key_in_nodes(void)
{
    expect_error_at(HEAD "[nodes gpu]\ncount = 2\ncors = 4\n", 7, "unknown key 'cors'",
                    "[nodes gpu]", "cores");
    /* names of other sections' keys are no [nodes] keys either */
    expect_error_at(HEAD "[nodes gpu]\ncores = 2\nprocessors = 4\n", 7, "'processors'",
                    NULL, NULL);
    expect_error_at(HEAD "[nodes gpu]\ncores = 2\ncores_unused = 4\n", 7, "'cores_unused'",
                    NULL, NULL);
    expect_error_at(HEAD "[nodes gpu]\ncores = 2\ncount = 1\ncount = 2\n", 8, "count", "twice",
                    NULL);
}

static void test_bad_count(void)
{
    expect_error_at(HEAD "[nodes n]\ncores = 2\ncount = 0\n", 7, "count", "'0'", NULL);
    expect_error_at(HEAD "[nodes n]\ncount = -3\ncores = 2\n", 6, "count", "-3", NULL);
    expect_error_at(HEAD "[nodes n]\ncount = many\n", 6, "count", "many", NULL);
    expect_error_at(HEAD "[nodes n]\ncount = 1.5\n", 6, "count", NULL, NULL);
    expect_error_at(HEAD "[nodes n]\ncount = 99999999999\n", 6, "count", NULL, NULL);
}

static void test_bad_memory(void)
{
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory = lots\n", 7, "memory", "lots", NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory = 12X\n", 7, "memory", "12X", NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory = -1G\n", 7, "memory", NULL, NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory = 4Gx\n", 7, "memory", NULL, NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory = G\n", 7, "memory", NULL, NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory =\n", 7, "memory", NULL, NULL);
    /* under half a MiB would round to 0, which means "not modelled" */
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory = 100K\n", 7, "memory", "at least 1M",
                    "100K");
    expect_error_at(HEAD "[nodes n]\ncores = 2\ngpu_memory = 32Q\n", 7, "gpu_memory", NULL,
                    NULL);
}

/* Sizes that are no finite number of MiB, or too large for one (int64
   MiB), are mistakes too: they must not become a negative memory. */
static void test_bad_memory_not_finite(void)
{
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory = inf\n", 7, "memory", "inf", NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory = nan\n", 7, "memory", "nan", NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory = infG\n", 7, "memory", NULL, NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory = 1e30T\n", 7, "memory", NULL, NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\ngpu_memory = 1e300\n", 7, "gpu_memory", NULL,
                    NULL);
}

static void test_bad_speed(void)
{
    expect_error_at(HEAD "[nodes n]\ncores = 2\nspeed = 0\n", 7, "speed", "'0'", NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nspeed = -1.5\n", 7, "speed", NULL, NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nspeed = fast\n", 7, "speed", "fast", NULL);
}

/* An infinite speed is no speed: every job on the type would take 1 us. */
static void test_bad_speed_not_finite(void)
{
    expect_error_at(HEAD "[nodes n]\ncores = 2\nspeed = inf\n", 7, "speed", "inf", NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nspeed = nan\n", 7, "speed", "nan", NULL);
    expect_error_at(HEAD NODES "[class c]\nspeed.n = inf\n", 8, "speed.n", "inf", NULL);
    /* decimal numbers only: strtod() would read these as 2 and 1 GiB */
    expect_error_at(HEAD "[nodes n]\ncores = 2\nspeed = 0x2\n", 7, "speed", "0x2", NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nmemory = 0x1p0G\n", 7, "memory", NULL, NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nspeed = -0X1\n", 7, "speed", NULL, NULL);
}

static void test_bad_node_values(void)
{
    expect_error_at(HEAD "[nodes n]\ncores = 0\n", 6, "cores", NULL, NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\ngpus = -1\n", 7, "gpus", NULL, NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\ngpus = 2000\n", 7, "gpus", NULL, NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nfpgas = two\n", 7, "fpgas", NULL, NULL);
    expect_error_at(HEAD "[nodes a/b]\ncores = 2\n", 5, "a/b", NULL, NULL);
    expect_error_at(HEAD "[nodes ..]\ncores = 2\n", 5, "node type name", NULL, NULL);
    /* a node type without cores (neither a topology nor cores = N): its header */
    expect_error_at(HEAD "\n[nodes empty]\ncount = 2\n", 6, "empty", "cores", NULL);
}

/* Keys that describe devices the nodes do not have would change nothing:
   errors at their lines, the earliest of all such mistakes first. */
static void test_device_keys_without_devices(void)
{
    expect_error_at(HEAD "[nodes n]\ncores = 2\ngpu_model = v100\n", 7,
                    "[nodes n] gpu_model", "gpus > 0", NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\ngpus = 0\ngpu_memory = 16G\n", 8,
                    "[nodes n] gpu_memory", "gpus > 0", NULL);
    expect_error_at(HEAD "[nodes n]\ncores = 2\nfpga_model = u250\n", 7,
                    "[nodes n] fpga_model", "fpgas > 0", NULL);
    /* a topology without GPUs has none either */
    expect_error_at(HEAD "[nodes n]\ntopology = synthetic:pack:1 core:2 pu:1\ngpu_model = v100\n", 7,
                    "gpu_model", NULL, NULL);
    /* the earliest line, whichever section it is in */
    expect_error_at("[nodes n]\ncores = 2\ngpu_model = v100\n[workload]\npath = t.swf\n"
                    "jobs = 9\n[policy p]\n", 3, "gpu_model", NULL, NULL);
    expect_error_at("[workload]\npath = t.swf\njobs = 9\n[policy p]\n[nodes n]\n"
                    "cores = 2\ngpu_model = v100\n", 3, "jobs", NULL, NULL);
    /* with the devices, or an empty model: fine */
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse_at(HEAD "[nodes n]\ncores = 2\ngpus = 1\ngpu_model = v100\n"
                                  "gpu_memory = 16G\nfpgas = 1\nfpga_model = u250\n",
                             "exp/x.ini", &e), 0);
    CU_ASSERT_EQUAL(parse_at(HEAD "[nodes n]\ncores = 2\nfpgas = 0\nfpga_model =\n",
                             "exp/x.ini", &e), 0);
}

static void test_duplicate_node_type(void)
{
    expect_error_at(HEAD "[nodes a]\ncores = 2\n[nodes b]\ncores = 2\n\n[nodes a]\ncores = 4\n",
                    10, "'a'", "twice", "line 5");
}

/* At most 32 node types and 64 [class] sections; names of up to 63
   characters. */
static void test_section_limits(void)
{
    char text[4096] = HEAD;
    for (int i = 1; i <= 33; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "[nodes n%d]\n", i);
    expect_error_at(text, 37, "too many node types", "32", NULL);
    snprintf(text, sizeof text, "%s", HEAD NODES);
    for (int i = 1; i <= 65; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "[class c%d]\n", i);
    expect_error_at(text, 71, "too many classes", "64", NULL);
    char name[80];
    memset(name, 'x', 64);
    name[64] = '\0';
    snprintf(text, sizeof text, HEAD "[nodes %s]\ncores = 2\n", name);
    expect_error_at(text, 5, "node type name", "expected 1 to 63 characters", NULL);
    snprintf(text, sizeof text, HEAD NODES "[class %s]\n", name);
    expect_error_at(text, 7, "class name", "expected 1 to 63 characters", NULL);
    name[63] = '\0';
    hsim_err_t e;
    snprintf(text, sizeof text, HEAD "[nodes %s]\ncores = 2\n[class %s]\n", name, name);
    CU_ASSERT_EQUAL(parse(text, &e), 0);
}

static void test_bad_topology(void)
{
    expect_error_in(SRC_INI, HEAD "[nodes n]\ntopology = lstopo:foo\n", 6, "topology", NULL,
                    NULL);
    expect_error_in(SRC_INI, HEAD "[nodes n]\ncount = 2\ntopology = xml:no-such-file.xml\n", 7,
                    "no-such-file.xml", NULL, NULL);
    expect_error_in(SRC_INI, HEAD "[nodes n]\ntopology = synthetic:frobnicate:3\n", 6, NULL,
                    NULL, NULL);
    /* an attribute hwloc cannot read (hwloc leaks on it: tests/lsan.supp) */
    expect_error_in(SRC_INI, HEAD "[nodes n]\ntopology = synthetic:[node[e]\n", 6, "topology",
                    NULL, NULL);
}

static void test_bad_class_speed(void)
{
    expect_error_at(HEAD NODES "[class c]\nspeed.n = 0\n", 8, "speed.n", "none", NULL);
    expect_error_at(HEAD NODES "[class c]\nspeed.n = -2\n", 8, "speed.n", NULL, NULL);
    expect_error_at(HEAD NODES "[class c]\nspeed.n = quick\n", 8, "quick", NULL, NULL);
    expect_error_at(HEAD NODES "[class c]\nspeed = 2\n", 8, "unknown key 'speed'", "[class c]",
                    NULL);
    expect_error_at(HEAD NODES "[class c]\nspeed. = 2\n", 8, "speed.", NULL, NULL);
    expect_error_at(HEAD NODES "[class c]\nspeed.n = 2\nspeed.n = 3\n", 9, "speed.n", "twice",
                    NULL);
    expect_error_at(HEAD NODES "[class c]\n[class c]\n", 8, "'c'", "twice", "line 7");
}

static void test_unknown_placement(void)
{
    char names[512];
    hsim_placement_names(names, sizeof names);
    CU_ASSERT_TRUE(contains(names, "first-fit") && contains(names, "heterogeneity-aware"));
    for (size_t i = 0; hsim_placements[i]; i++)
        CU_ASSERT_TRUE(contains(names, hsim_placements[i]->name));
    expect_error_at("[workload]\npath = t.swf\n[policy p]\nplacement = random-fit\n", 4,
                    "'random-fit'", names, NULL);
    expect_error_at("[workload]\npath = t.swf\n[policy p]\nplacement = first-fit\n"
                    "placement = best-fit\n", 5, "placement", "twice", NULL);
}

static void test_bad_spread(void)
{
    expect_error_at("[workload]\npath = t.swf\n[policy p]\n\nspread = wide\n", 5, "'wide'",
                    "pack", "spread");
}

static void test_bad_workload_values(void)
{
    expect_error_at("[workload]\npath = t.swf\ngpu_share = 1.5\n[policy p]\n", 3, "gpu_share",
                    "1.5", NULL);
    expect_error_at("[workload]\npath = t.swf\nfpga_share = -0.1\n[policy p]\n", 3,
                    "fpga_share", NULL, NULL);
    expect_error_at("[workload]\npath = t.swf\ngpus_per_job = 0\n[policy p]\n", 3,
                    "gpus_per_job", NULL, NULL);
    expect_error_at("[workload]\npath = t.swf\nclass_by = user\n[policy p]\n", 3, "'user'",
                    "queue", NULL);
    expect_error_at("[workload]\nformat = mix\njobs = 0\n[policy p]\n", 3, "jobs", NULL, NULL);
    expect_error_at("[workload]\nformat = mix\nload = 0\n[policy p]\n", 3, "load", NULL, NULL);
    expect_error_at("[workload]\nformat = mix\nestimate_factor = 0.5\n[policy p]\n", 3,
                    "estimate_factor", NULL, NULL);
    expect_error_at("[workload]\nformat = mix\nscientific = 2\n[policy p]\n", 3, "scientific",
                    NULL, NULL);
    /* the generators' own ranges, at the key's line in the INI's words (the
       generator said "parameter 'estimate.factor'" with no line) */
    expect_error_at("[workload]\nformat = lublin\nload = 5000\n[policy p]\n", 3,
                    "load: expected a number in [0.001, 1000]", "'5000'", NULL);
    expect_error_at("[workload]\nformat = lublin\nload = 0.0001\n[policy p]\n", 3, "load",
                    NULL, NULL);
    /* the ends of the ranges are in them */
    hsim_err_t edge;
    CU_ASSERT_EQUAL(parse("[workload]\nformat = lublin\nload = 0.001\nestimate_factor = 1\n"
                          "[cluster]\nprocessors = 64\n"
                          "[policy p]\n", &edge), 0);
    CU_ASSERT_EQUAL(cfg.load, 0.001);
    CU_ASSERT_EQUAL(parse("[workload]\nformat = lublin\nload = 1000\nestimate_factor = 1000\n"
                          "[cluster]\nprocessors = 64\n"
                          "[policy p]\n", &edge), 0);
    CU_ASSERT_EQUAL(cfg.load, 1000);
    CU_ASSERT_EQUAL(cfg.estimate_factor, 1000);
    expect_error_at("[workload]\nformat = mix\nestimate_factor = 2000\n[policy p]\n", 3,
                    "estimate_factor: expected a number in [1, 1000]", NULL, NULL);
    /* shares that do not sum to 1: at the last one given */
    expect_error_at("[workload]\nformat = mix\nscientific = 0.5\ndl = 0.3\nbigdata = 0.1\n"
                    NODES "[policy p]\n", 5, "expected shares summing to 1", "= 0.9", NULL);
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse("[workload]\nformat = mix\nscientific = 0.7\ndl = 0.3\nbigdata = 0\n"
                          NODES "[policy p]\n", &e), 0);
    expect_error_at("[workload]\nformat = mix\nmax_job_cores = -4\n[policy p]\n", 3,
                    "max_job_cores", NULL, NULL);
    /* keys of job classes a share of 0 leaves out change nothing */
    expect_error_at("[workload]\nformat = mix\nmax_job_cores = 5\nscientific = 0\ndl = 0.5\n"
                    "bigdata = 0.5\n" NODES "[policy p]\n", 3,
                    "max_job_cores bounds the scientific jobs", NULL, NULL);
    expect_error_at("[workload]\nformat = mix\nscientific = 0\ndl = 1\nbigdata = 0\n"
                    "estimate_factor = 3\n" NODES "[policy p]\n", 6,
                    "estimate_factor applies to the scientific and big-data jobs", NULL, NULL);
    CU_ASSERT_EQUAL(parse("[workload]\nformat = mix\nscientific = 0\ndl = 0.5\nbigdata = 0.5\n"
                          "estimate_factor = 3\n" NODES "[policy p]\n", &e), 0);
    expect_error_at("[workload]\npath = t.swf\nskip_bad_rows = maybe\n[policy p]\n", 3,
                    "skip_bad_rows", NULL, NULL);
    expect_error_at("[workload]\nformat = dl\nthroughputs =\n[policy p]\n", 3, "throughputs",
                    NULL, NULL);
    expect_error_at("[workload]\npath = t.swf\n[cluster]\nalibaba_nodes =\n[policy p]\n", 4,
                    "alibaba_nodes", NULL, NULL);
}

static void test_whole_file_mistakes(void)
{
    /* processors together with [nodes] */
    expect_file_error("[workload]\npath = t.swf\n[cluster]\nprocessors = 64\n" NODES
                      "[policy p]\n", "processors", "[nodes]");
    /* processors together with alibaba_nodes */
    expect_file_error("[workload]\nformat = alibaba\npath = p.csv\n[cluster]\nprocessors = 64\n"
                      "alibaba_nodes = n.csv\n[policy p]\n", "processors", "alibaba_nodes");
    /* format gavel without throughputs */
    expect_file_error("[workload]\nformat = gavel\npath = t.gz\n" NODES "[policy p]\n",
                      "gavel", "throughputs");
    /* GPU traces and generators of GPU jobs need nodes */
    expect_file_error("[workload]\nformat = dl\n[cluster]\nprocessors = 64\n[policy p]\n",
                      "dl", "nodes");
    expect_file_error("[workload]\nformat = dl\n[policy p]\n", "dl", "[nodes");
    expect_file_error("[workload]\nformat = mix\n[policy p]\n", "mix", "nodes");
    expect_file_error("[workload]\nformat = elasticflow\npath = c.csv\n[policy p]\n",
                      "elasticflow", "nodes");
    expect_file_error("[workload]\nformat = alibaba\npath = c.csv\n[policy p]\n", "alibaba",
                      "nodes");
    /* a trace format without a path */
    expect_file_error("[workload]\nformat = gavel\nthroughputs = t.csv\n" NODES "[policy p]\n",
                      "path", NULL);
    /* [class] sections are read only on a cluster of nodes */
    expect_error_at("[workload]\npath = t.swf\n[cluster]\nprocessors = 64\n[class app1]\n"
                    "speed.gpu = 2\n[policy p]\n", 5, "[class app1]", "cluster of nodes", NULL);
    /* keys that would change nothing: GPU speeds without nodes (a gavel
       trace reads them), GPUs per job without GPU jobs */
    expect_error_at("[workload]\npath = t.swf\nthroughputs = tp.csv\n[cluster]\n"
                    "processors = 64\n[policy p]\n", 3, "throughputs", "cluster of nodes", NULL);
    expect_error_at("[workload]\npath = t.swf\ngpus_per_job = 4\n" NODES "[policy p]\n", 3,
                    "gpus_per_job", "gpu_share above 0", NULL);
    expect_error_at("[workload]\npath = t.swf\ngpu_share = 0\ngpus_per_job = 4\n" NODES
                    "[policy p]\n", 4, "gpus_per_job", NULL, NULL);
    /* lublin runs on processors: no nodes needed */
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse("[workload]\nformat = lublin\n[cluster]\nprocessors = 64\n"
                          "[policy p]\n", &e), 0);
}

/* ---- class speeds through hsim_spec_build ---- */

static hsim_workload_t w;

/* Parses text as exp/x.ini and builds the spec for w. */
static int build(const char *text, hsim_spec_t *s, hsim_err_t *e)
{
    int rc = parse_at(text, "exp/x.ini", e);
    if (rc)
        return -100;
    return hsim_spec_build(&cfg, &w, s, e);
}

/*
 * Types k80n (K80), v100a (V100), v100b (v100: the same model, other
 * case), cpu.  Classes of the workload: resnet, lm, idle.
 *   resnet: speed.v100 = 3 sets both v100 types (model names match without
 *           case); speed.k80n = 0.5 by type name; speed.cpu = none.
 *   lm:     speed.v100b = 2 by type name: that type only.
 *   idle:   no [class]: every entry 0 (the defaults).
 */
static void test_spec_class_speeds(void)
{
    hsim_workload_init(&w);
    CU_ASSERT_EQUAL_FATAL(hsim_workload_class(&w, "resnet"), 0);
    CU_ASSERT_EQUAL_FATAL(hsim_workload_class(&w, "lm"), 1);
    CU_ASSERT_EQUAL_FATAL(hsim_workload_class(&w, "idle"), 2);
    const char *text =
        HEAD
        "[nodes k80n]\ncount = 2\ncores = 8\ngpus = 4\ngpu_model = K80\n"
        "[nodes v100a]\ncores = 8\ngpus = 4\ngpu_model = V100\n"
        "[nodes v100b]\ncores = 16\ngpus = 8\ngpu_model = v100\n"
        "[nodes cpu]\ncount = 4\ncores = 32\nspeed = 1.5\n"
        "[class resnet]\nspeed.v100 = 3\nspeed.k80n = 0.5\nspeed.cpu = none\n"
        "[class lm]\nspeed.v100b = 2\n";
    hsim_spec_t s;
    hsim_err_t e;
    int rc = build(text, &s, &e);
    if (rc)
        fprintf(stderr, "\n%s\n", e.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(s.spec.n_types, 4);
    CU_ASSERT_EQUAL_FATAL(s.spec.n_classes, 3);
    CU_ASSERT_PTR_EQUAL(s.spec.types, s.types);
    CU_ASSERT_PTR_EQUAL(s.spec.class_speed, s.class_speed);
    CU_ASSERT_STRING_EQUAL(s.types[2].name, "v100b");
    CU_ASSERT_EQUAL(s.types[3].count, 4);
    CU_ASSERT_DOUBLE_EQUAL(s.types[3].speed, 1.5, 1e-12);
    const double want[3][4] = {{0.5, 3, 3, -1}, {0, 0, 2, 0}, {0, 0, 0, 0}};
    for (int c = 0; c < 3; c++)
        for (int t = 0; t < 4; t++) {
            double got = s.class_speed[c * 4 + t];
            int ok = want[c][t] < 0 ? got < 0 : got == want[c][t];
            if (!ok)
                fprintf(stderr, "\nclass %d type %d: speed %g, expected %g\n", c, t, got,
                        want[c][t]);
            CU_ASSERT_TRUE(ok);
        }
    hsim_spec_free(&s);
    hsim_workload_free(&w);
}

static void test_spec_errors(void)
{
    hsim_workload_init(&w);
    CU_ASSERT_EQUAL_FATAL(hsim_workload_class(&w, "resnet"), 0);
    hsim_spec_t s;
    hsim_err_t e;
    /* a [class] that names no class of the workload: the line of its header */
    const char *text = HEAD NODES           /* 1-6 */
        "[class resnet]\nspeed.n = 2\n"      /* 7-8 */
        "\n[class ResNet]\nspeed.n = 2\n";   /* 9-11: class names match exactly */
    CU_ASSERT_EQUAL(build(text, &s, &e), HSIM_EINPUT);
    CU_ASSERT_EQUAL(strncmp(e.msg, "exp/x.ini:10: ", 14), 0);
    CU_ASSERT_TRUE(contains(e.msg, "ResNet"));
    if (strncmp(e.msg, "exp/x.ini:10: ", 14))
        fprintf(stderr, "\ngot '%s'\n", e.msg);
    hsim_spec_free(&s);

    /* a speed for a target that is neither a node type nor a GPU model */
    text = HEAD NODES "[nodes g]\ncores = 2\ngpus = 1\ngpu_model = T4\n" /* 1-10 */
        "[class resnet]\nspeed.t4 = 2\n\nspeed.a100 = 3\n";               /* 11-14 */
    CU_ASSERT_EQUAL(build(text, &s, &e), HSIM_EINPUT);
    CU_ASSERT_EQUAL(strncmp(e.msg, "exp/x.ini:14: ", 14), 0);
    CU_ASSERT_TRUE(contains(e.msg, "a100"));
    if (strncmp(e.msg, "exp/x.ini:14: ", 14))
        fprintf(stderr, "\ngot '%s'\n", e.msg);
    hsim_spec_free(&s);

    /* node type names match exactly (a model name matches in any case) */
    text = HEAD NODES "[class resnet]\nspeed.N = 2\n";
    CU_ASSERT_EQUAL(build(text, &s, &e), HSIM_EINPUT);
    CU_ASSERT_EQUAL(strncmp(e.msg, "exp/x.ini:8: ", 13), 0);
    hsim_spec_free(&s);
    hsim_workload_free(&w);
}

/*
 * Types from a node list: one per shape, as the type holds it.  Two nodes
 * of half a core (a type of 1 core) and one of 0.8 core whose model column
 * names a GPU it does not have are one shape (they made three types, and
 * 33 such nodes "more than 32 node shapes"); a node list's T4 nodes stay
 * out of a [nodes] type of the same shape (they were counted into it, and
 * took its speed); memory that is not whole GiB is named in MiB.
 */
static void test_spec_node_list_shapes(void)
{
    char *dir = hsim_test_tmpdir("shapes");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char path[4096], text[8192];
    snprintf(path, sizeof path, "%s/nodes.csv", dir);
    hsim_test_write_file(path, "sn,cpu_milli,memory_mib,gpu,model\n"
                               "s0,500,1024,0,\ns1,500,1024,0,nan\ns2,800,1024,0,T4\n"
                               "g0,4000,8192,2,T4\ng1,4000,8192,2,T4\nm0,4000,1536,0,\n");
    snprintf(text, sizeof text, HEAD "[nodes mine]\ncores = 4\nmemory = 8192\ngpus = 2\n"
             "gpu_model = T4\nspeed = 2\n[cluster]\nalibaba_nodes = %s\n", path);
    hsim_workload_init(&w);
    hsim_spec_t s;
    hsim_err_t e;
    int rc = build(text, &s, &e);
    if (rc)
        fprintf(stderr, "\n%s\n", e.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(s.spec.n_types, 4);
    static const struct {
        const char *name;
        int32_t count, cores;
        double speed;
    } want[] = {{"mine", 1, 4, 2}, {"cpu-0gpu-1c-1G", 3, 1, 1},
                {"T4-2gpu-4c-8G", 2, 4, 1}, {"cpu-0gpu-4c-1536M", 1, 4, 1}};
    for (size_t t = 0; t < 4; t++) {
        CU_ASSERT_STRING_EQUAL(s.types[t].name, want[t].name);
        CU_ASSERT_EQUAL(s.types[t].count, want[t].count);
        CU_ASSERT_EQUAL(s.types[t].cores, want[t].cores);
        CU_ASSERT_DOUBLE_EQUAL(s.types[t].speed, want[t].speed, 1e-12);
    }
    CU_ASSERT_STRING_EQUAL(s.types[1].gpu_model, "");
    hsim_spec_free(&s);
    hsim_workload_free(&w);

    /* 32 types in all: a [nodes] type and 31 shapes build, a 32nd shape is
       an error at its row (it named no line) */
    for (int shapes = 31; shapes <= 32; shapes++) {
        char list[4096] = "sn,cpu_milli,memory_mib,gpu,model\n";
        for (int i = 1; i <= shapes; i++) {
            char row[64];
            snprintf(row, sizeof row, "n%d,%d,1024,0,\nm%d,%d,1024,0,\n", i, 1000 * i, i,
                     1000 * i);
            strcat(list, row);
        }
        hsim_test_write_file(path, list);
        hsim_workload_init(&w);
        rc = build(text, &s, &e);
        if (shapes == 31) {
            CU_ASSERT_EQUAL(rc, 0);
            if (rc == 0)
                hsim_spec_free(&s);
        } else {
            char at[4200];
            snprintf(at, sizeof at, "%s:64: this node's shape would be node type 33", path);
            CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
            CU_ASSERT_TRUE(hsim_test_message_ok(e.msg, at, "expected at most 32 node types",
                                                NULL, NULL));
        }
        hsim_workload_free(&w);
    }
    remove(path);
    remove(dir);
    free(dir);
}

void hsim_test_register(void)
{
    CU_pSuite v = hsim_test_suite("config-hetero-valid");
    HSIM_TEST(v, test_nodes_sections);
    HSIM_TEST(v, test_sizes);
    HSIM_TEST(v, test_topology_synthetic);
    HSIM_TEST(v, test_topology_xml_relative);
    HSIM_TEST(v, test_keys_override_topology);
    HSIM_TEST(v, test_class_sections);
    HSIM_TEST(v, test_workload_keys);
    CU_pSuite m = hsim_test_suite("config-hetero-mistakes");
    HSIM_TEST(m, test_unknown_key_in_nodes);
    HSIM_TEST(m, test_bad_count);
    HSIM_TEST(m, test_bad_memory);
    HSIM_TEST(m, test_bad_memory_not_finite);
    HSIM_TEST(m, test_bad_speed);
    HSIM_TEST(m, test_bad_speed_not_finite);
    HSIM_TEST(m, test_bad_node_values);
    HSIM_TEST(m, test_device_keys_without_devices);
    HSIM_TEST(m, test_duplicate_node_type);
    HSIM_TEST(m, test_section_limits);
    HSIM_TEST(m, test_bad_topology);
    HSIM_TEST(m, test_bad_class_speed);
    HSIM_TEST(m, test_unknown_placement);
    HSIM_TEST(m, test_bad_spread);
    HSIM_TEST(m, test_bad_workload_values);
    HSIM_TEST(m, test_whole_file_mistakes);
    CU_pSuite s = hsim_test_suite("config-hetero-spec");
    HSIM_TEST(s, test_spec_class_speeds);
    HSIM_TEST(s, test_spec_node_list_shapes);
    HSIM_TEST(s, test_spec_errors);
}
