/*
 * test_swf.c - the SWF reader (strings, plain and gzip files), its error
 * messages, and the two cleaning presets on hand-made records.
 */
#include "harness.h"

#include "workloads/swf.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define S HSIM_SECOND

/* An 18-field job line; the fields hsim ignores get fixed values. */
static char *job_line(char *buf, size_t size, long long id, long long submit,
                      long long run, long long alloc, long long req_procs,
                      long long req_time, long long user)
{
    /* 1 id, 2 submit, 3 wait, 4 run, 5 alloc, 6 cpu, 7 mem, 8 req procs,
       9 req time, 10 req mem, 11 status, 12 user, 13 group, 14 app,
       15 queue, 16 partition, 17 preceding, 18 think */
    snprintf(buf, size, "%lld %lld 5 %lld %lld -1 -1 %lld %lld -1 1 %lld 3 4 5 6 -1 -1",
             id, submit, run, alloc, req_procs, req_time, user);
    return buf;
}

static int contains(const char *hay, const char *needle)
{
    return strstr(hay, needle) != NULL;
}

/* Parses text, expecting HSIM_EINPUT and every needle in the message. */
static void expect_error(const char *text, const char *needle1, const char *needle2,
                         const char *needle3)
{
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    int rc = hsim_swf_parse_string(text, "in.swf", 0, &t, &e);
    CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
    const char *needles[] = {needle1, needle2, needle3};
    for (int i = 0; i < 3; i++) {
        if (!needles[i])
            continue;
        if (!contains(e.msg, needles[i])) {
            fprintf(stderr, "\nmessage '%s' lacks '%s'\n", e.msg, needles[i]);
            CU_FAIL("error message lacks an expected part");
        }
    }
    if (rc == 0)
        hsim_swf_trace_free(&t);
}

/* ---- reading ---- */

static const char *const header_text =
    "; Version: 2.2\n"
    "; Computer: IBM SP2 \t \n"
    "; Installation: KTH, Stockholm\n"
    ";   MaxProcs: 100   \n"
    "; MaxNodes: 100\n"
    "; MaxJobs: 28490\n"
    "; MaxRecords: 28491\n"
    "; UnixStartTime: 812764800\n"
    "; TimeZone: 3600\n"
    "; TimeZoneString: Europe/Stockholm\n"
    "; Note: a free comment: with colons and text\n"
    ";\n"
    "; a comment without a colon\n"
    "\n"
    "   \t\n"
    "1 0 5 100 4 -1 -1 8 200 -1 1 7 3 4 5 6 -1 -1\n"
    "\n"
    "; a comment between jobs\n"
    "2\t10  0  50\t2 -1 -1 -1 -1 -1 0 8 -1 -1 -1 -1 1 30\r\n"
    "  3 20 0 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1";

static void check_header_records(const hsim_swf_trace_t *t)
{
    const hsim_swf_header_t *h = &t->header;
    CU_ASSERT_EQUAL(h->max_procs, 100);
    CU_ASSERT_EQUAL(h->max_nodes, 100);
    CU_ASSERT_EQUAL(h->max_jobs, 28490);
    CU_ASSERT_EQUAL(h->max_records, 28491);
    CU_ASSERT_EQUAL(h->unix_start_time, 812764800);
    CU_ASSERT_EQUAL(h->time_zone, 3600);
    CU_ASSERT_STRING_EQUAL(h->time_zone_string, "Europe/Stockholm");
    CU_ASSERT_STRING_EQUAL(h->computer, "IBM SP2");
    CU_ASSERT_STRING_EQUAL(h->installation, "KTH, Stockholm");
    CU_ASSERT_STRING_EQUAL(h->version, "2.2");

    CU_ASSERT_EQUAL_FATAL(t->n_records, 3);
    const hsim_swf_record_t *r = &t->records[0];
    CU_ASSERT_EQUAL(r->line, 16);
    CU_ASSERT_EQUAL(r->id, 1);
    CU_ASSERT_EQUAL(r->submit, 0);
    CU_ASSERT_EQUAL(r->wait, 5 * S);
    CU_ASSERT_EQUAL(r->run, 100 * S);
    CU_ASSERT_EQUAL(r->alloc_procs, 4);
    CU_ASSERT_EQUAL(r->req_procs, 8);
    CU_ASSERT_EQUAL(r->req_time, 200 * S);
    CU_ASSERT_EQUAL(r->status, 1);
    CU_ASSERT_EQUAL(r->user, 7);
    CU_ASSERT_EQUAL(r->group, 3);
    CU_ASSERT_EQUAL(r->app, 4);
    CU_ASSERT_EQUAL(r->queue, 5);
    CU_ASSERT_EQUAL(r->partition, 6);
    CU_ASSERT_EQUAL(r->preceding, -1);
    CU_ASSERT_EQUAL(r->think, -1 * S);

    r = &t->records[1]; /* tabs, several blanks, CRLF */
    CU_ASSERT_EQUAL(r->line, 19);
    CU_ASSERT_EQUAL(r->id, 2);
    CU_ASSERT_EQUAL(r->submit, 10 * S);
    CU_ASSERT_EQUAL(r->run, 50 * S);
    CU_ASSERT_EQUAL(r->alloc_procs, 2);
    CU_ASSERT_EQUAL(r->req_procs, -1);
    CU_ASSERT_EQUAL(r->req_time, -1 * S);
    CU_ASSERT_EQUAL(r->user, 8);
    CU_ASSERT_EQUAL(r->preceding, 1);
    CU_ASSERT_EQUAL(r->think, 30 * S);

    r = &t->records[2]; /* leading blanks, no final newline, all -1 */
    CU_ASSERT_EQUAL(r->line, 20);
    CU_ASSERT_EQUAL(r->id, 3);
    CU_ASSERT_EQUAL(r->submit, 20 * S);
    CU_ASSERT_EQUAL(r->run, -1 * S);
    CU_ASSERT_EQUAL(r->alloc_procs, -1);
    CU_ASSERT_EQUAL(r->user, -1);
}

static void test_parse_header_and_records(void)
{
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    int rc = hsim_swf_parse_string(header_text, "kth.swf", 0, &t, &e);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    check_header_records(&t);
    hsim_swf_trace_free(&t);
}

static void test_parse_no_header(void)
{
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    int rc = hsim_swf_parse_string("1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n",
                                   "x.swf", 0, &t, &e);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(t.n_records, 1);
    CU_ASSERT_EQUAL(t.header.max_procs, -1);
    CU_ASSERT_EQUAL(t.header.max_nodes, -1);
    CU_ASSERT_EQUAL(t.header.unix_start_time, HSIM_HEADER_ABSENT);
    CU_ASSERT_EQUAL(t.header.time_zone, HSIM_HEADER_ABSENT);
    CU_ASSERT_STRING_EQUAL(t.header.time_zone_string, "");
    CU_ASSERT_STRING_EQUAL(t.header.computer, "");
    hsim_swf_trace_free(&t);

    /* empty input and comments only: no records, no error */
    CU_ASSERT_EQUAL(hsim_swf_parse_string("", "x.swf", 0, &t, &e), 0);
    CU_ASSERT_EQUAL(t.n_records, 0);
    hsim_swf_trace_free(&t);
    CU_ASSERT_EQUAL(hsim_swf_parse_string("; MaxProcs: 7\n\n;\n", "x.swf", 0, &t, &e), 0);
    CU_ASSERT_EQUAL(t.n_records, 0);
    CU_ASSERT_EQUAL(t.header.max_procs, 7);
    hsim_swf_trace_free(&t);
}

