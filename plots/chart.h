/*
 * chart.h - cairo charts of an experiment's results.
 *
 * One figure compares the policies of an experiment side by side: a panel
 * per metric, a bar per policy.  The file type follows the extension: .png,
 * .svg or .pdf.  Text is drawn with cairo's toy font API in the "sans"
 * family, so the figure needs no font file of its own.
 */
#ifndef HSIM_CHART_H
#define HSIM_CHART_H

#include "../sim/common.h"

#define HSIM_CHART_MAX_PANELS 6

typedef struct hsim_chart_panel {
    const char *title;      /* e.g. "average wait (h)" */
    const double *values;   /* one per bar, >= 0 (negative drawn as 0);
                               NaN: no value (no bar, labelled "n/a") */
} hsim_chart_panel_t;

/*
 * Draws n_panels panels of n_bars bars each, labelled by labels[0..n_bars),
 * under title, into path (.png, .svg or .pdf).  Returns 0, HSIM_EINPUT for
 * another extension or nothing to draw, HSIM_EIO when the file cannot be
 * written, or HSIM_ENOMEM (e says which and why).  O(panels x bars), and
 * for a PNG O(pixels).
 */
int hsim_chart_bars(const char *path, const char *title, const char *const *labels,
                    size_t n_bars, const hsim_chart_panel_t *panels, size_t n_panels,
                    hsim_err_t *e);

/* A bar's value as its label, in at most 5 characters (3 digits from 10^4
   on: 196002 is "196k", 1.5e6 "1.50M"), so that the labels of narrow bars
   stay apart; a label still wider than its bar's slot is drawn smaller. */
void hsim_chart_value_text(char *buf, size_t size, double v);

#endif
