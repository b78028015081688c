/*
 * figures.c - lines, grouped bars, Gantt charts and heatmaps.  See
 * figures.h.
 *
 * Every figure measures its text before it opens its canvas, so that the
 * canvas is as large as its labels and legend need: legends go below the
 * plots and group names turn 45 degrees only when upright ones would
 * touch.  Data is clipped to its plot area.  A heatmap is drawn as an
 * image of one pixel per cell scaled without smoothing, so an SVG or PDF
 * holds one small embedded image, not a rectangle per cell.
 */
#include "figures.h"

#include <math.h>
#include <string.h>

enum { MARGIN = 16, TITLE_H = 34, LINES_W = 760, LINES_COL_W = 380, LINES_H = 190,
       BARS_H = 240, GANTT_W = 860, GANTT_H = 420, HEAT_W = 800 };

double hsim_time_unit(double span, const char **name)
{
    if (span <= 2 * 3600.0) {
        *name = span <= 300 ? "s" : "min";
        return span <= 300 ? 1 : 60;
    }
    if (span <= 3 * 86400.0) {
        *name = "h";
        return 3600;
    }
    *name = "days";
    return 86400;
}

/* A legend below the plots of a figure w wide starts under the first plot
   area and ends at the right margin. */
static double legend_width(double w) { return w - 2 * MARGIN - HSIM_PLOT_LEFT; }

/* The height of that legend of n names, measured before the canvas. */
static double legend_room(const char *const *names, size_t n, double w)
{
    cairo_t *m = hsim_canvas_scratch();
    double h = hsim_legend_height(m, names, n, legend_width(w));
    hsim_canvas_scratch_free(m);
    return h;
}

/* Opens a figure's canvas, w x h, and draws its title on top. */
static int figure_open(hsim_canvas_t *cv, const char *path, double w, double h,
                       const char *title, hsim_err_t *e)
{
    int rc = hsim_canvas_open(cv, path, w, h, e);
    if (rc == 0)
        hsim_canvas_text(cv->cr, w / 2, 22, title, 15, 0.5);
    return rc;
}

/* ---- lines ---- */

static void draw_line(cairo_t *cr, const hsim_plot_t *p, const hsim_line_t *l, int steps)
{
    if (!l->n)
        return;
    for (size_t i = 0; i < l->n; i++) {
        double x = hsim_plot_x(p, l->x[i]), y = hsim_plot_y(p, l->y[i]);
        if (i == 0)
            cairo_move_to(cr, x, y);
        else if (steps) {
            cairo_line_to(cr, x, hsim_plot_y(p, l->y[i - 1]));
            cairo_line_to(cr, x, y);
        } else
            cairo_line_to(cr, x, y);
    }
    cairo_stroke(cr);
}

static void lines_panel(cairo_t *cr, const hsim_plot_t *p, const hsim_lines_panel_t *lp,
                        size_t n_series)
{
    hsim_plot_axes(cr, p, lp->title);
    cairo_save(cr);
    cairo_rectangle(cr, p->x, p->y, p->w, p->h);
    cairo_clip(cr);
    cairo_set_line_width(cr, 1.6);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL);
    for (size_t s = 0; s < n_series; s++) {
        hsim_canvas_colour(cr, s);
        draw_line(cr, p, &lp->lines[s], lp->steps);
    }
    cairo_restore(cr);
}