static void test_fractional_times(void)
{
    const char *text =
        "1 10.5 0.25 100.000001 4 12.75 3.5 4 200.5 1.5 1 1 1 1 1 1 -1 2.125\n"
        "2 0.000001 0 1e0 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\n";
    /* the second line is malformed ('1e0'): parse only the first */
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    int rc = hsim_swf_parse_string(text, "frac.swf", 1, &t, &e);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(t.n_records, 1);
    const hsim_swf_record_t *r = &t.records[0];
    CU_ASSERT_EQUAL(r->submit, 10500000);
    CU_ASSERT_EQUAL(r->wait, 250000);
    CU_ASSERT_EQUAL(r->run, 100000001);
    CU_ASSERT_EQUAL(r->req_time, 200500000);
    CU_ASSERT_EQUAL(r->think, 2125000);
    CU_ASSERT_EQUAL(r->alloc_procs, 4);
    hsim_swf_trace_free(&t);

    rc = hsim_swf_parse_string("7 0.000001 0 -0.5 1 -1 -1 1 +3 -1 1 1 1 1 1 1 -1 -1",
                               "frac.swf", 0, &t, &e);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(t.records[0].submit, 1);
    CU_ASSERT_EQUAL(t.records[0].run, -500000);
    CU_ASSERT_EQUAL(t.records[0].req_time, 3 * S);
    hsim_swf_trace_free(&t);

    /* past the microsecond a time is rounded to it (half away from 0) */
    rc = hsim_swf_parse_string("8 0.0000005 0 100.00000049 1 -1 -1 1 1.00000006 -1 1 1 1 1 1 "
                               "1 -1 -2.0000015",
                               "frac.swf", 0, &t, &e);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(t.records[0].submit, 1);
    CU_ASSERT_EQUAL(t.records[0].run, 100 * S);
    CU_ASSERT_EQUAL(t.records[0].req_time, S);
    CU_ASSERT_EQUAL(t.records[0].think, -2 * S - 2);
    hsim_swf_trace_free(&t);
}

static void test_max_jobs(void)
{
    char text[4096] = "; MaxProcs: 10\n", line[128];
    for (int i = 1; i <= 5; i++) {
        strcat(text, job_line(line, sizeof line, i, 10 * i, 5, 1, 1, 10, 1));
        strcat(text, i == 2 ? "\n\n; comment\n" : "\n");
    }
    strcat(text, "this line is never read\n");
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_swf_parse_string(text, "m.swf", 3, &t, &e), 0);
    CU_ASSERT_EQUAL(t.n_records, 3);
    CU_ASSERT_EQUAL(t.records[2].id, 3);
    CU_ASSERT_EQUAL(t.records[2].line, 6);
    CU_ASSERT_EQUAL(t.header.max_procs, 10);
    hsim_swf_trace_free(&t);
    CU_ASSERT_EQUAL_FATAL(hsim_swf_parse_string(text, "m.swf", 5, &t, &e), 0);
    CU_ASSERT_EQUAL(t.n_records, 5);
    hsim_swf_trace_free(&t);
    /* 0 = all: the junk line is read and reported */
    CU_ASSERT_EQUAL(hsim_swf_parse_string(text, "m.swf", 0, &t, &e), HSIM_EINPUT);
    CU_ASSERT_TRUE(contains(e.msg, "m.swf:9:"));
    CU_ASSERT_EQUAL(hsim_swf_parse_string(text, "m.swf", 6, &t, &e), HSIM_EINPUT);
}

/* ---- malformed input ---- */

static void test_too_few_fields(void)
{
    expect_error("; h\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1\n", "in.swf:2:",
                 "expected 18 fields", "found 17");
    expect_error("1\n", "in.swf:1:", "found 1", NULL);
}

static void test_too_many_fields(void)
{
    expect_error("1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n\n"
                 "2 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1 7\n",
                 "in.swf:3:", "expected 18 fields", "found 19");
    expect_error("2 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1 7 8  \n", "in.swf:1:",
                 "found 20", NULL);
}

/* Alea's extended SWF (MetaCentrum): 21 fields whose 20th is a queue name.
   It stopped at line 1 ('expected 18 fields, found 21'); under the default,
   detect, such lines are read as their 18 fields, and other extra fields
   stay an error; ignore skips any; error refuses any. */
#define JOB18 "1 0 2 3600 8 -1 -1 8 7200 -1 1 1 1 -1 1 -1 -1 -1"

static void test_alea_extended(void)
{
    hsim_swf_trace_t t, plain;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_swf_parse_string(JOB18 "\n", "p.swf", 0, &plain, &e), 0);
    CU_ASSERT_EQUAL_FATAL(hsim_swf_parse_string(JOB18 " node1:node2 q_2h linux:nfs4 \n",
                                                "x.swf", 0, &t, &e), 0);
    CU_ASSERT_EQUAL_FATAL(t.n_records, 1);
    CU_ASSERT_EQUAL(t.n_extended, 1);
    CU_ASSERT_EQUAL(plain.n_extended, 0);
    CU_ASSERT_EQUAL(memcmp(&t.records[0], &plain.records[0], sizeof plain.records[0]), 0);
    hsim_swf_trace_free(&t);
    /* the same line under error: refused, as before */
    CU_ASSERT_EQUAL(hsim_swf_parse_string_extra(JOB18 " node1 q_2h linux\n", "x.swf", 0,
                                                HSIM_SWF_EXTRA_ERROR, &t, &e), HSIM_EINPUT);
    CU_ASSERT_TRUE(contains(e.msg, "x.swf:1: expected 18 fields, found 21 (swf_extra = error)"));
    /* not Alea's layout: a number for the queue, two or four extra fields */
    const char *not_alea[] = {JOB18 " node1 7 linux\n", JOB18 " node1 q_2h\n",
                              JOB18 " a b c d\n", JOB18 " node1 q/2h linux\n"};
    const char *found[] = {"found 21", "found 20", "found 22", "found 21"};
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(hsim_swf_parse_string(not_alea[i], "x.swf", 0, &t, &e), HSIM_EINPUT);
        CU_ASSERT_TRUE(contains(e.msg, "x.swf:1: expected 18 fields, or 21 in Alea's extended "
                                       "SWF (nodes used, a queue name, node properties)"));
        CU_ASSERT_TRUE(contains(e.msg, found[i]));
        /* ignore reads them all, as their 18 fields */
        CU_ASSERT_EQUAL_FATAL(hsim_swf_parse_string_extra(not_alea[i], "x.swf", 0,
                                                          HSIM_SWF_EXTRA_IGNORE, &t, &e), 0);
        CU_ASSERT_EQUAL(t.n_extended, 1);
        CU_ASSERT_EQUAL(memcmp(&t.records[0], &plain.records[0], sizeof plain.records[0]), 0);
        hsim_swf_trace_free(&t);
    }
    hsim_swf_trace_free(&plain);
    hsim_swf_extra_t x = HSIM_SWF_EXTRA_ERROR;
    CU_ASSERT_EQUAL(hsim_swf_extra_parse("detect", &x), 0);
    CU_ASSERT_EQUAL(x, HSIM_SWF_EXTRA_DETECT);
    CU_ASSERT_EQUAL(hsim_swf_extra_parse("ignore", &x), 0);
    CU_ASSERT_EQUAL(x, HSIM_SWF_EXTRA_IGNORE);
    CU_ASSERT_EQUAL(hsim_swf_extra_parse("error", &x), 0);
    CU_ASSERT_EQUAL(x, HSIM_SWF_EXTRA_ERROR);
    CU_ASSERT_EQUAL(hsim_swf_extra_parse("Ignore", &x), -1);
}

