/* SPDX-License-Identifier: MIT */
/*
 * analyze: summary.json from a results directory (see analyze.h). The passes run in table
 * order on read-only inputs; a pass may read what an earlier pass added to the summary (the
 * cells pass takes the steady-state windows from the steady_state pass).
 *
 * Determinism: inputs are taken in file order (records) and file-name order (snapshots),
 * groups are kept in first-seen order, numbers go through jsonnum (shortest round-trip form),
 * nothing depends on the clock, the locale, the environment or hash order.
 */
#include "analysis/analyze.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "config.h"
#include "base/hist.h"
#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "results/snapshot.h"
#include "analysis/cells.h"
#include "analysis/reader.h"
#include "analysis/recovery.h"
#include "analysis/ss.h"
#include "analysis/wa.h"
#include "base/units.h"

static void set_err(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* ---- record fields -------------------------------------------------------------------------- */

static const char *str_of(struct json_object *o, const char *key)
{
	return jsonget_str(o, key);
}

static int int_of(struct json_object *o, const char *key, int64_t *v)
{
	return jsonget_int(o, key, v);
}

static int add_int(struct json_object *o, const char *key, int64_t v)
{
	return jsonnum_add(o, key, json_object_new_int64(v));
}

/* A missing string (NULL) becomes JSON null. */
static int add_str(struct json_object *o, const char *key, const char *s)
{
	return jsonnum_add(o, key, s ? json_object_new_string(s) : NULL);
}

/* For printing a string that may be missing. */
static const char *S(const char *s)
{
	return s ? s : "?";
}

/* ---- pass: steady state --------------------------------------------------------------------- */

/* Copies every member of src into dst (taking references), in src's order. */
static int merge_into(struct json_object *dst, struct json_object *src)
{
	json_object_object_foreach(src, key, val)
	{
		if (jsonnum_add(dst, key, json_object_get(val)))
			return -ENOMEM;
	}
	return 0;
}

/*
 * One tracked series (a manifest "steady_state" entry): the metric of the tracked cell's
 * records in file order, which is round order. A gap or a repeated round is counted and
 * reported ("round_gaps"); a round without the figure counts as NaN (never steady).
 */
static int ss_one(const struct analyze_input *in, struct json_object *track,
		  struct json_object **out, char *err, size_t errlen)
{
	struct json_object *po, *res = NULL, *vals = NULL, *sj = NULL;
	struct ss_params p;
	struct ss_result r;
	int64_t phase, repeat, first = 0, prev = 0;
	const char *cell = str_of(track, "cell"), *metric = str_of(track, "metric");
	double *y = NULL;
	size_t n = 0;
	int rc = -ENOMEM, gaps = 0;

	if (!cell || !metric || int_of(track, "phase", &phase) ||
	    int_of(track, "repeat", &repeat) || !json_object_object_get_ex(track, "params", &po) ||
	    ss_params_from_json(po, &p)) {
		set_err(err, errlen, "manifest.json: a steady_state entry is malformed");
		return -EBADMSG;
	}
	y = calloc(in->records.n + 1, sizeof(*y));
	res = json_object_new_object();
	vals = json_object_new_array();
	if (!y || !res || !vals)
		goto out;
	for (size_t i = 0; i < in->records.n; i++) {
		struct json_object *rec = in->records.rec[i];
		struct reader_key k;
		double v;

		if (reader_key(rec, &k) || strcmp(k.kind, "cell") || k.phase != phase ||
		    k.repeat != repeat || strcmp(k.cell, cell))
			continue;
		rc = results_record_metric(rec, metric, &v);
		if (rc == -EINVAL) {
			set_err(err, errlen, "manifest.json: unknown steady-state metric '%s'",
				metric);
			goto out;
		}
		if (rc)
			v = NAN;
		if (!n)
			first = k.round;
		else if (k.round != prev + 1)
			gaps++;
		prev = k.round;
		y[n++] = v;
		rc = -ENOMEM;
		if (json_object_array_add(vals, jsonnum_new(v)))
			goto out;
	}
	rc = -ENOMEM;
	if (add_int(res, "phase", phase) || add_int(res, "repeat", repeat) ||
	    add_str(res, "cell", cell) || add_str(res, "metric", metric))
		goto out;
	if (!n || first < 0 || first > UINT32_MAX) {
		/* Nothing measured (yet): say so rather than invent a verdict. */
		if (add_str(res, "verdict", "no_data") ||
		    jsonnum_add(res, "reached", json_object_new_boolean(0)) ||
		    jsonnum_add(res, "params", ss_params_to_json(&p)))
			goto out;
	} else {
		rc = ss_scan(y, n, (unsigned)first, &p, &r);
		if (rc) {
			set_err(err, errlen, "steady state of phase %" PRId64 " cell %s: %s", phase,
				cell, strerror(-rc));
			goto out;
		}
		rc = -ENOMEM;
		sj = ss_result_to_json(&r);
		if (!sj || merge_into(res, sj))
			goto out;
	}
	if (add_int(res, "round_gaps", gaps))
		goto out;
	/* jsonnum_add owns vals from here, also when it fails. */
	rc = jsonnum_add(res, "values", vals);
	vals = NULL;
	if (rc)
		goto out;
	*out = res;
	res = NULL;
	rc = 0;
out:
	free(y);
	json_object_put(sj);
	json_object_put(vals);
	json_object_put(res);
	return rc;
}

static int pass_steady_state(const struct analyze_input *in, struct json_object *summary, char *err,
			     size_t errlen)
{
	struct json_object *arr = json_object_new_array(), *tracks;
	int rc;

	if (jsonnum_add(summary, "steady_state", arr) || !arr)
		return -ENOMEM;
	if (!json_object_object_get_ex(in->manifest, "steady_state", &tracks) || !tracks)
		return 0;
	if (!json_object_is_type(tracks, json_type_array)) {
		set_err(err, errlen, "manifest.json: steady_state is not an array");
		return -EBADMSG;
	}
	for (size_t i = 0; i < json_object_array_length(tracks); i++) {
		struct json_object *one = NULL;

		rc = ss_one(in, json_object_array_get_idx(tracks, i), &one, err, errlen);
		if (rc)
			return rc;
		if (json_object_array_add(arr, one)) {
			json_object_put(one);
			return -ENOMEM;
		}
	}
	return 0;
}

/* ---- pass: cells ---------------------------------------------------------------------------- */

/*
 * One group of measurements: the records of one (phase, repeat, kind, cell), over the steady
 * state window when the phase has a judged tracked series, else over all its records.
 */
struct group {
	struct reader_key k;
	struct cells_sum *sum;	       /* the records taken (cells.h) */
	struct json_object *per_round; /* every record of the group, in or out of the window */
};

static void groups_free(struct group *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(g[i].sum);
		json_object_put(g[i].per_round);
	}
	free(g);
}

