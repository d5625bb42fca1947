/* SPDX-License-Identifier: MIT */
/* headline: see headline.h. Reads summary.json's keys only, so that it prints the same lines
 * for a fresh analysis and for an old summary. */
#include "cli/headline.h"
#include "cli/headline_fmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "base/units.h"

/* For printing a string that may be missing. */
static const char *S(const char *s)
{
	return s ? s : "?";
}

static const char *fmt(double v, int decimals, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	return units_fmt_double(v, decimals, buf, len);
}

/* A purge that only discarded: the flash was not returned to fresh-out-of-box. */
static void print_purge_flags(struct json_object *arr, FILE *f)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		const char *m = S(jsonget_str(e, "method"));
		int64_t phase = 0, settle = 0;
		char t[32];

		(void)jsonget_int(e, "phase", &phase);
		(void)jsonget_int(e, "settle_ns", &settle);
		units_fmt_duration(settle > 0 ? (uint64_t)settle : 0, t, sizeof(t));
		fprintf(
		    f,
		    "FLAG: the purge of phase %" PRId64 " was a full-device discard%s%s%s, not a "
		    "SNIA PTS purge (no secure erase, sanitize or format); %s settle idle after "
		    "it\n",
		    phase, strcmp(m, "discard") ? " (" : "", strcmp(m, "discard") ? m : "",
		    strcmp(m, "discard") ? ")" : "", t);
	}
}

/* Reads of unmapped LBAs, and a read-only run on a real target that nobody filled. */
static void print_unmapped_flags(struct json_object *flags, FILE *f)
{
	struct json_object *x;
	char a[48], b[48];
	int64_t hit = 0, n = 0;

	if (json_object_object_get_ex(flags, "reads_unmapped", &x) && x &&
	    !jsonget_int(x, "records_with_unmapped", &hit) && hit > 0) {
		uint64_t bytes = 0;

		(void)jsonget_int(x, "records", &n);
		(void)jsonnum_get_u64(x, "bytes", &bytes);
		units_fmt_size(bytes, b, sizeof(b));
		fprintf(
		    f,
		    "FLAG: %s%% of the bytes read (%s, in %" PRId64 " of %" PRId64
		    " measurements) were of never-written or trimmed LBAs, answered without "
		    "reading the flash: those read figures say nothing about the NAND (fill the "
		    "range first)\n",
		    fmt(100 * jsonget_num(x, "fraction"), 1, a, sizeof(a)), b, hit, n);
	}
	if (json_object_object_get_ex(flags, "reads_without_fill", &x) &&
	    json_object_get_boolean(x))
		fprintf(f,
			"FLAG: a read-only run with no fill: on a fresh or trimmed SSD, reads of "
			"never-written LBAs do not touch the NAND, and nothing here shows how "
			"much of the range held data\n");
}

/* The findings a reader must not miss: printed with the headline. */
static void print_flags(struct json_object *summary, FILE *f)
{
	struct json_object *arr, *x, *flags;

	if (json_object_object_get_ex(summary, "flags", &flags)) {
		if (json_object_object_get_ex(flags, "steady_state_not_reached", &arr) &&
		    json_object_array_length(arr))
			fprintf(f, "FLAG: steady state not reached in %zu tracked series\n",
				json_object_array_length(arr));
		if (json_object_object_get_ex(flags, "host_limited", &arr) &&
		    json_object_array_length(arr))
			fprintf(f,
				"FLAG: %zu measurements were limited by the host, not the device\n",
				json_object_array_length(arr));
		if (json_object_object_get_ex(flags, "no_io", &arr) &&
		    json_object_array_length(arr))
			fprintf(
			    f,
			    "FLAG: %zu measurements have no figures (no I/O measured; first: %s)\n",
			    json_object_array_length(arr),
			    jsonget_str(json_object_array_get_idx(arr, 0), "reason")
				? jsonget_str(json_object_array_get_idx(arr, 0), "reason")
				: "?");
		if (json_object_object_get_ex(flags, "resumed", &x) && json_object_get_boolean(x))
			fprintf(f, "FLAG: the run was resumed (see the resume records)\n");
		if (json_object_object_get_ex(flags, "io_errors", &x) && json_object_get_int64(x))
			fprintf(f, "FLAG: %" PRId64 " measurements stopped at an I/O error\n",
				json_object_get_int64(x));
		if (json_object_object_get_ex(flags, "torn_last_line_dropped", &x) &&
		    json_object_get_boolean(x))
			fprintf(
			    f,
			    "FLAG: a torn last record line was dropped (an interrupted write)\n");
		if (json_object_object_get_ex(flags, "purge_not_pts", &arr))
			print_purge_flags(arr, f);
		print_unmapped_flags(flags, f);
		/* A host-write counter off by more than its unit: a wrong unit or another writer.
		 */
		if (json_object_object_get_ex(flags, "host_write_mismatch", &arr) &&
		    json_object_array_length(arr))
			fprintf(f,
				"FLAG: in %zu phases the drive's host-write counter disagrees with "
				"the bytes ssdlab wrote (a wrong unit, or another writer)\n",
				json_object_array_length(arr));
	}
	headline_print_thermal(summary, f);
}

