/*
 * test_load.c - hsim_experiment_load(), between the INI and the engine: the
 * machine size of an SWF trace (the [cluster] key, else MaxProcs, else
 * MaxNodes, else an error), and an SWF trace on a cluster of nodes: job
 * classes named after a field (class_by), the limit on their number, and
 * the jobs that gpu_share and fpga_share turn into GPU or FPGA jobs; the
 * generators' bounds as the INI's mistakes, and the generators on a
 * cluster from Alibaba's node list.
 */
#include "harness.h"

#include "sim/config.h"
#include "sim/experiment.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hsim_config_t cfg; /* large: keep it off the stack */
static char dir[HSIM_PATH_MAX]; /* the tests' folder: x.ini and t.swf */
static char ini[HSIM_PATH_MAX]; /* <dir>/x.ini */

/* Writes text as <dir>/t.swf, making the folder at the first call. */
static void write_trace(const char *text)
{
    if (!dir[0]) {
        char *d = hsim_test_tmpdir("load");
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        snprintf(dir, sizeof dir, "%s", d);
        snprintf(ini, sizeof ini, "%s/x.ini", dir);
        free(d);
    }
    char path[HSIM_PATH_MAX + 8];
    snprintf(path, sizeof path, "%s/t.swf", dir);
    hsim_test_write_file(path, text);
}

/* An SWF job line: id, submit 10 * id, runtime 100, procs, requested time
   200, user 1, and the app, queue and partition fields. */
static void job_line(char *out, size_t size, int id, int procs, int app, int queue, int part)
{
    snprintf(out, size, "%d %d -1 100 %d -1 -1 %d 200 -1 1 1 1 %d %d %d -1 -1\n", id, 10 * id,
             procs, procs, app, queue, part);
}

/* Parses the INI text as <dir>/x.ini (so that path = t.swf is the trace
   written above) and loads its workload into w.  The load's result. */
static int load(const char *text, hsim_workload_t *w, int32_t *capacity, hsim_err_t *e)
{
    memset(e, 0, sizeof *e);
    int rc = hsim_config_parse_string(text, ini, &cfg, e);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return hsim_experiment_load(&cfg, w, capacity, e);
}

/* ---- the machine size of an SWF trace ---- */

/* The capacity loaded from a trace with the given header lines, on
   [cluster] processors = cluster when it is > 0; -1 when the load fails
   (its message in e). */
static int32_t capacity_of(const char *header, int32_t cluster, hsim_err_t *e)
{
    char text[1024], line[128];
    snprintf(text, sizeof text, "%s", header);
    job_line(line, sizeof line, 1, 4, -1, -1, -1);
    strcat(text, line);
    job_line(line, sizeof line, 2, 64, -1, -1, -1);
    strcat(text, line);
    write_trace(text);
    char ini_text[256] = "[workload]\npath = t.swf\nclean = pyss\n";
    if (cluster > 0)
        snprintf(ini_text + strlen(ini_text), sizeof ini_text - strlen(ini_text),
                 "[cluster]\nprocessors = %d\n", cluster);
    strcat(ini_text, "[policy p]\n");
    hsim_workload_t w;
    int32_t capacity = 0;
    int rc = load(ini_text, &w, &capacity, e);
    if (rc)
        return -1;
    /* pyss cleaning cuts the 64-processor job to the machine's size */
    CU_ASSERT_EQUAL(w.n_jobs, 2);
    if (w.n_jobs == 2)
        CU_ASSERT_EQUAL(w.jobs[1].procs, capacity < 64 ? capacity : 64);
    hsim_workload_free(&w);
    return capacity;
}