int hsim_figure_lines(const char *path, const char *title, const char *const *series,
                      size_t n_series, const hsim_lines_panel_t *panels, size_t n_panels,
                      size_t cols, hsim_err_t *e)
{
    if (!n_panels || !n_series || !cols)
        return hsim_errf(e, HSIM_EINPUT, "%s: nothing to draw", path);
    if (cols > n_panels)
        cols = n_panels;
    size_t rows = (n_panels + cols - 1) / cols;
    double pw = cols == 1 ? LINES_W : LINES_COL_W;
    double cell_w = HSIM_PLOT_LEFT + pw + MARGIN, cell_h = HSIM_PLOT_ABOVE + LINES_H +
                                                           HSIM_PLOT_BELOW;
    double w = MARGIN + (double)cols * cell_w;
    double legend = legend_room(series, n_series, w);
    double h = TITLE_H + (double)rows * cell_h + legend + MARGIN;
    hsim_canvas_t cv;
    int rc = figure_open(&cv, path, w, h, title, e);
    if (rc)
        return rc;
    for (size_t k = 0; k < n_panels; k++) {
        hsim_plot_t p = {.w = pw, .h = LINES_H, .xa = panels[k].xa, .ya = panels[k].ya};
        p.x = MARGIN + (double)(k % cols) * cell_w + HSIM_PLOT_LEFT;
        p.y = TITLE_H + (double)(k / cols) * cell_h + HSIM_PLOT_ABOVE;
        if (p.xa.log || !(p.xa.max > p.xa.min)) /* time stays as it is: no */
            hsim_axis_nice(&p.xa);                /* empty stretch at its end */
        hsim_axis_nice(&p.ya);
        lines_panel(cv.cr, &p, &panels[k], n_series);
    }
    hsim_legend_draw(cv.cr, MARGIN + HSIM_PLOT_LEFT, TITLE_H + (double)rows * cell_h,
                     legend_width(w), series, NULL, n_series);
    return hsim_canvas_close(&cv, e);
}

/* ---- grouped bars ---- */

typedef struct bars_layout {
    double slot;      /* points per group */
    double plot_w;    /* a panel's plot width */
    double below;     /* room under a plot for the group names */
    double right;     /* room right of a plot: the last slanted name's end */
    int slant;        /* names turned 45 degrees */
    size_t cols;      /* panels per row */
} bars_layout_t;

static bars_layout_t bars_layout(cairo_t *m, const char *const *groups, size_t n_groups,
                                 size_t n_series, size_t n_panels)
{
    bars_layout_t l = {.cols = n_panels < 3 ? n_panels : 3};
    l.slot = fmax(26, 12.0 * (double)n_series + 10);
    l.plot_w = fmax(l.cols == 1 ? 520 : 240, l.slot * (double)n_groups);
    l.slot = l.plot_w / (double)n_groups;
    double widest = 0;
    for (size_t g = 0; g < n_groups; g++)
        widest = fmax(widest, hsim_canvas_text_width(m, groups[g], 10));
    l.slant = widest > l.slot - 4;
    double reach = widest * 0.7071; /* at 45 degrees, across and down */
    l.below = l.slant ? reach + 24 : 28;
    l.right = l.slant ? fmax(0, reach - l.slot / 2 + 4) : 0;
    return l;
}

/* The axis of a bars panel: 0 (or, log, the least value) to the largest
   value or interval end. */
static hsim_axis_t bars_axis(const hsim_bars_panel_t *bp, size_t n)
{
    hsim_axis_t a = {.min = bp->ylog ? INFINITY : 0, .max = bp->ylog ? 0 : 1e-300,
                     .log = bp->ylog, .label = bp->ylabel};
    for (size_t i = 0; i < n; i++) {
        double v = bp->v[i], d = bp->err && !isnan(bp->err[i]) ? bp->err[i] : 0;
        if (isnan(v) || (bp->ylog && v <= 0))
            continue;
        a.max = fmax(a.max, v + d);
        if (bp->ylog)
            a.min = fmin(a.min, v - d > 0 ? v - d : v);
    }
    if (bp->ylog && !isfinite(a.min))
        a.min = a.max = 1;
    if (!bp->ylog)
        a.max *= 1.08; /* room for the values above the bars */
    hsim_axis_nice(&a);
    return a;
}

static void bar_value(cairo_t *cr, double x, double y, double v, double width)
{
    char buf[32];
    if (isnan(v))
        snprintf(buf, sizeof buf, "n/a");
    else
        hsim_tick_text(buf, sizeof buf, v, fabs(v) >= 100 ? 1 : fabs(v) >= 1 ? 0.1 : 0.01);
    double tw = hsim_canvas_text_width(cr, buf, 9);
    if (tw <= width + 6) /* else the bar is too thin for a number */
        hsim_canvas_text(cr, x, y, buf, 9, 0.5);
}

