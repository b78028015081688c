/*
 * test_topology.c - node shapes from synthetic descriptions, from the XML
 * topologies shipped in traces/topologies/, and from small XML files written
 * here to pin down the card-counting rules (one GPU per card whatever its
 * OS devices, FPGA detection), plus every kind of bad input.
 */
#include "harness.h"

#include "sim/cluster.h"
#include "sim/topology.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WHERE "exp.ini:7"
#define TOPO_DIR HSIM_SOURCE_DIR "/traces/topologies"

typedef struct expect {
    const char *spec;
    int cores, pus, numa, packages;
    int64_t memory_mb;
    int gpus;
    const char *gpu_model;
    int64_t gpu_memory_mb;
    int fpgas;
} expect_t;

static void check_shape(const expect_t *x, const char *base_dir)
{
    hsim_node_shape_t s;
    hsim_err_t e = {{0}};
    int rc = hsim_topology_load(x->spec, base_dir, WHERE, &s, &e);
    if (rc)
        fprintf(stderr, "\n%s: %s\n", x->spec, e.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(s.cores, x->cores);
    CU_ASSERT_EQUAL(s.pus, x->pus);
    CU_ASSERT_EQUAL(s.numa, x->numa);
    CU_ASSERT_EQUAL(s.packages, x->packages);
    CU_ASSERT_EQUAL(s.memory_mb, x->memory_mb);
    CU_ASSERT_EQUAL(s.gpus, x->gpus);
    CU_ASSERT_STRING_EQUAL(s.gpu_model, x->gpu_model);
    CU_ASSERT_EQUAL(s.gpu_memory_mb, x->gpu_memory_mb);
    CU_ASSERT_EQUAL(s.fpgas, x->fpgas);
    CU_ASSERT_TRUE(s.desc[0] != '\0');
    if (s.cores != x->cores || s.gpus != x->gpus || s.fpgas != x->fpgas ||
        s.memory_mb != x->memory_mb)
        fprintf(stderr, "\n%s: got %s\n", x->spec, s.desc);
}

/* ---- synthetic ---- */

static void test_synthetic(void)
{
    static const expect_t cases[] = {
        /* no memory= attribute: hwloc's invented 1 GiB/NUMA is reported as unknown */
        {"synthetic:pack:2 numa:1 core:16 pu:2", 32, 64, 2, 2, 0, 0, "", 0, 0},
        {"synthetic:pack:2 numa:2(memory=64GiB) core:8 pu:1", 32, 32, 4, 2, 4 * 64 * 1024, 0, "", 0, 0},
        {"synthetic:pack:1 core:4 pu:4", 4, 16, 1, 1, 0, 0, "", 0, 0},
        {"synthetic:pack:2 l3:1 core:12 pu:2", 24, 48, 1, 2, 0, 0, "", 0, 0},
        {"synthetic:core:8 pu:2", 8, 16, 1, 1, 0, 0, "", 0, 0},   /* no Package level */
        {"synthetic:pack:2 pu:4", 8, 8, 1, 2, 0, 0, "", 0, 0},    /* no Core level */
        {"synthetic:  pack:4 numa:1(memory=1000MiB) core:2 pu:1", 8, 8, 4, 4, 4000, 0, "", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_shape(&cases[i], NULL);
}

/* ---- shipped XML topologies ---- */

static const expect_t shipped[] = {
    {"xml:traces/topologies/cpu-node.xml", 32, 64, 2, 2, 256 * 1024, 0, "", 0, 0},
    {"xml:traces/topologies/gpu4-node.xml", 40, 80, 2, 2, 384 * 1024, 4, "Tesla V100-SXM2-32GB",
     32 * 1024, 0},
    {"xml:traces/topologies/gpu8-node.xml", 64, 128, 4, 2, 1024 * 1024, 8, "NVIDIA A100-SXM4-80GB",
     80 * 1024, 0},
    {"xml:traces/topologies/fpga-node.xml", 24, 48, 2, 2, 192 * 1024, 0, "", 0, 1},
};

static void test_shipped_xml(void)
{
    for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++)
        check_shape(&shipped[i], HSIM_SOURCE_DIR);
}

/* An absolute file ignores base_dir; a base_dir with a trailing slash works. */
static void test_xml_paths(void)
{
    hsim_node_shape_t s;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_topology_load("xml:" TOPO_DIR "/gpu4-node.xml", "/nonexistent", WHERE,
                                       &s, &e), 0);
    CU_ASSERT_EQUAL(s.gpus, 4);
    CU_ASSERT_EQUAL(hsim_topology_load("xml:gpu8-node.xml", TOPO_DIR "/", WHERE, &s, &e), 0);
    CU_ASSERT_EQUAL(s.gpus, 8);
}

/* Every XML file in traces/topologies/ loads and has a sane shape. */
static void test_every_shipped_file_loads(void)
{
    DIR *d = opendir(TOPO_DIR);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int files = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 5 || strcmp(de->d_name + n - 4, ".xml"))
            continue;
        char spec[512];
        snprintf(spec, sizeof spec, "xml:%s", de->d_name);
        hsim_node_shape_t s;
        hsim_err_t e = {{0}};
        int rc = hsim_topology_load(spec, TOPO_DIR, WHERE, &s, &e);
        if (rc)
            fprintf(stderr, "\n%s\n", e.msg);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_TRUE(s.cores >= 1 && s.pus >= s.cores && s.numa >= 1 && s.packages >= 1);
        CU_ASSERT_TRUE(s.memory_mb > 0);
        files++;
    }
    closedir(d);
    CU_ASSERT_TRUE(files >= 4);
}