/* The round window of (phase, repeat) from the steady_state pass, if one was judged. */
static int ss_window(struct json_object *summary, int64_t phase, int64_t repeat, int64_t *lo,
		     int64_t *hi)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(summary, "steady_state", &arr))
		return 0;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		const char *verdict = str_of(s, "verdict");
		int64_t p, r;

		if (int_of(s, "phase", &p) || int_of(s, "repeat", &r) || p != phase ||
		    r != repeat || !verdict ||
		    (strcmp(verdict, "reached") && strcmp(verdict, "not_reached")))
			continue;
		if (int_of(s, "first_round", lo) || int_of(s, "last_round", hi))
			return 0;
		return 1;
	}
	return 0;
}

static int same_group(const struct reader_key *a, const struct reader_key *b)
{
	return a->phase == b->phase && a->repeat == b->repeat && !strcmp(a->kind, b->kind) &&
	       !strcmp(a->cell, b->cell);
}

/* Adds a record's figures to its group (reader_figures, cells_sum_add). */
static int accumulate(struct group *g, struct json_object *rec)
{
	struct hist *h = malloc(2 * sizeof(*h));
	struct cells_figures f;
	int rc;

	if (!h)
		return -ENOMEM;
	rc = reader_figures(rec, &h[0], &h[1], &f);
	if (!rc)
		cells_sum_add(g->sum, &f);
	free(h);
	return rc;
}

static struct json_object *group_json(const struct group *g, int windowed)
{
	struct json_object *o = json_object_new_object(), *x;
	struct hist *all;

	if (!o)
		return NULL;
	all = malloc(sizeof(*all));
	if (!all)
		goto fail;
	cells_sum_all(g->sum, all);
	if (add_int(o, "phase", g->k.phase) || add_int(o, "repeat", g->k.repeat) ||
	    add_str(o, "phase_kind", g->k.phase_kind) || add_str(o, "kind", g->k.kind) ||
	    add_str(o, "cell", g->k.cell) || add_int(o, "records", (int64_t)g->sum->n) ||
	    add_int(o, "first_round", g->sum->first_round) ||
	    add_int(o, "last_round", g->sum->last_round) ||
	    add_str(o, "over", windowed ? "steady_state_window" : "all_records") ||
	    jsonnum_add(o, "elapsed_ns", json_object_new_uint64(g->sum->elapsed_ns)))
		goto fail;
	for (int d = 0; d < 2; d++) {
		x = results_figures_json(g->sum->ios[d], g->sum->bytes[d], g->sum->elapsed_ns,
					 &g->sum->h[d]);
		if (jsonnum_add(o, d ? "write" : "read", x) || !x)
			goto fail;
	}
	/* Percentiles of the merged histograms, never averaged. */
	x = results_figures_json(g->sum->ios[0] + g->sum->ios[1],
				 g->sum->bytes[0] + g->sum->bytes[1], g->sum->elapsed_ns, all);
	if (jsonnum_add(o, "total", x) || !x ||
	    jsonnum_add(o, "cpu_user_s", jsonnum_new(g->sum->cpu_user_s)) ||
	    jsonnum_add(o, "cpu_sys_s", jsonnum_new(g->sum->cpu_sys_s)) ||
	    add_int(o, "host_limited_records", (int64_t)g->sum->host_limited) ||
	    add_int(o, "io_error_records", (int64_t)g->sum->io_errors) ||
	    jsonnum_add(o, "per_round", json_object_get(g->per_round)))
		goto fail;
	free(all);
	return o;
fail:
	free(all);
	json_object_put(o);
	return NULL;
}

/* One record's headline figures for the per-round table (convergence plots). */
static int per_round_add(struct json_object *arr, struct json_object *rec, const struct reader_key *k)
{
	static const struct {
		const char *metric, *key;
	} cols[] = {
	    {"iops", "iops"},
	    {"bw", "bw_bps"},
	    {"lat_mean", "lat_mean_ns"},
	    {"lat_p99", "lat_p99_ns"},
	};
	struct json_object *o = json_object_new_object();

	if (json_object_array_add(arr, o) || !o || add_int(o, "round", k->round))
		return -ENOMEM;
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		double v;

		if (results_record_metric(rec, cols[i].metric, &v))
			v = NAN; /* written as null: no I/O, no latency */
		if (jsonnum_add(o, cols[i].key, jsonnum_new(v)))
			return -ENOMEM;
	}
	return 0;
}

static int pass_cells(const struct analyze_input *in, struct json_object *summary, char *err,
		      size_t errlen)
{
	struct json_object *arr = json_object_new_array();
	struct group *g = NULL;
	size_t ng = 0;
	int rc = -ENOMEM;

	if (jsonnum_add(summary, "cells", arr) || !arr)
		return -ENOMEM;
	g = calloc(in->records.n + 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (size_t i = 0; i < in->records.n; i++) {
		struct json_object *rec = in->records.rec[i];
		struct reader_key k;
		int64_t lo, hi;
		size_t j;

		/* Only measurements with I/O figures (not idle, trim, purge, resume). */
		if (reader_key(rec, &k) || !json_object_object_get_ex(rec, "elapsed_ns", NULL))
			continue;
		for (j = 0; j < ng && !same_group(&g[j].k, &k); j++)
			;
		if (j == ng) {
			g[j].k = k;
			g[j].sum = malloc(sizeof(*g[j].sum));
			g[j].per_round = json_object_new_array();
			ng++;
			if (!g[j].sum || !g[j].per_round)
				goto out;
			cells_sum_init(g[j].sum);
		}
		rc = per_round_add(g[j].per_round, rec, &k);
		if (rc)
			goto out;
		/* The figures of a judged rounds phase are those of its window (SNIA's report). */
		if (!strcmp(k.kind, "cell") && ss_window(summary, k.phase, k.repeat, &lo, &hi) &&
		    (k.round < lo || k.round > hi))
			continue;
		rc = accumulate(&g[j], rec);
		if (rc) {
			set_err(err, errlen, "records.jsonl: record %zu has malformed I/O figures",
				i + 1);
			goto out;
		}
	}
	rc = -ENOMEM;
	for (size_t j = 0; j < ng; j++) {
		int64_t lo, hi;
		struct json_object *o = group_json(
		    &g[j], !strcmp(g[j].k.kind, "cell") &&
			       ss_window(summary, g[j].k.phase, g[j].k.repeat, &lo, &hi));

		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			goto out;
		}
	}
	rc = 0;
out:
	groups_free(g, ng);
	return rc;
}

/* ---- pass: write amplification -------------------------------------------------------------- */