static void bars_panel(cairo_t *cr, const hsim_plot_t *p, const bars_layout_t *l,
                       const hsim_bars_panel_t *bp, const char *const *groups,
                       size_t n_groups, size_t n_series)
{
    hsim_plot_axes(cr, p, bp->title);
    double bar = (l->slot * 0.8) / (double)n_series, base = p->y + p->h;
    for (size_t g = 0; g < n_groups; g++) {
        double gx = p->x + l->slot * (double)g + l->slot * 0.1;
        for (size_t s = 0; s < n_series; s++) {
            size_t i = g * n_series + s;
            double v = bp->v[i], x = gx + bar * (double)s;
            int none = isnan(v) || (bp->ylog && v <= 0);
            double top = none ? base : hsim_plot_y(p, fmax(v, p->ya.min));
            hsim_canvas_colour(cr, n_series == 1 ? g : s);
            cairo_rectangle(cr, x, top, bar * 0.92, base - top);
            cairo_fill(cr);
            cairo_set_source_rgb(cr, 0, 0, 0);
            double d = bp->err && !none ? bp->err[i] : NAN;
            if (!isnan(d) && d > 0) {
                double cx = x + bar * 0.46, lo = hsim_plot_y(p, fmax(v - d, p->ya.min));
                double hi = hsim_plot_y(p, v + d), cap = fmin(4, bar * 0.3);
                cairo_set_line_width(cr, 1.2);
                cairo_move_to(cr, cx, lo);
                cairo_line_to(cr, cx, hi);
                cairo_move_to(cr, cx - cap, lo);
                cairo_line_to(cr, cx + cap, lo);
                cairo_move_to(cr, cx - cap, hi);
                cairo_line_to(cr, cx + cap, hi);
                cairo_stroke(cr);
                top = fmin(top, hi);
            }
            bar_value(cr, x + bar * 0.46, top - 4, none ? NAN : v, bar);
        }
        double cx = p->x + l->slot * ((double)g + 0.5);
        if (l->slant) {
            cairo_save(cr);
            cairo_move_to(cr, cx, base + 12);
            cairo_rotate(cr, HSIM_PI / 4);
            cairo_set_font_size(cr, 10);
            cairo_show_text(cr, groups[g]);
            cairo_restore(cr);
        } else
            hsim_canvas_text(cr, cx, base + 15, groups[g], 10, 0.5);
    }
}

int hsim_figure_bars(const char *path, const char *title, const char *const *groups,
                     size_t n_groups, const char *const *series, size_t n_series,
                     const hsim_bars_panel_t *panels, size_t n_panels, hsim_err_t *e)
{
    if (!n_groups || !n_series || !n_panels)
        return hsim_errf(e, HSIM_EINPUT, "%s: nothing to draw", path);
    cairo_t *m = hsim_canvas_scratch();
    bars_layout_t l = bars_layout(m, groups, n_groups, n_series, n_panels);
    double cell_w = HSIM_PLOT_LEFT + l.plot_w + MARGIN + l.right;
    double w = MARGIN + (double)l.cols * cell_w;
    hsim_canvas_scratch_free(m);
    double legend = n_series > 1 ? legend_room(series, n_series, w) : 0;
    size_t rows = (n_panels + l.cols - 1) / l.cols;
    double cell_h = HSIM_PLOT_ABOVE + BARS_H + l.below;
    double h = TITLE_H + (double)rows * cell_h + legend + MARGIN;
    hsim_canvas_t cv;
    int rc = figure_open(&cv, path, w, h, title, e);
    if (rc)
        return rc;
    for (size_t k = 0; k < n_panels; k++) {
        hsim_plot_t p = {.w = l.plot_w, .h = BARS_H};
        p.x = MARGIN + (double)(k % l.cols) * cell_w + HSIM_PLOT_LEFT;
        p.y = TITLE_H + (double)(k / l.cols) * cell_h + HSIM_PLOT_ABOVE;
        p.xa = (hsim_axis_t){.min = 0, .max = 1}; /* ticks: none wanted */
        p.ya = bars_axis(&panels[k], n_groups * n_series);
        hsim_plot_t frame = p;
        frame.xa.min = 0;
        frame.xa.max = 0; /* no x ticks fall inside (0, 0) */
        bars_panel(cv.cr, &frame, &l, &panels[k], groups, n_groups, n_series);
    }
    if (n_series > 1)
        hsim_legend_draw(cv.cr, MARGIN + HSIM_PLOT_LEFT, TITLE_H + (double)rows * cell_h,
                         legend_width(w), series, NULL, n_series);
    return hsim_canvas_close(&cv, e);
}

