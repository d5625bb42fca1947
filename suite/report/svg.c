/* SPDX-License-Identifier: MIT */
/*
 * svg: the report's plots as inline SVG (see svg.h). The layout is fixed (640 x 360 user units,
 * scaled by CSS), so nothing depends on fonts being measured: tick labels are anchored, not
 * placed by their width. Pixel coordinates are printed with two decimals, values with jsonnum.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/jsonnum.h"
#include "report/html.h"
#include "report/svg.h"

enum { W = 640, H = 360, LEFT = 78, RIGHT = 28, TOP = 34, BOTTOM = 52, LEGROW = 14 };

static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
				     "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
#define NCOLORS (sizeof(colors) / sizeof(colors[0]))

/* The smallest of 1, 2, 5 x 10^k at or above raw. */
static double nice_step(double raw)
{
	double p = pow(10.0, floor(log10(raw))), f = raw / p;

	/* 1e-9 absorbs the rounding of raw / p when raw is itself a nice number */
	if (f <= 1.0 + 1e-9)
		return p;
	if (f <= 2.0 + 1e-9)
		return 2 * p;
	if (f <= 5.0 + 1e-9)
		return 5 * p;
	return 10 * p;
}

size_t svg_ticks_linear(double lo, double hi, size_t want, double *out, double *alo, double *ahi)
{
	double step, a, z;
	long k0, k1;
	size_t n = 0;

	if (!(lo <= hi) || !isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (lo == hi) {
		double d = lo == 0 ? 1 : fabs(lo) * 0.5;
		lo -= d;
		hi += d;
	}
	if (want < 1)
		want = 1;
	step = nice_step((hi - lo) / (double)want);
	k0 = (long)floor(lo / step + 1e-9);
	k1 = (long)ceil(hi / step - 1e-9);
	while (k1 - k0 + 1 > SVG_MAX_TICKS) { /* cannot happen for want < SVG_MAX_TICKS; a guard */
		step = nice_step(step * 1.5);
		k0 = (long)floor(lo / step + 1e-9);
		k1 = (long)ceil(hi / step - 1e-9);
	}
	a = (double)k0 * step;
	z = (double)k1 * step;
	for (long k = k0; k <= k1; k++) {
		double t = (double)k * step;
		out[n++] = fabs(t) < step * 1e-9 ? 0 : t; /* no "-0" label */
	}
	*alo = a;
	*ahi = z;
	return n;
}

size_t svg_ticks_log(double lo, double hi, double *out, double *alo, double *ahi)
{
	long e0, e1, every;
	size_t n = 0;

	if (!(lo > 0) || !(hi > 0) || !isfinite(lo) || !isfinite(hi))
		return 0;
	if (hi < lo) {
		double t = lo;
		lo = hi;
		hi = t;
	}
	e0 = (long)floor(log10(lo) + 1e-9);
	e1 = (long)ceil(log10(hi) - 1e-9);
	if (e1 == e0)
		e1++;
	every = (e1 - e0 + 11) / 12; /* at most 12 labelled decades */
	for (long e = e0; e <= e1 && n < SVG_MAX_TICKS; e += every)
		out[n++] = pow(10.0, (double)e);
	*alo = pow(10.0, (double)e0);
	*ahi = pow(10.0, (double)e1);
	return n;
}

const char *svg_num(double v, char *buf, size_t len)
{
	char tmp[48], *e;

	snprintf(tmp, sizeof(tmp), "%.6g", v);
	for (char *c = tmp; *c; c++)
		if (*c == ',')
			*c = '.'; /* a locale's comma never reaches the report */
	e = strchr(tmp, 'e');
	if (e) {
		/* 1e+06 -> 1e6, 1e-05 -> 1e-5 */
		char mant[48], *x = e + 1;
		int neg = *x == '-';

		*e = '\0';
		snprintf(mant, sizeof(mant), "%s", tmp);
		if (*x == '+' || *x == '-')
			x++;
		while (*x == '0' && x[1])
			x++;
		snprintf(buf, len, "%se%s%s", mant, neg ? "-" : "", x);
		return buf;
	}
	snprintf(buf, len, "%s", tmp);
	return buf;
}

struct map {
	double p0, p1, lo, hi; /* pixel of lo, pixel of hi */
	bool log;
};

static bool usable(const struct map *m, double v)
{
	return isfinite(v) && (!m->log || v > 0);
}

static double px(const struct map *m, double v)
{
	double f = m->log ? (log10(v) - log10(m->lo)) / (log10(m->hi) - log10(m->lo))
			  : (v - m->lo) / (m->hi - m->lo);
	return m->p0 + f * (m->p1 - m->p0);
}

/* The axis from the usable values of every series; its ticks into t, their count returned. */
static size_t axis(const struct svg_plot *p, bool is_x, double *t, struct map *m)
{
	const struct svg_axis *ax = is_x ? &p->x : &p->y;
	double lo = INFINITY, hi = -INFINITY;
	size_t n;
	bool bars = false;

	m->log = ax->log;
	for (size_t s = 0; s < p->nseries; s++) {
		const double *v = is_x ? p->series[s].x : p->series[s].y;
		bars |= !is_x && p->series[s].style == SVG_BARS;
		for (size_t i = 0; i < p->series[s].n; i++) {
			if (!usable(m, v[i]))
				continue;
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
	}
	if (lo > hi) /* no usable value: an empty axis still draws */
		lo = hi = m->log ? 1 : 0;
	if (bars && !m->log && lo > 0)
		lo = 0; /* bars start at zero, so that their lengths compare */
	if (m->log) {
		n = svg_ticks_log(lo, hi, t, &m->lo, &m->hi);
	} else {
		if (!is_x && lo > 0 && lo < 0.25 * hi)
			lo = 0; /* a y axis from 0 unless the data sit far above it */
		n = svg_ticks_linear(lo, hi, is_x ? 8 : 6, t, &m->lo, &m->hi);
	}
	m->p0 = is_x ? LEFT : H - BOTTOM;
	m->p1 = is_x ? W - RIGHT : TOP;
	return n;
}

static void put_values(struct html_buf *b, const char *attr, const double *v, size_t n)
{
	char num[40];

	html_printf(b, " %s=\"", attr);
	for (size_t i = 0; i < n; i++) {
		if (isfinite(v[i]))
			html_printf(b, "%s%s", i ? " " : "", jsonnum_fmt(v[i], num, sizeof(num)));
		else
			html_printf(b, "%snan", i ? " " : "");
	}
	html_puts(b, "\"");
}

static void put_map(struct html_buf *b, const char *attr, const struct map *m)
{
	char lo[40], hi[40];

	html_printf(b, " %s=\"%.2f %.2f %s %s %s\"", attr, m->p0, m->p1,
		    jsonnum_fmt(m->lo, lo, sizeof(lo)), jsonnum_fmt(m->hi, hi, sizeof(hi)),
		    m->log ? "log" : "lin");
}

static void axis_title(struct html_buf *b, const struct svg_axis *ax)
{
	html_esc(b, ax->label);
	if (ax->unit && ax->unit[0]) {
		html_puts(b, " (");
		html_esc(b, ax->unit);
		html_puts(b, ")");
	}
}

static void draw_series(struct html_buf *b, const struct svg_series *s, const char *color,
			const struct map *mx, const struct map *my)
{
	size_t drawn = 0;

	html_puts(b, "<g class=\"series\" data-series=\"");
	html_esc(b, s->name);
	html_printf(b, "\" data-style=\"%s\"",
		    s->style == SVG_BARS     ? "bars"
		    : s->style == SVG_POINTS ? "points"
		    : s->style == SVG_DASHED ? "dashed"
					     : "line");
	put_values(b, "data-x", s->x, s->n);
	put_values(b, "data-y", s->y, s->n);
	html_printf(b, " stroke=\"%s\" fill=\"%s\">", color, color);
	if (s->style == SVG_LINE || s->style == SVG_DASHED) {
		html_printf(b, "<polyline fill=\"none\" stroke-width=\"1.5\"%s points=\"",
			    s->style == SVG_DASHED ? " stroke-dasharray=\"6 4\"" : "");
		for (size_t i = 0; i < s->n; i++) {
			if (!usable(mx, s->x[i]) || !usable(my, s->y[i]))
				continue;
			html_printf(b, "%s%.2f,%.2f", drawn++ ? " " : "", px(mx, s->x[i]),
				    px(my, s->y[i]));
		}
		html_puts(b, "\"/>");
	}
	for (size_t i = 0; i < s->n; i++) {
		if (!usable(mx, s->x[i]) || !usable(my, s->y[i]))
			continue;
		if (s->style == SVG_LINE || s->style == SVG_POINTS) {
			html_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"2.5\"/>", px(mx, s->x[i]),
				    px(my, s->y[i]));
		} else if (s->style == SVG_BARS) {
			double x = px(mx, s->x[i]), y = px(my, s->y[i]), base = my->p0;
			html_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"8\" height=\"%.2f\"/>", x - 4,
				    fmin(y, base), fabs(base - y));
		}
	}
	html_puts(b, "</g>\n");
}