static void test_capacity_from_headers(void)
{
    hsim_err_t e;
    CU_ASSERT_EQUAL(capacity_of("; MaxProcs: 32\n; MaxNodes: 8\n", 0, &e), 32);
    CU_ASSERT_EQUAL(capacity_of("; MaxNodes: 8\n", 0, &e), 8);
    CU_ASSERT_EQUAL(capacity_of("; MaxProcs: -1\n; MaxNodes: 16\n", 0, &e), 16);
    CU_ASSERT_EQUAL(capacity_of("; MaxProcs: 32\n; MaxNodes: 8\n", 100, &e), 100);
    CU_ASSERT_EQUAL(capacity_of("; Computer: no size\n", 48, &e), 48);
    CU_ASSERT_EQUAL(capacity_of("; Computer: no size\n", 0, &e), -1);
    char at_line[HSIM_PATH_MAX + 8]; /* the INI's line of the trace */
    snprintf(at_line, sizeof at_line, "%s:2: trace ", ini);
    if (!hsim_test_message_ok(e.msg, at_line, "gives no machine size (no MaxProcs or MaxNodes "
                              "header above 0)", "set [cluster] processors", NULL))
        CU_FAIL("error message");
    /* 0 and -1 are no size either */
    CU_ASSERT_EQUAL(capacity_of("; MaxProcs: 0\n; MaxNodes: -1\n", 0, &e), -1);
    if (!hsim_test_message_ok(e.msg, ini, "gives no machine size", NULL, NULL))
        CU_FAIL("error message");
}

/* ---- an SWF trace on nodes ---- */

#define ON_NODES "[nodes cpu]\ncount = 4\ncores = 8\n" \
                 "[nodes acc]\ncount = 2\ncores = 8\ngpus = 4\nfpgas = 2\n[policy p]\n"

/* The name of job i's class, "" for none. */
static const char *class_of(const hsim_workload_t *w, size_t i)
{
    int16_t k = w->jobs[i].job_class;
    return k < 0 ? "" : w->classes[k];
}

