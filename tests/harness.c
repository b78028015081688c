/*
 * harness.c - main() for the CUnit programs.  Every suite records the live
 * allocation count before each test and checks it after: a test that leaks
 * through hsim's allocator fails.
 *
 * Usage: test_x [SUITE...] runs the named suites (all when none), and
 * test_x -x SUITE... all but those: CMake runs a long suite as a test of
 * its own (tests/CMakeLists.txt), and the rest of its program as another.
 */
#include "harness.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long live_before;
static int print_times;        /* HSIM_TEST_TIMES set: each test's time */
static struct timespec t_before;

static void before_each(void)
{
    live_before = hsim_alloc_live();
    if (print_times)
        clock_gettime(CLOCK_MONOTONIC, &t_before);
}

static void after_each(void)
{
    if (print_times) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        double s = (double)(t.tv_sec - t_before.tv_sec) + (t.tv_nsec - t_before.tv_nsec) / 1e9;
        CU_pTest test = CU_get_current_test();
        fprintf(stderr, "\ntime: %s %.2f s\n", test ? test->pName : "?", s);
    }
    hsim_alloc_fail_after(0);
    long now = hsim_alloc_live();
    if (now != live_before)
        fprintf(stderr, "\nleak: %ld allocation(s) outlived the test\n", now - live_before);
    CU_ASSERT_EQUAL(now, live_before);
}

CU_pSuite hsim_test_suite(const char *name)
{
    return CU_add_suite_with_setup_and_teardown(name, NULL, NULL, before_each, after_each);
}

int hsim_test_message_ok(const char *msg, const char *prefix, const char *n1,
                         const char *n2, const char *n3)
{
    int ok = strncmp(msg, prefix, strlen(prefix)) == 0;
    const char *needles[] = {n1, n2, n3};
    for (int i = 0; i < 3; i++)
        if (needles[i] && !strstr(msg, needles[i]))
            ok = 0;
    if (!ok) {
        fprintf(stderr, "\ngot '%s', wanted '%s' and", msg, prefix);
        for (int i = 0; i < 3; i++)
            if (needles[i])
                fprintf(stderr, " '%s'", needles[i]);
        fprintf(stderr, "\n");
    }
    return ok;
}

char *hsim_test_tmpdir(const char *tag)
{
    const char *base = getenv("TMPDIR");
    char tmpl[512];
    snprintf(tmpl, sizeof tmpl, "%s/hsim-%s-XXXXXX", base ? base : "/tmp", tag);
    char *d = mkdtemp(tmpl);
    return d ? strdup(d) : NULL;
}

void hsim_test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static unsigned long seed_scale = 1; /* HSIM_TEST_SEEDS */

void hsim_test_enomem(int (*run)(void *arg, hsim_err_t *e), void *arg, long max,
                      int min_enomem)
{
    int ok = 0, enomem = 0, other = 0, leaks = 0;
    for (long n = 1; n <= max && !ok; n++) {
        hsim_err_t e = {{0}};
        long live = hsim_alloc_live();
        hsim_alloc_fail_after(n);
        int rc = run(arg, &e);
        hsim_alloc_fail_after(0);
        leaks += hsim_alloc_live() != live;
        if (rc == 0)
            ok = 1;
        else if (rc == HSIM_ENOMEM)
            enomem++;
        else if (other++ < 3)
            fprintf(stderr, "\nfailing allocation %ld gave %d: %s\n", n, rc, e.msg);
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_TRUE(enomem >= min_enomem);
    CU_ASSERT_EQUAL(other, 0);
    CU_ASSERT_EQUAL(leaks, 0);
}

unsigned long hsim_test_seeds(unsigned long n)
{
    return n * seed_scale;
}

/*
 * Leaves active only the suites that argv names (or, after -x, all but
 * those).  1 when every name is a suite of this program, else 0 (the
 * suites are listed on stderr).  O(suites x names).
 */
static int select_suites(int argc, char **argv)
{
    int except = argc > 1 && !strcmp(argv[1], "-x");
    int first = except ? 2 : 1, ok = 1;
    for (int i = first; i < argc; i++) {
        CU_pSuite s = CU_get_suite(argv[i]);
        if (!s) {
            fprintf(stderr, "no suite '%s' in this program; its suites:", argv[i]);
            for (s = CU_get_registry()->pSuite; s; s = s->pNext)
                fprintf(stderr, " %s", s->pName);
            fprintf(stderr, "\n");
            ok = 0;
        }
    }
    if (!ok || argc <= first)
        return ok;
    for (CU_pSuite s = CU_get_registry()->pSuite; s; s = s->pNext) {
        int named = 0;
        for (int i = first; i < argc; i++)
            named |= !strcmp(argv[i], s->pName);
        CU_set_suite_active(s, named != except ? CU_TRUE : CU_FALSE);
    }
    CU_set_fail_on_inactive(CU_FALSE);
    return 1;
}

int main(int argc, char **argv)
{
    const char *scale = getenv("HSIM_TEST_SEEDS");
    if (scale) {
        char *end;
        errno = 0;
        seed_scale = strtoul(scale, &end, 10);
        if (errno || end == scale || *end || scale[0] == '-' || seed_scale < 1 ||
            seed_scale > 10000) {
            fprintf(stderr, "HSIM_TEST_SEEDS: expected a whole number from 1 to 10000, "
                            "got '%s'\n", scale);
            return 2;
        }
    }
    print_times = getenv("HSIM_TEST_TIMES") != NULL;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    hsim_test_register();
    if (!select_suites(argc, argv)) {
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
