/* SPDX-License-Identifier: MIT */
/*
 * pass_snia: the analysis pass for summary.json's "snia" (issue 15 point 1): per PTS test phase
 * of a snia-* profile (or of the old "wsat"), the block a SNIA PTS report shows: a test header
 * (profile, PTS version, operator choices, purge method, drive identity), the phase's
 * steady-state entry, and the test's tables: the IOPS matrix and its tracking series, the
 * throughput table, the latency table (from histograms merged over the window, with the samples
 * behind each percentile), or the WSAT curves and levels (pass_snia_wsat.c). The numbers come
 * from the reader's typed arrays and the pure module snia.h; the earlier keys steady_state
 * (windows) and cells (not applicable cells) are read from the summary. A pass of analyze.c's
 * table (pass.h).
 */
#include "analysis/pass.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/hist.h"
#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "analysis/reader.h"
#include "analysis/snia.h"

/* The manifest's "pts" keys copied into the header, in the order the manifest has them. */
static const char *const pts_keys[] = {"spec",	      "variant",    "active_range",
				       "active_range_amount", "write_cache", "data_pattern",
				       "toio"};

/* The profile's name: manifest profile.name, else plan.name; NULL when neither. */
static const char *profile_name(struct json_object *m)
{
	struct json_object *o;
	const char *s = NULL;

	if (json_object_object_get_ex(m, "profile", &o))
		s = jsonget_str(o, "name");
	if (!s && json_object_object_get_ex(m, "plan", &o))
		s = jsonget_str(o, "name");
	return s;
}

/* Which test the run is: the manifest's pts.test, else from the profile's name. */
static enum snia_test run_test(struct json_object *m, struct json_object **pts)
{
	enum snia_test t;

	*pts = NULL;
	if (json_object_object_get_ex(m, "pts", pts) && json_object_is_type(*pts, json_type_object) &&
	    (t = snia_test_parse(jsonget_str(*pts, "test"))) != SNIA_NONE)
		return t;
	*pts = NULL;
	return snia_test_from_profile(profile_name(m));
}

static void add_str(struct json_object *o, const char *key, const char *s, int *e)
{
	if (s)
		jsonnum_build_add(o, key, json_object_new_string(s), e);
	else
		jsonnum_build_num(o, key, NAN, e);
}

/* A copy of member key of src into dst (JSON null when absent). */
static void copy_key(struct json_object *dst, struct json_object *src, const char *key, int *e)
{
	struct json_object *v = NULL;

	if (src && json_object_object_get_ex(src, key, &v) && v)
		jsonnum_build_add(dst, key, json_object_get(v), e);
	else
		jsonnum_build_num(dst, key, NAN, e);
}

/* The purge record that prepared phase `phase`: the last one of an earlier phase. */
static const struct reader_purge *purge_before(const struct reader_purge *p, size_t n,
					       int64_t phase)
{
	const struct reader_purge *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (p[i].phase < phase)
			best = &p[i];
	return best;
}

/*
 * The test header: the profile, where the test and the choices come from, the manifest's pts
 * keys (or "not recorded" for a run made before they were recorded), the purge that prepared
 * the phase, and the drive as the manifest's target names it.
 */
static struct json_object *header_json(const struct analyze_input *in, struct json_object *pts,
				       const struct reader_purge *pu)
{
	static const char *const drive_keys[] = {
	    "kind", "model", "serial", "wwn", "firmware", "capacity", "logical_block_size",
	    "physical_block_size", "rotational"};
	struct json_object *h = json_object_new_object(), *tgt = NULL, *d, *x;
	int e = 0;

	add_str(h, "profile", profile_name(in->manifest), &e);
	add_str(h, "test_from", pts ? "manifest" : "profile_name", &e);
	for (size_t i = 0; i < sizeof(pts_keys) / sizeof(*pts_keys); i++) {
		if (pts)
			copy_key(h, pts, pts_keys[i], &e);
		else
			add_str(h, pts_keys[i], "not recorded", &e);
	}
	if (pu) {
		x = json_object_new_object();
		jsonnum_build_add(x, "phase", json_object_new_int64(pu->phase), &e);
		add_str(x, "method", pu->method, &e);
		if (pu->pts_purge >= 0)
			jsonnum_build_add(x, "pts_purge", json_object_new_boolean(pu->pts_purge),
					  &e);
		else
			add_str(x, "pts_purge", "not recorded", &e);
		jsonnum_build_add(h, "purge", x, &e);
	} else {
		add_str(h, "purge", "none", &e);
	}
	(void)json_object_object_get_ex(in->manifest, "target", &tgt);
	d = json_object_new_object();
	for (size_t i = 0; i < sizeof(drive_keys) / sizeof(*drive_keys); i++)
		copy_key(d, tgt, drive_keys[i], &e);
	/* What the drive said of itself (run/runner_manifest.c: target.drive) when it was asked. */
	if (tgt && json_object_object_get_ex(tgt, "drive", &x) && x)
		jsonnum_build_add(d, "identity", json_object_get(x), &e);
	jsonnum_build_add(h, "drive", d, &e);
	if (e) {
		json_object_put(h);
		return NULL;
	}
	return h;
}

