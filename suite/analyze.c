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
#include "analyze.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "config.h"
#include "hist.h"
#include "jsonnum.h"
#include "snapshot.h"
#include "ss.h"
#include "units.h"

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
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_string))
		return NULL;
	return json_object_get_string(x);
}

static int int_of(struct json_object *o, const char *key, int64_t *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_int))
		return -EINVAL;
	*v = json_object_get_int64(x);
	return 0;
}

/* The key fields every record has (results_record_to_json); -EBADMSG when one is missing. */
struct rkey {
	int64_t phase, repeat, round;
	const char *kind, *cell, *phase_kind;
};

static int rkey_of(struct json_object *rec, struct rkey *k)
{
	if (int_of(rec, "phase", &k->phase) || int_of(rec, "repeat", &k->repeat) ||
	    int_of(rec, "round", &k->round) || !(k->kind = str_of(rec, "kind")) ||
	    !(k->cell = str_of(rec, "cell")))
		return -EBADMSG;
	k->phase_kind = str_of(rec, "phase_kind");
	if (!k->phase_kind)
		k->phase_kind = "";
	return 0;
}

static int has_flag(struct json_object *rec, const char *flag)
{
	struct json_object *f;

	if (!json_object_object_get_ex(rec, "flags", &f) ||
	    !json_object_is_type(f, json_type_array))
		return 0;
	for (size_t i = 0; i < json_object_array_length(f); i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(f, i));

		if (s && !strcmp(s, flag))
			return 1;
	}
	return 0;
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
		struct rkey k;
		double v;

		if (rkey_of(rec, &k) || strcmp(k.kind, "cell") || k.phase != phase ||
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
	struct rkey k;
	int64_t first_round, last_round; /* the records taken */
	size_t nrec;
	uint64_t ios[2], bytes[2], elapsed_ns;
	double cpu_user_s, cpu_sys_s;
	size_t host_limited, io_errors;
	struct hist *h[2];
	struct json_object *per_round; /* every record of the group, in or out of the window */
};

