/*
 * test_orders.c - the score orders of order_scores.c, worked by hand: four
 * jobs whose scores under each formula were computed on paper (below),
 * sorted by each order; ties keep submission order; the time-dependent
 * ones change their minds as the jobs wait.
 */
#include "harness.h"

#include "policies/registry.h"

#include <stdlib.h>

#define S HSIM_SECOND

/*
 * job  submit  estimate  procs
 *  0    100 s    1000 s     1
 *  1    200 s     100 s    16
 *  2   1000 s    3600 s     4
 *  3   1000 s     100 s    16   (job 1's twin, submitted later)
 *
 * ljf: 2 (3600), 0 (1000), 1, 3 (100 each: submission order).
 * At now = 2000 s (waits 1900, 1800, 1000, 1000):
 *   wfp3 = (w/r)^3 n: 0: 1.9^3 = 6.859; 1: 18^3 * 16 = 93312;
 *        2: (1000/3600)^3 * 4 = 0.0857; 3: 10^3 * 16 = 16000 -> 1, 3, 0, 2
 *   unicep = w / (log2(max(n,2)) r): 0: 1900/1000 = 1.9; 1: 1800/(4*100) = 4.5;
 *        2: 1000/(2*3600) = 0.139; 3: 1000/400 = 2.5 -> 1, 3, 0, 2
 * f1 = log10(r) n + 870 log10(s): 0: 3 + 1740 = 1743; 1: 32 + 2001.9 = 2033.9;
 *        2: 14.2 + 2610 = 2624.2; 3: 32 + 2610 = 2642 -> 0, 1, 2, 3
 * f3 = r n + 6860000 log10(s): 0: 1000 + 13720000; 1: 1600 + 15785193;
 *        2: 14400 + 20580000; 3: 1600 + 20580000 -> 0, 1, 3, 2
 * At now = 1000 s jobs 2 and 3 have waited 0: wfp3 puts them last, in
 * submission order: 1 (800^3... = (8)^3 * 16 = 8192), 0 (0.9^3), 2, 3.
 */
static const hsim_vjob_t jobs[] = {
    {.submit = 100 * S, .estimate = 1000 * S, .requested = 1000 * S, .procs = 1, .user = 1},
    {.submit = 200 * S, .estimate = 100 * S, .requested = 100 * S, .procs = 16, .user = 2},
    {.submit = 1000 * S, .estimate = 3600 * S, .requested = 3600 * S, .procs = 4, .user = 3},
    {.submit = 1000 * S, .estimate = 100 * S, .requested = 100 * S, .procs = 16, .user = 4},
};

static const hsim_order_t *order;
static hsim_time_t now;

static int by_order(const void *a, const void *b)
{
    return order->compare(NULL, jobs, *(const int32_t *)a, *(const int32_t *)b, now);
}

/* The four jobs sorted by name at time t, against want. */
static void expect(const char *name, hsim_time_t t, const int32_t want[4])
{
    order = hsim_order_find(name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(order);
    now = t;
    int32_t ids[4] = {3, 2, 1, 0};
    qsort(ids, 4, sizeof *ids, by_order);
    int same = 1;
    for (int i = 0; i < 4; i++)
        same &= ids[i] == want[i];
    if (!same)
        fprintf(stderr, "\n%s at %lld s: %d %d %d %d\n", name, (long long)(t / S), ids[0], ids[1],
                ids[2], ids[3]);
    CU_ASSERT_TRUE(same);
    /* a total order: antisymmetric, and a job equals only itself */
    for (int32_t a = 0; a < 4; a++)
        for (int32_t b = 0; b < 4; b++) {
            int x = order->compare(NULL, jobs, a, b, t), y = order->compare(NULL, jobs, b, a, t);
            CU_ASSERT_EQUAL(x, -y);
            CU_ASSERT_EQUAL(x == 0, a == b);
        }
}

static void test_score_orders_by_hand(void)
{
    expect("ljf", 2000 * S, (const int32_t[]){2, 0, 1, 3});
    expect("wfp3", 2000 * S, (const int32_t[]){1, 3, 0, 2});
    expect("unicep", 2000 * S, (const int32_t[]){1, 3, 0, 2});
    expect("f1", 2000 * S, (const int32_t[]){0, 1, 2, 3});
    expect("f3", 2000 * S, (const int32_t[]){0, 1, 3, 2});
    expect("wfp3", 1000 * S, (const int32_t[]){1, 0, 2, 3});
    CU_ASSERT_TRUE(hsim_order_find("wfp3")->time_dependent);
    CU_ASSERT_TRUE(hsim_order_find("unicep")->time_dependent);
    CU_ASSERT_FALSE(hsim_order_find("f1")->time_dependent);
    CU_ASSERT_FALSE(hsim_order_find("ljf")->time_dependent);
}

/* f2 and f4 by their formulas on the same jobs: f2 = sqrt(r) n + 25600
   log10(s): 0: 31.6 + 51200 = 51231.6; 1: 160 + 58907 = 59067;
   2: 240 + 76800 = 77040; 3: 160 + 76800 = 76960 -> 0, 1, 3, 2.
   f4 = r sqrt(n) + 530000 log10(s): 0: 1000 + 1060000; 1: 400 + 1219547;
   2: 7200 + 1590000; 3: 400 + 1590000 -> 0, 1, 3, 2. */
static void test_f2_f4(void)
{
    expect("f2", 0, (const int32_t[]){0, 1, 3, 2});
    expect("f4", 0, (const int32_t[]){0, 1, 3, 2});
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("orders");
    HSIM_TEST(s, test_score_orders_by_hand);
    HSIM_TEST(s, test_f2_f4);
}