static void test_describe(void)
{
    hsim_node_shape_t s;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_topology_load(shipped[1].spec, HSIM_SOURCE_DIR, WHERE, &s, &e), 0);
    CU_ASSERT_STRING_EQUAL(s.desc, "40 cores/80 PUs, 2 packages, 2 NUMA, 384 GiB, "
                                   "4 GPUs (Tesla V100-SXM2-32GB, 32 GiB)");
    CU_ASSERT_EQUAL_FATAL(hsim_topology_load(shipped[3].spec, HSIM_SOURCE_DIR, WHERE, &s, &e), 0);
    CU_ASSERT_STRING_EQUAL(s.desc, "24 cores/48 PUs, 2 packages, 2 NUMA, 192 GiB, 1 FPGA (Alveo U250)");
    CU_ASSERT_EQUAL_FATAL(hsim_topology_load("synthetic:core:2 pu:1", NULL, WHERE, &s, &e), 0);
    CU_ASSERT_STRING_EQUAL(s.desc, "2 cores/2 PUs, 1 package, 1 NUMA, memory unknown");

    hsim_node_shape_t h = {.cores = 4, .pus = 8, .numa = 1, .packages = 1, .memory_mb = 1536,
                           .gpus = 1, .gpu_memory_mb = 0, .fpgas = 2};
    char buf[HSIM_SHAPE_DESC_MAX];
    CU_ASSERT_STRING_EQUAL(hsim_node_shape_describe(&h, buf, sizeof buf),
                           "4 cores/8 PUs, 1 package, 1 NUMA, 1536 MiB, 1 GPU, 2 FPGAs");
    char tiny[8];
    hsim_node_shape_describe(&h, tiny, sizeof tiny);
    CU_ASSERT_STRING_EQUAL(tiny, "4 cores");
}

/* ---- card-counting rules, on XML written to a temp dir ---- */

