/*
 * test_common.c - the allocation wrapper's large blocks: mapped apart on a
 * 2 MiB boundary (when HSIM_LARGE_BLOCKS, so not under AddressSanitizer),
 * zeroed by hsim_calloc(), their bytes kept when they grow from a small
 * block, from a large one or through hsim_grow(), left whole by a failed
 * hsim_realloc(), and given back by hsim_free() whichever way they were
 * made; hsim_ends_with() and the other string helpers; and the .part
 * files of hsim_part_path() and hsim_publish(), each recorded for a signal
 * until it is published.
 */
#include "harness.h"

#include "../sim/report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB ((size_t)1 << 20)

/* Byte i of a block filled by fill(). */
static unsigned char pattern(size_t i, unsigned seed)
{
    return (unsigned char)((i * 2654435761u) >> 13 ^ seed);
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = pattern(i, seed);
}

/* 1 when the first n bytes of p are fill(p, n, seed)'s. */
static int filled(const unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != pattern(i, seed))
            return 0;
    return 1;
}

static int on_huge_boundary(const void *p) { return ((uintptr_t)p & (2 * MIB - 1)) == 0; }

static void test_large_is_mapped(void)
{
    unsigned char *p = hsim_malloc(3 * MIB);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    if (HSIM_LARGE_BLOCKS)
        CU_ASSERT_TRUE(on_huge_boundary(p));
    fill(p, 3 * MIB, 1);
    /* shrinking, then growing within its 4 MiB mapping, keeps its bytes
       and, mapped, its place */
    unsigned char *q = hsim_realloc(p, 2 * MIB);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_TRUE(filled(q, 2 * MIB, 1));
    unsigned char *r = hsim_realloc(q, 4 * MIB);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    if (HSIM_LARGE_BLOCKS)
        CU_ASSERT_TRUE(p == q && q == r);
    CU_ASSERT_TRUE(filled(r, 2 * MIB, 1));
    hsim_free(r);
}

static void test_calloc_zeroed(void)
{
    unsigned char *p = hsim_malloc(5 * MIB);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    memset(p, 0xab, 5 * MIB);
    hsim_free(p);
    size_t n = 5 * MIB / sizeof(int64_t);
    int64_t *z = hsim_calloc(n, sizeof *z);
    CU_ASSERT_PTR_NOT_NULL_FATAL(z);
    int zero = 1;
    for (size_t i = 0; i < n; i++)
        zero &= z[i] == 0;
    CU_ASSERT_TRUE(zero);
    hsim_free(z);
    /* a count times size that overflows is refused, not wrapped */
    CU_ASSERT_PTR_NULL(hsim_calloc(SIZE_MAX / 8 + 2, 8));
}