static void test_classes_by_field(void)
{
    char text[4096] = "; MaxProcs: 48\n", line[128];
    job_line(line, sizeof line, 1, 1, 7, 2, 3);
    strcat(text, line);
    job_line(line, sizeof line, 2, 1, -1, -1, -1);
    strcat(text, line);
    job_line(line, sizeof line, 3, 1, 0, 5, 1);
    strcat(text, line);
    job_line(line, sizeof line, 4, 1, 7, 5, 3);
    strcat(text, line);
    write_trace(text);
    static const struct {
        const char *by;
        const char *names[4];
        size_t n_classes;
    } cases[] = {
        {"app", {"app7", "app-unknown", "app0", "app7"}, 3},
        {"queue", {"queue2", "queue-unknown", "queue5", "queue5"}, 3},
        {"partition", {"partition3", "partition-unknown", "partition1", "partition3"}, 3},
        {"none", {"", "", "", ""}, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char ini_text[512];
        snprintf(ini_text, sizeof ini_text, "[workload]\npath = t.swf\nclass_by = %s\n" ON_NODES,
                 cases[c].by);
        hsim_workload_t w;
        int32_t capacity;
        hsim_err_t e;
        CU_ASSERT_EQUAL_FATAL(load(ini_text, &w, &capacity, &e), 0);
        CU_ASSERT_EQUAL(capacity, 48); /* the nodes' cores */
        CU_ASSERT_EQUAL(w.n_classes, cases[c].n_classes);
        CU_ASSERT_EQUAL_FATAL(w.n_jobs, 4);
        for (size_t i = 0; i < 4; i++)
            if (strcmp(class_of(&w, i), cases[c].names[i])) {
                fprintf(stderr, "\nclass_by %s, job %zu: class '%s', wanted '%s'\n", cases[c].by,
                        i + 1, class_of(&w, i), cases[c].names[i]);
                CU_FAIL("class name");
            }
        hsim_workload_free(&w);
    }
}

static void test_class_limit(void)
{
    /* one app number per job: 256 classes load, 257 do not */
    for (int n = HSIM_MAX_CLASSES; n <= HSIM_MAX_CLASSES + 1; n++) {
        size_t size = 64 + (size_t)n * 64;
        char *text = malloc(size), line[128];
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        snprintf(text, size, "; MaxProcs: 48\n");
        for (int i = 1; i <= n; i++) {
            job_line(line, sizeof line, i, 1, 1000 + i, -1, -1);
            strcat(text, line);
        }
        write_trace(text);
        free(text);
        hsim_workload_t w;
        int32_t capacity;
        hsim_err_t e;
        int rc = load("[workload]\npath = t.swf\nclass_by = app\n" ON_NODES, &w, &capacity, &e);
        if (n == HSIM_MAX_CLASSES) {
            CU_ASSERT_EQUAL(rc, 0);
            CU_ASSERT_EQUAL(w.n_classes, HSIM_MAX_CLASSES);
            if (rc == 0)
                hsim_workload_free(&w);
        } else {
            /* at the trace line of the job that needs the 257th class */
            CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
            char at[HSIM_PATH_MAX + 16];
            snprintf(at, sizeof at, "%s/t.swf:258", dir);
            if (!hsim_test_message_ok(e.msg, at, "class_by app gives this job the class app1257",
                                      "expected at most 256 classes in all", NULL))
                CU_FAIL("error message");
        }
    }
}

/* Loads 'jobs' one-processor jobs (every fifth of 8 processors) with the
   given seed and [workload] lines; 0 or the load's code. */
static int load_shares(int jobs, unsigned long long seed, const char *keys, hsim_workload_t *w)
{
    size_t size = 64 + (size_t)jobs * 64;
    char *text = malloc(size), line[128];
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    snprintf(text, size, "; MaxProcs: 48\n");
    for (int i = 1; i <= jobs; i++) {
        job_line(line, sizeof line, i, i % 5 ? 1 : 8, -1, -1, -1);
        strcat(text, line);
    }
    write_trace(text);
    free(text);
    char ini_text[512];
    snprintf(ini_text, sizeof ini_text,
             "[experiment]\nseed = %llu\n[workload]\npath = t.swf\n%s" ON_NODES, seed, keys);
    int32_t capacity;
    hsim_err_t e;
    return load(ini_text, w, &capacity, &e);
}

static void test_every_job_on_gpus(void)
{
    hsim_workload_t w;
    CU_ASSERT_EQUAL_FATAL(load_shares(50, 1, "gpu_share = 1\ngpus_per_job = 4\n", &w), 0);
    int bad = 0;
    for (size_t i = 0; i < w.n_jobs; i++) {
        const hsim_job_t *j = &w.jobs[i];
        int32_t procs = (i + 1) % 5 ? 1 : 8;
        /* one core for each GPU at least; larger jobs keep their cores */
        bad += j->gpus != 4 || j->gpu_milli != 1000 || j->fpgas != 0 ||
               j->procs != (procs < 4 ? 4 : procs);
    }
    CU_ASSERT_EQUAL(w.n_jobs, 50);
    CU_ASSERT_EQUAL(bad, 0);
    hsim_workload_free(&w);
}

static void test_every_job_on_fpgas(void)
{
    hsim_workload_t w;
    CU_ASSERT_EQUAL_FATAL(load_shares(50, 1, "fpga_share = 1\n", &w), 0);
    int bad = 0;
    for (size_t i = 0; i < w.n_jobs; i++) {
        const hsim_job_t *j = &w.jobs[i];
        bad += j->fpgas != 1 || j->gpus != 0 || j->procs != ((i + 1) % 5 ? 1 : 8);
    }
    CU_ASSERT_EQUAL(w.n_jobs, 50);
    CU_ASSERT_EQUAL(bad, 0);
    hsim_workload_free(&w);
}

/* Half the jobs drawn for GPUs, half of the rest for FPGAs: a job gets at
   most one kind, the shares come out near 1/2 and 1/4, and the draws
   follow the seed. */
static void test_shares_follow_the_seed(void)
{
    enum { N = 2000 };
    static char kind[4][N]; /* by run: 'g', 'f' or '-' for each job */
    static const unsigned long long seeds[4] = {1, 1, 2, 4294967297ull}; /* 1 + 2^32 */
    for (int run = 0; run < 4; run++) {
        hsim_workload_t w;
        int rc = load_shares(N, seeds[run], "gpu_share = 0.5\nfpga_share = 0.5\n", &w);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        CU_ASSERT_EQUAL_FATAL(w.n_jobs, N);
        int gpus = 0, fpgas = 0, both = 0;
        for (size_t i = 0; i < N; i++) {
            const hsim_job_t *j = &w.jobs[i];
            gpus += j->gpus > 0;
            fpgas += j->fpgas > 0;
            both += j->gpus > 0 && j->fpgas > 0;
            kind[run][i] = j->gpus ? 'g' : j->fpgas ? 'f' : '-';
        }
        CU_ASSERT_EQUAL(both, 0);
        /* binomial: 1,000 +- 22 GPU jobs, 500 +- 19 FPGA jobs; 5 sigma */
        CU_ASSERT(gpus > 890 && gpus < 1110);
        CU_ASSERT(fpgas > 400 && fpgas < 600);
        hsim_workload_free(&w);
    }
    CU_ASSERT(memcmp(kind[0], kind[1], N) == 0);
    CU_ASSERT(memcmp(kind[0], kind[2], N) != 0);
    /* every bit of the seed counts (only the low 32 did: 1 + 2^32 drew as 1) */
    CU_ASSERT(memcmp(kind[0], kind[3], N) != 0);
}

/* ---- a generator's bounds, as the INI's mistakes ---- */

/* mix's max_job_cores above the cluster's cores: an error at its line, in
   the INI's words (the generator's said 'cluster_cpus'); at the cores
   exactly, the workload loads. */
static void test_max_job_cores(void)
{
    static const char *const head = "[workload]\nformat = mix\njobs = 50\nmax_job_cores = %d\n"
                                    "[nodes c]\ncount = 6\ncores = 8\n"
                                    "[nodes g]\ncount = 1\ncores = 16\ngpus = 8\n[policy p]\n";
    char text[256];
    hsim_workload_t w;
    int32_t capacity;
    hsim_err_t e;
    write_trace(""); /* makes the folder of x.ini */
    snprintf(text, sizeof text, head, 65);
    CU_ASSERT_EQUAL(load(text, &w, &capacity, &e), HSIM_EINPUT);
    char want[HSIM_PATH_MAX + 128];
    snprintf(want, sizeof want, "%s:4: max_job_cores: expected at most the cluster's 64 cores "
             "(or 0 for that many), found 65", ini);
    CU_ASSERT_STRING_EQUAL(e.msg, want);
    snprintf(text, sizeof text, head, 64);
    CU_ASSERT_EQUAL_FATAL(load(text, &w, &capacity, &e), 0);
    CU_ASSERT_EQUAL(w.n_jobs + w.n_rejected, 50);
    hsim_workload_free(&w);
}

/* dl, and mix with a dl share, on nodes without GPUs: the INI's mistake,
   in its words (the generators said "parameter 'cluster_gpus' ... found
   0"); mix without the dl share runs there. */
static void test_gpu_jobs_need_gpus(void)
{
    hsim_workload_t w;
    int32_t capacity;
    hsim_err_t e;
    write_trace("");
    char want[HSIM_PATH_MAX + 128];
    CU_ASSERT_EQUAL(load("[workload]\nformat = dl\n[nodes c]\ncount = 2\ncores = 64\n"
                         "[policy p]\n", &w, &capacity, &e), HSIM_EINPUT);
    snprintf(want, sizeof want, "%s: format dl needs GPUs: expected [nodes NAME] sections "
             "with gpus", ini);
    CU_ASSERT_STRING_EQUAL(e.msg, want);
    CU_ASSERT_EQUAL(load("[workload]\nformat = mix\n[nodes c]\ncount = 2\ncores = 64\n"
                         "[policy p]\n", &w, &capacity, &e), HSIM_EINPUT);
    snprintf(want, sizeof want, "%s: format mix with a dl share needs GPUs: expected [nodes "
             "NAME] sections with gpus, or dl = 0", ini);
    CU_ASSERT_STRING_EQUAL(e.msg, want);
    CU_ASSERT_EQUAL_FATAL(load("[workload]\nformat = mix\njobs = 40\nscientific = 0.5\n"
                               "dl = 0\nbigdata = 0.5\n[nodes c]\ncount = 2\ncores = 64\n"
                               "[policy p]\n", &w, &capacity, &e), 0);
    CU_ASSERT_EQUAL(w.n_jobs, 40);
    hsim_workload_free(&w);
}

/* A machine the generators' models cannot size jobs for: in the INI's
   words (they said "parameter 'machine_procs'", "'model.gpu_sizes[3]'",
   "'bigdata.cores_max'"); one size more runs. */
static void test_machine_too_small_for_a_model(void)
{
    static const struct {
        const char *ini, *msg;
    } small[] = {
        {"format = lublin\n[cluster]\nprocessors = 2\n",
         "the Lublin model sizes jobs for 3 to 16777216 processors: found a machine of 2 "
         "processors"},
        {"format = dl\n[nodes g]\ncores = 64\ngpus = 7\n",
         "format dl draws jobs of up to 8 GPUs: expected a cluster of at least 8 GPUs, found 7"},
        {"format = mix\n[nodes g]\ncount = 2\ncores = 31\ngpus = 8\n",
         "format mix draws big-data jobs of up to 64 cores: expected a cluster of at least 64 "
         "cores, or bigdata = 0, found 62"},
        {"format = mix\nmax_job_cores = 2\n[nodes g]\ncount = 2\ncores = 64\ngpus = 8\n",
         "the Lublin model of mix's scientific jobs sizes jobs for 3 to 16777216 processors: "
         "found max_job_cores = 2 (or scientific = 0)"},
    };
    static const char *const fits[] = {
        "format = lublin\n[cluster]\nprocessors = 3\n",
        "format = dl\n[nodes g]\ncores = 64\ngpus = 8\n",
        "format = mix\n[nodes g]\ncount = 2\ncores = 32\ngpus = 8\n",
        "format = mix\nmax_job_cores = 3\n[nodes g]\ncount = 2\ncores = 64\ngpus = 8\n",
    };
    write_trace("");
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        hsim_workload_t w;
        int32_t capacity;
        hsim_err_t e;
        char text[512], want[HSIM_PATH_MAX + 256];
        snprintf(text, sizeof text, "[workload]\njobs = 50\n%s[policy p]\n", small[i].ini);
        CU_ASSERT_EQUAL(load(text, &w, &capacity, &e), HSIM_EINPUT);
        snprintf(want, sizeof want, "%s: %s", ini, small[i].msg);
        CU_ASSERT_STRING_EQUAL(e.msg, want);
        snprintf(text, sizeof text, "[workload]\njobs = 50\n%s[policy p]\n", fits[i]);
        int rc = load(text, &w, &capacity, &e);
        if (rc)
            fprintf(stderr, "\n%s: %s\n", fits[i], e.msg);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc == 0)
            hsim_workload_free(&w);
    }
}

