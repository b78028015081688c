/*
 * chart_check.h - what the chart tests check of a file: a PNG decodes (by
 * cairo), has the expected size and is not blank; an SVG or a PDF is whole
 * (its first and last bytes); a program is on the PATH.
 */
#ifndef HSIM_CHART_CHECK_H
#define HSIM_CHART_CHECK_H

/* A PNG's size into *w, *h, and how many of its pixels are not white (any
   channel under 240); -1 when it does not decode. */
long hsim_png_ink(const char *path, int *w, int *h);
/* The lowest row of a PNG with a pixel that is not white, -1 for none or
   when it does not decode. */
int hsim_png_lowest_ink(const char *path);
/* 1 when the file starts with head and its last 32 bytes hold tail. */
int hsim_file_has(const char *path, const char *head, const char *tail);
/* 1 when a program of that name is on the PATH. */
int hsim_have_program(const char *prog);
/* CUnit assertions: path decodes, is want_w x want_h (0: any) and at least
   1% of it is drawn. */
void hsim_check_png(const char *path, int want_w, int want_h);
/* The same of stem.png, and stem.svg and stem.pdf are whole. */
void hsim_check_formats(const char *stem, int w, int h);

#endif