/* tests/data/alea-extended.swf, a made-up file in that layout (with one
   18-field line among them), read from the file, plain and through the
   default: every job, its standard fields. */
static void test_alea_file(void)
{
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    const char *path = HSIM_SOURCE_DIR "/tests/data/alea-extended.swf";
    CU_ASSERT_EQUAL_FATAL(hsim_swf_read(path, 0, &t, &e), 0);
    CU_ASSERT_EQUAL_FATAL(t.n_records, 6);
    CU_ASSERT_EQUAL(t.n_extended, 5);
    CU_ASSERT_EQUAL(t.header.max_procs, 32);
    CU_ASSERT_EQUAL(t.records[2].id, 3);
    CU_ASSERT_EQUAL(t.records[2].run, 86400 * HSIM_SECOND);
    CU_ASSERT_EQUAL(t.records[2].alloc_procs, 16);
    CU_ASSERT_EQUAL(t.records[2].queue, 3);
    CU_ASSERT_EQUAL(t.records[5].think, -1 * HSIM_SECOND);
    hsim_swf_trace_free(&t);
    CU_ASSERT_EQUAL(hsim_swf_read_extra(path, 0, HSIM_SWF_EXTRA_ERROR, &t, &e), HSIM_EINPUT);
    CU_ASSERT_TRUE(contains(e.msg, "alea-extended.swf:11: expected 18 fields, found 21"));
}

static void test_not_a_number(void)
{
    expect_error("1 0 0 abc 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 4", "'abc'");
    expect_error(";\n;\n1 0 0 10 1 -1 -1 1 10 -1 1 x12 1 1 1 1 -1 -1\n", "in.swf:3:",
                 "field 12", "x12");
    expect_error("1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 5s\n", "in.swf:1:",
                 "field 18", "5s");
    expect_error("1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
                 "2 - 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n",
                 "in.swf:2:", "field 2", NULL);
    expect_error("1 0 0 10 1 -1 -1 1 1e3 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 9", "1e3");
    expect_error("x 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 1", NULL);
}

static void test_fractional_count(void)
{
    expect_error("1 0 0 10 4.5 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 5", "4.5");
    expect_error("1 0 0 10 4 -1 -1 2.25 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 8", "2.25");
    expect_error("1.5 0 0 10 4 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 1", NULL);
    /* a count may not hide a fraction past the sixth decimal */
    expect_error("1 0 0 10 4.0000001 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 5", "expected an integer");
    expect_error("1 0 0 10 4 -1 -1 2 10 -1 1 1.1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 12", NULL);
    /* "4.0" is an integer written with a fraction: accepted */
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL_FATAL(hsim_swf_parse_string(
        "1 0 0 10 4.0 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf", 0, &t, &e), 0);
    CU_ASSERT_EQUAL(t.records[0].alloc_procs, 4);
    hsim_swf_trace_free(&t);
}

static void test_out_of_range_count(void)
{
    expect_error("1 0 0 10 -2 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 5", "-2");
    expect_error("\n1 0 0 10 4 -1 -1 3000000000 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:2:",
                 "field 8", "3000000000");
    expect_error("1 0 0 10 4 -1 -1 2 10 -1 1 -7 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 12", NULL);
}

static hsim_swf_trace_t parse_ok(const char *text);

/* Times past HSIM_MAX_SECONDS, and numbers past the fixed-point range
   (which once overflowed on the way in), are errors at their field. */
static void test_out_of_range_time(void)
{
    expect_error("1 0 0 10000000001 4 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 4", "expected seconds up to 10000000000");
    expect_error("1 0 0 10 4 -1 -1 2 1e11 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:", "field 9",
                 NULL);
    /* an exponent (as Python's str() writes 0.000001) is not taken: the
       message says which notation is */
    expect_error("1 0 1e-06 10 4 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 3 (wait time)", "no exponent), found '1e-06'");
    expect_error("1 0 0 10 4 -1 -1 2 99999999999.5 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 9", "99999999999.5");
    expect_error("9223372036858 0 0 10 4 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 1", "number out of range, found '9223372036858'");
    /* past the fixed-point range: a time or a count names its range, the
       other fields and a negative number say out of range */
    expect_error("1 99999999999999999999 0 10 4 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n",
                 "in.swf:1:", "field 2",
                 "expected seconds up to 10000000000 (317 years), found '99999999999999999999'");
    expect_error("1 -99999999999999999999 0 10 4 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n",
                 "in.swf:1:", "field 2", "number out of range, found '-99999999999999999999'");
    expect_error("1 0 0 10 99999999999999999999 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n",
                 "in.swf:1:", "field 5",
                 "expected -1 or a count up to 2147483647, found '99999999999999999999'");
    expect_error("1 0 0 10 4 -1 -1 2 10 -1 1 1 1 1 1 1 9223372036855 -1\n", "in.swf:1:",
                 "field 17", "number out of range");
    expect_error("1 0 0 10 4 -1 99999999999999999999 2 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 7", "number out of range");
    expect_error("1 9223372036854.9 0 10 4 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n", "in.swf:1:",
                 "field 2", NULL);
    /* the largest time accepted */
    hsim_swf_trace_t t = parse_ok("1 10000000000 0 10 4 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n");
    CU_ASSERT_EQUAL(t.n_records, 1);
    if (t.n_records)
        CU_ASSERT_EQUAL(t.records[0].submit, HSIM_MAX_SECONDS * S);
    hsim_swf_trace_free(&t);
}

static char *write_file(const char *dir, const char *name, const char *text, int gzip);

#define JOB_REST " 0 0 10 4 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n" /* fields 2-18 */

/* A UTF-8 byte order mark before the first line is skipped; elsewhere it
   is not a number. */
static void test_byte_order_mark(void)
{
    hsim_swf_trace_t t = parse_ok("\xEF\xBB\xBF; MaxProcs: 8\n1" JOB_REST);
    CU_ASSERT_EQUAL(t.header.max_procs, 8);
    CU_ASSERT_EQUAL(t.n_records, 1);
    hsim_swf_trace_free(&t);
    t = parse_ok("\xEF\xBB\xBF" "1" JOB_REST "2" JOB_REST);
    CU_ASSERT_EQUAL(t.n_records, 2);
    hsim_swf_trace_free(&t);
    expect_error("1" JOB_REST "\xEF\xBB\xBF" "2" JOB_REST, "in.swf:2:", "field 1", NULL);
}

