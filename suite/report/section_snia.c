/* SPDX-License-Identifier: MIT */
/*
 * section_snia: the SNIA PTS blocks of summary.json (docs/results-format.md, "snia blocks"), each
 * shown the way a PTS report shows it: the IOPS test's matrix (block sizes down, R/W mixes
 * across, the spec's order kept) with IOPS against block size on log axes and the per-round
 * convergence of every tracked cell; the throughput and latency tables with their convergence;
 * WSAT's IOPS against time and against bytes written with its plateau, drop and steady level.
 * The header of the first block (the operator's PTS choices) is a table of its own.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "report/section.h"

enum { MAXCELLS = 256, MAXMIX = 16 };

/* Convergence: every tracked cell's per-round figure `metric`, at most 8 cells to a plot (a
 * legend of 56 would hide the lines), the cells in the block's order. */
static void convergence(struct section_ctx *c, struct json_object *track, const char *metric,
			const char *unit, const char *idbase)
{
	size_t n = section_alen(track), per = 8;

	for (size_t from = 0; from < n; from += per) {
		size_t m = n - from < per ? n - from : per, used = 0;
		struct svg_series se[8];
		double *xs[8] = {0}, *ys[8] = {0};
		struct svg_plot p = {0};
		char id[96], title[160], key[96];

		for (size_t i = 0; i < m; i++) {
			struct json_object *e = json_object_array_get_idx(track, from + i);
			size_t nx = 0, ny = 0;

			xs[used] = section_numbers(section_get(e, "rounds"), 1, &nx);
			ys[used] = section_numbers(section_get(e, metric), 1, &ny);
			if (!xs[used] || !ys[used] || nx != ny) {
				free(xs[used]);
				free(ys[used]);
				xs[used] = ys[used] = NULL;
				continue;
			}
			se[used] = (struct svg_series){jsonget_str(e, "cell"), xs[used], ys[used], nx,
						       SVG_LINE};
			used++;
		}
		snprintf(id, sizeof(id), "%s-convergence-%zu", idbase, from / per + 1);
		snprintf(title, sizeof(title), "Steady-state convergence: %s per round (cells %zu-%zu)",
			 metric, from + 1, from + m);
		snprintf(key, sizeof(key), "Steady-state convergence: %s per round", metric);
		p.id = id;
		p.title = title;
		p.key = key; /* the cells' grouping into plots is the report's layout, not the data */
		p.x = (struct svg_axis){"round", "", false};
		p.y = (struct svg_axis){metric, unit, false};
		p.series = se;
		p.nseries = used;
		if (used)
			section_emit_plot(c, &p);
		for (size_t i = 0; i < used; i++) {
			free(xs[i]);
			free(ys[i]);
		}
	}
}

static void header_table(struct section_ctx *c, struct json_object *b, size_t k)
{
	static const char *const head[] = {"key", "value"};
	static const char *const keys[] = {"profile", "test_from", "spec", "variant", "active_range",
					   "active_range_amount", "write_cache", "data_pattern",
					   "toio", "purge"};
	struct json_object *h = section_get(b, "header");
	struct section_table t;
	char id[64];

	if (!h)
		return;
	snprintf(id, sizeof(id), "snia_header_%zu", k);
	section_table_init(&t, id, "PTS test parameters (snia header)", 2, head, true);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		section_table_str(&t, keys[i]);
		section_table_json(&t, h, keys[i]);
	}
	section_emit_table(c, &t);
	section_table_release(&t);
}