/* How a metric is shown: "IOPS 3352", "512.3 MB/s", "lat_mean 812.4 us". */
struct metric_unit {
	const char *prefix, *suffix;
	double scale;
	int decimals;
};

static struct metric_unit metric_unit(const char *metric)
{
	if (!metric || !strcmp(metric, "iops"))
		return (struct metric_unit){"IOPS ", "", 1, 0};
	if (!strcmp(metric, "read_iops"))
		return (struct metric_unit){"read IOPS ", "", 1, 0};
	if (!strcmp(metric, "write_iops"))
		return (struct metric_unit){"write IOPS ", "", 1, 0};
	if (strstr(metric, "bw"))
		return (struct metric_unit){"", " MB/s", 1e6, 1};
	if (strstr(metric, "lat_"))
		return (struct metric_unit){metric, " us", 1e3, 1};
	return (struct metric_unit){metric, "", 1, 3};
}

/* A metric's value in its display unit; a latency or other named metric gets a space after its
 * name (the prefixes of IOPS carry theirs). */
static void print_metric(FILE *f, const char *metric, double v)
{
	struct metric_unit u = metric_unit(metric);
	char a[48];

	fprintf(f, "%s%s%s%s", u.prefix, u.prefix == metric ? " " : "",
		fmt(v / u.scale, u.decimals, a, sizeof(a)), u.suffix);
}

/* The same for a range "lo-hi" and its median (in the same unit, without it). */
static void print_metric_range(FILE *f, const char *metric, double lo, double hi, double med,
			       size_t n)
{
	struct metric_unit u = metric_unit(metric);
	char a[48], b[48], c[48];

	fprintf(f, "%s%s%s-%s%s over %zu phases (median %s", u.prefix,
		u.prefix == metric ? " " : "", fmt(lo / u.scale, u.decimals, a, sizeof(a)),
		fmt(hi / u.scale, u.decimals, b, sizeof(b)), u.suffix, n,
		fmt(med / u.scale, u.decimals, c, sizeof(c)));
}

/* "4k randread QD32": an entry's workload and queue (the queue left out when unknown). */
static const char *wl_label(struct json_object *e, char *buf, size_t len)
{
	const char *q = jsonget_str(e, "queue");

	snprintf(buf, len, "%s%s%s", S(jsonget_str(e, "workload")), q && *q ? " " : "", q ? q : "");
	return buf;
}

/* The end of the block of results entries (one phase and repeat) that starts at i. */
static size_t block_end(struct json_object *arr, size_t i)
{
	size_t n = json_object_array_length(arr), j = i + 1;
	int64_t p = -1, r = 0;

	(void)jsonget_int(json_object_array_get_idx(arr, i), "phase", &p);
	(void)jsonget_int(json_object_array_get_idx(arr, i), "repeat", &r);
	for (; j < n; j++) {
		int64_t q = -1, s = 0;

		(void)jsonget_int(json_object_array_get_idx(arr, j), "phase", &q);
		(void)jsonget_int(json_object_array_get_idx(arr, j), "repeat", &s);
		if (q != p || s != r)
			break;
	}
	return j;
}

/* Whether the blocks [a, a_end) and [b, b_end) measure the same cells over the same kind of
 * window: the phases of a sweep, each shown once would repeat the same lines. */
static bool same_cells(struct json_object *arr, size_t a, size_t a_end, size_t b, size_t b_end)
{
	if (a_end - a != b_end - b)
		return false;
	for (size_t k = 0; k < a_end - a; k++) {
		struct json_object *x = json_object_array_get_idx(arr, a + k),
				   *y = json_object_array_get_idx(arr, b + k);
		char u[160], v[160];

		if (strcmp(wl_label(x, u, sizeof(u)), wl_label(y, v, sizeof(v))) ||
		    strcmp(S(jsonget_str(x, "over")), S(jsonget_str(y, "over"))))
			return false;
	}
	return true;
}