/* The "wa" entry of the snapshots a..b (from_seq, to_seq, labels, counter deltas, wa). */
static struct json_object *wa_entry(const struct reader_snaps *s, size_t a, size_t b,
				    int64_t phase, int64_t repeat, int with_phase)
{
	struct json_object *o = json_object_new_object();
	const struct counter *h0, *h1, *n0, *n1;
	int ok = s->parsed[a] && s->parsed[b];
	double wa = NAN;

	if (!o)
		return NULL;
	if (with_phase && (add_int(o, "phase", phase) || add_int(o, "repeat", repeat)))
		goto fail;
	if (add_int(o, "from_seq", s->seq[a]) || add_int(o, "to_seq", s->seq[b]) ||
	    add_str(o, "from_label", ok ? s->s[a].label : "") ||
	    add_str(o, "to_label", ok ? s->s[b].label : ""))
		goto fail;
	h0 = ok ? snapshot_get(&s->s[a], "host_bytes_written") : NULL;
	h1 = ok ? snapshot_get(&s->s[b], "host_bytes_written") : NULL;
	n0 = ok ? snapshot_get(&s->s[a], "nand_bytes_written") : NULL;
	n1 = ok ? snapshot_get(&s->s[b], "nand_bytes_written") : NULL;
	if (jsonnum_add(o, "host_bytes_written",
			h0 && h1 ? jsonnum_new(h1->value - h0->value) : NULL) ||
	    jsonnum_add(o, "nand_bytes_written",
			n0 && n1 ? jsonnum_new(n1->value - n0->value) : NULL))
		goto fail;
	if (ok && wa_between(&s->s[a], &s->s[b], &wa))
		wa = NAN;
	if (jsonnum_add(o, "wa", jsonnum_new(wa)))
		goto fail;
	return o;
fail:
	json_object_put(o);
	return NULL;
}

/*
 * WA per (phase, repeat) over the snapshots that bound it (wa_phase_spans): "wa" over the
 * measured part (from the ramp end when the phase's first job had a ramp, like the figures),
 * "wa_total" over the whole phase; without a ramp they are equal. And over the whole run, from
 * the first snapshot to the last.
 */
