/*
 * canvas.c - surfaces, text, palette, axes and legends.  See canvas.h.
 *
 * A PNG is drawn into memory from hsim's allocator and written by libpng
 * in its fast mode (no filters, zlib level 3): cairo's own writer tries
 * every filter at level 6, a file half the size in about four times the
 * time (docs/performance.md, "The chart").  A PDF goes straight to its
 * .part file through cairo.  An SVG is gathered in memory first: cairo
 * names its groups "surface<N>" by a counter of every surface the process
 * made, so the same chart drawn after other charts (in a run) or alone
 * (hsim plot) would differ; they are numbered again from 1 in the order
 * they appear.
 *
 * Ticks: a linear axis steps by 1, 2 or 5 x 10^k, chosen for about five
 * ticks; a log axis by powers of ten.  Labels that would touch are thinned
 * (every second, every third...), so that no two overlap whatever the
 * range and the font.
 */
#include "canvas.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

static const double palette[HSIM_PALETTE_SERIES][3] = {
    {0.000, 0.447, 0.698}, /* Okabe-Ito: blue */
    {0.902, 0.624, 0.000}, /* orange */
    {0.000, 0.620, 0.451}, /* bluish green */
    {0.835, 0.369, 0.000}, /* vermillion */
    {0.800, 0.475, 0.655}, /* reddish purple */
    {0.337, 0.706, 0.914}, /* sky blue */
    {0.000, 0.000, 0.000}, /* black */
    {0.941, 0.894, 0.259}, /* yellow: last, faint on white */
    {0.200, 0.133, 0.533}, /* Tol's muted: indigo */
    {0.800, 0.400, 0.467}, /* rose */
    {0.600, 0.600, 0.200}, /* olive */
    {0.533, 0.133, 0.333}, /* wine */
    {0.267, 0.667, 0.600}, /* teal */
    {0.067, 0.467, 0.200}, /* green */
    {0.867, 0.800, 0.467}, /* sand */
    {0.667, 0.267, 0.600}, /* purple */
};

void hsim_canvas_colour(cairo_t *cr, size_t i)
{
    const double *c = palette[i % HSIM_PALETTE_SERIES];
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
}

void hsim_canvas_grey(cairo_t *cr) { cairo_set_source_rgb(cr, 0.6, 0.6, 0.6); }

double hsim_canvas_text_width(cairo_t *cr, const char *s, double size)
{
    cairo_set_font_size(cr, size);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, s, &ext);
    return ext.x_advance;
}

double hsim_canvas_text(cairo_t *cr, double x, double y, const char *s, double size,
                        double align)
{
    double w = hsim_canvas_text_width(cr, s, size);
    cairo_move_to(cr, x - align * w, y);
    cairo_show_text(cr, s);
    return w;
}

