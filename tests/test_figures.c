/*
 * test_figures.c - the chart layer (plots/canvas.h, plots/figures.h):
 * ticks on linear and log axes and their labels; every figure type in
 * every format: each PNG decodes at the size of its layout and is not
 * blank, each SVG and PDF is whole; a wrong extension writes nothing.
 */
#include "harness.h"

#include "chart_check.h"
#include "plots/canvas.h"
#include "plots/figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Series colours: 16 different ones (an experiment of up to 16 policies
   draws none twice), then round again. */
static void test_palette(void)
{
    cairo_surface_t *px = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *cr = cairo_create(px);
    uint32_t seen[HSIM_PALETTE_SERIES + 1];
    for (size_t i = 0; i <= HSIM_PALETTE_SERIES; i++) {
        hsim_canvas_colour(cr, i);
        cairo_paint(cr);
        cairo_surface_flush(px);
        seen[i] = *(const uint32_t *)cairo_image_surface_get_data(px) & 0xFFFFFFu;
    }
    int same = 0;
    for (size_t i = 0; i < HSIM_PALETTE_SERIES; i++)
        for (size_t k = 0; k < i; k++)
            same += seen[i] == seen[k];
    CU_ASSERT_EQUAL(same, 0);
    CU_ASSERT_EQUAL(seen[HSIM_PALETTE_SERIES], seen[0]);
    cairo_destroy(cr);
    cairo_surface_destroy(px);
}

static void test_ticks(void)
{
    double t[64];
    hsim_axis_t a = {0, 100, 0, NULL};
    size_t n = hsim_axis_ticks(&a, t, 64);
    CU_ASSERT_EQUAL(n, 6);
    CU_ASSERT_DOUBLE_EQUAL(t[1], 20, 1e-12);
    hsim_axis_t l = {1, 1e6, 1, NULL};
    n = hsim_axis_ticks(&l, t, 64);
    CU_ASSERT_EQUAL(n, 7);
    CU_ASSERT_DOUBLE_EQUAL(t[6], 1e6, 1e-3);
    hsim_axis_t b = {3, 870, 0, NULL};
    hsim_axis_nice(&b);
    CU_ASSERT_DOUBLE_EQUAL(b.min, 0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.max, 1000, 1e-9);
    hsim_axis_t flat = {5, 5, 0, NULL}; /* one value: a range around it */
    hsim_axis_nice(&flat);
    CU_ASSERT(flat.min < 5 && flat.max > 5);
    char buf[32];
    hsim_tick_text(buf, sizeof buf, 0.5, 0.1);
    CU_ASSERT_STRING_EQUAL(buf, "0.5");
    hsim_tick_text(buf, sizeof buf, 20000, 10000);
    CU_ASSERT_STRING_EQUAL(buf, "20k");
    hsim_tick_text(buf, sizeof buf, 1e6, 1e6);
    CU_ASSERT_STRING_EQUAL(buf, "1M");
}

