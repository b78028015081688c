/*
 * test_chart.c - the cairo bar chart: every file type, the PNG's size and
 * signature (and its growth with many bars and long names), byte-identical
 * reruns, and the errors.
 */
#include "harness.h"

#include "plots/chart.h"

#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const labels[] = {"fcfs", "easy", "conservative"};
static const double waits[] = {3.5, 1.25, 0.0};
static const double slow[] = {120.0, 14.2, -3.0}; /* negative: drawn as 0 */

static int draw(const char *path, size_t panels)
{
    hsim_chart_panel_t p[2] = {{"average wait (h)", waits}, {"bsld", slow}};
    hsim_err_t e;
    return hsim_chart_bars(path, "test", labels, 3, p, panels, &e);
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    *n = fread(buf, 1, (size_t)len, f);
    fclose(f);
    return buf;
}

static void test_png_size_and_signature(void)
{
    char *dir = hsim_test_tmpdir("chart");
    char path[600];
    snprintf(path, sizeof path, "%s/a.png", dir);
    CU_ASSERT_EQUAL(draw(path, 2), 0);
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    CU_ASSERT_EQUAL(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    CU_ASSERT_EQUAL(cairo_image_surface_get_width(s), 2 * 260 + 60); /* a panel each */
    CU_ASSERT_EQUAL(cairo_image_surface_get_height(s), 64 + 300 + 120);
    /* the first bar is drawn in the palette's first colour somewhere in
       the first panel's plot area */
    cairo_surface_flush(s);
    const unsigned char *px = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s), blue = 0;
    for (int y = 60; y < 340 && !blue; y++)
        for (int x = 30; x < 120 && !blue; x++) {
            const unsigned char *p = px + y * stride + 4 * x; /* BGRx */
            blue = p[0] > 150 && p[1] > 90 && p[1] < 150 && p[2] < 60;
        }
    CU_ASSERT(blue);
    cairo_surface_destroy(s);
    free(dir);
}

/* Many bars with long names: each panel widens so that a bar keeps 28
   points (20 bars: 2 x 30 + 20 x 28 = 620 per panel, against 260), and the
   image grows below and to the right for the slanted names (33 characters
   at 10 points reach past the 120 points kept for short ones). */
static void test_png_grows_with_bars_and_names(void)
{
    enum { N = 20 };
    char names[N][40];
    const char *lab[N];
    double v[N];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "policy-with-a-rather-long-name-%02d", i);
        lab[i] = names[i];
        v[i] = i + 1;
    }
    hsim_chart_panel_t p[2] = {{"a", v}, {"b", v}};
    char *dir = hsim_test_tmpdir("chart");
    char path[600];
    snprintf(path, sizeof path, "%s/many.png", dir);
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(hsim_chart_bars(path, "many", lab, N, p, 2, &e), 0);
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    CU_ASSERT_EQUAL_FATAL(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    CU_ASSERT(w >= 2 * 620 + 60 && w < 2 * 620 + 200);
    CU_ASSERT(h > 64 + 300 + 120 && h < 64 + 300 + 300);
    cairo_surface_destroy(s);
    remove(path);
    free(dir);
}

static void test_png_is_byte_identical(void)
{
    char *dir = hsim_test_tmpdir("chart");
    char a[600], b[600];
    snprintf(a, sizeof a, "%s/a.png", dir);
    snprintf(b, sizeof b, "%s/b.png", dir);
    CU_ASSERT_EQUAL(draw(a, 2), 0);
    CU_ASSERT_EQUAL(draw(b, 2), 0);
    size_t na = 0, nb = 0;
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_PTR_NOT_NULL_FATAL(y);
    CU_ASSERT(na > 1000);
    CU_ASSERT_EQUAL(na, nb);
    CU_ASSERT(na == nb && memcmp(x, y, na) == 0);
    CU_ASSERT(memcmp(x, "\x89PNG", 4) == 0);
    free(x);
    free(y);
    free(dir);
}

/* The pixels of the 1-based bar k of the first panel that are not white,
   over the whole plot height; -1 when the file cannot be read. */
static int bar_ink(const char *path, int k)
{
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return -1;
    }
    cairo_surface_flush(s);
    const unsigned char *px = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s), ink = 0;
    int slot = (260 - 2 * 30) / 3, x0 = 30 + slot * (k - 1);
    for (int y = 64; y < 64 + 300; y++)
        for (int x = x0 + slot / 4; x < x0 + 3 * slot / 4; x++) {
            const unsigned char *p = px + y * stride + 4 * x;
            ink += p[0] < 200 || p[1] < 200 || p[2] < 200;
        }
    cairo_surface_destroy(s);
    return ink;
}

/* NaN is no value: no bar, a label that is not a number's, and the other
   bars keep their scale. */