/* The "not_applicable" reason of a cell of (phase, repeat) in the cells pass, or NULL. */
static const char *not_applicable(struct json_object *summary, int64_t phase, int64_t repeat,
				  const char *cell)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(summary, "cells", &arr))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *c = json_object_array_get_idx(arr, i);
		const char *k = jsonget_str(c, "cell"), *kind = jsonget_str(c, "kind");
		int64_t p, r;

		if (k && kind && !strcmp(kind, "cell") && !strcmp(k, cell) &&
		    !jsonget_int(c, "phase", &p) && !jsonget_int(c, "repeat", &r) && p == phase &&
		    r == repeat)
			return jsonget_str(c, "not_applicable");
	}
	return NULL;
}

/* One cell of a rounds phase: its measurements' indices (into the reader's array) in order. */
struct cell {
	const char *key;
	struct snia_coords c;
	int order; /* snia_spec_order(); -1 after every spec cell, in first-seen order */
	size_t first;
	size_t *m, n;
	const char *na; /* not applicable: the reason */
};

static int cell_cmp(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;
	int ox = x->order < 0 ? 1 << 20 : x->order, oy = y->order < 0 ? 1 << 20 : y->order;

	if (ox != oy)
		return ox < oy ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

/* The window a rounds phase's tables average: its steady-state entry's (reached or not: SNIA's
 * rounds x-4..x), else the last `window` rounds measured (5 without an entry). */
static void phase_window(struct json_object *ss, const struct reader_measurement *ms, size_t nms,
			 int64_t phase, int64_t repeat, int64_t *lo, int64_t *hi, const char **over)
{
	const char *v = ss ? jsonget_str(ss, "verdict") : NULL;
	int64_t w = 5, last = 0;
	struct json_object *par;

	if (v && (!strcmp(v, "reached") || !strcmp(v, "not_reached")) &&
	    !jsonget_int(ss, "first_round", lo) && !jsonget_int(ss, "last_round", hi)) {
		*over = "steady_state_window";
		return;
	}
	if (ss && json_object_object_get_ex(ss, "params", &par) && !jsonget_int(par, "window", &w) &&
	    w < 1)
		w = 5;
	int64_t first = INT64_MAX;

	for (size_t i = 0; i < nms; i++)
		if (ms[i].k.phase == phase && ms[i].k.repeat == repeat &&
		    !strcmp(ms[i].k.kind, "cell")) {
			if (ms[i].k.round > last)
				last = ms[i].k.round;
			if (ms[i].k.round < first)
				first = ms[i].k.round;
		}
	/* Fewer rounds than a window: all of them. */
	*lo = last - w + 1 > first ? last - w + 1 : first;
	*hi = last;
	*over = "last_rounds";
}


int pass_fast_run(const struct analyze_input *in, const struct reader_measurement *ms, size_t nms,
		  struct pass_fast *f)
{
	struct json_object *pts;
	enum snia_test t = run_test(in->manifest, &pts);
	size_t nph = 0;

	if (t == SNIA_NONE || t == SNIA_WSAT || t == SNIA_XSR || !jsonget_true(pts, "fast"))
		return 0;
	*f = (struct pass_fast){.matrix_first = INT64_MAX};
	/* the first and the last (phase, repeat) of the cell records, in file order */
	for (size_t i = 0; i < nms; i++) {
		const struct reader_key *k = &ms[i].k;

		if (strcmp(k->kind, "cell"))
			continue;
		if (!nph) {
			f->tracking = (struct reader_phase){k->phase, k->repeat};
			nph = 1;
		}
		if (nph == 1 && (k->phase != f->tracking.phase || k->repeat != f->tracking.repeat))
			nph = 2;
		if (nph == 2 && (k->phase != f->matrix.phase || k->repeat != f->matrix.repeat) &&
		    (k->phase != f->tracking.phase || k->repeat != f->tracking.repeat))
			f->matrix = (struct reader_phase){k->phase, k->repeat};
	}
	if (nph < 2)
		return 0;
	for (size_t i = 0; i < nms; i++) {
		const struct reader_key *k = &ms[i].k;

		if (strcmp(k->kind, "cell"))
			continue;
		if (k->phase == f->tracking.phase && k->repeat == f->tracking.repeat &&
		    k->round > f->tracking_rounds)
			f->tracking_rounds = k->round;
		if (k->phase == f->matrix.phase && k->repeat == f->matrix.repeat) {
			if (k->round < f->matrix_first)
				f->matrix_first = k->round;
			if (k->round > f->matrix_last)
				f->matrix_last = k->round;
		}
	}
	f->last_round = f->matrix_last;
	f->first_round =
	    f->matrix_last > f->matrix_first ? f->matrix_first + 1 : f->matrix_first;
	return 1;
}

/*
 * The `fast` header of a *-fast profile's block (pts.fast in the manifest): which phases the
 * block joins and the method in words. The tracking phase is the one with the steady-state rule,
 * the matrix phase the last rounds phase; the SNIA window is not completed when the early
 * verdict stopped the tracking rounds; a fill forced past its refusal is named with its reason
 * (`forced_past`).
 */
static struct json_object *fast_json(const struct analyze_input *in, struct json_object *ss,
				     const struct pass_fast *fp, int *e)
{
	struct json_object *f = json_object_new_object(), *early = NULL, *pre = NULL, *pl, *phs;
	const struct reader_phase *trk = &fp->tracking, *mat = &fp->matrix;
	int64_t tr = fp->tracking_rounds, mr = fp->matrix_last, mlo = fp->matrix_first;
	bool stopped;
	const char *method = "not recorded";
	/* a fill run where it is refused (force: true) says so wherever the method is said */
	const char *forced = pass_fast_forced(in, trk->phase);
	char text[640], fr[64];

	stopped = ss && json_object_object_get_ex(ss, "early", &early) &&
		  jsonget_true(early, "stopped_run");
	/* The precondition phase before the tracking one: its method (sprandom for the bundled
	 * fast profiles) from the manifest's plan. */
	if (json_object_object_get_ex(in->manifest, "plan", &pl) &&
	    json_object_object_get_ex(pl, "phases", &phs) &&
	    json_object_is_type(phs, json_type_array))
		for (int64_t k = 0; k < trk->phase && k < (int64_t)json_object_array_length(phs);
		     k++) {
			struct json_object *p = json_object_array_get_idx(phs, (size_t)k);
			const char *kind = jsonget_str(p, "kind");

			if (kind && !strcmp(kind, "precondition"))
				pre = p;
		}
	if (pre) {
		struct json_object *pm = NULL, *st = NULL;

		if (json_object_object_get_ex(pre, "settings", &st) &&
		    json_object_object_get_ex(st, "method", &pm) && pm &&
		    json_object_is_type(pm, json_type_string))
			method = json_object_get_string(pm);
		else
			method = "sequential";
	}
	if (fp->first_round == fp->last_round)
		snprintf(fr, sizeof(fr), "round %" PRId64, fp->last_round);
	else
		snprintf(fr, sizeof(fr), "rounds %" PRId64 "-%" PRId64, fp->first_round,
			 fp->last_round);
	snprintf(text, sizeof(text),
		 "fast run, not a PTS run: %s precondition, %" PRId64
		 " tracking round%s of the tracked cell (phase %" PRId64 "), %" PRId64
		 " matrix round%s (phase %" PRId64 "), figures from matrix %s%s%s%s",
		 method, tr, tr == 1 ? "" : "s", trk->phase, mr - mlo + 1, mr > mlo ? "s" : "",
		 mat->phase, fr, stopped ? "; SNIA window not completed" : "",
		 forced ? "; the fill was forced past its refusal: " : "", forced ? forced : "");
	add_str(f, "text", text, e);
	add_str(f, "precondition", method, e);
	if (forced)
		add_str(f, "forced_past", forced, e);
	jsonnum_build_add(f, "tracking_phase", json_object_new_int64(trk->phase), e);
	jsonnum_build_add(f, "tracking_rounds", json_object_new_int64(tr), e);
	jsonnum_build_add(f, "matrix_phase", json_object_new_int64(mat->phase), e);
	jsonnum_build_add(f, "matrix_rounds", json_object_new_int64(mr - mlo + 1), e);
	jsonnum_build_add(f, "snia_window_completed", json_object_new_boolean(!stopped), e);
	return f;
}

/* The cells of (phase, repeat) in the spec's order. *out owned (each m too). */
static int phase_cells(const struct analyze_input *in, struct json_object *summary,
		       enum snia_test t, const struct reader_measurement *ms, size_t nms,
		       int64_t phase, int64_t repeat, struct cell **out, size_t *nout)
{
	struct cell *c = NULL, *x;
	struct json_object *arr;
	size_t nc = 0;

	(void)in;
	for (size_t i = 0; i < nms; i++) {
		const struct reader_key *k = &ms[i].k;
		size_t j;

		if (strcmp(k->kind, "cell") || k->phase != phase || k->repeat != repeat)
			continue;
		for (j = 0; j < nc && strcmp(c[j].key, k->cell); j++)
			;
		if (j == nc) {
			x = realloc(c, (nc + 1) * sizeof(*c));

			if (!x)
				goto nomem;
			c = x;
			memset(&c[nc], 0, sizeof(*c));
			c[nc].key = k->cell;
			c[nc].first = i;
			if (snia_cell_coords(k->cell, &c[nc].c))
				c[nc].order = -1;
			else
				c[nc].order = snia_spec_order(t, c[nc].c.rwmix_read, c[nc].c.bs);
			c[nc].na = not_applicable(summary, phase, repeat, k->cell);
			c[nc].m = malloc(nms * sizeof(size_t));
			nc++;
			if (!c[j].m)
				goto nomem;
		}
		c[j].m[c[j].n++] = i;
	}
	/* A cell the runner found not applicable may have no measurement at all: its row still
	 * belongs in the table (the cells pass lists it with the reason). */
	if (json_object_object_get_ex(summary, "cells", &arr))
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *e = json_object_array_get_idx(arr, i);
			const char *k = jsonget_str(e, "cell"), *kind = jsonget_str(e, "kind"),
				   *na = jsonget_str(e, "not_applicable");
			int64_t p, r;
			size_t j;

			if (!k || !kind || !na || strcmp(kind, "cell") || jsonget_int(e, "phase", &p) ||
			    jsonget_int(e, "repeat", &r) || p != phase || r != repeat)
				continue;
			for (j = 0; j < nc && strcmp(c[j].key, k); j++)
				;
			if (j < nc)
				continue;
			x = realloc(c, (nc + 1) * sizeof(*c));
			if (!x)
				goto nomem;
			c = x;
			memset(&c[nc], 0, sizeof(*c));
			c[nc].key = k;
			c[nc].first = nms + i; /* after every measured cell, in the cells' order */
			if (snia_cell_coords(k, &c[nc].c))
				c[nc].order = -1;
			else
				c[nc].order = snia_spec_order(t, c[nc].c.rwmix_read, c[nc].c.bs);
			c[nc].na = na;
			nc++;
		}
	if (nc)
		qsort(c, nc, sizeof(*c), cell_cmp);
	*out = c;
	*nout = nc;
	return 0;
nomem:
	for (size_t j = 0; j < nc; j++)
		free(c[j].m);
	free(c);
	return -ENOMEM;
}

