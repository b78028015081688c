/*
 * test_config.c - the experiment INI reader: a full file, the defaults, and
 * every kind of mistake with the line it must name.
 */
#include "harness.h"

#include "policies/registry.h"
#include "sim/config.h"

#include <stdlib.h>
#include <string.h>

static hsim_config_t cfg; /* large: keep it off the stack */

static int contains(const char *hay, const char *needle)
{
    return strstr(hay, needle) != NULL;
}

static int parse(const char *text, const char *path, hsim_err_t *e)
{
    memset(e, 0, sizeof *e);
    return hsim_config_parse_string(text, path, &cfg, e);
}

/*
 * Expects text to fail with HSIM_EINPUT and a message that starts with
 * "exp/x.ini:LINE:" and contains each non-NULL needle.
 */
static void expect_error_at(const char *text, int line, const char *n1, const char *n2,
                            const char *n3)
{
    hsim_err_t e;
    int rc = parse(text, "exp/x.ini", &e);
    CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "exp/x.ini:%d: ", line);
    if (!hsim_test_message_ok(e.msg, prefix, n1, n2, n3))
        CU_FAIL("error message");
}

/* A minimal valid prefix, 5 lines, for error cases that need the rest. */
#define VALID_HEAD "[workload]\npath = t.swf\n[policy a]\nbackfill = easy\n\n"

/* ---- valid files ---- */