static void test_nan_is_no_value(void)
{
    char *dir = hsim_test_tmpdir("chart");
    char a[600], b[600];
    snprintf(a, sizeof a, "%s/nan.png", dir);
    snprintf(b, sizeof b, "%s/zero.png", dir);
    const double with_nan[] = {NAN, 2.0, 1.0}, with_zero[] = {0.0, 2.0, 1.0};
    hsim_chart_panel_t pn = {"p", with_nan}, pz = {"p", with_zero};
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(hsim_chart_bars(a, "t", labels, 3, &pn, 1, &e), 0);
    CU_ASSERT_EQUAL_FATAL(hsim_chart_bars(b, "t", labels, 3, &pz, 1, &e), 0);
    size_t na = 0, nb = 0;
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_PTR_NOT_NULL_FATAL(y);
    CU_ASSERT(na != nb || memcmp(x, y, na) != 0); /* "n/a", not "0.00" */
    /* the bars of 2 and 1 are drawn alike in both; the first has no bar */
    CU_ASSERT(bar_ink(a, 2) > 1000);
    CU_ASSERT_EQUAL(bar_ink(a, 2), bar_ink(b, 2));
    CU_ASSERT_EQUAL(bar_ink(a, 3), bar_ink(b, 3));
    CU_ASSERT(bar_ink(a, 1) < 200); /* the label only */
    free(x);
    free(y);
    free(dir);
}

static void test_svg_and_pdf(void)
{
    char *dir = hsim_test_tmpdir("chart");
    char path[600];
    size_t n = 0;
    snprintf(path, sizeof path, "%s/a.svg", dir);
    CU_ASSERT_EQUAL(draw(path, 1), 0);
    char *svg = slurp(path, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
    svg[n] = '\0';
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<svg"));
    free(svg);
    snprintf(path, sizeof path, "%s/a.pdf", dir);
    CU_ASSERT_EQUAL(draw(path, 1), 0);
    char *pdf = slurp(path, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pdf);
    CU_ASSERT(n > 4 && memcmp(pdf, "%PDF", 4) == 0);
    free(pdf);
    free(dir);
}

static void test_errors(void)
{
    char *dir = hsim_test_tmpdir("chart");
    char path[600];
    hsim_err_t e;
    hsim_chart_panel_t p = {"x", waits};
    snprintf(path, sizeof path, "%s/a.jpg", dir);
    CU_ASSERT_EQUAL(hsim_chart_bars(path, "t", labels, 3, &p, 1, &e), HSIM_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "expected a .png, .svg or .pdf"));
    snprintf(path, sizeof path, "%s/a.png", dir);
    CU_ASSERT_EQUAL(hsim_chart_bars(path, "t", labels, 0, &p, 1, &e), HSIM_EINPUT);
    /* libpng's reason and cairo's, for a file that cannot be opened */
    snprintf(path, sizeof path, "%s/no/such/folder/a.png", dir);
    CU_ASSERT_EQUAL(hsim_chart_bars(path, "t", labels, 3, &p, 1, &e), HSIM_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "folder/a.png: cannot write: No such file"));
    snprintf(path, sizeof path, "%s/no/such/folder/a.svg", dir);
    CU_ASSERT_EQUAL(hsim_chart_bars(path, "t", labels, 3, &p, 1, &e), HSIM_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "folder/a.svg: cannot write: "));
    free(dir);
}

/* Every allocation of a PNG's drawing may fail: the chart then reports
   HSIM_ENOMEM, and a later one succeeds.  The first two failures are
   hsim's own (the pixels, then write_png()'s row buffer). */
static void test_png_out_of_memory(void)
{
    char *dir = hsim_test_tmpdir("chart");
    char path[600];
    snprintf(path, sizeof path, "%s/m.png", dir);
    for (long n = 1; n <= 2; n++) {
        hsim_chart_panel_t p = {"x", waits};
        hsim_err_t e = {{0}};
        hsim_alloc_fail_after(n);
        int rc = hsim_chart_bars(path, "t", labels, 3, &p, 1, &e);
        hsim_alloc_fail_after(0);
        CU_ASSERT_EQUAL(rc, HSIM_ENOMEM);
        CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "m.png: no memory"));
    }
    CU_ASSERT_EQUAL(draw(path, 1), 0);
    free(dir);
}

/* A bar's label holds at most 5 characters, so that the labels of the
   narrowest bars stay apart (196002 ran into its neighbours). */
static void test_value_text(void)
{
    static const struct {
        double v;
        const char *text;
    } cases[] = {{0, "0.00"},        {1.234, "1.23"},      {12.345, "12.3"},
                 {544, "544"},       {9999, "9999"},       {9999.6, "10.0k"},
                 {12345, "12.3k"},   {196002, "196k"},     {999499, "999k"},
                 {999600, "1.00M"},  {1.5e6, "1.50M"},     {3.6e8, "360M"},
                 {2e12, "2.00T"},    {1e21, "1000E"},      {1e30, "1000000000000E"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[32];
        hsim_chart_value_text(buf, sizeof buf, cases[i].v);
        CU_ASSERT_STRING_EQUAL(buf, cases[i].text);
        if (cases[i].v < 1e21)
            CU_ASSERT_TRUE(strlen(buf) <= 5);
    }
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("chart");
    HSIM_TEST(s, test_png_size_and_signature);
    HSIM_TEST(s, test_png_grows_with_bars_and_names);
    HSIM_TEST(s, test_png_is_byte_identical);
    HSIM_TEST(s, test_svg_and_pdf);
    HSIM_TEST(s, test_nan_is_no_value);
    HSIM_TEST(s, test_errors);
    HSIM_TEST(s, test_png_out_of_memory);
    HSIM_TEST(s, test_value_text);
}