/* One block: its heading and a line per cell, the figures in a column w wide. */
static void print_block(struct json_object *arr, size_t from, size_t to, int w, FILE *f)
{
	struct json_object *e0 = json_object_array_get_idx(arr, from);
	const char *over = S(jsonget_str(e0, "over"));
	int64_t p = -1, r = 0, lo = 0, hi = 0;

	(void)jsonget_int(e0, "phase", &p);
	(void)jsonget_int(e0, "repeat", &r);
	(void)jsonget_int(e0, "first_round", &lo);
	(void)jsonget_int(e0, "last_round", &hi);
	fprintf(f, "cells of phase %" PRId64, p);
	if (r)
		fprintf(f, " (repeat %" PRId64 ")", r);
	fprintf(f, ", rounds %" PRId64 "-%" PRId64 "%s\n", lo, hi,
		!strcmp(over, "steady_state_window")  ? " (steady-state window)"
		: !strcmp(over, "fast_matrix_rounds") ? " (fast run: matrix rounds after the first)"
						      : "");
	for (size_t i = from; i < to; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		char a[48], b[48], c[48], d[48], g[48], wl[160];

		fprintf(f, "  %-*s  IOPS %s, %s MB/s, latency mean %s, p99 %s, max %s\n", w,
			wl_label(e, wl, sizeof(wl)), fmt(jsonget_num(e, "iops"), 0, a, sizeof(a)),
			fmt(jsonget_num(e, "bw_bps") / 1e6, 1, b, sizeof(b)),
			headline_dur(jsonget_num(e, "lat_mean_ns"), c, sizeof(c)),
			headline_dur(jsonget_num(e, "lat_p99_ns"), d, sizeof(d)),
			headline_dur(jsonget_num(e, "lat_max_ns"), g, sizeof(g)));
	}
}

/*
 * headline.results, a block per (phase, repeat):
 *   cells of phase 2, rounds 2-6 (steady-state window)
 *     1m write QD32  IOPS 20, 21.2 MB/s, latency mean 1.02 s, p99 1.69 s, max 1.70 s
 * A run of four or more consecutive blocks of the same cells (a sweep's steady states) shows
 * its first and last block and, between them, how many it leaves out:
 *   (15 more phases of the same cells, phases 7 to 49, in summary.json)
 */
static void print_results(struct json_object *h, FILE *f)
{
	struct json_object *arr, *x;
	size_t n;
	int w = 0;

	if (!json_object_object_get_ex(h, "results", &arr))
		return;
	n = json_object_array_length(arr);
	/* One column for the figures: as wide as the longest workload and queue. */
	for (size_t i = 0; i < n; i++) {
		char wl[160];
		int k = (int)strlen(wl_label(json_object_array_get_idx(arr, i), wl, sizeof(wl)));

		w = k > w ? k : w;
	}
	for (size_t i = 0; i < n;) {
		size_t end = block_end(arr, i), last = i, last_end = end, blocks = 1;
		int64_t p_second = -1, p_before_last = -1;

		/* The run of blocks of the same cells that starts here. */
		for (size_t j = end; j < n;) {
			size_t k = block_end(arr, j);

			if (!same_cells(arr, i, end, j, k))
				break;
			if (blocks == 1)
				(void)jsonget_int(json_object_array_get_idx(arr, j), "phase",
						  &p_second);
			(void)jsonget_int(json_object_array_get_idx(arr, last), "phase",
					  &p_before_last);
			last = j;
			last_end = k;
			blocks++;
			j = k;
		}
		if (blocks < 4) {
			print_block(arr, i, end, w, f);
			i = end;
			continue;
		}
		print_block(arr, i, end, w, f);
		fprintf(f,
			"  (%zu more phases of the same cells, phases %" PRId64 " to %" PRId64
			", in summary.json)\n",
			blocks - 2, p_second, p_before_last);
		print_block(arr, last, last_end, w, f);
		i = last_end;
	}
	if (json_object_object_get_ex(h, "results_omitted", &x) && json_object_get_int64(x) > 0)
		fprintf(f, "  (%" PRId64 " more cells in summary.json)\n",
			json_object_get_int64(x));
}

/* "1.250", or "1.250 (1.201 to 1.302 from the counters' resolution)" when the interval is wider
 * than a point (a real drive's counters count in units; the sim's are exact). */
