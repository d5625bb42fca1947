/* SPDX-License-Identifier: MIT */
/*
 * section_curves: the probes' curves (docs/slc-cache.md, gc-recovery.md, op-variants.md,
 * surface.md):
 *   SLC cache    the probe's write speed against bytes written (from its series through the
 *                analysis reader) with the detected levels drawn over it, and the levels' table;
 *   GC recovery  recovered bytes against idle time with the chosen model's fitted curve
 *                (analysis/gcrate.h: linear-capped R = min(r (t - t0), Rmax), exponential
 *                R = Rmax (1 - exp(-(t - t0) / tau)), 0 before t0);
 *   op variants  measured WA against the user capacity fraction beside the greedy model's WA
 *                (analysis/theory.h) at the same fractions, nominal and effective spare;
 *   surface      each scan's speed and maximum latency against position (the reader's chunks).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "analysis/reader.h"
#include "base/jsonget.h"
#include "report/section.h"
#include "results/records.h"

static void slc(struct section_ctx *c)
{
	static const char *const head[] = {"probe", "phase", "level", "bytes_from", "bytes_to",
					   "mbps", "mbps_lo", "mbps_hi"};
	struct json_object *probes = section_get(c->summary, "slc_cache");
	struct section_table t;

	if (!section_alen(probes))
		return;
	section_heading(c, 2, "slc", "SLC cache", true);
	section_table_init(&t, "slc_levels", "SLC-cache probe levels (MB/s: 10^6 bytes per second "
					     "of target time)", 8, head, true);
	for (size_t i = 0; i < section_alen(probes); i++) {
		struct json_object *p = json_object_array_get_idx(probes, i), *lv = section_get(p, "levels");
		for (size_t j = 0; j < section_alen(lv); j++) {
			struct json_object *l = json_object_array_get_idx(lv, j);
			section_table_num(&t, (double)i);
			section_table_json(&t, p, "phase");
			section_table_num(&t, (double)j + 1);
			for (size_t k = 3; k < 8; k++)
				section_table_json(&t, l, head[k]);
		}
	}
	section_emit_table(c, &t);
	section_table_release(&t);

	for (size_t i = 0; i < section_alen(probes); i++) {
		struct json_object *p = json_object_array_get_idx(probes, i), *lv = section_get(p, "levels");
		struct reader_slc_series s = {0};
		size_t nl = section_alen(lv), n;
		double *x = NULL, *y = NULL, *lx = NULL, *ly = NULL;
		struct svg_series se[2];
		struct svg_plot pl = {0};
		char id[48];

		if (reader_slc_series(c->dir, (int64_t)jsonget_num(p, "phase"),
				      (int64_t)jsonget_num(p, "repeat"), &s) || s.n < 2)
			goto next;
		n = s.n - 1;
		x = calloc(n, sizeof(*x));
		y = calloc(n, sizeof(*y));
		lx = calloc(2 * nl + 1, sizeof(*lx));
		ly = calloc(2 * nl + 1, sizeof(*ly));
		if (!x || !y || !lx || !ly) {
			section_fail(c, -ENOMEM, "SLC plot");
			goto next;
		}
		/* the speed of each interval between two rows, at the interval's end */
		for (size_t r = 1; r < s.n; r++) {
			x[r - 1] = (double)s.bytes[r] / 1e9;
			y[r - 1] = (double)(s.bytes[r] - s.bytes[r - 1]) /
				   (double)(s.t_ns[r] - s.t_ns[r - 1]) * 1e3;
		}
		/* each level a flat step from its first to its last byte */
		for (size_t j = 0; j < nl; j++) {
			struct json_object *l = json_object_array_get_idx(lv, j);
			lx[2 * j] = jsonget_num(l, "bytes_from") / 1e9;
			lx[2 * j + 1] = jsonget_num(l, "bytes_to") / 1e9;
			ly[2 * j] = ly[2 * j + 1] = jsonget_num(l, "mbps");
		}
		se[0] = (struct svg_series){"write speed per sample", x, y, n, SVG_LINE};
		se[1] = (struct svg_series){"detected levels", lx, ly, 2 * nl, SVG_DASHED};
		snprintf(id, sizeof(id), "slc-curve-%zu", i);
		pl.id = id;
		pl.title = "SLC cache: write speed against bytes written, with the detected levels";
		pl.x = (struct svg_axis){"written", "GB (10^9 bytes)", false};
		pl.y = (struct svg_axis){"write speed", "MB/s", false};
		pl.series = se;
		pl.nseries = nl ? 2 : 1;
		section_emit_plot(c, &pl);