static int pass_wa(const struct analyze_input *in, struct json_object *summary, char *err,
		   size_t errlen)
{
	struct json_object *wa = json_object_new_object(), *arr, *run;
	const struct reader_snaps *s = &in->snaps;
	struct wa_span *sp;
	size_t nsp;

	if (jsonnum_add(summary, "wa", wa) || !wa)
		return -ENOMEM;
	arr = json_object_new_array();
	if (jsonnum_add(wa, "phases", arr) || !arr)
		return -ENOMEM;
	sp = calloc(s->n ? s->n : 1, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	nsp = wa_phase_spans(s->at, s->n, sp);
	for (size_t i = 0; i < nsp; i++) {
		struct json_object *tot = wa_entry(s, sp[i].total_from, sp[i].to, 0, 0, 0);
		struct json_object *e = wa_entry(s, sp[i].from, sp[i].to, sp[i].phase, sp[i].repeat, 1);

		if (!e || !tot ||
		    jsonnum_add(e, "wa_total", json_object_get(json_object_object_get(tot, "wa"))) ||
		    json_object_array_add(arr, e)) {
			json_object_put(tot);
			json_object_put(e);
			free(sp);
			return -ENOMEM;
		}
		json_object_put(tot);
	}
	free(sp);
	run = s->n >= 2 ? wa_entry(s, 0, s->n - 1, 0, 0, 0) : NULL;
	if (s->n >= 2 && !run)
		return -ENOMEM;
	return jsonnum_add(wa, "run", run);
}

/* ---- pass: flags ---------------------------------------------------------------------------- */

/*
 * flags.purge_not_pts: the purges that only discarded. A discard is not a SNIA PTS purge (no
 * secure erase, sanitize or format: the drive's flash keeps its state). A record without
 * pts_purge (written before the key existed) is judged by its method: then only the virtual
 * SSD's "sim-reset" was a real purge.
 */
static int flag_purges(const struct analyze_input *in, struct json_object *f)
{
	struct json_object *arr = json_object_new_array();

	if (jsonnum_add(f, "purge_not_pts", arr) || !arr)
		return -ENOMEM;
	for (size_t i = 0; i < in->records.n; i++) {
		struct json_object *rec = in->records.rec[i], *x, *e;
		const char *method = str_of(rec, "method");
		int64_t settle = 0;
		struct reader_key k;

		if (reader_key(rec, &k) || strcmp(k.kind, "purge"))
			continue;
		if (json_object_object_get_ex(rec, "pts_purge", &x) ? json_object_get_boolean(x)
								     : method && !strcmp(method, "sim-reset"))
			continue;
		(void)int_of(rec, "settle_ns", &settle);
		e = json_object_new_object();
		if (json_object_array_add(arr, e) || !e || add_int(e, "phase", k.phase) ||
		    add_int(e, "repeat", k.repeat) || add_str(e, "method", method) ||
		    add_int(e, "settle_ns", settle))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Reads that say nothing about the flash: flags.reads_unmapped sums the records' reads_unmapped
 * (a target that knows its map counts the reads of never-written or trimmed LBAs), null when no
 * record has it; flags.reads_without_fill copies the manifest's mark of a run that only reads a
 * real target (whose map nobody can see).
 */
static int flag_reads_unmapped(const struct analyze_input *in, struct json_object *f)
{
	uint64_t bytes = 0, of = 0, n = 0, hit = 0;
	struct json_object *o, *x;

	for (size_t i = 0; i < in->records.n; i++) {
		uint64_t b, ob;

		if (!json_object_object_get_ex(in->records.rec[i], "reads_unmapped", &x) ||
		    jsonnum_get_u64(x, "bytes", &b) || jsonnum_get_u64(x, "of_bytes", &ob))
			continue;
		n++;
		hit += b > 0;
		bytes += b;
		of += ob;
	}
	x = json_object_object_get_ex(in->manifest, "reads_without_fill", &x) ? x : NULL;
	if (jsonnum_add(f, "reads_without_fill",
			json_object_new_boolean(x && json_object_get_boolean(x))))
		return -ENOMEM;
	if (!n)
		return jsonnum_add(f, "reads_unmapped", NULL);
	o = json_object_new_object();
	if (jsonnum_add(f, "reads_unmapped", o) || !o ||
	    jsonnum_add(o, "bytes", json_object_new_uint64(bytes)) ||
	    jsonnum_add(o, "of_bytes", json_object_new_uint64(of)) ||
	    jsonnum_add(o, "fraction", of ? jsonnum_new((double)bytes / (double)of) : NULL) ||
	    add_int(o, "records", (int64_t)n) || add_int(o, "records_with_unmapped", (int64_t)hit))
		return -ENOMEM;
	return 0;
}

static int pass_flags(const struct analyze_input *in, struct json_object *summary, char *err,
		      size_t errlen)
{
	struct json_object *f = json_object_new_object(), *nr, *hl, *rp, *arr, *noio;
	size_t resumes = 0, errors = 0;

	if (jsonnum_add(summary, "flags", f) || !f)
		return -ENOMEM;
	nr = json_object_new_array();
	hl = json_object_new_array();
	rp = json_object_new_array();
	if (jsonnum_add(f, "steady_state_not_reached", nr) || !nr ||
	    jsonnum_add(f, "host_limited", hl) || !hl || jsonnum_add(f, "resume_points", rp) || !rp)
		return -ENOMEM;
	noio = json_object_new_array(); /* measurements without figures, and why */
	if (jsonnum_add(f, "no_io", noio) || !noio)
		return -ENOMEM;
	if (json_object_object_get_ex(summary, "steady_state", &arr))
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *s = json_object_array_get_idx(arr, i), *e;
			const char *v = str_of(s, "verdict");
			int64_t p = 0, r = 0;

			if (v && !strcmp(v, "reached"))
				continue;
			(void)int_of(s, "phase", &p);
			(void)int_of(s, "repeat", &r);
			e = json_object_new_object();
			if (json_object_array_add(nr, e) || !e || add_int(e, "phase", p) ||
			    add_int(e, "repeat", r) || add_str(e, "cell", str_of(s, "cell")) ||
			    add_str(e, "metric", str_of(s, "metric")) || add_str(e, "verdict", v))
				return -ENOMEM;
		}
	for (size_t i = 0; i < in->records.n; i++) {
		struct json_object *rec = in->records.rec[i], *e;
		struct reader_key k;

		if (reader_key(rec, &k))
			continue;
		if (!strcmp(k.kind, "resume")) {
			static const char *const copy[] = {"gap_wall_ns", "gap_target_ns",
							   "sim_replayed", "steps_replayed"};

			/* Where the walk picked up, and how long the drive was left alone. */
			resumes++;
			e = json_object_new_object();
			if (json_object_array_add(rp, e) || !e || add_int(e, "phase", k.phase) ||
			    add_int(e, "repeat", k.repeat) || add_int(e, "round", k.round))
				return -ENOMEM;
			for (size_t c = 0; c < sizeof(copy) / sizeof(copy[0]); c++) {
				struct json_object *v;

				if (json_object_object_get_ex(rec, copy[c], &v) &&
				    jsonnum_add(e, copy[c], json_object_get(v)))
					return -ENOMEM;
			}
		}
		errors += json_object_object_get_ex(rec, "error", NULL);
		if (reader_has_flag(rec, "no_io")) {
			e = json_object_new_object();
			if (json_object_array_add(noio, e) || !e || add_int(e, "phase", k.phase) ||
			    add_int(e, "repeat", k.repeat) || add_int(e, "round", k.round) ||
			    add_str(e, "kind", k.kind) || add_str(e, "cell", k.cell) ||
			    add_str(e, "reason", str_of(rec, "no_io_reason")))
				return -ENOMEM;
		}
		if (!reader_has_flag(rec, "host_limited"))
			continue;
		e = json_object_new_object();
		if (json_object_array_add(hl, e) || !e || add_int(e, "phase", k.phase) ||
		    add_int(e, "repeat", k.repeat) || add_int(e, "round", k.round) ||
		    add_str(e, "kind", k.kind) || add_str(e, "cell", k.cell))
			return -ENOMEM;
	}
	if (flag_reads_unmapped(in, f))
		return -ENOMEM;
	if (jsonnum_add(f, "resumed", json_object_new_boolean(resumes > 0)) ||
	    add_int(f, "resumes", (int64_t)resumes) || add_int(f, "io_errors", (int64_t)errors) ||
	    jsonnum_add(f, "torn_last_line_dropped",
			json_object_new_boolean(in->records.torn_last)))
		return -ENOMEM;
	return flag_purges(in, f);
}

/* ---- pass: headline ------------------------------------------------------------------------- */

/*
 * WA over a steady-state window: from the last snapshot taken at or before the window's first
 * measurement started to the first taken at or after its last one ended (the runner takes them
 * at phase boundaries, so for a rounds phase that stops at steady state these are its start
 * and end). NULL (JSON null) when no snapshot brackets the window.
 */
static struct json_object *headline_ss_wa(const struct analyze_input *in, struct json_object *ss)
{
	int64_t phase, repeat, lo, hi;
	uint64_t t0, t1;
	long ra, rb;
	size_t a, b;

	if (int_of(ss, "phase", &phase) || int_of(ss, "repeat", &repeat) ||
	    int_of(ss, "first_round", &lo) || int_of(ss, "last_round", &hi))
		return NULL;
	ra = reader_round_record(&in->records, phase, repeat, lo, false);
	rb = reader_round_record(&in->records, phase, repeat, hi, true);
	if (ra < 0 || rb < 0 || jsonnum_get_u64(in->records.rec[ra], "start_ns", &t0) ||
	    jsonnum_get_u64(in->records.rec[rb], "end_ns", &t1) ||
	    wa_bracket(in->snaps.t, in->snaps.has_t, in->snaps.n, t0, t1, &a, &b))
		return NULL;
	return wa_entry(&in->snaps, a, b, 0, 0, 0);
}

/* The steady-state entry judged last before record index `before` (a reached or not_reached
 * window whose rounds come before it), or NULL. */
static struct json_object *ss_before(const struct analyze_input *in, struct json_object *arr,
				     size_t before)
{
	struct json_object *best = NULL;

	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		int64_t p, r, hi;
		long last;
		double avg;

		if (int_of(s, "phase", &p) || int_of(s, "repeat", &r) ||
		    int_of(s, "last_round", &hi) || jsonnum_get(s, "average", &avg) || !(avg > 0))
			continue;
		last = reader_round_record(&in->records, p, r, hi, true);
		if (last >= 0 && (size_t)last < before)
			best = s;
	}
	return best;
}

/*
 * Recovery after an idle phase: the measurements after it (reader_recovery) against the
 * steady-state average judged before it, by recovery_scan() and RECOVERY_RULE_DEFAULT. The
 * first one's change; then how much writing (target time, and in the profile's time: divided by
 * the record's time_scale; bytes) came before the drive was back. No entry when the idle has no
 * steady state before it or nothing after.
 */
static int headline_recovery(const struct analyze_input *in, struct json_object *ssarr,
			     size_t idle, struct json_object *out)
{
	const struct recovery_rule rule = RECOVERY_RULE_DEFAULT;
	struct json_object *ss = ss_before(in, ssarr, idle), *e, *jr;
	const char *cell = ss ? str_of(ss, "cell") : NULL, *metric = ss ? str_of(ss, "metric") : NULL;
	struct reader_recovery pts = {0};
	struct recovery_result r;
	struct reader_key ik;
	uint64_t idle_ns = 0;
	double avg = 0, scale = 1;
	int rc;

	if (!ss || !cell || !metric || jsonnum_get(ss, "average", &avg) ||
	    reader_key(in->records.rec[idle], &ik))
		return 0;
	(void)jsonnum_get_u64(in->records.rec[idle], "idle_ns", &idle_ns);
	(void)jsonnum_get(in->records.rec[idle], "time_scale", &scale);
	rc = reader_recovery(&in->records, idle, cell, metric, &pts);
	if (rc)
		return rc;
	rc = recovery_scan(pts.p, pts.n, avg, &rule, &r);
	free(pts.p);
	if (rc)
		return rc == -ENODATA ? 0 : rc;
	if (pts.first_scale > 0)
		scale = pts.first_scale;
	if (!(scale > 0))
		scale = 1;
	e = json_object_new_object();
	if (json_object_array_add(out, e) || !e)
		return -ENOMEM;
	if (add_int(e, "idle_phase", ik.phase) || add_int(e, "idle_repeat", ik.repeat) ||
	    jsonnum_add(e, "idle_target_ns", json_object_new_uint64(idle_ns)) ||
	    jsonnum_add(e, "idle_profile_ns", jsonnum_new((double)idle_ns / scale)) ||
	    add_int(e, "phase", pts.first_phase) || add_str(e, "cell", cell) ||
	    add_str(e, "metric", metric) || jsonnum_add(e, "steady_state", jsonnum_new(avg)) ||
	    jsonnum_add(e, "first", jsonnum_new(r.first)) ||
	    jsonnum_add(e, "first_change", jsonnum_new(r.first / avg - 1)) ||
	    jsonnum_add(e, "band", jsonnum_new(rule.band)) ||
	    jsonnum_add(e, "measurements", json_object_new_int64((int64_t)r.measurements)) ||
	    add_str(e, "verdict", r.back ? "back" : "not_within_measured_rounds") ||
	    jsonnum_add(e, "back_round", r.back ? json_object_new_int64(r.back_round) : NULL) ||
	    jsonnum_add(e, "back_after_target_ns",
			r.back ? json_object_new_uint64(r.back_after_ns) : NULL) ||
	    jsonnum_add(e, "back_after_profile_ns",
			r.back ? jsonnum_new((double)r.back_after_ns / scale) : NULL) ||
	    jsonnum_add(e, "back_after_bytes",
			r.back ? json_object_new_uint64(r.back_after_bytes) : NULL))
		return -ENOMEM;
	jr = json_object_new_object();
	if (jsonnum_add(e, "rule", jr) || !jr || add_str(jr, "name", RECOVERY_RULE_NAME) ||
	    add_int(jr, "rounds", rule.rounds) || jsonnum_add(jr, "band", jsonnum_new(rule.band)) ||
	    jsonnum_add(e, "first_in_band_round",
			r.has_first_in_band ? json_object_new_int64(r.first_in_band_round) : NULL))
		return -ENOMEM;
	return 0;
}

/* The plan's phase with depth-first number *n (counted down), through repeat bodies. */
static struct json_object *plan_phase(struct json_object *list, int64_t *n)
{
	for (size_t i = 0; list && i < json_object_array_length(list); i++) {
		struct json_object *ph = json_object_array_get_idx(list, i), *set, *body, *x;

		if (!(*n)--)
			return ph;
		if (json_object_object_get_ex(ph, "settings", &set) &&
		    json_object_object_get_ex(set, "phases", &body) &&
		    (x = plan_phase(body, n)))
			return x;
	}
	return NULL;
}

static double num_or_nan(struct json_object *o, const char *key)
{
	return jsonget_num(o, key);
}

/* "4k", "1m", "512": a block size as profiles write it. */
static void fmt_bs(uint64_t b, char *buf, size_t len)
{
	if (b && !(b % (1u << 20)))
		snprintf(buf, len, "%" PRIu64 "m", b >> 20);
	else if (b && !(b % 1024))
		snprintf(buf, len, "%" PRIu64 "k", b >> 10);
	else
		snprintf(buf, len, "%" PRIu64, b);
}

/* The value of `key` in a cell key such as "rwmix_read=0,bs=4k", into buf; NULL when absent. */
static const char *cell_coord(const char *cell, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);

	for (const char *p = cell; p && *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(buf, len, "%.*s", (int)(n - kl - 1), p + kl + 1);
			return buf;
		}
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

/* The plan's workload of phase `phase` (a rounds phase's base, else the phase's workload). */
static struct json_object *plan_workload(const struct analyze_input *in, int64_t phase)
{
	struct json_object *plan, *list, *ph, *set, *w;
	int64_t n = phase;

	if (phase < 0 || !json_object_object_get_ex(in->manifest, "plan", &plan) ||
	    !json_object_object_get_ex(plan, "phases", &list) || !(ph = plan_phase(list, &n)) ||
	    !json_object_object_get_ex(ph, "settings", &set))
		return NULL;
	if (json_object_object_get_ex(set, "base", &w) ||
	    json_object_object_get_ex(set, "workload", &w))
		return w;
	return NULL;
}

/*
 * A measurement's workload in words, from the plan's workload of its phase with the cell's
 * coordinates applied (profile.c's cell_apply, read back from the manifest since the analysis
 * sees no profile): "4k randwrite", "1m read", "4k randrw 65% read", "4k+64k randread" (a
 * split); the queue into q: "QD32", "4 threads x QD32" ("" when unknown). Without a plan (an
 * older manifest) the workload is the cell key itself.
 */
static void headline_describe(const struct analyze_input *in, int64_t phase, const char *cell,
			      char *wl, size_t wllen, char *q, size_t qlen)
{
	struct json_object *w = plan_workload(in, phase), *bs;
	const char *rw = w ? str_of(w, "rw") : NULL, *c;
	char b[64] = "", v[32], rwc[16], mix[32] = "";
	int64_t qd = 0, threads = 1, rmix = -1;
	int seq;

	snprintf(wl, wllen, "%s", cell);
	q[0] = '\0';
	if (!rw || !json_object_object_get_ex(w, "bs", &bs) ||
	    !json_object_is_type(bs, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(bs); i++) {
		uint64_t x = 0;
		size_t used = strlen(b);

		(void)jsonnum_get_u64(json_object_array_get_idx(bs, i), "bs", &x);
		fmt_bs(x, v, sizeof(v));
		snprintf(b + used, sizeof(b) - used, "%s%s", i ? "+" : "", v);
	}
	(void)int_of(w, "rwmix_read", &rmix);
	(void)int_of(w, "qd", &qd);
	(void)int_of(w, "threads", &threads);
	if ((c = cell_coord(cell, "bs", v, sizeof(v))))
		snprintf(b, sizeof(b), "%s", c);
	if ((c = cell_coord(cell, "rw", rwc, sizeof(rwc))))
		rw = c;
	if ((c = cell_coord(cell, "rwmix_read", v, sizeof(v))))
		rmix = strtoll(c, NULL, 10);
	if ((c = cell_coord(cell, "qd", v, sizeof(v))))
		qd = strtoll(c, NULL, 10);
	if ((c = cell_coord(cell, "threads", v, sizeof(v))))
		threads = strtoll(c, NULL, 10);
	seq = !strcmp(rw, "rw") || !strcmp(rw, "read") || !strcmp(rw, "write");
	if (!strcmp(rw, "randrw") || !strcmp(rw, "rw")) {
		if (rmix == 100)
			rw = seq ? "read" : "randread";
		else if (rmix == 0)
			rw = seq ? "write" : "randwrite";
		else if (rmix > 0)
			snprintf(mix, sizeof(mix), " %" PRId64 "%% read", rmix);
	}
	snprintf(wl, wllen, "%s %s%s", b, rw, mix);
	if (qd > 0 && threads > 1)
		snprintf(q, qlen, "%" PRId64 " threads x QD%" PRId64, threads, qd);
	else if (qd > 0)
		snprintf(q, qlen, "QD%" PRId64, qd);
}

/* Rounds phases with more cells than this show in the headline only those that share the
 * tracked cell's block size (SNIA's IOPS matrix: the 7 mixes at 4 KiB); the rest are in "cells". */
#define HEADLINE_MAX_CELLS 9

/* The tracked cell of (phase, repeat) from the steady_state pass, or NULL. */
static const char *tracked_cell(struct json_object *summary, int64_t phase, int64_t repeat)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(summary, "steady_state", &arr))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		int64_t p, r;

		if (!int_of(s, "phase", &p) && !int_of(s, "repeat", &r) && p == phase &&
		    r == repeat)
			return str_of(s, "cell");
	}
	return NULL;
}