static void print_wa(FILE *f, struct json_object *w)
{
	struct json_object *iv = NULL;
	char a[32], b[32], c[32];

	fmt(jsonget_num(w, "wa"), 3, a, sizeof(a));
	if (json_object_object_get_ex(w, "interval", &iv) &&
	    json_object_is_type(iv, json_type_array) && json_object_array_length(iv) == 2) {
		double lo = json_object_get_double(json_object_array_get_idx(iv, 0));
		double hi = json_object_get_double(json_object_array_get_idx(iv, 1));
		if (isfinite(lo) && isfinite(hi) && hi > lo) {
			fprintf(f, "%s (%s to %s from the counters' resolution)%s\n", a,
				fmt(lo, 3, b, sizeof(b)), fmt(hi, 3, c, sizeof(c)),
				json_object_get_boolean(json_object_object_get(w, "compression"))
				    ? ", below 1: the controller compresses"
				    : "");
			return;
		}
	}
	fprintf(f, "%s\n", a);
}

/*
 * headline.write_saturation, per write_until phase:
 *   WSAT           phase 1 4k randwrite 4 threads x QD32: 4.00x capacity in 18h56m, IOPS 80341
 *                  in the first record, 4009 over the last fill
 *     IOPS by capacity written: 0.00-1.00x 22255, 1.00-2.00x 9633, ...
 * except for SLC-cache probes (headline_slc_probe), which have their own line.
 */
static void print_wsat(struct json_object *summary, struct json_object *h, FILE *f)
{
	struct json_object *arr, *fills;
	char a[48], b[48], c[48], d[48], wl[160];

	if (!json_object_object_get_ex(h, "write_saturation", &arr))
		return;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		double pn = jsonget_num(e, "profile_ns");
		size_t nf = 0;
		int64_t p = -1;

		(void)jsonget_int(e, "phase", &p);
		if (headline_slc_probe(summary, p))
			continue; /* its SLC cache line says what the probe found */
		if (headline_sweep_after(summary, p))
			continue; /* a measurement after an idle: its row of the recovery table */
		if (json_object_object_get_ex(e, "fills", &fills))
			nf = json_object_array_length(fills);
		units_fmt_duration(isfinite(pn) && pn > 0 ? (uint64_t)pn : 0, c, sizeof(c));
		fprintf(
		    f,
		    "WSAT           phase %" PRId64 " %s: %sx capacity in %s, IOPS %s in the "
		    "first record, %s over the last fill\n",
		    p, wl_label(e, wl, sizeof(wl)),
		    fmt(jsonget_num(e, "written_x"), 2, a, sizeof(a)), c,
		    fmt(jsonget_num(e, "first_iops"), 0, b, sizeof(b)),
		    fmt(nf ? jsonget_num(json_object_array_get_idx(fills, nf - 1), "iops") : NAN, 0,
			d, sizeof(d)));
		if (!nf)
			continue;
		fprintf(f, "  IOPS by capacity written:");
		for (size_t j = 0; j < nf; j++) {
			struct json_object *o = json_object_array_get_idx(fills, j);

			fprintf(f, "%s %s-%sx %s", j ? "," : "",
				fmt(jsonget_num(o, "from_x"), 2, a, sizeof(a)),
				fmt(jsonget_num(o, "to_x"), 2, b, sizeof(b)),
				fmt(jsonget_num(o, "iops"), 0, c, sizeof(c)));
		}
		fputc('\n', f);
	}
}

/* The key of a series' shape: phases of the same workload, queue and metric (an idle sweep's
 * repeated steady states) are summarized on one line. */
static bool same_shape(struct json_object *a, struct json_object *b)
{
	const char *k[] = {"workload", "queue", "metric"};

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		const char *x = jsonget_str(a, k[i]), *y = jsonget_str(b, k[i]);

		if ((x == NULL) != (y == NULL) || (x && strcmp(x, y)))
			return false;
	}
	return true;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n) (sorts v); NAN for none. */
static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The early verdict beside (never instead of) the SNIA verdict, when the profile asked for one
 * (docs/early-verdict.md):
 *   early verdict  steady state predicted at round 4 (confidence 0.95), SNIA window not completed
 *   early verdict  steady state predicted at round 4 (confidence 0.95); --strict-pts: SNIA window run
 *   early verdict  not predicted (confidence 0.95)
 */