/* Job numbers must not repeat; numbers out of order are fine. */
static void test_repeated_job_number(void)
{
    expect_error("; MaxProcs: 8\n1" JOB_REST "1" JOB_REST, "in.swf:3:", "job number 1 again",
                 "first at line 2");
    /* apart, and out of order: the first repeat in the file is named */
    expect_error("7" JOB_REST "3" JOB_REST "5" JOB_REST "9" JOB_REST "5" JOB_REST "3" JOB_REST,
                 "in.swf:5:", "job number 5 again", "first at line 3");
    expect_error("-1" JOB_REST "2" JOB_REST "-1" JOB_REST, "in.swf:3:", "job number -1 again",
                 "line 1");
    hsim_swf_trace_t t = parse_ok("3" JOB_REST "1" JOB_REST "2" JOB_REST "10" JOB_REST);
    CU_ASSERT_EQUAL(t.n_records, 4);
    hsim_swf_trace_free(&t);
    /* max_jobs: only the lines read count */
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_swf_parse_string("1" JOB_REST "2" JOB_REST "1" JOB_REST, "in.swf", 2,
                                          &t, &e), 0);
    CU_ASSERT_EQUAL(t.n_records, 2);
    hsim_swf_trace_free(&t);
    /* from a gzip file too */
    char *dir = hsim_test_tmpdir("swf-repeat");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char *path = write_file(dir, "r.swf.gz", "4" JOB_REST "4" JOB_REST, 1);
    int rc = hsim_swf_read(path, 0, &t, &e);
    CU_ASSERT_EQUAL(rc, HSIM_EINPUT);
    CU_ASSERT_TRUE(contains(e.msg, "r.swf.gz:2: job number 4 again (first at line 1)"));
    free(path);
    free(dir);
}

static void test_bad_header_integer(void)
{
    expect_error("; MaxProcs: -5\n", "in.swf:1:", "MaxProcs", "a count >= 0");
    expect_error("; MaxJobs: -2\n", "in.swf:1:", "MaxJobs", "-1 for unknown");
    /* -1 is unknown, as in the job fields: pyss writes "MaxNodes: -1" */
    hsim_swf_trace_t u = parse_ok("; MaxNodes: -1\n; MaxProcs: 64\n; MaxRecords: -1\n");
    CU_ASSERT_EQUAL(u.header.max_nodes, -1);
    CU_ASSERT_EQUAL(u.header.max_procs, 64);
    CU_ASSERT_EQUAL(u.header.max_records, -1);
    hsim_swf_trace_free(&u);
    /* a blank before the colon is still the key */
    hsim_swf_trace_t t = parse_ok("; MaxProcs : 64\n");
    CU_ASSERT_EQUAL(t.header.max_procs, 64);
    hsim_swf_trace_free(&t);
    expect_error("; Computer: x\n; MaxProcs: lots\n", "in.swf:2:", "MaxProcs", "lots");
    expect_error("; MaxNodes: 12abc\n", "in.swf:1:", "MaxNodes", NULL);
    expect_error("\n\n; UnixStartTime: \n", "in.swf:3:", "UnixStartTime", NULL);
    expect_error("; TimeZone: 1.5\n", "in.swf:1:", "TimeZone", NULL);
    /* a machine size must fit the machine's processor count */
    expect_error("; MaxProcs: 3000000000\n", "in.swf:1:", "MaxProcs",
                 "expected a count up to 2147483647");
    expect_error("; MaxNodes: 2147483648\n", "in.swf:1:", "MaxNodes", "3648");
    hsim_swf_trace_t big = parse_ok("; MaxProcs: 2147483647\n; MaxJobs: 3000000000\n");
    CU_ASSERT_EQUAL(big.header.max_procs, INT32_MAX);
    CU_ASSERT_EQUAL(big.header.max_jobs, 3000000000LL);
    hsim_swf_trace_free(&big);
    /* a header given again must agree: the last one held (8 processors, 55
       of 100 jobs rejected, exit 0) */
    expect_error("; MaxProcs: 64\n1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n; MaxProcs: 8\n",
                 "in.swf:3:", "header 'MaxProcs' given again", "expected 64, as above");
    hsim_swf_trace_t again = parse_ok("; MaxProcs: 64\n; MaxProcs: 64\n; Note: a\n; Note: b\n");
    CU_ASSERT_EQUAL(again.header.max_procs, 64);
    hsim_swf_trace_free(&again);
    /* lines ended by CR alone: one comment line that held the whole file
       ("0 jobs") */
    expect_error("; Version: 2.2\r; MaxProcs: 8\r1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 "
                 "-1\r", "in.swf:1:", "carriage return inside the line", "CR alone");
    expect_error("; MaxProcs: 8\n1 0 -1 10 2 -1 -1 2\r20 -1 1 1 1 -1 -1 -1 -1 -1\n",
                 "in.swf:2:", "carriage return", NULL);
}

/* A failed read leaves nothing allocated (the harness checks) and no
   records behind. */
static void test_error_frees_records(void)
{
    char text[8192] = "", line[128];
    for (int i = 1; i <= 40; i++) {
        strcat(text, job_line(line, sizeof line, i, i, 5, 1, 1, 10, 1));
        strcat(text, "\n");
    }
    strcat(text, "41 bad\n");
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_swf_parse_string(text, "in.swf", 0, &t, &e), HSIM_EINPUT);
    CU_ASSERT_TRUE(contains(e.msg, "in.swf:41:"));
    CU_ASSERT_EQUAL(t.n_records, 0);
}

/* ---- files ---- */

static char *write_file(const char *dir, const char *name, const char *text, int gzip)
{
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(path, "%s/%s", dir, name);
    if (gzip) {
        gzFile gz = gzopen(path, "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
        CU_ASSERT_EQUAL(gzwrite(gz, text, (unsigned)strlen(text)), (int)strlen(text));
        CU_ASSERT_EQUAL(gzclose(gz), Z_OK);
    } else {
        hsim_test_write_file(path, text);
    }
    return path;
}

static void test_read_plain_and_gzip(void)
{
    char *dir = hsim_test_tmpdir("swf");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    for (int gz = 0; gz <= 1; gz++) {
        char *path = write_file(dir, gz ? "t.swf.gz" : "t.swf", header_text, gz);
        hsim_swf_trace_t t;
        hsim_err_t e = {{0}};
        int rc = hsim_swf_read(path, 0, &t, &e);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc == 0) {
            check_header_records(&t);
            hsim_swf_trace_free(&t);
        }
        /* max_jobs from a file */
        rc = hsim_swf_read(path, 2, &t, &e);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc == 0) {
            CU_ASSERT_EQUAL(t.n_records, 2);
            hsim_swf_trace_free(&t);
        }
        remove(path);
        free(path);
    }
    remove(dir);
    free(dir);
}

/* A NUL byte, in a comment or a job line, plain or gzip: an error at its
   line (the rest of the line was lost without a word: a job after a NUL
   at a line's start, and every job of a UTF-16 file). */
