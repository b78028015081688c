/*
 * test_experiment.c - the experiment runner end to end, in process: two
 * runs of one experiment (five policies on the shared HPC2N excerpt), the
 * second with its policies on three threads, write byte-identical files.
 */
#include "harness.h"

#include "sim/experiment.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        if (ca != cb)
            same = 0;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

static long count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long n = 0;
    int c;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

/* Two runs of an experiment with five policies on HPC2N, the second with
   its policies replayed three at a time on threads: the same files. */
static void test_experiment_deterministic(void)
{
    static const char trace[] = HSIM_SHARED_DIR "/traces/swf/HPC2N-excerpt-3170.swf.gz";
    struct stat st;
    if (stat(trace, &st)) {
        fprintf(stderr, "\n%s is missing\n", trace);
        CU_FAIL("shared trace missing");
        return;
    }
    char *dir = hsim_test_tmpdir("determinism");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    static const char *const policies[] = {"fcfs", "easy", "cons", "sjbf", "perfect"};
    static hsim_config_t cfg; /* large */
    for (int k = 0; k < 2; k++) {
        char text[4096], ini[600];
        snprintf(ini, sizeof ini, "%s/det.ini", dir);
        snprintf(text, sizeof text,
                 "[experiment]\nname = det\noutput = %s/out%d\n"
                 "[workload]\npath = %s\nclean = pyss\n"
                 "[cluster]\nprocessors = 240\n"
                 "[policy fcfs]\n"
                 "[policy easy]\nbackfill = easy\n"
                 "[policy cons]\nbackfill = conservative\n"
                 "[policy sjbf]\nbackfill = easy\nbackfill_order = sjf\n"
                 "[policy perfect]\nbackfill = easy\nestimate = oracle\n",
                 dir, k, trace);
        hsim_err_t e = {{0}};
        CU_ASSERT_EQUAL_FATAL(hsim_config_parse_string(text, ini, &cfg, &e), 0);
        /* the second run replays its policies three at a time on threads */
        hsim_experiment_options_t o = {.quiet = 1, .threads = k ? 3 : 1};
        int rc = hsim_experiment_run(&cfg, &o, &e);
        if (rc)
            fprintf(stderr, "\n%s\n", e.msg);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
    }
    char a[800], b[800];
    const char *top[] = {"summary.csv", "rejected.csv"};
    for (int i = 0; i < 2; i++) {
        snprintf(a, sizeof a, "%s/out0/det/%s", dir, top[i]);
        snprintf(b, sizeof b, "%s/out1/det/%s", dir, top[i]);
        CU_ASSERT_TRUE(same_file(a, b));
        if (i == 0)
            CU_ASSERT_EQUAL(count_lines(a), 6); /* header + 5 policies */
    }
    for (int i = 0; i < 5; i++) {
        snprintf(a, sizeof a, "%s/out0/det/%s/jobs.csv", dir, policies[i]);
        snprintf(b, sizeof b, "%s/out1/det/%s/jobs.csv", dir, policies[i]);
        CU_ASSERT_EQUAL(count_lines(a), 3171);
        if (!same_file(a, b)) {
            fprintf(stderr, "\n%s and %s differ\n", a, b);
            CU_FAIL("two runs of one experiment differ");
        }
        remove(a);
        remove(b);
        for (int k = 0; k < 2; k++) {
            snprintf(a, sizeof a, "%s/out%d/det/%s", dir, k, policies[i]);
            rmdir(a);
        }
    }
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 2; i++) {
            snprintf(a, sizeof a, "%s/out%d/det/%s", dir, k, top[i]);
            remove(a);
        }
        snprintf(a, sizeof a, "%s/out%d/det", dir, k);
        rmdir(a);
        snprintf(a, sizeof a, "%s/out%d", dir, k);
        rmdir(a);
    }
    rmdir(dir);
    free(dir);
}

void hsim_test_register(void)
{
    CU_pSuite x = hsim_test_suite("experiment");
    HSIM_TEST(x, test_experiment_deterministic);
}
