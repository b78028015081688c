/*
 * chart.c - bar charts with cairo.  See chart.h.
 *
 * Layout, in points: panels side by side, each PANEL_W wide; bars share a
 * panel's width; the value is printed above each bar and the policy name
 * below it, turned 45 degrees so that long names fit.  Scales start at 0
 * and end at the panel's largest value plus a tenth.
 */
#include "chart.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <string.h>

enum { PANEL_W = 260, PANEL_H = 300, TOP = 50, BOTTOM = 120, SIDE = 30 };

static const double palette[][3] = {
    {0.12, 0.47, 0.71}, {1.00, 0.50, 0.05}, {0.17, 0.63, 0.17}, {0.84, 0.15, 0.16},
    {0.58, 0.40, 0.74}, {0.55, 0.34, 0.29}, {0.89, 0.47, 0.76}, {0.50, 0.50, 0.50},
};

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static void text_at(cairo_t *cr, double x, double y, const char *s, double size, int center)
{
    cairo_set_font_size(cr, size);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, s, &ext);
    cairo_move_to(cr, center ? x - ext.width / 2 - ext.x_bearing : x, y);
    cairo_show_text(cr, s);
}

static void panel(cairo_t *cr, double x0, const hsim_chart_panel_t *p, const char *const *labels,
                  size_t n)
{
    double max = 0;
    for (size_t i = 0; i < n; i++)
        if (p->values[i] > max)
            max = p->values[i];
    if (max <= 0)
        max = 1;
    max *= 1.1;
    double plot_w = PANEL_W - 2 * SIDE, base = TOP + PANEL_H;
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, x0 + PANEL_W / 2.0, TOP - 18, p->title, 13, 1);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, x0 + SIDE, TOP);
    cairo_line_to(cr, x0 + SIDE, base);
    cairo_line_to(cr, x0 + SIDE + plot_w, base);
    cairo_stroke(cr);
    double slot = plot_w / (double)n, bar = slot * 0.7;
    for (size_t i = 0; i < n; i++) {
        double v = p->values[i] > 0 ? p->values[i] : 0;
        double h = v / max * PANEL_H;
        double x = x0 + SIDE + slot * (double)i + (slot - bar) / 2;
        const double *c = palette[i % (sizeof palette / sizeof palette[0])];
        cairo_set_source_rgb(cr, c[0], c[1], c[2]);
        cairo_rectangle(cr, x, base - h, bar, h);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        char buf[32];
        snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
        text_at(cr, x + bar / 2, base - h - 4, buf, 9, 1);
        cairo_save(cr);
        cairo_move_to(cr, x + bar / 2, base + 10);
        cairo_rotate(cr, 0.785398);
        cairo_set_font_size(cr, 10);
        cairo_show_text(cr, labels[i]);
        cairo_restore(cr);
    }
}

int hsim_chart_bars(const char *path, const char *title, const char *const *labels,
                    size_t n_bars, const hsim_chart_panel_t *panels, size_t n_panels,
                    hsim_err_t *e)
{
    if (!n_bars || !n_panels || n_panels > HSIM_CHART_MAX_PANELS)
        return hsim_errf(e, HSIM_EINPUT, "%s: nothing to draw", path);
    double w = (double)n_panels * PANEL_W, h = TOP + PANEL_H + BOTTOM;
    cairo_surface_t *sf;
    int png = has_suffix(path, ".png");
    if (png)
        sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
    else if (has_suffix(path, ".svg"))
        sf = cairo_svg_surface_create(path, w, h);
    else if (has_suffix(path, ".pdf"))
        sf = cairo_pdf_surface_create(path, w, h);
    else
        return hsim_errf(e, HSIM_EINPUT, "%s: expected a .png, .svg or .pdf file", path);
    if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS) {
        cairo_status_t st = cairo_surface_status(sf);
        cairo_surface_destroy(sf);
        return hsim_errf(e, HSIM_EIO, "%s: cannot draw: %s", path, cairo_status_to_string(st));
    }
    cairo_t *cr = cairo_create(sf);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, w / 2, 20, title, 15, 1);
    for (size_t k = 0; k < n_panels; k++)
        panel(cr, (double)k * PANEL_W, &panels[k], labels, n_bars);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && png)
        st = cairo_surface_write_to_png(sf, path);
    cairo_surface_finish(sf);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(sf);
    cairo_surface_destroy(sf);
    if (st != CAIRO_STATUS_SUCCESS)
        return hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path, cairo_status_to_string(st));
    return 0;
}