static void test_read_nul_byte(void)
{
    static const char text[] = "; MaxProcs: 8\n"
                               "1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
                               "\0" "2 5 -1 30 4 -1 -1 4 20 -1 1 1 1 -1 -1 -1 -1 -1\n";
    char *dir = hsim_test_tmpdir("swf");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char path[4096];
    for (int gz = 0; gz <= 1; gz++) {
        snprintf(path, sizeof path, "%s/nul.swf%s", dir, gz ? ".gz" : "");
        gzFile f = gzopen(path, gz ? "wb" : "wbT"); /* T: plain */
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_EQUAL(gzwrite(f, text, sizeof text - 1), (int)(sizeof text - 1));
        CU_ASSERT_EQUAL(gzclose(f), Z_OK);
        hsim_swf_trace_t t;
        hsim_err_t e = {{0}};
        CU_ASSERT_EQUAL(hsim_swf_read(path, 0, &t, &e), HSIM_EINPUT);
        CU_ASSERT_TRUE(contains(e.msg, ":3: a NUL byte"));
        remove(path);
    }
    remove(dir);
    free(dir);
}

/* Far more than one read chunk: lines that straddle chunks, and an error
   line number counted across them. */
static void test_read_large_file(void)
{
    enum { N = 30000 };
    size_t size = (size_t)N * 80 + 64;
    char *text = malloc(size), line[128];
    size_t len = 0;
    len += (size_t)sprintf(text + len, "; MaxProcs: 64\n");
    for (int i = 1; i <= N; i++) {
        job_line(line, sizeof line, i, 3 * (long long)i, 1 + i % 1000, 1 + i % 64,
                 -1, 7200, i % 97);
        len += (size_t)sprintf(text + len, "%s\n", line);
    }
    char *dir = hsim_test_tmpdir("swf-large");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    for (int gz = 0; gz <= 1; gz++) {
        char *path = write_file(dir, gz ? "big.swf.gz" : "big.swf", text, gz);
        hsim_swf_trace_t t;
        hsim_err_t e = {{0}};
        int rc = hsim_swf_read(path, 0, &t, &e);
        CU_ASSERT_EQUAL_FATAL(rc, 0);
        CU_ASSERT_EQUAL(t.n_records, N);
        int bad = 0;
        for (size_t k = 0; k < t.n_records; k++) {
            const hsim_swf_record_t *r = &t.records[k];
            long long i = (long long)k + 1;
            if (r->id != i || r->line != i + 1 || r->submit != 3 * i * S ||
                r->run != (1 + i % 1000) * S || r->alloc_procs != 1 + i % 64 ||
                r->user != i % 97)
                bad++;
        }
        CU_ASSERT_EQUAL(bad, 0);
        hsim_swf_trace_free(&t);
        remove(path);
        free(path);
    }
    /* an error deep in the file names its line */
    strcpy(text + len, "30001 1 2 3\n");
    char *path = write_file(dir, "bad.swf.gz", text, 1);
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_swf_read(path, 0, &t, &e), HSIM_EINPUT);
    char want[600];
    snprintf(want, sizeof want, "%s:%d:", path, N + 2);
    CU_ASSERT_TRUE(contains(e.msg, want));
    CU_ASSERT_TRUE(contains(e.msg, "found 4"));
    remove(path);
    free(path);
    remove(dir);
    free(dir);
    free(text);
}

/* Reads a whole file into memory (test helper, plain malloc). */
static unsigned char *slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)*len + 1);
    if (fread(b, 1, (size_t)*len, f) != (size_t)*len)
        *len = -1;
    fclose(f);
    return b;
}

static void spill(const char *path, const unsigned char *b, long len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
}

/*
 * A damaged gzip file must not pass for a shorter trace.  Two cases: the
 * 8-byte trailer (CRC and length) cut off, so that every job line still
 * decompresses; and a file cut right after a full flush, at a line boundary,
 * so that the jobs after it silently vanish.  inflate() shows both only as
 * a stream that needs input after the file has ended: a reader that takes
 * that for a clean end of file accepts them.
 */
/* The message of a cut gzip file: the file named once, the line, and the
   reason. */
static void check_cut_message(const char *msg, const char *path)
{
    char want[600];
    snprintf(want, sizeof want, "%s:", path);
    CU_ASSERT_FATAL(!strncmp(msg, want, strlen(want)));
    CU_ASSERT_PTR_NULL(strstr(msg + strlen(path), path));
    CU_ASSERT_TRUE(contains(msg, ": read error: unexpected end of file (is the file cut short?)"));
}

static void test_read_truncated_gzip(void)
{
    char *dir = hsim_test_tmpdir("swf-trunc");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char text[8192] = "; MaxProcs: 8\n", line[128];
    for (int i = 1; i <= 50; i++) {
        strcat(text, job_line(line, sizeof line, i, 10 * i, 5, 1, 1, 10, i));
        strcat(text, "\n");
    }
    char *path = write_file(dir, "cut.swf.gz", text, 1);
    long len = 0;
    unsigned char *b = slurp(path, &len);
    CU_ASSERT_FATAL(b != NULL && len > 8);
    spill(path, b, len - 8); /* no trailer */
    free(b);
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    int rc = hsim_swf_read(path, 0, &t, &e);
    if (rc == 0) {
        fprintf(stderr, "\n%s without its gzip trailer was read as %zu jobs, no error\n",
                path, t.n_records);
        hsim_swf_trace_free(&t);
    }
    CU_ASSERT_EQUAL(rc, HSIM_EIO);
    if (rc)
        check_cut_message(e.msg, path);

    /* cut at a line boundary: 20 of the 50 jobs survive */
    gzFile gz = gzopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
    const char *p = text;
    long cut = -1;
    for (int k = 0; *p; k++) {
        size_t n = strcspn(p, "\n") + 1;
        gzwrite(gz, p, (unsigned)n);
        p += n;
        if (k == 20) { /* header + 20 jobs */
            gzflush(gz, Z_FULL_FLUSH);
            cut = (long)gzoffset(gz);
        }
    }
    gzclose(gz);
    b = slurp(path, &len);
    CU_ASSERT_FATAL(b != NULL && cut > 0 && cut < len);
    spill(path, b, cut);
    free(b);
    rc = hsim_swf_read(path, 0, &t, &e);
    if (rc == 0) {
        fprintf(stderr, "\n%s cut after 20 of 50 jobs was read as %zu jobs, no error\n",
                path, t.n_records);
        hsim_swf_trace_free(&t);
    }
    CU_ASSERT_EQUAL(rc, HSIM_EIO);
    if (rc)
        check_cut_message(e.msg, path);
    remove(path);
    free(path);
    remove(dir);
    free(dir);
}

/* gzip members one after another are one stream (as gzip -d reads them);
   anything else after the last member is an error at the line it would
   start (zlib's gzread() dropped it without a word). */
