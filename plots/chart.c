/*
 * chart.c - bar charts with cairo.  See chart.h.
 *
 * Layout, in points: panels side by side, each PANEL_W wide, or wider
 * when the bars would be narrower than MIN_SLOT (an experiment may compare
 * up to 64 policies); the value is printed above each bar and the policy
 * name below it, turned 45 degrees, with room below and to the right for
 * the longest name.  Scales start at 0 and end at the panel's largest
 * value plus a tenth.
 *
 * The surface, the file and the palette (Okabe-Ito) are canvas.h's.
 */
#include "chart.h"

#include "canvas.h"

#include <math.h>
#include <string.h>

/* RIGHT: room for the last panel's slanted names past its edge; BOTTOM
   and RIGHT are the least, grown for long names (see layout_for()) */
enum { PANEL_W = 260, PANEL_H = 300, TOP = 64, BOTTOM = 120, SIDE = 30, RIGHT = 60,
       MIN_SLOT = 28, LABEL_SIZE = 10 };

typedef struct layout {
    double panel_w; /* each panel's width */
    double bottom;  /* below the plots: the slanted names */
    double right;   /* past the last panel: the last names' ends */
} layout_t;

static void text_at(cairo_t *cr, double x, double y, const char *s, double size, int center)
{
    hsim_canvas_text(cr, x, y, s, size, center ? 0.5 : 0);
}

/* The panels' width and the room for n names: measured with the font
   they are drawn in (a scratch surface of one pixel). */
static layout_t layout_for(const char *const *labels, size_t n)
{
    layout_t l = {PANEL_W, BOTTOM, RIGHT};
    if (2 * SIDE + MIN_SLOT * (double)n > l.panel_w)
        l.panel_w = 2 * SIDE + MIN_SLOT * (double)n;
    cairo_t *cr = hsim_canvas_scratch();
    cairo_set_font_size(cr, LABEL_SIZE);
    double longest = 0;
    for (size_t i = 0; i < n; i++) {
        cairo_text_extents_t ext;
        cairo_text_extents(cr, labels[i], &ext);
        if (ext.x_advance > longest)
            longest = ext.x_advance;
    }
    hsim_canvas_scratch_free(cr); /* a failed measure leaves 0: the least room */
    double reach = longest * 0.7071; /* at 45 degrees, across and down */
    if (10 + reach + 16 > l.bottom)
        l.bottom = ceil(10 + reach + 16);
    double slot = (l.panel_w - 2 * SIDE) / (double)n;
    if (reach - slot / 2 - SIDE + 10 > l.right)
        l.right = ceil(reach - slot / 2 - SIDE + 10);
    return l;
}

void hsim_chart_value_text(char *buf, size_t size, double v)
{
    static const char suffix[] = "kMGTPE";
    int k = -1;
    if (v >= 9999.5)
        while ((k < 0 || v >= 999.5) && k < 5) {
            v /= 1000;
            k++;
        }
    if (k < 0)
        snprintf(buf, size, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    else
        snprintf(buf, size, v >= 99.95 ? "%.0f%c" : v >= 9.995 ? "%.1f%c" : "%.2f%c", v,
                 suffix[k]);
}

static void panel(cairo_t *cr, double x0, double panel_w, const hsim_chart_panel_t *p,
                  const char *const *labels, size_t n)
{
    double max = 0;
    for (size_t i = 0; i < n; i++)
        if (p->values[i] > max)
            max = p->values[i];
    if (max <= 0)
        max = 1;
    max *= 1.1;
    double plot_w = panel_w - 2 * SIDE, base = TOP + PANEL_H;
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, x0 + panel_w / 2.0, TOP - 18, p->title, 13, 1);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, x0 + SIDE, TOP);
    cairo_line_to(cr, x0 + SIDE, base);
    cairo_line_to(cr, x0 + SIDE + plot_w, base);
    cairo_stroke(cr);
    double slot = plot_w / (double)n, bar = slot * 0.7;
    for (size_t i = 0; i < n; i++) {
        int none = isnan(p->values[i]);
        double v = !none && p->values[i] > 0 ? p->values[i] : 0;
        double h = v / max * PANEL_H;
        double x = x0 + SIDE + slot * (double)i + (slot - bar) / 2;
        hsim_canvas_colour(cr, i);
        cairo_rectangle(cr, x, base - h, bar, h);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        char buf[32];
        if (none)
            snprintf(buf, sizeof buf, "n/a");
        else
            hsim_chart_value_text(buf, sizeof buf, v);
        /* no wider than its slot: a smaller font where it would be */
        cairo_text_extents_t ext;
        cairo_set_font_size(cr, 9);
        cairo_text_extents(cr, buf, &ext);
        double size = ext.width > slot - 2 ? fmax(5, 9 * (slot - 2) / ext.width) : 9;
        text_at(cr, x + bar / 2, base - h - 4, buf, size, 1);
        cairo_save(cr);
        cairo_move_to(cr, x + bar / 2, base + 10);
        cairo_rotate(cr, 0.785398);
        cairo_set_font_size(cr, LABEL_SIZE);
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
    layout_t l = layout_for(labels, n_bars);
    double w = (double)n_panels * l.panel_w + l.right, h = TOP + PANEL_H + l.bottom;
    hsim_canvas_t cv;
    int rc = hsim_canvas_open(&cv, path, w, h, e);
    if (rc)
        return rc;
    cairo_t *cr = cv.cr;
    text_at(cr, w / 2, 20, title, 15, 1);
    for (size_t k = 0; k < n_panels; k++)
        panel(cr, (double)k * l.panel_w, l.panel_w, &panels[k], labels, n_bars);
    return hsim_canvas_close(&cv, e);
}