/* Whether a recovery entry of the headline measures phase `phase` (then that line reports it). */
static int is_recovery_phase(struct json_object *recovery, int64_t phase)
{
	for (size_t i = 0; recovery && i < json_object_array_length(recovery); i++) {
		int64_t p;

		if (!int_of(json_object_array_get_idx(recovery, i), "phase", &p) && p == phase)
			return 1;
	}
	return 0;
}

/*
 * headline.results: the figures of every measured cell of a rounds phase, from the cells pass
 * (over the steady-state window where one was judged): IOPS, MB/s and latency (mean, p99, max)
 * of all its I/O, so that each profile's headline carries its main result whatever it is
 * (SNIA's throughput, IOPS and latency tests, a read-only sweep). Phases after an idle are left
 * to the recovery line; large matrices are cut as HEADLINE_MAX_CELLS says, and the number of
 * cells left out is "results_omitted".
 */
static int headline_results(const struct analyze_input *in, struct json_object *summary,
			    struct json_object *h, struct json_object *recovery)
{
	struct json_object *cells, *arr = json_object_new_array();
	size_t n, omitted = 0;

	if (jsonnum_add(h, "results", arr) || !arr)
		return -ENOMEM;
	if (!json_object_object_get_ex(summary, "cells", &cells))
		return add_int(h, "results_omitted", 0);
	n = json_object_array_length(cells);
	for (size_t i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(cells, i), *t, *lat = NULL, *e;
		const char *kind = str_of(c, "kind"), *cell = str_of(c, "cell"), *tr;
		char wl[128], q[64], a[32], b[32];
		int64_t p = -1, r = 0, p2, r2;
		size_t in_phase = 0;

		if (!kind || strcmp(kind, "cell") || !cell || int_of(c, "phase", &p) ||
		    int_of(c, "repeat", &r) || !json_object_object_get_ex(c, "total", &t) ||
		    is_recovery_phase(recovery, p))
			continue;
		for (size_t j = 0; j < n; j++)
			in_phase += !int_of(json_object_array_get_idx(cells, j), "phase", &p2) &&
				    !int_of(json_object_array_get_idx(cells, j), "repeat", &r2) &&
				    p2 == p && r2 == r;
		tr = tracked_cell(summary, p, r);
		if (in_phase > HEADLINE_MAX_CELLS &&
		    (!tr || !cell_coord(tr, "bs", a, sizeof(a)) ||
		     !cell_coord(cell, "bs", b, sizeof(b)) || strcmp(a, b))) {
			omitted++;
			continue;
		}
		headline_describe(in, p, cell, wl, sizeof(wl), q, sizeof(q));
		(void)json_object_object_get_ex(t, "lat_ns", &lat);
		e = json_object_new_object();
		if (json_object_array_add(arr, e) || !e || add_int(e, "phase", p) ||
		    add_int(e, "repeat", r) || add_str(e, "cell", cell) ||
		    add_str(e, "workload", wl) || add_str(e, "queue", q) ||
		    add_str(e, "over", str_of(c, "over")) ||
		    jsonnum_add(e, "first_round",
				json_object_get(json_object_object_get(c, "first_round"))) ||
		    jsonnum_add(e, "last_round",
				json_object_get(json_object_object_get(c, "last_round"))) ||
		    jsonnum_add(e, "iops", jsonnum_new(num_or_nan(t, "iops"))) ||
		    jsonnum_add(e, "bw_bps", jsonnum_new(num_or_nan(t, "bw_bps"))) ||
		    jsonnum_add(e, "lat_mean_ns",
				jsonnum_new(lat ? num_or_nan(lat, "mean") : NAN)) ||
		    jsonnum_add(e, "lat_p99_ns", jsonnum_new(lat ? num_or_nan(lat, "p99") : NAN)) ||
		    jsonnum_add(e, "lat_max_ns", jsonnum_new(lat ? num_or_nan(lat, "max") : NAN)))
			return -ENOMEM;
	}
	return add_int(h, "results_omitted", (int64_t)omitted);
}