static void print_early(struct json_object *s, FILE *f)
{
	struct json_object *e, *x;
	const char *v;
	char a[48];
	int64_t round = 0;

	if (!json_object_object_get_ex(s, "early", &e) || !e)
		return;
	v = S(jsonget_str(e, "verdict"));
	if (!strcmp(v, "off"))
		return;
	fmt(jsonget_num(e, "confidence"), 2, a, sizeof(a));
	if (strcmp(v, "predicted")) {
		fprintf(f, "early verdict  not predicted (confidence %s)\n", a);
		return;
	}
	(void)jsonget_int(e, "round", &round);
	fprintf(f, "early verdict  steady state predicted at round %" PRId64 " (confidence %s)", round,
		a);
	if (json_object_object_get_ex(e, "stopped_run", &x) && json_object_get_boolean(x))
		fprintf(f, ", SNIA window not completed\n");
	else
		fprintf(f, "; --strict-pts: SNIA window run\n");
}

/*
 * The WA guard after a sprandom fill (docs/fast-steady-state.md), one line:
 *   WA guard       passed: round 5 WA 8.30 against 1/(1-alpha) = 7.90 (short when more than 10 % below)
 *   WA guard       delayed: 11 verdicts refused from round 6 (WA short), accepted at round 17 (WA 4.08, 7.6 % below 4.42)
 *   WA guard       short: rounds ended at round 25 with WA 3.90, 11.7 % below 4.42: steady state not confirmed
 *   WA guard       unavailable: no NAND-write counter, the guard could not judge
 */
static void print_wa_guard(struct json_object *s, FILE *f)
{
	struct json_object *g, *rs, *last = NULL;
	const char *o;
	char wa[48], ex[48], sh[48], tol[48];
	int64_t round = 0, blocked = 0, first = 0;

	if (!json_object_object_get_ex(s, "wa_guard", &g) || !g)
		return;
	o = S(jsonget_str(g, "outcome"));
	if (!strcmp(o, "off"))
		return;
	if (json_object_object_get_ex(g, "rounds", &rs) && rs &&
	    json_object_array_length(rs) > 0) {
		size_t at = json_object_array_length(rs) - 1;
		int64_t stop = 0;

		/* the round the rounds stopped at, when the replay stopped */
		(void)jsonget_int(g, "stop_round", &stop);
		for (size_t i = 0; i < json_object_array_length(rs); i++) {
			int64_t r = 0;

			(void)jsonget_int(json_object_array_get_idx(rs, i), "round", &r);
			if (r == stop)
				at = i;
		}
		last = json_object_array_get_idx(rs, at);
	}
	if (!strcmp(o, "unavailable") || !last) {
		fprintf(f, "WA guard       unavailable: no NAND-write counter over the rounds, the guard "
			   "could not judge\n");
		return;
	}
	(void)jsonget_int(last, "round", &round);
	(void)jsonget_int(g, "blocked", &blocked);
	(void)jsonget_int(g, "first_blocked_round", &first);
	fmt(jsonget_num(last, "wa"), 2, wa, sizeof(wa));
	fmt(jsonget_num(g, "expected_wa"), 2, ex, sizeof(ex));
	fmt(100 * jsonget_num(last, "shortfall"), 1, sh, sizeof(sh));
	fmt(100 * jsonget_num(g, "tolerance"), 0, tol, sizeof(tol));
	if (!strcmp(o, "passed"))
		fprintf(f, "WA guard       passed: round %" PRId64 " WA %s against 1/(1-alpha) = %s "
			   "(short when more than %s %% below)\n",
			round, wa, ex, tol);
	else if (!strcmp(o, "delayed"))
		fprintf(f, "WA guard       delayed: %" PRId64 " verdict(s) refused from round %" PRId64
			   " (WA short), accepted at round %" PRId64 " (WA %s, %s %% below %s)\n",
			blocked, first, round, wa, sh, ex);
	else
		fprintf(f, "WA guard       short: the rounds ended at round %" PRId64 " with WA %s, %s %% "
			   "below %s (tolerance %s %%): steady state not confirmed\n",
			round, wa, sh, ex, tol);
}