cairo_t *hsim_canvas_scratch(void)
{
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *cr = cairo_create(sf);
    cairo_surface_destroy(sf); /* cr holds it */
    cairo_select_font_face(cr, "sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    return cr;
}

void hsim_canvas_scratch_free(cairo_t *cr) { cairo_destroy(cr); }

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

static int no_memory(const char *path, hsim_err_t *e);

static cairo_status_t svg_gather(void *ctx, const unsigned char *data, unsigned int n)
{
    hsim_canvas_t *c = ctx;
    if (hsim_grow(&c->svg, &c->svg_cap, c->svg_len + n + 1, 1)) {
        c->svg_failed = 1;
        return CAIRO_STATUS_NO_MEMORY;
    }
    memcpy(c->svg + c->svg_len, data, n);
    c->svg_len += n;
    return CAIRO_STATUS_SUCCESS;
}

/* Writes the SVG text to file with its "surface<N>" ids (after id=" or
   #) numbered from 1 by first appearance.  0, HSIM_ENOMEM or HSIM_EIO. */
static int write_svg(const hsim_canvas_t *c, const char *file, hsim_err_t *e)
{
    FILE *f = fopen(file, "wb");
    if (!f)
        return hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", c->path, strerror(errno));
    unsigned long *seen = NULL; /* seen[k]: the old number of new k + 1 */
    size_t n_seen = 0, cap = 0;
    int rc = 0;
    static const char word[] = "surface";
    const size_t len = sizeof word - 1;
    for (size_t i = 0; i < c->svg_len && rc == 0;) {
        const char *s = c->svg + i;
        int after = i > 0 && (s[-1] == '#' || (i > 3 && !memcmp(s - 4, "id=\"", 4)));
        if (after && c->svg_len - i > len && !memcmp(s, word, len) &&
            s[len] >= '0' && s[len] <= '9') {
            char *end;
            unsigned long old = strtoul(s + len, &end, 10);
            size_t k = 0;
            while (k < n_seen && seen[k] != old)
                k++;
            if (k == n_seen && (rc = hsim_grow(&seen, &cap, n_seen + 1, sizeof *seen)) == 0)
                seen[n_seen++] = old;
            fprintf(f, "%s%zu", word, k + 1);
            i = (size_t)(end - c->svg);
            continue;
        }
        fputc(*s, f);
        i++;
    }
    hsim_free(seen);
    int bad = ferror(f);
    if (fclose(f) || bad)
        rc = rc ? rc : hsim_errf(e, HSIM_EIO, "%s: cannot write: %s", c->path, strerror(errno));
    return rc == HSIM_ENOMEM ? no_memory(c->path, e) : rc;
}

int hsim_canvas_open(hsim_canvas_t *c, const char *path, double w, double h, hsim_err_t *e)
{
    memset(c, 0, sizeof *c);
    c->path = path;
    c->w = (int)ceil(w);
    c->h = (int)ceil(h);
    c->png = hsim_ends_with(path, ".png");
    int svg = hsim_ends_with(path, ".svg");
    if (!c->png && !svg && !hsim_ends_with(path, ".pdf"))
        return hsim_errf(e, HSIM_EINPUT, "%s: expected a .png, .svg or .pdf file", path);
    if (hsim_part_path(c->part, sizeof c->part, path, e))
        return HSIM_EIO;
    const char *file = c->part[0] ? c->part : path;
    if (c->png) {
        c->stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, c->w);
        c->pixels = hsim_malloc((size_t)c->stride * (size_t)c->h);
        if (!c->pixels)
            return hsim_publish(c->part, path, no_memory(path, e), e);
        c->sf = cairo_image_surface_create_for_data(c->pixels, CAIRO_FORMAT_RGB24, c->w, c->h,
                                                    c->stride);
    } else if (svg) {
        c->sf = cairo_svg_surface_create_for_stream(svg_gather, c, c->w, c->h);
    } else {
        c->sf = cairo_pdf_surface_create(file, c->w, c->h);
        /* else the clock's date: two runs would differ */
        cairo_pdf_surface_set_metadata(c->sf, CAIRO_PDF_METADATA_CREATE_DATE,
                                       "2000-01-01T00:00:00");
    }
    cairo_status_t st = cairo_surface_status(c->sf);
    if (st != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(c->sf);
        hsim_free(c->pixels);
        hsim_free(c->svg);
        c->sf = NULL;
        c->pixels = NULL;
        c->svg = NULL;
        return hsim_publish(c->part, path, cairo_failed(st, path, e), e);
    }
    c->cr = cairo_create(c->sf);
    cairo_set_source_rgb(c->cr, 1, 1, 1);
    cairo_paint(c->cr);
    cairo_select_font_face(c->cr, "sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_source_rgb(c->cr, 0, 0, 0);
    return 0;
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

int hsim_canvas_close(hsim_canvas_t *c, hsim_err_t *e)
{
    if (!c->cr)
        return 0;
    cairo_status_t st = cairo_status(c->cr);
    cairo_destroy(c->cr);
    c->cr = NULL;
    cairo_surface_finish(c->sf);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(c->sf);
    cairo_surface_destroy(c->sf);
    c->sf = NULL;
    int rc = 0;
    const char *file = c->part[0] ? c->part : c->path;
    if (st != CAIRO_STATUS_SUCCESS)
        rc = cairo_failed(st, c->path, e);
    else if (c->png)
        rc = write_png(c->pixels, c->w, c->h, c->stride, file, c->path, e);
    else if (c->svg_failed)
        rc = no_memory(c->path, e);
    else if (c->svg)
        rc = write_svg(c, file, e);
    hsim_free(c->pixels);
    hsim_free(c->svg);
    c->pixels = NULL;
    c->svg = NULL;
    return hsim_publish(c->part, c->path, rc, e);
}

/* ---- axes ---- */

static double map(const hsim_axis_t *a, double v, double from, double len)
{
    if (a->log) {
        double lo = log10(a->min), hi = log10(a->max);
        double lv = v > 0 ? log10(v) : lo;
        return from + (lv - lo) / (hi - lo) * len;
    }
    return from + (v - a->min) / (a->max - a->min) * len;
}

double hsim_plot_x(const hsim_plot_t *p, double v) { return map(&p->xa, v, p->x, p->w); }

double hsim_plot_y(const hsim_plot_t *p, double v)
{
    return map(&p->ya, v, p->y + p->h, -p->h);
}

/* 1, 2 or 5 x 10^k, the least at or above x > 0. */
static double nice_step(double x)
{
    double p = pow(10, floor(log10(x)));
    double m = x / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

void hsim_axis_nice(hsim_axis_t *a)
{
    if (!(a->max > a->min)) { /* one value, or none (NaN) */
        double v = isfinite(a->min) ? a->min : (a->log ? 1 : 0);
        a->min = a->log ? v / 10 : v - (v == 0 ? 1 : fabs(v) / 2);
        a->max = a->log ? v * 10 : v + (v == 0 ? 1 : fabs(v) / 2);
        if (!a->log && v >= 0 && a->min < 0)
            a->min = 0;
    }
    if (a->log) {
        a->min = pow(10, floor(log10(a->min) + 1e-9));
        a->max = pow(10, ceil(log10(a->max) - 1e-9));
        if (a->max <= a->min)
            a->max = a->min * 10;
        return;
    }
    double step = nice_step((a->max - a->min) / 5);
    a->min = floor(a->min / step + 1e-9) * step;
    a->max = ceil(a->max / step - 1e-9) * step;
}

size_t hsim_axis_ticks(const hsim_axis_t *a, double *out, size_t max)
{
    size_t n = 0;
    if (!(a->max > a->min) || (a->log && !(a->min > 0)))
        return 0; /* a frame without ticks */
    if (a->log) {
        double decades = log10(a->max) - log10(a->min);
        static const double within[] = {1, 2, 5};
        size_t k_max = decades < 2 ? 3 : 1;
        int skip = decades > 8 ? (int)ceil(decades / 8) : 1; /* at most about 8 */
        int d0 = (int)floor(log10(a->min) + 1e-9), d1 = (int)ceil(log10(a->max) - 1e-9);
        for (int d = d0; d <= d1 && n < max; d++) {
            if ((d - d0) % skip)
                continue;
            for (size_t k = 0; k < k_max && n < max; k++) {
                double v = within[k] * pow(10, d);
                if (v >= a->min * (1 - 1e-9) && v <= a->max * (1 + 1e-9))
                    out[n++] = v;
            }
        }
        return n;
    }
    double step = nice_step((a->max - a->min) / 5);
    for (double v = ceil(a->min / step - 1e-9) * step; v <= a->max + step * 1e-9 && n < max;
         v += step)
        out[n++] = fabs(v) < step * 1e-9 ? 0 : v;
    return n;
}

void hsim_tick_text(char *buf, size_t size, double v, double step)
{
    double a = fabs(v);
    if (a >= 9999.5) {
        static const char suffix[] = "kMGTPE";
        int k = -1;
        while (a >= 999.5 && k < 5) {
            a /= 1000;
            v /= 1000;
            step /= 1000;
            k++;
        }
        int dec = step >= 1 || step <= 0 ? 0 : (int)ceil(-log10(step) - 1e-9);
        snprintf(buf, size, "%.*f%c", dec > 3 ? 3 : dec, v, suffix[k]);
        return;
    }
    int dec = step >= 1 || step <= 0 ? 0 : (int)ceil(-log10(step) - 1e-9);
    snprintf(buf, size, "%.*f", dec > 6 ? 6 : dec, v);
}

/* The step between v's neighbours among n ticks t (for its decimals). */
static double tick_step(const double *t, size_t n, size_t i)
{
    if (n < 2)
        return t[0] != 0 ? fabs(t[0]) : 1;
    double s = i + 1 < n ? t[i + 1] - t[i] : t[i] - t[i - 1];
    return fmin(s, fabs(t[i]) > 0 ? fabs(t[i]) : s);
}

enum { TICK_FONT = 10, LABEL_FONT = 11, TITLE_FONT = 12, MAX_TICKS = 64 };

static void x_ticks(cairo_t *cr, const hsim_plot_t *p, const double *t, size_t n)
{
    char buf[32];
    double widest = 0;
    for (size_t i = 0; i < n; i++) {
        hsim_tick_text(buf, sizeof buf, t[i], tick_step(t, n, i));
        widest = fmax(widest, hsim_canvas_text_width(cr, buf, TICK_FONT));
    }
    size_t every = 1; /* thinned until neighbours are apart */
    while (every < n && p->w / (double)n * (double)every < widest + 8)
        every++;
    double base = p->y + p->h;
    for (size_t i = 0; i < n; i++) {
        double x = hsim_plot_x(p, t[i]);
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, x, p->y);
        cairo_line_to(cr, x, base);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_move_to(cr, x, base);
        cairo_line_to(cr, x, base + 4);
        cairo_stroke(cr);
        if (i % every == 0) {
            hsim_tick_text(buf, sizeof buf, t[i], tick_step(t, n, i));
            hsim_canvas_text(cr, x, base + 15, buf, TICK_FONT, 0.5);
        }
    }
}

static void y_ticks(cairo_t *cr, const hsim_plot_t *p, const double *t, size_t n)
{
    size_t every = 1;
    while (every < n && p->h / (double)n * (double)every < TICK_FONT + 3)
        every++;
    char buf[32];
    for (size_t i = 0; i < n; i++) {
        double y = hsim_plot_y(p, t[i]);
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, p->x, y);
        cairo_line_to(cr, p->x + p->w, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_move_to(cr, p->x - 4, y);
        cairo_line_to(cr, p->x, y);
        cairo_stroke(cr);
        if (i % every == 0) {
            hsim_tick_text(buf, sizeof buf, t[i], tick_step(t, n, i));
            hsim_canvas_text(cr, p->x - 6, y + 3.5, buf, TICK_FONT, 1);
        }
    }
}

void hsim_plot_axes(cairo_t *cr, const hsim_plot_t *p, const char *title)
{
    double t[MAX_TICKS];
    cairo_save(cr);
    cairo_set_line_width(cr, 0.8);
    x_ticks(cr, p, t, hsim_axis_ticks(&p->xa, t, MAX_TICKS));
    y_ticks(cr, p, t, hsim_axis_ticks(&p->ya, t, MAX_TICKS));
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, p->x, p->y, p->w, p->h);
    cairo_stroke(cr);
    if (p->xa.label)
        hsim_canvas_text(cr, p->x + p->w / 2, p->y + p->h + 34, p->xa.label, LABEL_FONT, 0.5);
    if (p->ya.label) {
        cairo_save(cr);
        cairo_translate(cr, p->x - HSIM_PLOT_LEFT + 16, p->y + p->h / 2);
        cairo_rotate(cr, -HSIM_PI / 2);
        hsim_canvas_text(cr, 0, 0, p->ya.label, LABEL_FONT, 0.5);
        cairo_restore(cr);
    }
    if (title)
        hsim_canvas_text(cr, p->x + p->w / 2, p->y - 9, title, TITLE_FONT, 0.5);
    cairo_restore(cr);
}

/* ---- legends ---- */

enum { SWATCH = 12, ENTRY_GAP = 18, ROW_H = 18, LEGEND_FONT = 10 };

double hsim_legend_height(cairo_t *cr, const char *const *names, size_t n, double width)
{
    if (!n)
        return 0;
    double x = 0;
    int rows = 1;
    for (size_t i = 0; i < n; i++) {
        double w = SWATCH + 5 + hsim_canvas_text_width(cr, names[i], LEGEND_FONT);
        if (x > 0 && x + w > width) {
            rows++;
            x = 0;
        }
        x += w + ENTRY_GAP;
    }
    return rows * ROW_H + 6;
}

void hsim_legend_draw(cairo_t *cr, double x, double y, double width,
                      const char *const *names, const size_t *colours, size_t n)
{
    double cx = 0, cy = y + 3;
    for (size_t i = 0; i < n; i++) {
        double w = SWATCH + 5 + hsim_canvas_text_width(cr, names[i], LEGEND_FONT);
        if (cx > 0 && cx + w > width) {
            cy += ROW_H;
            cx = 0;
        }
        size_t k = colours ? colours[i] : i;
        if (k == HSIM_LEGEND_GREY)
            hsim_canvas_grey(cr);
        else
            hsim_canvas_colour(cr, k);
        cairo_rectangle(cr, x + cx, cy, SWATCH, SWATCH);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        hsim_canvas_text(cr, x + cx + SWATCH + 5, cy + 10, names[i], LEGEND_FONT, 0);
        cx += w + ENTRY_GAP;
    }
}