next:
		free(x);
		free(y);
		free(lx);
		free(ly);
		reader_slc_series_release(&s);
	}
}

/* The model of gc_recovery at t seconds (gcrate.h); NaN for a model it does not know. */
static double gc_model(const char *model, double r, double rmax, double tau, double t0, double t)
{
	if (!model)
		return NAN;
	if (!strcmp(model, "linear_capped"))
		return t < t0 ? 0 : fmin(r * (t - t0), rmax);
	if (!strcmp(model, "exponential"))
		return t < t0 ? 0 : rmax * (1 - exp(-(t - t0) / tau));
	return NAN;
}

static void gc_recovery(struct section_ctx *c)
{
	static const char *const head[] = {"idle_phase", "idle_repeat", "idle_ns", "idle_profile_ns",
					   "recovered_bytes", "excess_bytes", "steady_bps", "back"};
	struct json_object *g = section_get(c->summary, "gc_recovery"), *pts = section_get(g, "points");
	const char *model = jsonget_str(g, "model");
	double r = jsonget_num(g, "r"), rmax = jsonget_num(g, "rmax"), tau = jsonget_num(g, "tau");
	double t0 = jsonget_num(g, "t0"), tmax = 0, px[256], py[256], cx[65], cy[65];
	size_t n = section_alen(pts), np = 0, nc = 0;
	struct section_table t;
	struct svg_series se[2];
	struct svg_plot pl = {0};

	if (!n)
		return;
	section_heading(c, 2, "gc-recovery", "GC recovery after idle", true);
	section_table_init(&t, "gc_recovery_points", "GC recovery per idle (target time)", 8, head,
			   true);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(pts, i);
		for (size_t j = 0; j < 8; j++)
			section_table_json(&t, e, head[j]);
		if (np < 256) {
			px[np] = jsonget_num(e, "idle_ns") / 1e9;
			py[np] = jsonget_num(e, "recovered_bytes");
			tmax = fmax(tmax, px[np]);
			np++;
		}
	}
	section_emit_table(c, &t);
	section_table_release(&t);
	if (!isfinite(t0))
		t0 = 0;
	/* 65 points from 0 to the longest idle: enough for the cap's corner to show */
	for (size_t i = 0; i <= 64 && isfinite(gc_model(model, r, rmax, tau, t0, 0)); i++) {
		cx[nc] = tmax * (double)i / 64;
		cy[nc] = gc_model(model, r, rmax, tau, t0, cx[nc]);
		nc++;
	}
	se[0] = (struct svg_series){"recovered bytes per idle", px, py, np, SVG_POINTS};
	se[1] = (struct svg_series){model ? model : "fit", cx, cy, nc, SVG_DASHED};
	pl.id = "gc-recovery";
	pl.title = "GC recovery: bytes recovered against idle time, with the fitted model";
	pl.x = (struct svg_axis){"idle time", "s (target time)", false};
	pl.y = (struct svg_axis){"recovered", "bytes", false};
	pl.series = se;
	pl.nseries = nc ? 2 : 1;
	section_emit_plot(c, &pl);
}

/* A variant's measured WA: its `wa`, a number, or a phase's wa entry whose `wa` it is. */
static double variant_wa(struct json_object *e)
{
	struct json_object *w = section_get(e, "wa");

	if (w && json_object_is_type(w, json_type_object))
		return jsonget_num(w, "wa");
	return jsonget_num(e, "wa");
}