/* A cell's coordinates as the tables give them. */
static void coords_json(struct json_object *o, const struct cell *c, int *e)
{
	add_str(o, "cell", c->key, e);
	if (c->c.rwmix_read >= 0)
		jsonnum_build_add(o, "rwmix_read", json_object_new_int64(c->c.rwmix_read), e);
	if (c->c.bs)
		jsonnum_build_add(o, "bs", json_object_new_uint64(c->c.bs), e);
	if (c->c.rw[0])
		add_str(o, "rw", c->c.rw, e);
}

/*
 * The per-round value of metric m of a cell (IOPS, or MB/s of 10^6 bytes for the throughput
 * test), its window mean, and its tracking series (every round, for the convergence plot).
 */
static void value_and_series(struct json_object *row, struct json_object *trk,
			     const struct cell *c, const struct reader_measurement *ms,
			     enum results_metric m, double scale, const char *key, int64_t lo,
			     int64_t hi, int *e)
{
	double *y = malloc((c->n + 1) * sizeof(*y));
	int64_t *r = malloc((c->n + 1) * sizeof(*r));
	struct json_object *ra = json_object_new_array(), *ya = json_object_new_array();
	size_t used = 0;

	if (!y || !r) {
		*e = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < c->n; i++) {
		y[i] = ms[c->m[i]].metric[m] / scale;
		r[i] = ms[c->m[i]].k.round;
		jsonnum_build_push(ra, json_object_new_int64(r[i]), e);
		jsonnum_build_push(ya, jsonnum_new(y[i]), e);
	}
	jsonnum_build_num(row, key, snia_window_mean(y, r, c->n, lo, hi, &used), e);
	jsonnum_build_add(row, "rounds", json_object_new_int64((int64_t)used), e);
	jsonnum_build_add(trk, "rounds", ra, e);
	jsonnum_build_add(trk, key, ya, e);
	ra = ya = NULL;
out:
	json_object_put(ra);
	json_object_put(ya);
	free(y);
	free(r);
}

