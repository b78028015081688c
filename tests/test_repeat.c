/*
 * test_repeat.c - the means and 95% confidence intervals of repeats
 * (sim/repeat.h), on values worked by hand, and the CSV splitter that
 * reads the seeds' rows back.
 */
#include "harness.h"

#include "../sim/repeat.h"

#include <math.h>
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

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("repeat");
    HSIM_TEST(s, test_mean_ci_by_hand);
    HSIM_TEST(s, test_mean_ci_undefined);
    HSIM_TEST(s, test_split);
}