/* A one-core machine; io is placed among the Machine's children. */
static const char xml_head[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
    "<topology version=\"2.0\">\n"
    "  <object type=\"Machine\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" "
    "allowed_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\" allowed_nodeset=\"0x1\" "
    "gp_index=\"1\">\n"
    "    <object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" "
    "nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"2\" local_memory=\"1073741824\"/>\n"
    "    <object type=\"Core\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" "
    "nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"3\">\n"
    "      <object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" "
    "nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"4\"/>\n"
    "    </object>\n";
static const char xml_tail[] = "  </object>\n</topology>\n";

typedef struct tmp {
    char *dir;          /* from hsim_test_tmpdir(), libc-allocated */
    char names[12][64]; /* files written, removed by tmp_done() */
    int n;
} tmp_t;

static void tmp_write(tmp_t *t, const char *name, const char *text)
{
    HSIM_ASSERT(t->n < 12);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", t->dir, name);
    FILE *f = fopen(path, "w");
    HSIM_ASSERT(f);
    fputs(text, f);
    fclose(f);
    hsim_strlcpy(t->names[t->n++], name, sizeof t->names[0]);
}

static void tmp_done(tmp_t *t)
{
    char path[1024];
    for (int i = 0; i < t->n; i++) {
        snprintf(path, sizeof path, "%s/%s", t->dir, t->names[i]);
        unlink(path);
    }
    rmdir(t->dir);
    free(t->dir);
}

/* Writes head + io + tail as name in t and loads it. */
static int load_io(tmp_t *t, const char *name, const char *io, hsim_node_shape_t *s,
                   hsim_err_t *e)
{
    char text[8192];
    snprintf(text, sizeof text, "%s%s%s", xml_head, io, xml_tail);
    tmp_write(t, name, text);
    char spec[128];
    snprintf(spec, sizeof spec, "xml:%s", name);
    return hsim_topology_load(spec, t->dir, WHERE, s, e);
}

#define PCI(gp, busid, type, extra)                                                        \
    "    <object type=\"PCIDev\" gp_index=\"" gp "\" pci_busid=\"" busid "\" pci_type=\"" type \
    "\">\n" extra "    </object>\n"
#define OSDEV(gp, name, subtype, ostype, infos)                                            \
    "      <object type=\"OSDev\" gp_index=\"" gp "\" name=\"" name "\" subtype=\"" subtype     \
    "\" osdev_type=\"" ostype "\">" infos "</object>\n"
#define INFO(n, v) "<info name=\"" n "\" value=\"" v "\"/>"

static void test_card_rules(void)
{
    tmp_t t = {hsim_test_tmpdir("topology"), {{0}}, 0};
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.dir);
    hsim_node_shape_t s;
    hsim_err_t e = {{0}};

    /* OS devices without a PCI parent: 2 CUDA + 2 NVML + 1 OpenCL GPU are 2 cards */
    const char *orphans =
        "    <object type=\"OSDev\" gp_index=\"10\" name=\"cuda0\" subtype=\"CUDA\" osdev_type=\"5\">"
        INFO("GPUModel", "Model A") INFO("CUDAGlobalMemorySize", "16777216") "</object>\n"
        "    <object type=\"OSDev\" gp_index=\"11\" name=\"cuda1\" subtype=\"CUDA\" osdev_type=\"5\"/>\n"
        "    <object type=\"OSDev\" gp_index=\"12\" name=\"nvml0\" subtype=\"NVML\" osdev_type=\"1\"/>\n"
        "    <object type=\"OSDev\" gp_index=\"13\" name=\"nvml1\" subtype=\"NVML\" osdev_type=\"1\"/>\n"
        "    <object type=\"OSDev\" gp_index=\"14\" name=\"opencl0d0\" subtype=\"OpenCL\" osdev_type=\"5\">"
        INFO("OpenCLDeviceType", "GPU") "</object>\n";
    CU_ASSERT_EQUAL(load_io(&t, "orphans.xml", orphans, &s, &e), 0);
    CU_ASSERT_EQUAL(s.gpus, 2);
    CU_ASSERT_STRING_EQUAL(s.gpu_model, "Model A");
    CU_ASSERT_EQUAL(s.gpu_memory_mb, 16 * 1024);

    /* a 3D controller with no OS device is a GPU, named by its PCI name;
       a VGA chip with only a DRM device is not; a GPU's audio function
       (same slot) is not a second card */
    const char *pci_only =
        PCI("20", "0000:03:00.0", "0300 [1a03:2000] [0000:0000] 41", INFO("PCIDevice", "BMC VGA")
            OSDEV("21", "card0", "", "1", ""))
        PCI("22", "0000:41:00.0", "0302 [10de:20b5] [10de:1533] a1", INFO("PCIDevice", "GA100 [A100 PCIe 80GB]"))
        PCI("23", "0000:41:00.1", "0403 [10de:1aef] [10de:1533] a1", "");
    CU_ASSERT_EQUAL(load_io(&t, "pci-only.xml", pci_only, &s, &e), 0);
    CU_ASSERT_EQUAL(s.gpus, 1);
    CU_ASSERT_STRING_EQUAL(s.gpu_model, "GA100 [A100 PCIe 80GB]");
    CU_ASSERT_EQUAL(s.gpu_memory_mb, 0);
    CU_ASSERT_EQUAL(s.fpgas, 0);

    /* FPGAs: an Intel card seen through an OS device of subtype FPGA, an Altera
       card by its vendor id, a Xilinx card's two functions are one card; an
       AMD GPU through RSMI (memory with a KiB suffix) and OpenCL is one GPU */
    const char *fpgas =
        PCI("30", "0000:5e:00.0", "1200 [8086:0b30] [8086:0000] 01", OSDEV("31", "fpga0", "FPGA", "5", ""))
        PCI("32", "0000:5f:00.0", "1200 [1172:5052] [1172:0000] 01", "")
        PCI("33", "0000:60:00.0", "1200 [10ee:5004] [10ee:000e] 00", "")
        PCI("34", "0000:60:00.1", "1200 [10ee:5005] [10ee:000e] 00", "")
        PCI("35", "0000:c1:00.0", "0380 [1002:740c] [1002:0c34] 01",
            OSDEV("36", "rsmi0", "RSMI", "1", INFO("GPUModel", "AMD Instinct MI250X") INFO("RSMIVRAMSize", "67108864KiB"))
            OSDEV("37", "opencl0d0", "OpenCL", "5", INFO("OpenCLDeviceType", "GPU")));
    CU_ASSERT_EQUAL(load_io(&t, "fpgas.xml", fpgas, &s, &e), 0);
    CU_ASSERT_EQUAL(s.fpgas, 3);
    CU_ASSERT_STRING_EQUAL(s.fpga_model, "fpga0"); /* no PCI name: the OS device's */
    CU_ASSERT_EQUAL(s.gpus, 1);
    CU_ASSERT_STRING_EQUAL(s.gpu_model, "AMD Instinct MI250X");
    CU_ASSERT_EQUAL(s.gpu_memory_mb, 64 * 1024);

    tmp_done(&t);
}