/* One drive fill of a write_until phase (headline_wsat). */
struct fill {
	uint64_t ios, elapsed_ns, from_bytes, to_bytes;
};

/* The fills of (phase, repeat)'s write_until records into a new array; NULL on ENOMEM. */
static struct json_object *wsat_fills(const struct analyze_input *in, const struct reader_key *k,
				      uint64_t cap, uint64_t written)
{
	uint64_t nf = written / cap + 1, bw, el, ios;
	struct fill *f = calloc(nf, sizeof(*f));
	struct json_object *fa = json_object_new_array(), *tot;
	struct reader_key k2;

	if (!f || !fa)
		goto fail;
	written = 0;
	for (size_t j = 0; j < in->records.n; j++) {
		struct json_object *rec = in->records.rec[j];
		struct fill *x;

		if (reader_key(rec, &k2) || strcmp(k2.kind, "write_until") || k2.phase != k->phase ||
		    k2.repeat != k->repeat || jsonnum_get_u64(rec, "bytes_written_total", &bw) ||
		    jsonnum_get_u64(rec, "elapsed_ns", &el) ||
		    !json_object_object_get_ex(rec, "total", &tot) ||
		    jsonnum_get_u64(tot, "ios", &ios))
			continue;
		x = &f[written / cap < nf ? written / cap : nf - 1];
		if (!x->elapsed_ns && !x->ios)
			x->from_bytes = written;
		x->ios += ios;
		x->elapsed_ns += el;
		written += bw;
		x->to_bytes = written;
	}
	for (uint64_t j = 0; j < nf; j++) {
		struct json_object *o;

		if (!f[j].elapsed_ns)
			continue;
		o = json_object_new_object();
		if (json_object_array_add(fa, o) || !o ||
		    jsonnum_add(o, "from_x", jsonnum_new((double)f[j].from_bytes / (double)cap)) ||
		    jsonnum_add(o, "to_x", jsonnum_new((double)f[j].to_bytes / (double)cap)) ||
		    jsonnum_add(o, "ios", json_object_new_uint64(f[j].ios)) ||
		    jsonnum_add(o, "elapsed_ns", json_object_new_uint64(f[j].elapsed_ns)) ||
		    jsonnum_add(o, "iops", jsonnum_new(f[j].ios * 1e9 / (double)f[j].elapsed_ns)))
			goto fail;
	}
	free(f);
	return fa;
fail:
	free(f);
	json_object_put(fa);
	return NULL;
}