static void test_small_grows_large(void)
{
    unsigned char *p = hsim_malloc(1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    fill(p, 1000, 2);
    unsigned char *q = hsim_realloc(p, 6 * MIB);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    if (HSIM_LARGE_BLOCKS)
        CU_ASSERT_TRUE(on_huge_boundary(q));
    CU_ASSERT_TRUE(filled(q, 1000, 2));
    fill(q, 6 * MIB, 3);
    unsigned char *r = hsim_realloc(q, 9 * MIB); /* large to larger */
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_TRUE(filled(r, 6 * MIB, 3));
    fill(r, 9 * MIB, 4);
    hsim_free(r);
}

/* hsim_grow() doubling an array of records across the threshold, as the
   trace reader does: every record written stays. */
static void test_grow_keeps_records(void)
{
    typedef struct rec {
        int64_t a, b;
        int32_t c;
    } rec_t;
    rec_t *v = NULL;
    size_t cap = 0, n = 300000; /* 7 MiB */
    for (size_t i = 0; i < n; i++) {
        if (hsim_grow(&v, &cap, i + 1, sizeof *v)) {
            CU_FAIL("hsim_grow() failed");
            hsim_free(v);
            return;
        }
        v[i] = (rec_t){(int64_t)i, -(int64_t)i, (int32_t)(i % 977)};
    }
    int ok = 1;
    for (size_t i = 0; i < n; i++)
        ok &= v[i].a == (int64_t)i && v[i].b == -(int64_t)i && v[i].c == (int32_t)(i % 977);
    CU_ASSERT_TRUE(ok);
    hsim_free(v);
}

static void test_failed_realloc_keeps_block(void)
{
    unsigned char *p = hsim_malloc(2 * MIB);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    fill(p, 2 * MIB, 5);
    hsim_alloc_fail_after(1);
    CU_ASSERT_PTR_NULL(hsim_realloc(p, 8 * MIB));
    hsim_alloc_fail_after(0);
    CU_ASSERT_TRUE(filled(p, 2 * MIB, 5));
    hsim_alloc_fail_after(1);
    CU_ASSERT_PTR_NULL(hsim_malloc(4 * MIB));
    hsim_alloc_fail_after(1);
    CU_ASSERT_PTR_NULL(hsim_calloc(4, MIB));
    hsim_alloc_fail_after(0);
    hsim_free(p);
}

/* More large blocks than the list holds: the rest are malloc's, and every
   one is given back (the harness counts them; ASan would see a bad free). */
static void test_many_large(void)
{
    enum { N = 300 };
    unsigned char *p[N];
    for (size_t i = 0; i < N; i++) {
        p[i] = hsim_malloc(MIB + i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p[i]);
        if (i % 16 == 0) { /* a few, as each touch may take a 2 MiB page */
            p[i][0] = (unsigned char)i;
            p[i][MIB + i - 1] = (unsigned char)~i;
        }
    }
    int ok = 1;
    for (size_t i = 0; i < N; i += 16)
        ok &= p[i][0] == (unsigned char)i && p[i][MIB + i - 1] == (unsigned char)~i;
    CU_ASSERT_TRUE(ok);
    for (size_t i = 0; i < N; i += 2) /* every other one, then the rest */
        hsim_free(p[i]);
    for (size_t i = 1; i < N; i += 2)
        hsim_free(p[i]);
}

static void test_format_time(void)
{
    static const struct {
        hsim_time_t t;
        const char *text;
    } cases[] = {
        {0, "0"},
        {12 * HSIM_SECOND, "12"},
        {-12 * HSIM_SECOND, "-12"},
        {12 * HSIM_SECOND + HSIM_SECOND / 2, "12.5"},
        {1, "0.000001"},
        {-1, "-0.000001"},
        {-HSIM_SECOND / 2, "-0.5"},
        {-3 * HSIM_SECOND / 2, "-1.5"},
        {10 * HSIM_SECOND + 250000, "10.25"},
        {INT64_MAX, "9223372036854.775807"},
        {INT64_MIN, "-9223372036854.775808"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[32];
        const char *got = hsim_format_time(buf, sizeof buf, cases[i].t);
        if (got != buf || strcmp(got, cases[i].text)) {
            fprintf(stderr, "\n%lld: '%s', wanted '%s'\n", (long long)cases[i].t, got,
                    cases[i].text);
            CU_FAIL("hsim_format_time");
        }
    }
}

static void test_bom_len(void)
{
    CU_ASSERT_EQUAL(hsim_bom_len("\xEF\xBB\xBF[x]", 6), 3);
    CU_ASSERT_EQUAL(hsim_bom_len("\xEF\xBB\xBF", 3), 3);
    CU_ASSERT_EQUAL(hsim_bom_len("\xEF\xBB\xBF", 2), 0); /* cut short */
    CU_ASSERT_EQUAL(hsim_bom_len("\xEF\xBB", 2), 0);
    CU_ASSERT_EQUAL(hsim_bom_len("\xEF\xBBx", 3), 0);
    CU_ASSERT_EQUAL(hsim_bom_len("[x]", 3), 0);
    CU_ASSERT_EQUAL(hsim_bom_len("", 0), 0);
}

/* The contents of the file at path ("" when it cannot be read; at most
   size - 1 bytes). */
static const char *contents(const char *path, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        buf[fread(buf, 1, size - 1, f)] = '\0';
        fclose(f);
    }
    return buf;
}

/* A file takes its name only when whole; a failed one leaves the last
   whole one as it was, and no .part. */
static void test_publish(void)
{
    char *dir = hsim_test_tmpdir("publish");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char path[512], part[HSIM_PART_PATH_MAX], buf[64];
    snprintf(path, sizeof path, "%s/jobs.csv", dir);
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_part_pending(), 0);
    CU_ASSERT_EQUAL(hsim_part_path(part, sizeof part, path, &e), 0);
    char own[64]; /* the process id in it: two processes never share one */
    snprintf(own, sizeof own, "/jobs.csv.%ld.part", (long)getpid());
    CU_ASSERT_TRUE(hsim_ends_with(part, own));
    CU_ASSERT_EQUAL(hsim_part_pending(), 1); /* a signal would remove it */
    hsim_test_write_file(part, "whole\n");
    CU_ASSERT_EQUAL(hsim_publish(part, path, 0, &e), 0);
    CU_ASSERT_EQUAL(hsim_part_pending(), 0);
    CU_ASSERT_STRING_EQUAL(contents(path, buf, sizeof buf), "whole\n");
    CU_ASSERT_EQUAL(access(part, F_OK), -1);
    hsim_test_write_file(part, "cut");
    CU_ASSERT_EQUAL(hsim_publish(part, path, HSIM_EIO, &e), HSIM_EIO);
    CU_ASSERT_STRING_EQUAL(contents(path, buf, sizeof buf), "whole\n");
    CU_ASSERT_EQUAL(access(part, F_OK), -1);
    /* a rename that fails (no .part to rename) is an error naming path */
    CU_ASSERT_EQUAL(hsim_publish(part, path, 0, &e), HSIM_EIO);
    CU_ASSERT_TRUE(strstr(e.msg, "/jobs.csv: cannot write: No such file") != NULL);
    /* a link, a device or a pipe is written in place: a rename would
       replace it; publishing it does nothing but return rc */
    char link[600], fifo[600];
    snprintf(link, sizeof link, "%s/link.csv", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CU_ASSERT_EQUAL_FATAL(symlink(path, link), 0);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    const char *in_place[] = {link, fifo, "/dev/null"};
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(hsim_part_path(part, sizeof part, in_place[i], &e), 0);
        CU_ASSERT_STRING_EQUAL(part, "");
        CU_ASSERT_EQUAL(hsim_publish(part, in_place[i], 0, &e), 0);
        CU_ASSERT_EQUAL(hsim_publish(part, in_place[i], HSIM_EIO, &e), HSIM_EIO);
    }
    struct stat st;
    CU_ASSERT_TRUE(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    CU_ASSERT_TRUE(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    CU_ASSERT_TRUE(lstat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    remove(link);
    remove(fifo);
    /* a path too long for its .part */
    char small[8];
    CU_ASSERT_EQUAL(hsim_part_path(small, sizeof small, "abc.csv", &e), HSIM_EIO);
    CU_ASSERT_STRING_EQUAL(e.msg, "abc.csv: cannot write: path too long");
    remove(path);
    CU_ASSERT_EQUAL(hsim_part_pending(), 0);
    /* a report: its part is recorded from the open to the close; an open
       that fails records none */
    hsim_report_t r;
    CU_ASSERT_EQUAL(hsim_report_open(&r, path, "h\n", &e), 0);
    CU_ASSERT_EQUAL(hsim_part_pending(), 1);
    CU_ASSERT_EQUAL(hsim_report_close(&r, &e), 0);
    CU_ASSERT_EQUAL(hsim_part_pending(), 0);
    CU_ASSERT_STRING_EQUAL(contents(path, buf, sizeof buf), "h\n");
    remove(path);
    snprintf(path, sizeof path, "%s/no-such-folder/jobs.csv", dir);
    for (int i = 0; i < 20; i++)
        CU_ASSERT_EQUAL(hsim_report_open(&r, path, NULL, &e), HSIM_EIO);
    CU_ASSERT_EQUAL(hsim_part_pending(), 0);
    remove(dir);
    free(dir);
}

static void test_ends_with(void)
{
    CU_ASSERT_TRUE(hsim_ends_with("out/summary.png", ".png"));
    CU_ASSERT_TRUE(hsim_ends_with(".gz", ".gz"));      /* the whole string */
    CU_ASSERT_TRUE(hsim_ends_with("a", ""));           /* every string */
    CU_ASSERT_FALSE(hsim_ends_with("gz", ".gz"));      /* shorter */
    CU_ASSERT_FALSE(hsim_ends_with("a.gz.swf", ".gz")); /* not at the end */
    CU_ASSERT_FALSE(hsim_ends_with("a.PNG", ".png"));  /* case counts */
}

/* RFC 4180: a field with a comma, a quote or a line break is quoted, its
   quotes doubled; any other is written as it is. */
static void test_csv_field(void)
{
    const char *cases[][2] = {
        {"plain text", "plain text"},
        {"", ""},
        {"a,b", "\"a,b\""},
        {"say \"hi\"", "\"say \"\"hi\"\"\""},
        {"\"", "\"\"\"\""},
        {"two\nlines", "\"two\nlines\""},
        {"cr\r", "\"cr\r\""},
        {"it's; fine", "it's; fine"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        hsim_report_csv_field(f, cases[i][0]);
        fclose(f);
        CU_ASSERT_STRING_EQUAL(text, cases[i][1]);
        free(text);
    }
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("large-blocks");
    HSIM_TEST(s, test_large_is_mapped);
    HSIM_TEST(s, test_calloc_zeroed);
    HSIM_TEST(s, test_small_grows_large);
    HSIM_TEST(s, test_grow_keeps_records);
    HSIM_TEST(s, test_failed_realloc_keeps_block);
    HSIM_TEST(s, test_many_large);
    CU_pSuite t = hsim_test_suite("strings");
    HSIM_TEST(t, test_ends_with);
    HSIM_TEST(t, test_bom_len);
    HSIM_TEST(t, test_publish);
    HSIM_TEST(t, test_format_time);
    HSIM_TEST(t, test_csv_field);
}