/* A latency row: the cell's histograms of both directions merged over the window. */
static int latency_row(const struct analyze_input *in, struct json_object *row,
		       const struct cell *c, const struct reader_measurement *ms, int64_t lo,
		       int64_t hi, int *e)
{
	struct hist *h = malloc(3 * sizeof(*h));
	struct snia_lat l;
	struct json_object *pa;
	size_t used = 0;
	int rc = 0;

	if (!h)
		return -ENOMEM;
	hist_init(&h[2]);
	for (size_t i = 0; i < c->n; i++) {
		struct cells_figures f;

		if (ms[c->m[i]].k.round < lo || ms[c->m[i]].k.round > hi)
			continue;
		rc = reader_figures_at(&in->records, ms[c->m[i]].index, &h[0], &h[1], &f);
		if (rc)
			goto out;
		hist_merge(&h[2], &h[0]);
		hist_merge(&h[2], &h[1]);
		used++;
	}
	snia_latency(&h[2], &l);
	jsonnum_build_add(row, "rounds", json_object_new_int64((int64_t)used), e);
	jsonnum_build_add(row, "samples", json_object_new_uint64(l.samples), e);
	jsonnum_build_num(row, "mean_ns", l.mean_ns, e);
	jsonnum_build_num(row, "max_ns", l.samples ? (double)l.max_ns : NAN, e);
	pa = json_object_new_object();
	for (int i = 0; i < SNIA_NPCT; i++) {
		struct json_object *p = json_object_new_object();

		if (l.samples) {
			jsonnum_build_add(p, "ns", json_object_new_uint64(l.pct[i].ns), e);
			jsonnum_build_add(p, "rank", json_object_new_uint64(l.pct[i].rank), e);
			jsonnum_build_add(p, "samples", json_object_new_uint64(l.pct[i].samples),
					  e);
			jsonnum_build_add(p, "few_samples", json_object_new_boolean(l.pct[i].few),
					  e);
			jsonnum_build_add(pa, l.pct[i].key, p, e);
		} else {
			json_object_put(p);
			jsonnum_build_num(pa, l.pct[i].key, NAN, e);
		}
	}
	jsonnum_build_add(row, "percentiles", pa, e);
out:
	free(h);
	return rc;
}