static void groups_free(struct group *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(g[i].h[0]);
		free(g[i].h[1]);
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

static int same_group(const struct rkey *a, const struct rkey *b)
{
	return a->phase == b->phase && a->repeat == b->repeat && !strcmp(a->kind, b->kind) &&
	       !strcmp(a->cell, b->cell);
}

static int accumulate(struct group *g, struct json_object *rec, const struct rkey *k)
{
	static const char *const dirkey[2] = {"read", "write"};
	struct hist *one = NULL;
	uint64_t elapsed = 0;
	double cu = 0, cs = 0;
	int rc = -EBADMSG;

	one = malloc(sizeof(*one));
	if (!one)
		return -ENOMEM;
	if (jsonnum_get_u64(rec, "elapsed_ns", &elapsed))
		goto out;
	for (int d = 0; d < 2; d++) {
		struct json_object *o, *hj;
		uint64_t ios, bytes;

		if (!json_object_object_get_ex(rec, dirkey[d], &o) ||
		    jsonnum_get_u64(o, "ios", &ios) || jsonnum_get_u64(o, "bytes", &bytes) ||
		    !json_object_object_get_ex(o, "hist", &hj) || hist_from_json(hj, one))
			goto out;
		g->ios[d] += ios;
		g->bytes[d] += bytes;
		hist_merge(g->h[d], one);
	}
	(void)jsonnum_get(rec, "cpu_user_s", &cu);
	(void)jsonnum_get(rec, "cpu_sys_s", &cs);
	g->elapsed_ns += elapsed;
	g->cpu_user_s += cu;
	g->cpu_sys_s += cs;
	if (!g->nrec++)
		g->first_round = k->round;
	g->last_round = k->round;
	g->host_limited += has_flag(rec, "host_limited");
	g->io_errors += json_object_object_get_ex(rec, "error", NULL);
	rc = 0;
out:
	free(one);
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
	hist_init(all);
	hist_merge(all, g->h[0]);
	hist_merge(all, g->h[1]);
	if (add_int(o, "phase", g->k.phase) || add_int(o, "repeat", g->k.repeat) ||
	    add_str(o, "phase_kind", g->k.phase_kind) || add_str(o, "kind", g->k.kind) ||
	    add_str(o, "cell", g->k.cell) || add_int(o, "records", (int64_t)g->nrec) ||
	    add_int(o, "first_round", g->first_round) || add_int(o, "last_round", g->last_round) ||
	    add_str(o, "over", windowed ? "steady_state_window" : "all_records") ||
	    jsonnum_add(o, "elapsed_ns", json_object_new_uint64(g->elapsed_ns)))
		goto fail;
	for (int d = 0; d < 2; d++) {
		x = results_figures_json(g->ios[d], g->bytes[d], g->elapsed_ns, g->h[d]);
		if (jsonnum_add(o, d ? "write" : "read", x) || !x)
			goto fail;
	}
	/* Percentiles of the merged histograms, never averaged. */
	x = results_figures_json(g->ios[0] + g->ios[1], g->bytes[0] + g->bytes[1], g->elapsed_ns,
				 all);
	if (jsonnum_add(o, "total", x) || !x ||
	    jsonnum_add(o, "cpu_user_s", jsonnum_new(g->cpu_user_s)) ||
	    jsonnum_add(o, "cpu_sys_s", jsonnum_new(g->cpu_sys_s)) ||
	    add_int(o, "host_limited_records", (int64_t)g->host_limited) ||
	    add_int(o, "io_error_records", (int64_t)g->io_errors) ||
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
static int per_round_add(struct json_object *arr, struct json_object *rec, const struct rkey *k)
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
		struct rkey k;
		int64_t lo, hi;
		size_t j;

		/* Only measurements with I/O figures (not idle, trim, purge, resume). */
		if (rkey_of(rec, &k) || !json_object_object_get_ex(rec, "elapsed_ns", NULL))
			continue;
		for (j = 0; j < ng && !same_group(&g[j].k, &k); j++)
			;
		if (j == ng) {
			g[j].k = k;
			g[j].h[0] = malloc(sizeof(struct hist));
			g[j].h[1] = malloc(sizeof(struct hist));
			g[j].per_round = json_object_new_array();
			ng++;
			if (!g[j].h[0] || !g[j].h[1] || !g[j].per_round)
				goto out;
			hist_init(g[j].h[0]);
			hist_init(g[j].h[1]);
		}
		rc = per_round_add(g[j].per_round, rec, &k);
		if (rc)
			goto out;
		/* The figures of a judged rounds phase are those of its window (SNIA's report). */
		if (!strcmp(k.kind, "cell") && ss_window(summary, k.phase, k.repeat, &lo, &hi) &&
		    (k.round < lo || k.round > hi))
			continue;
		rc = accumulate(&g[j], rec, &k);
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

static struct json_object *wa_entry(struct json_object *a, struct json_object *b, int64_t phase,
				    int64_t repeat, int with_phase)
{
	struct json_object *o = json_object_new_object();
	struct snapshot *sa = calloc(2, sizeof(*sa)), *sb = sa ? sa + 1 : NULL;
	const struct counter *h0, *h1, *n0, *n1;
	int64_t seq_a = -1, seq_b = -1;
	double wa = NAN;
	int ok;

	if (!o || !sa)
		goto fail;
	ok = !snapshot_from_json(a, sa) && !snapshot_from_json(b, sb);
	(void)int_of(a, "seq", &seq_a);
	(void)int_of(b, "seq", &seq_b);
	if (with_phase && (add_int(o, "phase", phase) || add_int(o, "repeat", repeat)))
		goto fail;
	if (add_int(o, "from_seq", seq_a) || add_int(o, "to_seq", seq_b) ||
	    add_str(o, "from_label", ok ? sa->label : "") ||
	    add_str(o, "to_label", ok ? sb->label : ""))
		goto fail;
	h0 = ok ? snapshot_get(sa, "host_bytes_written") : NULL;
	h1 = ok ? snapshot_get(sb, "host_bytes_written") : NULL;
	n0 = ok ? snapshot_get(sa, "nand_bytes_written") : NULL;
	n1 = ok ? snapshot_get(sb, "nand_bytes_written") : NULL;
	if (jsonnum_add(o, "host_bytes_written",
			h0 && h1 ? jsonnum_new(h1->value - h0->value) : NULL) ||
	    jsonnum_add(o, "nand_bytes_written",
			n0 && n1 ? jsonnum_new(n1->value - n0->value) : NULL))
		goto fail;
	if (ok && snapshot_wa(sa, sb, &wa))
		wa = NAN;
	if (jsonnum_add(o, "wa", jsonnum_new(wa)))
		goto fail;
	if (sa) {
		snapshot_release(sa);
		snapshot_release(sb);
	}
	free(sa);
	return o;
fail:
	if (sa) {
		snapshot_release(sa);
		snapshot_release(sb);
	}
	free(sa);
	json_object_put(o);
	return NULL;
}

/*
 * WA per (phase, repeat) from the first and last snapshot tagged with it; a phase with a single
 * snapshot (the runner took one per boundary) starts from the snapshot before it. And over the
 * whole run, from the first snapshot to the last.
 */
static int pass_wa(const struct analyze_input *in, struct json_object *summary, char *err,
		   size_t errlen)
{
	struct json_object *wa = json_object_new_object(), *arr, *run;
	const struct results_snapshots *s = &in->snapshots;

	if (jsonnum_add(summary, "wa", wa) || !wa)
		return -ENOMEM;
	arr = json_object_new_array();
	if (jsonnum_add(wa, "phases", arr) || !arr)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		int64_t phase = -1, repeat = 0, p, r;
		size_t first = i, last = i, seen = 0;
		struct json_object *e;

		if (int_of(s->snap[i], "phase", &phase) || phase < 0)
			continue;
		(void)int_of(s->snap[i], "repeat", &repeat);
		/* First-seen order: skip a (phase, repeat) met before. */
		for (size_t j = 0; j < i && !seen; j++)
			seen = !int_of(s->snap[j], "phase", &p) && p == phase &&
			       !int_of(s->snap[j], "repeat", &r) && r == repeat;
		if (seen)
			continue;
		for (size_t j = i + 1; j < s->n; j++)
			if (!int_of(s->snap[j], "phase", &p) && p == phase &&
			    !int_of(s->snap[j], "repeat", &r) && r == repeat)
				last = j;
		if (first == last) {
			if (!first)
				continue;
			first--;
		}
		e = wa_entry(s->snap[first], s->snap[last], phase, repeat, 1);
		if (!e || json_object_array_add(arr, e)) {
			json_object_put(e);
			return -ENOMEM;
		}
	}
	run = s->n >= 2 ? wa_entry(s->snap[0], s->snap[s->n - 1], 0, 0, 0) : NULL;
	if (s->n >= 2 && !run)
		return -ENOMEM;
	return jsonnum_add(wa, "run", run);
}

/* ---- pass: flags ---------------------------------------------------------------------------- */

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
	struct json_object *f = json_object_new_object(), *nr, *hl, *rp, *arr;
	size_t resumes = 0, errors = 0;

	if (jsonnum_add(summary, "flags", f) || !f)
		return -ENOMEM;
	nr = json_object_new_array();
	hl = json_object_new_array();
	rp = json_object_new_array();
	if (jsonnum_add(f, "steady_state_not_reached", nr) || !nr ||
	    jsonnum_add(f, "host_limited", hl) || !hl || jsonnum_add(f, "resume_points", rp) || !rp)
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
		struct rkey k;

		if (rkey_of(rec, &k))
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
		if (!has_flag(rec, "host_limited"))
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
	return 0;
}

/* ---- pass: headline ------------------------------------------------------------------------- */

/* Recovery counts as back to steady state within this share of the steady-state average. */
#define HEADLINE_BAND 0.10

/* The first record (index) of (phase, repeat) with round `round`, or the last one: -1 none. */
static long round_record(const struct analyze_input *in, int64_t phase, int64_t repeat,
			 int64_t round, int last)
{
	long found = -1;

	for (size_t i = 0; i < in->records.n; i++) {
		struct rkey k;

		if (rkey_of(in->records.rec[i], &k) || k.phase != phase || k.repeat != repeat ||
		    k.round != round || !strcmp(k.kind, "resume"))
			continue;
		found = (long)i;
		if (!last)
			break;
	}
	return found;
}

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
	long a = -1, b = -1, ra, rb;

	if (int_of(ss, "phase", &phase) || int_of(ss, "repeat", &repeat) ||
	    int_of(ss, "first_round", &lo) || int_of(ss, "last_round", &hi))
		return NULL;
	ra = round_record(in, phase, repeat, lo, 0);
	rb = round_record(in, phase, repeat, hi, 1);
	if (ra < 0 || rb < 0 || jsonnum_get_u64(in->records.rec[ra], "start_ns", &t0) ||
	    jsonnum_get_u64(in->records.rec[rb], "end_ns", &t1))
		return NULL;
	for (size_t i = 0; i < in->snapshots.n; i++) {
		uint64_t t;

		if (jsonnum_get_u64(in->snapshots.snap[i], "target_ns", &t))
			continue;
		if (t <= t0)
			a = (long)i;
		if (t >= t1 && b < 0 && a >= 0)
			b = (long)i;
	}
	if (a < 0 || b < 0 || a >= b)
		return NULL;
	return wa_entry(in->snapshots.snap[a], in->snapshots.snap[b], 0, 0, 0);
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
		last = round_record(in, p, r, hi, 1);
		if (last >= 0 && (size_t)last < before)
			best = s;
	}
	return best;
}