/* GPU memory that is no size, or past any node's memory, is no memory
   info (it was read as 18014398509481983 MiB); more GPUs or FPGAs than a
   node may have (the gpus and fpgas keys' limit) are an error. */
static void test_card_limits(void)
{
    tmp_t t = {hsim_test_tmpdir("topology"), {{0}}, 0};
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.dir);
    hsim_node_shape_t s;
    hsim_err_t e = {{0}};
    const char *bad_memory[] = {"-5", "18446744073709551615", "lots", "1000"};
    for (size_t i = 0; i < sizeof bad_memory / sizeof bad_memory[0]; i++) {
        char io[512];
        snprintf(io, sizeof io,
                 "    <object type=\"OSDev\" gp_index=\"10\" name=\"cuda0\" subtype=\"CUDA\" "
                 "osdev_type=\"5\"><info name=\"CUDAGlobalMemorySize\" value=\"%s\"/></object>\n",
                 bad_memory[i]);
        char name[32];
        snprintf(name, sizeof name, "mem%zu.xml", i);
        CU_ASSERT_EQUAL(load_io(&t, name, io, &s, &e), 0);
        CU_ASSERT_EQUAL(s.gpus, 1);
        CU_ASSERT_EQUAL(s.gpu_memory_mb, 0);
    }
    for (int kind = 0; kind < 2; kind++) {
        for (int n = HSIM_NODE_DEVICES_MAX; n <= HSIM_NODE_DEVICES_MAX + 1; n++) {
            size_t size = strlen(xml_head) + strlen(xml_tail) + (size_t)n * 160 + 1, len = 0;
            char *text = malloc(size);
            CU_ASSERT_PTR_NOT_NULL_FATAL(text);
            len += (size_t)snprintf(text + len, size - len, "%s", xml_head);
            for (int i = 0; i < n; i++)
                len += (size_t)snprintf(text + len, size - len,
                                        "    <object type=\"OSDev\" gp_index=\"%d\" name=\"d%d\" "
                                        "subtype=\"%s\" osdev_type=\"5\"/>\n",
                                        10 + i, i, kind ? "FPGA" : "CUDA");
            snprintf(text + len, size - len, "%s", xml_tail);
            char name[32];
            snprintf(name, sizeof name, "many%d-%d.xml", kind, n);
            tmp_write(&t, name, text);
            free(text);
            char spec[64];
            snprintf(spec, sizeof spec, "xml:%s", name);
            int rc = hsim_topology_load(spec, t.dir, WHERE, &s, &e);
            if (n == HSIM_NODE_DEVICES_MAX) {
                CU_ASSERT_EQUAL(rc, 0);
                CU_ASSERT_EQUAL(kind ? s.fpgas : s.gpus, n);
            } else {
                CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
                CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "expected at most 1024 GPUs and 1024 FPGAs"));
            }
        }
    }
    tmp_done(&t);
}