/* One series: "steady state   4k randwrite IOPS 3263 (reached in rounds 1-5)" and its WA. */
static void print_steady_one(struct json_object *h, struct json_object *s, bool several, FILE *f)
{
	const char *v = S(jsonget_str(s, "verdict"));
	char a[48], b[48];
	int64_t lo = 0, hi = 0;

	(void)jsonget_int(s, "first_round", &lo);
	(void)jsonget_int(s, "last_round", &hi);
	fprintf(f, "steady state   %s ", S(jsonget_str(s, "workload")));
	print_metric(f, jsonget_str(s, "metric"), jsonget_num(s, "average"));
	if (!strcmp(v, "reached"))
		fprintf(f, " (reached in rounds %" PRId64 "-%" PRId64 ")\n", lo, hi);
	else
		fprintf(f, " (NOT reached: %s; last window rounds %" PRId64 "-%" PRId64 ")\n",
			jsonget_str(s, "reason") ? jsonget_str(s, "reason") : v, lo, hi);
	print_early(s, f);
	print_wa_guard(s, f);
	/* With several series the whole run's WA follows them once. */
	if (several)
		fprintf(f, "WA             %s in steady state\n",
			fmt(jsonget_num(s, "wa"), 2, a, sizeof(a)));
	else if (isfinite(jsonget_num(s, "wa")) || isfinite(jsonget_num(h, "wa_run")))
		fprintf(f, "WA             %s in steady state, %s whole run\n",
			fmt(jsonget_num(s, "wa"), 2, a, sizeof(a)),
			fmt(jsonget_num(h, "wa_run"), 2, b, sizeof(b)));
}

/*
 * headline.steady_state: a line per series, except that series of the same shape (an idle
 * sweep measures the same steady state after every idle) are one line with their range and
 * median, in the order of their first phase:
 *   steady state   4k randwrite 65.7-71.8 MB/s over 17 phases (median 69.5; reached in all)
 *   WA             7.54-8.33 in steady state (median 8.05)
 */
static void print_steady(struct json_object *h, struct json_object *arr, FILE *f)
{
	size_t n = json_object_array_length(arr);
	bool *done = calloc(n ? n : 1, sizeof(*done));
	double *avg = calloc(n ? n : 1, sizeof(*avg)), *wa = calloc(n ? n : 1, sizeof(*wa));

	if (!done || !avg || !wa) {
		fprintf(stderr, "headline: no memory for %zu steady-state series\n", n);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		double lo = INFINITY, hi = -INFINITY, wlo = INFINITY, whi = -INFINITY;
		size_t k = 0, nw = 0, reached = 0;
		char a[48], b[48], c[48];

		if (done[i])
			continue;
		for (size_t j = i; j < n; j++) {
			struct json_object *t = json_object_array_get_idx(arr, j);
			double x = jsonget_num(t, "average"), w = jsonget_num(t, "wa");

			if (done[j] || !same_shape(s, t))
				continue;
			done[j] = true;
			avg[k++] = x;
			lo = fmin(lo, x);
			hi = fmax(hi, x);
			if (isfinite(w)) {
				wa[nw++] = w;
				wlo = fmin(wlo, w);
				whi = fmax(whi, w);
			}
			reached += !strcmp(S(jsonget_str(t, "verdict")), "reached");
		}
		if (k == 1) {
			print_steady_one(h, s, n > 1, f);
			continue;
		}
		fprintf(f, "steady state   %s ", S(jsonget_str(s, "workload")));
		print_metric_range(f, jsonget_str(s, "metric"), lo, hi, median(avg, k), k);
		if (reached == k)
			fprintf(f, "; reached in all)\n");
		else
			fprintf(f, "; NOT reached in %zu of them)\n", k - reached);
		if (nw)
			fprintf(f, "WA             %s-%s in steady state (median %s)\n",
				fmt(wlo, 2, a, sizeof(a)), fmt(whi, 2, b, sizeof(b)),
				fmt(median(wa, nw), 2, c, sizeof(c)));
	}
out:
	free(done);
	free(avg);
	free(wa);
}

/* summary.json's surface (analysis/pass_surface.c): one line per scan, its speeds along the
 * LBAs, up to three slow regions and up to five failed LBAs (the rest are in summary.json). */