static void iops_block(struct section_ctx *c, struct json_object *b, size_t k)
{
	struct json_object *mx = section_get(b, "matrix");
	double mixes[MAXMIX], bss[MAXCELLS];
	size_t nmix = 0, nbs = 0, n = section_alen(mx);
	const char **head = NULL;
	char **names = NULL, id[64];
	struct section_table t;

	/* the mixes and block sizes in the block's (the spec's) order */
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(mx, i);
		double mix = jsonget_num(e, "rwmix_read"), bs = jsonget_num(e, "bs");
		size_t j;

		if (!isfinite(mix) || !isfinite(bs))
			continue;
		for (j = 0; j < nmix && mixes[j] != mix; j++)
			;
		if (j == nmix && nmix < MAXMIX)
			mixes[nmix++] = mix;
		for (j = 0; j < nbs && bss[j] != bs; j++)
			;
		if (j == nbs && nbs < MAXCELLS)
			bss[nbs++] = bs;
	}
	if (!nmix)
		return;
	head = calloc(nmix + 1, sizeof(*head));
	names = calloc(nmix, sizeof(*names));
	if (!head || !names) {
		section_fail(c, -ENOMEM, "IOPS matrix");
		goto out;
	}
	head[0] = "bs";
	for (size_t j = 0; j < nmix; j++) {
		if (asprintf(&names[j], "rwmix_read=%g", mixes[j]) < 0) {
			names[j] = NULL;
			section_fail(c, -ENOMEM, "IOPS matrix");
			goto out;
		}
		head[j + 1] = names[j];
	}
	snprintf(id, sizeof(id), "snia_iops_matrix_%zu", k);
	section_table_init(&t, id, "IOPS matrix (mean IOPS of the measurement window; block size in "
				   "bytes down, % read across)",
			   nmix + 1, head, true);
	for (size_t r = 0; r < nbs; r++) {
		section_table_num(&t, bss[r]);
		for (size_t j = 0; j < nmix; j++) {
			const char *cellv = "";
			double v = NAN;
			for (size_t i = 0; i < n; i++) {
				struct json_object *e = json_object_array_get_idx(mx, i);
				if (jsonget_num(e, "rwmix_read") != mixes[j] || jsonget_num(e, "bs") != bss[r])
					continue;
				if (jsonget_str(e, "not_applicable"))
					cellv = "n/a";
				else
					v = jsonget_num(e, "iops");
			}
			if (isfinite(v))
				section_table_num(&t, v);
			else
				section_table_str(&t, cellv);
		}
	}
	section_emit_table(c, &t);
	section_table_release(&t);

	/* IOPS against block size, one line per mix, both axes log (PTS's 2D plot) */
	{
		struct svg_series se[MAXMIX];
		double xs[MAXMIX][64], ys[MAXMIX][64];
		struct svg_plot p = {0};
		char pid[64];

		for (size_t j = 0; j < nmix; j++) {
			size_t m = 0;
			for (size_t i = 0; i < n && m < 64; i++) {
				struct json_object *e = json_object_array_get_idx(mx, i);
				double v = jsonget_num(e, "iops");
				if (jsonget_num(e, "rwmix_read") != mixes[j] || !isfinite(v))
					continue;
				xs[j][m] = jsonget_num(e, "bs") / 1024.0;
				ys[j][m++] = v;
			}
			se[j] = (struct svg_series){names[j], xs[j], ys[j], m, SVG_LINE};
		}
		snprintf(pid, sizeof(pid), "snia-iops-bs-%zu", k);
		p.id = pid;
		p.title = "IOPS against block size, per R/W mix";
		p.x = (struct svg_axis){"block size", "KiB", true};
		p.y = (struct svg_axis){"IOPS", "I/O per s", true};
		p.series = se;
		p.nseries = nmix;
		section_emit_plot(c, &p);
	}
	snprintf(id, sizeof(id), "snia-iops-%zu", k);
	convergence(c, section_get(b, "tracking"), "iops", "I/O per s", id);
out:
	for (size_t j = 0; names && j < nmix; j++)
		free(names[j]);
	free(names);
	free(head);
}

static void rows_table(struct section_ctx *c, struct json_object *rows, const char *id,
		       const char *title, const char *const *head, size_t ncols)
{
	struct section_table t;

	section_table_init(&t, id, title, ncols, head, true);
	for (size_t i = 0; i < section_alen(rows); i++) {
		struct json_object *e = json_object_array_get_idx(rows, i);
		for (size_t j = 0; j < ncols; j++) {
			if (!strncmp(head[j], "p99", 3)) { /* percentiles.<p>.ns */
				char key[16];
				snprintf(key, sizeof(key), "%.*s", (int)(strlen(head[j]) - 3), head[j]);
				section_table_json(&t, section_get(section_get(e, "percentiles"), key), "ns");
			} else {
				section_table_json(&t, e, head[j]);
			}
		}
	}
	section_emit_table(c, &t);
	section_table_release(&t);
}