/* ---- errors ---- */

static void expect_input_error(const char *spec, const char *base_dir, const char *needle)
{
    hsim_node_shape_t s;
    memset(&s, 0xab, sizeof s);
    hsim_err_t e = {{0}};
    int rc = hsim_topology_load(spec, base_dir, WHERE, &s, &e);
    CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
    CU_ASSERT_EQUAL(strncmp(e.msg, WHERE ": ", strlen(WHERE) + 2), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "expected"));
    if (needle)
        CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, needle));
    CU_ASSERT_EQUAL(s.cores, 0);
    CU_ASSERT_EQUAL(s.gpus, 0);
    if (rc != HSIM_EINPUT || strncmp(e.msg, WHERE, strlen(WHERE)) ||
        (needle && !strstr(e.msg, needle)))
        fprintf(stderr, "\nspec '%s': rc %d, message: %s\n", spec ? spec : "(null)", rc, e.msg);
}

static void test_bad_specs(void)
{
    expect_input_error("pack:2 core:4", NULL, "synthetic:");
    expect_input_error("json:node.json", NULL, "'json:node.json'");
    expect_input_error("", NULL, "xml:");
    expect_input_error(NULL, NULL, "xml:");
    expect_input_error("synthetic:", NULL, "found nothing");
    expect_input_error("xml:  ", NULL, "found nothing");
    expect_input_error("synthetic:pack:2 core:x", NULL, "'pack:2 core:x'");
    expect_input_error("synthetic:pack:0 core:4", NULL, "Invalid argument");
    expect_input_error("synthetic:socket:2 widget:3", NULL, "synthetic");
}

/* hwloc takes seconds to build a synthetic node of tens of thousands of PUs
   (a fuzzer found one): more than 4,096 is refused before it starts, however
   the description writes its counts. */
