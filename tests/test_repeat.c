/*
 * test_repeat.c - the means and 95% confidence intervals of repeats
 * (sim/repeat.h), on values worked by hand, the CSV splitter that reads
 * the seeds' rows back, and a repeated experiment under allocation
 * failures.
 */
#define _XOPEN_SOURCE 700 /* nftw() */
#include "harness.h"

#include "../sim/experiment.h"
#include "../sim/repeat.h"

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {1, 2, 3}: mean 2, sample standard deviation 1, so the half-width is
   t(0.975, 2) / sqrt(3) = 4.302652729911275 / 1.7320508075688772. */
static void test_mean_ci_by_hand(void)
{
    const double v[] = {1, 2, 3};
    double mean, ci;
    hsim_repeat_mean_ci(v, 3, &mean, &ci);
    CU_ASSERT_DOUBLE_EQUAL(mean, 2.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ci, 4.302652729911275 / sqrt(3.0), 1e-9);
    /* {10, 14}: mean 12, s = sqrt(8), t(0.975, 1) = 12.706204736174698 */
    const double w[] = {10, 14};
    hsim_repeat_mean_ci(w, 2, &mean, &ci);
    CU_ASSERT_DOUBLE_EQUAL(mean, 12.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ci, 12.706204736174698 * sqrt(8.0) / sqrt(2.0), 1e-8);
    /* five equal values: no spread, a zero interval */
    const double same[] = {7.5, 7.5, 7.5, 7.5, 7.5};
    hsim_repeat_mean_ci(same, 5, &mean, &ci);
    CU_ASSERT_DOUBLE_EQUAL(mean, 7.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ci, 0.0, 1e-12);
}

/* One value has no interval; a value that is not defined (no job ran
   under a seed) leaves both undefined. */
static void test_mean_ci_undefined(void)
{
    double mean, ci;
    const double one[] = {4};
    hsim_repeat_mean_ci(one, 1, &mean, &ci);
    CU_ASSERT_DOUBLE_EQUAL(mean, 4.0, 1e-12);
    CU_ASSERT_TRUE(isnan(ci));
    const double hole[] = {1, NAN, 3};
    hsim_repeat_mean_ci(hole, 3, &mean, &ci);
    CU_ASSERT_TRUE(isnan(mean));
    CU_ASSERT_TRUE(isnan(ci));
}

static void test_split(void)
{
    char buf[128], *f[8];
    int n = hsim_repeat_split("a,\"b,c\",\"d\"\"e\",\n", buf, sizeof buf, f, 8);
    CU_ASSERT_EQUAL_FATAL(n, 4);
    CU_ASSERT_STRING_EQUAL(f[0], "a");
    CU_ASSERT_STRING_EQUAL(f[1], "b,c");
    CU_ASSERT_STRING_EQUAL(f[2], "d\"e");
    CU_ASSERT_STRING_EQUAL(f[3], "");
    CU_ASSERT_EQUAL(hsim_repeat_split("a,b,c", buf, sizeof buf, f, 2), -1); /* too many */
    CU_ASSERT_EQUAL(hsim_repeat_split("abcdefgh", buf, 4, f, 8), -1);       /* too long */
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int run_repeat(void *arg, hsim_err_t *e)
{
    hsim_experiment_options_t o = {.quiet = 1, .threads = 2};
    return hsim_experiment_run(arg, &o, e);
}

/* An experiment of two seeds and two policies on two threads whose n-th
   allocation fails, for n = 1, 2, ... until it runs through: every failure
   is reported as out of memory and leaks nothing (the seeds' rows, the
   means, the units loaded ahead); the run that goes through writes the
   means. */
static void test_repeat_enomem(void)
{
    char *dir = hsim_test_tmpdir("repeat-enomem");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    static hsim_config_t cfg; /* large */
    char text[1024], ini[600], sum[700];
    snprintf(ini, sizeof ini, "%s/t.ini", dir);
    snprintf(text, sizeof text,
             "[experiment]\nname = t\noutput = %s/out\nrepeat = 2\n"
             "[workload]\nformat = lublin\njobs = 30\n[cluster]\nprocessors = 16\n"
             "[policy a]\n[policy b]\nbackfill = easy\n", dir);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_config_parse_string(text, ini, &cfg, &e), 0);
    hsim_test_enomem(run_repeat, &cfg, 20000, 10);
    snprintf(sum, sizeof sum, "%s/out/t/summary.csv", dir);
    FILE *f = fopen(sum, "r");
    char head[2048] = "";
    CU_ASSERT_PTR_NOT_NULL(f);
    if (f) {
        CU_ASSERT_PTR_NOT_NULL(fgets(head, sizeof head, f));
        fclose(f);
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(head, ",repeats,jobs_ci95,"));
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(dir);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("repeat");
    HSIM_TEST(s, test_mean_ci_by_hand);
    HSIM_TEST(s, test_mean_ci_undefined);
    HSIM_TEST(s, test_split);
    HSIM_TEST(s, test_repeat_enomem);
}