static void print_surface(struct json_object *summary, FILE *f)
{
	struct json_object *arr, *regs, *lbas;
	char a[48], b[48], c[48], d[48];

	if (!json_object_object_get_ex(summary, "surface", &arr) || !arr)
		return;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		const char *rw = jsonget_str(s, "rw");
		double nreg = jsonget_num(s, "slow_regions_total");
		double errs = jsonget_num(s, "errors_total");
		size_t nl;

		fprintf(f, "Surface %-5s  %s MB/s median (min %s at %s%%, max %s)", rw ? rw : "?",
			fmt(jsonget_num(s, "median_mbps"), 1, a, sizeof(a)),
			fmt(jsonget_num(s, "min_mbps"), 1, b, sizeof(b)),
			fmt(jsonget_num(s, "min_at_pct"), 0, c, sizeof(c)),
			fmt(jsonget_num(s, "max_mbps"), 1, d, sizeof(d)));
		if (isfinite(nreg) && nreg > 0 &&
		    json_object_object_get_ex(s, "slow_regions", &regs)) {
			fprintf(f, "; %s slow region%s below %s MB/s:", fmt(nreg, 0, a, sizeof(a)),
				nreg == 1 ? "" : "s",
				fmt(jsonget_num(s, "slow_threshold_mbps"), 1, b, sizeof(b)));
			for (size_t j = 0; j < json_object_array_length(regs) && j < 3; j++) {
				struct json_object *r = json_object_array_get_idx(regs, j);

				fprintf(f, "%s %s-%s%% at %s", j ? "," : "",
					fmt(jsonget_num(r, "from_pct"), 0, a, sizeof(a)),
					fmt(jsonget_num(r, "to_pct"), 0, b, sizeof(b)),
					fmt(jsonget_num(r, "mean_mbps"), 1, c, sizeof(c)));
			}
			if (nreg > 3)
				fprintf(f, ", ...");
		}
		if (!isfinite(errs) || errs <= 0) {
			fprintf(f, "; no %s errors\n", rw ? rw : "I/O");
			continue;
		}
		fprintf(f, "; %s failed LBA%s:", fmt(errs, 0, a, sizeof(a)), errs == 1 ? "" : "s");
		nl = json_object_object_get_ex(s, "error_lbas", &lbas)
			 ? json_object_array_length(lbas)
			 : 0;
		for (size_t j = 0; j < nl && j < 5; j++)
			fprintf(f, " %s",
				fmt(json_object_get_double(json_object_array_get_idx(lbas, j)), 0,
				    a, sizeof(a)));
		fprintf(f, "%s\n", errs > 5 ? " ..." : "");
	}
}

void headline_print(struct json_object *summary, FILE *f)
{
	struct json_object *h, *arr, *x;
	char a[48], b[48], c[48];

	if (!json_object_object_get_ex(summary, "headline", &h))
		return;
	if (json_object_object_get_ex(h, "steady_state", &arr))
		print_steady(h, arr, f);
	if ((!json_object_object_get_ex(h, "steady_state", &arr) ||
	     json_object_array_length(arr) != 1) &&
	    isfinite(jsonget_num(h, "wa_run")))
		fprintf(f, "WA             %s whole run\n",
			fmt(jsonget_num(h, "wa_run"), 2, a, sizeof(a)));
	/* An idle sweep (a gc_recovery over its idles): one table in one time base rather than a
	 * line per idle; a run with a few unrelated idles keeps its lines. */
	if (json_object_object_get_ex(h, "recovery", &arr) && json_object_array_length(arr) > 1 &&
	    json_object_object_get_ex(summary, "gc_recovery", &x) && x)
		(void)headline_print_recovery_table(summary, arr, f);
	else if (json_object_object_get_ex(h, "recovery", &arr))
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *r = json_object_array_get_idx(arr, i);
			double idle = jsonget_num(r, "idle_profile_ns"),
			       ch = jsonget_num(r, "first_change");
			char label[64];

			units_fmt_duration(isfinite(idle) && idle > 0 ? (uint64_t)idle : 0, a,
					   sizeof(a));
			snprintf(label, sizeof(label), "after %s idle", a);
			fprintf(f, "%-14s ", label);
			print_metric(f, jsonget_str(r, "metric"), jsonget_num(r, "first"));
			fprintf(f, " (%s%s%%), ", ch >= 0 ? "+" : "",
				fmt(100 * ch, 0, b, sizeof(b)));
			if (json_object_object_get_ex(r, "back_after_profile_ns", &x) && x) {
				units_fmt_duration(
				    (uint64_t)jsonget_num(r, "back_after_profile_ns"), c,
				    sizeof(c));
				fprintf(f, "back to steady state after %s of writing", c);
			} else {
				fprintf(f, "not back to steady state within the measured rounds");
			}
			/* The rule, so that a reader does not take one round for "back". */
			if (json_object_object_get_ex(r, "rule", &x) && x)
				fprintf(f, " (rule: %s rounds in a row within %s%%)\n",
					fmt(jsonget_num(x, "rounds"), 0, b, sizeof(b)),
					fmt(100 * jsonget_num(x, "band"), 0, c, sizeof(c)));
			else
				fputc('\n', f);
		}
	headline_print_gcrate(summary, f);
	headline_print_gcpasses(summary, f);
	headline_print_trimcheck(summary, f);
	print_surface(summary, f);
	headline_print_opvariants(summary, f);
	print_results(h, f);
	print_wsat(summary, h, f);
	headline_print_snia(summary, f);
	headline_print_slc(summary, f);
	print_flags(summary, f);
}

