/*
 * test_alloc_fail.c - allocation-failure injection: a replay under each
 * scheduler, and an experiment with its policies on three threads, whose
 * n-th allocation fails, for n = 1, 2, ... until one runs through.  Each
 * failure must be reported as out of memory and leak nothing, and the run
 * that goes through must give the schedule of a run without failures.
 */
#include "sched_test.h"

#include "sim/experiment.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void inject(const char *sched, const char *bf_order, const char *pred)
{
    hsim_workload_t w;
    hsim_test_random_workload(&w, 4242, 60, 16, 1.5);
    hsim_outcome_t good[60], out[60];
    hsim_err_t e = {{0}};
    hsim_run_config_t c = hsim_test_config(16, sched, "fcfs", bf_order, pred);
    CU_ASSERT_EQUAL_FATAL(hsim_engine_run(&w, &c, good, NULL, &e), 0);
    int ok = 0, enomem = 0, other = 0, leaks = 0;
    for (long n = 1; n <= 5000 && !ok; n++) {
        long live = hsim_alloc_live();
        hsim_alloc_fail_after(n);
        int rc = hsim_engine_run(&w, &c, out, NULL, &e);
        hsim_alloc_fail_after(0);
        if (hsim_alloc_live() != live) {
            if (leaks++ < 3)
                fprintf(stderr, "\n%s: failing allocation %ld leaks %ld block(s)\n", sched, n,
                        hsim_alloc_live() - live);
        }
        if (rc == 0) {
            ok = 1;
            int same = 1;
            for (size_t i = 0; i < w.n_jobs; i++)
                same &= good[i].start == out[i].start && good[i].end == out[i].end &&
                        good[i].fate == out[i].fate;
            CU_ASSERT_TRUE(same);
            CU_ASSERT_TRUE(n > 5);
        } else if (rc == HSIM_ENOMEM) {
            enomem++;
        } else {
            if (other++ < 3)
                fprintf(stderr, "\n%s: failing allocation %ld gave %d: %s\n", sched, n, rc,
                        e.msg);
        }
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_TRUE(enomem >= 5); /* the run does allocate, and reports it */
    CU_ASSERT_EQUAL(other, 0);
    CU_ASSERT_EQUAL(leaks, 0);
    hsim_workload_free(&w);
}

/* Removes path and all below it. */
static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *ent;
        while ((ent = readdir(d))) {
            if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
                continue;
            char sub[1024];
            snprintf(sub, sizeof sub, "%s/%s", path, ent->d_name);
            remove_tree(sub);
        }
        closedir(d);
        rmdir(path);
    } else {
        remove(path);
    }
}

static int run_threads(void *arg, hsim_err_t *e)
{
    hsim_experiment_options_t o = {.quiet = 1, .threads = 3};
    return hsim_experiment_run(arg, &o, e);
}

/* An experiment on a cluster of nodes, its three policies on three threads,
   whose n-th allocation fails, for n = 1, 2, ... until it runs through:
   each failure is reported as out of memory and leaks nothing, whichever
   thread it hits. */
static void test_enomem_threads(void)
{
    char *dir = hsim_test_tmpdir("enomem-threads");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    static hsim_config_t cfg; /* large */
    char text[1024], ini[600];
    snprintf(ini, sizeof ini, "%s/t.ini", dir);
    snprintf(text, sizeof text,
             "[experiment]\nname = t\noutput = %s/out\nseed = 7\n"
             "[workload]\nformat = lublin\njobs = 40\nload = 0.9\n"
             "[nodes n]\ncount = 8\ncores = 8\n"
             "[output]\ncharts = none\n" /* test_plot.c fails the charts' */
             "[policy a]\n[policy b]\nbackfill = easy\n[policy c]\nbackfill = conservative\n",
             dir);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_config_parse_string(text, ini, &cfg, &e), 0);
    hsim_test_enomem(run_threads, &cfg, 20000, 10);
    remove_tree(dir);
    free(dir);
}

static void test_enomem_none(void) { inject("none", NULL, "user"); }
static void test_enomem_easy(void) { inject("easy", NULL, "user"); }
static void test_enomem_easy_sjbf(void) { inject("easy", "sjf", "user"); }
static void test_enomem_easy_plus_plus(void) { inject("easy", "sjf", "last2"); }
static void test_enomem_conservative(void) { inject("conservative", NULL, "user"); }

void hsim_test_register(void)
{
    CU_pSuite m = hsim_test_suite("allocation-failures");
    HSIM_TEST(m, test_enomem_none);
    HSIM_TEST(m, test_enomem_easy);
    HSIM_TEST(m, test_enomem_easy_sjbf);
    HSIM_TEST(m, test_enomem_easy_plus_plus);
    HSIM_TEST(m, test_enomem_conservative);
    HSIM_TEST(m, test_enomem_threads);
}
