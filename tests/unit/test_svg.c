/* SPDX-License-Identifier: MIT */
/*
 * test_svg: the report's plotting module and its text buffer (suite/report/svg.c, html.c).
 * Tick generation against hand-worked tables (linear: the 1-2-5 step and the axis widened to
 * whole steps; log: the decades, thinned past 12), tick labels, the three escapings, and a plot
 * written twice giving the same bytes with its machine-readable attributes in place.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/html.h"
#include "report/svg.h"

/* Hand-worked: step = the smallest 1, 2, 5 x 10^k >= (hi - lo) / want; ticks from
 * floor(lo / step) to ceil(hi / step) steps. */
static const struct {
	double lo, hi;
	size_t want;
	size_t n;
	double first, last, alo, ahi;
} lin[] = {
    {0, 97, 5, 6, 0, 100, 0, 100},          /* 19.4 -> 20: 0 20 40 60 80 100 */
    {0.13, 0.87, 6, 6, 0, 1, 0, 1},         /* 0.123 -> 0.2: 0 .. 1.0 */
    {-3, 7, 5, 7, -4, 8, -4, 8},            /* 2 -> 2: -4 .. 8 */
    {5, 5, 5, 7, 2, 8, 2, 8},               /* widened to 2.5..7.5; 1 -> 1: 2 .. 8 */
    {1, 3, 8, 5, 1, 3, 1, 3},               /* 0.25 -> 0.5: 1 1.5 2 2.5 3 */
    {2000, 83000, 6, 6, 0, 100000, 0, 100000}, /* 13500 -> 20000: 0 .. 100000 */
};

static void ticks_linear(void **state)
{
	double t[SVG_MAX_TICKS], alo, ahi;

	(void)state;
	for (size_t i = 0; i < sizeof(lin) / sizeof(lin[0]); i++) {
		size_t n = svg_ticks_linear(lin[i].lo, lin[i].hi, lin[i].want, t, &alo, &ahi);
		assert_int_equal(n, lin[i].n);
		assert_true(fabs(t[0] - lin[i].first) < 1e-12);
		assert_true(fabs(t[n - 1] - lin[i].last) < 1e-9);
		assert_true(fabs(alo - lin[i].alo) < 1e-12);
		assert_true(fabs(ahi - lin[i].ahi) < 1e-9);
	}
}

static void ticks_log(void **state)
{
	double t[SVG_MAX_TICKS], alo, ahi;
	size_t n;

	(void)state;
	n = svg_ticks_log(3, 4500, t, &alo, &ahi); /* 10^0 .. 10^4 */
	assert_int_equal(n, 5);
	assert_true(t[0] == 1 && t[1] == 10 && fabs(t[4] - 1e4) < 1e-9);
	assert_true(alo == 1 && fabs(ahi - 1e4) < 1e-9);
	n = svg_ticks_log(1, 1, t, &alo, &ahi); /* one decade at least: 1, 10 */
	assert_int_equal(n, 2);
	assert_true(t[0] == 1 && fabs(t[1] - 10) < 1e-12);
	/* 10^-3 .. 10^30: 34 decades, every (33 + 11) / 12 = 3rd: -3, 0, 3, ..., 30 */
	n = svg_ticks_log(1e-3, 1e30, t, &alo, &ahi);
	assert_int_equal(n, 12);
	assert_true(fabs(t[1] - 1) < 1e-12 && fabs(t[11] / 1e30 - 1) < 1e-9);
	assert_int_equal(svg_ticks_log(0, 10, t, &alo, &ahi), 0);
	assert_int_equal(svg_ticks_log(-1, 10, t, &alo, &ahi), 0);
}

static void numbers(void **state)
{
	static const struct {
		double v;
		const char *s;
	} cases[] = {
	    {1e6, "1e6"}, {0.1 * 3, "0.3"}, {1e-5, "1e-5"}, {123456789, "1.23457e8"},
	    {2.5, "2.5"}, {100000, "100000"}, {0, "0"}, {-0.25, "-0.25"}, {1.5e-10, "1.5e-10"},
	};
	char buf[48];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(svg_num(cases[i].v, buf, sizeof(buf)), cases[i].s);
}

static void escaping(void **state)
{
	struct html_buf b;

	(void)state;
	html_init(&b);
	html_esc(&b, "<a href=\"x\">&'");
	assert_string_equal(b.p, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
	html_release(&b);
	html_csv_field(&b, "a,\"b\"");
	html_puts(&b, "|");
	html_csv_field(&b, "plain");
	assert_string_equal(b.p, "\"a,\"\"b\"\"\"|plain");
	html_release(&b);
	html_md_cell(&b, "a|b\\c\nd");
	assert_string_equal(b.p, "a\\|b\\\\c d");
	html_release(&b);
	html_printf(&b, "%d-%s", 42, "x");
	assert_string_equal(b.p, "42-x");
	assert_int_equal(b.err, 0);
	html_release(&b);
}

static void plot(void **state)
{
	static const double x[] = {1, 2, 3}, y[] = {10, 0, 1000};
	const struct svg_series se[] = {{"a<b", x, y, 3, SVG_LINE}, {"fit", x, y, 3, SVG_DASHED}};
	struct svg_plot p = {
	    .id = "t1", .title = "T & U", .csv = "report/t1.csv",
	    .x = {"round", "", false}, .y = {"IOPS", "I/O per s", true},
	    .series = se, .nseries = 2, .simulated = true,
	};
	struct html_buf a, b;

	(void)state;
	html_init(&a);
	html_init(&b);
	svg_plot_write(&a, &p);
	svg_plot_write(&b, &p);
	assert_int_equal(a.err, 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.p, b.p, a.len);
	assert_non_null(strstr(a.p, " data-csv=\"report/t1.csv\""));
	/* x: 1..3 in 0.5 steps on 78..612 px; y: log 10^1 .. 10^3 from 308 px (360 - 52) up to 34 */
	assert_non_null(strstr(a.p, " data-xmap=\"78.00 612.00 1 3 lin\""));
	assert_non_null(strstr(a.p, " data-ymap=\"308.00 34.00 10 1000 log\""));
	/* the values as given, also the 0 a log axis cannot draw; the name escaped */
	assert_non_null(strstr(a.p, "data-series=\"a&lt;b\" data-style=\"line\" data-x=\"1 2 3\" "
				    "data-y=\"10 0 1000\""));
	/* the 0 is left out of the polyline: (1, 10) at the bottom left, (3, 1000) top right */
	assert_non_null(strstr(a.p, "points=\"78.00,308.00 612.00,34.00\""));
	assert_non_null(strstr(a.p, "<title>T &amp; U</title>"));
	assert_non_null(strstr(a.p, ">simulated (virtual SSD)</text>"));
	assert_non_null(strstr(a.p, "IOPS (I/O per s)</text>"));
	assert_non_null(strstr(a.p, ">100</text>")); /* the middle decade's label */
	assert_non_null(strstr(a.p, "stroke-dasharray"));
	html_release(&a);
	html_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(ticks_linear), cmocka_unit_test(ticks_log), cmocka_unit_test(numbers),
	    cmocka_unit_test(escaping), cmocka_unit_test(plot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