/* The table (and tracking series) of a rounds phase of test t into block. */
static int rounds_block(const struct analyze_input *in, struct json_object *summary,
			enum snia_test t, const struct reader_measurement *ms, size_t nms,
			int64_t phase, int64_t repeat, struct json_object *ss,
			const struct pass_fast *fast, struct json_object *block, char *err,
			size_t errlen)
{
	struct json_object *tab, *trk, *w, *x;
	struct cell *c = NULL;
	size_t nc = 0;
	int64_t lo, hi;
	const char *over;
	int e = 0, rc;

	rc = phase_cells(in, summary, t, ms, nms, phase, repeat, &c, &nc);
	if (rc)
		return rc;
	if (fast) {
		/* The matrix phase has no rule of its own; its steady state is the tracking phase's
		 * (passed in), its rounds those pass_fast_run() gives (pass.h). Measured on
		 * enterprise-28op (2 GiB): 100 % read 1 MiB 1292 IOPS in matrix round 1, 1859 in
		 * round 2, 1897..2142 in the full run's rounds 2-5 (docs/fast-steady-state.md). */
		lo = fast->first_round;
		hi = fast->last_round;
		over = "fast_matrix_rounds";
	} else {
		phase_window(ss, ms, nms, phase, repeat, &lo, &hi, &over);
	}
	w = json_object_new_object();
	jsonnum_build_add(w, "first_round", json_object_new_int64(lo), &e);
	jsonnum_build_add(w, "last_round", json_object_new_int64(hi), &e);
	add_str(w, "over", over, &e);
	jsonnum_build_add(block, "window", w, &e);
	if (t == SNIA_THROUGHPUT) {
		struct json_object *wl = pass_plan_workload(in, phase), *bs;
		uint64_t b = 0;

		if (wl && json_object_object_get_ex(wl, "bs", &bs) &&
		    json_object_is_type(bs, json_type_array) && json_object_array_length(bs) == 1)
			(void)jsonnum_get_u64(json_object_array_get_idx(bs, 0), "bs", &b);
		jsonnum_build_num(block, "bs", b ? (double)b : NAN, &e);
	}
	if (t == SNIA_IOPS) {
		const char *tc = ss ? jsonget_str(ss, "cell") : NULL;

		x = json_object_new_object();
		add_str(x, "cell", tc, &e);
		jsonnum_build_add(block, "tracked", x, &e);
	}
	tab = json_object_new_array();
	trk = json_object_new_array();
	for (size_t i = 0; i < nc && !e; i++) {
		struct json_object *row = json_object_new_object(), *tr = json_object_new_object();

		coords_json(row, &c[i], &e);
		coords_json(tr, &c[i], &e);
		if (c[i].na) {
			/* The runner recorded that the device cannot do this cell. */
			add_str(row, "not_applicable", c[i].na, &e);
			jsonnum_build_push(tab, row, &e);
			json_object_put(tr);
			continue;
		}
		if (t == SNIA_IOPS) {
			value_and_series(row, tr, &c[i], ms, RESULTS_METRIC_IOPS, 1, "iops", lo, hi,
					 &e);
			if (ss && jsonget_str(ss, "cell") && !strcmp(jsonget_str(ss, "cell"), c[i].key))
				jsonnum_build_add(
				    json_object_object_get(block, "tracked"), "iops",
				    json_object_get(json_object_object_get(row, "iops")), &e);
		} else if (t == SNIA_THROUGHPUT) {
			add_str(row, "direction",
				!strcmp(c[i].c.rw, "read") || !strcmp(c[i].c.rw, "randread")
				    ? "read"
				    : "write",
				&e);
			value_and_series(row, tr, &c[i], ms, RESULTS_METRIC_BW, 1e6, "mb_s", lo,
					 hi, &e);
		} else {
			rc = latency_row(in, row, &c[i], ms, lo, hi, &e);
			if (rc) {
				pass_err(err, errlen,
					 "records.jsonl: a record of phase %" PRId64
					 " cell %s has malformed I/O figures",
					 phase, c[i].key);
				json_object_put(row);
				json_object_put(tr);
				goto out;
			}
		}
		jsonnum_build_push(tab, row, &e);
		if (t == SNIA_LATENCY)
			json_object_put(tr);
		else
			jsonnum_build_push(trk, tr, &e);
	}
	jsonnum_build_add(block, t == SNIA_IOPS ? "matrix" : "table", tab, &e);
	tab = NULL;
	if (t != SNIA_LATENCY)
		jsonnum_build_add(block, "tracking", json_object_get(trk), &e);
	if (!e && fast)
		e = pass_snia_fast_rounds(in, fast, ss, ms, nms, block);
	rc = e;
out:
	json_object_put(trk);
	json_object_put(tab);
	for (size_t i = 0; i < nc; i++)
		free(c[i].m);
	free(c);
	return rc;
}

