/*
 * harness.h - what every CUnit test program shares: a main() that runs the
 * suites its file registers (all of them, those named on its command line,
 * or, after -x, all but those), and checks that no allocation leaks.
 */
#ifndef HSIM_TEST_HARNESS_H
#define HSIM_TEST_HARNESS_H

#include <CUnit/CUnit.h>

#include "sim/common.h"

/* Defined by each test file: adds its suites to the registry. */
void hsim_test_register(void);

/* Adds a suite whose tests each check that live allocations are unchanged. */
CU_pSuite hsim_test_suite(const char *name);
/* Adds a test to a suite. */
#define HSIM_TEST(suite, fn) CU_add_test((suite), #fn, (fn))

/*
 * Checks an error message: it starts with prefix (e.g. "x.ini:12: ") and
 * holds each non-NULL needle.  Prints what was got and wanted when not.
 * 1 when it matches, else 0.
 */
int hsim_test_message_ok(const char *msg, const char *prefix, const char *n1,
                         const char *n2, const char *n3);

/* With HSIM_TEST_TIMES set, each test's wall time is printed to stderr
   ("time: NAME SECONDS s"), to find the slow ones. */

/* How many seeds a randomized test runs: n, times HSIM_TEST_SEEDS when it
   is set (a whole number from 1 to 10000), for a longer soak than CI's;
   main() refuses another value. */
unsigned long hsim_test_seeds(unsigned long n);

/* A fresh temporary folder under the build tree (or $TMPDIR); caller frees. */
char *hsim_test_tmpdir(const char *tag);

/* Writes text to the file at path (a failed test when it cannot). */
void hsim_test_write_file(const char *path, const char *text);

/* Allocation-failure injection: runs run(arg, e) with its n-th allocation
   failing, for n = 1, 2, ... until a run returns 0 (max runs at most), and
   asserts that one went through, that at least min_enomem gave
   HSIM_ENOMEM, that none gave another code (the first three are printed)
   and that none leaked. */
void hsim_test_enomem(int (*run)(void *arg, hsim_err_t *e), void *arg, long max,
                      int min_enomem);

#endif