/* A generator on a cluster from Alibaba's node list sizes its jobs by that
   cluster: before, it saw no cores and no GPUs, and every generator failed
   (lublin: "parameter 'machine_procs' ... found 0"). */
static void test_generators_on_an_alibaba_node_list(void)
{
    write_trace("");
    char path[HSIM_PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/nodes.csv", dir);
    /* 2 nodes of 8 GPUs and 96 cores, one of 32 cores (31.5 rounded down) */
    hsim_test_write_file(path, "sn,cpu_milli,memory_mib,gpu,model\n"
                               "n0,96000,786432,8,V100M32\nn1,96000,786432,8,V100M32\n"
                               "n2,31500,131072,0,nan\n");
    static const char *const formats[] = {"lublin", "dl", "mix"};
    for (size_t f = 0; f < 3; f++) {
        char text[512];
        snprintf(text, sizeof text, "[workload]\nformat = %s\njobs = 300\n[cluster]\n"
                 "alibaba_nodes = nodes.csv\n[policy p]\n", formats[f]);
        hsim_workload_t w;
        int32_t capacity;
        hsim_err_t e;
        int rc = load(text, &w, &capacity, &e);
        if (rc)
            fprintf(stderr, "\n%s: %s\n", formats[f], e.msg);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        CU_ASSERT_EQUAL(w.n_jobs + w.n_rejected, 300);
        int32_t most_procs = 0, most_gpus = 0;
        for (size_t i = 0; i < w.n_jobs; i++) {
            if (w.jobs[i].procs > most_procs)
                most_procs = w.jobs[i].procs;
            if (w.jobs[i].gpus > most_gpus)
                most_gpus = w.jobs[i].gpus;
        }
        CU_ASSERT(most_procs >= 1 && most_procs <= 96 + 96 + 31);
        CU_ASSERT(most_gpus <= 16);
        if (f > 0) /* dl and mix make GPU jobs */
            CU_ASSERT(most_gpus >= 1);
        hsim_workload_free(&w);
    }
}

/* An SWF trace on a cluster from Alibaba's node list: its machine is that
   cluster's cores, not the trace's header (which rejected a job of 64
   processors on "a machine of 4" while the cluster had 223 cores), and
   the SWF-on-a-cluster keys apply (they were "only on a cluster of
   nodes"). */
static void test_swf_on_an_alibaba_node_list(void)
{
    char text[1024] = "; MaxProcs: 4\n", line[128];
    job_line(line, sizeof line, 1, 2, -1, 3, -1);
    strcat(text, line);
    job_line(line, sizeof line, 2, 64, -1, 3, -1);
    strcat(text, line);
    job_line(line, sizeof line, 3, 500, -1, 3, -1);
    strcat(text, line);
    write_trace(text);
    char path[HSIM_PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/nodes.csv", dir);
    hsim_test_write_file(path, "sn,cpu_milli,memory_mib,gpu,model\n"
                               "n0,96000,786432,8,V100M32\nn1,96000,786432,8,V100M32\n"
                               "n2,31500,131072,0,nan\n");
    hsim_workload_t w;
    int32_t capacity;
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(load("[workload]\npath = t.swf\nclass_by = queue\n"
                               "gpu_share = 1\ngpus_per_job = 2\n[cluster]\n"
                               "alibaba_nodes = nodes.csv\n[policy p]\n", &w, &capacity, &e), 0);
    CU_ASSERT_EQUAL(capacity, 96 + 96 + 31);
    CU_ASSERT_EQUAL_FATAL(w.n_jobs, 2);
    CU_ASSERT_EQUAL(w.jobs[1].procs, 64);
    CU_ASSERT_STRING_EQUAL(class_of(&w, 0), "queue3");
    CU_ASSERT_EQUAL(w.jobs[0].gpus, 2);
    /* the 500-processor job is more than the cluster (standard cleaning) */
    CU_ASSERT_EQUAL_FATAL(w.n_rejected, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(w.rejected[0].reason, "the machine has 223"));
    hsim_workload_free(&w);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("load_capacity");
    HSIM_TEST(s, test_capacity_from_headers);
    s = hsim_test_suite("load_on_nodes");
    HSIM_TEST(s, test_classes_by_field);
    HSIM_TEST(s, test_class_limit);
    HSIM_TEST(s, test_every_job_on_gpus);
    HSIM_TEST(s, test_every_job_on_fpgas);
    HSIM_TEST(s, test_shares_follow_the_seed);
    HSIM_TEST(s, test_swf_on_an_alibaba_node_list);
    s = hsim_test_suite("load_generators");
    HSIM_TEST(s, test_max_job_cores);
    HSIM_TEST(s, test_gpu_jobs_need_gpus);
    HSIM_TEST(s, test_machine_too_small_for_a_model);
    HSIM_TEST(s, test_generators_on_an_alibaba_node_list);
}