static void test_too_many_pus(void)
{
    expect_input_error("synthetic:pack:2 numa:1 core:4 pu:2100", NULL, "at most 4096");
    expect_input_error("synthetic:pack:2 pu:2049", NULL, "'pack:2 pu:2049'");
    expect_input_error("synthetic:4 4 4 65", NULL, "at most 4096");
    expect_input_error("synthetic:pack:2(memory=64GB) core:0x401 pu:2", NULL, "at most 4096");
    expect_input_error("synthetic:pack:2 [numa(memory=1GB)] core:1024 pu:3", NULL, "at most 4096");
    expect_input_error("synthetic:pack:65536 pu:65536", NULL, "at most 4096");
    expect_input_error("synthetic:pack:4294967295 pu:2", NULL, "at most 4096");
    /* exactly the limit, with attributes and memory children whose numbers
       are no counts */
    hsim_node_shape_t s;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_topology_load("synthetic:pack:2(memory=64GB) [numa(memory=1GB)] "
                                             "core:0x400 pu:2",
                                             NULL, WHERE, &s, &e), 0);
    CU_ASSERT_EQUAL(s.pus, 4096);
    CU_ASSERT_EQUAL(s.cores, 2048);
}

static void test_bad_files(void)
{
    expect_input_error("xml:no-such-node.xml", TOPO_DIR, "No such file or directory");
    expect_input_error("xml:no-such-node.xml", TOPO_DIR, TOPO_DIR "/no-such-node.xml");
    expect_input_error("xml:traces", HSIM_SOURCE_DIR, "traces");

    tmp_t t = {hsim_test_tmpdir("topology"), {{0}}, 0};
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.dir);
    tmp_write(&t, "cut.xml", "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n  <object type=\"Machine\"\n");
    tmp_write(&t, "empty.xml", "");
    tmp_write(&t, "other.xml", "<?xml version=\"1.0\"?>\n<html><body/></html>\n");
    tmp_write(&t, "text.xml", "pack:2 core:16 pu:2\n");
    expect_input_error("xml:cut.xml", t.dir, "cut.xml");
    expect_input_error("xml:empty.xml", t.dir, "empty.xml");
    expect_input_error("xml:other.xml", t.dir, "other.xml");
    expect_input_error("xml:text.xml", t.dir, "hwloc XML");
    tmp_done(&t);
}

/* The file src with its first old replaced by new, written as name in t. */
static void write_variant(tmp_t *t, const char *name, const char *src, const char *old,
                          const char *new)
{
    FILE *f = fopen(src, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static char text[1 << 16], out[(1 << 16) + 256];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *at = strstr(text, old);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, new, at + strlen(old));
    tmp_write(t, name, out);
}

/* cpu-node.xml with its first NUMA node's local_memory="137438953472"
   given as value, written as name in t. */
static void write_numa_memory(tmp_t *t, const char *name, const char *value)
{
    char attr[64];
    snprintf(attr, sizeof attr, "local_memory=\"%s\"", value);
    write_variant(t, name, TOPO_DIR "/cpu-node.xml", "local_memory=\"137438953472\"", attr);
}

/* A negative local_memory was read as 2^64 - 1 bytes: 17,592,186,044,415
   MiB per node, without a word.  It is an error naming the file and the
   line; a large one that is no wrapped negative still loads. */