/*
 * headline.write_saturation: per write_until phase (SNIA's WSAT), IOPS against the capacity
 * written, as the PTS plots it: the first record (fresh out of box), then per drive fill (a
 * record counts in the fill where it started: bytes written before it / the target's capacity)
 * the IOPS of its records together (their I/Os over their time, as the cells pass sums them).
 * The last fill is the level the drive settles at.
 */
static int headline_wsat(const struct analyze_input *in, struct json_object *h)
{
	struct json_object *arr = json_object_new_array(), *tgt;
	uint64_t cap = 0;

	if (jsonnum_add(h, "write_saturation", arr) || !arr)
		return -ENOMEM;
	if (json_object_object_get_ex(in->manifest, "target", &tgt))
		(void)jsonnum_get_u64(tgt, "capacity", &cap);
	for (size_t i = 0; cap && i < in->records.n; i++) {
		struct json_object *e, *fa, *tot;
		struct reader_key k, k2;
		uint64_t written = 0, ios, el, bw, all_ns = 0, all_ios = 0;
		double first = NAN, scale = 1;
		int seen = 0;
		char wl[128], q[64];

		if (reader_key(in->records.rec[i], &k) || strcmp(k.kind, "write_until"))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !reader_key(in->records.rec[j], &k2) &&
			       !strcmp(k2.kind, "write_until") && k2.phase == k.phase &&
			       k2.repeat == k.repeat;
		if (seen)
			continue;
		for (size_t j = i; j < in->records.n; j++) {
			struct json_object *rec = in->records.rec[j];

			if (reader_key(rec, &k2) || strcmp(k2.kind, "write_until") ||
			    k2.phase != k.phase || k2.repeat != k.repeat ||
			    jsonnum_get_u64(rec, "bytes_written_total", &bw) ||
			    jsonnum_get_u64(rec, "elapsed_ns", &el) ||
			    !json_object_object_get_ex(rec, "total", &tot) ||
			    jsonnum_get_u64(tot, "ios", &ios))
				continue;
			if (isnan(first)) {
				first = el ? ios * 1e9 / (double)el : NAN;
				(void)jsonnum_get(rec, "time_scale", &scale);
			}
			written += bw;
			all_ns += el;
			all_ios += ios;
		}
		if (!(scale > 0))
			scale = 1;
		headline_describe(in, k.phase, "", wl, sizeof(wl), q, sizeof(q));
		e = json_object_new_object();
		if (json_object_array_add(arr, e) || !e || add_int(e, "phase", k.phase) ||
		    add_int(e, "repeat", k.repeat) || add_str(e, "workload", wl) ||
		    add_str(e, "queue", q) ||
		    jsonnum_add(e, "capacity", json_object_new_uint64(cap)) ||
		    jsonnum_add(e, "written_bytes", json_object_new_uint64(written)) ||
		    jsonnum_add(e, "written_x", jsonnum_new((double)written / (double)cap)) ||
		    jsonnum_add(e, "target_ns", json_object_new_uint64(all_ns)) ||
		    jsonnum_add(e, "profile_ns", jsonnum_new((double)all_ns / scale)) ||
		    jsonnum_add(e, "iops",
				jsonnum_new(all_ns ? all_ios * 1e9 / (double)all_ns : NAN)) ||
		    jsonnum_add(e, "first_iops", jsonnum_new(first)))
			return -ENOMEM;
		fa = wsat_fills(in, &k, cap, written);
		if (jsonnum_add(e, "fills", fa) || !fa)
			return -ENOMEM;
	}
	return 0;
}