static void test_full_file(void)
{
    const char *text =
        "; an experiment, every key given\n"          /* 1 */
        "[experiment]\n"                               /* 2 */
        "name = kth-easy            ; inline comment\n" /* 3 */
        "output = out/dir\n"                           /* 4 */
        "seed = 42\n"                                  /* 5 */
        "\n"                                           /* 6 */
        "[workload]\n"                                 /* 7 */
        "format = swf\n"                               /* 8 */
        "path = ../shared/traces/t.swf.gz\n"           /* 9 */
        "clean = pyss\n"                               /* 10 */
        "max_jobs = 1000\n"                            /* 11 */
        "[cluster]\n"                                  /* 12 */
        "processors = 128\n"                           /* 13 */
        "[policy easy]              ; one or more\n"   /* 14 */
        "queue = fcfs\n"                               /* 15 */
        "backfill = easy\n"                            /* 16 */
        "[policy cons]\n"                              /* 17 */
        "queue = sjf\n"                                /* 18 */
        "backfill = conservative\n"                    /* 19 */
        "estimate = oracle\n"                          /* 20 */
        "[policy sjbf]\n"                              /* 21 */
        "backfill = easy\n"                            /* 22 */
        "backfill_order = sjf\n";                      /* 23 */
    hsim_err_t e;
    int rc = parse(text, "experiments/kth.ini", &e);
    if (rc)
        fprintf(stderr, "\n%s\n", e.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(cfg.path, "experiments/kth.ini");
    CU_ASSERT_STRING_EQUAL(cfg.name, "kth-easy");
    CU_ASSERT_STRING_EQUAL(cfg.output, "out/dir");
    CU_ASSERT_EQUAL(cfg.seed, 42);
    CU_ASSERT_STRING_EQUAL(cfg.format, "swf");
    CU_ASSERT_STRING_EQUAL(cfg.trace, "experiments/../shared/traces/t.swf.gz");
    CU_ASSERT_EQUAL(cfg.trace_line, 9);
    CU_ASSERT_EQUAL(cfg.clean, HSIM_CLEAN_PYSS);
    CU_ASSERT_EQUAL(cfg.max_jobs, 1000);
    CU_ASSERT_EQUAL(cfg.processors, 128);
    CU_ASSERT_EQUAL_FATAL(cfg.n_policies, 3);

    const hsim_policy_config_t *p = &cfg.policies[0];
    CU_ASSERT_STRING_EQUAL(p->name, "easy");
    CU_ASSERT_EQUAL(p->line, 14);
    CU_ASSERT_PTR_EQUAL(p->order, hsim_order_find("fcfs"));
    CU_ASSERT_PTR_EQUAL(p->scheduler, hsim_scheduler_find("easy"));
    CU_ASSERT_PTR_EQUAL(p->predictor, hsim_predictor_find("user"));
    CU_ASSERT_PTR_NULL(p->backfill_order);

    p = &cfg.policies[1];
    CU_ASSERT_STRING_EQUAL(p->name, "cons");
    CU_ASSERT_EQUAL(p->line, 17);
    CU_ASSERT_PTR_EQUAL(p->order, hsim_order_find("sjf"));
    CU_ASSERT_PTR_EQUAL(p->scheduler, hsim_scheduler_find("conservative"));
    CU_ASSERT_PTR_EQUAL(p->predictor, hsim_predictor_find("oracle"));
    CU_ASSERT_PTR_NULL(p->backfill_order);

    p = &cfg.policies[2];
    CU_ASSERT_STRING_EQUAL(p->name, "sjbf");
    CU_ASSERT_EQUAL(p->line, 21);
    CU_ASSERT_PTR_EQUAL(p->order, hsim_order_find("fcfs"));
    CU_ASSERT_PTR_EQUAL(p->scheduler, hsim_scheduler_find("easy"));
    CU_ASSERT_PTR_EQUAL(p->backfill_order, hsim_order_find("sjf"));
    CU_ASSERT_PTR_NOT_NULL(p->backfill_order);
}

static void test_defaults(void)
{
    const char *text = "[workload]\npath = t.swf\n[policy only]\n";
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(parse(text, "dir/sub/my-exp.ini", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.name, "my-exp"); /* the file's stem */
    /* less its last extension only: two runs of a sweep are two names (both
       were "sweep", and one results folder) */
    CU_ASSERT_EQUAL_FATAL(parse(text, "dir/sweep.1.ini", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.name, "sweep.1");
    CU_ASSERT_EQUAL_FATAL(parse(text, "noext", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.name, "noext");
    CU_ASSERT_EQUAL_FATAL(parse(text, "dir/sub/my-exp.ini", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.output, "results");
    CU_ASSERT_EQUAL(cfg.seed, 1);
    CU_ASSERT_STRING_EQUAL(cfg.format, "swf");
    CU_ASSERT_EQUAL(cfg.clean, HSIM_CLEAN_STANDARD);
    CU_ASSERT_EQUAL(cfg.max_jobs, 0);
    CU_ASSERT_EQUAL(cfg.processors, 0);
    CU_ASSERT_STRING_EQUAL(cfg.trace, "dir/sub/t.swf");
    CU_ASSERT_EQUAL(cfg.trace_line, 2);
    CU_ASSERT_EQUAL_FATAL(cfg.n_policies, 1);
    const hsim_policy_config_t *p = &cfg.policies[0];
    CU_ASSERT_STRING_EQUAL(p->name, "only");
    CU_ASSERT_EQUAL(p->line, 3);
    CU_ASSERT_PTR_EQUAL(p->order, hsim_order_find("fcfs"));
    CU_ASSERT_PTR_EQUAL(p->scheduler, hsim_scheduler_find("none"));
    CU_ASSERT_PTR_EQUAL(p->predictor, hsim_predictor_find("user"));
    CU_ASSERT_PTR_NULL(p->backfill_order);
}

/* Empty [policy X] sections count, in file order. */
static void test_empty_policy_sections(void)
{
    const char *text =
        "[policy zeta]\n"
        "[policy alpha]\n"
        "backfill = conservative\n"
        "[workload]\n"
        "path = /abs/t.swf\n"
        "[policy mid]\n"
        "; nothing but a comment\n"
        "\n";
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(parse(text, "x.ini", &e), 0);
    CU_ASSERT_EQUAL_FATAL(cfg.n_policies, 3);
    CU_ASSERT_STRING_EQUAL(cfg.policies[0].name, "zeta");
    CU_ASSERT_STRING_EQUAL(cfg.policies[1].name, "alpha");
    CU_ASSERT_STRING_EQUAL(cfg.policies[2].name, "mid");
    CU_ASSERT_EQUAL(cfg.policies[0].line, 1);
    CU_ASSERT_EQUAL(cfg.policies[2].line, 6);
    CU_ASSERT_PTR_EQUAL(cfg.policies[0].scheduler, hsim_scheduler_find("none"));
    CU_ASSERT_PTR_EQUAL(cfg.policies[1].scheduler, hsim_scheduler_find("conservative"));
    CU_ASSERT_PTR_EQUAL(cfg.policies[2].scheduler, hsim_scheduler_find("none"));
    CU_ASSERT_STRING_EQUAL(cfg.trace, "/abs/t.swf"); /* absolute: kept */
}

static void test_relative_paths(void)
{
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(parse("[workload]\npath = traces/a.swf\n[policy p]\n",
                                "/srv/exp/e.ini", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.trace, "/srv/exp/traces/a.swf");
    CU_ASSERT_STRING_EQUAL(cfg.dir, "/srv/exp");
    CU_ASSERT_EQUAL_FATAL(parse("[workload]\npath = ../t.swf\n[policy p]\n", "a/b.ini", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.trace, "a/../t.swf");
    /* an INI in the current folder: the trace is relative to it */
    CU_ASSERT_EQUAL_FATAL(parse("[workload]\npath = t.swf\n[policy p]\n", "e.ini", &e), 0);
    CU_ASSERT_TRUE(!strcmp(cfg.trace, "t.swf") || !strcmp(cfg.trace, "./t.swf"));
    /* output stays relative to the current folder, not to the INI */
    CU_ASSERT_EQUAL_FATAL(parse("[experiment]\noutput = res\n[workload]\npath = t.swf\n"
                                "[policy p]\n", "a/b.ini", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.output, "res");
    /* trailing slashes dropped, so that messages and the check for two
       experiments in one folder see one spelling; the root stays */
    CU_ASSERT_EQUAL_FATAL(parse("[experiment]\noutput = res//\n[workload]\npath = t.swf\n"
                                "[policy p]\n", "a/b.ini", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.output, "res");
    CU_ASSERT_EQUAL_FATAL(parse("[experiment]\noutput = /\n[workload]\npath = t.swf\n"
                                "[policy p]\n", "a/b.ini", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.output, "/");
    /* an empty output is a mistake, not the current folder */
    expect_error_at("[experiment]\noutput =\n[workload]\npath = t.swf\n[policy p]\n", 2,
                    "output", "expected a folder, found nothing", NULL);
    /* an INI whose stem is no valid name: the experiment is "experiment" */
    CU_ASSERT_EQUAL_FATAL(parse("[workload]\npath = t.swf\n[policy p]\n", "a/.ini", &e), 0);
    CU_ASSERT_STRING_EQUAL(cfg.name, "experiment");
}

/* hsim_config_load on a real file: same parser, trace next to the INI. */
static void test_load_file(void)
{
    char *dir = hsim_test_tmpdir("config");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char path[600];
    snprintf(path, sizeof path, "%s/run.ini", dir);
    hsim_test_write_file(path, "[experiment]\nseed = 7\n[workload]\npath = w.swf\nclean = pyss\n"
                     "[policy e]\nbackfill = easy\n");
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_config_load(path, &cfg, &e), 0);
    char want[700];
    snprintf(want, sizeof want, "%s/w.swf", dir);
    CU_ASSERT_STRING_EQUAL(cfg.trace, want);
    CU_ASSERT_STRING_EQUAL(cfg.name, "run");
    CU_ASSERT_EQUAL(cfg.seed, 7);
    CU_ASSERT_EQUAL(cfg.n_policies, 1);

    /* a mistake in a file names the file and line */
    hsim_test_write_file(path, "[experiment]\n\nsed = 7\n");
    CU_ASSERT_EQUAL(hsim_config_load(path, &cfg, &e), HSIM_EINPUT);
    snprintf(want, sizeof want, "%s:3: ", path);
    CU_ASSERT_EQUAL(strncmp(e.msg, want, strlen(want)), 0);
    remove(path);

    CU_ASSERT_EQUAL(hsim_config_load(path, &cfg, &e), HSIM_EIO); /* gone */
    CU_ASSERT_TRUE(contains(e.msg, path));
    remove(dir);
    free(dir);
}

/* ---- mistakes ---- */

static void test_unknown_section(void)
{
    expect_error_at(VALID_HEAD "[experimnt]\nname = x\n", 6, "unknown section", "experimnt", NULL);
    expect_error_at("[workload]\npath = t.swf\n[policies]\n[policy a]\n", 3,
                    "unknown section", "[policies]", NULL);
    /* "[policy]" without a name is no policy section */
    expect_error_at("[policy]\n" VALID_HEAD, 1, NULL, NULL, NULL);
}

static void test_unknown_key_experiment(void)
{
    expect_error_at("[experiment]\nname = a\nseeds = 3\n" VALID_HEAD, 3,
                    "unknown key 'seeds'", "[experiment]", NULL);
}

static void test_unknown_key_workload(void)
{
    expect_error_at("[workload]\npath = t.swf\n\nmaxjobs = 3\n[policy a]\n", 4,
                    "unknown key 'maxjobs'", "[workload]", NULL);
}

/* swf_extra: what the SWF reader does with fields past the 18th (default
   detect: Alea's extended layout); an SWF key only. */
static void test_swf_extra(void)
{
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(parse("[workload]\npath = t.swf\n[policy a]\n", "exp/x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.swf_extra, HSIM_SWF_EXTRA_DETECT);
    const char *names[] = {"detect", "ignore", "error"};
    for (int i = 0; i < 3; i++) {
        char text[128];
        snprintf(text, sizeof text, "[workload]\npath = t.swf\nswf_extra = %s\n[policy a]\n",
                 names[i]);
        CU_ASSERT_EQUAL_FATAL(parse(text, "exp/x.ini", &e), 0);
        CU_ASSERT_EQUAL(cfg.swf_extra, (hsim_swf_extra_t)i);
    }
    expect_error_at("[workload]\npath = t.swf\nswf_extra = skip\n[policy a]\n", 3,
                    "swf_extra 'skip': expected one of detect, ignore, error", NULL, NULL);
    expect_error_at("[workload]\nformat = elasticflow\npath = f.csv\nswf_extra = ignore\n"
                    "[policy a]\n", 4, "swf_extra does not apply to format elasticflow",
                    "only swf", NULL);
    expect_error_at("[workload]\npath = t.swf\nswf_extra = ignore\nswf_extra = error\n"
                    "[policy a]\n", 4, "swf_extra", NULL, NULL);
}

/* A known [workload] key that the format does not read is an error, not
   ignored without a word. */
static void test_key_not_read(void)
{
    expect_error_at("[workload]\npath = t.swf\n\njobs = 500\n[policy a]\n", 4,
                    "jobs does not apply to format swf", "lublin, dl, mix", NULL);
    expect_error_at("[workload]\nformat = lublin\npath = t.swf\n[policy a]\n", 3,
                    "path does not apply to format lublin", NULL, NULL);
    expect_error_at("[workload]\nformat = elasticflow\npath = f.csv\nclean = pyss\n"
                    "[policy a]\n", 4, "clean does not apply to format elasticflow",
                    "only swf", NULL);
    expect_error_at("[workload]\nformat = dl\nload = 0.5\nestimate_factor = 2\n"
                    "[policy a]\n", 4, "estimate_factor", "format dl", "lublin, mix");
    expect_error_at("[workload]\npath = t.swf\nmax_jobs = 5\nskip_bad_rows = true\n"
                    "[policy a]\n", 4, "skip_bad_rows", "format swf", NULL);
    expect_error_at("[workload]\nformat = lublin\nscientific = 0.5\n[policy a]\n", 3,
                    "scientific", "only mix", NULL);
    /* SWF jobs get accelerators and classes only on a cluster of nodes */
    expect_error_at("[workload]\npath = t.swf\ngpu_share = 0.1\n[cluster]\n"
                    "processors = 8\n[policy a]\n", 3, "gpu_share", "cluster of nodes",
                    "[nodes NAME]");
    /* the first such key in the file, whichever section it is in */
    expect_error_at("[workload]\npath = t.swf\nusers = 3\njobs = 9\n[policy a]\n", 3,
                    "users", NULL, NULL);
    expect_error_at("[policy a]\nbackfill_order = sjf\n[workload]\npath = t.swf\n"
                    "jobs = 9\n", 2, "backfill_order", NULL, NULL);
    /* [policy] keys: backfill_order is read by easy alone, placement and
       spread on a cluster of nodes alone */
    expect_error_at("[workload]\npath = t.swf\n[policy a]\nbackfill = conservative\n"
                    "backfill_order = sjf\n", 5, "[policy a] backfill_order",
                    "backfill = conservative", "only easy");
    expect_error_at("[workload]\npath = t.swf\n[policy a]\nbackfill_order = sjf\n", 4,
                    "backfill = none", NULL, NULL);
    /* conservative keeps its reservations: no predictor that revises or
       can be outlived */
    expect_error_at("[workload]\npath = t.swf\n[policy a]\nestimate = last2\n"
                    "backfill = conservative\n", 4, "[policy a] estimate = last2",
                    "backfill = conservative", "user or oracle");
    expect_error_at(VALID_HEAD "[policy b]\nspread = spread\nplacement = best-fit\n", 7,
                    "[policy b] spread applies only on a cluster of nodes", "[nodes NAME]",
                    "alibaba_nodes");
    expect_error_at(VALID_HEAD "[policy b]\nbackfill = easy\nbackfill_order = sjf\n"
                    "placement = best-fit\n", 9, "[policy b] placement", NULL, NULL);
    /* keys every format reads */
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse("[workload]\nformat = lublin\nmax_jobs = 5\njobs = 9\n"
                          "estimate_factor = 2\n[cluster]\nprocessors = 8\n[policy a]\n",
                          "exp/x.ini", &e), 0);
    CU_ASSERT_EQUAL(parse(VALID_HEAD "[policy b]\nbackfill = easy\nbackfill_order = sjf\n",
                          "exp/x.ini", &e), 0);
    CU_ASSERT_EQUAL(parse(VALID_HEAD "[policy b]\nbackfill = easy\nbackfill_order = sjf\n"
                          "estimate = last2\n[policy c]\nqueue = sjf\nestimate = last2\n",
                          "exp/x.ini", &e), 0);
}

static void test_unknown_key_cluster(void)
{
    expect_error_at(VALID_HEAD "[cluster]\nprocessors = 4\nnodes = 3\n", 8,
                    "unknown key 'nodes'", "[cluster]", NULL);
}

static void test_unknown_key_policy(void)
{
    expect_error_at(VALID_HEAD "[policy b]\nqueue = fcfs\nbackfil = easy\n", 8,
                    "unknown key 'backfil'", "policy b", NULL);
}

static void test_duplicate_key(void)
{
    expect_error_at("[experiment]\nseed = 1\n; c\nseed = 2\n" VALID_HEAD, 4, "seed",
                    "twice", NULL);
    expect_error_at("[workload]\npath = t.swf\npath = u.swf\n[policy a]\n", 3, "path",
                    "twice", NULL);
    expect_error_at(VALID_HEAD "[cluster]\nprocessors = 4\nprocessors = 4\n", 8,
                    "processors", "twice", NULL);
    expect_error_at("[workload]\npath = t.swf\n[policy a]\nbackfill = easy\n"
                    "queue = sjf\nbackfill = none\n", 6, "backfill", "twice", NULL);
}

static void test_duplicate_policy(void)
{
    expect_error_at(VALID_HEAD "[policy b]\n[policy a]\nqueue = sjf\n", 7, "'a'",
                    "twice", "line 3");
}

static void test_bad_policy_name(void)
{
    expect_error_at(VALID_HEAD "[policy a/b]\n", 6, "policy name", "a/b", NULL);
    expect_error_at(VALID_HEAD "\n[policy ..]\n", 7, "policy name", NULL, NULL);
    expect_error_at(VALID_HEAD "[policy two words]\n", 6, "policy name", NULL, NULL);
    /* the experiment's own files, the .<pid>.part files they are written
       to, and the folder's lock file */
    const char *files[] = {"summary.csv", "classes.csv", "rejected.csv", "cluster.csv",
                           "summary.png", "rejected.csv.4711.part", ".hsim.lock"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, VALID_HEAD "[policy %s]\n", files[i]);
        expect_error_at(text, 6, "policy name", files[i], "writes a file of that name");
    }
    /* names that only begin or end like them are folders like any other */
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse(VALID_HEAD "[policy summary.csv2]\n[policy my-summary.csv]\n"
                                     "[policy summary]\n[policy summary.csv.part]\n"
                                     "[policy summary.csv.x1.part]\n[policy .hsim]\n",
                          "exp/x.ini", &e), 0);
}

/* Names of up to 63 characters; the message says which rule a name breaks. */
static void test_name_lengths(void)
{
    char text[1024], name[80];
    hsim_err_t e;
    for (int len = 63; len <= 64; len++) {
        memset(name, 'n', (size_t)len);
        name[len] = '\0';
        snprintf(text, sizeof text, VALID_HEAD "[policy %s]\n", name);
        if (len == 63) {
            CU_ASSERT_EQUAL(parse(text, "exp/x.ini", &e), 0);
        } else {
            expect_error_at(text, 6, "policy name", "expected 1 to 63 characters", "...'");
        }
        snprintf(text, sizeof text, "[experiment]\nname = %s\n" VALID_HEAD, name);
        if (len == 63) {
            CU_ASSERT_EQUAL(parse(text, "exp/x.ini", &e), 0);
        } else {
            expect_error_at(text, 2, "name", "expected 1 to 63 characters", NULL);
        }
    }
    expect_error_at("[experiment]\nname =\n" VALID_HEAD, 2, "name ''", "1 to 63", NULL);
    expect_error_at(VALID_HEAD "[policy  ]\n", 6, "policy name ''", "1 to 63", NULL);
    expect_error_at("[experiment]\nname = a b\n" VALID_HEAD, 2, "name 'a b'", "letters",
                    "results folder");
}

/* At most 64 [policy] sections: the 65th is an error at its line. */
static void test_too_many_policies(void)
{
    char text[2048] = "[workload]\npath = t.swf\n";
    for (int i = 1; i <= 65; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "[policy p%d]\n", i);
    expect_error_at(text, 67, "too many policies", "64", NULL);
    *strstr(text, "[policy p65]") = '\0';
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse(text, "exp/x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.n_policies, 64);
}

static void test_unknown_names(void)
{
    char names[256];
    hsim_order_names(names, sizeof names);
    CU_ASSERT_TRUE(contains(names, "fcfs") && contains(names, "sjf"));
    expect_error_at("[workload]\npath = t.swf\n[policy a]\nqueue = lifo\n", 4,
                    "'lifo'", names, NULL);
    expect_error_at("[workload]\npath = t.swf\n[policy a]\nbackfill_order = big\n", 4,
                    "'big'", names, NULL);
    expect_error_at("[workload]\npath = t.swf\n[policy a]\n\nbackfill = aggressive\n", 5,
                    "'aggressive'", "none, easy, conservative", NULL);
    hsim_predictor_names(names, sizeof names);
    CU_ASSERT_TRUE(contains(names, "user") && contains(names, "oracle"));
    expect_error_at("[workload]\npath = t.swf\n[policy a]\nestimate = magic\n", 4,
                    "'magic'", names, NULL);
    expect_error_at("[workload]\npath = t.swf\nclean = tidy\n[policy a]\n", 3, "'tidy'",
                    "pyss", "standard");
    expect_error_at("[workload]\nformat = gwf\npath = t.swf\n[policy a]\n", 2, "gwf",
                    "swf", NULL);
}

static void test_bad_seed(void)
{
    expect_error_at("[experiment]\nseed = abc\n" VALID_HEAD, 2, "seed", "abc", NULL);
    expect_error_at("[experiment]\nseed = -1\n" VALID_HEAD, 2, "seed", NULL, NULL);
    expect_error_at("[experiment]\nseed = 1.5\n" VALID_HEAD, 2, "seed", NULL, NULL);
    expect_error_at("[experiment]\nseed = 99999999999999999999999\n" VALID_HEAD, 2, "seed",
                    "0..18446744073709551615", NULL); /* its range, not only its sign */
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse("[experiment]\nseed = 0\n" VALID_HEAD, "x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.seed, 0);
    CU_ASSERT_EQUAL(parse("[experiment]\nseed = 18446744073709551615\n" VALID_HEAD, "x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.seed, UINT64_MAX);
}

static void test_bad_processors(void)
{
    expect_error_at(VALID_HEAD "[cluster]\nprocessors = 0\n", 7, "processors", "'0'", NULL);
    expect_error_at(VALID_HEAD "[cluster]\nprocessors = -1\n", 7, "processors", "-1", NULL);
    expect_error_at(VALID_HEAD "[cluster]\nprocessors = abc\n", 7, "processors", "abc", NULL);
    expect_error_at(VALID_HEAD "[cluster]\nprocessors = 12x\n", 7, "processors", NULL, NULL);
    expect_error_at(VALID_HEAD "[cluster]\nprocessors = 3000000000\n", 7, "processors",
                    "expected an integer in 1..2147483647", "'3000000000'");
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse(VALID_HEAD "[cluster]\nprocessors = 1\n", "x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.processors, 1);
    CU_ASSERT_EQUAL(parse(VALID_HEAD "[cluster]\nprocessors = 2147483647\n", "x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.processors, 2147483647);
}

static void test_bad_max_jobs(void)
{
    expect_error_at("[workload]\npath = t.swf\nmax_jobs = -5\n[policy a]\n", 3, "max_jobs",
                    "-5", NULL);
    expect_error_at("[workload]\npath = t.swf\nmax_jobs = many\n[policy a]\n", 3,
                    "max_jobs", "many", NULL);
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse("[workload]\npath = t.swf\nmax_jobs = 0\n[policy a]\n", "x.ini",
                          &e), 0);
    CU_ASSERT_EQUAL(cfg.max_jobs, 0);
    /* a generator's job count: at most 2^31 - 1, refused at its line */
    expect_error_at("[workload]\nformat = mix\njobs = 100000000000\n[policy a]\n", 3, "jobs",
                    "1..2147483647", "'100000000000'");
    expect_error_at("[workload]\nformat = lublin\njobs = 0\n[policy a]\n", 3, "jobs", "'0'",
                    NULL);
    CU_ASSERT_EQUAL(parse("[workload]\nformat = lublin\njobs = 2147483647\n[cluster]\n"
                          "processors = 64\n[policy a]\n", "x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.jobs, 2147483647u);
}

/* The Lublin model draws job sizes for the machine: without its size, the
   mistake is the INI's, at the format line (the generator's own message
   named a library parameter, machine_procs). */
static void test_lublin_needs_a_machine(void)
{
    expect_error_at("[workload]\njobs = 5\nformat = lublin\n[policy a]\n", 3, "format lublin",
                    "[cluster] processors", "[nodes NAME]");
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse("[workload]\nformat = lublin\n[nodes cpu]\ncount = 2\ncores = 8\n"
                          "[policy a]\n", "x.ini", &e), 0);
}

static void test_key_before_section(void)
{
    expect_error_at("seed = 3\n" VALID_HEAD, 1, "seed", "before any section", NULL);
    expect_error_at("; comment\n\nname = x\n" VALID_HEAD, 3, "name", "section", NULL);
}

static void test_syntax_error(void)
{
    expect_error_at(VALID_HEAD "[cluster]\nprocessors 100\n", 7, "key = value", NULL, NULL);
    expect_error_at("[workload]\npath = t.swf\n[policy a\n", 3, NULL, NULL, NULL);
}

/* inih reads an indented line as more of the value above; hsim says so at
   that line instead of reading something else. */
static void test_indented_line(void)
{
    expect_error_at(VALID_HEAD "[cluster]\n  processors = 100\n", 7, "indented", NULL, NULL);
    expect_error_at("[workload]\npath = t.swf\n\tclean = pyss\n[policy a]\n", 3,
                    "indented", NULL, NULL);
    /* inih skips a form feed, a vertical tab or a carriage return as it
       does a space: a section so indented was opened by inih alone, and
       its keys went to the section above (exit 0) */
    expect_error_at(VALID_HEAD "[policy b]\n\f[policy c]\nbackfill = easy\n", 7, "indented",
                    NULL, NULL);
    expect_error_at(VALID_HEAD "[policy b]\n\v[policy c]\n", 7, "indented", NULL, NULL);
    expect_error_at(VALID_HEAD "[policy b]\n\r[policy c]\n", 7, "indented", NULL, NULL);
    expect_error_at(VALID_HEAD "[policy b]\nqueue = fcfs\n\fbackfill = easy\n", 8, "indented",
                    NULL, NULL);
    /* indented comments and blank lines are fine, a page break too */
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse(VALID_HEAD "  ; a comment\n   \n\t# another\n\f\n\f; page 2\n"
                                     "[policy b]\n", "x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.n_policies, 2);
}

/* Writes text to a temporary file and loads it as hsim_config_load()
   does. */
static int load_as_file(const char *text, hsim_err_t *e)
{
    char *dir = hsim_test_tmpdir("config-file");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char path[600];
    snprintf(path, sizeof path, "%s/x.ini", dir);
    hsim_test_write_file(path, text);
    int rc = hsim_config_load(path, &cfg, e);
    remove(path);
    remove(dir);
    free(dir);
    return rc;
}

/* The longest line is the same from a file and from a string: 198
   characters, whether it ends in LF or CRLF (the CR counted once). */
static void test_long_line(void)
{
    char text[600];
    for (int crlf = 0; crlf <= 1; crlf++)
        for (int len = 198; len <= 199; len++) {
            int n = snprintf(text, sizeof text, "%s;", VALID_HEAD);
            for (int i = 1; i < len; i++)
                text[n++] = 'x';
            snprintf(text + n, sizeof text - (size_t)n, "%s\n[cluster]\nprocessors = 10\n",
                     crlf ? "\r" : "");
            hsim_err_t e;
            int rc = parse(text, "exp/x.ini", &e);
            if (len == 198) {
                CU_ASSERT_EQUAL(rc, 0);
            } else {
                expect_error_at(text, 6, "line longer than 198 bytes", NULL, NULL);
            }
            CU_ASSERT_EQUAL(load_as_file(text, &e), len == 198 ? 0 : HSIM_EINPUT);
        }
}

/* Text after a section header's ']' is an error (inih drops it: a key
   written there was lost, "[policy a] backfill = easy" ran FCFS); blanks
   and a ';' comment may follow. */
static void test_text_after_section(void)
{
    expect_error_at(VALID_HEAD "[policy c] backfill = easy\n", 6, "text after the section header",
                    "found 'backfill = easy'", NULL);
    expect_error_at("[experiment] junk\n" VALID_HEAD, 1, "text after the section header", NULL,
                    NULL);
    expect_error_at(VALID_HEAD "[class a]b]\n", 6, "found 'b]'", NULL, NULL);
    expect_error_at(VALID_HEAD "[policy c]\rqueue = sjf\n", 6, "text after the section header",
                    NULL, NULL);
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse(VALID_HEAD "[policy c]   ; a comment\nbackfill = easy\n"
                                     "[policy d]\t\r\n", "exp/x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.n_policies, 3);
}

/* A UTF-8 byte order mark (Windows editors write one) is skipped, from a
   string and from a file; only on the first line. */
static void test_byte_order_mark(void)
{
    const char *text = "\xEF\xBB\xBF[workload]\npath = t.swf\n[cluster]\nprocessors = 10\n"
                       "[policy a]\nbackfill = easy\n";
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse(text, "exp/x.ini", &e), 0);
    CU_ASSERT_EQUAL(cfg.processors, 10);
    CU_ASSERT_EQUAL(load_as_file(text, &e), 0);
    CU_ASSERT_EQUAL(cfg.n_policies, 1);
    CU_ASSERT_STRING_EQUAL(cfg.policies[0].scheduler->name, "easy");
    expect_error_at("\xEF\xBB\xBF[workload]\npath = t.swf\n[policy a]\nbogus = 1\n", 4,
                    "unknown key 'bogus'", NULL, NULL);
    expect_error_at("\xEF\xBB\xBF  [workload]\n", 1, "indented line", NULL, NULL);
    /* the mark does not count against the longest line */
    for (int len = 198; len <= 199; len++) {
        char line[300] = "\xEF\xBB\xBF;";
        for (int i = 1; i < len; i++)
            line[3 + i] = 'x';
        snprintf(line + 3 + len, sizeof line - 3 - (size_t)len, "\n%s", text + 3);
        if (len == 198) {
            CU_ASSERT_EQUAL(parse(line, "exp/x.ini", &e), 0);
            CU_ASSERT_EQUAL(load_as_file(line, &e), 0);
        } else {
            expect_error_at(line, 1, "line longer than 198 bytes", NULL, NULL);
        }
    }
    expect_error_at(VALID_HEAD "\xEF\xBB\xBF[cluster]\n", 6, "key = value", NULL, NULL);
}

/* Two mistakes: the message names the first one in the file. */
static void test_first_mistake_reported(void)
{
    /* an unknown key first, then a syntax error */
    expect_error_at("[workload]\npath = t.swf\nbogus = 1\n[policy a]\nthis is not ini\n",
                    3, "bogus", NULL, NULL);
    /* a syntax error first, then an unknown key */
    expect_error_at("[workload]\npath = t.swf\nthis is not ini\n[policy a]\nbogus = 1\n",
                    3, "key = value", NULL, NULL);
}

static void test_missing_path(void)
{
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse("[experiment]\nname = x\n[workload]\nclean = pyss\n[policy a]\n",
                          "exp/x.ini", &e), HSIM_EINPUT);
    CU_ASSERT_EQUAL(strncmp(e.msg, "exp/x.ini:", 10), 0);
    CU_ASSERT_TRUE(contains(e.msg, "path"));
    CU_ASSERT_TRUE(contains(e.msg, "missing"));
    CU_ASSERT_EQUAL(parse("[workload]\npath =\n[policy a]\n", "exp/x.ini", &e), HSIM_EINPUT);
    CU_ASSERT_TRUE(contains(e.msg, "exp/x.ini:2:"));
}

static void test_no_policy(void)
{
    hsim_err_t e;
    CU_ASSERT_EQUAL(parse("[workload]\npath = t.swf\n", "exp/x.ini", &e), HSIM_EINPUT);
    CU_ASSERT_EQUAL(strncmp(e.msg, "exp/x.ini:", 10), 0);
    CU_ASSERT_TRUE(contains(e.msg, "policy"));
    CU_ASSERT_EQUAL(parse("", "exp/x.ini", &e), HSIM_EINPUT);
}

static void test_bad_experiment_name(void)
{
    expect_error_at("[experiment]\nname = a b\n" VALID_HEAD, 2, "name", NULL, NULL);
    expect_error_at("[experiment]\nname = ../up\n" VALID_HEAD, 2, "name", NULL, NULL);
}

void hsim_test_register(void)
{
    CU_pSuite v = hsim_test_suite("config-valid");
    HSIM_TEST(v, test_full_file);
    HSIM_TEST(v, test_defaults);
    HSIM_TEST(v, test_empty_policy_sections);
    HSIM_TEST(v, test_relative_paths);
    HSIM_TEST(v, test_load_file);
    CU_pSuite m = hsim_test_suite("config-mistakes");
    HSIM_TEST(m, test_unknown_section);
    HSIM_TEST(m, test_unknown_key_experiment);
    HSIM_TEST(m, test_unknown_key_workload);
    HSIM_TEST(m, test_key_not_read);
    HSIM_TEST(m, test_swf_extra);
    HSIM_TEST(m, test_unknown_key_cluster);
    HSIM_TEST(m, test_unknown_key_policy);
    HSIM_TEST(m, test_duplicate_key);
    HSIM_TEST(m, test_duplicate_policy);
    HSIM_TEST(m, test_bad_policy_name);
    HSIM_TEST(m, test_unknown_names);
    HSIM_TEST(m, test_name_lengths);
    HSIM_TEST(m, test_too_many_policies);
    HSIM_TEST(m, test_bad_seed);
    HSIM_TEST(m, test_bad_processors);
    HSIM_TEST(m, test_bad_max_jobs);
    HSIM_TEST(m, test_lublin_needs_a_machine);
    HSIM_TEST(m, test_key_before_section);
    HSIM_TEST(m, test_syntax_error);
    HSIM_TEST(m, test_first_mistake_reported);
    HSIM_TEST(m, test_indented_line);
    HSIM_TEST(m, test_long_line);
    HSIM_TEST(m, test_text_after_section);
    HSIM_TEST(m, test_byte_order_mark);
    HSIM_TEST(m, test_missing_path);
    HSIM_TEST(m, test_no_policy);
    HSIM_TEST(m, test_bad_experiment_name);
}