static void test_read_gzip_members_and_trailing_data(void)
{
    char *dir = hsim_test_tmpdir("swf");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char line[128], text[256];
    snprintf(text, sizeof text, "; MaxProcs: 8\n%s\n",
             job_line(line, sizeof line, 1, 0, 10, 2, 2, 20, 1));
    char *path = write_file(dir, "m.swf.gz", text, 1);
    long len1 = 0;
    unsigned char *first = slurp(path, &len1);
    CU_ASSERT_FATAL(first != NULL);
    snprintf(text, sizeof text, "%s\n", job_line(line, sizeof line, 2, 5, 10, 2, 2, 20, 1));
    char *second_path = write_file(dir, "second.swf.gz", text, 1);
    long len2 = 0;
    unsigned char *second = slurp(second_path, &len2);
    CU_ASSERT_FATAL(second != NULL);
    unsigned char *both = malloc((size_t)(len1 + len2 + 64));
    memcpy(both, first, (size_t)len1);
    memcpy(both + len1, second, (size_t)len2);
    spill(path, both, len1 + len2);
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_swf_read(path, 0, &t, &e), 0);
    CU_ASSERT_EQUAL(t.n_records, 2);
    hsim_swf_trace_free(&t);
    /* the second job as plain text after the first member */
    memcpy(both + len1, text, strlen(text));
    spill(path, both, len1 + (long)strlen(text));
    CU_ASSERT_EQUAL(hsim_swf_read(path, 0, &t, &e), HSIM_EIO);
    CU_ASSERT_TRUE(contains(e.msg, ":3: read error: data after the end of the gzip stream"));
    free(both);
    free(first);
    free(second);
    remove(second_path);
    free(second_path);
    remove(path);
    free(path);
    remove(dir);
    free(dir);
}

static void test_read_errors(void)
{
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    CU_ASSERT_EQUAL(hsim_swf_read("/nonexistent/nothing.swf", 0, &t, &e), HSIM_EIO);
    CU_ASSERT_TRUE(contains(e.msg, "/nonexistent/nothing.swf"));
    char *dir = hsim_test_tmpdir("swf-err");
    char *path = write_file(dir, "e.swf", "; MaxProcs: 4\n1 0 0 10 1 -1\n", 0);
    CU_ASSERT_EQUAL(hsim_swf_read(path, 0, &t, &e), HSIM_EINPUT);
    char want[600];
    snprintf(want, sizeof want, "%s:2:", path);
    CU_ASSERT_TRUE(contains(e.msg, want));
    /* a folder opens, and its first read fails: the system's reason, no line */
    CU_ASSERT_EQUAL(hsim_swf_read(dir, 0, &t, &e), HSIM_EIO);
    snprintf(want, sizeof want, "%s: cannot read: Is a directory", dir);
    CU_ASSERT_STRING_EQUAL(e.msg, want);
    remove(path);
    free(path);
    /* a line that does not fit the reader's 256 KiB buffer: named by its
       own number, even though the reader has not counted it yet */
    size_t long_len = (size_t)1 << 18;
    char *text = malloc(long_len + 64);
    strcpy(text, "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n;");
    size_t at = strlen(text);
    memset(text + at, 'x', long_len);
    strcpy(text + at + long_len, "\n");
    path = write_file(dir, "long.swf", text, 0);
    CU_ASSERT_EQUAL(hsim_swf_read(path, 0, &t, &e), HSIM_EINPUT);
    snprintf(want, sizeof want, "%s:3: line longer than 262144 bytes", path);
    CU_ASSERT_STRING_EQUAL(e.msg, want);
    remove(path);
    free(path);
    free(text);
    remove(dir);
    free(dir);
}

/* ---- cleaning ---- */

static hsim_swf_trace_t parse_ok(const char *text)
{
    hsim_swf_trace_t t;
    hsim_err_t e = {{0}};
    int rc = hsim_swf_parse_string(text, "clean.swf", 0, &t, &e);
    if (rc)
        fprintf(stderr, "\nparse failed: %s\n", e.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return t;
}

static const hsim_job_t *job_by_id(const hsim_workload_t *w, int64_t id)
{
    for (size_t i = 0; i < w->n_jobs; i++)
        if (w->jobs[i].id == id)
            return &w->jobs[i];
    return NULL;
}

static const hsim_rejection_t *rejection_by_id(const hsim_workload_t *w, int64_t id)
{
    for (size_t i = 0; i < w->n_rejected; i++)
        if (w->rejected[i].id == id)
            return &w->rejected[i];
    return NULL;
}

static void check_sorted(const hsim_workload_t *w)
{
    for (size_t i = 1; i < w->n_jobs; i++) {
        const hsim_job_t *a = &w->jobs[i - 1], *b = &w->jobs[i];
        CU_ASSERT_TRUE(a->submit < b->submit || (a->submit == b->submit && a->line < b->line));
    }
}

/* Cleans t with preset for a machine of 100 processors into w, expecting
   jobs run and rejected jobs, every record accounted for, jobs sorted. */
static void clean_100(const hsim_swf_trace_t *t, hsim_clean_preset_t preset, hsim_workload_t *w,
                      size_t jobs, size_t rejected)
{
    hsim_workload_init(w);
    CU_ASSERT_EQUAL_FATAL(hsim_swf_clean(t, preset, 100, w), 0);
    CU_ASSERT_EQUAL(w->n_jobs, jobs);
    CU_ASSERT_EQUAL(w->n_rejected, rejected);
    CU_ASSERT_EQUAL(w->n_jobs + w->n_rejected, t->n_records);
    CU_ASSERT_EQUAL(w->n_input, t->n_records);
    check_sorted(w);
}

/*
 * Records for the pyss preset, machine of 100 processors.  Comments give
 * what DESIGN.md's rule makes of each.
 */
static void test_clean_pyss(void)
{
    const char *text =
        /* line 1: submit 10, run 50, alloc 4, req 100 -> 4 procs, est 100, run 50 */
        "1 10 0 50 4 -1 -1 8 100 -1 1 11 12 13 14 15 -1 -1\n"
        /* line 2: run 200 > req 100 -> est 200, run 100 (min) */
        "2 20 0 200 4 -1 -1 -1 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 3: req -1 -> est max(-1,50,1) = 50, run max(1,min(-1,50)) = 1 */
        "3 30 0 50 4 -1 -1 -1 -1 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 4: run 0 -> 1 s job, est 1 s, max(1, 8) = 8 procs, submit 40 */
        "4 40 0 0 8 -1 -1 -1 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 5: alloc 0 -> 1 s job of 1 proc */
        "5 50 0 50 0 -1 -1 16 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 6: submit -5 -> 1 s job at 1 s, 2 procs */
        "6 -5 0 50 2 -1 -1 -1 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 7: alloc 500 > machine -> 100 procs */
        "7 5 0 60 500 -1 -1 -1 70 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 8: submit 0, run -1 -> submitted at 1 s; alloc -1 -> 1 proc */
        "8 0 0 -1 -1 -1 -1 -1 -1 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 9: run 0.5 s (> 0), req 10 -> est 10, run max(1, 0.5) = 1 s */
        "9 10 0 0.5 3 -1 -1 -1 10 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 10: req 0 -> est max(0, 30, 1) = 30, run max(1, min(0, 30)) = 1 */
        "10 10 0 30 1 -1 -1 -1 0 -1 1 1 1 1 1 1 7 9\n"
        /* line 11: fractional times kept: run 2.5, req 3.25 -> est 3.25, run 2.5 */
        "11 7.75 0 2.5 1 -1 -1 -1 3.25 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 12: alloc exactly the machine */
        "12 1 0 9 100 -1 -1 -1 9 -1 1 1 1 1 1 1 -1 -1\n";
    hsim_swf_trace_t t = parse_ok(text);
    hsim_workload_t w;
    clean_100(&t, HSIM_CLEAN_PYSS, &w, 12, 0);

    const hsim_job_t *j;
    j = job_by_id(&w, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->submit, 10 * S);
    CU_ASSERT_EQUAL(j->procs, 4); /* field 5, not field 8 */
    CU_ASSERT_EQUAL(j->estimate, 100 * S);
    CU_ASSERT_EQUAL(j->runtime, 50 * S);
    CU_ASSERT_EQUAL(j->line, 1);
    CU_ASSERT_EQUAL(j->user, 11);
    CU_ASSERT_EQUAL(j->group, 12);
    CU_ASSERT_EQUAL(j->app, 13);
    CU_ASSERT_EQUAL(j->queue, 14);
    CU_ASSERT_EQUAL(j->partition, 15);
    CU_ASSERT_EQUAL(j->after, -1);
    CU_ASSERT_EQUAL(j->think, -1); /* unknown */

    j = job_by_id(&w, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->estimate, 200 * S);
    CU_ASSERT_EQUAL(j->runtime, 100 * S);

    j = job_by_id(&w, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->estimate, 50 * S);
    CU_ASSERT_EQUAL(j->runtime, 1 * S);

    j = job_by_id(&w, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->submit, 40 * S);
    CU_ASSERT_EQUAL(j->runtime, 1 * S);
    CU_ASSERT_EQUAL(j->estimate, 1 * S);
    CU_ASSERT_EQUAL(j->procs, 8);

    j = job_by_id(&w, 5);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->submit, 50 * S);
    CU_ASSERT_EQUAL(j->runtime, 1 * S);
    CU_ASSERT_EQUAL(j->estimate, 1 * S);
    CU_ASSERT_EQUAL(j->procs, 1);

    j = job_by_id(&w, 6);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->submit, 1 * S);
    CU_ASSERT_EQUAL(j->runtime, 1 * S);
    CU_ASSERT_EQUAL(j->estimate, 1 * S);
    CU_ASSERT_EQUAL(j->procs, 2);

    j = job_by_id(&w, 7);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->procs, 100);
    CU_ASSERT_EQUAL(j->estimate, 70 * S);
    CU_ASSERT_EQUAL(j->runtime, 60 * S);

    j = job_by_id(&w, 8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->submit, 1 * S);
    CU_ASSERT_EQUAL(j->procs, 1);
    CU_ASSERT_EQUAL(j->runtime, 1 * S);

    j = job_by_id(&w, 9);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->estimate, 10 * S);
    CU_ASSERT_EQUAL(j->runtime, 1 * S);
    CU_ASSERT_EQUAL(j->procs, 3);

    j = job_by_id(&w, 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->estimate, 30 * S);
    CU_ASSERT_EQUAL(j->runtime, 1 * S);
    CU_ASSERT_EQUAL(j->after, 7);
    CU_ASSERT_EQUAL(j->think, 9 * S);

    j = job_by_id(&w, 11);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->submit, 7750000);
    CU_ASSERT_EQUAL(j->estimate, 3250000);
    CU_ASSERT_EQUAL(j->runtime, 2500000);

    j = job_by_id(&w, 12);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->procs, 100);

    /* killed: only job 2, cut at its requested time (job 3's and job 10's
       runtimes become 1 s because they have none) */
    for (size_t i = 0; i < w.n_jobs; i++)
        CU_ASSERT_EQUAL(w.jobs[i].killed_at_estimate, w.jobs[i].id == 2);
    /* runtime <= estimate by construction */
    for (size_t i = 0; i < w.n_jobs; i++) {
        CU_ASSERT_TRUE(w.jobs[i].runtime <= w.jobs[i].estimate);
        CU_ASSERT_TRUE(w.jobs[i].runtime >= S);
        CU_ASSERT_TRUE(w.jobs[i].procs >= 1 && w.jobs[i].procs <= 100);
    }
    hsim_workload_free(&w);
    hsim_swf_trace_free(&t);
}

