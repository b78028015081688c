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
 * A PNG is drawn into memory from hsim's allocator (a large block, so its
 * first touch is a few huge pages, not 360 small ones) and written by
 * libpng in its fast mode (no filters, zlib level 3).  cairo's own writer
 * tries every filter at level 6: a file half the size, in about four times
 * the time (docs/performance.md, "The chart").
 */
#include "chart.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <math.h>
#include <png.h>
#include <stdint.h>
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

static const double palette[][3] = {
    {0.12, 0.47, 0.71}, {1.00, 0.50, 0.05}, {0.17, 0.63, 0.17}, {0.84, 0.15, 0.16},
    {0.58, 0.40, 0.74}, {0.55, 0.34, 0.29}, {0.89, 0.47, 0.76}, {0.50, 0.50, 0.50},
};

static void text_at(cairo_t *cr, double x, double y, const char *s, double size, int center)
{
    cairo_set_font_size(cr, size);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, s, &ext);
    cairo_move_to(cr, center ? x - ext.width / 2 - ext.x_bearing : x, y);
    cairo_show_text(cr, s);
}

/* The panels' width and the room for n names: measured with the font
   they are drawn in (a scratch surface of one pixel). */
static layout_t layout_for(const char *const *labels, size_t n)
{
    layout_t l = {PANEL_W, BOTTOM, RIGHT};
    if (2 * SIDE + MIN_SLOT * (double)n > l.panel_w)
        l.panel_w = 2 * SIDE + MIN_SLOT * (double)n;
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *cr = cairo_create(sf);
    cairo_select_font_face(cr, "sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, LABEL_SIZE);
    double longest = 0;
    for (size_t i = 0; i < n; i++) {
        cairo_text_extents_t ext;
        cairo_text_extents(cr, labels[i], &ext);
        if (ext.x_advance > longest)
            longest = ext.x_advance;
    }
    cairo_destroy(cr); /* a failed measure leaves 0: the least room */
    cairo_surface_destroy(sf);
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
        const double *c = palette[i % (sizeof palette / sizeof palette[0])];
        cairo_set_source_rgb(cr, c[0], c[1], c[2]);
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

static int no_memory(const char *path, hsim_err_t *e)
{
    return hsim_errf(e, HSIM_ENOMEM, "%s: no memory for the image", path);
}

/* The error for cairo's status st, not CAIRO_STATUS_SUCCESS. */
static int cairo_failed(cairo_status_t st, const char *path, hsim_err_t *e)
{
    if (st == CAIRO_STATUS_NO_MEMORY)
        return no_memory(path, e);
    return hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path, cairo_status_to_string(st));
}

/* Writes w x h pixels of RGB24 (rows stride bytes apart) to the file
   'file' as an 8-bit RGB PNG; messages name path.  0, HSIM_ENOMEM or
   HSIM_EIO with libpng's reason. */
static int write_png(const unsigned char *px, int w, int h, int stride, const char *file,
                     const char *path, hsim_err_t *e)
{
    unsigned char *rgb = hsim_malloc((size_t)w * (size_t)h * 3);
    if (!rgb)
        return no_memory(path, e);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t p; /* xRGB in a native-endian word */
            memcpy(&p, px + (size_t)y * (size_t)stride + 4 * (size_t)x, sizeof p);
            unsigned char *o = rgb + 3 * ((size_t)y * (size_t)w + (size_t)x);
            o[0] = (unsigned char)(p >> 16);
            o[1] = (unsigned char)(p >> 8);
            o[2] = (unsigned char)p;
        }
    png_image im = {.version = PNG_IMAGE_VERSION, .width = (png_uint_32)w,
                    .height = (png_uint_32)h, .format = PNG_FORMAT_RGB,
                    .flags = PNG_IMAGE_FLAG_FAST};
    int rc = 0;
    if (!png_image_write_to_file(&im, file, 0, rgb, 0, NULL))
        rc = hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", path, im.message);
    png_image_free(&im);
    hsim_free(rgb);
    return rc;
}

int hsim_chart_bars(const char *path, const char *title, const char *const *labels,
                    size_t n_bars, const hsim_chart_panel_t *panels, size_t n_panels,
                    hsim_err_t *e)
{
    if (!n_bars || !n_panels || n_panels > HSIM_CHART_MAX_PANELS)
        return hsim_errf(e, HSIM_EINPUT, "%s: nothing to draw", path);
    int png = hsim_ends_with(path, ".png");
    if (!png && !hsim_ends_with(path, ".svg") && !hsim_ends_with(path, ".pdf"))
        return hsim_errf(e, HSIM_EINPUT, "%s: expected a .png, .svg or .pdf file", path);
    char part[HSIM_PART_PATH_MAX]; /* written whole, then renamed: see
                                      hsim_publish() */
    if (hsim_part_path(part, sizeof part, path, e))
        return HSIM_EIO;
    const char *file = part[0] ? part : path;
    layout_t l = layout_for(labels, n_bars);
    double w = (double)n_panels * l.panel_w + l.right, h = TOP + PANEL_H + l.bottom;
    cairo_surface_t *sf;
    unsigned char *pixels = NULL; /* the PNG's, owned here, drawn into by */
    int stride = 0;               /* cairo, then written by write_png() */
    if (png) {
        stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, (int)w);
        pixels = hsim_malloc((size_t)stride * (size_t)h);
        if (!pixels)
            return hsim_publish(part, path, no_memory(path, e), e);
        sf = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_RGB24, (int)w, (int)h,
                                                 stride);
    } else if (hsim_ends_with(path, ".svg"))
        sf = cairo_svg_surface_create(file, w, h);
    else
        sf = cairo_pdf_surface_create(file, w, h);
    cairo_status_t st = cairo_surface_status(sf);
    if (st != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(sf);
        hsim_free(pixels);
        return hsim_publish(part, path, cairo_failed(st, path, e), e);
    }
    cairo_t *cr = cairo_create(sf);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, w / 2, 20, title, 15, 1);
    for (size_t k = 0; k < n_panels; k++)
        panel(cr, (double)k * l.panel_w, l.panel_w, &panels[k], labels, n_bars);
    st = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_finish(sf);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(sf);
    cairo_surface_destroy(sf);
    int rc = 0;
    if (st != CAIRO_STATUS_SUCCESS)
        rc = cairo_failed(st, path, e);
    else if (png)
        rc = write_png(pixels, (int)w, (int)h, stride, file, path, e);
    hsim_free(pixels);
    return hsim_publish(part, path, rc, e);
}