int pass_snia(const struct analyze_input *in, struct json_object *summary, char *err,
	      size_t errlen)
{
	struct json_object *arr = json_object_new_array(), *pts;
	struct reader_measurement *ms = NULL;
	struct reader_purge *pu = NULL;
	struct reader_phase *ph = NULL;
	size_t nms = 0, npu = 0, nph = 0;
	struct pass_fast fp;
	enum snia_test t;
	bool fast = false;
	int rc = -ENOMEM;

	if (jsonnum_add(summary, "snia", arr) || !arr)
		return -ENOMEM;
	t = run_test(in->manifest, &pts);
	if (t == SNIA_NONE)
		return 0;
	if (reader_purges(&in->records, &pu, &npu) || reader_measurements(&in->records, &ms, &nms))
		goto out;
	/* The test's phases: its rounds phases (cell records), or its write_until phases. */
	if (t == SNIA_WSAT || t == SNIA_XSR) {
		if (reader_write_until_phases(&in->records, &ph, &nph))
			goto out;
		if (t == SNIA_XSR && nph > 1)
			nph = 1; /* one block for all access groups, at the first one's phase */
	} else {
		ph = calloc(nms + 1, sizeof(*ph));
		if (!ph)
			goto out;
		for (size_t i = 0; i < nms; i++) {
			size_t j;

			if (strcmp(ms[i].k.kind, "cell"))
				continue;
			for (j = 0; j < nph && (ph[j].phase != ms[i].k.phase ||
						ph[j].repeat != ms[i].k.repeat);
			     j++)
				;
			if (j == nph)
				ph[nph++] = (struct reader_phase){ms[i].k.phase, ms[i].k.repeat};
		}
	}
	/* A *-fast profile (pts.fast): one block of its tracking phase (the first rounds phase, with
	 * the rule) and its matrix phase (the last): steady state from the one, tables from the
	 * other. */
	if (pass_fast_run(in, ms, nms, &fp)) {
		fast = true;
		ph[0] = fp.matrix;
		nph = 1;
	}
	for (size_t i = 0; i < nph; i++) {
		struct json_object *b = json_object_new_object(), *hd, *ss;
		int e = 0;

		if (json_object_array_add(arr, b) || !b) {
			json_object_put(b);
			goto out;
		}
		hd = header_json(in, pts, purge_before(pu, npu, ph[i].phase));
		ss = fast ? pass_ss_entry(summary, fp.tracking.phase, fp.tracking.repeat)
			  : pass_ss_entry(summary, ph[i].phase, ph[i].repeat);
		if (hd && fast)
			jsonnum_build_add(hd, "fast",
					  fast_json(in, ss, &fp, &e), &e);
		add_str(b, "test", snia_test_name(t), &e);
		jsonnum_build_add(b, "phase", json_object_new_int64(ph[i].phase), &e);
		jsonnum_build_add(b, "repeat", json_object_new_int64(ph[i].repeat), &e);
		jsonnum_build_add(b, "header", hd, &e);
		if (ss)
			jsonnum_build_add(b, "steady_state", json_object_get(ss), &e);
		else
			jsonnum_build_num(b, "steady_state", NAN, &e);
		if (e)
			goto out;
		if (t == SNIA_XSR)
			rc = pass_snia_xsr(in, b, err, errlen);
		else
			rc = t == SNIA_WSAT ? pass_snia_wsat(in, ph[i].phase, ph[i].repeat, b, err,
							     errlen)
					    : rounds_block(in, summary, t, ms, nms, ph[i].phase,
							   ph[i].repeat, ss, fast ? &fp : NULL, b,
							   err, errlen);
		if (rc)
			goto out;
		rc = -ENOMEM;
	}
	rc = 0;
out:
	free(ph);
	free(pu);
	free(ms);
	return rc;
}