void headline_print_details(struct json_object *summary, FILE *f)
{
	struct json_object *arr, *x;
	char a[48], b[48], c[48], d[48], e[48];

	if (json_object_object_get_ex(summary, "steady_state", &arr))
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *s = json_object_array_get_idx(arr, i);
			double avg = jsonget_num(s, "average");
			int64_t p = 0, lo = 0, hi = 0;

			(void)jsonget_int(s, "phase", &p);
			(void)jsonget_int(s, "first_round", &lo);
			(void)jsonget_int(s, "last_round", &hi);
			fprintf(f, "steady state, phase %" PRId64 " %s %s: %s", p,
				S(jsonget_str(s, "cell")), S(jsonget_str(s, "metric")),
				S(jsonget_str(s, "verdict")));
			if (isfinite(avg) && avg > 0)
				fprintf(f,
					", rounds %" PRId64 "-%" PRId64
					", average %s, data excursion %s%% (max %s%%), slope "
					"excursion %s%% (max %s%%)",
					lo, hi, fmt(avg, 1, a, sizeof(a)),
					fmt(100 * jsonget_num(s, "data_excursion") / avg, 1, b,
					    sizeof(b)),
					fmt(100 * jsonget_num(s, "allowed_data_excursion") / avg, 0,
					    c, sizeof(c)),
					fmt(100 * jsonget_num(s, "slope_excursion") / avg, 1, d,
					    sizeof(d)),
					fmt(100 * jsonget_num(s, "allowed_slope_excursion") / avg,
					    0, e, sizeof(e)));
			fputc('\n', f);
		}
	if (json_object_object_get_ex(summary, "cells", &arr)) {
		size_t n = json_object_array_length(arr), shown = 0;

		for (size_t i = 0; i < n && shown < 16; i++) {
			struct json_object *s = json_object_array_get_idx(arr, i), *t, *lat = NULL;
			const char *cell;
			int64_t p = 0;

			if (!json_object_object_get_ex(s, "total", &t))
				continue;
			(void)json_object_object_get_ex(t, "lat_ns", &lat);
			(void)jsonget_int(s, "phase", &p);
			cell = S(jsonget_str(s, "cell"));
			fprintf(f,
				"phase %" PRId64
				" %s%s%s: %s IOPS, %s MB/s, mean %s us, p99 %s us\n",
				p, S(jsonget_str(s, "kind")), *cell ? " " : "", cell,
				fmt(jsonget_num(t, "iops"), 0, a, sizeof(a)),
				fmt(jsonget_num(t, "bw_bps") / 1e6, 1, b, sizeof(b)),
				fmt(lat ? jsonget_num(lat, "mean") / 1e3 : NAN, 1, c, sizeof(c)),
				fmt(lat ? jsonget_num(lat, "p99") / 1e3 : NAN, 1, d, sizeof(d)));
			shown++;
		}
		if (n > shown)
			fprintf(f, "(%zu more cells in summary.json)\n", n - shown);
	}
	if (json_object_object_get_ex(summary, "wa", &x)) {
		struct json_object *run;

		if (json_object_object_get_ex(x, "phases", &arr))
			for (size_t i = 0; i < json_object_array_length(arr); i++) {
				struct json_object *w = json_object_array_get_idx(arr, i);
				int64_t p = 0;

				if (!isfinite(jsonget_num(w, "wa")))
					continue;
				(void)jsonget_int(w, "phase", &p);
				fprintf(f, "write amplification, phase %" PRId64 ": ", p);
				print_wa(f, w);
			}
		if (json_object_object_get_ex(x, "run", &run) && run) {
			const char *why = jsonget_str(run, "wa_reason");

			/* A null WA is printed with its reason only where a counter source was
			 * there to give one: a loop device's "no counters" is no news. */
			if (isfinite(jsonget_num(run, "wa"))) {
				fprintf(f, "write amplification, whole run: ");
				print_wa(f, run);
			} else if (why && strncmp(why, "no counters", 11))
				fprintf(f, "write amplification, whole run: n/a (%s)\n", why);
		}
	}
}