static void test_clean_standard(void)
{
    const char *text =
        /* line 1: req procs 8 (field 8) over alloc 4 -> 8; est 100, run 50 */
        "1 10 0 50 4 -1 -1 8 100 -1 1 11 12 13 14 15 -1 -1\n"
        /* line 2: field 8 is -1 -> field 5 */
        "2 20 0 50 4 -1 -1 -1 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 3: req time -1 -> estimate = runtime 70 */
        "3 30 0 70 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 4: run 150 > req 100 -> cut at 100, killed */
        "4 40 0 150 4 -1 -1 4 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 5: runtime unknown -> rejected */
        "5 50 0 -1 4 -1 -1 4 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 6: zero runtime -> rejected */
        "6 60 0 0 4 -1 -1 4 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 7: no processor count -> rejected */
        "7 70 0 10 -1 -1 -1 -1 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 8: 200 processors on a 100-processor machine -> rejected */
        "8 80 0 10 4 -1 -1 200 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 9: negative submit -> rejected */
        "9 -1 0 10 4 -1 -1 4 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 10: both counts 0 -> rejected */
        "10 100 0 10 0 -1 -1 0 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 11: the whole machine -> accepted; submitted before line 1 */
        "11 5 0 10 1 -1 -1 100 100 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 12: alloc 200 but field 8 says 50 -> 50, accepted */
        "12 10 0 10 200 -1 -1 50 20 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 13: run equal to req: not killed */
        "13 10 0 20 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 14: field 8 is 0, field 5 is 3 -> 3 */
        "14 0 0 5 3 -1 -1 0 20 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 15: negative runtime (not the -1 of "unknown") -> rejected */
        "15 0 0 -3 3 -1 -1 0 20 -1 1 1 1 1 1 1 -1 -1\n"
        /* line 16: req time 0, like -1, is none -> estimate = runtime 30 */
        "16 10 0 30 4 -1 -1 4 0 -1 1 1 1 1 1 1 -1 -1\n";
    hsim_swf_trace_t t = parse_ok(text);
    hsim_workload_t w;
    clean_100(&t, HSIM_CLEAN_STANDARD, &w, 9, 7);

    const hsim_job_t *j;
    j = job_by_id(&w, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->procs, 8);
    CU_ASSERT_EQUAL(j->estimate, 100 * S);
    CU_ASSERT_EQUAL(j->runtime, 50 * S);
    CU_ASSERT_EQUAL(j->killed_at_estimate, 0);
    CU_ASSERT_EQUAL(j->user, 11);

    j = job_by_id(&w, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->procs, 4);

    j = job_by_id(&w, 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->estimate, 30 * S);
    CU_ASSERT_EQUAL(j->runtime, 30 * S);
    CU_ASSERT_EQUAL(j->killed_at_estimate, 0);

    j = job_by_id(&w, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->estimate, 70 * S);
    CU_ASSERT_EQUAL(j->runtime, 70 * S);
    CU_ASSERT_EQUAL(j->killed_at_estimate, 0);

    j = job_by_id(&w, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->estimate, 100 * S);
    CU_ASSERT_EQUAL(j->runtime, 100 * S);
    CU_ASSERT_EQUAL(j->killed_at_estimate, 1);

    j = job_by_id(&w, 11);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->procs, 100);

    j = job_by_id(&w, 12);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->procs, 50);

    j = job_by_id(&w, 13);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->killed_at_estimate, 0);
    CU_ASSERT_EQUAL(j->runtime, 20 * S);

    j = job_by_id(&w, 14);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL(j->procs, 3);

    /* each rejection: id, line and a reason that says what was wrong */
    static const struct {
        int id;
        const char *word;
    } rej[] = {{5, "unknown runtime"}, {6, "zero"}, {7, "processor"}, {8, "200"},
               {9, "submit"}, {10, "processor"}, {15, "negative runtime"}};
    for (size_t i = 0; i < sizeof rej / sizeof rej[0]; i++) {
        const hsim_rejection_t *r = rejection_by_id(&w, rej[i].id);
        CU_ASSERT_PTR_NOT_NULL(r);
        if (!r)
            continue;
        CU_ASSERT_EQUAL(r->line, rej[i].id); /* ids were chosen equal to lines */
        CU_ASSERT_TRUE(r->reason[0] != '\0');
        if (!contains(r->reason, rej[i].word)) {
            fprintf(stderr, "\nrejection of job %d: '%s' lacks '%s'\n", rej[i].id,
                    r->reason, rej[i].word);
            CU_FAIL("rejection reason");
        }
        CU_ASSERT_PTR_NULL(job_by_id(&w, rej[i].id));
    }
    /* rejections keep input order */
    for (size_t i = 1; i < w.n_rejected; i++)
        CU_ASSERT_TRUE(w.rejected[i - 1].line < w.rejected[i].line);
    /* the unknown-runtime and zero-runtime reasons differ */
    const hsim_rejection_t *r5 = rejection_by_id(&w, 5), *r6 = rejection_by_id(&w, 6);
    if (r5 && r6)
        CU_ASSERT_STRING_NOT_EQUAL(r5->reason, r6->reason);
    hsim_workload_free(&w);
    hsim_swf_trace_free(&t);
}