/* ---- Gantt ---- */

int hsim_figure_gantt(const char *path, const char *title, const char *row_name,
                      int32_t n_rows, double t0, double t1, const hsim_box_t *boxes,
                      size_t n_boxes, const char *const *keys, const size_t *keys_colour,
                      size_t n_keys, hsim_err_t *e)
{
    if (n_rows <= 0 || !(t1 > t0))
        return hsim_errf(e, HSIM_EINPUT, "%s: nothing to draw", path);
    const char *unit;
    double u = hsim_time_unit(t1 - t0, &unit);
    char xlabel[48], ylabel[48];
    snprintf(xlabel, sizeof xlabel, "time (%s)", unit);
    snprintf(ylabel, sizeof ylabel, "%s", row_name);
    double w = MARGIN + HSIM_PLOT_LEFT + GANTT_W + MARGIN;
    cairo_t *m = hsim_canvas_scratch();
    double legend = hsim_legend_height(m, keys, n_keys, GANTT_W);
    hsim_canvas_scratch_free(m);
    double h = TITLE_H + HSIM_PLOT_ABOVE + GANTT_H + HSIM_PLOT_BELOW + legend + MARGIN;
    hsim_canvas_t cv;
    int rc = figure_open(&cv, path, w, h, title, e);
    if (rc)
        return rc;
    cairo_t *cr = cv.cr;
    hsim_plot_t p = {.x = MARGIN + HSIM_PLOT_LEFT, .y = TITLE_H + HSIM_PLOT_ABOVE,
                     .w = GANTT_W, .h = GANTT_H,
                     .xa = {.min = t0 / u, .max = t1 / u, .label = xlabel},
                     .ya = {.min = 0, .max = n_rows, .label = ylabel}};
    hsim_plot_axes(cr, &p, NULL);
    cairo_save(cr);
    cairo_rectangle(cr, p.x, p.y, p.w, p.h);
    cairo_clip(cr);
    double row_h = p.h / n_rows;
    for (size_t i = 0; i < n_boxes; i++) {
        const hsim_box_t *b = &boxes[i];
        double x0 = hsim_plot_x(&p, fmax(b->t0, t0) / u), x1 = hsim_plot_x(&p, fmin(b->t1, t1) / u);
        double y1 = hsim_plot_y(&p, b->row0), y0 = hsim_plot_y(&p, b->row1 + 1);
        if (b->colour == HSIM_LEGEND_GREY)
            hsim_canvas_grey(cr);
        else
            hsim_canvas_colour(cr, b->colour);
        cairo_rectangle(cr, x0, y0, fmax(x1 - x0, 0.5), y1 - y0);
        cairo_fill_preserve(cr);
        if (x1 - x0 > 3 && row_h * (b->row1 - b->row0 + 1) > 3) { /* edges apart */
            cairo_set_source_rgb(cr, 1, 1, 1);
            cairo_set_line_width(cr, 0.6);
            cairo_stroke(cr);
        } else
            cairo_new_path(cr);
    }
    cairo_restore(cr);
    hsim_legend_draw(cr, p.x, p.y + p.h + HSIM_PLOT_BELOW, GANTT_W, keys, keys_colour, n_keys);
    return hsim_canvas_close(&cv, e);
}

/* ---- heatmap ---- */

/* Viridis by five of its stops, linearly between them. */
static void viridis(double v, unsigned char rgb[3])
{
    static const double stop[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140},
                                      {94, 201, 98}, {253, 231, 37}};
    v = fmin(1, fmax(0, v)) * 4;
    int k = v >= 4 ? 3 : (int)v;
    double f = v - k;
    for (int c = 0; c < 3; c++)
        rgb[c] = (unsigned char)lround(stop[k][c] + f * (stop[k + 1][c] - stop[k][c]));
}

/* An image of rows x cols cells (row 0 at the bottom), from hsim's
   allocator into *px: NULL when out of memory. */
