/* SPDX-License-Identifier: MIT */
/*
 * svg: the report's plotting module. It writes one inline <svg> per plot: axes with units, linear
 * or log ticks with their labels, a legend, series drawn as a polyline, points or bars, all text
 * as real SVG <text>. The output is a pure function of the input (fixed layout, numbers printed
 * with a fixed format in the C locale), so the same summary gives the same bytes.
 *
 * Every plot is machine-checkable: the <svg> carries data-csv (the CSV beside the report that
 * holds the same values), data-xmap and data-ymap ("<pixel of lo> <pixel of hi> <lo> <hi>
 * lin|log"), and each series' <g> carries data-series, data-x and data-y: the plotted values in
 * the CSV's own number format (jsonnum's shortest round-trip decimal). docs/report.md says why
 * this module exists rather than PLplot.
 */
#ifndef SSDLAB_REPORT_SVG_H
#define SSDLAB_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>

struct html_buf;

enum svg_style {
	SVG_LINE,   /* a polyline with a marker per point */
	SVG_POINTS, /* markers only */
	SVG_BARS,   /* a bar per point from the axis' low end */
	SVG_DASHED, /* a dashed polyline without markers: fits, limits, bands */
};

struct svg_series {
	const char *name;
	const double *x, *y;
	size_t n;
	enum svg_style style;
};

struct svg_axis {
	const char *label;
	const char *unit; /* shown as "label (unit)"; NULL or "" for none */
	bool log;         /* base-10 log scale: values <= 0 are left out of the plot (not the CSV) */
};

struct svg_plot {
	const char *id;    /* the element id, [a-z0-9_-] */
	const char *title;
	const char *csv;   /* path of the plot's CSV relative to report.html */
	struct svg_axis x, y;
	const struct svg_series *series;
	size_t nseries;
	bool simulated;    /* marks the plot "simulated" (a virtual-SSD run) */
	const char *key;   /* not drawn: what the plot shows whatever the run (no phase numbers or
			    * verdicts), for `compare` to match it across runs; NULL: the title */
};

#define SVG_MAX_TICKS 24

/*
 * Linear ticks for data in [lo, hi]: a step of 1, 2 or 5 x 10^k giving at most `want` intervals,
 * the axis widened to whole steps around the data. Writes the ticks (at most SVG_MAX_TICKS) to
 * out, the axis ends to *alo and *ahi, and returns how many ticks. lo == hi widens to a unit
 * around the value.
 */
size_t svg_ticks_linear(double lo, double hi, size_t want, double *out, double *alo, double *ahi);

/*
 * Log ticks for positive data in [lo, hi]: the powers of ten from the one at or below lo to the
 * one at or above hi (every second, third ... power when there are more than 12). Same outputs as
 * svg_ticks_linear; 0 when lo or hi is not positive.
 */
size_t svg_ticks_log(double lo, double hi, double *out, double *alo, double *ahi);

/* A tick label: "%.6g" in the C locale with the exponent shortened (1e+06 -> 1e6). Returns buf. */
const char *svg_num(double v, char *buf, size_t len);

/* Appends plot p as one <svg> element to b (errors as b->err). */
void svg_plot_write(struct html_buf *b, const struct svg_plot *p);

#endif