static void test_figures(void)
{
    char *dir = hsim_test_tmpdir("figures");
    static const char *const ext[] = {".png", ".svg", ".pdf"};
    static const double x[] = {0, 3600, 7200, 10800}, y[] = {10, 60, 35, 35};
    static const double x2[] = {0, 5000, 10800}, y2[] = {90, 20, 20};
    hsim_line_t lines[2] = {{x, y, 4}, {x2, y2, 3}};
    hsim_lines_panel_t lp = {"panel", {0, 3, 0, "time (h)"}, {0, 100, 0, "%"}, lines, 1};
    static const char *const names[] = {"fcfs", "easy"};
    static const double v[] = {3, 2.5, 7, NAN}, err[] = {0.5, NAN, 1, NAN};
    hsim_bars_panel_t bp = {"bars", "seconds", v, err, 0};
    static const char *const groups[] = {"user 1", "user 2"};
    hsim_box_t boxes[2] = {{0, 50, 0, 3, 0}, {20, 90, 4, 7, HSIM_LEGEND_GREY}};
    static const size_t colours[] = {0, HSIM_LEGEND_GREY};
    double heat[6] = {0, 0.2, 0.4, 0.6, 0.8, NAN};
    hsim_err_t e;
    char path[700], stem[700];
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/lines%s", dir, ext[k]);
        CU_ASSERT_EQUAL(hsim_figure_lines(path, "t", names, 2, &lp, 1, 1, &e), 0);
        snprintf(path, sizeof path, "%s/bars%s", dir, ext[k]);
        CU_ASSERT_EQUAL(hsim_figure_bars(path, "t", groups, 2, names, 2, &bp, 1, &e), 0);
        snprintf(path, sizeof path, "%s/gantt%s", dir, ext[k]);
        CU_ASSERT_EQUAL(hsim_figure_gantt(path, "t", "node", 8, 0, 100, boxes, 2, names,
                                          colours, 2, &e), 0);
        snprintf(path, sizeof path, "%s/heat%s", dir, ext[k]);
        CU_ASSERT_EQUAL(hsim_figure_heatmap(path, "t", "node", 1, heat, 2, 3, 0, 100, "busy",
                                            &e), 0);
    }
    /* sizes: the plot areas and margins of figures.c, legends of one row */
    snprintf(stem, sizeof stem, "%s/lines", dir);
    hsim_check_formats(stem, 16 + 64 + 760 + 16, 34 + 26 + 190 + 44 + 24 + 16);
    snprintf(stem, sizeof stem, "%s/bars", dir);
    hsim_check_formats(stem, 0, 0);
    snprintf(stem, sizeof stem, "%s/gantt", dir);
    hsim_check_formats(stem, 16 + 64 + 860 + 16, 0);
    snprintf(stem, sizeof stem, "%s/heat", dir);
    hsim_check_formats(stem, 16 + 64 + 800 + 90, 34 + 26 + 220 + 44 + 16);
    snprintf(path, sizeof path, "%s/x.gif", dir);
    CU_ASSERT_EQUAL(hsim_figure_lines(path, "t", names, 2, &lp, 1, 1, &e), HSIM_EINPUT);
    CU_ASSERT(hsim_test_message_ok(e.msg, path, "expected a .png, .svg or .pdf", NULL, NULL));
    CU_ASSERT_EQUAL(access(path, F_OK), -1);
    free(dir);
}


/* A legend of many long names wraps into rows, all of them inside the
   image: the canvas grows for them, the last ends above its margin. */
static void test_legend_rows(void)
{
    char *dir = hsim_test_tmpdir("legend");
    static const double x[] = {0, 1}, y[] = {0, 1};
    char text[12][48];
    const char *names[12];
    hsim_line_t lines[12];
    for (int k = 0; k < 12; k++) {
        snprintf(text[k], sizeof text[k], "a-rather-long-policy-name-%d", k);
        names[k] = text[k];
        lines[k] = (hsim_line_t){x, y, 2};
    }
    hsim_lines_panel_t lp = {"p", {0, 1, 0, "x"}, {0, 1, 0, "y"}, lines, 0};
    char path[700];
    snprintf(path, sizeof path, "%s/legend.png", dir);
    hsim_err_t e;
    CU_ASSERT_EQUAL_FATAL(hsim_figure_lines(path, "t", names, 12, &lp, 1, 1, &e), 0);
    int w, h;
    CU_ASSERT(hsim_png_ink(path, &w, &h) > 0);
    int one_row = 34 + 26 + 190 + 44 + 24 + 16;
    CU_ASSERT(h >= one_row + 2 * 18); /* at least three rows */
    int low = hsim_png_lowest_ink(path);
    CU_ASSERT(low > h - 40 && low < h - 10);
    free(dir);
}

void hsim_test_register(void)
{
    CU_pSuite s = hsim_test_suite("figures");
    HSIM_TEST(s, test_palette);
    HSIM_TEST(s, test_ticks);
    HSIM_TEST(s, test_figures);
    HSIM_TEST(s, test_legend_rows);
}