static int pass_headline(const struct analyze_input *in, struct json_object *summary, char *err,
			 size_t errlen)
{
	struct json_object *h = json_object_new_object(), *ss = NULL, *arr, *rec, *wa, *run;
	double v;

	(void)err;
	(void)errlen;
	if (jsonnum_add(summary, "headline", h) || !h)
		return -ENOMEM;
	(void)json_object_object_get_ex(summary, "steady_state", &ss);
	arr = json_object_new_array();
	if (jsonnum_add(h, "steady_state", arr) || !arr)
		return -ENOMEM;
	for (size_t i = 0; ss && i < json_object_array_length(ss); i++) {
		static const char *const copy[] = {"phase",	 "repeat",    "cell",
						   "metric",	 "verdict",   "average",
						   "first_round", "last_round"};
		struct json_object *s = json_object_array_get_idx(ss, i), *e = json_object_new_object();
		struct json_object *x;

		if (json_object_array_add(arr, e) || !e)
			return -ENOMEM;
		for (size_t c = 0; c < sizeof(copy) / sizeof(copy[0]); c++)
			if (json_object_object_get_ex(s, copy[c], &x) &&
			    jsonnum_add(e, copy[c], json_object_get(x)))
				return -ENOMEM;
		{
			char wl[128], q[64];
			int64_t p = -1;

			(void)int_of(s, "phase", &p);
			headline_describe(in, p, S(str_of(s, "cell")), wl, sizeof(wl), q,
					  sizeof(q));
			if (add_str(e, "workload", wl) || add_str(e, "queue", q))
				return -ENOMEM;
		}
		x = headline_ss_wa(in, s);
		if (jsonnum_add(e, "wa", x ? json_object_get(json_object_object_get(x, "wa")) : NULL) ||
		    add_str(e, "wa_from", x ? str_of(x, "from_label") : NULL) ||
		    add_str(e, "wa_to", x ? str_of(x, "to_label") : NULL)) {
			json_object_put(x);
			return -ENOMEM;
		}
		json_object_put(x);
	}
	v = NAN;
	if (json_object_object_get_ex(summary, "wa", &wa) &&
	    json_object_object_get_ex(wa, "run", &run) && run && jsonnum_get(run, "wa", &v))
		v = NAN;
	if (jsonnum_add(h, "wa_run", jsonnum_new(v)))
		return -ENOMEM;
	arr = json_object_new_array();
	if (jsonnum_add(h, "recovery", arr) || !arr)
		return -ENOMEM;
	for (size_t i = 0; i < in->records.n; i++) {
		struct reader_key k;
		int rc;

		rec = in->records.rec[i];
		if (reader_key(rec, &k) || strcmp(k.kind, "idle"))
			continue;
		rc = headline_recovery(in, ss, i, arr);
		if (rc)
			return rc;
	}
	if (headline_results(in, summary, h, arr) || headline_wsat(in, h))
		return -ENOMEM;
	return 0;
}

/* ---- driver --------------------------------------------------------------------------------- */

/* In order: later passes may read what earlier ones wrote (cells reads steady_state). */
static const struct analyze_pass passes[] = {
    {"steady_state", pass_steady_state},
    {"cells", pass_cells},
    {"wa", pass_wa},
    {"flags", pass_flags},
    {"headline", pass_headline},
};

/*
 * Every record must be one the analysis understands: a record it skipped would silently change
 * the figures (a cell dropped from a steady-state window). The kinds the runner writes
 * (runner.c: job_step and plain_step callers, the resume marker); a new kind is added here with
 * the pass that reads it. Returns 0, or -EBADMSG naming the line (records are one a line).
 */
static int check_records(const char *dir, const struct results_records *rr, char *err,
			 size_t errlen)
{
	static const char *const known[] = {"cell",  "precondition", "write_until", "purge",
					    "trim",  "idle",	     "resume"};
	struct reader_key k;

	for (size_t i = 0; i < rr->n; i++) {
		bool ok = false;

		if (reader_key(rr->rec[i], &k)) {
			set_err(err, errlen,
				"%s/records.jsonl: line %zu lacks a key field (phase, repeat, round, "
				"cell and kind are required)",
				dir, i + 1);
			return -EBADMSG;
		}
		for (size_t j = 0; j < sizeof(known) / sizeof(known[0]) && !ok; j++)
			ok = !strcmp(k.kind, known[j]);
		if (!ok) {
			set_err(err, errlen,
				"%s/records.jsonl: line %zu has an unknown kind '%.40s' (expected cell, "
				"precondition, write_until, purge, trim, idle or resume)",
				dir, i + 1, k.kind);
			return -EBADMSG;
		}
	}
	return 0;
}

int analyze_dir(const char *dir, struct json_object **out, char *err, size_t errlen)
{
	struct analyze_input in;
	struct json_object *summary = NULL, *rec;
	int rc;

	memset(&in, 0, sizeof(in));
	in.dir = dir;
	rc = results_read_manifest(dir, &in.manifest);
	if (rc) {
		set_err(err, errlen, "%s/manifest.json: %s", dir,
			rc == -EBADMSG ? "not valid JSON" : strerror(-rc));
		return rc;
	}
	rc = results_read_records(dir, &in.records);
	if (rc) {
		if (rc == -EBADMSG)
			set_err(err, errlen,
				"%s/records.jsonl: line %u is corrupt (not the last line, so not a "
				"torn write)",
				dir, in.records.bad_line);
		else
			set_err(err, errlen, "%s/records.jsonl: %s", dir, strerror(-rc));
		goto out;
	}
	rc = check_records(dir, &in.records, err, errlen);
	if (rc)
		goto out;
	rc = results_read_snapshots(dir, &in.snapshots);
	if (rc) {
		set_err(err, errlen, "%s/snapshots: %s", dir,
			rc == -EBADMSG ? "a file is not valid JSON" : strerror(-rc));
		goto out;
	}
	rc = reader_snaps_load(&in.snapshots, &in.snaps);
	if (rc)
		goto out;
	rc = -ENOMEM;
	summary = json_object_new_object();
	rec = summary ? json_object_new_object() : NULL;
	if (!summary || add_int(summary, "schema", RESULTS_SCHEMA) ||
	    add_str(summary, "analyzer", "ssdlab " SSDLAB_VERSION) ||
	    jsonnum_add(summary, "records", rec) || !rec ||
	    add_int(rec, "count", (int64_t)in.records.n) ||
	    jsonnum_add(rec, "torn_last_line_dropped",
			json_object_new_boolean(in.records.torn_last)) ||
	    add_int(rec, "snapshots", (int64_t)in.snapshots.n))
		goto out;
	for (size_t i = 0; i < sizeof(passes) / sizeof(passes[0]); i++) {
		rc = passes[i].run(&in, summary, err, errlen);
		if (rc) {
			if (err && !*err)
				set_err(err, errlen, "analysis pass %s: %s", passes[i].name,
					strerror(-rc));
			goto out;
		}
	}
	*out = summary;
	summary = NULL;
	rc = 0;
out:
	json_object_put(summary);
	json_object_put(in.manifest);
	results_records_release(&in.records);
	results_snapshots_release(&in.snapshots);
	reader_snaps_release(&in.snaps);
	return rc;
}

int analyze_write(const char *dir, struct json_object **out, char *err, size_t errlen)
{
	struct json_object *s = NULL;
	int rc = analyze_dir(dir, &s, err, errlen);

	if (rc)
		return rc;
	rc = results_write_summary(dir, s);
	if (rc) {
		set_err(err, errlen, "%s/summary.json: %s", dir, strerror(-rc));
		json_object_put(s);
		return rc;
	}
	if (out)
		*out = s;
	else
		json_object_put(s);
	return 0;
}