static void op_variants(struct section_ctx *c)
{
	static const char *const head[] = {"variant", "fraction", "user_capacity",
					   "spare_added_fraction", "iops", "wa", "model_wa",
					   "model_effective_wa", "greedy_model_absent"};
	struct json_object *v = section_get(c->summary, "op_variants");
	size_t n = section_alen(v), nm = 0, ne = 0;
	double x[64], wa[64], mx[64], my[64], ex[64], ey[64];
	struct section_table t;
	struct svg_series se[3];
	struct svg_plot pl = {0};

	if (!n)
		return;
	section_heading(c, 2, "op-variants", "Over-provisioning variants", true);
	section_table_init(&t, "op_variants", "OP variants: measured WA and the greedy model's", 9,
			   head, true);
	for (size_t i = 0; i < n && i < 64; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		struct json_object *gm = section_get(e, "greedy_model"),
				   *ge = section_get(e, "greedy_model_effective");
		for (size_t j = 0; j < 5; j++)
			section_table_json(&t, e, head[j]);
		section_table_num(&t, variant_wa(e));
		section_table_json(&t, gm, "wa");
		section_table_json(&t, ge, "wa");
		section_table_json(&t, e, "greedy_model_absent");
		x[i] = jsonget_num(e, "fraction");
		wa[i] = variant_wa(e);
		if (isfinite(jsonget_num(gm, "wa"))) {
			mx[nm] = x[i];
			my[nm++] = jsonget_num(gm, "wa");
		}
		if (isfinite(jsonget_num(ge, "wa"))) {
			ex[ne] = x[i];
			ey[ne++] = jsonget_num(ge, "wa");
		}
	}
	section_emit_table(c, &t);
	section_table_release(&t);
	se[0] = (struct svg_series){"measured WA", x, wa, n < 64 ? n : 64, SVG_POINTS};
	se[1] = (struct svg_series){"greedy model (nominal spare)", mx, my, nm, SVG_DASHED};
	se[2] = (struct svg_series){"greedy model (effective spare)", ex, ey, ne, SVG_DASHED};
	pl.id = "op-variants";
	pl.title = "OP variants: write amplification against user capacity";
	pl.x = (struct svg_axis){"user capacity", "fraction of the drive", false};
	pl.y = (struct svg_axis){"write amplification", "NAND / host bytes", false};
	pl.series = se;
	pl.nseries = nm ? (ne ? 3 : 2) : 1;
	section_emit_plot(c, &pl);
}

static void surface(struct section_ctx *c)
{
	struct results_records rr = {0};
	struct reader_surface_scan *s = NULL;
	size_t n = 0;
	int rc;

	if (!section_alen(section_get(c->summary, "surface")))
		return;
	rc = results_read_records(c->dir, &rr);
	if (!rc)
		rc = reader_surface_scans(&rr, &s, &n);
	if (rc) {
		section_fail(c, rc, "surface records");
		goto out;
	}
	section_heading(c, 2, "surface", "Surface scan", true);
	for (size_t i = 0; i < n; i++) {
		double *pos = calloc(s[i].n ? s[i].n : 1, sizeof(*pos));
		struct svg_series se;
		struct svg_plot pl = {0};
		char id[48], title[96], key[96];

		if (!pos) {
			section_fail(c, -ENOMEM, "surface plot");
			goto out;
		}
		/* each chunk at its middle, in percent of the capacity (as the series CSV) */
		for (size_t k = 0; k < s[i].n; k++)
			pos[k] = ((double)k + 0.5) * (double)s[i].chunk_bytes / (double)s[i].capacity * 100;
		for (int pass = 0; pass < 2; pass++) {
			se = (struct svg_series){pass ? "max latency" : "speed", pos,
						 pass ? s[i].max_lat_ns : s[i].mbps, s[i].n, SVG_LINE};
			snprintf(id, sizeof(id), "surface-%s-%zu", pass ? "latency" : "speed", i);
			snprintf(title, sizeof(title), "Surface %s scan (phase %lld): %s against position",
				 s[i].write ? "write" : "read", (long long)s[i].phase,
				 pass ? "maximum latency" : "speed");
			snprintf(key, sizeof(key), "Surface %s scan: %s against position",
				 s[i].write ? "write" : "read", pass ? "maximum latency" : "speed");
			pl.id = id;
			pl.title = title;
			pl.key = key; /* without the phase number */
			pl.x = (struct svg_axis){"position", "% of capacity", false};
			pl.y = pass ? (struct svg_axis){"max latency", "ns", true}
				    : (struct svg_axis){"speed", "MB/s", false};
			pl.series = &se;
			pl.nseries = 1;
			section_emit_plot(c, &pl);
		}
		free(pos);
	}
out:
	reader_surface_free(s, n);
	results_records_release(&rr);
}

void section_curves(struct section_ctx *c)
{
	slc(c);
	gc_recovery(c);
	op_variants(c);
	surface(c);
}