/* Jobs come out sorted by (submit, line), whatever the input order. */
static void test_clean_sorts(void)
{
    const char *text =
        "1 30 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
        "2 10 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
        "3 30 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
        "4 10 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
        "5 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
        "6 30 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
        "7 10.5 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n";
    static const int64_t want[] = {5, 2, 4, 7, 1, 3, 6};
    for (int preset = 0; preset < 2; preset++) {
        hsim_swf_trace_t t = parse_ok(text);
        hsim_workload_t w;
        hsim_workload_init(&w);
        CU_ASSERT_EQUAL_FATAL(hsim_swf_clean(&t, preset ? HSIM_CLEAN_STANDARD
                                                        : HSIM_CLEAN_PYSS, 10, &w), 0);
        CU_ASSERT_EQUAL_FATAL(w.n_jobs, 7);
        for (size_t i = 0; i < 7; i++)
            CU_ASSERT_EQUAL(w.jobs[i].id, want[i]);
        hsim_workload_free(&w);
        hsim_swf_trace_free(&t);
    }
}

static void test_clean_header_copied(void)
{
    hsim_swf_trace_t t = parse_ok("; MaxProcs: 64\n; Computer: c\n"
                                  "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n");
    hsim_workload_t w;
    hsim_workload_init(&w);
    CU_ASSERT_EQUAL_FATAL(hsim_swf_clean(&t, HSIM_CLEAN_STANDARD, 64, &w), 0);
    CU_ASSERT_EQUAL(w.header.max_procs, 64);
    CU_ASSERT_STRING_EQUAL(w.header.computer, "c");
    hsim_workload_free(&w);
    hsim_swf_trace_free(&t);
}

static void test_preset_names(void)
{
    hsim_clean_preset_t p = HSIM_CLEAN_STANDARD;
    CU_ASSERT_EQUAL(hsim_clean_preset_parse("pyss", &p), 0);
    CU_ASSERT_EQUAL(p, HSIM_CLEAN_PYSS);
    CU_ASSERT_EQUAL(hsim_clean_preset_parse("standard", &p), 0);
    CU_ASSERT_EQUAL(p, HSIM_CLEAN_STANDARD);
    CU_ASSERT_EQUAL(hsim_clean_preset_parse("PYSS", &p), -1);
    CU_ASSERT_EQUAL(hsim_clean_preset_parse("", &p), -1);
}

/* Out of memory at every allocation of a parse and a clean: ENOMEM, no
   leak (the harness checks), and success once the failure is past. */
static void test_enomem(void)
{
    char text[16384] = "", line[128];
    for (int i = 1; i <= 100; i++) {
        strcat(text, job_line(line, sizeof line, i, 100 - i, i % 3, 1, 1 + i % 5, 10, 1));
        strcat(text, "\n");
    }
    int succeeded = 0;
    for (long n = 1; n <= 60 && !succeeded; n++) {
        hsim_swf_trace_t t;
        hsim_err_t e = {{0}};
        hsim_alloc_fail_after(n);
        int rc = hsim_swf_parse_string(text, "m.swf", 0, &t, &e);
        if (rc == 0) {
            hsim_workload_t w;
            hsim_workload_init(&w);
            rc = hsim_swf_clean(&t, HSIM_CLEAN_STANDARD, 4, &w);
            if (rc == 0)
                succeeded = 1;
            hsim_workload_free(&w);
            hsim_swf_trace_free(&t);
        }
        hsim_alloc_fail_after(0);
        CU_ASSERT_TRUE(rc == 0 || rc == HSIM_ENOMEM);
    }
    CU_ASSERT_TRUE(succeeded);
}

void hsim_test_register(void)
{
    CU_pSuite r = hsim_test_suite("swf-read");
    HSIM_TEST(r, test_parse_header_and_records);
    HSIM_TEST(r, test_parse_no_header);
    HSIM_TEST(r, test_fractional_times);
    HSIM_TEST(r, test_max_jobs);
    HSIM_TEST(r, test_read_plain_and_gzip);
    HSIM_TEST(r, test_read_large_file);
    HSIM_TEST(r, test_read_nul_byte);
    HSIM_TEST(r, test_read_gzip_members_and_trailing_data);
    HSIM_TEST(r, test_read_errors);
    HSIM_TEST(r, test_read_truncated_gzip);
    HSIM_TEST(r, test_error_frees_records);
    CU_pSuite m = hsim_test_suite("swf-malformed");
    HSIM_TEST(m, test_too_few_fields);
    HSIM_TEST(m, test_too_many_fields);
    HSIM_TEST(m, test_alea_extended);
    HSIM_TEST(m, test_alea_file);
    HSIM_TEST(m, test_not_a_number);
    HSIM_TEST(m, test_fractional_count);
    HSIM_TEST(m, test_out_of_range_count);
    HSIM_TEST(m, test_out_of_range_time);
    HSIM_TEST(m, test_bad_header_integer);
    HSIM_TEST(m, test_repeated_job_number);
    HSIM_TEST(m, test_byte_order_mark);
    CU_pSuite c = hsim_test_suite("swf-clean");
    HSIM_TEST(c, test_clean_pyss);
    HSIM_TEST(c, test_clean_standard);
    HSIM_TEST(c, test_clean_sorts);
    HSIM_TEST(c, test_clean_header_copied);
    HSIM_TEST(c, test_preset_names);
    HSIM_TEST(c, test_enomem);
}