void svg_plot_write(struct html_buf *b, const struct svg_plot *p)
{
	double xt[SVG_MAX_TICKS], yt[SVG_MAX_TICKS];
	struct map mx, my;
	size_t nx = axis(p, true, xt, &mx), ny = axis(p, false, yt, &my);
	char num[48];

	/* the legend goes below the plot, a row per series (and one for the "simulated" mark), so
	 * that it never hides data and long names fit */
	int rows = (int)p->nseries + (p->simulated ? 1 : 0), h = H + 6 + LEGROW * rows;

	html_printf(b, "<figure class=\"plot\"><svg xmlns=\"http://www.w3.org/2000/svg\" "
		       "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" id=\"",
		    W, h, W, h);
	html_esc(b, p->id);
	html_puts(b, "\" data-csv=\"");
	html_esc(b, p->csv);
	html_puts(b, "\"");
	put_map(b, "data-xmap", &mx);
	put_map(b, "data-ymap", &my);
	html_printf(b, " data-simulated=\"%s\">\n<title>", p->simulated ? "true" : "false");
	html_esc(b, p->title);
	html_puts(b, "</title>\n");
	html_printf(b, "<text class=\"ptitle\" x=\"%d\" y=\"18\">", LEFT);
	html_esc(b, p->title);
	html_puts(b, "</text>\n");
	if (p->simulated)
		html_printf(b, "<text class=\"sim\" x=\"%d\" y=\"%d\">simulated (virtual SSD)"
			       "</text>\n",
			    LEFT, H + 2 + LEGROW * rows);
	/* the axes and grid */
	html_printf(b, "<g class=\"axis x\" data-axis=\"x\" data-scale=\"%s\">", mx.log ? "log" : "lin");
	html_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>", LEFT,
		    H - BOTTOM, W - RIGHT, H - BOTTOM);
	for (size_t i = 0; i < nx; i++) {
		double x = px(&mx, xt[i]);
		html_printf(b, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#ddd\"/>"
			       "<text class=\"tick\" x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%s"
			       "</text>",
			    x, TOP, x, H - BOTTOM, x, H - BOTTOM + 14, svg_num(xt[i], num, sizeof(num)));
	}
	html_printf(b, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		    (LEFT + W - RIGHT) / 2, H - 12);
	axis_title(b, &p->x);
	html_puts(b, "</text></g>\n");
	html_printf(b, "<g class=\"axis y\" data-axis=\"y\" data-scale=\"%s\">", my.log ? "log" : "lin");
	html_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>", LEFT, TOP,
		    LEFT, H - BOTTOM);
	for (size_t i = 0; i < ny; i++) {
		double y = px(&my, yt[i]);
		html_printf(b, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#ddd\"/>"
			       "<text class=\"tick\" x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%s</text>",
			    LEFT, y, W - RIGHT, y, LEFT - 4, y + 4, svg_num(yt[i], num, sizeof(num)));
	}
	html_printf(b, "<text class=\"label\" transform=\"translate(14 %d) rotate(-90)\" "
		       "text-anchor=\"middle\">",
		    (TOP + H - BOTTOM) / 2);
	axis_title(b, &p->y);
	html_puts(b, "</text></g>\n");
	for (size_t s = 0; s < p->nseries; s++)
		draw_series(b, &p->series[s], colors[s % NCOLORS], &mx, &my);
	html_puts(b, "<g class=\"legend\">");
	for (size_t i = 0; i < p->nseries; i++) {
		int y = H + 2 + LEGROW * ((int)i + 1);
		html_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"3\" fill=\"%s\"/>"
			       "<text x=\"%d\" y=\"%d\">",
			    LEFT, y - 4, colors[i % NCOLORS], LEFT + 20, y);
		html_esc(b, p->series[i].name);
		html_puts(b, "</text>");
	}
	html_puts(b, "</g>\n</svg></figure>\n");
}