static cairo_surface_t *cells_image(const double *v, size_t rows, size_t cols,
                                    unsigned char **px)
{
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, (int)cols);
    *px = hsim_malloc((size_t)stride * rows);
    if (!*px)
        return NULL;
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++) {
            unsigned char rgb[3] = {255, 255, 255};
            double x = v[r * cols + c];
            if (!isnan(x))
                viridis(x, rgb);
            uint32_t word = (uint32_t)rgb[0] << 16 | (uint32_t)rgb[1] << 8 | rgb[2];
            memcpy(*px + (rows - 1 - r) * (size_t)stride + 4 * c, &word, sizeof word);
        }
    return cairo_image_surface_create_for_data(*px, CAIRO_FORMAT_RGB24, (int)cols, (int)rows,
                                               stride);
}

/* Paints img scaled over the rectangle, one cell a block, no smoothing. */
static void paint_cells(cairo_t *cr, cairo_surface_t *img, double x, double y, double w,
                        double h)
{
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_scale(cr, w / cairo_image_surface_get_width(img),
                h / cairo_image_surface_get_height(img));
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_paint(cr);
    cairo_restore(cr);
}

static void colour_bar(cairo_t *cr, double x, double y, double h, const char *name)
{
    double ramp[64];
    for (size_t i = 0; i < 64; i++)
        ramp[i] = (double)i / 63;
    unsigned char *px;
    cairo_surface_t *img = cells_image(ramp, 64, 1, &px);
    if (img) {
        paint_cells(cr, img, x, y, 14, h);
        cairo_surface_destroy(img);
    }
    hsim_free(px);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, x, y, 14, h);
    cairo_stroke(cr);
    static const char *const pct[] = {"0%", "25%", "50%", "75%", "100%"};
    for (int k = 0; k <= 4; k++)
        hsim_canvas_text(cr, x + 18, y + h - h * k / 4 + 3.5, pct[k], 10, 0);
    cairo_save(cr);
    cairo_translate(cr, x + 60, y + h / 2);
    cairo_rotate(cr, -HSIM_PI / 2);
    hsim_canvas_text(cr, 0, 0, name, 11, 0.5);
    cairo_restore(cr);
}

int hsim_figure_heatmap(const char *path, const char *title, const char *row_name,
                        double row_units, const double *v, size_t rows, size_t cols,
                        double t0, double t1, const char *value_name, hsim_err_t *e)
{
    if (!rows || !cols || !(t1 > t0))
        return hsim_errf(e, HSIM_EINPUT, "%s: nothing to draw", path);
    const char *unit;
    double u = hsim_time_unit(t1 - t0, &unit);
    char xlabel[48];
    snprintf(xlabel, sizeof xlabel, "time (%s)", unit);
    double ph = fmin(600, fmax(220, 4.0 * (double)rows));
    double w = MARGIN + HSIM_PLOT_LEFT + HEAT_W + 90, h = TITLE_H + HSIM_PLOT_ABOVE + ph +
                                                           HSIM_PLOT_BELOW + MARGIN;
    unsigned char *px;
    cairo_surface_t *img = cells_image(v, rows, cols, &px);
    if (!img)
        return hsim_errf(e, HSIM_ENOMEM, "%s: no memory for the image", path);
    hsim_canvas_t cv;
    int rc = figure_open(&cv, path, w, h, title, e);
    if (rc == 0) {
        cairo_t *cr = cv.cr;
        hsim_plot_t p = {.x = MARGIN + HSIM_PLOT_LEFT, .y = TITLE_H + HSIM_PLOT_ABOVE,
                         .w = HEAT_W, .h = ph,
                         .xa = {.min = t0 / u, .max = t1 / u, .label = xlabel},
                         .ya = {.min = 0, .max = (double)rows * row_units,
                                .label = row_name}};
        paint_cells(cr, img, p.x, p.y, p.w, p.h);
        hsim_plot_axes(cr, &p, NULL);
        colour_bar(cr, p.x + p.w + 14, p.y, p.h, value_name);
        rc = hsim_canvas_close(&cv, e);
    }
    cairo_surface_destroy(img);
    hsim_free(px);
    return rc;
}