static void test_negative_memory(void)
{
    tmp_t t = {hsim_test_tmpdir("topology"), {{0}}, 0};
    CU_ASSERT_PTR_NOT_NULL_FATAL(t.dir);
    write_numa_memory(&t, "neg.xml", "-1");
    write_numa_memory(&t, "neg5.xml", "-5");
    write_numa_memory(&t, "big.xml", "1099511627776000");
    expect_input_error("xml:neg.xml", t.dir, "neg.xml':9: local_memory of NUMA node 0: "
                                             "expected a size in bytes, found a negative one (-1)");
    expect_input_error("xml:neg5.xml", t.dir, "found a negative one (-5)");
    /* a core whose cpuset names no PU of its own (fuzz_topology found it):
       2 cores and 1 PU, which topology.h says cannot be */
    expect_input_error("xml:core-without-its-pu.xml", HSIM_SOURCE_DIR "/tests/fuzz/regress/topology",
                       "expected a processing unit (PU) in every core, found 2 cores and 1 PUs");
    /* a PU without a cpuset crashed hwloc 2.9 (fuzz_topology found it) */
    write_variant(&t, "pu.xml", HSIM_SOURCE_DIR "/tests/fuzz/seeds/topology/small-gpu.xml",
                  "<object type=\"PU\" os_index=\"1\" cpuset=",
                  "<object type=\"PU\" os_index=\"1\" Jpuset=");
    expect_input_error("xml:pu.xml", t.dir,
                       "pu.xml':11: an object of type PU without a cpuset attribute");
    expect_input_error("xml:pu-without-cpuset.xml", HSIM_SOURCE_DIR "/tests/fuzz/regress/topology",
                       "without a complete_nodeset attribute");
    expect_input_error("xml:machine-without-complete-cpuset.xml",
                       HSIM_SOURCE_DIR "/tests/fuzz/regress/topology",
                       "':4: an object of type Machine without a complete_cpuset attribute");
    expect_input_error("xml:numa-node-without-complete-nodeset.xml",
                       HSIM_SOURCE_DIR "/tests/fuzz/regress/topology",
                       "':6: an object of type NUMANode without a complete_nodeset attribute");
    /* a PU without its number: hwloc took it as 2^32 - 1 (seconds, 512 MiB) */
    expect_input_error("xml:pu-without-os-index.xml", HSIM_SOURCE_DIR "/tests/fuzz/regress/topology",
                       "':284: an object of type PU without an os_index from 0 to 1048575");
    /* a bitmap hwloc cannot read: an assertion failed in hwloc 2.9 */
    expect_input_error("xml:bitmap-starting-with-a-comma.xml",
                       HSIM_SOURCE_DIR "/tests/fuzz/regress/topology",
                       "':8: attribute cpuset: expected a bitmap such as");
    hsim_node_shape_t s;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_topology_load("xml:big.xml", t.dir, WHERE, &s, &e), 0);
    CU_ASSERT_EQUAL(s.memory_mb, 1048576000 + 131072); /* 1000 TiB + the other node */
    tmp_done(&t);
}

/* An allocation failure is reported, and nothing leaks (the harness checks). */
static void test_out_of_memory(void)
{
    hsim_node_shape_t s;
    hsim_err_t e = {{0}};
    hsim_alloc_fail_after(1);
    CU_ASSERT_EQUAL(hsim_topology_load(shipped[0].spec, HSIM_SOURCE_DIR, WHERE, &s, &e), HSIM_ENOMEM);
    hsim_alloc_fail_after(0);
    CU_ASSERT_EQUAL(strncmp(e.msg, WHERE, strlen(WHERE)), 0);
}

/* A failed load followed by good ones: no state carries over. */
static void test_repeatable(void)
{
    hsim_node_shape_t a, b;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_topology_load(shipped[2].spec, HSIM_SOURCE_DIR, WHERE, &a, &e), 0);
    CU_ASSERT_EQUAL(hsim_topology_load("xml:missing.xml", HSIM_SOURCE_DIR, WHERE, &b, &e), HSIM_EINPUT);
    CU_ASSERT_EQUAL(hsim_topology_load(shipped[2].spec, HSIM_SOURCE_DIR, WHERE, &b, &e), 0);
    CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("topology");
    HSIM_TEST(s, test_synthetic);
    HSIM_TEST(s, test_too_many_pus);
    HSIM_TEST(s, test_shipped_xml);
    HSIM_TEST(s, test_xml_paths);
    HSIM_TEST(s, test_every_shipped_file_loads);
    HSIM_TEST(s, test_describe);
    HSIM_TEST(s, test_card_rules);
    HSIM_TEST(s, test_card_limits);
    HSIM_TEST(s, test_bad_specs);
    HSIM_TEST(s, test_bad_files);
    HSIM_TEST(s, test_negative_memory);
    HSIM_TEST(s, test_out_of_memory);
    HSIM_TEST(s, test_repeatable);
}
