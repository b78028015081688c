/*
 * canvas.h - what every chart shares: a drawing surface for a .png, .svg
 * or .pdf file, written whole or not at all (hsim_publish()); text in
 * cairo's toy "sans" font; the Okabe-Ito palette; axes with readable
 * ticks on linear and log scales; a legend that sits outside the plots.
 *
 * Sizes are in points; a PNG has one pixel per point.  Nothing here reads
 * the clock or the locale, so a chart is the same bytes from run to run
 * (a PDF's creation date is pinned to 2000-01-01).
 */
#ifndef HSIM_CANVAS_H
#define HSIM_CANVAS_H

#include "../sim/common.h"

#include <cairo.h>

#define HSIM_PI 3.14159265358979323846

typedef struct hsim_canvas {
    cairo_t *cr;                   /* draw with this; NULL when not open */
    cairo_surface_t *sf;
    unsigned char *pixels;         /* a PNG's RGB24 pixels, owned */
    int stride;                    /* bytes per row of pixels */
    int w, h;                      /* size in points (pixels) */
    int png;                       /* 1: write pixels as a PNG at the close */
    char *svg;                     /* an SVG's text, written at the close */
    size_t svg_len, svg_cap;
    int svg_failed;                /* out of memory while cairo wrote it */
    const char *path;              /* the caller's string, kept until the close */
    char part[HSIM_PART_PATH_MAX]; /* the file written, see hsim_part_path() */
} hsim_canvas_t;

/* Opens c for path (.png, .svg or .pdf; another extension is HSIM_EINPUT)
   at w x h points, painted white, the font selected.  0, HSIM_EINPUT,
   HSIM_EIO or HSIM_ENOMEM (e says which; nothing to close then). */
int hsim_canvas_open(hsim_canvas_t *c, const char *path, double w, double h, hsim_err_t *e);
/* Finishes c, writes its file and gives it its name.  0, HSIM_EIO or
   HSIM_ENOMEM (the .part removed).  Frees what c holds in every case. */
int hsim_canvas_close(hsim_canvas_t *c, hsim_err_t *e);

/* The palette: Okabe and Ito's eight colours, safe for the common kinds
   of colour blindness, blue first (HSIM_PALETTE_SIZE: what a chart that
   keys few things, the Gantt's users, uses), then Paul Tol's muted eight,
   so that up to 16 series (an experiment's policies) differ; i wraps
   round after them.  Series i is drawn in colour i. */
#define HSIM_PALETTE_SIZE 8
#define HSIM_PALETTE_SERIES 16
void hsim_canvas_colour(cairo_t *cr, size_t i);
/* A neutral grey for "other" (users outside a legend, say). */
void hsim_canvas_grey(cairo_t *cr);

/* Text of size points at (x, y) on its baseline; align 0 puts its left
   edge at x, 0.5 its middle, 1 its right edge.  Returns its width. */
double hsim_canvas_text(cairo_t *cr, double x, double y, const char *s, double size,
                        double align);
/* The width of s at size points, as hsim_canvas_text() would draw it. */
double hsim_canvas_text_width(cairo_t *cr, const char *s, double size);
/* A scratch context of one pixel for measuring text before a canvas's
   size is known; free with hsim_canvas_scratch_free(). */
cairo_t *hsim_canvas_scratch(void);
void hsim_canvas_scratch_free(cairo_t *cr);

/* One axis: the data range [min, max] (log: both > 0), and its label. */
typedef struct hsim_axis {
    double min, max;
    int log;                       /* 1: a log10 scale */
    const char *label;             /* under or beside the axis; may be NULL */
} hsim_axis_t;

/* A plot area on a canvas and its two axes. */
typedef struct hsim_plot {
    double x, y, w, h;             /* the area, points from the top left */
    hsim_axis_t xa, ya;
} hsim_plot_t;

/* Where data value v falls on p's x or y axis, in canvas points (values
   outside the range fall outside the area; <= 0 on a log axis at its
   minimum). */
double hsim_plot_x(const hsim_plot_t *p, double v);
double hsim_plot_y(const hsim_plot_t *p, double v);
/* Widens a range to one that nice ticks can end on: a linear range to
   multiples of its tick step, a log one to powers of ten; an empty range
   (min == max) grows around its value. */
void hsim_axis_nice(hsim_axis_t *a);
/* Draws p's frame, grid lines, ticks, tick labels (thinned until they do
   not touch), the axis labels and a title above the area. */
void hsim_plot_axes(cairo_t *cr, const hsim_plot_t *p, const char *title);
/* Room a plot area needs around it for hsim_plot_axes(): left of it (the
   y tick labels and label) and below it (x tick labels and label). */
#define HSIM_PLOT_LEFT 64
#define HSIM_PLOT_BELOW 44
#define HSIM_PLOT_ABOVE 26

/* Ticks of an axis into out (at most max), in increasing order; returns
   how many.  Linear: multiples of 1, 2 or 5 x 10^k, 3 to 8 of them; log:
   powers of ten (and 2 and 5 times them over less than two decades). */
size_t hsim_axis_ticks(const hsim_axis_t *a, double *out, size_t max);
/* A tick's label: as few decimals as its step needs, k/M/G past 10^4. */
void hsim_tick_text(char *buf, size_t size, double v, double step);

/* A legend of n entries, colour i for names[i] (grey for an entry whose
   colour is HSIM_LEGEND_GREY), in rows no wider than width: its height,
   and the drawing of it with its top left at (x, y). */
#define HSIM_LEGEND_GREY ((size_t)-1)
double hsim_legend_height(cairo_t *cr, const char *const *names, size_t n, double width);
void hsim_legend_draw(cairo_t *cr, double x, double y, double width,
                      const char *const *names, const size_t *colours, size_t n);

#endif