static void throughput_block(struct section_ctx *c, struct json_object *b, size_t k)
{
	static const char *const head[] = {"cell", "rw", "bs", "direction", "mb_s", "rounds",
					   "not_applicable"};
	char id[64];

	snprintf(id, sizeof(id), "snia_throughput_%zu", k);
	rows_table(c, section_get(b, "table"), id, "Throughput (MB/s, 10^6 bytes per second; mean of the "
					   "measurement window)", head, 7);
	snprintf(id, sizeof(id), "snia-throughput-%zu", k);
	convergence(c, section_get(b, "tracking"), "mb_s", "MB/s", id);
}

static void latency_block(struct section_ctx *c, struct json_object *b, size_t k)
{
	static const char *const head[] = {"cell", "rwmix_read", "bs", "rounds", "samples",
					   "mean_ns", "max_ns", "p99_ns", "p99_9_ns", "p99_99_ns",
					   "p99_999_ns", "not_applicable"};
	char id[64];

	snprintf(id, sizeof(id), "snia_latency_%zu", k);
	rows_table(c, section_get(b, "table"), id, "Response time (ns; histograms merged over the "
					   "measurement window)", head, 12);
}

static void wsat_block(struct section_ctx *c, struct json_object *b, size_t k)
{
	static const char *const head[] = {"level", "iops", "chunks", "bytes", "x"};
	struct json_object *s = section_get(b, "series"), *pl = section_get(b, "plateau"), *dr = section_get(b, "drop");
	struct json_object *st = section_get(b, "steady");
	double *t = NULL, *x = NULL, *iops = NULL;
	size_t nt = 0, nx = 0, ni = 0;
	struct section_table tab;
	struct svg_series se;
	struct svg_plot p = {0};
	char id[64];

	snprintf(id, sizeof(id), "snia_wsat_%zu", k);
	section_table_init(&tab, id, "WSAT levels", 5, head, true);
	if (pl) {
		section_table_str(&tab, "plateau");
		section_table_json(&tab, pl, "iops");
		section_table_json(&tab, pl, "chunks");
		section_table_json(&tab, pl, "end_bytes");
		section_table_json(&tab, pl, "end_x");
	}
	if (dr) {
		section_table_str(&tab, "drop");
		section_table_str(&tab, "");
		section_table_json(&tab, dr, "chunk");
		section_table_json(&tab, dr, "bytes");
		section_table_json(&tab, dr, "x");
	}
	if (st) {
		section_table_str(&tab, "steady");
		section_table_json(&tab, st, "iops");
		section_table_json(&tab, st, "chunks");
		section_table_json(&tab, st, "from_bytes");
		section_table_json(&tab, st, "from_x");
	}
	section_emit_table(c, &tab);
	section_table_release(&tab);

	/* minutes of the profile's time: what the PTS plots (t_profile_ns undoes the time scale) */
	t = section_numbers(section_get(s, "t_profile_ns"), 1.0 / 60e9, &nt);
	x = section_numbers(section_get(s, "x"), 1, &nx);
	iops = section_numbers(section_get(s, "iops"), 1, &ni);
	if (!t || !x || !iops || nt != ni || nx != ni)
		goto out;
	se = (struct svg_series){"IOPS", t, iops, ni, SVG_LINE};
	snprintf(id, sizeof(id), "snia-wsat-time-%zu", k);
	p.id = id;
	p.title = "WSAT: IOPS against time";
	p.x = (struct svg_axis){"time", "min (profile time)", false};
	p.y = (struct svg_axis){"IOPS", "I/O per s", false};
	p.series = &se;
	p.nseries = 1;
	section_emit_plot(c, &p);
	se.x = x;
	snprintf(id, sizeof(id), "snia-wsat-written-%zu", k);
	p.id = id;
	p.title = "WSAT: IOPS against bytes written";
	p.x = (struct svg_axis){"written", "x capacity", false};
	section_emit_plot(c, &p);
out:
	free(t);
	free(x);
	free(iops);
}