/*
 * Recovery after an idle phase: the measurements after it (records of the tracked cell, or of
 * a write_until, up to the next idle) against the steady-state average judged before it. The
 * first one's change; then how much writing (target time, and in the profile's time: divided by
 * the record's time_scale; bytes) came before the first measurement back within HEADLINE_BAND
 * of the average. NULL entry when the idle has no steady state before it or nothing after.
 */
static int headline_recovery(const struct analyze_input *in, struct json_object *ssarr,
			     size_t idle, struct json_object *out)
{
	struct json_object *ss = ss_before(in, ssarr, idle), *e;
	const char *cell = ss ? str_of(ss, "cell") : NULL, *metric = ss ? str_of(ss, "metric") : NULL;
	uint64_t idle_ns = 0, w_ns = 0, w_bytes = 0;
	double avg = 0, first = NAN, scale = 1;
	struct rkey ik;
	long back = -1;
	size_t n = 0;
	int64_t back_round = 0, first_phase = -1;

	if (!ss || !cell || !metric || jsonnum_get(ss, "average", &avg) ||
	    rkey_of(in->records.rec[idle], &ik))
		return 0;
	(void)jsonnum_get_u64(in->records.rec[idle], "idle_ns", &idle_ns);
	(void)jsonnum_get(in->records.rec[idle], "time_scale", &scale);
	for (size_t i = idle + 1; i < in->records.n && back < 0; i++) {
		struct json_object *rec = in->records.rec[i];
		uint64_t el = 0, ramp = 0, bw = 0;
		struct rkey k;
		double v, s = 0;

		if (rkey_of(rec, &k))
			continue;
		if (!strcmp(k.kind, "idle"))
			break;
		if ((strcmp(k.kind, "cell") || strcmp(k.cell, cell)) && strcmp(k.kind, "write_until"))
			continue;
		if (results_record_metric(rec, metric, &v))
			continue;
		if (!n++) {
			first = v;
			first_phase = k.phase;
			if (!jsonnum_get(rec, "time_scale", &s) && s > 0)
				scale = s;
		}
		if (fabs(v - avg) <= HEADLINE_BAND * avg) {
			back = (long)i;
			back_round = k.round;
			break;
		}
		(void)jsonnum_get_u64(rec, "elapsed_ns", &el);
		(void)jsonnum_get_u64(rec, "ramp_ns", &ramp);
		(void)jsonnum_get_u64(rec, "bytes_written_total", &bw);
		w_ns += el + ramp;
		w_bytes += bw;
	}
	if (!n)
		return 0;
	if (!(scale > 0))
		scale = 1;
	e = json_object_new_object();
	if (json_object_array_add(out, e) || !e)
		return -ENOMEM;
	if (add_int(e, "idle_phase", ik.phase) || add_int(e, "idle_repeat", ik.repeat) ||
	    jsonnum_add(e, "idle_target_ns", json_object_new_uint64(idle_ns)) ||
	    jsonnum_add(e, "idle_profile_ns", jsonnum_new((double)idle_ns / scale)) ||
	    add_int(e, "phase", first_phase) || add_str(e, "cell", cell) ||
	    add_str(e, "metric", metric) || jsonnum_add(e, "steady_state", jsonnum_new(avg)) ||
	    jsonnum_add(e, "first", jsonnum_new(first)) ||
	    jsonnum_add(e, "first_change", jsonnum_new(first / avg - 1)) ||
	    jsonnum_add(e, "band", jsonnum_new(HEADLINE_BAND)) ||
	    jsonnum_add(e, "measurements", json_object_new_int64((int64_t)n)) ||
	    add_str(e, "verdict", back >= 0 ? "back" : "not_within_measured_rounds") ||
	    jsonnum_add(e, "back_round", back >= 0 ? json_object_new_int64(back_round) : NULL) ||
	    jsonnum_add(e, "back_after_target_ns",
			back >= 0 ? json_object_new_uint64(w_ns) : NULL) ||
	    jsonnum_add(e, "back_after_profile_ns",
			back >= 0 ? jsonnum_new((double)w_ns / scale) : NULL) ||
	    jsonnum_add(e, "back_after_bytes", back >= 0 ? json_object_new_uint64(w_bytes) : NULL))
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

/*
 * "4k randwrite" for a rounds phase of one cell ("all"), from the manifest's plan (its base
 * workload with a single block size); else the cell key itself. Into buf.
 */
static const char *headline_workload(const struct analyze_input *in, int64_t phase,
				     const char *cell, char *buf, size_t len)
{
	struct json_object *plan, *list, *ph, *set, *base, *bs, *rw;
	uint64_t b = 0;
	int64_t n = phase;

	snprintf(buf, len, "%s", cell);
	if (strcmp(cell, "all") || !json_object_object_get_ex(in->manifest, "plan", &plan) ||
	    !json_object_object_get_ex(plan, "phases", &list) || !(ph = plan_phase(list, &n)) ||
	    !json_object_object_get_ex(ph, "settings", &set) ||
	    !json_object_object_get_ex(set, "base", &base) ||
	    !json_object_object_get_ex(base, "bs", &bs) ||
	    !json_object_object_get_ex(base, "rw", &rw) ||
	    !json_object_is_type(bs, json_type_array) || json_object_array_length(bs) != 1 ||
	    jsonnum_get_u64(json_object_array_get_idx(bs, 0), "bs", &b) || !b)
		return buf;
	if (!(b % (1u << 20)))
		snprintf(buf, len, "%" PRIu64 "m %s", b >> 20, json_object_get_string(rw));
	else if (!(b % 1024))
		snprintf(buf, len, "%" PRIu64 "k %s", b >> 10, json_object_get_string(rw));
	else
		snprintf(buf, len, "%" PRIu64 " %s", b, json_object_get_string(rw));
	return buf;
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
			char wl[128];
			int64_t p = -1;

			(void)int_of(s, "phase", &p);
			if (add_str(e, "workload",
				    headline_workload(in, p, S(str_of(s, "cell")), wl, sizeof(wl))))
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
		struct rkey k;
		int rc;

		rec = in->records.rec[i];
		if (rkey_of(rec, &k) || strcmp(k.kind, "idle"))
			continue;
		rc = headline_recovery(in, ss, i, arr);
		if (rc)
			return rc;
	}
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
	struct rkey k;

	for (size_t i = 0; i < rr->n; i++) {
		bool ok = false;

		if (rkey_of(rr->rec[i], &k)) {
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

/* ---- headline ------------------------------------------------------------------------------- */

static double num_or_nan(struct json_object *o, const char *key)
{
	double v;

	return jsonnum_get(o, key, &v) ? NAN : v;
}

static const char *fmt(double v, int decimals, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	return units_fmt_double(v, decimals, buf, len);
}

/* Reads of unmapped LBAs, and a read-only run on a real target that nobody filled. */
static void print_unmapped_flags(struct json_object *flags, FILE *f)
{
	struct json_object *x;
	char a[48], b[48];
	int64_t hit = 0, n = 0;

	if (json_object_object_get_ex(flags, "reads_unmapped", &x) && x &&
	    !int_of(x, "records_with_unmapped", &hit) && hit > 0) {
		uint64_t bytes = 0;

		(void)int_of(x, "records", &n);
		(void)jsonnum_get_u64(x, "bytes", &bytes);
		units_fmt_size(bytes, b, sizeof(b));
		fprintf(f,
			"FLAG: %s%% of the bytes read (%s, in %" PRId64 " of %" PRId64
			" measurements) were of never-written or trimmed LBAs, answered without "
			"reading the flash: those read figures say nothing about the NAND (fill the "
			"range first)\n",
			fmt(100 * num_or_nan(x, "fraction"), 1, a, sizeof(a)), b, hit, n);
	}
	if (json_object_object_get_ex(flags, "reads_without_fill", &x) && json_object_get_boolean(x))
		fprintf(f, "FLAG: a read-only run with no fill: on a fresh or trimmed SSD, reads of "
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
		print_unmapped_flags(flags, f);
	}
}

/* "IOPS 3352", "MB/s 512.3", "p99 latency 812.4 us": a metric's value in its display unit. */
static void print_metric(FILE *f, const char *metric, double v)
{
	char a[48];

	if (!metric || !strcmp(metric, "iops"))
		fprintf(f, "IOPS %s", fmt(v, 0, a, sizeof(a)));
	else if (!strcmp(metric, "read_iops") || !strcmp(metric, "write_iops"))
		fprintf(f, "%s IOPS %s", metric[0] == 'r' ? "read" : "write", fmt(v, 0, a, sizeof(a)));
	else if (strstr(metric, "bw"))
		fprintf(f, "%s MB/s", fmt(v / 1e6, 1, a, sizeof(a)));
	else if (strstr(metric, "lat_"))
		fprintf(f, "%s %s us", metric, fmt(v / 1e3, 1, a, sizeof(a)));
	else
		fprintf(f, "%s %s", metric, fmt(v, 3, a, sizeof(a)));
}

void analyze_print_headline(struct json_object *summary, FILE *f)
{
	struct json_object *h, *arr, *x;
	char a[48], b[48], c[48];

	if (!json_object_object_get_ex(summary, "headline", &h))
		return;
	if (json_object_object_get_ex(h, "steady_state", &arr))
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *s = json_object_array_get_idx(arr, i);
			const char *v = S(str_of(s, "verdict"));
			int64_t lo = 0, hi = 0;

			(void)int_of(s, "first_round", &lo);
			(void)int_of(s, "last_round", &hi);
			fprintf(f, "steady state   %s ", S(str_of(s, "workload")));
			print_metric(f, str_of(s, "metric"), num_or_nan(s, "average"));
			if (!strcmp(v, "reached"))
				fprintf(f, " (reached in rounds %" PRId64 "-%" PRId64 ")\n", lo, hi);
			else
				fprintf(f, " (NOT reached: %s; last window rounds %" PRId64 "-%" PRId64
					   ")\n",
					v, lo, hi);
			if (isfinite(num_or_nan(s, "wa")) || isfinite(num_or_nan(h, "wa_run")))
				fprintf(f, "WA             %s in steady state, %s whole run\n",
					fmt(num_or_nan(s, "wa"), 2, a, sizeof(a)),
					fmt(num_or_nan(h, "wa_run"), 2, b, sizeof(b)));
		}
	if ((!json_object_object_get_ex(h, "steady_state", &arr) || !json_object_array_length(arr)) &&
	    isfinite(num_or_nan(h, "wa_run")))
		fprintf(f, "WA             %s whole run\n",
			fmt(num_or_nan(h, "wa_run"), 2, a, sizeof(a)));
	if (json_object_object_get_ex(h, "recovery", &arr))
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *r = json_object_array_get_idx(arr, i);
			double idle = num_or_nan(r, "idle_profile_ns"), ch = num_or_nan(r, "first_change");
			char label[64];

			units_fmt_duration(isfinite(idle) && idle > 0 ? (uint64_t)idle : 0, a,
					   sizeof(a));
			snprintf(label, sizeof(label), "after %s idle", a);
			fprintf(f, "%-14s ", label);
			print_metric(f, str_of(r, "metric"), num_or_nan(r, "first"));
			fprintf(f, " (%s%s%%), ", ch >= 0 ? "+" : "", fmt(100 * ch, 0, b, sizeof(b)));
			if (json_object_object_get_ex(r, "back_after_profile_ns", &x) && x) {
				units_fmt_duration((uint64_t)num_or_nan(r, "back_after_profile_ns"), c,
						   sizeof(c));
				fprintf(f, "back to steady state after %s of writing\n", c);
			} else {
				fprintf(f, "not back to steady state within the measured rounds\n");
			}
		}
	print_flags(summary, f);
}

void analyze_print_details(struct json_object *summary, FILE *f)
{
	struct json_object *arr, *x;
	char a[48], b[48], c[48], d[48], e[48];

	if (json_object_object_get_ex(summary, "steady_state", &arr))
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *s = json_object_array_get_idx(arr, i);
			double avg = num_or_nan(s, "average");
			int64_t p = 0, lo = 0, hi = 0;

			(void)int_of(s, "phase", &p);
			(void)int_of(s, "first_round", &lo);
			(void)int_of(s, "last_round", &hi);
			fprintf(f, "steady state, phase %" PRId64 " %s %s: %s", p,
				S(str_of(s, "cell")), S(str_of(s, "metric")),
				S(str_of(s, "verdict")));
			if (isfinite(avg) && avg > 0)
				fprintf(f,
					", rounds %" PRId64 "-%" PRId64
					", average %s, data excursion %s%% (max %s%%), slope "
					"excursion %s%% (max %s%%)",
					lo, hi, fmt(avg, 1, a, sizeof(a)),
					fmt(100 * num_or_nan(s, "data_excursion") / avg, 1, b,
					    sizeof(b)),
					fmt(100 * num_or_nan(s, "allowed_data_excursion") / avg, 0,
					    c, sizeof(c)),
					fmt(100 * num_or_nan(s, "slope_excursion") / avg, 1, d,
					    sizeof(d)),
					fmt(100 * num_or_nan(s, "allowed_slope_excursion") / avg, 0,
					    e, sizeof(e)));
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
			(void)int_of(s, "phase", &p);
			cell = S(str_of(s, "cell"));
			fprintf(f,
				"phase %" PRId64
				" %s%s%s: %s IOPS, %s MB/s, mean %s us, p99 %s us\n",
				p, S(str_of(s, "kind")), *cell ? " " : "", cell,
				fmt(num_or_nan(t, "iops"), 0, a, sizeof(a)),
				fmt(num_or_nan(t, "bw_bps") / 1e6, 1, b, sizeof(b)),
				fmt(lat ? num_or_nan(lat, "mean") / 1e3 : NAN, 1, c, sizeof(c)),
				fmt(lat ? num_or_nan(lat, "p99") / 1e3 : NAN, 1, d, sizeof(d)));
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

				if (!isfinite(num_or_nan(w, "wa")))
					continue;
				(void)int_of(w, "phase", &p);
				fprintf(f, "write amplification, phase %" PRId64 ": %s\n", p,
					fmt(num_or_nan(w, "wa"), 3, a, sizeof(a)));
			}
		if (json_object_object_get_ex(x, "run", &run) && run &&
		    isfinite(num_or_nan(run, "wa")))
			fprintf(f, "write amplification, whole run: %s\n",
				fmt(num_or_nan(run, "wa"), 3, a, sizeof(a)));
	}
}
