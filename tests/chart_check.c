/*
 * chart_check.c - what the chart tests check of a file.  See chart_check.h.
 */
#include "chart_check.h"

#include <CUnit/CUnit.h>
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A PNG's size, and how many pixels are not white: -1 when it does not
   decode. */
long hsim_png_ink(const char *path, int *w, int *h)
{
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return -1;
    }
    cairo_surface_flush(s);
    *w = cairo_image_surface_get_width(s);
    *h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    const unsigned char *px = cairo_image_surface_get_data(s);
    long ink = 0;
    for (int y = 0; y < *h; y++)
        for (int x = 0; x < *w; x++) {
            const unsigned char *p = px + (size_t)y * (size_t)stride + 4 * (size_t)x;
            ink += p[0] < 240 || p[1] < 240 || p[2] < 240;
        }
    cairo_surface_destroy(s);
    return ink;
}

/* The file's first bytes start with head and its last hold tail. */
int hsim_png_lowest_ink(const char *path)
{
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    int low = -1;
    if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
        cairo_surface_flush(s);
        int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
        int stride = cairo_image_surface_get_stride(s);
        const unsigned char *px = cairo_image_surface_get_data(s);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const unsigned char *p = px + (size_t)y * (size_t)stride + 4 * (size_t)x;
                if (p[0] < 240 || p[1] < 240 || p[2] < 240)
                    low = y;
            }
    }
    cairo_surface_destroy(s);
    return low;
}

int hsim_file_has(const char *path, const char *head, const char *tail)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[64] = {0};
    size_t n = fread(buf, 1, strlen(head), f);
    int ok = n == strlen(head) && !memcmp(buf, head, n);
    fseek(f, -32, SEEK_END);
    memset(buf, 0, sizeof buf);
    n = fread(buf, 1, 32, f);
    buf[n < sizeof buf ? n : sizeof buf - 1] = '\0';
    ok = ok && strstr(buf, tail) != NULL;
    fclose(f);
    return ok;
}

/* Whether a program is on the PATH. */
int hsim_have_program(const char *prog)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", prog);
    return system(cmd) == 0;
}

void hsim_check_png(const char *path, int want_w, int want_h)
{
    int w = 0, h = 0;
    long ink = hsim_png_ink(path, &w, &h);
    if (ink < 0 || (want_w && w != want_w) || (want_h && h != want_h) ||
        ink < (long)w * h / 100)
        fprintf(stderr, "\n%s: %d x %d, %ld pixels of ink\n", path, w, h, ink);
    CU_ASSERT(ink >= 0);
    if (want_w)
        CU_ASSERT_EQUAL(w, want_w);
    if (want_h)
        CU_ASSERT_EQUAL(h, want_h);
    CU_ASSERT(ink > (long)w * h / 100); /* not blank: 1% of it drawn */
}

/* Checks path.png, .svg and .pdf, as made. */
void hsim_check_formats(const char *stem, int w, int h)
{
    char path[700];
    snprintf(path, sizeof path, "%s.png", stem);
    hsim_check_png(path, w, h);
    snprintf(path, sizeof path, "%s.svg", stem);
    CU_ASSERT(hsim_file_has(path, "<?xml", "</svg>"));
    snprintf(path, sizeof path, "%s.pdf", stem);
    CU_ASSERT(hsim_file_has(path, "%PDF-", "%%EOF"));
}

