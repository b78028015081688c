/*
 * html.h - report.html: one self-contained page per experiment, to read
 * and to share: what was run (hsim's version, the trace's size and CRC-32,
 * the seed, the INI itself), the summary table, and every chart, embedded
 * (PNG as base64 data, or SVG inline), so that the page needs no other
 * file.  Nothing in it depends on the clock: same results, same page.
 */
#ifndef HSIM_HTML_H
#define HSIM_HTML_H

#include "charts.h"

/* Writes <dir>/report.html from dir's run.csv, experiment.ini (when
   there), summary.csv, and the charts files[0..n) in the first of formats
   that can be embedded (PNG, else SVG; a PDF is linked).  repeats: the
   folder of a run of repeats, whose jobs are in seed-S/ folders (the page
   says so).  0, HSIM_EINPUT,
   HSIM_EIO or HSIM_ENOMEM. */
int hsim_html_report(const char *dir, const char *title, const hsim_chart_file_t *files,
                     size_t n, unsigned formats, int repeats, hsim_err_t *e);

/* base64 (RFC 4648) of the n bytes at in into out, which holds at least
   4 * ((n + 2) / 3) + 1 bytes; returns the length written. */
size_t hsim_base64(const unsigned char *in, size_t n, char *out);

#endif