/*
 * A *-fast profile's block (analysis/pass_snia.c, header.fast): what the run did and what that
 * means for its figures, before them (docs/fast-steady-state.md).
 */
static void fast_para(struct section_ctx *c, struct json_object *b)
{
	struct json_object *f = section_get(section_get(b, "header"), "fast");
	const char *text = jsonget_str(f, "text");
	char msg[2000];

	if (!text)
		return;
	snprintf(msg, sizeof(msg),
		 "A %s. The drive was brought to random-write steady state "
		 "by the sprandom fill (about its physical capacity written once, laid out as "
		 "uniform random writes leave a greedy-GC drive) instead of 2x the capacity in "
		 "sequential writes and rounds of the whole matrix; the steady-state verdict below "
		 "is the tracked cell's own tracking rounds', and the figures come from the matrix "
		 "rounds after the first (the first rebuilds the layout large-block reads depend "
		 "on). The figures are meant to be within 5 %% of a full run's; large-block reads "
		 "are lower than in a full run whose window holds its first round, when the "
		 "sequential precondition's layout still serves them. Tail latency (p99 and "
		 "beyond) is one round's as well, where a full run's window holds five: expect it "
		 "as far from a full run's as one round of that run is from its window, often "
		 "more than 5 %% (docs/fast-steady-state.md, \"Tail latency per cell\"). %s",
		 text,
		 section_get(f, "snia_window_completed") &&
			 !json_object_get_boolean(section_get(f, "snia_window_completed"))
		     ? "The early verdict stopped the tracking rounds: the SNIA window was not "
		       "completed."
		     : "The tracking rounds completed the SNIA window.");
	section_para(c, msg);
	text = jsonget_str(f, "forced_past");
	if (text) {
		snprintf(msg, sizeof(msg),
			 "Forced: the sprandom fill ran where ssdlab refuses it (%s; the profile's "
			 "precondition said force: true). The figures are not expected within 5 %% "
			 "of a full run's here (docs/fast-steady-state.md, \"Where the profile must "
			 "refuse the shortcut\").",
			 text);
		section_para(c, msg);
	}
	/* the block's check of its own matrix rounds (analysis/pass_snia_fast.c) */
	text = jsonget_str(section_get(f, "rounds_check"), "text");
	if (text) {
		snprintf(msg, sizeof(msg), "Matrix rounds: %s.", text);
		section_para(c, msg);
	}
}

void section_snia(struct section_ctx *c)
{
	struct json_object *snia = section_get(c->summary, "snia");
	size_t n = section_alen(snia);

	if (!n)
		return;
	section_heading(c, 2, "snia", "SNIA PTS tests", true);
	for (size_t k = 0; k < n; k++) {
		struct json_object *b = json_object_array_get_idx(snia, k);
		const char *test = jsonget_str(b, "test");
		char title[96], id[32];

		if (!test)
			continue;
		snprintf(title, sizeof(title), "%s (phase %lld)", test, (long long)jsonget_num(b, "phase"));
		snprintf(id, sizeof(id), "snia-%zu", k);
		section_heading(c, 3, id, title, true);
		if (k == 0)
			header_table(c, b, k);
		fast_para(c, b);
		if (!strcmp(test, "iops"))
			iops_block(c, b, k);
		else if (!strcmp(test, "throughput"))
			throughput_block(c, b, k);
		else if (!strcmp(test, "latency"))
			latency_block(c, b, k);
		else if (!strcmp(test, "wsat"))
			wsat_block(c, b, k);
		else if (!section_snia_more(c, b, k))
			section_para(c, "A block of a test this version of the report does not know; "
					"its figures are in summary.json.");
	}
}
